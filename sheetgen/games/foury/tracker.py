"""The Dungeon Foury adapter of `sheetgen track` (sheetgen.games.base.TrackerAdapter): `ADAPTER`.

Steps are play-log steps in the notation (sheetgen.games.foury.notation); a round
starts with an `{entry: CELL:SIDE}` (or `{start: CELL}`) step, which export turns
back into the log's `rounds:` list.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from sheetgen.games.base import Illegal, TrackerAdapter
from . import notation
from . import rules as E
from .actions import Fight, Move
from .board import cell_name, parse_cell
from .heroes import HEROES, Hero, check_free_traits, free_hero, named_hero
from .tables import REQUIREMENT_COUNT, RESOURCES, SANTA_COUNTERS


class TrackState:
    __slots__ = ("header", "board", "hero", "game", "steps")

    def __init__(self, header, board, hero, game, steps):
        self.header, self.board, self.hero, self.game, self.steps = header, board, hero, game, steps


def _load_map(name: str):
    from .formats.map import load_map
    return load_map(name)


# -- what each `track` command would otherwise rebuild, kept in the user cache -------------------
# A track command is one short process: validating the map (pydantic) and reading every recorded
# step again cost more than the rules.  The board of a map file, and the state a game's steps
# replay to, are kept by what they were made from (the map's bytes, the code of this game and of
# the definitions core); a changed map or code, an undo, a damaged entry: a miss, replayed as before.
@lru_cache(maxsize=1)
def _code() -> str:
    from sheetgen.definitions.snapshot import code_fingerprint
    h = hashlib.sha256(code_fingerprint().encode())
    games = Path(__file__).resolve().parent.parent
    for path in sorted([*games.glob("*.py"), *(games / "foury").rglob("*.py")]):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


def _map_key(ref: str) -> str | None:
    """The cache key of a map reference: its file's path and bytes, and the code; None if no file."""
    from sheetgen.limits import name_problem
    if name_problem(ref):
        return None
    path = Path(ref)
    if not path.is_file():
        from sheetgen.definitions.builtins import find_builtin
        try:
            path = find_builtin(ref)
        except Exception:           # noqa: BLE001 - not a built-in: the loader says what is wrong
            return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return hashlib.sha256(f"{path.resolve()}\0{_code()}\0".encode() + data).hexdigest()[:40]


def _board(ref: str):
    from sheetgen.usercache import cached
    key = _map_key(ref)
    if key is None:
        return _load_map(ref).board            # its errors, located, as before
    return cached("foury-board", key, lambda: _load_map(ref).board)


def _steps_text(steps: list) -> list[str]:
    return [json.dumps(step, sort_keys=True, separators=(",", ":")) for step in steps]


def _state_entry(header: dict) -> tuple[str, str] | None:
    key = _map_key(header["map"])
    if key is None:
        return None
    from sheetgen.usercache import entry_path
    game_key = hashlib.sha256((key + json.dumps(header, sort_keys=True)).encode()).hexdigest()[:40]
    return game_key, str(entry_path("foury-track", game_key))


def _recall(header: dict, steps: list):
    """(hero, game, how many of steps it covers) from the cache, or None."""
    import pickle
    entry = _state_entry(header)
    if entry is None:
        return None
    try:
        done, hero, game = pickle.loads(Path(entry[1]).read_bytes())
    except Exception:               # noqa: BLE001 - missing or damaged: replay
        return None
    if done != _steps_text(steps)[:len(done)]:
        return None                 # an undo, or another game's steps: replay from the start
    return hero, game, len(done)


def _remember(header: dict, steps: list, hero, game) -> None:
    from sheetgen.usercache import store
    entry = _state_entry(header)
    if entry is not None:
        store(Path(entry[1]), (_steps_text(steps), hero, game))


def _map_ref(name: str) -> str:
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return str(p.resolve())
    return name


def _hero(header: dict, board) -> tuple[Hero, list[str]]:
    spec = header.get("hero") or {}
    full = E.rules_for(board).full_scale(board)
    if spec.get("name"):
        from .formats.playlog import _sheet_hero
        key = spec["name"].strip().lower()
        if key not in HEROES:
            from sheetgen.errors import did_you_mean
            hint = did_you_mean(key, HEROES)
            raise Illegal(f"unknown hero '{spec['name']}' (one of {', '.join(HEROES)})"
                          + (f"; did you mean '{hint}'?" if hint else ""))
        traits, caps = _sheet_hero(key)
        return named_hero(key, traits, caps, full_scale=full), []
    from .formats.playlog import free_caps
    caps = free_caps(board.campaign)
    traits = {k: int(v) for k, v in (spec.get("traits") or {}).items()}
    return free_hero(traits, full_scale=full, caps=caps), check_free_traits(traits, full_scale=full, caps=caps)


def _plain_action(step):
    """The action of a move or an entry written in its plain form ({move: C3, roll: 4},
    {entry: C1:N}), read by the notation alone: the format's validation (pydantic, whose
    import costs more than the rules) has nothing to add to a step of that shape.  None for
    any other step: it goes through the format, with its messages."""
    if not isinstance(step, dict):
        return None
    plain = {"move": str, "roll": int, "note": str} if "move" in step else {"entry": str}
    if not step or not step.keys() <= plain.keys() or not all(
            type(value) is plain[key] or (value is None and key != next(iter(plain))) for key, value in step.items()):
        return None
    try:
        return notation.parse(step)
    except ValueError:
        return None                 # the format says what is wrong, located


def _actions(steps: list) -> list:
    """The journal's steps as actions (a step the format cannot read is left out)."""
    from .formats.playlog import step_action
    out = []
    for step in steps:
        try:
            out.append(step_action(step))
        except ValueError:
            continue
    return out


class FouryTracker(TrackerAdapter):
    """A Dungeon Foury game in the journal: the map, the hero, and the steps so far."""

    def start(self, params: dict) -> dict:
        ref = _map_ref(params["map"])
        board = _board(ref)
        header = {"ruleset": "foury", "map": ref}
        if params.get("hero"):
            header["hero"] = {"name": params["hero"].strip().lower()}
        else:
            header["hero"] = {"traits": {k: int(v) for k, v in (params.get("traits") or {}).items()}}
        _, problems = _hero(header, board)
        if problems:
            raise Illegal("; ".join(problems))
        return header

    def replay(self, header: dict, steps: list) -> TrackState:
        known = _recall(header, steps)
        if known is not None and known[2] == len(steps):
            hero, game, _ = known
            return TrackState(header, game.board, hero, game, list(steps))
        if known is not None:
            hero, game, done = known
            board = game.board
        else:
            board = _board(header["map"])
            hero, _ = _hero(header, board)
            game, done = E.rules_for(board).new_game(board, hero), 0
        rules = E.rules_for(board)
        for action in _actions(steps[done:]):
            game = rules.step(game, action).state
        _remember(header, steps, hero, game)
        return TrackState(header, board, hero, game, list(steps))

    def prepare(self, state: TrackState, step: dict, rng) -> dict:
        """Roll the dice the player left to sheetgen."""
        if not isinstance(step, dict):
            return step                      # a bare word: flee, climb, coin ...
        step = dict(step)
        g = state.game
        if "move" in step and step.get("roll") is None:
            try:
                to = parse_cell(step["move"])
            except ValueError:
                return step
            if g.phase == E.INSIDE and g.board.on_board(to) and g.roll_due(to):
                step["roll"] = rng.randint(1, 6)
        if isinstance(step.get("fight"), dict):
            f = dict(step["fight"])
            for key in ("hero", "enemy"):
                if f.get(key) is None:
                    f[key] = rng.randint(1, 6)
            if isinstance(f.get("clover"), dict) and f["clover"].get("roll") is None:
                f["clover"] = dict(f["clover"], roll=rng.randint(1, 6))
            step["fight"] = f
        return step

    def apply(self, state: TrackState, step) -> TrackState:
        action = _plain_action(step)
        if action is None:
            from .formats.playlog import step_action
            try:
                action = step_action(step)
            except ValueError as exc:
                raise Illegal(str(exc)) from None
        try:
            game = state.game.rules.apply(state.game, action)
        except Illegal as refused:
            raise Illegal("; ".join(v.message for v in refused.violations)) from None
        steps = state.steps + [step]
        _remember(state.header, steps, state.hero, game)      # the next command starts from here
        return TrackState(state.header, state.board, state.hero, game, steps)

    def status(self, state: TrackState) -> str:
        g = state.game
        r = g.res
        camp = g.rules.campaign
        lines = []
        hero = state.header.get("hero", {})
        who = hero.get("name", "free character").capitalize() if hero.get("name") else "free character"
        lines.append(f"map {state.header['map']} ({g.board.title}), {who}")
        phase = {E.START: "before the first round", E.BETWEEN: "between rounds (market open)",
                 E.DEAD: "DEAD" + ("" if g.coin_used else " (INSERT COIN available)"),
                 E.OVER: "game over: four rounds complete", E.INSIDE: "in the dungeon"}[g.phase]
        lines.append(f"round {g.round_no} ({g.completed} completed), {phase}")
        if g.phase == E.INSIDE:
            zone = g.board.zones.get(g.zone)
            head = f"zone {g.zone}{' ' + zone.name if zone else ''}"
            if camp.all_requirements:
                done = ", ".join(f"{k} {g.kprogress.get(k, 0)}/{E.requirement_count(g.board, k)}"
                                 for k in REQUIREMENT_COUNT)
                lines.append(f"{head}: requirements {done}")
            elif g.kind:
                lines.append(f"{head}: requirement {g.kind} {g.requirement_progress()}/{g.requirement_target()}"
                             f"{', Oracle awakened' if g.awakened else ''}{', Oracle visited' if g.visited else ''}")
            else:
                lines.append(head)
            where = cell_name(g.pos) if g.pos else f"at the arrow {cell_name(g.entry[0])}:{g.entry[1]}"
            lines.append(f"position {where}, facing {g.facing or '-'}, turn {g.turns}"
                         + (f", {g.extra} extra step(s)" if g.extra else "")
                         + (" (upper level)" if g.upper else ""))
            if g.pos is not None and g.enemy_at(g.pos):
                lines.append(f"foe here: {g.enemy_at(g.pos)}" + (" (must be faced)" if g.engaged else " (fled)"))
        res = ", ".join(f"{k} {r.get(k, 0)}" + (f"/{g.caps[k]}" if k in g.caps else "") for k in RESOURCES)
        lines.append(f"{res}, kills {g.kills} (total {g.kills_total})")
        if camp.fury_boxes:
            lines.append(f"fury {g.fury}")
        if camp.collection:
            lines.append(", ".join(f"{k} {r.get(k, 0)}" for k in SANTA_COUNTERS))
        legal = []
        for a in g.rules.legal_actions(g):
            text = notation.describe(a)
            if isinstance(a, Move) and g.phase == E.INSIDE and g.pos is not None and g.roll_due(a.to):
                text += " (roll)"
            elif isinstance(a, Move) and g.pos is None:
                text += " (roll)" if g.roll_due(a.to) else ""
            if isinstance(a, Fight):
                text = f"fight the {g.enemy_at(g.pos)}"
            legal.append(text)
        lines.append("legal now: " + (", ".join(legal) if legal else "nothing"))
        return "\n".join(lines)

    def export(self, header: dict, steps: list, relative_to: Path | None = None) -> str:
        from .formats.playlog import dump_log
        from sheetgen.paths import relative_ref
        return dump_log(relative_ref(header["map"], relative_to), header.get("hero", {}), steps)

    def render(self, header: dict, steps: list, outdir, formats=("pdf", "svg", "png"), paper=None,
               grayscale=False) -> list:
        """The map as the player's pencil would have it (sheets/pencil.py over sheets/map.py)."""
        from sheetgen.draw.options import BuildOptions, game_options
        from sheetgen.render import render_document
        from .formats.sheet import hero_object
        from .sheets.map import compose_map
        from .sheets.pencil import pencil_over
        fmap = _load_map(header["map"])
        hero, _ = _hero(header, fmap.board)
        options = BuildOptions(paper=paper, grayscale=grayscale, game=game_options(hero=hero.name or None))
        card = hero_object(hero.name) if hero.name else None
        doc = pencil_over(compose_map(fmap, options, card), fmap.board, hero, _actions(steps), options)
        return render_document(doc, outdir, formats=formats)


ADAPTER = FouryTracker()

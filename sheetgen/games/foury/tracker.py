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

from sheetgen.errors import InputError
from sheetgen.games.base import Illegal, Told, TrackerAdapter
from . import notation
from . import rules as E
from .actions import well_typed
from .actions import Circle, Climb, Coin, Collect, Enter, Exit, Fight, Flee, Lever, Market, Move, Oracle, Shovel
from .board import OPPOSITE, cell_name, direction, parse_cell, relative_side, wall_key
from .heroes import HEROES, Hero, check_free_traits, free_hero, named_hero
from .tables import REQUIREMENT_COUNT, RESOURCES, SANTA_COUNTERS


SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
RELATIVE = ("left", "front", "right", "behind")


def _event_words(ev, frm) -> str:
    k = ev.kind
    if k == "collapse":
        return "the wall" + ("s" if len(ev.sides) > 1 else "") + " " + " and ".join(
            "behind you" if s == "behind" else ("in front" if s == "front" else f"to the {s}") for s in ev.sides) \
            + " collapse" + ("" if len(ev.sides) > 1 else "s")
    if k == "monster":
        return f"you encounter a {ev.enemy}" if ev.enemy else "you encounter a monster"
    if k == "chest":
        return "you find a chest: mark it on the chest counter"
    if k == "extra step":
        return "resolve the room, then move one more space without rolling"
    if k == "collapse origin":
        return f"the room you came from{f' ({cell_name(frm)})' if frm else ''} collapses: cross it out"
    if k == "flood origin":
        return f"the room you came from{f' ({cell_name(frm)})' if frm else ''} floods"
    if k == "find":
        return f"you find a {ev.item}"
    return ev.text()


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class TrackState:
    __slots__ = ("header", "board", "hero", "game", "steps")

    def __init__(self, header, board, hero, game, steps):
        self.header, self.board, self.hero, self.game, self.steps = header, board, hero, game, steps


_MAPS: dict = {}          # (ref, file stamp) -> the loaded map: a page replays each request


def cached_map(name: str):
    import os

    from .formats.map import load_map
    try:
        st = os.stat(name)
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None                          # a built-in map name
    key = (name, stamp)
    fmap = _MAPS.get(key)
    if fmap is None:
        fmap = load_map(name)
        if len(_MAPS) > 32:
            _MAPS.clear()
        _MAPS[key] = fmap
    return fmap


# -- what each `track` command would otherwise rebuild, kept in the user cache -------------------
# A track command is one short process: validating the map (pydantic) and reading every recorded
# step again cost more than the rules.  The board of a map file, and the state a game's steps
# replay to, are kept by what they were made from (the map's bytes, the code of this game and of
# the definitions core); a changed map or code, an undo, a damaged entry: a miss, replayed as before.
def _games_code(base: str) -> str:
    h = hashlib.sha256(base.encode())
    games = Path(__file__).resolve().parent.parent
    for path in sorted([*games.glob("*.py"), *(games / "foury").rglob("*.py")]):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


@lru_cache(maxsize=1)
def _code() -> str:
    from sheetgen.definitions.snapshot import code_fingerprint
    return _games_code(code_fingerprint())


@lru_cache(maxsize=1)
def _source_code() -> str:
    """The code a board depends on, without pydantic's version: what names a board shipped
    with sheetgen for a built-in map (sheetgen.usercache.prebuilt)."""
    from sheetgen.definitions.snapshot import source_fingerprint
    return _games_code(source_fingerprint())


def _map_path(ref: str) -> Path | None:
    """The file of a map reference (a path or a built-in's name); None if none."""
    from sheetgen.limits import name_problem
    if name_problem(ref):
        return None
    path = Path(ref)
    if not path.is_file():
        from sheetgen.definitions.builtins import find_builtin
        try:
            path = find_builtin(ref)
        except InputError:          # not a built-in: the loader says what is wrong
            return None
    return path


def _map_key(ref: str) -> str | None:
    """The cache key of a map reference: its file's path and bytes, and the code; None if no file."""
    path = _map_path(ref)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return hashlib.sha256(f"{path.resolve()}\0{_code()}\0".encode() + data).hexdigest()[:40]


def _board(ref: str, key: str | None):
    """The board of map REF; KEY (its _map_key) names it in the cache.  A built-in map's
    board comes with sheetgen (no validation on a first run)."""
    from sheetgen.usercache import cached, prebuilt

    def build():
        path = _map_path(ref)
        shipped = prebuilt("foury-board", path, _source_code()) if path is not None else None
        return shipped if shipped is not None else cached_map(ref).board
    if key is None:
        return cached_map(ref).board            # its errors, located, as before
    return cached("foury-board", key, build)


def _steps_text(steps: list) -> list[str]:
    return [json.dumps(step, sort_keys=True, separators=(",", ":")) for step in steps]


def _state_entry(header: dict, map_key: str | None) -> Path | None:
    """The cache entry of a game's replayed state: its map (by MAP_KEY) and its header."""
    if map_key is None:
        return None
    from sheetgen.usercache import entry_path
    return entry_path("foury-track", hashlib.sha256((map_key + json.dumps(header, sort_keys=True)).encode())
                      .hexdigest()[:40])


def _recall(entry: Path | None, steps: list):
    """(hero, game, how many of steps it covers) from the cache ENTRY, or None."""
    import pickle
    if entry is None:
        return None
    try:
        done, hero, game = pickle.loads(entry.read_bytes())
    except Exception:               # noqa: BLE001 - missing or damaged: replay
        return None
    if done != _steps_text(steps)[:len(done)]:
        return None                 # an undo, or another game's steps: replay from the start
    return hero, game, len(done)


def _remember(entry: Path | None, steps: list, hero, game) -> None:
    from sheetgen.usercache import store
    if entry is not None:
        store(entry, (_steps_text(steps), hero, game))


def _map_ref(name: str) -> str:
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return str(p.resolve())
    return name


def track_hero(header: dict, board) -> tuple[Hero, list[str]]:
    spec = header.get("hero") or {}
    full = E.rules_for(board).full_scale(board)
    if spec.get("name"):
        from .formats.hero_numbers import sheet_hero
        key = spec["name"].strip().lower()
        if key not in HEROES:
            from sheetgen.errors import did_you_mean
            hint = did_you_mean(key, HEROES)
            raise Illegal(f"unknown hero '{spec['name']}' (one of {', '.join(HEROES)})"
                          + (f"; did you mean '{hint}'?" if hint else ""))
        traits, caps = sheet_hero(key)
        return named_hero(key, traits, caps, full_scale=full), []
    from .formats.hero_numbers import free_caps
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


def journal_action(step):
    """A journal step -> its rules action; ValueError says what is wrong.  A step already in
    the notation's own form (what the notation writes for the action it reads, as `track`
    records most steps, every value of its declared type) needs no format validation: the
    notation reads back exactly what it writes (tests/test_track_replay.py), and the format's models cost more to load than a
    game's replay.  Any other step goes through the play-log format, as a log's would."""
    action = _plain_action(step)
    if action is not None:
        return action
    try:
        action = notation.parse(step)
        if well_typed(action) and notation.serialize(action) == step:
            return action
    except Exception:               # noqa: BLE001 - not the notation's own form: the format judges it
        pass
    from .formats.playlog import step_action
    return step_action(step)


def played_actions(steps: list) -> list:
    """The journal's steps as actions (a step the format cannot read is left out)."""
    out = []
    for step in steps:
        try:
            out.append(journal_action(step))
        except ValueError:
            continue
    return out


def _played(header: dict, steps: list, map_key: str | None, known) -> TrackState:
    """The state after STEPS, from KNOWN (hero, game, how many steps it covers: a cache entry)
    or from the new game."""
    if known is not None:
        hero, game, done = known
        board = game.board
    else:
        board = _board(header["map"], map_key)
        hero, _ = track_hero(header, board)
        game, done = E.rules_for(board).new_game(board, hero), 0
    rules = E.rules_for(board)
    for action in played_actions(steps[done:]):
        game = rules.step(game, action).state
    return TrackState(header, board, hero, game, list(steps))


# what tracker_two.py shares, by public names
board_of, map_key_of = _board, _map_key


class FouryTracker(TrackerAdapter):
    """A Dungeon Foury game in the journal: the map, the hero, and the steps so far."""
    players_option = True           # `track new --players`: the 2 Players Mode (tracker_two.py)

    def start(self, params: dict) -> dict:
        if params.get("players"):          # the 2 Players Mode (tracker_two.py)
            ref = _map_ref(params["map"])
            return self._two.start(params, _board(ref, _map_key(ref)), ref)
        if not params.get("hero") and not params.get("traits"):
            raise InputError("give --hero NAME or --traits hearts=4,shields=2,... (12 in all)")
        ref = _map_ref(params["map"])
        board = _board(ref, _map_key(ref))
        header = {"ruleset": "foury", "map": ref}
        if params.get("hero"):
            header["hero"] = {"name": params["hero"].strip().lower()}
        else:
            header["hero"] = {"traits": {k: int(v) for k, v in (params.get("traits") or {}).items()}}
        _, problems = track_hero(header, board)
        if problems:
            raise Illegal("; ".join(problems))
        return header

    @property
    def _two(self):
        from .tracker_two import TwoTracker
        return TwoTracker(self)

    def replay(self, header: dict, steps: list) -> TrackState:
        if header.get("players"):
            return self._two.replay(header, steps)      # type: ignore[return-value]
        return _played(header, steps, _map_key(header["map"]), None)

    def resume(self, header: dict, steps: list) -> TrackState:
        """The state from the user cache when it holds these steps (or the first of them: the
        rest replayed on top), else replayed; kept for the next command either way."""
        if header.get("players"):
            return self._two.replay(header, steps)      # type: ignore[return-value]
        map_key = _map_key(header["map"])           # the map file read and hashed once a replay
        entry = _state_entry(header, map_key)
        known = _recall(entry, steps)
        if known is not None and known[2] == len(steps):
            hero, game, _ = known
            return TrackState(header, game.board, hero, game, list(steps))
        state = _played(header, steps, map_key, known)
        _remember(entry, steps, state.hero, state.game)
        return state

    def remember(self, state: TrackState) -> None:
        if state.header.get("players"):
            return                  # a two-player game is replayed by each command
        _remember(_state_entry(state.header, _map_key(state.header["map"])), state.steps, state.hero, state.game)

    def prepare(self, state: TrackState, step: dict, rng) -> dict:
        """Roll the dice the player left to sheetgen."""
        if state.header.get("players"):
            return self._two.prepare(state, step, rng)
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
        c = step.get("collect")
        if isinstance(c, dict) and c.get("item") == "die" and c.get("roll") is None and "gain" not in c:
            step["collect"] = dict(c, roll=rng.randint(1, 6))
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
        if state.header.get("players"):
            return self._two.apply(state, step)         # type: ignore[arg-type, return-value]
        try:
            action = journal_action(step)
        except ValueError as exc:
            raise Illegal(str(exc)) from None
        try:
            game = state.game.rules.apply(state.game, action)
        except Illegal as refused:
            raise Illegal("; ".join(v.message for v in refused.violations)) from None
        return TrackState(state.header, state.board, state.hero, game, state.steps + [step])

    def ask_step(self, state: TrackState, step, auto: bool, prompt, echo):
        """STEP completed at a prompt where the rules order the choices between the dice (a
        fight: your die, the weapon, the foe's die, then the clover or the shield): fightflow."""
        if state.header.get("players"):
            return step             # a two-player fight: its dice are asked by dice_due
        if isinstance(step, dict) and isinstance(step.get("fight"), dict) and state.game.phase == E.INSIDE:
            from .fightflow import ask_at_prompt
            return ask_at_prompt(state.game, step, auto, prompt, echo)
        return step

    def dice_due(self, state: TrackState, step) -> list[tuple[tuple[str, ...], str]]:
        """The dice a step leaves to sheetgen, as (path in the step, what the die is for)."""
        if state.header.get("players"):
            return self._two.dice_due(state, step)      # type: ignore[arg-type]
        if not isinstance(step, dict):
            return []
        g = state.game
        out = []
        if "move" in step and step.get("roll") is None:
            try:
                to = parse_cell(str(step["move"]))
            except ValueError:
                return []
            if g.phase == E.INSIDE and g.board.on_board(to) and g.roll_due(to):
                out.append((("roll",), f"the d6 for entering {cell_name(to)}"))
        c = step.get("collect")
        if isinstance(c, dict) and c.get("item") == "die" and c.get("roll") is None and "gain" not in c:
            out.append((("collect", "roll"), "the die item's roll (the die table)"))
        f = step.get("fight")
        if isinstance(f, dict):
            foe = (g.enemy_at(g.pos) if g.pos is not None else None) or "foe"
            if f.get("hero") is None:
                out.append((("fight", "hero"), "your fight die"))
            if f.get("enemy") is None:
                out.append((("fight", "enemy"), f"the {foe}'s die"))
            if isinstance(f.get("clover"), dict) and f["clover"].get("roll") is None:
                out.append((("fight", "clover", "roll"), "the clover's reroll"))
        return out

    def brief_status(self, state: TrackState) -> list[str]:
        """The resources, then what is legal now."""
        if state.header.get("players"):
            return self.status(state).splitlines()
        lines = self.status(state).splitlines()
        return [ln for ln in lines if ln.startswith(("hearts", "legal now"))] or lines[-2:]

    def narrate(self, before: TrackState, after: TrackState, step) -> list[str]:
        return self.tell(before, after, step).lines

    def tell(self, before: TrackState, after: TrackState, step) -> Told:
        """What the recorded step meant: the roll's events, the walls to pencil by side,
        the fight's totals and damage, what was gained or lost."""
        if before.header.get("players"):
            return self._two.tell(before, after, step)   # type: ignore[arg-type]
        told = Told()
        say = told.lines.append
        try:
            action = journal_action(step)
        except ValueError:
            return told
        g0, g1 = before.game, after.game
        b = g0.board
        if isinstance(action, Enter):
            if action.entry:
                cell, side = action.entry
                zone = b.zones.get(b.zone_of(cell))
                say(f"round {g1.round_no}: colour and black out the arrow {cell_name(cell)}:{side}; "
                    f"you enter zone {b.zone_of(cell)}{f' ({zone.name})' if zone and zone.name else ''} "
                    f"heading {SIDE_WORDS[OPPOSITE[side]]}")
                told.cells.append(cell_name(cell))
            elif g1.pos is not None:
                say(f"round {g1.round_no}: you start in {cell_name(g1.pos)}")
            if g1.kind:
                say(f"requirement of this round: {g1.kind} ({g1.requirement_target()})")
            self._tell_round_start(g0, g1, say)
        elif isinstance(action, Fight):
            self._tell_fight(g0, g1, action, say)
        elif isinstance(action, (Move, Shovel, Exit)) or (isinstance(action, Oracle) and g0.pos != g1.pos):
            if isinstance(action, Shovel):
                say(f"erase the collapsed wall {cell_name(action.cell)}:{action.side} with a shovel")
            self._tell_move(g0, g1, action, told)
        elif isinstance(action, Collect):
            say(f"collect the {action.item}" + (f" (rolled {action.roll})" if action.roll else ""))
        elif isinstance(action, Climb):
            say("you climb the stairs to the upper level" if g1.upper else "you climb back down")
        elif isinstance(action, Lever):
            say(f"you pull the lever{f' in {cell_name(action.cell)}' if action.cell else ''}")
        elif isinstance(action, Market):
            say("market: " + ("nothing traded" if not (action.spend_chests or action.give) else
                              f"{action.spend_chests} chest(s) spent at x{g0.rules.chest_value(g0)}"
                              if action.spend_chests else "resources traded"))
        elif isinstance(action, Coin):
            say("INSERT COIN: you are back, once; the game goes on")
        elif isinstance(action, Flee):
            foe = g0.enemy_at(g0.pos) if g0.pos is not None else None
            say(f"you flee: the {foe or 'foe'} stays in {cell_name(g0.pos)}; move on" if g0.pos else "you flee")
        elif isinstance(action, Circle):
            say(f"through the magic circle to {cell_name(action.to)}")
            told.cells.append(cell_name(action.to))
        if isinstance(action, Oracle):
            if action.words:
                say(f"write the Oracle's words on the answer lines: \"{action.words}\"")
        if g1.visited and not g0.visited:
            say("you reach the Oracle: do not roll" + (", gain 1 chest" if g1.awakened else "")
                + "; open a book at random and read the last two complete words at the bottom right "
                "(record them: oracle words); then exit through a different zone")
        if g1.awakened and not g0.awakened:
            say("the requirement is met: the Oracle is awakened")
        elif g1.phase == E.INSIDE and g1.kind and g1.requirement_progress() != g0.requirement_progress() \
                and g0.phase == E.INSIDE:
            say(f"requirement {g1.kind}: cross off a space ({g1.requirement_progress()}/{g1.requirement_target()})")
        changes = [f"{k} {g0.res.get(k, 0)} -> {g1.res.get(k, 0)}" for k in RESOURCES
                   if g0.res.get(k, 0) != g1.res.get(k, 0)]
        if changes:
            say("on your sheet: " + ", ".join(changes))
        if g1.completed > g0.completed:
            self._tell_round_end(g0, g1, say)
            say(f"round complete ({g1.completed} of 4): market time, spend chests or trade, then a new round"
                if g1.phase != E.OVER else "the fourth round is complete: the game is won")
        if g1.phase == E.DEAD and g0.phase != E.DEAD:
            say("you are dead" + ("" if g1.coin_used else ": INSERT COIN (once) brings you back"))
        if g1.phase == E.INSIDE and g1.extra > g0.extra:
            say(f"{g1.extra} extra step(s) to take without rolling")
        if not told.lines:
            say(notation.describe(action))
        return told

    @staticmethod
    def _tell_round_start(g0, g1, say) -> None:
        """What the sheet needs at a round's start: the round markers and the kills counter."""
        bonus = g1.rules.round_bonus(g1)
        value = g1.rules.chest_value(g1)
        say(f"round {g1.round_no} on your sheet: monsters +{bonus} (the mark beside MONSTERS), chests x{value} "
            f"(beside TREASURES), the kills counter back to 0")

    @staticmethod
    def _tell_round_end(g0, g1, say) -> None:
        """What the sheet and the map need at a round's end: the kills counter, the trolls back."""
        say("the kills counter goes back to 0" + (f" (it showed {g0.kills})" if g0.kills else "")
            + ": it resets when exiting the dungeon")
        for c in sorted(g0.trolls):             # beaten this round: back in their rooms (rules._exit)
            say(f"the troll in {cell_name(c)} is back: leave its 3 written in the corner (do not erase it); "
                "it waits there in the next round")

    def undo_lines(self, before: TrackState, step) -> list[str]:
        """What to erase when STEP (just taken back; BEFORE: the state without it) is undone."""
        if before.header.get("players"):
            return self._two.undo_lines(before, step)   # type: ignore[arg-type]
        try:
            after = self.apply(before, step)
        except Illegal:
            return []
        told = self.tell(before, after, step)
        g0, g1 = before.game, after.game
        out = []
        if told.walls:
            out.append("erase the walls " + _and([f"{c}:{side}" for c, side in told.walls]))
        if g1.pos is not None and g1.pos != g0.pos and g1.phase == E.INSIDE:
            frm = cell_name(g0.pos) if g0.pos is not None else "the arrow"
            out.append(f"erase the line {frm} -> {cell_name(g1.pos)}"
                       + ("" if g1.pos in g0.explored else f" and the circle in {cell_name(g1.pos)}"))
        for c in sorted(g1.rooms - g0.rooms):
            out.append(f"erase the cross over {cell_name(c)}")
        for c in sorted(set(g1.spawned) - set(g0.spawned)):
            out.append(f"erase the {g1.spawned[c]} written in {cell_name(c)}")
        for c, item in sorted(g1.removed - g0.removed):
            out.append(f"the {item} in {cell_name(c)} is back: erase its strike")
        if set(g1.used_entries) - set(g0.used_entries):
            out.append("the arrow " + _and([f"{cell_name(c)}:{s}" for c, s in sorted(set(g1.used_entries)
                                                                                     - set(g0.used_entries))])
                       + " is open again: erase its colour")
        changes = [f"{k} {g1.res.get(k, 0)} -> {g0.res.get(k, 0)}" for k in RESOURCES
                   if g0.res.get(k, 0) != g1.res.get(k, 0)]
        if g1.kills != g0.kills:
            changes.append(f"kills {g1.kills} -> {g0.kills}")
        if g1.requirement_progress() != g0.requirement_progress() and g0.kind == g1.kind:
            changes.append(f"requirement {g1.requirement_progress()} -> {g0.requirement_progress()}")
        if changes:
            out.append("put your sheet back: " + ", ".join(changes))
        return out or ["nothing penciled to erase"]

    def _tell_move(self, g0, g1, action, told: Told) -> None:
        say = told.lines.append
        b = g0.board
        to, frm = g1.pos, g0.pos
        if to is None or (g1 is g0):
            return
        facing = g1.facing
        heading = f"heading {SIDE_WORDS.get(facing, facing)}"
        if frm is None and g0.entry is not None:
            say(f"draw the line from the arrow into {cell_name(to)} and a small circle in it ({heading})")
            frm_zone = b.zone_of(g0.entry[0])
        else:
            if frm is not None and direction(frm, to) is None and g0.lever_at is not None:
                frm = g0.lever_at
            say(f"draw the line {cell_name(frm)} -> {cell_name(to)} and a small circle in {cell_name(to)} ({heading})"
                if frm is not None else f"you are in {cell_name(to)}")
            frm_zone = b.zone_of(frm) if frm is not None else None
        told.cells.append(cell_name(to))
        roll = getattr(action, "roll", None)
        rule = g0.rules.roll_rule(g0, to) if frm is not None or g0.entry is not None else "free"
        if roll is None:
            if rule == "free" or to in g0.explored:
                why = ("the Oracle's room: never rolled" if b.is_centre(to) else
                       "an explored room: free movement, no roll" if to in g0.explored else "no roll is due")
                say(why)
            elif rule == "extra":
                say("an extra step: no roll")
            return
        zone_letter = frm_zone
        if rule == "optional":
            zone_letter = b.zone_of(to)
        zone = b.zones.get(zone_letter) if zone_letter else None
        if zone is None:
            say(f"roll {roll}: no events here")
            return
        events = zone.events.get(roll, ())
        name = f" ({zone.name})" if zone.name else ""
        say(f"roll {roll} on zone {zone_letter}{name}: " + (_and([_event_words(e, frm) for e in events])
                                                            if events else "nothing happens"))
        added = g1.walls - g0.walls
        for ev in events:
            if ev.kind != "collapse" or not g0.rules.campaign.cave_ins:
                continue
            drawn, present = [], []
            for rel in ev.sides:
                side = relative_side(facing, rel)
                label = f"{rel} ({cell_name(to)}:{side})"
                if wall_key(to, side) in added:
                    drawn.append(label)
                    told.walls.append((cell_name(to), side))
                else:
                    present.append(label)
            if drawn:
                say("draw walls: " + _and(drawn))
            if present:
                say(_and(present) + (" is" if len(present) == 1 else " are") + " already a wall: nothing to draw")
        for c in sorted(g1.rooms - g0.rooms):
            told.cells.append(cell_name(c))
        if g1.engaged:
            foe = g1.enemy_at(to)
            if foe:
                strength = g1.rules.strength(g1, foe)
                say(f"a {foe} is here (its die +{strength}): you must face it"
                    + (" (name the printed monster's type when you fight)" if g1.rules.monster_types(g1, to) else
                       " (a plain monster: the round's strength)" if foe == "monster" else ""))

    def _tell_fight(self, g0, g1, a: Fight, say) -> None:
        foe = g0.enemy_at(g0.pos) if g0.pos is not None else None
        if foe == "monster" and a.enemy_type in g0.rules.monster_types(g0, g0.pos):
            foe = a.enemy_type                  # a printed monster named (an event's stays a plain monster)
        foe = foe or "foe"
        hero, enemy = a.hero, a.enemy
        if a.clover_die is not None and a.clover_roll is not None:
            was = hero if a.clover_die == "hero" else enemy
            say(f"a clover rerolls {'your' if a.clover_die == 'hero' else 'the ' + foe + chr(39) + 's'} die: "
                f"{was} -> {a.clover_roll}")
            if a.clover_die == "hero":
                hero = a.clover_roll
            else:
                enemy = a.clover_roll
        weapon = g0.res.get("weapon", 0) if a.weapon else 0
        strength = g0.rules.strength(g0, foe)
        mine, theirs = hero + weapon, enemy + strength
        you = f"you {hero}" + (f" + weapon {weapon} = {mine}" if a.weapon else "")
        them = f"the {foe} {enemy}" + (f" + {strength} = {theirs}" if strength else "")
        if mine > theirs and foe == "troll":
            say(f"{you} against {them}: you win; mark a kill (kills {g1.kills}); do not erase the troll: write 3 in "
                "a corner of its space, it is back at the round's end")
        elif mine > theirs:
            say(f"{you} against {them}: you win; erase the {foe}" + ("" if foe == "statue" else " and mark a kill")
                + f" (kills {g1.kills})" * (foe != "statue"))
        elif mine == theirs:
            say(f"{you} against {them}: a tie, nothing happens; fight again or flee")
        elif a.shield:
            say(f"{you} against {them}: a hit of {theirs - mine}, blocked by a shield; "
                f"the {foe} remains: fight again or flee")
        else:
            lost = g0.res.get("hearts", 0) - g1.res.get("hearts", 0)
            say(f"{you} against {them}: you are hit, lose {lost} heart(s)"
                + ("" if g1.phase == E.DEAD else f"; the {foe} remains: fight again or flee"))
        if a.weapon:
            say("you used the weapon: its value drops by 1 after the combat")

    def status(self, state: TrackState) -> str:
        if state.header.get("players"):
            return self._two.status(state)              # type: ignore[arg-type]
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
        if header.get("players"):
            return self._two.export(header, steps, relative_to)
        return dump_log(relative_ref(header["map"], relative_to), header.get("hero", {}), steps,
                        question=header.get("question"))

    def render(self, header: dict, steps: list, outdir, formats=("pdf", "svg", "png"), paper=None,
               grayscale=False) -> list:
        """The map as the player's pencil would have it (sheets/pencil.py over sheets/map.py); a
        two-player game: one page per player (the PDF), one SVG/PNG file per player named after them."""
        from sheetgen.draw.options import BuildOptions, game_options
        from sheetgen.render import render_document
        if header.get("players"):
            from .tracker_two import pencil_document
            doc = pencil_document(header, steps, BuildOptions(paper=paper, grayscale=grayscale))
            return render_document(doc, outdir, formats=formats)
        from .formats.sheet import hero_object
        from .sheets.map import compose_map
        from .sheets.pencil import pencil_over
        fmap = cached_map(header["map"])
        hero, _ = track_hero(header, fmap.board)
        options = BuildOptions(paper=paper, grayscale=grayscale, game=game_options(hero=hero.name or None))
        card = hero_object(hero.name) if hero.name else None
        doc = pencil_over(compose_map(fmap, options, card), fmap.board, hero, played_actions(steps), options,
                          question=header.get("question"))
        return render_document(doc, outdir, formats=formats)


ADAPTER = FouryTracker()

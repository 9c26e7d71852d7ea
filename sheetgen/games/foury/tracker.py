"""The Dungeon Foury adapter for the tracker (see adapters.py for the interface).

Steps are play-log steps (sheetgen/playlog/foury.py); a round starts with an
`{entry: CELL:SIDE}` (or `{start: CELL}`) step, which export turns back into
the log's `rounds:` list.
"""
from __future__ import annotations

from pathlib import Path

from . import rules as E
from .actions import Fight, Move
from .board import cell_name
from .heroes import HEROES, Hero, check_free_traits, free_hero, named_hero
from sheetgen.games.base import Illegal as StepRefused


class TrackState:
    __slots__ = ("header", "board", "hero", "game", "steps")

    def __init__(self, header, board, hero, game, steps):
        self.header, self.board, self.hero, self.game, self.steps = header, board, hero, game, steps


def _load_board(name: str):
    from .formats.map import load_map
    return load_map(name).board


def _map_ref(name: str) -> str:
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return str(p.resolve())
    return name


def _hero(header: dict, board) -> tuple[Hero, list[str]]:
    spec = header.get("hero") or {}
    full = board.campaign == "strength" or not getattr(board, "hero_extras", True)
    if spec.get("name"):
        from .formats.playlog import _sheet_hero
        key = spec["name"].strip().lower()
        if key not in HEROES:
            from sheetgen.errors import did_you_mean
            hint = did_you_mean(key, HEROES)
            raise StepRefused(f"unknown hero '{spec['name']}' (one of {', '.join(HEROES)})"
                              + (f"; did you mean '{hint}'?" if hint else ""))
        traits, caps = _sheet_hero(key)
        return named_hero(key, traits, caps, full_scale=full), []
    from .formats.playlog import free_caps
    caps = free_caps(board.campaign)
    traits = {k: int(v) for k, v in (spec.get("traits") or {}).items()}
    return free_hero(traits, full_scale=full, caps=caps), check_free_traits(traits, full_scale=full, caps=caps)


def start(params: dict) -> dict:
    ref = _map_ref(params["map"])
    board = _load_board(ref)
    header = {"ruleset": "foury", "map": ref}
    if params.get("hero"):
        header["hero"] = {"name": params["hero"].strip().lower()}
    else:
        header["hero"] = {"traits": {k: int(v) for k, v in (params.get("traits") or {}).items()}}
    _, problems = _hero(header, board)
    if problems:
        raise StepRefused("; ".join(problems))
    return header


def replay(header: dict, steps: list) -> TrackState:
    board = _load_board(header["map"])
    hero, _ = _hero(header, board)
    game = E.new_game(board, hero)
    from .formats.playlog import step_action
    for step in steps:
        try:
            game, _ = E.apply_lenient(game, step_action(step))
        except ValueError:
            continue
    return TrackState(header, board, hero, game, list(steps))


def prepare(state: TrackState, step: dict, rng) -> dict:
    """Roll the dice the player left to sheetgen."""
    if not isinstance(step, dict):
        return step                      # a bare word: flee, climb, coin ...
    step = dict(step)
    g = state.game
    if "move" in step and step.get("roll") is None:
        from .board import parse_cell
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


def apply(state: TrackState, step) -> TrackState:
    from .formats.playlog import step_action
    try:
        action = step_action(step)
    except ValueError as exc:
        raise StepRefused(str(exc)) from None
    try:
        game = E.apply(state.game, action)
    except E.Forbidden as f:
        raise StepRefused("; ".join(msg for _, msg in f.problems)) from None
    return TrackState(state.header, state.board, state.hero, game, state.steps + [step])


def status(state: TrackState) -> str:
    g = state.game
    r = g.res
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
        if g.campaign == "kraken":
            done = ", ".join(f"{k} {g.kprogress.get(k, 0)}/{E._kraken_target(g, k)}" for k in E.REQ_OF_KIND)
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
    res = ", ".join(f"{k} {r.get(k, 0)}" + (f"/{g.caps[k]}" if k in g.caps else "") for k in E.RESOURCES)
    lines.append(f"{res}, kills {g.kills} (total {g.kills_total})")
    if g.campaign == "slaughter":
        lines.append(f"fury {g.fury}")
    if g.campaign == "santa":
        lines.append(", ".join(f"{k} {r.get(k, 0)}" for k in E.SANTA_COUNTERS))
    legal = []
    for a in E.legal_moves(g):
        text = E.describe(a)
        if isinstance(a, Move) and g.phase == E.INSIDE and g.pos is not None and g.roll_due(a.to):
            text += " (roll)"
        elif isinstance(a, Move) and g.pos is None:
            text += " (roll)" if g.roll_due(a.to) else ""
        if isinstance(a, Fight):
            text = f"fight the {g.enemy_at(g.pos)}"
        legal.append(text)
    lines.append("legal now: " + (", ".join(legal) if legal else "nothing"))
    return "\n".join(lines)


def export(header: dict, steps: list, relative_to: Path | None = None) -> str:
    from .formats.playlog import dump_log
    from sheetgen.paths import relative_ref
    return dump_log(relative_ref(header["map"], relative_to), header.get("hero", {}), steps)


def render(header: dict, steps: list, outdir, formats=("pdf", "svg", "png"), paper=None, grayscale=False):
    """The map as the player's pencil would have it (see pencil.py)."""
    from .formats.map import load_map
    from .formats.playlog import step_action
    from .sheets.pencil import render_game
    fmap = load_map(header["map"])
    hero, _ = _hero(header, fmap.board)
    actions = []
    for step in steps:
        try:
            actions.append(step_action(step))
        except ValueError:
            continue
    from sheetgen.draw.options import BuildOptions, game_options
    options = BuildOptions(paper=paper, grayscale=grayscale,
                           game=game_options(hero=hero.name or None))
    return render_game(fmap, hero, actions, outdir, formats, options)

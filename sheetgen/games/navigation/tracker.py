"""The card-grid navigation adapter for the tracker (see adapters.py for the interface).

Steps are navigation play-log actions ('move east', {resolve: forge}, ...)
plus turn markers {turn: PLAYER}; export groups them back into `turns:`.
A game starts with `--map DUNGEON --hero Ada,Bo` (player names) and optional
`--traits hp=10,keys=1,bombs=1,xp=0` applied to every player.
"""
from __future__ import annotations

from pathlib import Path

from sheetgen.games.base import Illegal as StepRefused
from sheetgen.paths import relative_ref

_SETUP_KEYS = ("hp", "keys", "bombs", "xp")


class TrackState:
    __slots__ = ("header", "dungeon", "state", "player", "steps")

    def __init__(self, header, dungeon, state, player, steps):
        self.header, self.dungeon, self.state, self.player, self.steps = header, dungeon, state, player, steps


def _ref(name: str) -> str:
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return str(p.resolve())
    return name


def _load_dungeon(ref: str):
    from sheetgen.definitions.registry import load
    from sheetgen.errors import InputError
    try:
        loaded = load(ref)
    except InputError as exc:
        raise StepRefused(str(exc)) from None
    if (loaded.kind, loaded.ruleset) != ("dungeon", "navigation"):
        raise StepRefused(f"'{ref}' is a {loaded.kind} ({loaded.ruleset}), not a navigation dungeon")
    return loaded.definition


def start(params: dict) -> dict:
    ref = _ref(params["map"])
    _load_dungeon(ref)
    names = [n.strip() for n in str(params.get("hero") or "Player 1").split(",") if n.strip()]
    if len(set(names)) != len(names):
        raise StepRefused("player names must differ")
    extra = {}
    for key, value in (params.get("traits") or {}).items():
        key = key.strip().lower()
        if key not in _SETUP_KEYS:
            raise StepRefused(f"unknown player setting '{key}' (hp, keys, bombs, xp)")
        extra[key] = int(value)
    return {"ruleset": "navigation", "map": ref, "dungeon": ref, "players": [{"name": n, **extra} for n in names]}


def _initial(header: dict, dungeon):
    from .formats import to_engine_dungeon
    from .rules import Player, item_key, new_state
    eng = to_engine_dungeon(dungeon)
    players = [Player(name=p["name"], room=p.get("start") or eng.start, hp=p.get("hp", 10), keys=p.get("keys", 1),
                      bombs=p.get("bombs", 1), xp=p.get("xp", 0),
                      items=frozenset(item_key(i) for i in p.get("items", ()))) for p in header["players"]]
    return new_state(eng, players)


def _turn_of(step) -> str | None:
    if isinstance(step, dict) and len(step) == 1:
        key = next(iter(step))
        if key in ("turn", "player"):
            return str(step[key])
    return None


def replay(header: dict, steps: list) -> TrackState:
    from .actions import parse_action
    from .rules import begin_turn, end_turn, step as lenient
    dungeon = _load_dungeon(header["dungeon"])
    state = _initial(header, dungeon)
    player = header["players"][0]["name"]
    state = begin_turn(state, player)
    for s in steps:
        who = _turn_of(s)
        if who is not None:
            state, _ = end_turn(state, player)
            if who in state.players:
                player = who
            state = begin_turn(state, player)
            continue
        try:
            state, _ = lenient(state, player, parse_action(s))
        except ValueError:
            continue
    return TrackState(header, dungeon, state, player, list(steps))


def apply(ts: TrackState, step) -> TrackState:
    from .actions import parse_action
    from .rules import Forbidden, apply as strict, begin_turn, end_turn
    who = _turn_of(step)
    if who is not None:
        if who not in ts.state.players:
            raise StepRefused(f"no player '{who}' (players: {', '.join(ts.state.players)})")
        state, broken = end_turn(ts.state, ts.player)
        if broken:
            raise StepRefused(broken[0].message)
        state = begin_turn(state, who)
        return TrackState(ts.header, ts.dungeon, state, who, ts.steps + [step])
    try:
        action = parse_action(step)
    except ValueError as exc:
        raise StepRefused(str(exc)) from None
    try:
        state = strict(ts.state, ts.player, action)
    except Forbidden as f:
        raise StepRefused(f.message) from None
    return TrackState(ts.header, ts.dungeon, state, ts.player, ts.steps + [step])


def legal_moves(ts: TrackState) -> list[str]:
    """Every move, wrap, warp and mirror the current player could make now, with its price."""
    from .rules import DIRS, Action, DIR_NAMES, step as lenient
    out = []
    candidates = [Action("move", d) for d in DIRS] + [Action("wrap", d) for d in DIRS]
    candidates += [Action("warp", r) for r, room in ts.state.dungeon.rooms.items() if room.type == "warp"]
    for action in candidates:
        after, broken = lenient(ts.state, ts.player, action)
        if broken:
            continue
        before, now = ts.state.players[ts.player], after.players[ts.player]
        if now.room == before.room:
            continue
        cost = [f"{k} -1" for k in ("keys", "bombs", "hp") if getattr(now, k) < getattr(before, k)]
        name = f"{action.verb} {DIR_NAMES.get(action.target, action.target)}"
        out.append(f"{name} -> {now.room}" + (f" ({', '.join(cost)})" if cost else ""))
    return out


def status(ts: TrackState) -> str:
    """Header, shared dungeon state, the players (whose turn it is last), legal moves."""
    st = ts.state
    lines = [f"dungeon {ts.header['dungeon']} ({ts.dungeon.defn.title}); turn of {ts.player}"]
    resolved = ", ".join(f"{r} ({'+'.join(sorted(f))})" for r, f in sorted(st.tokens.items()) if f) or "none"
    lines.append(f"entered: {', '.join(sorted(st.entered))}; resolved: {resolved}")
    order = [p for p in st.players.values() if p.name != ts.player] + [st.players[ts.player]]
    for p in order:
        items = ", ".join(sorted(p.items)) or "no items"
        lines.append(f"{p.name}: in {p.room}, HP {p.hp}, keys {p.keys}, bombs {p.bombs}, XP {p.xp}, {items}"
                     + (f"; moves {p.moves}/{p.move_limit}" if p.name == ts.player else "")
                     + (f"; MUST resolve the hazard in {p.hazard}" if p.hazard else ""))
    if st.players[ts.player].hazard:            # nothing else until the hazard is resolved
        lines.append("legal now: resolve")
        return "\n".join(lines)
    moves = legal_moves(ts)
    lines.append("legal now: " + (", ".join(moves) if moves else "no move") + ", resolve, end turn")
    return "\n".join(lines)


def export(header: dict, steps: list, relative_to: Path | None = None) -> str:
    import yaml
    ref = relative_ref(header["dungeon"], relative_to)
    turns: list[dict] = []
    current = {"player": header["players"][0]["name"], "actions": []}
    for s in steps:
        who = _turn_of(s)
        if who is not None:
            turns.append(current)
            current = {"player": who, "actions": []}
        else:
            current["actions"].append(s)
    turns.append(current)
    doc = {"sheetgen": 1, "kind": "playlog", "ruleset": "navigation", "dungeon": ref,
           "players": header["players"], "turns": turns}
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)

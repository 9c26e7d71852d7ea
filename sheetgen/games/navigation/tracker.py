"""The card-grid navigation adapter of `sheetgen track --ruleset navigation` (ADAPTER).

Steps are navigation play-log actions ('move east', {resolve: forge}, ...)
plus turn markers {turn: PLAYER}, read and written by notation.py; export
groups them back into `turns:`.  A game starts with `--map DUNGEON --hero Ada,Bo`
(player names) and optional `--traits hp=10,keys=1,bombs=1,xp=0` applied to every
player.
"""
from __future__ import annotations

from pathlib import Path

from sheetgen.errors import InputError
from sheetgen.limits import check_name
from sheetgen.games.base import Illegal as StepRefused, TrackerAdapter
from sheetgen.paths import relative_ref
from ..grid import DIR_NAMES
from . import notation
from .actions import BeginTurn, EndTurn, Move, Warp, Wrap
from .rules import RULES, Player
from .tables import ITEM_NAMES, RESOURCES, START, item_key


class TrackState:
    __slots__ = ("header", "dungeon", "state", "player", "steps")

    def __init__(self, header, dungeon, state, player, steps):
        self.header, self.dungeon, self.state, self.player, self.steps = header, dungeon, state, player, steps


def _ref(name: str) -> str:
    p = check_name(name, "--map")
    if p.suffix in (".yaml", ".yml") or p.exists():
        return str(p.resolve())
    return name


def load_dungeon(ref: str):
    from sheetgen.definitions.registry import load
    try:
        loaded = load(ref)
    except InputError:
        raise                               # unusable input (exit 2), not a refused step
    if (loaded.kind, loaded.ruleset) != ("dungeon", "navigation"):
        raise InputError(f"'{ref}' is a {loaded.kind} ({loaded.ruleset}), not a navigation dungeon")
    return loaded.definition


def _initial(header: dict, dungeon):
    from .formats import to_engine_dungeon
    eng = to_engine_dungeon(dungeon)
    players = [Player(name=p["name"], room=p.get("start") or eng.start,
                      **{k: p.get(k, START[k]) for k in RESOURCES},
                      items=frozenset(item_key(i) for i in p.get("items", ()))) for p in header["players"]]
    return RULES.new_game(eng, players)


class NavigationAdapter(TrackerAdapter):
    """The journal of a navigation game: its header names the dungeon and the players."""

    def start(self, params: dict) -> dict:
        ref = _ref(params["map"])
        load_dungeon(ref)
        names = [n.strip() for n in str(params.get("hero") or "Player 1").split(",") if n.strip()]
        if len(set(names)) != len(names):
            raise InputError("player names must differ")
        extra = {}
        for key, value in (params.get("traits") or {}).items():
            key = key.strip().lower()
            if key not in RESOURCES:
                raise InputError(f"unknown player setting '{key}' (hp, keys, bombs, xp)")
            extra[key] = int(value)
        return {"ruleset": "navigation", "map": ref, "dungeon": ref, "players": [{"name": n, **extra} for n in names]}

    def replay(self, header: dict, steps: list) -> TrackState:
        dungeon = load_dungeon(header["dungeon"])
        state = _initial(header, dungeon)
        player = header["players"][0]["name"]
        state = RULES.step(state, BeginTurn(player)).state
        for s in steps:
            try:
                action = notation.parse_step(s)
            except ValueError:
                continue
            if isinstance(action, BeginTurn):
                state = RULES.step(state, EndTurn()).state
                if action.player in state.players:
                    player = action.player
                state = RULES.step(state, BeginTurn(player)).state
                continue
            state = RULES.step(state, action).state
        return TrackState(header, dungeon, state, player, list(steps))

    def apply(self, ts: TrackState, step) -> TrackState:
        try:
            action = notation.parse_step(step)
        except ValueError as exc:
            raise StepRefused(str(exc)) from None
        if isinstance(action, BeginTurn):
            if action.player not in ts.state.players:
                raise StepRefused(f"no player '{action.player}' (players: {', '.join(ts.state.players)})")
            state = RULES.apply(RULES.apply(ts.state, EndTurn()), action)
            return TrackState(ts.header, ts.dungeon, state, action.player, ts.steps + [step])
        return TrackState(ts.header, ts.dungeon, RULES.apply(ts.state, action), ts.player, ts.steps + [step])

    def legal_moves(self, ts: TrackState, legal: list | None = None) -> list[str]:
        """Every move, wrap and warp the current player could make now, with its price (LEGAL: the
        rules' legal actions in TS when the caller has them already: the page's view)."""
        out = []
        for action in RULES.legal_actions(ts.state) if legal is None else legal:
            if not isinstance(action, (Move, Wrap, Warp)):
                continue
            after = RULES.step(ts.state, action).state
            before, now = ts.state.players[ts.player], after.players[ts.player]
            if now.room == before.room:
                continue
            cost = [f"{k} -1" for k in ("keys", "bombs", "hp") if getattr(now, k) < getattr(before, k)]
            target = action.room if isinstance(action, Warp) else DIR_NAMES[action.dir]
            out.append(f"{action.verb} {target} -> {now.room}" + (f" ({', '.join(cost)})" if cost else ""))
        return out

    def narrate(self, before: TrackState, after: TrackState, step) -> list[str]:
        """What a recorded step did at the table: who went where, what was paid or gained, the
        tokens placed or taken off, whose turn begins."""
        b, a = before.state, after.state
        lines = []
        if after.player != before.player:
            lines.append(f"{before.player}'s turn ends; {after.player}'s turn begins")
        for name, p in a.players.items():
            q = b.players.get(name)
            if q is None:
                continue
            if p.room != q.room:
                lines.append(f"{name} goes to {_room_name(a, p.room)}"
                             + (f" (move {p.moves} of {p.move_limit})" if p.moves != q.moves else " (free)"))
            for key in RESOURCES:
                if getattr(p, key) != getattr(q, key):
                    lines.append(f"{name}: {key} {getattr(q, key)} -> {getattr(p, key)}")
            for item in sorted(p.items - q.items):
                lines.append(f"{name} gains the {ITEM_NAMES.get(item, item)}")
            for item in sorted(q.items - p.items):
                lines.append(f"{name} loses the {ITEM_NAMES.get(item, item)}")
            if p.hazard and p.hazard != q.hazard:
                lines.append(f"{name} must resolve the hazard in {_room_name(a, p.hazard)} now")
        for room in sorted(set(a.tokens) | set(b.tokens)):
            new, old = set(a.tokens.get(room, ())), set(b.tokens.get(room, ()))
            if new - old:
                lines.append(f"{_room_name(a, room)}: a navigation token over {', '.join(sorted(new - old))}")
            if old - new:
                lines.append(f"{_room_name(a, room)} unresolved: its tokens come off (doors and walls lock again)")
        return lines

    def status(self, ts: TrackState, legal: list | None = None) -> str:
        """Header, shared dungeon state, the players (whose turn it is last), legal moves (LEGAL: as
        for legal_moves)."""
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
        moves = self.legal_moves(ts, legal)
        lines.append("legal now: " + (", ".join(moves) if moves else "no move") + ", resolve, end turn")
        return "\n".join(lines)

    def export(self, header: dict, steps: list, relative_to: Path | None = None) -> str:
        """The play log: the steps in notation, grouped into the players' turns."""
        import yaml
        ref = relative_ref(header["dungeon"], relative_to)
        turns: list[dict] = []
        current = {"player": header["players"][0]["name"], "actions": []}
        for s in steps:
            try:
                action = notation.parse_step(s)
            except ValueError:              # never recorded (apply refuses it); kept as written
                current["actions"].append(s)
                continue
            if isinstance(action, BeginTurn):
                turns.append(current)
                current = {"player": action.player, "actions": []}
            else:
                current["actions"].append(notation.serialize(action, notation.note_of(s)))
        turns.append(current)
        doc = {"sheetgen": 1, "kind": "playlog", "ruleset": "navigation", "dungeon": ref,
               "players": header["players"], "turns": turns}
        return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)

    def render(self, header: dict, steps: list, outdir, formats, paper=None, grayscale=False) -> list:
        raise InputError("the navigation tracker cannot draw yet")


def _room_name(st, room: str) -> str:
    card = st.dungeon.rooms.get(room)
    return card.name if card is not None and card.name else str(room)


ADAPTER = NavigationAdapter()

"""Card-grid dungeon navigation (seed 000): the engine, `RULES.step(state, action) -> Outcome`.

Pure and fast: plain dataclasses, no I/O.  Several players share one dungeon
state (who entered which room, which action symbols carry a navigation token);
the player whose turn it is is `state.current` (a `BeginTurn` action sets it).

How the rules read here (documented in docs/formats-cards.md):
- A move into a neighbouring room passes the destination's side that faces the
  mover (its entry side): open is free, a door needs a key, a wall a bomb.  A room
  that any player has entered (any navigation token on it) is entered freely
  from any side, until it is unresolved.
- At most 3 counted moves a turn (5 with Speed Boots); back-and-forth counts;
  a Magic Mirror teleport counts; warp room -> warp room does not.
- Wrap travel leaves the outermost room of a row/column through its outer side
  and arrives at the furthest room at the other end (empty spaces skipped); the
  two outer sides must be of the same type, and that type is paid as usual.
- A hazard (red outline) must be resolved before the player does anything else.
- Unresolving a resolved room that borders the player's room costs 4 XP; the
  room loses its tokens and its entered status, and gives no bonus XP again.
- The reading 'pay-side-left' (NavigationReading): paying for the side of the
  room left as well is accepted; by default only the side entered is paid.  A
  reading decides whether a step breaks a rule, never how the state goes on, so
  a log judged under either reading is replayed through the same states.

Every step is followed as far as it goes (a move into nothing leaves the player
where they were, a door passed without a key still moves them), so a checker goes
on from `Outcome.state` and one mistake gives one violation.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..base import Outcome, ReadingsInUse, Rules, StepReport, Violation, broken, handler_of
from ..grid import DIR_NAMES, DIRS, OPPOSITE
from .actions import (Action, BeginTurn, EndTurn, Gain, Lose, Mirror, Move, MoveTo, Pay, PlaceToken, Resolve,
                      Unresolve, Warp, Wrap)
from .readings import NavigationReading
from .tables import BASE_MOVES, BOOTS_MOVES, MAGIC_MIRROR, NEEDS, SPEED_BOOTS, START, UNRESOLVE_XP, item_key


@dataclass(frozen=True, slots=True)
class Room:
    id: str
    type: str
    functions: tuple[str, ...] = ()
    hazard: frozenset = frozenset()          # the functions under a red outline
    sides: tuple[tuple[str, str], ...] = ()  # (('N','open'), ...)
    xp: int = 0                              # bonus XP when first resolved
    keys: int = 0                            # keys found when resolved (trap rooms: 1)
    name: str = ""

    def side(self, d: str) -> str:
        return dict(self.sides).get(d, "open")


class Dungeon:
    """The grid of room cards (immutable during play)."""
    __slots__ = ("rooms", "pos", "at", "start", "cols", "rows")

    def __init__(self, rooms: dict[str, Room], pos: dict[str, tuple[int, int]], start: str):
        self.rooms = rooms
        self.pos = pos
        self.at = {p: r for r, p in pos.items()}
        self.start = start
        self.cols = 1 + max((c for c, _ in pos.values()), default=0)
        self.rows = 1 + max((r for _, r in pos.values()), default=0)

    def neighbour(self, room: str, d: str) -> str | None:
        c, r = self.pos[room]
        dc, dr = DIRS[d]
        return self.at.get((c + dc, r + dr))

    def borders(self, a: str, b: str) -> bool:
        (c1, r1), (c2, r2) = self.pos[a], self.pos[b]
        return abs(c1 - c2) + abs(r1 - r2) == 1

    def line(self, room: str, d: str) -> list[str]:
        """Rooms beyond room in direction d, nearest first (empty spaces skipped)."""
        c, r = self.pos[room]
        dc, dr = DIRS[d]
        out = []
        c, r = c + dc, r + dr
        while 0 <= c < self.cols and 0 <= r < self.rows:
            if (c, r) in self.at:
                out.append(self.at[(c, r)])
            c, r = c + dc, r + dr
        return out

    def wrap_target(self, room: str, d: str) -> str | None:
        """Leaving the outermost room through side d: the furthest room the other way."""
        if self.line(room, d):
            return None
        back = self.line(room, OPPOSITE[d])
        return back[-1] if back else None

    def direction(self, a: str, b: str) -> str | None:
        (c1, r1), (c2, r2) = self.pos[a], self.pos[b]
        for d, (dc, dr) in DIRS.items():
            if (c1 + dc, r1 + dr) == (c2, r2):
                return d
        return None


@dataclass(slots=True)
class Player:
    name: str
    room: str
    hp: int = START["hp"]
    keys: int = START["keys"]
    bombs: int = START["bombs"]
    xp: int = START["xp"]
    items: frozenset = frozenset()
    moves: int = 0                       # counted moves this turn
    credit: str | None = None            # pre-paid key/bomb/hp for the next passage
    hazard: str | None = None            # room whose hazard must be resolved now

    @property
    def move_limit(self) -> int:
        return BOOTS_MOVES if SPEED_BOOTS in self.items else BASE_MOVES


@dataclass(slots=True)
class State:
    dungeon: Dungeon
    players: dict[str, Player]
    readings: ReadingsInUse = field(default_factory=ReadingsInUse)   # shared by every copy of a replay
    entered: set = field(default_factory=set)           # rooms any player has entered
    tokens: dict = field(default_factory=dict)          # room -> frozenset of resolved functions
    unresolved: set = field(default_factory=set)        # rooms unresolved once: no bonus XP again
    current: str | None = None                          # whose turn it is

    def copy(self) -> "State":
        return State(self.dungeon, {k: replace(v) for k, v in self.players.items()}, self.readings,
                     set(self.entered), dict(self.tokens), set(self.unresolved), self.current)

    def is_resolved(self, room: str) -> bool:
        return bool(self.tokens.get(room))


Report = StepReport   # the violations of one step; refused by any of REFUSALS


class NavigationRules(Rules[State, Action]):
    """The rules of card-grid navigation (seed 000)."""
    game = "navigation"

    def new_game(self, dungeon: Dungeon, players: list[Player], readings=()) -> State:
        """The state before the first turn; readings: NavigationReading members or their names."""
        st = State(dungeon, {p.name: p for p in players}, ReadingsInUse(NavigationReading.parse(readings)))
        for p in players:
            st.entered.add(p.room)
        return st

    def step(self, state: State, action: Action) -> Outcome[State]:
        """The state after action (followed as far as it goes) and every rule it broke."""
        st = state.copy()
        report = Report(REFUSALS)
        if isinstance(action, BeginTurn):
            _begin_turn(st, action.player, report)
            return Outcome(st, tuple(report))
        p = st.players.get(st.current)
        if p is None:
            return Outcome(st, (broken("nav.player", f"no player named '{st.current}'"),), False)
        handler_of(_HANDLERS, action, self.game)(st, p, action, report)
        # an action these rules refuse was not carried out: what builds on it only echoes it
        return report.outcome(st)

    def legal_actions(self, state: State) -> list[Action]:
        """The actions of the current player the rules accept now: moves, wraps, warps,
        mirror teleports, payments, resolving, tokens, unresolving, ending the turn
        (not the bookkeeping gain/lose, nor paying a move inline)."""
        p = state.players[state.current]
        dg = state.dungeon
        candidates: list = [Move(d) for d in DIRS] + [Wrap(d) for d in DIRS]
        candidates += [Warp(r) for r, room in dg.rooms.items() if _is_warp(room)]
        if MAGIC_MIRROR in p.items:
            candidates += [Mirror(r) for r in dg.rooms]
        candidates += [Pay("key"), Pay("bomb"), Pay("hp")]
        candidates += [Resolve(f) for f in dg.rooms[p.room].functions] + [PlaceToken("elsewhere")]
        candidates += [Unresolve(r) for r in dg.rooms if dg.borders(p.room, r)]
        candidates.append(EndTurn())
        return [a for a in candidates if not self.step(state, a).violations]


RULES = NavigationRules()
# the rules whose violation means the action was not carried out (the player stays, no token)
REFUSALS = frozenset({"nav.player", "nav.no-room", "nav.not-adjacent", "nav.wrap-edge", "nav.wrap-match", "nav.mirror",
                      "nav.warp", "nav.resolve", "nav.resolve-here", "nav.resolve-which", "nav.already-resolved",
                      "nav.unresolve-adjacent", "nav.unresolve-resolved"})


def _begin_turn(st: State, player: str, report: Report) -> None:
    if player not in st.players:
        report.append(broken("nav.player", f"no player named '{player}'"))
        return
    p = st.players[player]
    p.moves, p.credit, p.hazard = 0, None, None
    st.current = player


# -- handlers ----------------------------------------------------------------
def _hazard_first(st: State, p: Player, report: Report, verb: str) -> None:
    if p.hazard is not None:
        room = st.dungeon.rooms[p.hazard]
        report.append(broken("nav.hazard", f"the hazard in {_name(room)} must be resolved on entry, "
                                           f"before '{verb}'"))
        p.hazard = None


def _name(room: Room) -> str:
    return f"'{room.id}'" + (f" ({room.type})" if room.type else "")


def _count_move(p: Player, report: Report, how: str) -> None:
    if p.moves >= p.move_limit:
        boots = " (Speed Boots allow 5)" if p.move_limit == BASE_MOVES else ""
        report.append(broken("nav.move-limit", f"{how} would be room move {p.moves + 1} this turn; "
                                               f"at most {p.move_limit}{boots}"))
    p.moves += 1


def _spend(p: Player, what: str) -> bool:
    """Take one key/bomb/HP from the player's stock; False if there is none."""
    attr = {"key": "keys", "bomb": "bombs", "hp": "hp"}[what]
    if getattr(p, attr) <= 0:
        return False
    setattr(p, attr, getattr(p, attr) - 1)
    return True


def _shortage(need: str, what: str, p: Player) -> Violation:
    return broken(f"nav.{'door-key' if need == 'key' else 'wall-bomb'}",
                  f"{what} needs a {need} and {p.name} has none left "
                  f"(sacrifice 1 HP in lieu of it: 'sacrifice: hp')")


def _pay(st: State, p: Player, need: str | None, leaving: str | None, use: str | None, report: Report,
         what: str) -> None:
    """Pay for one passage.  need: the key/bomb the side entered through asks for
    (None: open, or a room already entered).  leaving: what the side of the room
    left would ask for; paying it as well is accepted under the reading
    'pay-side-left' (never required), a wrong tool under the default reading; the
    state goes on alike under both (the side entered is paid from the stock, the
    other tool spent), so the reading decides the verdict only.  A pre-paid key/bomb/HP
    (p.credit, already taken from the stock) and an inline `use` both count;
    whatever is left over is spent, never carried to a later passage."""
    credit, p.credit = p.credit, None
    paid = []                                   # (tool, already taken from the stock?)
    if credit is not None:
        paid.append(("hp" if credit == "hp" else credit[5:], True))
    if use is not None:
        paid.append((use, False))
    for_need = next((i for i, (tool, _) in enumerate(paid) if need and tool in (need, "hp")), None)
    if for_need is not None:
        tool, taken = paid.pop(for_need)
        if not taken and not _spend(p, tool):
            if tool == "hp":
                report.append(broken("nav.sacrifice", f"{what}: no HP left to sacrifice"))
                p.hp -= 1
            else:
                report.append(_shortage(need, what, p))
    elif need is not None:
        for_left = next((tool for tool, _ in paid if tool == leaving), None)
        if paid and for_left is None:
            report.append(broken("nav.wrong-tool", f"{what} needs a {need}, not a {paid[0][0]}"))
            return
        if for_left is not None and not st.readings.uses(NavigationReading.PAY_SIDE_LEFT):
            report.append(broken("nav.wrong-tool", f"{what} needs a {need}, not a {for_left} (paying for the side "
                                                   f"of the room left counts under the reading 'pay-side-left')"))
        if not _spend(p, need):
            report.append(_shortage(need, what, p))
    for tool, taken in paid:                    # paid for the side left, or for nothing: spent all the same
        if not taken:
            _spend(p, tool)


def _enter(st: State, p: Player, dest: str, side: str | None, use: str | None, report: Report, what: str,
           leaving: str | None = None) -> None:
    """Enter dest through its side `side` (None: a teleport or warp, nothing to pay);
    leaving: the type of the side of the room left (paying for it is optional)."""
    room = st.dungeon.rooms[dest]
    if side is not None:
        kind = room.side(side)
        need = None if dest in st.entered else NEEDS[kind]
        _pay(st, p, need, NEEDS.get(leaving) if leaving else None, use, report,
             f"{what} through the {kind} on the {DIR_NAMES[side]} side of {_name(room)}")
    else:
        p.credit = None
    p.room = dest
    st.entered.add(dest)
    done = st.tokens.get(dest, frozenset())
    if room.hazard - done:
        p.hazard = dest


def _room_arg(st: State, rid: str, report: Report) -> str | None:
    if rid not in st.dungeon.rooms:
        from difflib import get_close_matches
        near = get_close_matches(str(rid), list(st.dungeon.rooms), n=1)
        report.append(broken("nav.no-room", f"no room '{rid}' in this dungeon"
                             + (f"; did you mean '{near[0]}'?" if near else "")))
        return None
    return rid


def _move(st: State, p: Player, a: Move, report: Report) -> None:
    _hazard_first(st, p, report, "move")
    d = a.dir
    dest = st.dungeon.neighbour(p.room, d)
    if dest is None:
        # a plain move never leaves the grid: wrap travel is its own action (as documented)
        wrap = st.dungeon.wrap_target(p.room, d)
        hint = f" (to travel to the other side of the dungeon use 'wrap: {DIR_NAMES[d]}')" if wrap else ""
        report.append(broken("nav.no-room", f"no room {DIR_NAMES[d]} of '{p.room}'{hint}"))
        return
    _count_move(p, report, f"moving {DIR_NAMES[d]} to '{dest}'")
    _enter(st, p, dest, OPPOSITE[d], a.use, report, f"moving {DIR_NAMES[d]}",
           leaving=st.dungeon.rooms[p.room].side(d))


def _move_to(st: State, p: Player, a: MoveTo, report: Report) -> None:
    dest = _room_arg(st, a.room, report)
    if dest is None:
        return
    d = st.dungeon.direction(p.room, dest)
    if d is not None:
        _move(st, p, Move(d, a.use), report)
        return
    for w in DIRS:
        if st.dungeon.wrap_target(p.room, w) == dest:
            _wrap(st, p, Wrap(w, a.use), report)
            return
    _hazard_first(st, p, report, "move-to")
    if dest == p.room:
        report.append(broken("nav.not-adjacent", f"{p.name} is already in '{dest}'"))
        return
    report.append(broken("nav.not-adjacent", f"'{dest}' does not border '{p.room}' (use warp, mirror or wrap)"))


def _wrap(st: State, p: Player, a: Wrap, report: Report) -> None:
    _hazard_first(st, p, report, "wrap")
    d = a.dir
    dg = st.dungeon
    dest = dg.wrap_target(p.room, d)
    if dest is None:
        report.append(broken("nav.wrap-edge", f"'{p.room}' is not the outermost room on the {DIR_NAMES[d]}; "
                                              f"wrap travel leaves the dungeon's edge"))
        return
    here, there = dg.rooms[p.room].side(d), dg.rooms[dest].side(OPPOSITE[d])
    if here != there:
        report.append(broken("nav.wrap-match", f"wrap travel needs matching sides: '{p.room}' has {here} on the "
                                               f"{DIR_NAMES[d]}, '{dest}' has {there} on the {DIR_NAMES[OPPOSITE[d]]}"))
        return
    _count_move(p, report, f"wrap travel to '{dest}'")
    _enter(st, p, dest, OPPOSITE[d], a.use, report, "wrap travel")


def _mirror(st: State, p: Player, a: Mirror, report: Report) -> None:
    _hazard_first(st, p, report, "mirror")
    dest = _room_arg(st, a.room, report)
    if dest is None:
        return
    if MAGIC_MIRROR not in p.items:
        report.append(broken("nav.mirror", f"{p.name} has no Magic Mirror"))
        return
    _count_move(p, report, f"the Magic Mirror teleport to '{dest}'")
    _enter(st, p, dest, None, None, report, "mirror")


def _is_warp(room: Room) -> bool:
    return room.type == "warp" or "warp" in room.functions


def _warp(st: State, p: Player, a: Warp, report: Report) -> None:
    _hazard_first(st, p, report, "warp")
    dest = _room_arg(st, a.room, report)
    if dest is None:
        return
    here = st.dungeon.rooms[p.room]
    if not _is_warp(here):
        report.append(broken("nav.warp", f"warping needs a warp room; '{p.room}' is a {here.type} room"))
        return
    if not _is_warp(st.dungeon.rooms[dest]) or dest == p.room:
        report.append(broken("nav.warp", f"a warp goes to another warp room; '{dest}' is not one"))
        return
    _enter(st, p, dest, None, None, report, "warp")       # free: not counted


def _prepay(st: State, p: Player, a: Pay, report: Report) -> None:
    _hazard_first(st, p, report, a.verb)
    if a.tool == "hp":
        if p.hp <= 0:
            report.append(broken("nav.sacrifice", f"{p.name} has no HP left to sacrifice"))
        p.hp -= 1
        p.credit = "hp"
        return
    need = a.tool
    stock = p.keys if need == "key" else p.bombs
    if stock <= 0:
        report.append(broken(f"nav.{'door-key' if need == 'key' else 'wall-bomb'}",
                             f"{p.name} has no {need} left (sacrifice 1 HP in lieu of it: 'sacrifice: hp')"))
    elif need == "key":
        p.keys -= 1
    else:
        p.bombs -= 1
    p.credit = "paid-" + need


def ambiguous_name(dungeon: "Dungeon", name: str | None) -> bool:
    """Whether a bare `resolve NAME` could mean both a card of the dungeon and a function."""
    return bool(name) and name in dungeon.rooms and any(name in r.functions for r in dungeon.rooms.values())


def _resolve(st: State, p: Player, a: Resolve | PlaceToken, report: Report) -> None:
    room = st.dungeon.rooms[p.room]
    named = a.named
    if named is None and ambiguous_name(st.dungeon, a.function):
        report.append(broken("nav.resolve-which", f"'{a.function}' is both a card of the dungeon and a function: "
                                                  f"write {{{a.verb}: {{function: {a.function}}}}} for the function "
                                                  f"or {{{a.verb}: {{room: {a.function}}}}} for the card (a bare "
                                                  "name is never guessed, even where both meanings would give the "
                                                  "same result)"))
        return
    as_room = a.function and (named == "room" or (named is None and a.function in st.dungeon.rooms))
    if as_room and a.function != p.room:
        report.append(broken("nav.resolve-here", f"resolve acts on the room the player is in ('{p.room}'), "
                                                 f"not '{a.function}'"))
        return
    function = a.function if a.function and not as_room else None
    done = st.tokens.get(p.room, frozenset())
    pending_hazard = [f for f in room.functions if f in room.hazard and f not in done]
    if not room.functions:
        report.append(broken("nav.resolve", f"{_name(room)} has no action to resolve"))
        return
    if function is not None and function not in room.functions:
        if function.isdigit() and 1 <= int(function) <= len(room.functions):
            function = room.functions[int(function) - 1]
        else:
            report.append(broken("nav.resolve", f"{_name(room)} has no function '{function}' "
                                                f"(it has {', '.join(room.functions)})"))
            return
    if function is None:
        left = [f for f in room.functions if f not in done]
        function = (pending_hazard or left or list(room.functions))[0]   # a pending hazard first
    if function in done:
        every = "" if a.function or len(room.functions) < 2 else f" (as has every function: {', '.join(room.functions)})"
        report.append(broken("nav.already-resolved",
                             f"{_name(room)}: '{function}' already has a navigation token{every}"))
        return
    done = done | {function}
    st.tokens[p.room] = done
    if p.hazard == p.room and not (room.hazard - done):
        p.hazard = None
    complete = len(done) == len(room.functions)
    if complete:
        p.keys += room.keys
    again = p.room in st.unresolved
    if a.xp is not None:
        if again and a.xp > 0:
            report.append(broken("nav.bonus-xp", f"{_name(room)} was unresolved before: no bonus XP ({a.xp} claimed)"))
        else:
            p.xp += a.xp
    elif complete and not again:
        p.xp += room.xp
    _change(p, a.gain, 1, report)
    _change(p, a.lose, -1, report)


def _place_token(st: State, p: Player, a: PlaceToken, report: Report) -> None:
    if a.function in (None, "elsewhere", "entered"):
        st.entered.add(p.room)   # 'entered, not resolved': already implied by being here
        _hazard_first(st, p, report, "place-token elsewhere")
        return
    _resolve(st, p, a, report)


def _unresolve(st: State, p: Player, a: Unresolve, report: Report) -> None:
    _hazard_first(st, p, report, "unresolve")
    target = _room_arg(st, a.room, report)
    if target is None:
        return
    if not st.dungeon.borders(p.room, target):
        where = (f"{p.name} is in '{target}'" if target == p.room else f"'{target}' does not border '{p.room}'")
        report.append(broken("nav.unresolve-adjacent", f"{where}: only a bordering room can be unresolved"))
        return
    if not st.is_resolved(target):
        report.append(broken("nav.unresolve-resolved", f"'{target}' has no navigation token over its action "
                                                       f"symbols: nothing to unresolve"))
        return
    if p.xp < UNRESOLVE_XP:
        report.append(broken("nav.unresolve-xp", f"unresolving costs {UNRESOLVE_XP} XP; {p.name} has {p.xp}"))
    p.xp = max(0, p.xp - UNRESOLVE_XP)
    st.tokens.pop(target, None)
    st.entered.discard(target)
    st.unresolved.add(target)


def _change(p: Player, changes, sign: int, report: Report) -> None:
    """Apply resource changes in the order written: gained (sign 1) or lost (sign -1)."""
    for name, value in changes:
        if name == "item":
            p.items = p.items | {item_key(value)} if sign > 0 else p.items - {item_key(value)}
        else:
            new = getattr(p, name) + sign * int(value)
            if new < 0 and name != "hp":
                report.append(broken("nav.resource", f"{p.name} has only {getattr(p, name)} {name}"))
                new = 0
            setattr(p, name, new)


def _gain(st: State, p: Player, a: Gain, report: Report) -> None:
    _change(p, a.changes, 1, report)


def _lose(st: State, p: Player, a: Lose, report: Report) -> None:
    _change(p, a.changes, -1, report)


def _end_turn(st: State, p: Player, a: EndTurn, report: Report) -> None:
    if p.hazard is not None:
        room = st.dungeon.rooms[p.hazard]
        report.append(broken("nav.hazard", f"turn ended with the hazard in {_name(room)} unresolved"))
    p.moves, p.credit, p.hazard = 0, None, None


_HANDLERS = {
    Move: _move, MoveTo: _move_to, Wrap: _wrap, Mirror: _mirror, Warp: _warp, Pay: _prepay, Resolve: _resolve,
    PlaceToken: _place_token, Unresolve: _unresolve, Gain: _gain, Lose: _lose, EndTurn: _end_turn,
}

"""The rules of Dungeon Exploration (rules text: shared/seeds/004) as one engine.

    rules = ExplorationRules(rooms, entrances, contents)       # the three tables (tables.py)
    state = rules.new_game(20, 28, readings)
    outcome = rules.step(state, action)      # Place, Contents, Retrace, Time, End (actions.py)
    rules.replay(actions, 20, 28, readings) -> (violations, readings consulted)   # the checker
    check(actions, rooms, entrances, contents, 20, 28) -> Judgement    # judged (base.judge)
    rules.placements(state, roll, door); rules.legal_actions(state)

The state is the sheet so far: its squares (Sheet, shared with map mode), the rooms drawn on
it in the order of play with their doors, the boss results, the time written.  A log writes
each door in the state it has when the log ends, so door states and the exits a room must
list are judged by End, on the finished sheet; everything else when the room is placed.
Violations name the log's line of the key that holds the slip (actions carry `where`); a
slip two written lines may hold is reported at both (a roll or transform blamed for a
shape, and the squares; a block-style contents roll and result).

Rulings (where the rules leave room, the checker accepts what a careful player could write;
the readings of the rules themselves are ExplorationReading members, see readings.py):
  * Doors: "10,27:N" is the N side of square 10,27 (the next room's square is 10,26);
    the same edge named from outside ("10,26:S" in room 1's list) is the same door.
    explored = leads to the room whose square is beyond (to: must say which); unexplored
    = nothing beyond yet (one facing any room, earlier or later, is explored); secret =
    not found, may face anything (to: allowed if it is right); dead-end (a word some
    players write) only for a door off the paper edge, into a room, or of a truncated room.
  * Joined: some door of an earlier room (or the room's own door to an earlier room)
    sits on the edge between them; a wrong state or to: on that door is reported at the
    door, not again as "not joined".  The new room meets that door with one of its exits
    (reading door-anywhere: with any square; all its exits are then listed doors).  Every
    exit of the shape leading onto a free square must be listed (exits off the edge, into
    other rooms and secret ones need not be), unless the room has no doors list at all:
    then touching an earlier room without a doors list joins it.
  * Transform (readings.candidates): rotate either direction, mirror either axis before or
    after the turn, stretch 1-2 = one line repeated (any line; reading stretch-two-lines:
    or two lines once each), doors on a repeated line on any copy; no transform = any.
  * Truncation: cells a connected part of the placed shape, meeting the door with an
    exit.  The paper edge stops a room whether or not it says truncated; "no room for the
    room" needs truncated: true (or no flag) and an earlier room in the way.  A truncated
    room is a dead end: its doors are optional (a lost exit may be drawn where the paper
    edge stops it, not explored), it still rolls contents (reading cut-kind: in the column
    of what its squares now are, as a cut-down room may be 1 wide).
  * Contents: 2d6 in the column of the room's kind; the result may be written as the
    table's id, title or text, the rules' category (monsters, traps ...), with a note after
    it, or left out ("..."); every room rolls, the entrance too (reading entrance-no-contents:
    the rules roll on opening a door, so the entrance may have none).  Boss escalation: the
    contents table's rule (+1 per earlier boss, the built-in house rule; reading
    plain-escalation: also the rules' plain d6 6+); final must agree with the one used.
  * Ending: nothing may follow the Final Boss (reported once, at the next room); a log
    may stop anywhere (retreat, death, a half-played map); 'no doors'/'map full' is
    wrong while an unexplored door faces a free square.
  * Time, 10 minutes a room: per room as the total after it, before it, 10 each, or a
    tally of 10-minute turns (1, 2, 3 ...; the first written time says which); a slip
    carried on is reported once; a total must be 10 x rooms.  Room ids need only be
    unique: the list order is the order of play.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from ..base import Judgement, Outcome, ReadingsInUse, Rules, StepReport, Violation, handler_of, judge
from ..dice import D66_VALUES, is_d66
from .actions import (D66, DEAD_END_STATES, DOOR_STATES, ENTRANCE, EXPLORED, SECRET, UNEXPLORED, Action, Contents,
                      DoorMark, End, Escalation, Place, Retrace, Search, Time, Transform, Unreadable)
from .readings import ExplorationReading as R, candidates
from .shapes import DELTA, OPPOSITE, SIDES
from .tables import BOSS_ROLL, CONTENTS_ROLLS, ContentsTable, RoomEntry, RoomTable

MINUTES_PER_ROOM = 10
PLACEHOLDERS = ("", "...", "\u2026", "?", "-", "tbd", "todo")
# "The dungeon ends when: You roll the Final Boss ..., or your map runs out of room. The party
# retreats out the entrance. The party dies." (and map mode's own: its room limit, a stop)
END_REASONS = {
    "final-boss": ("final-boss", "final boss", "finalboss", "boss", "final"),
    "map-full": ("map-full", "map full", "no-doors", "no doors", "full", "out of room", "no room", "map out of room",
                 "map runs out of room", "out of doors"),
    "retreat": ("retreat", "retreated", "retreats", "retreating", "retreat out the entrance"),
    "dead": ("dead", "died", "death", "dies", "party-dies", "party dies", "party died", "party dead"),
    "rooms": ("rooms", "room limit", "max rooms"),
    "stopped": ("stopped", "stop", "unfinished"),
}
FINAL_REASONS = END_REASONS["final-boss"]
FULL_REASONS = END_REASONS["map-full"]
ORIENTATIONS = ((0, False), (90, False), (180, False), (0, True), (90, True))   # hints: one of each drawing


# -- the sheet ----------------------------------------------------------------------------------
class Sheet:
    """The squares of a W x H graph sheet and the room on each: one flat list (0 free, else the
    room's number in the order of play), so a placement costs the squares of the shape however
    full the sheet is.  Squares a log draws off the sheet are kept aside (outside)."""
    __slots__ = ("width", "height", "owner", "outside")

    def __init__(self, width: int, height: int, owner: list | None = None, outside: dict | None = None):
        self.width, self.height = width, height
        self.owner = owner if owner is not None else [0] * (width * height)
        self.outside = outside if outside is not None else {}

    def copy(self) -> "Sheet":
        return Sheet(self.width, self.height, self.owner.copy(), dict(self.outside) if self.outside else None)

    def on_sheet(self, x: int, y: int) -> bool:
        return 1 <= x <= self.width and 1 <= y <= self.height

    def occupant(self, x: int, y: int) -> int:
        """-1 off the sheet, 0 a free square, else the number of the room on it."""
        if 1 <= x <= self.width and 1 <= y <= self.height:
            return self.owner[(y - 1) * self.width + x - 1]
        return -1

    def holder(self, c) -> int:
        """The number of the room that has square c (0: none), on the sheet or off it."""
        x, y = c
        if 1 <= x <= self.width and 1 <= y <= self.height:
            return self.owner[(y - 1) * self.width + x - 1]
        return self.outside.get(c, 0)

    def claim_all(self, cells, number: int) -> None:
        """Squares on the sheet for a room (map mode's rooms never leave it)."""
        w, owner = self.width, self.owner
        for x, y in cells:
            owner[(y - 1) * w + x - 1] = number

    def fits(self, cells, tx: int, ty: int) -> bool:
        """Whether cells moved by (tx, ty) are all on the sheet and free: where a room may go."""
        w, h, owner = self.width, self.height, self.owner
        for x, y in cells:
            X, Y = x + tx, y + ty
            if X < 1 or Y < 1 or X > w or Y > h or owner[(Y - 1) * w + X - 1]:
                return False
        return True


def beyond(d) -> tuple[int, int]:
    """The square on the other side of door d (x, y, side)."""
    dx, dy = DELTA[d[2]]
    return d[0] + dx, d[1] + dy


def centre_columns(width: int) -> set:
    return {width // 2, width // 2 + 1} if width % 2 == 0 else {(width + 1) // 2}


def entrance_origin(sheet: Sheet, w: int, h: int) -> tuple[int, int]:
    """Where a w x h entrance goes: its lowest row on the bottom row, centred (the rules'
    bottom-centre; at_bottom_centre holds for it)."""
    return (sheet.width - w) // 2 + 1, sheet.height - h + 1


def at_bottom_centre(sheet: Sheet, cells) -> bool:
    xs = [x for x, _ in cells]
    return max(y for _, y in cells) == sheet.height and any(min(xs) <= c <= max(xs)
                                                             for c in centre_columns(sheet.width))


def fitting(sheet: Sheet, variants, fx: int, fy: int, side: str, order=None) -> Iterator[tuple]:
    """(variant, tx, ty) of every placement of a rolled shape through the door onto square fx, fy
    (entered from `side`): an exit of the shape meets the door and every square is on the sheet
    and free.  order: the variants' indexes to try, in that order (default: as listed)."""
    fits, w, h = sheet.fits, sheet.width, sheet.height
    for i in (order if order is not None else range(len(variants))):
        v = variants[i]
        vw, vh = v.size
        for ex, ey, _ in v.by_side[side]:
            tx, ty = fx - ex, fy - ey
            # (the shape's box off the sheet: it cannot fit, whatever is on the sheet)
            if tx >= 1 and ty >= 1 and tx + vw <= w + 1 and ty + vh <= h + 1 and fits(v.cells, tx, ty):
                yield v, tx, ty


def cuts(sheet: Sheet, variants, fx: int, fy: int, side: str) -> Iterator[tuple]:
    """No room for the room: (variant, tx, ty, squares) of each truncation, the free part of the
    placed shape that is joined to the door square (a dead end)."""
    w, h, owner = sheet.width, sheet.height, sheet.owner
    door = (fy - 1) * w + fx - 1
    for v in variants:
        for ex, ey, _ in v.by_side[side]:
            tx, ty = fx - ex, fy - ey
            # the free squares as indexes of the sheet's list (flood-filled without making squares)
            free = {(Y - 1) * w + X - 1 for X, Y in ((x + tx, y + ty) for x, y in v.cells)
                    if 1 <= X <= w and 1 <= Y <= h and not owner[(Y - 1) * w + X - 1]}
            yield v, tx, ty, {(i % w + 1, i // w + 1) for i in _joined_to(free, door, w)}


def exit_door(sheet: Sheet, x: int, y: int, side: str, secret: bool) -> tuple[str, int] | None:
    """What an exit of a placed room is on the sheet: None off the edge (a dead end), else
    (state, number of the room beyond or 0): explored into a room, secret (not found until the
    room is searched, whatever is beyond), or unexplored."""
    dx, dy = DELTA[side]
    occ = sheet.occupant(x + dx, y + dy)
    if occ < 0:
        return None
    if secret:
        return SECRET, max(occ, 0)
    if occ > 0:
        return EXPLORED, occ
    return UNEXPLORED, 0


def is_wandering(roll: int) -> bool:
    """Retracing: a d6 of 1 brings wandering monsters."""
    return roll == 1


def _component(cells: set, start) -> set:
    if start not in cells:
        return set()
    group = {start}
    stack = [start]
    while stack:
        x, y = stack.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells and n not in group:
                group.add(n)
                stack.append(n)
    return group


def _joined_to(free: set, start: int, w: int) -> list:
    """The indexes of free joined to start by sides (free: indexes of a sheet w squares wide; used up)."""
    if start not in free:
        return []
    free.discard(start)
    group = [start]
    stack = [start]
    while stack:
        i = stack.pop()
        for n in (i + 1 if (i + 1) % w else -1, i - 1 if i % w else -1, i + w, i - w):
            if n in free:
                free.discard(n)
                group.append(n)
                stack.append(n)
    return group


def _wide(cells) -> bool:
    return any((x + 1, y) in cells and (x, y + 1) in cells and (x + 1, y + 1) in cells for x, y in cells)


def _cell(c) -> str:
    return f"{c[0]},{c[1]}"


def _door(d) -> str:
    return f"{d[0]},{d[1]}:{d[2]}"


def _opens(door: DoorMark, other_id: int) -> bool:
    """Whether a door written so lets the party through to the room other_id beyond it."""
    state = door.state
    if state == EXPLORED:
        return door.to is None or door.to == other_id
    return state == SECRET and door.to == other_id


def _distances(links: dict, start: int) -> dict:
    """Rooms entered from start through joined rooms -> how many (breadth first)."""
    dist = {start: 0}
    todo = [start]
    for rid in todo:
        for n in sorted(links.get(rid, ())):
            if n not in dist:
                dist[n] = dist[rid] + 1
                todo.append(n)
    return dist


def _shortest_path(links: dict, start: int, goal: int) -> list:
    """The rooms entered walking from start to goal (goal included, start not), fewest first."""
    prev = {start: None}
    todo = [start]
    for rid in todo:
        if rid == goal:
            break
        for n in sorted(links.get(rid, ())):
            if n not in prev:
                prev[n] = rid
                todo.append(n)
    out = []
    node = goal
    while node is not None and node != start:
        out.append(node)
        node = prev.get(node)
    return out[::-1]


def _on_shortest(links: dict, start: int, goal: int, from_start: dict) -> set:
    """The rooms on some shortest walk from start to goal."""
    to_goal = _distances(links, goal)
    d = from_start[goal]
    return {r for r, k in from_start.items() if r in to_goal and k + to_goal[r] == d and r != start}


def _walk_fits(links: dict, start: int, goal: int, d: int, rolls, from_start: dict) -> bool:
    """Whether the retrace rolls are a walk from start back to goal: every room named in order
    through joined rooms (no room twice), or, where the rolls name none (or only some), one d6 for
    each room of a shortest walk (a named room at its place on one)."""
    names = [r.room for r in rolls]
    if names and all(n is not None for n in names):
        if names[0] == start:
            # each d6 named by the room walked out of (the start, not the goal): the same walk
            names = names[1:] + [goal]
        prev, seen = start, {start}
        for n in names:
            if n not in links.get(prev, ()) or n in seen:
                return False
            prev = n
            seen.add(n)
        return prev == goal
    if len(rolls) != d:
        return False
    if any(n is not None for n in names):
        to_goal = _distances(links, goal)
        return all(n is None or (from_start.get(n) == i and to_goal.get(n) == d - i)
                   for i, n in enumerate(names, 1))
    return True


def _squares_named(found) -> str:
    """'square 10,29' or 'squares 10,29, 11,29' of (line, square) pairs."""
    cells = [_cell(c) for _, c in found]
    return ("square " if len(cells) == 1 else "squares ") + ", ".join(cells)


def _describe_transform(t: Transform) -> str:
    parts = [f"rotated {t.rotate}"] if t.rotate else []
    if t.mirror:
        parts.append("mirrored")
    if t.stretch:
        parts.append(f"stretched by {t.stretch}")
    return ", ".join(parts) or "as drawn"


def norm_reason(reason) -> str | None:
    """An end reason as written -> one of END_REASONS ('final-boss', 'map-full', 'retreat',
    'dead', 'rooms', 'stopped'), or the words written when it is none of them."""
    text = " ".join(str(reason or "").strip().lower().replace("_", " ").split())
    for name, words in END_REASONS.items():
        if text in words or text.replace("-", " ") in words:
            return name
    return text or None


# -- the state ---------------------------------------------------------------------------------
@dataclass(slots=True)
class Drawn:
    """A room on the sheet: its Place, where it is in the order of play, and what its later
    checks need.  Never changed once in a state (states share them)."""
    id: int
    place: Place
    index: int                            # its place among the rooms of the log (0: the entrance)
    number: int                           # 1-based among the rooms on the sheet: what its squares hold
    cells: set                            # its squares that parse
    written: tuple = ()                   # ((edge, DoorMark), ...): its readable doors as written
    doors: tuple = ()                     # the same, each named from its own square, once
    outside_named: bool = False           # a door named from the far side of its edge (re-read later)
    entry: RoomEntry | None = None
    kinds: tuple = ()                     # the contents columns it reads
    cut_kinds: tuple = ()                 # and under the cut-kind reading
    overlapping: bool = False
    irregular: bool = False               # some squares off the sheet or another room's
    exits: tuple | None = None            # (placements, kept out by the readings in use, entry edges, specs)
    opened_via: tuple = ()                # ((earlier room id, its edge), ...): the doors it may have been opened by
    _shape: tuple | None = None

    def shape(self) -> tuple:
        """(min x, min y, the squares moved so that those are 0): what table shapes are matched to."""
        if self._shape is None:
            cells = self.cells
            mx = min(x for x, _ in cells)
            my = min(y for _, y in cells)
            self._shape = (mx, my, frozenset([(x - mx, y - my) for x, y in cells]))
        return self._shape


class State:
    """The sheet so far.  A step returns a new state (copy): states share what they do not
    change (the sheet's list and the rooms table are copied when a room is placed)."""
    __slots__ = ("sheet", "readings", "rooms", "by_id", "generated", "last_id", "current", "contents_due",
                 "times", "bosses", "final_at", "maybe_final", "after_final", "ended",
                 "links", "here", "walking", "unwritten", "searched", "empty", "loose", "found")

    def __init__(self, sheet: Sheet, readings: ReadingsInUse | None = None):
        self.sheet = sheet
        self.readings = readings if readings is not None else ReadingsInUse()
        self.rooms: tuple = ()                # Drawn, in the order of play
        self.by_id: dict = {}
        self.generated = 0                    # rooms generated (a room whose id is taken counts too)
        self.last_id: int | None = None
        self.current: Drawn | None = None     # the room just placed (None: none, or its id was taken)
        self.contents_due = False
        self.times: tuple = ()                # (log index, room id, Time)
        self.bosses = 0
        self.final_at: int | None = None      # the room of the Final Boss
        self.maybe_final: int | None = None   # an 11 whose escalation the log leaves open
        self.after_final = False              # a room after the Final Boss was reported
        self.ended: End | None = None
        self.links: dict = {}                 # room id -> frozenset of the room ids joined to it by a door
        self.here: int | None = None          # the room the party is in (the last one placed)
        self.walking: Retrace | None = None   # the retrace written for the room about to be placed
        self.unwritten: tuple = ()            # walks back with no retrace of their own: (Walk, ...)
        self.searched: frozenset = frozenset()    # ids of the rooms searched
        self.empty: dict = {}                 # room id -> empty after the encounter (None: cannot tell)
        self.loose: Retrace | None = None     # retrace rolls written beside the rooms (no room of their own)
        self.found: dict = {}                 # room id -> the doors its search names as found (both names)

    def copy(self) -> "State":
        new = State.__new__(State)
        new.sheet, new.readings, new.rooms, new.by_id = self.sheet, self.readings, self.rooms, self.by_id
        new.generated, new.last_id, new.current, new.contents_due = (self.generated, self.last_id, self.current,
                                                                    self.contents_due)
        new.times, new.bosses, new.final_at, new.maybe_final = self.times, self.bosses, self.final_at, self.maybe_final
        new.after_final, new.ended = self.after_final, self.ended
        new.links, new.here, new.walking, new.unwritten = self.links, self.here, self.walking, self.unwritten
        new.searched, new.empty, new.loose, new.found = self.searched, self.empty, self.loose, self.found
        return new


# -- the engine -----------------------------------------------------------------------------------
class ExplorationRules(Rules):
    """The rules with the tables a log names: step(state, action) -> Outcome."""
    game = "exploration"

    def __init__(self, rooms: RoomTable, entrances: RoomTable, contents: ContentsTable):
        self.table = rooms
        self.entrances = entrances
        self.contents = contents

    def new_game(self, width: int = 20, height: int = 28, readings: Iterable = ()) -> State:
        chosen = readings if isinstance(readings, ReadingsInUse) else ReadingsInUse(readings)
        return State(Sheet(width, height), chosen)

    # -- the checker ---------------------------------------------------------------------------
    def replay(self, actions: Iterable[Action], width: int = 20, height: int = 28,
               readings: Iterable = ()) -> tuple[list[Violation], set]:
        """Every action of a log through step -> (violations by line, readings consulted)."""
        state = self.new_game(width, height, readings)
        found: list[Violation] = []
        for action in actions:
            outcome = self.step(state, action)
            found += outcome.violations
            state = outcome.state
        if state.ended is None:
            outcome = self.step(state, End())
            found += outcome.violations
        found.sort(key=lambda v: (v.line is None, v.line or 0))
        return found, state.readings.consulted

    def step(self, state: State, action: Action) -> Outcome:
        """One action; each violation's step is the place of its room in the log's rooms list
        (1-based: `LOG:LINE: step N: ...`), none for the log's end as a whole."""
        out = StepReport()
        state, number = handler_of(self._STEPS, action, self.game)(self, state, action, out)
        if not out:
            return Outcome(state)
        if number is not None:
            for v in out:
                if v.step is None:
                    v.step = number
        return Outcome(state, tuple(out))

    # -- the step handlers: (state, action, out) -> (the new state, the log step it is, or None) --
    def _step_retrace(self, state: State, action: Retrace, out: list) -> tuple[State, int | None]:
        state = self._retrace(state, action, out)
        return state, (state.generated + 1 if action.toward is not None else None)

    def _step_place(self, state: State, action: Place, out: list) -> tuple[State, int | None]:
        state = self._place(state, action, out)
        return state, state.generated

    def _step_contents(self, state: State, action: Contents, out: list) -> tuple[State, int | None]:
        state = self._contents_step(state, action, out)
        return state, state.generated

    def _step_search(self, state: State, action: Search, out: list) -> tuple[State, int | None]:
        state = self._search(state, action, out)
        return state, state.generated

    def _step_time(self, state: State, action: Time, out: list) -> tuple[State, int | None]:
        if state.generated:
            state = state.copy()
            state.times = state.times + ((state.generated - 1, state.last_id, action),)
        return state, None

    def _step_end(self, state: State, action: End, out: list) -> tuple[State, int | None]:
        return self._end_step(state, action, out), None

    _STEPS = {Retrace: _step_retrace, Place: _step_place, Contents: _step_contents, Search: _step_search,
              Time: _step_time, End: _step_end}

    # -- reporting ------------------------------------------------------------------------------
    @staticmethod
    def _at(out: list, lines, message: str, rule: str) -> None:
        """One slip that more than one written line may hold: reported once, at the most
        precise of them (the last: a block-style key's own line), naming the others."""
        seen = []
        for line in lines:
            if line is not None and line not in seen:
                seen.append(line)
        if len(seen) > 1:
            message += f" (see also line {', '.join(map(str, seen[:-1]))})"
        out.append(Violation(seen[-1] if seen else None, message, rule=rule))

    def _door_broken(self, out, door: DoorMark, message: str, rule: str) -> None:
        """A door's slip at its line, and (block style) at the line of the key it is about."""
        w = door.where
        own = {"door.state": w.get("state"), "door.to": w.get("to") or w.get("state")}.get(rule)
        self._at(out, [w.get("line"), own], message, rule)

    # -- a room placed ------------------------------------------------------------------------------
    def _place(self, st: State, a: Place, out: list) -> State:
        if st.contents_due:
            st = self._contents_step(st, Contents(where={"line": st.current.place.where.get("line")}), out)
        st = st.copy()
        st.sheet = st.sheet.copy()
        st.by_id = dict(st.by_id)
        index = st.generated
        st.generated += 1
        st.last_id = a.id
        line = a.where.get("line")
        if a.id in st.by_id:
            out.append(Violation(line, f"room id {a.id} is used twice (first at line "
                                       f"{st.by_id[a.id].place.where.get('line')})", rule="room.id"))
            st.current, st.contents_due, st.walking = None, False, None
            return st
        cells, overlapping, off, corner = self._squares(st, a, out)
        room = Drawn(a.id, a, index, len(st.rooms) + 1, cells, overlapping=overlapping, irregular=overlapping or off)
        if cells:
            mx, my = corner
            room._shape = (mx, my, frozenset([(x - mx, y - my) for x, y in cells]))
        st.rooms = st.rooms + (room,)
        st.by_id[a.id] = room
        st.current, st.contents_due = room, True
        self._doors_of(st, room, out)
        if st.final_at is not None and not st.after_final:
            st.after_final = True          # reported once, at the first room that follows it
            out.append(Violation(line, f"the dungeon ended with the Final Boss in room {st.final_at}; "
                                       f"room {a.id} (and any after it) cannot come after it", rule="end.final-boss"))
        entry = self._roll(a, index, out)
        room.entry = entry
        room.kinds, room.cut_kinds = self._kind(st, room, entry, out)
        if index == 0:
            self._entrance(st, room, entry, out)
        else:
            self._joined(st, room, entry, out)
            self._walk(st, room, out)
            self._link(st, room)
        st.here = room.id
        return st

    def _squares(self, st: State, a: Place, out: list) -> tuple[set, bool, bool, tuple]:
        """The room's squares (those that parse), whether one is another room's already,
        whether one is off the sheet, and the least x and y."""
        sheet = st.sheet
        W, H, owner = sheet.width, sheet.height, sheet.owner
        w = a.where
        mine: set = set()
        overlapping = off = False
        mx = my = None
        number = len(st.rooms) + 1
        if not a.cells:
            out.append(Violation(w.get("cells") or w.get("line"), f"room {a.id} has no squares", rule="cell.format"))
        cell_lines = w.get("cell_lines") or ()
        # one slip, one violation: the squares off the sheet, listed twice or shared with each
        # other room are reported together, at the line of the first of them
        offs, twice, shared = [], [], {}
        for k, c in enumerate(a.cells):
            line = cell_lines[k] if k < len(cell_lines) else w.get("cells")
            if c.__class__ is Unreadable:
                out.append(Violation(line, f"'{c.text}' is not a square: write x,y such as \"10,28\"",
                                     rule="cell.format"))
                continue
            x, y = c
            if mx is None or x < mx:
                mx = x
            if my is None or y < my:
                my = y
            on = 1 <= x <= W and 1 <= y <= H
            if not on:
                off = True
                offs.append((line, c))
            if c in mine:
                twice.append((line, c))
                continue
            other = owner[(y - 1) * W + x - 1] if on else sheet.outside.get(c, 0)
            if other:
                overlapping = True
                shared.setdefault(other, []).append((line, c))
            elif on:
                owner[(y - 1) * W + x - 1] = number
            else:
                sheet.outside[c] = number
            mine.add(c)
        if offs:
            out.append(Violation(offs[0][0], f"{_squares_named(offs)} of room {a.id} "
                                             f"{'is' if len(offs) == 1 else 'are'} off the {W}x{H} sheet "
                                             f"(x 1-{W}, y 1-{H})", rule="cell.on-sheet"))
        if twice:
            out.append(Violation(twice[0][0], f"{_squares_named(twice)} {'is' if len(twice) == 1 else 'are'} "
                                              f"listed twice in room {a.id}", rule="cell.overlap"))
        for other, found in shared.items():
            out.append(Violation(found[0][0], f"{_squares_named(found)} of room {a.id} "
                                              f"{'is' if len(found) == 1 else 'are'} already part of room "
                                              f"{st.rooms[other - 1].id}: rooms never share a square",
                                 rule="cell.overlap"))
        return mine, overlapping, off, (mx, my)

    def _named(self, st: State, room: Drawn, written, out: list | None = None) -> list:
        """The doors as written, each named from the room's own square: the same edge named from
        outside ("10,26:S" for "10,27:N") when that square is the room it leads to (or free, for a
        door not yet opened); a door listed twice is kept once (and reported, with out)."""
        mine = room.cells
        parsed = []
        seen = set()
        for d, door in written:
            if (d[0], d[1]) not in mine and beyond(d) in mine:
                n = st.sheet.holder((d[0], d[1]))
                outside = st.rooms[n - 1].id if n else None
                # (an explored door without to: leads to whatever room the map shows beyond it)
                if outside == door.to if door.to is not None else (outside is None or door.state == EXPLORED):
                    b = beyond(d)
                    d = (b[0], b[1], OPPOSITE[d[2]])
            if d in seen:
                if out is not None:
                    out.append(Violation(door.where.get("line"), f"door {_door(d)} is listed twice in room {room.id}",
                                         rule="door.format"))
                continue
            seen.add(d)
            parsed.append((d, door))
        return parsed

    def _doors_of(self, st: State, room: Drawn, out: list) -> None:
        written = []
        for door in room.place.doors:
            if isinstance(door.at, Unreadable):
                out.append(Violation(door.where.get("line"), f"'{door.at.text}' is not a door: write x,y:SIDE such "
                                     "as \"10,27:N\" (SIDE one of N, E, S, W)", rule="door.format"))
                continue
            written.append((door.at, door))
        room.written = tuple(written)
        room.outside_named = any((d[0], d[1]) not in room.cells and beyond(d) in room.cells for d, _ in written)
        room.doors = tuple(self._named(st, room, written, out))

    def _doors_now(self, st: State, room: Drawn) -> tuple:
        """A room's doors as the sheet so far names them (a door named from outside may turn
        into the room's own when the room beyond it is drawn)."""
        return tuple(self._named(st, room, room.written)) if room.outside_named else room.doors

    # -- rolls and the table ------------------------------------------------------------------------
    def _roll(self, a: Place, index: int, out: list) -> RoomEntry | None:
        w = a.where
        if a.die is None:
            out.append(Violation(w.get("roll") or w.get("line"), f"room {a.id} needs one roll: {{entrance: N}} for "
                                 "the first room, {d66: NN} for every other", rule="roll.kind"))
            return None
        if index == 0 and a.die != ENTRANCE:
            out.append(Violation(w.get("roll"), "the first room is the entrance: roll d6 on the entrance table "
                                                "(roll: {entrance: N})", rule="roll.kind"))
        if index > 0 and a.die == ENTRANCE:
            out.append(Violation(w.get("roll"), f"only the first room is an entrance; room {a.id} rolls d66 "
                                                "(roll: {d66: NN})", rule="roll.kind"))
        if a.die == ENTRANCE:
            if a.roll is None or not 1 <= a.roll <= 6:
                out.append(Violation(w.get("roll"), f"entrance roll {a.roll} is not a d6 result (1-6)",
                                     rule="roll.range"))
                return None
            return self.entrances.entries.get(a.roll)
        if not is_d66(a.roll):
            what = a.roll if isinstance(a.roll, int) else repr(a.roll)
            out.append(Violation(w.get("roll"), f"d66 roll {what} is out of range: tens die then units die, "
                                                "each 1-6 (11-16, 21-26, ... 61-66)", rule="roll.range"))
            return None
        return self.table.entries.get(a.roll)

    def _kind(self, st: State, room: Drawn, entry: RoomEntry | None, out: list) -> tuple[tuple, tuple]:
        """The contents columns this room reads (and more under the cut-kind reading): its stated
        kind, else the table's; a truncated room may read what its squares now are."""
        a = room.place
        cells = room.cells
        actual = "room" if _wide(cells) else "corridor"
        if a.kind is not None and a.kind not in ("corridor", "room"):
            out.append(Violation(a.where.get("kind"), f"kind '{a.kind}' is neither corridor nor room",
                                 rule="room.kind"))
            return ((entry.kind,) if entry else ("corridor", "room")), ()
        if entry is None:
            return ((a.kind,) if a.kind else ("corridor", "room")), ()
        cut = a.truncated is not False and len(cells) < len(entry.shape.cells)
        if a.kind is not None and a.kind != entry.kind:
            if cut and a.kind == actual and st.readings.uses(R.CUT_KIND):
                return (a.kind,), ()
            out.append(Violation(a.where.get("kind"), f"{self._label(a)} ({entry.name}) is a {entry.kind}, "
                                                      f"not a {a.kind}", rule="room.kind"))
            return (entry.kind, a.kind), ()      # the contents may follow either: reported once
        if a.kind is not None:
            return (a.kind,), ()
        if cut and actual != entry.kind:
            return (entry.kind,), (actual,)
        return (entry.kind,), ()

    @staticmethod
    def _label(a: Place) -> str:
        return f"entrance {a.roll}" if a.die == ENTRANCE else f"d66 {a.roll}"

    # -- shapes ---------------------------------------------------------------------------------------
    def _specs(self, a: Place, out: list):
        """(rotate, mirror, stretch) claims to try, cheapest first; [] when the transform is unusable."""
        if a.transform is None:             # not written down: any orientation, any stretch
            # (the entrance goes on an empty sheet: nothing to stretch it for)
            return [(None, None, 0)] if a.die == ENTRANCE else [(None, None, 0), (None, None, 1), (None, None, 2)]
        t, w = a.transform, a.where
        bad = False
        if not isinstance(t.rotate, int) or t.rotate % 90:
            out.append(Violation(w.get("rotate") or w.get("transform"),
                                 f"rotate {t.rotate} is not a quarter turn (0, 90, 180 or 270)", rule="transform.value"))
            bad = True
        if t.stretch not in (0, 1, 2):
            out.append(Violation(w.get("stretch") or w.get("transform"), f"stretch {t.stretch} is not allowed: "
                                 "stretch a shape by 0, 1 or 2 squares", rule="transform.value"))
            bad = True
        return [] if bad else [(t.rotate % 360, bool(t.mirror), t.stretch)]

    def _placements(self, st: State, room: Drawn, entry: RoomEntry, specs, entry_edges, two_lines: bool):
        """Whole placements [(cand, tx, ty)] and cut ones [(cand, tx, ty, missing squares)]."""
        cells = room.cells
        mx, my, norm = room.shape()
        full = [(cand, mx, my) for spec in specs for cand in candidates(entry.shape, *spec, two_lines=two_lines)
                if cand[0] == norm]
        if full or room.place.die == ENTRANCE:
            return full, []                 # the entrance is drawn whole at the bottom centre
        partial = []
        anchor = min(cells, key=lambda c: (c[1], c[0]))
        for spec in specs:
            for cand in candidates(entry.shape, *spec, two_lines=two_lines):
                if len(cand[0]) <= len(cells):
                    continue
                if entry_edges:
                    # a cut-down room still meets its door with an exit of the shape
                    shifts = {(ex - x, ey - y) for g in cand[1] for x, y, sd in g
                              for ex, ey, es in entry_edges if es == sd}
                else:
                    shifts = {(anchor[0] - x, anchor[1] - y) for x, y in cand[0]}
                for tx, ty in shifts:
                    placed = {(x + tx, y + ty) for x, y in cand[0]}
                    if cells < placed:
                        partial.append((cand, tx, ty, placed - cells))
        return full, partial

    def _fits(self, st: State, room: Drawn, entry: RoomEntry, specs, entry_edges, two_lines: bool = True):
        """Placements the squares are (whole, or a legal cut) -> ([(cand, tx, ty, cut)], hints)."""
        full, partial = self._placements(st, room, entry, specs, entry_edges, two_lines)
        if full:
            return [(c, tx, ty, False) for c, tx, ty in full], "", ""
        cut_ok, flag_hint, free_hint = [], "", ""
        if len(_component(room.cells, next(iter(room.cells)))) == len(room.cells):     # in one piece
            for cand, tx, ty, missing in partial:
                ok, why = self._truncation_ok(st, room, missing)
                if ok:
                    cut_ok.append((cand, tx, ty, True))
                elif "mark the room truncated" in why:
                    flag_hint = flag_hint or why
                else:
                    free_hint = free_hint or why
        return cut_ok, flag_hint, free_hint

    def _truncation_ok(self, st: State, room: Drawn, missing) -> tuple[bool, str]:
        """Whether the left-out squares make a legal cut: the paper edge stops a room (flag or not);
        'no room for the room' needs the truncated flag (or none written) and something in the way."""
        sheet = st.sheet
        off = [c for c in missing if not sheet.on_sheet(*c)]
        blocked = [c for c in missing if 0 < sheet.holder(c) < room.number]
        if len(off) == len(missing):
            return True, ""
        if off or blocked:
            if room.place.truncated is False:
                return False, "; they are only part of it: mark the room truncated: true (a dead end)"
            return True, ""
        free = ", ".join(_cell(c) for c in sorted(missing, key=lambda c: (c[1], c[0]))[:4])
        return False, (f"; they are only part of it, yet nothing is in the way of the rest ({free} "
                       "free and on the sheet): a room is truncated only when it would overlap earlier "
                       "rooms or cross the paper edge")

    @staticmethod
    def _meets(fit, entry_edges) -> bool:
        """Whether a placement has an exit on the door the room was entered by."""
        (cells, groups, _), tx, ty, _cut = fit
        return any((x + tx, y + ty, s) in entry_edges for g in groups for x, y, s in g)

    def _accepted(self, st: State, room: Drawn, entry: RoomEntry, specs, entry_edges):
        """The placements the squares are under the readings in use -> (fits, kept out, hints,
        stray).  kept out: whole placements with no exit on the door (door-anywhere accepts
        them; the exits check at the end may need them); stray: the same when they are all
        there is (the squares are the shape, but turned so that no exit is the door).

        A reading not in use that would accept the squares is recorded as consulted, so that
        judge tries it (readings in use are applied here from the start)."""
        chosen = st.readings.chosen
        two = R.STRETCH_TWO_LINES in chosen
        anywhere = R.DOOR_ANYWHERE in chosen
        fits, flag_hint, free_hint = self._fits(st, room, entry, specs, entry_edges, two)
        if not fits and not two and any(s[2] == 2 for s in specs):
            wider = self._fits(st, room, entry, specs, entry_edges, True)[0]
            if wider:
                st.readings.uses(R.STRETCH_TWO_LINES)
                if entry_edges and not anywhere and not wider[0][3] and \
                        not any(self._meets(f, entry_edges) for f in wider):
                    st.readings.uses(R.DOOR_ANYWHERE)
        kept_out: list = []
        stray: list = []
        if entry_edges and fits and not fits[0][3] and not anywhere:
            meeting = [f for f in fits if self._meets(f, entry_edges)]
            if len(meeting) < len(fits):
                if meeting:
                    kept_out, fits = [f for f in fits if f not in meeting], meeting
                else:
                    st.readings.uses(R.DOOR_ANYWHERE)
                    stray, fits = fits, []
        return fits, kept_out, (flag_hint, free_hint), stray

    def _shape(self, st: State, room: Drawn, entry: RoomEntry | None, entry_edges: set, where: str, out: list):
        a = room.place
        w = a.where
        cells = room.cells
        if entry is None or not cells or room.overlapping:
            return                          # squares shared with another room: reported there
        specs = self._specs(a, out)
        if not specs:
            return
        fits, kept_out, (flag_hint, free_hint), stray = self._accepted(st, room, entry, specs, entry_edges)
        if fits:
            room.exits = (fits, kept_out, frozenset(entry_edges), specs, None)
            return
        label = f"{self._label(a)} ({entry.name}, a {entry.kind})"
        how = _describe_transform(a.transform) if a.transform is not None else "in any orientation"
        if stray:
            # the squares are the shape, but no exit of it is the door it was opened through:
            # reported with its doors at the end (unless another transform explains both)
            room.exits = (stray, [], frozenset(entry_edges), specs,
                          Violation(w.get("cells") or w.get("line"), f"room {a.id} has no exit of {label} {how} on "
                                    f"the door it was opened through{where}: turn it so one of its exits is that "
                                    "door", rule="shape.door"))
            return
        # the offending key, judged by what else the squares are: a real cut (something in the
        # way) with truncated: false -> the flag; a cut marked truncated with nothing in the way
        # -> the flag; the shape turned another way -> the transform; another entry's shape with
        # these doors -> the roll; else the squares themselves
        line, hint = w.get("cells"), ""
        if flag_hint and a.truncated is False:
            line, hint = w.get("truncated") or line, flag_hint
        elif free_hint and a.truncated is True:
            line, hint = w.get("truncated") or line, free_hint
        if not hint and a.transform is not None:
            other = self._other_transform(room, entry)
            if other is not None:
                hint, line = f"; they match it {other[0]}", w.get("transform")
                sub = {"rotate": w.get("rotate"), "mirror": w.get("mirror"), "stretch": w.get("stretch")}
                if sub[other[1]]:
                    line = sub[other[1]]        # block style: the key that differs has a line of its own
        if not hint:
            other = self._other_entry(st, room, entry_edges)
            if other is not None:
                hint, line = f"; they are the shape of {other}", w.get("roll")
        if not hint:
            hint = flag_hint or free_hint
        cells_line = w.get("cells")
        # the roll or transform is the likelier slip, but the squares may be the one made: one
        # slip, reported once, naming the squares' line too
        also = (f" (or the squares at line {cells_line} are drawn wrong)"
                if line is not None and cells_line and line != cells_line and line != w.get("truncated") else "")
        out.append(Violation(line or w.get("line"), f"the squares of room {a.id} are not the shape of {label} {how}"
                                                    f"{where}{hint}{also}", rule="shape.match"))

    def _other_transform(self, room: Drawn, entry: RoomEntry) -> tuple | None:
        """(what the squares fit, the key that differs: rotate | mirror | stretch) or None;
        the stated stretch is tried first, so a turned shape blames the turn."""
        mx, my, norm = room.shape()
        t = room.place.transform
        stretch = t.stretch if t.stretch in (0, 1, 2) else 0
        for st in dict.fromkeys((stretch, 0, 1, 2)):
            for r, m in ORIENTATIONS:
                for cand in candidates(entry.shape, r, m, st):
                    if cand[0] == norm:
                        key = "stretch" if st != stretch else "mirror" if m != bool(t.mirror) else "rotate"
                        return f"with rotate: {r}, mirror: {str(m).lower()}, stretch: {st}", key
        return None

    def _other_entry(self, st: State, room: Drawn, entry_edges: set) -> str | None:
        """Another table entry whose shape the squares are and whose exits fit the listed doors."""
        a = room.place
        cells = room.cells
        mx, my, norm = room.shape()
        table = self.entrances if a.die == ENTRANCE else self.table
        listed = {d for d, _ in self._doors_now(st, room) if (d[0], d[1]) in cells} - entry_edges
        s = a.transform.stretch if a.transform and a.transform.stretch in (0, 1, 2) else 0
        for key, entry in table.entries.items():
            if key == a.roll:
                continue
            for cand in candidates(entry.shape, None, None, s):
                if cand[0] != norm:
                    continue
                places = {(x + mx, y + my, side) for g in cand[1] for x, y, side in g}
                if listed <= places:
                    return f"{'entrance' if a.die == ENTRANCE else 'd66'} {key} ({entry.name})"
        return None

    def _entrance(self, st: State, room: Drawn, entry: RoomEntry | None, out: list):
        cells = room.cells
        if not cells:
            return
        if not at_bottom_centre(st.sheet, cells):
            W, H = st.sheet.width, st.sheet.height
            out.append(Violation(room.place.where.get("cells") or room.place.where.get("line"),
                                 f"the entrance goes at the bottom centre of the sheet: its lowest row on row {H} "
                                 f"and covering column {' or '.join(map(str, sorted(centre_columns(W))))}",
                                 rule="entrance.place"))
        self._shape(st, room, entry, set(), "", out)

    def _joined(self, st: State, room: Drawn, entry: RoomEntry | None, out: list):
        a = room.place
        cells = room.cells
        mine = room.index
        parent_id = a.parent
        earlier = st.rooms[:-1]
        if parent_id is not None:
            touching = [o for o in (st.by_id.get(parent_id),) if o is not None and o is not room]
        else:
            # only a room that touches this one has a door onto it
            near = self._neighbours(st, room)
            touching = [o for o in earlier if near is None or o.number in near or o.irregular]
        # the door it was opened from: an explored door of an earlier room leading onto its squares
        edges: dict = {}
        joining = []
        for other in touching:
            theirs = other.cells
            for d, door in self._doors_now(st, other):
                # any door of the earlier room onto these squares joins them; a wrong state or
                # to: on it is that door's own violation, reported at its line
                if (d[0], d[1]) in theirs and beyond(d) in cells:
                    b = beyond(d)
                    edges[(b[0], b[1], OPPOSITE[d[2]])] = (other.id, d)
                    joining.append((other.id, d, door))
        opened = any(door.state == EXPLORED or (door.state == SECRET and door.to is not None)
                     for _, _, door in joining)
        # or the room lists its own side of the door it came in by (an explored door needs no
        # to: where the map shows the room beyond it)
        own: set = set()
        for d, door in room.doors:
            to = st.by_id.get(door.to) if door.to is not None else (
                self._room_at(st, beyond(d)) if door.state == EXPLORED else None)
            if door.state in (EXPLORED, SECRET) and to is not None and to.index < mine \
                    and beyond(d) in to.cells and (parent_id is None or to.id == parent_id):
                b = beyond(d)
                edges.setdefault(d, (to.id, (b[0], b[1], OPPOSITE[d[2]])))
                own.add(d)
                opened = True
        if joining and not opened:
            for oid, d, door in joining:     # (an unexplored one is reported with the door states)
                if door.state == SECRET and oid not in st.searched:
                    continue                # never revealed: that is the slip (reported with the secrets)
                if door.state == SECRET or door.state in DEAD_END_STATES:
                    self._door_broken(out, door, f"room {a.id} was opened through door {_door(d)} of room {oid}, "
                                                 f"so that door is explored (to: {a.id}), not {door.state}",
                                      "door.state")
        if not edges:
            # an earlier room that keeps no doors list: touching it is the join (its door is not
            # written down, so there is nothing to check it against)
            for other in earlier:
                if other.place.doors_listed or (parent_id is not None and other.id != parent_id):
                    continue
                theirs = other.cells
                for x, y in cells:
                    for side in SIDES:
                        dx, dy = DELTA[side]
                        if (x + dx, y + dy) in theirs:
                            edges[(x, y, side)] = (other.id, (x + dx, y + dy, OPPOSITE[side]))
        if not edges:
            w = a.where
            came = f" from room {parent_id}" if parent_id is not None else ""
            named = [(o.id, d) for o in earlier for d, door in self._doors_now(st, o)
                     if door.to == a.id and (d[0], d[1]) in o.cells]
            # a door that names this room: the squares are drawn away from it (one slip, said once)
            if named and w.get("cells"):
                oid, d = named[0]
                out.append(Violation(w.get("cells"), f"room {a.id} is not joined{came} through a door: door "
                                     f"{_door(d)} of room {oid} leads to it, but its squares are not beyond that "
                                     f"door (see also line {w.get('line')})", rule="room.joined"))
            else:
                out.append(Violation(w.get("line"), f"room {a.id} is not joined{came} through a door: an earlier "
                                     f"room needs an explored door on an edge of its squares", rule="room.joined"))
            return
        # the doors it may have been opened through: those written open onto it, else any that joins
        opening = [(oid, d) for oid, d, door in joining if _opens(door, a.id)] + \
                  [e for k, e in edges.items() if k in own]
        room.opened_via = tuple(dict.fromkeys(opening or edges.values()))
        parent, d = next(iter(edges.values()))
        self._shape(st, room, entry, set(edges), f", entered through door {_door(d)} of room {parent}", out)

    @staticmethod
    def _room_at(st: State, c) -> Drawn | None:
        n = st.sheet.holder(c)
        return st.rooms[n - 1] if n else None

    # -- the party's walk back, and the rooms joined by doors --------------------------------------
    def _link(self, st: State, room: Drawn) -> None:
        """The rooms the new room is joined to by a door it was opened through, or by an explored
        door on an edge they share (either room's): the map the party walks back along."""
        near = self._neighbours(st, room)
        joined = {oid for oid, _ in room.opened_via}
        cells = room.cells
        for other in st.rooms[:-1]:
            if other.id in joined or (near is not None and other.number not in near and not other.irregular):
                continue
            theirs = other.cells
            if any(_opens(door, room.id) and (d[0], d[1]) in theirs and beyond(d) in cells
                   for d, door in self._doors_now(st, other)) or \
                    any(_opens(door, other.id) and beyond(d) in theirs for d, door in room.doors):
                joined.add(other.id)
        if not joined:
            return
        links = dict(st.links)
        links[room.id] = links.get(room.id, frozenset()) | joined
        for oid in joined:
            links[oid] = links.get(oid, frozenset()) | {room.id}
        st.links = links

    def _walk(self, st: State, room: Drawn, out: list) -> None:
        """Retracing: the party walks from the room it is in back to the room whose door it opens,
        through the rooms joined by doors ("Every time you move back through a previously explored
        room or corridor: Roll d6 per room or corridor segment"): one d6 for each room entered on
        the way, that room included.  The rolls written must be those of such a path."""
        walked, st.walking = st.walking, None
        here = st.here
        starts = [oid for oid, _ in room.opened_via if oid in st.by_id]
        if here is None or not starts:
            return                          # the first room, or not joined (reported there)
        a = room.place
        line = a.where.get("line")
        near = _distances(st.links, here)
        rolls = walked.rolls if walked is not None else ()
        if here in starts and not rolls:
            return                          # opened from the room the party is in
        targets = [(p, near[p]) for p in starts if p != here and p in near]
        if not targets:
            if rolls and here in starts:
                out.append(Violation(rolls[0].where.get("line") or line,
                                     f"room {a.id} was opened from room {here}, where the party already was: "
                                     f"there is no walk back to roll for ({len(rolls)} retrace roll"
                                     f"{'s' if len(rolls) != 1 else ''} written)", rule="retrace.path"))
            return                          # the doors written do not join them: nothing to measure
        if walked is None:
            st.unwritten = st.unwritten + ((room.id, line, here, min(targets, key=lambda t: t[1])),)
            return
        if any(_walk_fits(st.links, here, p, d, rolls, near) for p, d in targets):
            return
        p, d = min(targets, key=lambda t: t[1])
        path = _shortest_path(st.links, here, p)
        way = ", ".join(map(str, path))
        named = [r.room for r in rolls if r.room is not None]
        off = [n for n in named if n not in _on_shortest(st.links, here, p, near)]
        if len(rolls) != d:
            why = f"{'too few' if len(rolls) < d else 'too many'}: {len(rolls)}"
        elif off:
            why = f"room {off[0]} is not on that way"
        else:
            why = "the rooms named are not a walk through the doors joining them"
        out.append(Violation(rolls[0].where.get("line") or line,
                             f"room {a.id} was opened from a door of room {p} and the party was in room {here}: "
                             f"walking back passes through room{'s' if d != 1 else ''} {way}, a d6 for each "
                             f"({d} roll{'s' if d != 1 else ''}); {why}", rule="retrace.path"))

    @staticmethod
    def _neighbours(st: State, room: Drawn) -> set | None:
        """The numbers of the rooms whose squares touch this room's (None: cannot tell from the
        sheet alone, for a room with squares off it)."""
        if room.irregular:
            return None
        sheet = st.sheet
        w, h, owner = sheet.width, sheet.height, sheet.owner
        near = set()
        for x, y in room.cells:
            i = (y - 1) * w + x - 1
            if x > 1:
                near.add(owner[i - 1])
            if x < w:
                near.add(owner[i + 1])
            if y > 1:
                near.add(owner[i - w])
            if y < h:
                near.add(owner[i + w])
        return near

    # -- exits and doors, on the finished sheet ------------------------------------------------------
    def _exits(self, st: State, room: Drawn, doors, out: list) -> frozenset:
        """The listed doors against the shape's exits, for the placement that fits them best.

        When the doors fit the squares under another transform, that one mistake is reported
        at the transform instead.  (Not so for another table entry: small shapes share
        squares and doors by chance, and a misplaced door is the likelier slip.)  Returns the
        secret exits of that placement."""
        fits, kept_out, entry_edges, specs, stray = room.exits
        a = room.place
        entry = room.entry
        best, secret = self._door_problems(st, room, doors, fits, entry_edges)
        if best and (kept_out or (R.STRETCH_TWO_LINES not in st.readings.chosen
                                  and any(s[2] == 2 for s in specs))):
            # placements only readings not in use accept (an exit off the door: door-anywhere;
            # two lines stretched: stretch-two-lines) may fit the doors better: consulted then
            wider = [f for f in self._fits(st, room, entry, specs, entry_edges, True)[0]
                     if f not in fits and f not in kept_out] if R.STRETCH_TWO_LINES not in st.readings.chosen else []
            if len(self._door_problems(st, room, doors, fits + kept_out + wider, entry_edges)[0]) < len(best):
                if kept_out or any(not self._meets(f, entry_edges) for f in wider):
                    st.readings.uses(R.DOOR_ANYWHERE)
                if wider:
                    st.readings.uses(R.STRETCH_TWO_LINES)
        if not best:
            if stray is not None:
                out.append(stray)
            return secret
        if a.transform is not None:
            s = a.transform.stretch
            for stretch_by in dict.fromkeys((s, 0, 1, 2)):
                for r, m in ORIENTATIONS:
                    fits2 = self._fits(st, room, entry, [(r, m, stretch_by)], entry_edges)[0]
                    if fits2 and not self._door_problems(st, room, doors, fits2, entry_edges)[0]:
                        out.append(Violation(a.where.get("transform"), f"the doors of room {a.id} are not where "
                                             f"{self._label(a)} ({entry.name}) has its exits "
                                             f"{_describe_transform(a.transform)}; they fit it with rotate: {r}, "
                                             f"mirror: {str(m).lower()}, stretch: {stretch_by}", rule="shape.match"))
                        if stray is not None and not any(self._meets(f, entry_edges) for f in fits2):
                            out.append(stray)     # (turned that way, an exit is the door: one slip)
                        return secret
        if stray is not None:
            out.append(stray)
        for line, message, rule in best:
            out.append(Violation(line, message, rule=rule))
        return secret

    def _door_problems(self, st: State, room: Drawn, doors, placements, entry_edges) -> tuple[list, frozenset]:
        """The door slips of the placement that has fewest, and that placement's secret exits."""
        secret_edges = frozenset()
        sheet = st.sheet
        a = room.place
        cells = room.cells
        listed = {d for d, _ in doors}
        best = None
        for (shape_cells, groups, secret), tx, ty, cut in placements:
            placed = [frozenset((x + tx, y + ty, s) for x, y, s in g) for g in groups]
            places = set().union(*placed) if placed else set()
            problems = []
            for d, door in doors:
                if d in entry_edges or (d[0], d[1]) not in cells:
                    continue
                if d not in places and not (cut and door.state != EXPLORED and not sheet.on_sheet(*beyond(d))):
                    # (a room the paper edge cut off may show its lost exit where it stops: a dead end)
                    problems.append((door.where.get("line"), f"door {_door(d)} is not an exit of {self._label(a)} "
                                                             "as placed", "door.exit"))
            # a truncated room is a dead end: its doors are optional; so are they all in a log
            # that keeps no doors list for the room
            if not (cut and a.truncated) and a.doors_listed:
                for i, g in enumerate(placed):
                    if i in secret or g & listed or g & entry_edges:
                        continue
                    if not any((x, y) in cells for x, y, _ in g):
                        continue
                    over = [beyond(p) for p in g]
                    if not any(sheet.on_sheet(*b) for b in over):
                        continue                 # a door off the edge is a dead end
                    if any(sheet.holder(b) not in (0, room.number) for b in over):
                        continue                 # it would open onto another room's squares
                    e = min(g)
                    problems.append((a.where.get("doors") or a.where.get("line"),
                                     f"room {a.id} is missing the door at {_door(e)} (an exit of its "
                                     "shape): list it as unexplored, explored or secret", "door.missing"))
            mine = frozenset(p for i, g in enumerate(placed) if i in secret for p in g)
            if best is None or len(problems) < len(best):
                best, secret_edges = problems, mine
            elif not problems:
                secret_edges &= mine        # a door is a secret exit only if every fitting placement says so
            if not problems and not secret_edges:
                break
        return best or [], secret_edges

    def _door_states(self, st: State, room: Drawn, doors, out: list):
        sheet = st.sheet
        cells = room.cells
        for d, door in doors:
            if (d[0], d[1]) not in cells:
                self._door_broken(out, door, f"door {_door(d)} is not on a square of room {room.id}", "door.at")
                continue
            b = beyond(d)
            if b in cells:
                self._door_broken(out, door, f"door {_door(d)} is inside room {room.id}, not on its outline", "door.at")
                continue
            state = door.state
            holder = sheet.holder(b)
            if state in DEAD_END_STATES:
                # the paper edge made it a dead end (or the truncation of its room)
                if sheet.on_sheet(*b) and not holder and room.place.truncated is not True:
                    self._door_broken(out, door, f"door {_door(d)} is not a dead end: the square beyond it, "
                                                 f"{_cell(b)}, is free and on the sheet (unexplored, explored or "
                                                 "secret)", "door.state")
                elif holder and room.place.truncated is not True and \
                        (room.id, d) not in st.rooms[holder - 1].opened_via:   # (else said when that room came)
                    there = st.rooms[holder - 1].id
                    self._door_broken(out, door, f"door {_door(d)} opens into room {there}, so it is explored "
                                                 f"(it leads to an existing room), not a dead end", "door.state")
                continue
            if state not in DOOR_STATES:
                from difflib import get_close_matches
                hint = get_close_matches(str(state), DOOR_STATES, n=1)
                self._door_broken(out, door, f"door state '{state}' is not one of unexplored, explored, secret"
                                             + (f"; did you mean '{hint[0]}'?" if hint else ""), "door.state")
                continue
            there = st.rooms[holder - 1].id if holder else None
            if state == UNEXPLORED and not sheet.on_sheet(*b):
                # "a door leading off the edge becomes a dead end"
                self._door_broken(out, door, f"door {_door(d)} leads off the paper edge: it is a dead end "
                                             f"(state: dead-end, or leave it out), not unexplored", "door.state")
                continue
            if state == EXPLORED or (state == SECRET and door.to is not None):
                what = "explored" if state == EXPLORED else "secret"
                if door.to is None:
                    # the map says which room it leads to, if any: no to: is needed then
                    if not sheet.on_sheet(*b):
                        self._door_broken(out, door, f"door {_door(d)} leads off the edge of the sheet: it is a "
                                                     "dead end, not explored", "door.to")
                    elif there is None:
                        self._door_broken(out, door, f"explored door {_door(d)} leads to square {_cell(b)}, which is "
                                                     "empty: an explored door leads to an existing room", "door.to")
                elif door.to not in st.by_id:
                    self._door_broken(out, door, f"door {_door(d)} leads to room {door.to}, which is not in the log",
                                      "door.to")
                elif door.to == room.id:
                    self._door_broken(out, door, f"door {_door(d)} of room {room.id} cannot lead to itself", "door.to")
                elif not sheet.on_sheet(*b):
                    self._door_broken(out, door, f"door {_door(d)} leads off the edge of the sheet: it is a dead "
                                                 f"end, not a way into room {door.to}", "door.to")
                elif there != door.to:
                    where = f"part of room {there}" if there is not None else "empty"
                    self._door_broken(out, door, f"{what} door {_door(d)} leads to square {_cell(b)}, which is "
                                                 f"{where}, not room {door.to}", "door.to")
            elif door.to is not None:
                self._door_broken(out, door, f"an unexplored door leads to no room yet: make door {_door(d)} "
                                             f"explored or drop to: {door.to}", "door.state")
            elif state == UNEXPLORED and there is not None:
                self._door_broken(out, door, f"door {_door(d)} opens into room {there}, so it is explored "
                                             f"(to: {there}), not unexplored", "door.state")

    # -- contents ----------------------------------------------------------------------------------
    def _contents_step(self, st: State, a: Contents, out: list) -> State:
        room = st.current
        if room is None or not st.contents_due:
            return st                       # a room whose id was taken is not checked further
        st = st.copy()
        st.contents_due = False
        final, boss = self._contents(st, room, a, out)
        st.bosses += boss
        if final is True and st.final_at is None:
            st.final_at = room.id
        if final is None and boss:
            st.maybe_final = room.id      # an 11 whose escalation the log leaves open
        return st

    def _search(self, st: State, a: Search, out: list) -> State:
        """ "4. Search the room (optional, once per room) if it's empty after the encounter": the
        room just placed, searched once, and only if its contents left it empty."""
        if st.contents_due:
            st = self._contents_step(st, Contents(where={"line": st.current.place.where.get("line")}), out)
        room = st.current
        if room is None:
            return st
        line = a.where.get("line")
        if not isinstance(a.times, int) or a.times > 1:
            out.append(Violation(line, f"room {room.id} is searched {a.times} times: a room is searched once",
                                 rule="search.once"))
        empty, what = st.empty.get(room.id, (None, ""))
        if empty is False:
            out.append(Violation(line, f"room {room.id} is not empty after the encounter ({what}): only an empty "
                                       "room is searched", rule="search.empty"))
        doors = {d for d, _ in room.doors} | {d for d, _ in room.written}
        for d in a.found:
            if isinstance(d, Unreadable) or (d not in doors and (beyond(d)[0], beyond(d)[1], OPPOSITE[d[2]]) not in doors):
                what = d.text if isinstance(d, Unreadable) else _door(d)
                out.append(Violation(line, f"the search of room {room.id} found door {what}, which is not one of "
                                           "its doors", rule="search.found"))
        st = st.copy()
        st.searched = st.searched | {room.id}
        named = [d for d in a.found if not isinstance(d, Unreadable)]
        if named:
            st.found = dict(st.found)
            st.found[room.id] = frozenset(named) | {(beyond(d)[0], beyond(d)[1], OPPOSITE[d[2]]) for d in named}
        return st

    def _contents(self, st: State, room: Drawn, a: Contents, out: list) -> tuple[bool | None, int]:
        """Check the 2d6 contents -> (Final Boss: True/False/None when unknown, 1 if a boss result)."""
        w = a.where
        line = w.get("contents") or w.get("line")
        roll = a.roll
        st.empty = dict(st.empty)
        st.empty[room.id] = (None, "")
        if roll is None and room.index == 0:
            # "When you open an unexplored door: ... 2. Roll 2d6 on the Room Contents Table": the
            # entrance is not opened through a door, so it rolls none (a roll written is accepted)
            st.empty[room.id] = (True, "")
            return False, 0
        if roll is None:
            out.append(Violation(line, f"room {room.id} has no contents roll: every room and corridor rolls 2d6, "
                                       "a truncated one too (contents: {roll: N, result: ...})", rule="contents.missing"))
            return False, 0
        if not isinstance(roll, int) or not 2 <= roll <= 12:
            out.append(Violation(w.get("roll") or line, f"contents roll {roll} is not a 2d6 result (2-12)",
                                 rule="roll.range"))
            return False, 0
        kinds = room.kinds
        expected = [self.contents.result(roll, k) for k in kinds]
        empty = {e.category == "empty" for e in expected}
        # (two columns that differ: cannot tell)
        st.empty[room.id] = (empty.pop() if len(empty) == 1 else None,
                             f"2d6 {roll} in the {kinds[0]} column: {expected[0].label}, {expected[0].category}")
        is_boss = roll == BOSS_ROLL and any(e.category == "boss" for e in expected)
        final = None
        if a.escalation is not None and not is_boss:
            out.append(Violation(w.get("escalation") or line, f"only 11 (the boss) rolls the escalation die, not {roll}",
                                 rule="contents.escalation"))
        elif a.escalation is not None:
            mods = self._escalation_mods(st, a, line)
            before = len(out)
            final = self._escalation(st, a, line, mods, out)
            if len(out) > before:      # the escalation itself is wrong: what the die says counts
                return self._dice_final(a.escalation, mods), 1
        result = a.result
        if result is None or str(result).strip() in PLACEHOLDERS:
            pass            # only the roll was written down (the example writes "...")
        elif not any(self.contents.matches(roll, k, result, final) for k in kinds) and not (
                room.cut_kinds and any(self.contents.matches(roll, k, result, final) for k in room.cut_kinds)
                and st.readings.uses(R.CUT_KIND)):
            e = expected[0]
            want = ("final-boss" if final else e.id) if is_boss and final is not None else e.id
            # the roll or the result is the slip; for an 11, the result or the escalation die
            lines = ([w.get("result") or line, w.get("escalation")] if is_boss and a.escalation
                     else [w.get("roll") or line, w.get("result")])
            self._at(out, lines, f"2d6 {roll} in the {kinds[0]} column is '{want}' ({e.label}), "
                                 f"not '{result}'", "contents.result")
        if not is_boss:
            return False, 0
        if final is None and result is not None and str(result).strip() not in PLACEHOLDERS:
            final = self.contents.matches(roll, kinds[0], result, True)
        return final, 1

    def _escalation_mods(self, st: State, a: Contents, line) -> list:
        """The escalation modifiers the readings in use allow: the contents table's (+per_prior
        for each earlier boss); with plain-escalation also +0.  The reading is consulted only
        where it changes what this 11 makes (its slips, or whether it is the Final Boss)."""
        house = self.contents.escalation.modifier(st.bosses)
        both = sorted({0, house})
        if house == 0 or R.PLAIN_ESCALATION in st.readings.chosen:
            return both

        def verdict(mods):
            found: list = []
            final = self._escalation(st, a, line, mods, found)
            return [v.message for v in found], self._dice_final(a.escalation, mods) if found else final
        if verdict([house]) == verdict(both) or not st.readings.uses(R.PLAIN_ESCALATION):
            return [house]
        return both

    def _escalation(self, st: State, a: Contents, line, mods: list, out: list):
        """The boss escalation as logged -> final True/False, or None when both readings hold.

        mods: the modifiers the readings in use allow (the contents table's +per_prior for each
        earlier boss, its house rule; with plain-escalation also the rules' plain +0).  'final'
        must agree with the modifier used.  A value no reading allows is reported naming both."""
        line = a.where.get("escalation") or line
        esc: Escalation = a.escalation
        rules = self.contents.escalation
        e_roll = esc.roll
        if e_roll is None or not 1 <= e_roll <= 6:
            out.append(Violation(line, f"boss escalation roll {e_roll} is not a d6 result (1-6)", rule="roll.range"))
            return None
        house = rules.modifier(st.bosses)
        both = sorted({0, house})           # what either reading allows
        other_reading = False               # a modifier only a reading not in use allows
        if esc.modifier is not None:
            if esc.modifier not in mods:
                out.append(Violation(line, f"the escalation modifier is +{house} ({rules.per_prior} for each of the "
                                           f"{st.bosses} earlier boss result{'s' if st.bosses != 1 else ''}, the "
                                           f"table's house rule) or +0 (the plain rule), not {esc.modifier:+d}",
                                     rule="contents.escalation"))
                if esc.modifier not in both:
                    return None
                # the log follows the other reading: its total is a slip of its own under this one
                other_reading = True
            else:
                mods = both = [esc.modifier]
        if esc.total is not None:
            fits = [m for m in mods if e_roll + m == esc.total]
            if not fits:
                shown = mods if any(e_roll + m == esc.total for m in both) else both
                out.append(Violation(line, f"escalation total is {' or '.join(str(e_roll + m) for m in shown)} "
                                           f"({e_roll} + {' or '.join(map(str, shown))}), not {esc.total}",
                                     rule="contents.escalation"))
                return None
            mods, both = fits, [m for m in both if e_roll + m == esc.total]
        if other_reading:
            return None
        finals = {e_roll + m >= rules.final_at for m in mods}
        if esc.final is not None:
            if esc.final not in finals:
                shown = mods if esc.final in {e_roll + m >= rules.final_at for m in both} else both
                total = e_roll + shown[0]
                out.append(Violation(line, f"escalation total {total} {'is' if total >= rules.final_at else 'is not'} "
                                           f"the Final Boss ({rules.final_at}+)", rule="contents.escalation"))
                return None
            return esc.final
        return finals.pop() if len(finals) == 1 else None

    def _dice_final(self, esc: Escalation, mods: list) -> bool | None:
        """Whether the escalation d6 makes the Final Boss under the readings in use (None if they differ)."""
        e_roll = esc.roll
        if not isinstance(e_roll, int) or not 1 <= e_roll <= 6:
            return None
        finals = {e_roll + m >= self.contents.escalation.final_at for m in mods}
        return finals.pop() if len(finals) == 1 else None

    # -- retracing -------------------------------------------------------------------------------
    def _retrace(self, st: State, a: Retrace, out: list) -> State:
        if a.toward is not None and a.toward in st.by_id:
            return st                       # a room whose id is taken is not checked further
        st = st.copy()
        if a.toward is not None:
            st.walking = a                  # judged with the room it leads to (_walk)
        else:
            st.loose = a if st.loose is None else Retrace(st.loose.rolls + a.rolls, None)
        for r in a.rolls:
            line = r.where.get("line")
            if a.toward is not None:
                if r.room is not None and r.room not in st.by_id:
                    out.append(Violation(line, f"retracing goes back through room {r.room}, which was not generated "
                                               f"before room {a.toward}", rule="retrace.room"))
            elif r.room is not None and r.room not in st.by_id:
                out.append(Violation(line, f"retracing goes back through room {r.room}, which is not in the log",
                                     rule="retrace.room"))
            roll = r.roll
            if roll is None or not 1 <= roll <= 6:
                out.append(Violation(line, f"retrace roll {roll} is not a d6 result (1-6)", rule="roll.range"))
            elif r.wandering is not None and r.wandering != is_wandering(roll):
                out.append(Violation(line, f"a retrace roll of {roll} {'brings' if roll == 1 else 'does not bring'} "
                                           "wandering monsters (they come on a 1)", rule="retrace.wandering"))
        return st

    # -- the end ---------------------------------------------------------------------------------
    def _end_step(self, st: State, a: End, out: list) -> State:
        if st.contents_due:
            st = self._contents_step(st, Contents(where={"line": st.current.place.where.get("line")}), out)
        st = st.copy()
        st.ended = a
        secrets: dict = {}
        for room in st.rooms:
            found: list = []
            doors = self._doors_now(st, room)
            if room.exits is not None:
                secrets[room.id] = self._exits(st, room, doors, found)
            self._door_states(st, room, doors, found)
            for v in found:
                v.step = room.index + 1
            out += found
        self._secrets(st, secrets, out)
        self._time(st, a, out)
        self._walks_back(st, a, out)
        self._ending(st, a, out)
        return st

    def _secrets(self, st: State, secrets: dict, out: list) -> None:
        """ "secret (revealed only by searching)": a secret door (its shape's secret exit, or a door
        written secret) is found only by searching its room, so without a search it stays secret
        and unused, whatever else the log writes on it (to: included).  Not found, it may be
        written secret, or dead-end where it leads off the paper edge ("a door leading off the
        edge becomes a dead end").  Written explored in a room with no `search:` key, it says the
        room was searched (logs older than `search:` wrote exactly that): accepted where the
        search was allowed (the room empty after its encounter, or its contents unknown), once
        for the room; a room searched already whose search names the doors it found reveals
        no other."""
        used: dict = {}                     # (room id, its edge) -> the later room opened through it
        for room in st.rooms:
            for oid, d in room.opened_via:
                used.setdefault((oid, d), room)
        for room in st.rooms:
            searched = room.id in st.searched
            found = st.found.get(room.id)
            if searched and found is None:
                continue
            shape_secret = secrets.get(room.id, frozenset())
            listed = set()
            for d, door in self._doors_now(st, room):
                listed.add(d)
                if not (d in shape_secret or door.state == SECRET or door.secret):
                    continue
                later = used.get((room.id, d))
                if door.state == SECRET and door.to is None and later is None:
                    continue                # never found, never used
                if door.state in DEAD_END_STATES and door.to is None and later is None:
                    continue                # never found nor used: whether it is a dead end is the door's state
                if searched:
                    if d in found:
                        continue
                    if door.state != EXPLORED and later is None:
                        continue            # not written found: what else it says is judged as before
                    v = Violation(door.where.get("line"), f"door {_door(d)} of room {room.id} is a secret door, "
                                  f"and the one search of room {room.id} found "
                                  f"{', '.join(_door(f) for f in sorted(found) if (f[0], f[1]) in room.cells)}, "
                                  f"not this door: revealing it would take a second search, and a room is "
                                  f"searched once", rule="search.once", step=room.index + 1)
                    out.append(v)
                    continue
                empty, what = st.empty.get(room.id, (None, ""))
                if door.state == EXPLORED and empty is not False:
                    continue                # written found: the room's one search, allowed there
                if door.state == EXPLORED:
                    v = Violation(door.where.get("line"), f"door {_door(d)} of room {room.id} is a secret door, "
                                  f"revealed only by searching, yet it is written explored; room {room.id} could "
                                  f"not be searched: it is not empty after the encounter ({what}), and only an "
                                  "empty room is searched", rule="door.secret", step=room.index + 1)
                    out.append(v)
                    continue
                how = (f"room {later.id} was opened through it" if later is not None else
                       f"it is written {door.state}" + (f" with to: {door.to}" if door.to is not None else "")
                       + (", secret: true" if door.secret else ""))
                v = Violation(door.where.get("line"), f"door {_door(d)} of room {room.id} is a secret door, "
                              f"revealed only by searching, and room {room.id} was not searched (search: true); "
                              f"yet {how}", rule="door.secret", step=room.index + 1)
                out.append(v)
            if searched:
                continue
            for (oid, d), later in used.items():
                if oid == room.id and d in shape_secret and d not in listed:
                    out.append(Violation(later.place.where.get("line"),
                                         f"room {later.id} was opened through the secret door {_door(d)} of room "
                                         f"{room.id}, which only a search reveals, and room {room.id} was not "
                                         "searched (search: true)", rule="door.secret", step=later.index + 1))

    def _walks_back(self, st: State, a: End, out: list) -> None:
        """The walks back that wrote no retrace with their room, and the retreat out of the
        entrance: their d6s are the retrace rolls beside the rooms (in order), else missing."""
        walks = list(st.unwritten)
        if norm_reason(a.reason) == "retreat" and st.rooms and st.here is not None:
            entrance = st.rooms[0].id
            near = _distances(st.links, st.here)
            if st.here != entrance and entrance in near:
                walks.append((None, a.where.get("line"), st.here, (entrance, near[entrance])))
        need = sum(d for *_, (_, d) in walks)
        loose = st.loose
        if loose is not None:
            if len(loose.rolls) != need:
                parts = ", ".join((f"room {rid}: {d}" if rid is not None else f"the retreat: {d}")
                                  for rid, _, _, (_, d) in walks) or "none"
                out.append(Violation(loose.rolls[0].where.get("line"),
                                     f"the retrace rolls beside the rooms are {len(loose.rolls)}, but the walks back "
                                     f"that write none of their own need {need} ({parts})", rule="retrace.path"))
            return
        for rid, line, here, (p, d) in walks:
            path = ", ".join(map(str, _shortest_path(st.links, here, p)))
            if rid is None:
                out.append(Violation(line, f"the party retreats out the entrance from room {here}: walking back "
                                           f"through room{'s' if d != 1 else ''} {path} rolls a d6 for each ({d}), "
                                           "and the log writes none (a retrace: list beside the rooms)",
                                     rule="retrace.missing"))
                continue
            room = st.by_id[rid]
            out.append(Violation(line, f"room {rid} was opened from a door of room {p} and the party was in room "
                                       f"{here}: walking back through room{'s' if d != 1 else ''} {path} rolls a d6 "
                                       f"for each ({d}: retrace: [...]), and the log writes none",
                                 rule="retrace.missing", step=room.index + 1))

    def _time(self, st: State, a: End, out: list) -> None:
        """10 minutes per room or corridor.  A room's time may be written as the total after it
        (10, 20, 30 ...), the total before it (0, 10, 20 ...), what it took (10 each) or a tally of
        10-minute turns: notations of one clock; the one most of the log follows is held to."""
        times = st.times
        if times:
            forms = (("after", lambda i: MINUTES_PER_ROOM * (i + 1)), ("before", lambda i: MINUTES_PER_ROOM * i),
                     ("each", lambda i: MINUTES_PER_ROOM), ("turns", lambda i: i + 1))
            # the first time written down says which form the log uses (a later slip carried
            # on must not outvote it); if it fits none, the form most rooms follow
            i0, _, t0 = times[0]
            fitting = [f for f in forms if f[1](i0) == t0.minutes] or list(forms)
            name, want = max(fitting, key=lambda f: sum(1 for i, _, t in times if t.minutes == f[1](i)))
            before = {i: t.minutes for i, _, t in times}
            for i, rid, t in times:
                # a slip carried on (every later time 10 behind) is reported once, where it starts
                step = 1 if name == "turns" else MINUTES_PER_ROOM
                carried = name != "each" and before.get(i - 1) is not None and t.minutes == before[i - 1] + step
                if t.minutes != want(i) and not carried:
                    what = {"after": "after", "before": "before", "each": "for", "turns": "after"}[name]
                    unit = "10-minute turns" if name == "turns" else "minutes"
                    out.append(Violation(t.where.get("line"), f"time {what} room {rid} is {want(i)} {unit} "
                                         f"({MINUTES_PER_ROOM} minutes per room or corridor generated), "
                                         f"not {t.minutes}", rule="time", step=i + 1))
        n = st.generated
        if a.minutes is not None and a.minutes != MINUTES_PER_ROOM * n:
            out.append(Violation(a.where.get("minutes"), f"{n} rooms take {MINUTES_PER_ROOM * n} minutes "
                                                         f"({MINUTES_PER_ROOM} each), not {a.minutes}", rule="time"))

    def _ending(self, st: State, a: End, out: list) -> None:
        line = a.where.get("line")
        if a.rooms is not None and a.rooms != st.generated:
            out.append(Violation(line, f"the log holds {st.generated} rooms, not {a.rooms}", rule="end.rooms"))
        reason = norm_reason(a.reason)
        if reason == "final-boss" and st.final_at is None and (st.maybe_final is None or st.maybe_final != st.last_id):
            out.append(Violation(line, "the dungeon did not end on the Final Boss: no 11 turned up 6+ on the "
                                       "escalation roll", rule="end.reason"))
        elif reason == "map-full":
            sheet = st.sheet
            left = [(room, d) for room in st.rooms for d, door in self._doors_now(st, room)
                    if door.state == UNEXPLORED and sheet.on_sheet(*beyond(d)) and not sheet.holder(beyond(d))]
            if left:
                room, d = left[0]
                out.append(Violation(line, f"the dungeon cannot have run out of doors or room: door {_door(d)} "
                                           f"of room {room.id} is still unexplored, with free squares beyond",
                                     rule="end.reason"))

    # -- what may be done ----------------------------------------------------------------------------
    def placements(self, state: State, roll: int, room_id: int, door) -> list[Place]:
        """The placements of the d66 shape `roll` through `door` (x, y, side) of room room_id: every
        orientation whose exit meets the door, stretched 0, 1 or 2 squares (map mode's line; the
        least stretch where one fits), else the truncations; each a Place with its doors as the
        sheet shows them now (a log writes them as they are when it ends)."""
        entry = self.table.entries[roll]
        side = OPPOSITE[door[2]]
        fx, fy = beyond(door)
        new_id = max((r.id for r in state.rooms), default=0) + 1
        out = []
        for stretch_by in (0, 1, 2):
            for v, tx, ty in fitting(state.sheet, entry.variants(stretch_by), fx, fy, side):
                out.append(self._as_place(state, new_id, room_id, D66, roll, entry, v, tx, ty, (fx, fy, side)))
            if out:
                return out
        for v, tx, ty, part in cuts(state.sheet, entry.variants(0), fx, fy, side):
            if part:
                out.append(self._as_place(state, new_id, room_id, D66, roll, entry, v, tx, ty, (fx, fy, side), part))
        return out

    def _as_place(self, state: State, new_id, parent, die, roll, entry: RoomEntry, v, tx, ty, entered,
                  part=None) -> Place:
        """A placement as the Place a log writes: its squares row by row, its doors (none for a
        truncated room, a dead end; none off the edge) as the sheet shows them now."""
        cells = sorted(part if part is not None else [(x + tx, y + ty) for x, y in v.cells],
                       key=lambda c: (c[1], c[0]))
        doors = []
        if part is None:
            for ex, ey, s in v.exits:
                X, Y = ex + tx, ey + ty
                if (X, Y, s) == entered:
                    continue
                found = exit_door(state.sheet, X, Y, s, (ex, ey, s) in v.secret)
                if found is not None:
                    door_state, n = found
                    doors.append(DoorMark((X, Y, s), door_state, state.rooms[n - 1].id if n and door_state == EXPLORED
                                          else None))
        if die == ENTRANCE:
            return Place(new_id, die, roll, tuple(cells), None, None, entry.kind, None, None, tuple(doors))
        return Place(new_id, die, roll, tuple(cells), parent, Transform(v.rotate, v.mirror, v.stretch),
                     entry.kind, None, part is not None, tuple(doors))

    def legal_actions(self, state: State) -> Iterator[Action]:
        """What may follow: on an empty sheet the six entrances (bottom centre); after a room its
        contents rolls (2-12, and the escalation d6 on an 11); else, for every unexplored door
        with a free square beyond and every d66 roll, the placements of that shape at that door."""
        if not state.rooms:
            for roll in range(1, 7):
                entry = self.entrances.entries[roll]
                v = entry.variants(0)[0]
                w = max(x for x, _ in v.cells) + 1
                h = max(y for _, y in v.cells) + 1
                tx, ty = entrance_origin(state.sheet, w, h)
                yield self._as_place(state, 1, None, ENTRANCE, roll, entry, v, tx, ty, None)
            return
        if state.contents_due:
            room = state.current
            for roll in CONTENTS_ROLLS:
                result = self.contents.result(roll, room.kinds[0])
                if roll == BOSS_ROLL and result.category == "boss":
                    house = self.contents.escalation.modifier(state.bosses)
                    for d6 in range(1, 7):
                        final = self.contents.escalation.is_final(d6, state.bosses)
                        shown = self.contents.final_result() if final else result
                        yield Contents(roll, shown.id, Escalation(d6, house, d6 + house, final))
                else:
                    yield Contents(roll, result.id)
            return
        for room in state.rooms:
            for d, door in self._doors_now(state, room):
                if door.state != UNEXPLORED or state.sheet.occupant(*beyond(d)) != 0:
                    continue
                for roll in D66_VALUES:
                    yield from self.placements(state, roll, room.id, d)


def check(actions: Iterable[Action], rooms: RoomTable, entrances: RoomTable, contents: ContentsTable,
          width: int = 20, height: int = 28, declared: Iterable | None = None) -> Judgement:
    """A log's actions judged by the rules: by the readings it declares, else by the default
    readings and, if it breaks a rule, those its replay consulted (base.judge)."""
    rules = ExplorationRules(rooms, entrances, contents)
    actions = list(actions)
    return judge(lambda chosen: rules.replay(actions, width, height, chosen), declared)

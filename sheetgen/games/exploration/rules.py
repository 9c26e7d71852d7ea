"""Check an exploration play log (a finished or half-played map) against the rules.

Input is plain data (LogRoom, LogDoor with the YAML line of each key) built by the
playlog layer or straight from a map-mode Explorer; output is a list of Broken
(line, message, rule).  Every check the issue names: squares on the sheet, no
shared squares, each room joined to the room it came from through a door, its
squares its table shape under the stated transform (or a truncation of it), rolls in
range, contents as the table says for that roll and kind, door states consistent,
plus the entrance at bottom centre, time, retracing rolls and the Final Boss ending.

Lines: a slip two written lines may hold is reported at both (a roll or transform blamed
for a shape, and the squares; a block-style contents roll and result).

Rulings (where the rules or the issue leave room, the checker accepts every reading a
careful player could take, rather than flag a legal sheet):
  * Doors: "10,27:N" is the N side of square 10,27 (the next room's square is 10,26);
    the same edge named from outside ("10,26:S" in room 1's list) is the same door.
    explored = leads to the room whose square is beyond (to: must say which); unexplored
    = nothing beyond yet (one facing any room, earlier or later, is explored); secret =
    not found, may face anything (to: allowed if it is right); dead-end (a word some
    players write) only for a door off the paper edge, into a room, or of a truncated room.
  * Joined: some door of an earlier room (or the room's own door to an earlier room)
    sits on the edge between them; a wrong state or to: on that door is reported at the
    door, not again as "not joined".  The new room usually meets the door with one of its
    exits, but a player may draw the door onto any square of it (then all its exits are
    listed doors).  Every exit of the shape leading onto a free square must be listed
    (exits off the edge, into other rooms and secret ones need not be), unless the room
    has no doors list at all: then touching an earlier room without a doors list joins it.
  * Transform (see readings.py): rotate either direction, mirror either axis before or
    after the turn, stretch 1-2 = one line repeated or two lines once each, doors on a
    repeated line on any copy; no transform written = any of them.
  * Truncation: cells a connected part of the placed shape, meeting the door with an
    exit.  The paper edge stops a room whether or not it says truncated; "no room for the
    room" needs truncated: true (or no flag) and an earlier room in the way.  A truncated
    room is a dead end: its doors are optional (a lost exit may be drawn where the paper
    edge stops it, not explored), it still rolls contents, and it may read
    the contents column of what its squares now are (a cut-down room may be 1 wide).
  * Contents: 2d6 in the column of the room's kind; the result may be written as the
    table's id, title or text, the rules' category (monsters, traps ...), with a note after
    it, or left out ("..."); the entrance may have no contents roll (the rules roll on
    opening a door).  Boss escalation: a modifier of 0 (the rules: d6 6+) or the table's
    house rule (+1 per earlier boss) is accepted; final must agree with the one used.
  * Ending: nothing may follow the Final Boss (reported once, at the next room); a log
    may stop anywhere (retreat, death, a half-played map); 'no doors'/'map full' is
    wrong while an unexplored door faces a free square.
  * Time, 10 minutes a room: per room as the total after it, before it, 10 each, or a
    tally of 10-minute turns (1, 2, 3 ...; the first written time says which); a slip carried on is reported once; a total must be
    10 x rooms.  Room ids need only be unique: the list order is the order of play.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..dice import is_d66
from .mapmode import DOOR_STATES, EXPLORED, MINUTES_PER_ROOM, SECRET, UNEXPLORED
from .readings import candidates
from .shapes import DELTA, OPPOSITE, SIDES, components
from .tables import BOSS_ROLL, ContentsTable, RoomEntry, RoomTable


PLACEHOLDERS = ("", "...", "\u2026", "?", "-", "tbd", "todo")
DEAD_END_STATES = ("dead-end", "dead end", "deadend", "dead_end")
FINAL_REASONS = ("final-boss", "final boss", "finalboss", "boss", "final")
FULL_REASONS = ("no-doors", "no doors", "map-full", "map full", "full", "out of room", "no room", "map out of room")


def _norm_reason(reason) -> str | None:
    text = " ".join(str(reason or "").strip().lower().replace("_", " ").split())
    if text in FINAL_REASONS or text.replace("-", " ") in FINAL_REASONS:
        return "final-boss"
    if text in FULL_REASONS or text.replace("-", " ") in FULL_REASONS:
        return "map-full"
    return text or None


@dataclass
class Broken:
    line: int | None
    message: str
    rule: str


@dataclass
class LogDoor:
    at: str
    state: str
    to: int | None = None
    secret: bool = False
    line: int | None = None
    state_line: int | None = None        # block style: the state: and to: keys' own lines
    to_line: int | None = None


@dataclass
class LogRoom:
    id: int
    line: int | None = None
    die: str | None = None               # 'entrance' | 'd66' | None (missing / both)
    roll: int | None = None
    roll_line: int | None = None
    kind: str | None = None
    kind_line: int | None = None
    transform: tuple | None = None       # (rotate, mirror, stretch)
    transform_line: int | None = None
    cells: list = field(default_factory=list)          # "x,y" strings
    cell_lines: list = field(default_factory=list)
    cells_line: int | None = None
    truncated: bool | None = None        # None: not written down
    truncated_line: int | None = None
    doors: list = field(default_factory=list)          # LogDoor
    doors_line: int | None = None
    contents_roll: int | None = None
    contents_result: str | None = None
    contents_line: int | None = None
    escalation: dict | None = None       # roll, modifier, total, final
    parent: int | None = None            # 'from', when the log says it
    retrace: list = field(default_factory=list)        # (room, roll, wandering, line)
    time: int | None = None
    time_line: int | None = None
    doors_listed: bool = True            # False: no doors key at all (the player kept no door list)
    # lines of the keys inside roll/transform/contents when written as block mappings
    rotate_line: int | None = None
    mirror_line: int | None = None
    stretch_line: int | None = None
    contents_roll_line: int | None = None
    result_line: int | None = None
    escalation_line: int | None = None


@dataclass
class Log:
    width: int = 20
    height: int = 28
    rooms: list = field(default_factory=list)
    minutes: int | None = None
    minutes_line: int | None = None
    end_reason: str | None = None
    end_rooms: int | None = None
    end_line: int | None = None
    retrace: list = field(default_factory=list)        # a top-level list: (room, roll, wandering, line)


def parse_cell(text) -> tuple[int, int] | None:
    try:
        x, y = (int(p) for p in str(text).replace(" ", "").split(","))
    except ValueError:
        return None
    return x, y


def parse_door(text) -> tuple[int, int, str] | None:
    try:
        cell, side = str(text).replace(" ", "").split(":")
    except ValueError:
        return None
    c = parse_cell(cell)
    side = side.upper()
    side = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}.get(side, side)
    if c is None or side not in SIDES:
        return None
    return c[0], c[1], side


def _cell(c) -> str:
    return f"{c[0]},{c[1]}"


def _door(d) -> str:
    return f"{d[0]},{d[1]}:{d[2]}"


def _beyond(d) -> tuple[int, int]:
    dx, dy = DELTA[d[2]]
    return d[0] + dx, d[1] + dy


def _describe_transform(t) -> str:
    rot, mir, st = t
    parts = [f"rotated {rot}"] if rot else []
    if mir:
        parts.append("mirrored")
    if st:
        parts.append(f"stretched by {st}")
    return ", ".join(parts) or "as drawn"


class Checker:
    def __init__(self, log: Log, rooms: RoomTable, entrances: RoomTable, contents: ContentsTable):
        self.log = log
        self.table = rooms
        self.entrances = entrances
        self.contents = contents
        self.out: list[Broken] = []
        self.owner: dict[tuple[int, int], int] = {}
        self.cells: dict[int, set] = {}           # room id -> its squares (those that parse)
        self.by_id: dict[int, LogRoom] = {}
        self.doors: dict[int, list] = {}          # room id -> [(parsed door, LogDoor)]
        self.overlapping: set = set()             # rooms with a square another room already has

    def broken(self, line, message, rule):
        self.out.append(Broken(line, message, rule))

    def broken_at(self, lines, message, rule):
        """One slip that more than one written line may hold (a block-style mapping puts the roll,
        result and escalation on lines of their own): reported at each of them."""
        seen = []
        for line in lines:
            if line is not None and line not in seen:
                seen.append(line)
        for line in seen or [None]:
            self.broken(line, message, rule)

    def on_sheet(self, c) -> bool:
        return 1 <= c[0] <= self.log.width and 1 <= c[1] <= self.log.height

    # -- the whole log -------------------------------------------------------------------
    def run(self) -> list[Broken]:
        log = self.log
        for i, room in enumerate(log.rooms):
            if room.id in self.by_id:
                self.broken(room.line, f"room id {room.id} is used twice (first at line "
                                       f"{self.by_id[room.id].line})", "room.id")
                continue
            self.by_id[room.id] = room
            self._squares(room)
        # the list order is the order of play (ids need only be unique)
        self.order = {r.id: i for i, r in enumerate(log.rooms) if self.by_id.get(r.id) is r}
        for room in log.rooms:
            if self.by_id.get(room.id) is room:
                self._doors_of(room)
        bosses = 0
        final_at = None
        maybe_final = None
        after_final = False
        for i, room in enumerate(log.rooms):
            if self.by_id.get(room.id) is not room:
                continue
            if final_at is not None and not after_final:
                after_final = True          # reported once, at the first room that follows it
                self.broken(room.line, f"the dungeon ended with the Final Boss in room {final_at}; "
                                       f"room {room.id} (and any after it) cannot come after it", "end.final-boss")
            entry = self._roll(room, i)
            kinds = self._kind(room, entry)
            if i == 0:
                self._entrance(room, entry)
            else:
                self._joined(room, entry)
            self._door_states(room)
            final, boss = self._contents(room, kinds, bosses)
            bosses += boss
            if final is True and final_at is None:
                final_at = room.id
            if final is None and boss:
                maybe_final = room.id     # an 11 whose escalation the log leaves open
            self._retrace(room, i)
        self._retrace_top()
        self._time()
        self._end(final_at, maybe_final)
        self.out.sort(key=lambda b: (b.line is None, b.line or 0))
        return self.out

    def _time(self):
        """10 minutes per room or corridor.  A room's time may be written as the total after it
        (10, 20, 30 ...), the total before it (0, 10, 20 ...) or what it took (10 each): the
        reading most of the log follows is the one held to."""
        log = self.log
        rooms = [(i, r) for i, r in enumerate(log.rooms) if r.time is not None]
        if rooms:
            readings = (("after", lambda i: MINUTES_PER_ROOM * (i + 1)), ("before", lambda i: MINUTES_PER_ROOM * i),
                        ("each", lambda i: MINUTES_PER_ROOM), ("turns", lambda i: i + 1))
            # the first time written down says which reading the log uses (a later slip carried
            # on must not outvote it); if it fits none, the reading most rooms follow
            i0, r0 = rooms[0]
            fitting = [rd for rd in readings if rd[1](i0) == r0.time] or list(readings)
            name, want = max(fitting, key=lambda rd: sum(1 for i, r in rooms if r.time == rd[1](i)))
            before = {i: r.time for i, r in enumerate(log.rooms)}
            for i, room in rooms:
                # a slip carried on (every later time 10 behind) is reported once, where it starts
                step = 1 if name == "turns" else MINUTES_PER_ROOM
                carried = name != "each" and before.get(i - 1) is not None and room.time == before[i - 1] + step
                if room.time != want(i) and not carried:
                    what = {"after": "after", "before": "before", "each": "for", "turns": "after"}[name]
                    unit = "10-minute turns" if name == "turns" else "minutes"
                    self.broken(room.time_line, f"time {what} room {room.id} is {want(i)} {unit} "
                                                f"({MINUTES_PER_ROOM} minutes per room or corridor generated), "
                                                f"not {room.time}", "time")
        n = len(log.rooms)
        if log.minutes is not None and log.minutes != MINUTES_PER_ROOM * n:
            self.broken(log.minutes_line, f"{n} rooms take {MINUTES_PER_ROOM * n} minutes "
                                          f"({MINUTES_PER_ROOM} each), not {log.minutes}", "time")

    def _end(self, final_at, maybe_final):
        log = self.log
        if log.end_rooms is not None and log.end_rooms != len(log.rooms):
            self.broken(log.end_line, f"the log holds {len(log.rooms)} rooms, not {log.end_rooms}", "end.rooms")
        reason = _norm_reason(log.end_reason)
        last = log.rooms[-1].id if log.rooms else None
        if reason == "final-boss" and final_at is None and (maybe_final is None or maybe_final != last):
            self.broken(log.end_line, "the dungeon did not end on the Final Boss: no 11 turned up 6+ on the "
                                      "escalation roll", "end.reason")
        elif reason == "map-full":
            left = [(room, d) for room in log.rooms if self.by_id.get(room.id) is room
                    for d, door in self.doors.get(room.id, ()) if door.state == UNEXPLORED
                    and self.on_sheet(_beyond(d)) and _beyond(d) not in self.owner]
            if left:
                room, d = left[0]
                self.broken(log.end_line, f"the dungeon cannot have run out of doors or room: door {_door(d)} "
                                          f"of room {room.id} is still unexplored, with free squares beyond",
                            "end.reason")

    # -- squares ---------------------------------------------------------------------
    def _squares(self, room: LogRoom):
        mine: set = set()
        self.cells[room.id] = mine
        if not room.cells:
            self.broken(room.cells_line or room.line, f"room {room.id} has no squares", "cell.format")
        for k, text in enumerate(room.cells):
            line = room.cell_lines[k] if k < len(room.cell_lines) else room.cells_line
            c = parse_cell(text)
            if c is None:
                self.broken(line, f"'{text}' is not a square: write x,y such as \"10,28\"", "cell.format")
                continue
            if not self.on_sheet(c):
                self.broken(line, f"square {_cell(c)} of room {room.id} is off the {self.log.width}x"
                                  f"{self.log.height} sheet (x 1-{self.log.width}, y 1-{self.log.height})",
                            "cell.on-sheet")
            if c in mine:
                self.broken(line, f"square {_cell(c)} is listed twice in room {room.id}", "cell.overlap")
                continue
            other = self.owner.get(c)
            if other is not None:
                self.overlapping.add(room.id)
                self.broken(line, f"square {_cell(c)} of room {room.id} is already part of room {other}: "
                                  "rooms never share a square", "cell.overlap")
            else:
                self.owner[c] = room.id
            mine.add(c)

    def _doors_of(self, room: LogRoom):
        mine = self.cells.get(room.id, set())
        parsed = []
        seen = set()
        for door in room.doors:
            d = parse_door(door.at)
            if d is None:
                self.broken(door.line, f"'{door.at}' is not a door: write x,y:SIDE such as \"10,27:N\" "
                                       "(SIDE one of N, E, S, W)", "door.format")
                continue
            outside = self.owner.get((d[0], d[1]))
            if (d[0], d[1]) not in mine and _beyond(d) in mine and \
                    (outside == door.to if door.to is not None else outside is None):
                # the same edge named from the square outside it ("10,26:S" for "10,27:N"),
                # when that square is the room it leads to (or free, for a door not yet opened)
                b = _beyond(d)
                d = (b[0], b[1], OPPOSITE[d[2]])
            if d in seen:
                self.broken(door.line, f"door {_door(d)} is listed twice in room {room.id}", "door.format")
                continue
            seen.add(d)
            parsed.append((d, door))
        self.doors[room.id] = parsed

    # -- rolls and the table ------------------------------------------------------------
    def _roll(self, room: LogRoom, index: int) -> RoomEntry | None:
        if room.die is None:
            self.broken(room.roll_line or room.line, f"room {room.id} needs one roll: {{entrance: N}} for the "
                                                     "first room, {d66: NN} for every other", "roll.kind")
            return None
        if index == 0 and room.die != "entrance":
            self.broken(room.roll_line, "the first room is the entrance: roll d6 on the entrance table "
                                        "(roll: {entrance: N})", "roll.kind")
        if index > 0 and room.die == "entrance":
            self.broken(room.roll_line, f"only the first room is an entrance; room {room.id} rolls d66 "
                                        "(roll: {d66: NN})", "roll.kind")
        if room.die == "entrance":
            if room.roll is None or not 1 <= room.roll <= 6:
                self.broken(room.roll_line, f"entrance roll {room.roll} is not a d6 result (1-6)", "roll.range")
                return None
            return self.entrances.entries.get(room.roll)
        if not is_d66(room.roll):
            what = room.roll if isinstance(room.roll, int) else repr(room.roll)
            self.broken(room.roll_line, f"d66 roll {what} is out of range: tens die then units die, "
                                        "each 1-6 (11-16, 21-26, ... 61-66)", "roll.range")
            return None
        return self.table.entries.get(room.roll)

    def _kind(self, room: LogRoom, entry: RoomEntry | None) -> tuple:
        """The contents columns this room may read: its stated kind (else the table's), and for a
        truncated room also what its squares are now (a cut-down room may be 1 wide)."""
        actual = "room" if _wide(self.cells.get(room.id, ())) else "corridor"
        if room.kind is not None and room.kind not in ("corridor", "room"):
            self.broken(room.kind_line, f"kind '{room.kind}' is neither corridor nor room", "room.kind")
            return (entry.kind,) if entry else ("corridor", "room")
        if entry is None:
            return (room.kind,) if room.kind else ("corridor", "room")
        cut = room.truncated is not False and len(self.cells.get(room.id, ())) < len(entry.shape.cells)
        if room.kind is not None and room.kind != entry.kind and not (cut and room.kind == actual):
            self.broken(room.kind_line, f"{self._label(room)} ({entry.name}) is a {entry.kind}, "
                                        f"not a {room.kind}", "room.kind")
            return (entry.kind, room.kind)      # the contents may follow either: reported once
        if room.kind is not None:
            return (room.kind,)
        return (entry.kind, actual) if cut and actual != entry.kind else (entry.kind,)

    def _label(self, room: LogRoom) -> str:
        return f"entrance {room.roll}" if room.die == "entrance" else f"d66 {room.roll}"

    # -- shapes ----------------------------------------------------------------------
    def _specs(self, room: LogRoom):
        """(rotate, mirror, stretch) claims to try, cheapest first; [] when the transform is unusable."""
        if room.transform is None:          # not written down: any orientation, any stretch
            # (the entrance goes on an empty sheet: nothing to stretch it for)
            return [(None, None, 0)] if room.die == "entrance" else \
                [(None, None, 0), (None, None, 1), (None, None, 2)]
        rot, mir, st = room.transform
        bad = False
        if not isinstance(rot, int) or rot % 90:
            self.broken(room.rotate_line or room.transform_line, f"rotate {rot} is not a quarter turn (0, 90, 180 or 270)",
                        "transform.value")
            bad = True
        if st not in (0, 1, 2):
            self.broken(room.stretch_line or room.transform_line, f"stretch {st} is not allowed: stretch a shape by 0, 1 or 2 "
                                             "squares", "transform.value")
            bad = True
        return [] if bad else [(rot % 360, bool(mir), st)]

    def _placements(self, room: LogRoom, entry: RoomEntry, specs, entry_edges: set):
        """Full placements [(cand, tx, ty)] and partial ones [(cand, tx, ty, missing squares)]."""
        cells = self.cells[room.id]
        mx = min(x for x, _ in cells)
        my = min(y for _, y in cells)
        norm = frozenset((x - mx, y - my) for x, y in cells)
        full = [(cand, mx, my) for spec in specs for cand in candidates(entry.shape, *spec) if cand[0] == norm]
        if full or room.die == "entrance":
            return full, []                 # the entrance is drawn whole at the bottom centre
        partial = []
        anchor = min(cells, key=lambda c: (c[1], c[0]))
        for spec in specs:
            for cand in candidates(entry.shape, *spec):
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

    def _fits(self, room: LogRoom, entry: RoomEntry, specs, entry_edges: set):
        """Placements the squares are (whole, or a legal cut) -> ([(cand, tx, ty, cut)], hints)."""
        full, partial = self._placements(room, entry, specs, entry_edges)
        if full:
            return [(c, tx, ty, False) for c, tx, ty in full], "", ""
        cut_ok, flag_hint, free_hint = [], "", ""
        if len(components(self.cells[room.id])) == 1:
            for cand, tx, ty, missing in partial:
                ok, why = self._truncation_ok(room, missing)
                if ok:
                    cut_ok.append((cand, tx, ty, True))
                elif "mark the room truncated" in why:
                    flag_hint = flag_hint or why
                else:
                    free_hint = free_hint or why
        return cut_ok, flag_hint, free_hint

    def _truncation_ok(self, room: LogRoom, missing) -> tuple[bool, str]:
        """Whether the left-out squares make a legal cut: the paper edge stops a room (flag or not);
        'no room for the room' needs the truncated flag (or none written) and something in the way."""
        off = [c for c in missing if not self.on_sheet(c)]
        mine = self.order[room.id]
        blocked = [c for c in missing if c in self.owner and self.order.get(self.owner[c], mine) < mine]
        if len(off) == len(missing):
            return True, ""
        if off or blocked:
            if room.truncated is False:
                return False, "; they are only part of it: mark the room truncated: true (a dead end)"
            return True, ""
        free = ", ".join(_cell(c) for c in sorted(missing, key=lambda c: (c[1], c[0]))[:4])
        return False, (f"; they are only part of it, yet nothing is in the way of the rest ({free} "
                       "free and on the sheet): a room is truncated only when it would overlap earlier "
                       "rooms or cross the paper edge")

    def _shape(self, room: LogRoom, entry: RoomEntry | None, entry_edges: set, where: str):
        cells = self.cells[room.id]
        if entry is None or not cells or room.id in self.overlapping:
            return                          # squares shared with another room: reported there
        specs = self._specs(room)
        if not specs:
            return
        fits, flag_hint, free_hint = self._fits(room, entry, specs, entry_edges)
        if fits:
            self._exits(room, entry, fits, entry_edges)
            return
        label = f"{self._label(room)} ({entry.name}, a {entry.kind})"
        how = _describe_transform(room.transform) if room.transform is not None else "in any orientation"
        # the offending key, judged by what else the squares are: a real cut (something in the
        # way) with truncated: false -> the flag; a cut marked truncated with nothing in the way
        # -> the flag; the shape turned another way -> the transform; another entry's shape with
        # these doors -> the roll; else the squares themselves
        line, hint = room.cells_line, ""
        if flag_hint and room.truncated is False:
            line, hint = room.truncated_line or line, flag_hint
        elif free_hint and room.truncated is True:
            line, hint = room.truncated_line or line, free_hint
        if not hint and room.transform is not None:
            other = self._other_transform(room, entry)
            if other is not None:
                hint, line = f"; they match it {other[0]}", room.transform_line
                sub = {"rotate": room.rotate_line, "mirror": room.mirror_line, "stretch": room.stretch_line}
                if sub[other[1]] and sub[other[1]] != line:
                    # block style: the key that differs has a line of its own
                    self.broken(sub[other[1]], f"the squares of room {room.id} are not the shape of {label} "
                                               f"{how}{where}{hint}", "shape.match")
        if not hint:
            other = self._other_entry(room, entry_edges)
            if other is not None:
                hint, line = f"; they are the shape of {other}", room.roll_line
        if not hint:
            hint = flag_hint or free_hint
        self.broken(line or room.line, f"the squares of room {room.id} are not the shape of {label} {how}"
                                       f"{where}{hint}", "shape.match")
        if line in (room.transform_line, room.roll_line) and room.cells_line and line != room.cells_line:
            # the roll or transform is the likelier slip, but the squares may be the one made
            self.broken(room.cells_line, f"the squares of room {room.id} do not make {label} "
                                         f"{how} (see line {line})", "shape.match")

    def _other_transform(self, room: LogRoom, entry: RoomEntry) -> tuple | None:
        """(what the squares fit, the key that differs: rotate | mirror | stretch) or None;
        the stated stretch is tried first, so a turned shape blames the turn."""
        cells = self.cells[room.id]
        mx = min(x for x, _ in cells)
        my = min(y for _, y in cells)
        norm = frozenset((x - mx, y - my) for x, y in cells)
        rot, mirrored, stretch = room.transform
        stretch = stretch if stretch in (0, 1, 2) else 0
        for st in dict.fromkeys((stretch, 0, 1, 2)):
            for r, m in ((0, False), (90, False), (180, False), (0, True), (90, True)):
                for cand in candidates(entry.shape, r, m, st):
                    if cand[0] == norm:
                        key = "stretch" if st != stretch else "mirror" if m != bool(mirrored) else "rotate"
                        return f"with rotate: {r}, mirror: {str(m).lower()}, stretch: {st}", key
        return None

    def _other_entry(self, room: LogRoom, entry_edges: set) -> str | None:
        """Another table entry whose shape the squares are and whose exits fit the listed doors."""
        cells = self.cells[room.id]
        mx = min(x for x, _ in cells)
        my = min(y for _, y in cells)
        norm = frozenset((x - mx, y - my) for x, y in cells)
        table = self.entrances if room.die == "entrance" else self.table
        listed = {d for d, _ in self.doors.get(room.id, ()) if (d[0], d[1]) in cells} - entry_edges
        st = room.transform[2] if room.transform and room.transform[2] in (0, 1, 2) else 0
        for key, entry in table.entries.items():
            if key == room.roll:
                continue
            for cand in candidates(entry.shape, None, None, st):
                if cand[0] != norm:
                    continue
                places = {(x + mx, y + my, s) for g in cand[1] for x, y, s in g}
                if listed <= places:
                    return f"{'entrance' if room.die == 'entrance' else 'd66'} {key} ({entry.name})"
        return None

    def _exits(self, room: LogRoom, entry: RoomEntry, placements, entry_edges: set):
        """The listed doors against the shape's exits, for the placement that fits them best.

        When the doors fit the squares under another transform, that one mistake is reported
        at the transform instead.  (Not so for another table entry: small shapes share
        squares and doors by chance, and a misplaced door is the likelier slip.)"""
        best = self._door_problems(room, placements, entry_edges)
        if not best:
            return
        if room.transform is not None:
            st = room.transform[2]
            for stretch_by in dict.fromkeys((st, 0, 1, 2)):
                for r, m in ((0, False), (90, False), (180, False), (0, True), (90, True)):
                    fits = self._fits(room, entry, [(r, m, stretch_by)], entry_edges)[0]
                    if fits and not self._door_problems(room, fits, entry_edges):
                        self.broken(room.transform_line, f"the doors of room {room.id} are not where "
                                    f"{self._label(room)} ({entry.name}) has its exits "
                                    f"{_describe_transform(room.transform)}; they fit it with rotate: {r}, "
                                    f"mirror: {str(m).lower()}, stretch: {stretch_by}", "shape.match")
                        return
        for line, message, rule in best:
            self.broken(line, message, rule)

    def _door_problems(self, room: LogRoom, placements, entry_edges: set) -> list:
        cells = self.cells[room.id]
        listed = {d for d, _ in self.doors.get(room.id, ())}
        best = None
        for (shape_cells, groups, secret), tx, ty, cut in placements:
            placed = [frozenset((x + tx, y + ty, s) for x, y, s in g) for g in groups]
            places = set().union(*placed) if placed else set()
            problems = []
            for d, door in self.doors.get(room.id, ()):
                if d in entry_edges or (d[0], d[1]) not in cells:
                    continue
                if d not in places and not (cut and door.state != EXPLORED and not self.on_sheet(_beyond(d))):
                    # (a room the paper edge cut off may show its lost exit where it stops: a dead end)
                    problems.append((door.line, f"door {_door(d)} is not an exit of {self._label(room)} as placed",
                                     "door.exit"))
            # a truncated room is a dead end: its doors are optional; so are they all in a log
            # that keeps no doors list for the room
            if not (cut and room.truncated) and room.doors_listed:
                for i, g in enumerate(placed):
                    if i in secret or g & listed or g & entry_edges:
                        continue
                    if not any((x, y) in cells for x, y, _ in g):
                        continue
                    beyond = [_beyond(p) for p in g]
                    if not any(self.on_sheet(b) for b in beyond):
                        continue                 # a door off the edge is a dead end
                    if any(self.owner.get(b, room.id) != room.id for b in beyond):
                        continue                 # it would open onto another room's squares
                    e = min(g)
                    problems.append((room.doors_line or room.line,
                                     f"room {room.id} is missing the door at {_door(e)} (an exit of its "
                                     "shape): list it as unexplored, explored or secret", "door.missing"))
            if best is None or len(problems) < len(best):
                best = problems
            if not problems:
                break
        return best or []

    def _entrance(self, room: LogRoom, entry: RoomEntry | None):
        cells = self.cells[room.id]
        if not cells:
            return
        W, H = self.log.width, self.log.height
        xs = [x for x, _ in cells]
        centre = {W // 2, W // 2 + 1} if W % 2 == 0 else {(W + 1) // 2}
        if max(y for _, y in cells) != H or not any(min(xs) <= c <= max(xs) for c in centre):
            self.broken(room.cells_line or room.line,
                        f"the entrance goes at the bottom centre of the sheet: its lowest row on row {H} "
                        f"and covering column {' or '.join(map(str, sorted(centre)))}", "entrance.place")
        self._shape(room, entry, set(), "")

    def _joined(self, room: LogRoom, entry: RoomEntry | None):
        cells = self.cells[room.id]
        mine = self.order[room.id]
        # the door it was opened from: an explored door of an earlier room leading onto its squares
        edges = {}
        joining = []
        for other in self.log.rooms:
            if self.by_id.get(other.id) is not other or other is room or self.order[other.id] >= mine:
                continue
            if room.parent is not None and other.id != room.parent:
                continue
            mine_there = self.cells.get(other.id, ())
            for d, door in self.doors.get(other.id, ()):
                # any door of the earlier room onto these squares joins them; a wrong state or
                # to: on it is that door's own violation, reported at its line
                if (d[0], d[1]) in mine_there and _beyond(d) in cells:
                    b = _beyond(d)
                    edges[(b[0], b[1], OPPOSITE[d[2]])] = (other.id, d)
                    joining.append((other.id, d, door))
        opened = any(door.state == EXPLORED or (door.state == SECRET and door.to is not None)
                     for _, _, door in joining)
        # or the room lists its own side of the door it came in by
        for d, door in self.doors.get(room.id, ()):
            to = self.by_id.get(door.to) if door.to is not None else None
            if door.state in (EXPLORED, SECRET) and to is not None and self.order[to.id] < mine \
                    and _beyond(d) in self.cells.get(to.id, ()) and (room.parent is None or to.id == room.parent):
                b = _beyond(d)
                edges.setdefault(d, (to.id, (b[0], b[1], OPPOSITE[d[2]])))
                opened = True
        if joining and not opened:
            for oid, d, door in joining:     # (an unexplored one is reported with the door states)
                if door.state == SECRET or door.state in DEAD_END_STATES:
                    self._door_broken(door, f"room {room.id} was opened through door {_door(d)} of room {oid}, "
                                           f"so that door is explored (to: {room.id}), not {door.state}",
                                "door.state")
        if not edges:
            # an earlier room that keeps no doors list: touching it is the join (its door is not
            # written down, so there is nothing to check it against)
            for other in self.log.rooms:
                if other.doors_listed or self.by_id.get(other.id) is not other \
                        or self.order[other.id] >= mine or (room.parent is not None and other.id != room.parent):
                    continue
                theirs = self.cells.get(other.id, ())
                for x, y in cells:
                    for side in SIDES:
                        dx, dy = DELTA[side]
                        if (x + dx, y + dy) in theirs:
                            edges[(x, y, side)] = (other.id, (x + dx, y + dy, OPPOSITE[side]))
        if not edges:
            came = f" from room {room.parent}" if room.parent is not None else ""
            self.broken(room.line, f"room {room.id} is not joined{came} through a door: an earlier room needs "
                                   f"a door with state explored and to: {room.id} on an edge of its squares",
                        "room.joined")
            named = [(o.id, d) for o in self.log.rooms if self.order.get(o.id, mine) < mine
                     for d, door in self.doors.get(o.id, ())
                     if door.to == room.id and (d[0], d[1]) in self.cells.get(o.id, ())]
            if named and room.cells_line and room.cells_line != room.line:
                # a door names this room, so the squares are drawn away from it
                oid, d = named[0]
                self.broken(room.cells_line, f"the squares of room {room.id} are not beyond door {_door(d)} "
                                             f"of room {oid}, which leads to it", "room.joined")
            return
        parent, d = next(iter(edges.values()))
        self._shape(room, entry, set(edges), f", entered through door {_door(d)} of room {parent}")

    # -- doors -------------------------------------------------------------------------
    def _door_broken(self, door: LogDoor, message: str, rule: str):
        """A door's slip at its line, and (block style) at the line of the key it is about."""
        own = {"door.state": door.state_line, "door.to": door.to_line or door.state_line}.get(rule)
        self.broken_at([door.line, own], message, rule)

    def _door_states(self, room: LogRoom):
        cells = self.cells[room.id]
        for d, door in self.doors.get(room.id, ()):
            if (d[0], d[1]) not in cells:
                self._door_broken(door, f"door {_door(d)} is not on a square of room {room.id}", "door.at")
                continue
            b = _beyond(d)
            if b in cells:
                self._door_broken(door, f"door {_door(d)} is inside room {room.id}, not on its outline", "door.at")
                continue
            state = door.state
            if state in DEAD_END_STATES:
                # the paper edge (or the room in the way) made it a dead end
                if self.on_sheet(b) and b not in self.owner and room.truncated is not True:
                    self._door_broken(door, f"door {_door(d)} is not a dead end: the square beyond it, {_cell(b)}, "
                                           "is free and on the sheet (unexplored, explored or secret)",
                                "door.state")
                continue
            if state not in DOOR_STATES:
                from difflib import get_close_matches
                hint = get_close_matches(str(state), DOOR_STATES, n=1)
                self._door_broken(door, f"door state '{state}' is not one of unexplored, explored, secret"
                                       + (f"; did you mean '{hint[0]}'?" if hint else ""), "door.state")
                continue
            beyond = self.owner.get(b)
            if state == EXPLORED or (state == SECRET and door.to is not None):
                what = "explored" if state == EXPLORED else "secret"
                if door.to is None:
                    self._door_broken(door, f"explored door {_door(d)} must say which room it leads to (to: N)"
                                + (f": the square beyond it, {_cell(b)}, is empty" if beyond is None else ""),
                                "door.to")
                elif door.to not in self.by_id:
                    self._door_broken(door, f"door {_door(d)} leads to room {door.to}, which is not in the log",
                                "door.to")
                elif door.to == room.id:
                    self._door_broken(door, f"door {_door(d)} of room {room.id} cannot lead to itself", "door.to")
                elif not self.on_sheet(b):
                    self._door_broken(door, f"door {_door(d)} leads off the edge of the sheet: it is a dead end, "
                                           f"not a way into room {door.to}", "door.to")
                elif beyond != door.to:
                    where = f"part of room {beyond}" if beyond is not None else "empty"
                    self._door_broken(door, f"{what} door {_door(d)} leads to square {_cell(b)}, which is {where}, "
                                           f"not room {door.to}", "door.to")
            elif door.to is not None:
                self._door_broken(door, f"an unexplored door leads to no room yet: make door {_door(d)} "
                                       f"explored or drop to: {door.to}", "door.state")
            elif state == UNEXPLORED and beyond is not None:
                self._door_broken(door, f"door {_door(d)} opens into room {beyond}, so it is explored "
                                       f"(to: {beyond}), not unexplored", "door.state")

    # -- contents -------------------------------------------------------------------------
    def _escalation(self, room: LogRoom, line, bosses: int):
        line = room.escalation_line or line
        """The boss escalation as logged -> final True/False, or None when both readings hold.

        The rules say a d6 of 6+ is the Final Boss; the table's documented house rule adds
        per_prior for every earlier boss.  A log may follow either: a modifier of 0 or the
        house rule's is accepted, and 'final' must agree with the modifier it used."""
        esc = room.escalation
        rules = self.contents.escalation
        e_roll = esc.get("roll")
        if e_roll is None or not 1 <= e_roll <= 6:
            self.broken(line, f"boss escalation roll {e_roll} is not a d6 result (1-6)", "roll.range")
            return None
        house = rules.modifier(bosses)
        mods = sorted({0, house})
        if esc.get("modifier") is not None:
            if esc["modifier"] not in mods:
                self.broken(line, f"the escalation modifier is +{house} ({rules.per_prior} for each of the "
                                  f"{bosses} earlier boss result{'s' if bosses != 1 else ''}, the table's house "
                                  f"rule) or +0 (the plain rule), not {esc['modifier']:+d}", "contents.escalation")
                return None
            mods = [esc["modifier"]]
        if esc.get("total") is not None:
            fits = [m for m in mods if e_roll + m == esc["total"]]
            if not fits:
                self.broken(line, f"escalation total is {' or '.join(str(e_roll + m) for m in mods)} "
                                  f"({e_roll} + {' or '.join(map(str, mods))}), not {esc['total']}",
                            "contents.escalation")
                return None
            mods = fits
        finals = {e_roll + m >= rules.final_at for m in mods}
        if esc.get("final") is not None:
            if esc["final"] not in finals:
                total = e_roll + mods[0]
                self.broken(line, f"escalation total {total} {'is' if total >= rules.final_at else 'is not'} "
                                  f"the Final Boss ({rules.final_at}+)", "contents.escalation")
                return None
            return esc["final"]
        return finals.pop() if len(finals) == 1 else None

    def _dice_final(self, room: LogRoom, bosses: int) -> bool | None:
        """Whether the escalation d6 makes the Final Boss under both readings (None if they differ)."""
        e_roll = room.escalation.get("roll")
        if not isinstance(e_roll, int) or not 1 <= e_roll <= 6:
            return None
        rules = self.contents.escalation
        finals = {e_roll + m >= rules.final_at for m in {0, rules.modifier(bosses)}}
        return finals.pop() if len(finals) == 1 else None

    def _contents(self, room: LogRoom, kinds: tuple, bosses: int) -> tuple[bool | None, int]:
        """Check the 2d6 contents -> (Final Boss: True/False/None when unknown, 1 if a boss result)."""
        line = room.contents_line or room.line
        roll = room.contents_roll
        if roll is None and self.order[room.id] == 0:
            return False, 0     # the rules roll contents when a door is opened; the entrance may have none
        if roll is None:
            self.broken(line, f"room {room.id} has no contents roll: every room and corridor rolls 2d6, "
                              "a truncated one too (contents: {roll: N, result: ...})", "contents.missing")
            return False, 0
        if not isinstance(roll, int) or not 2 <= roll <= 12:
            self.broken(room.contents_roll_line or line, f"contents roll {roll} is not a 2d6 result (2-12)", "roll.range")
            return False, 0
        expected = [self.contents.result(roll, k) for k in kinds]
        is_boss = roll == BOSS_ROLL and any(e.category == "boss" for e in expected)
        final = None
        if room.escalation is not None and not is_boss:
            self.broken(room.escalation_line or line, f"only 11 (the boss) rolls the escalation die, not {roll}", "contents.escalation")
        elif room.escalation is not None:
            before = len(self.out)
            final = self._escalation(room, line, bosses)
            if len(self.out) > before:      # the escalation itself is wrong: what the die says counts
                return self._dice_final(room, bosses), 1
        result = room.contents_result
        if result is None or str(result).strip() in PLACEHOLDERS:
            pass            # only the roll was written down (the example writes "...")
        elif not any(self.contents.matches(roll, k, result, final) for k in kinds):
            e = expected[0]
            want = ("final-boss" if final else e.id) if is_boss and final is not None else e.id
            # the roll or the result is the slip; for an 11, the result or the escalation die
            lines = ([room.result_line or line, room.escalation_line] if is_boss and room.escalation
                     else [room.contents_roll_line or line, room.result_line])
            self.broken_at(lines, f"2d6 {roll} in the {kinds[0]} column is '{want}' ({e.label}), "
                                  f"not '{result}'", "contents.result")
        if not is_boss:
            return False, 0
        if final is None and result is not None and str(result).strip() not in PLACEHOLDERS:
            final = self.contents.matches(roll, kinds[0], result, True)
        return final, 1

    def _retrace_top(self):
        """A retrace list kept beside the rooms (not inside one): its rooms must exist."""
        for rid, roll, wandering, line in self.log.retrace:
            if rid is not None and rid not in self.by_id:
                self.broken(line, f"retracing goes back through room {rid}, which is not in the log",
                            "retrace.room")
            self._retrace_roll(roll, wandering, line)

    def _retrace_roll(self, roll, wandering, line):
        if roll is None or not 1 <= roll <= 6:
            self.broken(line, f"retrace roll {roll} is not a d6 result (1-6)", "roll.range")
        elif wandering is not None and wandering != (roll == 1):
            self.broken(line, f"a retrace roll of {roll} {'brings' if roll == 1 else 'does not bring'} "
                              "wandering monsters (they come on a 1)", "retrace.wandering")

    def _retrace(self, room: LogRoom, index: int):
        for rid, roll, wandering, line in room.retrace:
            if rid is not None and (rid not in self.by_id or self.order[rid] >= index):
                self.broken(line, f"retracing goes back through room {rid}, which was not generated before "
                                  f"room {room.id}", "retrace.room")
            self._retrace_roll(roll, wandering, line)


def _wide(cells) -> bool:
    return any((x + 1, y) in cells and (x, y + 1) in cells and (x + 1, y + 1) in cells for x, y in cells)


def check_log(log: Log, rooms: RoomTable, entrances: RoomTable, contents: ContentsTable) -> list[Broken]:
    return Checker(log, rooms, entrances, contents).run()


def log_from_explorer(ex) -> Log:
    """The log of a map-mode game as checker input (no YAML; used by tests and the bench)."""
    log = Log(ex.width, ex.height, [], ex.minutes)
    for r in ex.rooms:
        lr = LogRoom(r.id, die=r.die, roll=r.roll, kind=r.kind,
                     transform=None if r.die == "entrance" else (r.rotate, r.mirror, r.stretch),
                     cells=[f"{x},{y}" for x, y in r.cells], truncated=r.truncated,
                     doors=[LogDoor(d.at, d.state, d.to, d.secret) for d in r.doors],
                     contents_roll=r.contents_roll, contents_result=r.result.id if r.result else None,
                     parent=r.parent, retrace=[(rid, roll, roll == 1, None) for rid, roll in r.retrace],
                     time=r.minutes)
        if r.escalation:
            roll, mod, total = r.escalation
            lr.escalation = {"roll": roll, "modifier": mod, "total": total,
                             "final": total >= ex.contents.escalation.final_at}
        log.rooms.append(lr)
    return log

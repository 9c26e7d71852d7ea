"""Check an exploration play log (a finished or half-played map) against the rules.

Input is plain data (LogRoom, LogDoor with the YAML line of each key) built by the
playlog layer or straight from a map-mode Explorer; output is a list of Broken
(line, message, rule).  Every check the issue names: squares on the sheet, no
shared squares, each room joined to the room it came from through a door, its
squares its table shape under the stated transform (or a truncation of it), rolls in
range, contents as the table says for that roll and kind, door states consistent,
plus the entrance at bottom centre, time, retracing rolls and the Final Boss ending.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..dice import is_d66
from .mapmode import DOOR_STATES, EXPLORED, MINUTES_PER_ROOM, UNEXPLORED
from .shapes import DELTA, OPPOSITE, ROTATIONS, SIDES, components, stretch_lines, transform
from .tables import BOSS_ROLL, ContentsTable, RoomEntry, RoomTable


PLACEHOLDERS = ("", "...", "\u2026", "?")


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
    truncated: bool = False
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

    def broken(self, line, message, rule):
        self.out.append(Broken(line, message, rule))

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
            if room.id != i + 1:
                self.broken(room.line, f"room {room.id} is entry {i + 1}: number the rooms 1, 2, 3 ... "
                                       "in the order they were generated", "room.id")
            self.by_id[room.id] = room
            self._squares(room)
        for room in log.rooms:
            self._doors_of(room)
        order = {r.id: i for i, r in enumerate(log.rooms)}
        self.order = order
        bosses = 0
        final_at = None
        for i, room in enumerate(log.rooms):
            if self.by_id.get(room.id) is not room:
                continue
            if final_at is not None:
                self.broken(room.line, f"the dungeon ended with the Final Boss in room {final_at}; "
                                       f"room {room.id} cannot come after it", "end.final-boss")
            entry = self._roll(room, i)
            kind = self._kind(room, entry)
            if i == 0:
                self._entrance(room, entry)
            else:
                self._joined(room, entry)
            self._door_states(room)
            final, boss = self._contents(room, kind, bosses)
            bosses += boss
            if final and final_at is None:
                final_at = room.id
            self._retrace(room, i)
            if room.time is not None and room.time != MINUTES_PER_ROOM * (i + 1):
                self.broken(room.time_line, f"time after room {room.id} is {MINUTES_PER_ROOM * (i + 1)} minutes "
                                            f"({MINUTES_PER_ROOM} per room or corridor generated), not {room.time}",
                            "time")
        if log.minutes is not None and log.minutes != MINUTES_PER_ROOM * len(log.rooms):
            self.broken(log.minutes_line, f"{len(log.rooms)} rooms take {MINUTES_PER_ROOM * len(log.rooms)} "
                                          f"minutes ({MINUTES_PER_ROOM} each), not {log.minutes}", "time")
        self._end(final_at)
        self.out.sort(key=lambda b: (b.line is None, b.line or 0))
        return self.out

    def _end(self, final_at):
        log = self.log
        if log.end_rooms is not None and log.end_rooms != len(log.rooms):
            self.broken(log.end_line, f"the log holds {len(log.rooms)} rooms, not {log.end_rooms}", "end.rooms")
        reason = (log.end_reason or "").strip().lower()
        if reason == "final-boss" and final_at is None:
            self.broken(log.end_line, "the dungeon did not end on the Final Boss: no 11 turned up 6+ on the "
                                      "escalation roll", "end.reason")
        elif reason in ("no-doors", "map-full"):
            left = [(room, d) for room in log.rooms if self.by_id.get(room.id) is room
                    for d, door in self.doors.get(room.id, ()) if door.state == UNEXPLORED
                    and self.on_sheet(_beyond(d)) and _beyond(d) not in self.owner]
            if left:
                room, d = left[0]
                self.broken(log.end_line, f"the dungeon cannot have run out of doors: door {_door(d)} of room "
                                          f"{room.id} is still unexplored", "end.reason")

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
                self.broken(line, f"square {_cell(c)} of room {room.id} is already part of room {other}: "
                                  "rooms never share a square", "cell.overlap")
            else:
                self.owner[c] = room.id
            mine.add(c)

    def _doors_of(self, room: LogRoom):
        parsed = []
        seen = set()
        for door in room.doors:
            d = parse_door(door.at)
            if d is None:
                self.broken(door.line, f"'{door.at}' is not a door: write x,y:SIDE such as \"10,27:N\" "
                                       "(SIDE one of N, E, S, W)", "door.format")
                continue
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
            self.broken(room.roll_line, f"d66 roll {room.roll} is out of range: tens die then units die, "
                                        "each 1-6 (11-16, 21-26, ... 61-66)", "roll.range")
            return None
        return self.table.entries.get(room.roll)

    def _kind(self, room: LogRoom, entry: RoomEntry | None) -> str:
        if room.kind is not None and room.kind not in ("corridor", "room"):
            self.broken(room.kind_line, f"kind '{room.kind}' is neither corridor nor room", "room.kind")
            return entry.kind if entry else "room"
        if entry is None:
            return room.kind or "room"
        if room.kind is not None and room.kind != entry.kind:
            actual = "room" if _wide(self.cells.get(room.id, ())) else "corridor"
            if not (room.truncated and room.kind == actual):
                self.broken(room.kind_line, f"{self._label(room)} ({entry.name}) is a {entry.kind}, "
                                            f"not a {room.kind}", "room.kind")
        return room.kind or entry.kind

    def _label(self, room: LogRoom) -> str:
        return f"entrance {room.roll}" if room.die == "entrance" else f"d66 {room.roll}"

    # -- shapes ----------------------------------------------------------------------
    def _candidates(self, entry: RoomEntry, room: LogRoom, default_identity: bool):
        """(transform, shape) pairs the stated transform allows."""
        if room.transform is None:
            pairs = [((0, False, 0), entry.shape)] if default_identity else \
                [((r, m, 0), transform(entry.shape, r, m)) for m in (False, True) for r in ROTATIONS]
            return pairs
        rot, mir, st = room.transform
        bad = False
        if rot not in ROTATIONS:
            self.broken(room.transform_line, f"rotate {rot} is not a quarter turn (0, 90, 180 or 270)",
                        "transform.value")
            bad = True
        if st not in (0, 1, 2):
            self.broken(room.transform_line, f"stretch {st} is not allowed: stretch a shape by 0, 1 or 2 "
                                             "squares", "transform.value")
            bad = True
        if bad:
            return []
        if not st:
            return [((rot, mir, 0), transform(entry.shape, rot, mir))]
        out = []
        seen = set()
        for axis, idx in stretch_lines(entry.shape):
            s = transform(entry.shape, rot, mir, st, axis, idx)
            if (s.cells, s.exits) not in seen:
                seen.add((s.cells, s.exits))
                out.append(((rot, mir, st), s))
        return out

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
        if entry is None:
            return
        matches = []
        for t, shape in self._candidates(entry, room, default_identity=True):
            mx = min(x for x, _ in cells)
            my = min(y for _, y in cells)
            if {(x - mx, y - my) for x, y in cells} == shape.cells:
                matches.append((shape, mx, my))
        if not matches:
            line, hint = room.cells_line or room.line, ""
            mx = min(x for x, _ in cells)
            my = min(y for _, y in cells)
            norm = frozenset((x - mx, y - my) for x, y in cells)
            for key, other in self.entrances.entries.items():
                if key != room.roll and other.shape.cells == norm:
                    line, hint = room.roll_line or line, f"; they are the shape of entrance {key} ({other.name})"
                    break
            self.broken(line,
                        f"the squares of room {room.id} are not the shape of entrance {room.roll} "
                        f"({entry.name}) {_describe_transform(room.transform or (0, False, 0))}{hint}", "shape.match")
            return
        self._exits(room, matches, entry_edge=None)

    def _joined(self, room: LogRoom, entry: RoomEntry | None):
        cells = self.cells[room.id]
        # the door it was opened from: an explored door of an earlier room leading onto its squares
        candidates = []
        for other in self.log.rooms:
            if self.by_id.get(other.id) is not other or other is room:
                continue
            if room.parent is not None and other.id != room.parent:
                continue
            earlier = self.order[other.id] < self.order[room.id]
            for d, door in self.doors.get(other.id, ()):
                if door.state == EXPLORED and door.to == room.id and _beyond(d) in cells and earlier:
                    candidates.append((other.id, d, door))
        if not candidates:
            # the room may list its own side of the door it came in by
            for d, door in self.doors.get(room.id, ()):
                to = self.by_id.get(door.to) if door.to is not None else None
                if door.state == EXPLORED and to is not None and self.order[to.id] < self.order[room.id] \
                        and _beyond(d) in self.cells.get(to.id, ()) \
                        and (room.parent is None or to.id == room.parent):
                    b = _beyond(d)
                    candidates.append((to.id, (b[0], b[1], OPPOSITE[d[2]]), door))
        if not candidates:
            came = f" from room {room.parent}" if room.parent is not None else ""
            self.broken(room.line, f"room {room.id} is not joined{came} through a door: an earlier room needs "
                                   f"a door with state explored and to: {room.id} on an edge of its squares",
                        "room.joined")
            return
        if entry is None or not cells:
            return
        first_problem = None
        for parent, d, door in candidates:
            b = _beyond(d)
            entry_edge = (b[0], b[1], OPPOSITE[d[2]])
            matches, hint = self._match(room, entry, entry_edge)
            if matches:
                self._exits(room, matches, entry_edge)
                return
            if first_problem is None:
                first_problem = (parent, d, hint)
        parent, d, hint = first_problem
        where = f"through door {_door(d)} of room {parent}"
        if room.transform is not None:
            how = _describe_transform(room.transform)
        else:
            how = "in any orientation"
        # the offending key: the transform when the squares fit the shape turned another way, the
        # roll when they are another entry's shape, else the squares themselves
        line = room.cells_line
        if "truncated: true" in hint and room.truncated_line is not None:
            line = room.truncated_line
        elif "rotate:" in hint and room.transform is not None:
            line = room.transform_line
        elif not hint:
            other = self._other_entry(room, d)
            if other is not None:
                hint = f"; they are the shape of d66 {other.key} ({other.name})"
                line = room.roll_line
        self.broken(line or room.line,
                    f"the squares of room {room.id} are not the shape of {self._label(room)} ({entry.name}, "
                    f"a {entry.kind}) {how}, entered {where}{hint}", "shape.match")

    def _other_entry(self, room: LogRoom, d) -> RoomEntry | None:
        """Another table entry whose shape the squares are (in any orientation), if any."""
        cells = self.cells[room.id]
        b = _beyond(d)
        ex, ey, side = b[0], b[1], OPPOSITE[d[2]]
        stretch_by = room.transform[2] if room.transform and room.transform[2] in (0, 1, 2) else 0
        for key, entry in self.table.entries.items():
            if key == room.roll:
                continue
            for v in entry.variants(stretch_by):
                if len(v.cells) < len(cells) or (len(v.cells) > len(cells) and not room.truncated):
                    continue
                for x, y, _ in v.by_side[side]:
                    placed = {(cx + ex - x, cy + ey - y) for cx, cy in v.cells}
                    if placed == cells or (room.truncated and cells < placed):
                        return entry
        return None

    def _match(self, room: LogRoom, entry: RoomEntry, entry_edge):
        cells = self.cells[room.id]
        ex, ey, side = entry_edge
        matches = []
        subset = False
        for t, shape in self._candidates(entry, room, default_identity=False):
            for x, y, s in shape.exits:
                if s != side:
                    continue
                tx, ty = ex - x, ey - y
                placed = {(cx + tx, cy + ty) for cx, cy in shape.cells}
                if placed == cells:
                    matches.append((shape, tx, ty))
                elif cells < placed and (ex, ey) in cells and len(components(cells)) == 1:
                    if room.truncated:
                        matches.append((shape, tx, ty))
                    else:
                        subset = True
        hint = ""
        if not matches:
            if subset:
                hint = "; they are only part of it: mark the room truncated: true (a dead end)"
            else:
                for m in (False, True):
                    for r in ROTATIONS:
                        if room.transform is not None and (r, m) == tuple(room.transform[:2]):
                            continue
                        s = transform(entry.shape, r, m)
                        for x, y, sd in s.exits:
                            if sd == side and {(cx + ex - x, cy + ey - y) for cx, cy in s.cells} == cells:
                                hint = f"; they match it with rotate: {r}, mirror: {str(m).lower()}"
                                break
                        if hint:
                            break
                    if hint:
                        break
        return matches, hint

    def _exits(self, room: LogRoom, matches, entry_edge):
        """The listed doors against the shape's exits (best of the matching placements)."""
        cells = self.cells[room.id]
        best = None
        for shape, tx, ty in matches:
            exits = {(x + tx, y + ty, s) for x, y, s in shape.exits}
            secret = {(x + tx, y + ty, s) for x, y, s in shape.secret}
            problems = []
            listed = set()
            for d, door in self.doors.get(room.id, ()):
                listed.add(d)
                if d == entry_edge:
                    continue
                if d not in exits and (d[0], d[1]) in cells:
                    problems.append((door.line, f"door {_door(d)} is not an exit of {self._label(room)} as placed",
                                     "door.exit"))
            if not room.truncated:
                for e in sorted(exits - listed - secret - ({entry_edge} if entry_edge else set())):
                    if self.on_sheet(_beyond(e)):
                        problems.append((room.doors_line or room.line,
                                         f"room {room.id} is missing the door at {_door(e)} (an exit of its "
                                         "shape): list it as unexplored, explored or secret", "door.missing"))
            if best is None or len(problems) < len(best):
                best = problems
            if not problems:
                break
        for line, message, rule in best or ():
            self.broken(line, message, rule)

    # -- doors -------------------------------------------------------------------------
    def _door_states(self, room: LogRoom):
        cells = self.cells[room.id]
        for d, door in self.doors.get(room.id, ()):
            if (d[0], d[1]) not in cells:
                self.broken(door.line, f"door {_door(d)} is not on a square of room {room.id}", "door.at")
                continue
            b = _beyond(d)
            if b in cells:
                self.broken(door.line, f"door {_door(d)} is inside room {room.id}, not on its outline", "door.at")
                continue
            if door.state not in DOOR_STATES:
                from difflib import get_close_matches
                hint = get_close_matches(str(door.state), DOOR_STATES, n=1)
                self.broken(door.line, f"door state '{door.state}' is not one of unexplored, explored, secret"
                                       + (f"; did you mean '{hint[0]}'?" if hint else ""), "door.state")
                continue
            beyond = self.owner.get(b)
            if door.state == EXPLORED:
                if door.to is None:
                    self.broken(door.line, f"explored door {_door(d)} must say which room it leads to (to: N)",
                                "door.to")
                elif door.to not in self.by_id:
                    self.broken(door.line, f"door {_door(d)} leads to room {door.to}, which is not in the log",
                                "door.to")
                elif door.to == room.id:
                    self.broken(door.line, f"door {_door(d)} of room {room.id} cannot lead to itself", "door.to")
                elif not self.on_sheet(b):
                    self.broken(door.line, f"door {_door(d)} leads off the edge of the sheet: it is a dead end, "
                                           f"not a way into room {door.to}", "door.to")
                elif beyond != door.to:
                    what = f"part of room {beyond}" if beyond is not None else "empty"
                    self.broken(door.line, f"door {_door(d)} leads to square {_cell(b)}, which is {what}, "
                                           f"not room {door.to}", "door.to")
            else:
                if door.to is not None:
                    self.broken(door.line, f"a{'n' if door.state == UNEXPLORED else ''} {door.state} door leads "
                                           f"to no room yet: make door {_door(d)} explored or drop to: {door.to}",
                                "door.state")
                elif door.state == UNEXPLORED and beyond is not None and beyond != room.id:
                    self.broken(door.line, f"door {_door(d)} opens into room {beyond}, so it is explored "
                                           f"(to: {beyond}), not unexplored", "door.state")

    # -- contents -------------------------------------------------------------------------
    def _contents(self, room: LogRoom, kind: str, bosses: int) -> tuple[bool, int]:
        line = room.contents_line or room.line
        roll = room.contents_roll
        if roll is None:
            self.broken(line, f"room {room.id} has no contents roll: every room and corridor rolls 2d6 "
                              "(contents: {roll: N, result: ...})", "contents.missing")
            return False, 0
        if not 2 <= roll <= 12:
            self.broken(line, f"contents roll {roll} is not a 2d6 result (2-12)", "roll.range")
            return False, 0
        esc = room.escalation
        expected = self.contents.result(roll, kind)
        is_boss = roll == BOSS_ROLL and expected.category == "boss"
        final = None
        if esc is not None and not is_boss:
            self.broken(line, f"only 11 (the boss) rolls the escalation die, not {roll}", "contents.escalation")
        elif esc is not None:
            rules = self.contents.escalation
            e_roll = esc.get("roll")
            if e_roll is None or not 1 <= e_roll <= 6:
                self.broken(line, f"boss escalation roll {e_roll} is not a d6 result (1-6)", "roll.range")
            else:
                modifier = rules.modifier(bosses)
                if esc.get("modifier") is not None and esc["modifier"] != modifier:
                    self.broken(line, f"the escalation modifier is +{modifier} ({rules.per_prior} for each of the "
                                      f"{bosses} earlier boss result{'s' if bosses != 1 else ''}), "
                                      f"not {esc['modifier']:+d}", "contents.escalation")
                total = e_roll + modifier
                if esc.get("total") is not None and esc["total"] != total:
                    self.broken(line, f"escalation total is {e_roll} + {modifier} = {total}, not {esc['total']}",
                                "contents.escalation")
                final = total >= rules.final_at
                if esc.get("final") is not None and esc["final"] != final:
                    self.broken(line, f"escalation total {total} {'is' if final else 'is not'} the Final Boss "
                                      f"({rules.final_at}+)", "contents.escalation")
        result = room.contents_result
        if result is None or str(result).strip() in PLACEHOLDERS:
            pass            # only the roll was written down (the example writes "...")
        elif not self.contents.matches(roll, kind, result, final):
            if is_boss and final is not None:
                want = "final-boss" if final else expected.id
            else:
                want = expected.id
            self.broken(line, f"2d6 {roll} in the {kind} column is '{want}' ({expected.label}), "
                              f"not '{result}'", "contents.result")
        if not is_boss:
            return False, 0
        if final is None:
            final = str(result).strip().lower().replace("_", "-").replace(" ", "-") == "final-boss"
        return final, 1

    def _retrace(self, room: LogRoom, index: int):
        for rid, roll, wandering, line in room.retrace:
            if rid not in self.by_id or self.order[rid] >= index:
                self.broken(line, f"retracing goes back through room {rid}, which was not generated before "
                                  f"room {room.id}", "retrace.room")
            if roll is None or not 1 <= roll <= 6:
                self.broken(line, f"retrace roll {roll} is not a d6 result (1-6)", "roll.range")
            elif wandering is not None and wandering != (roll == 1):
                self.broken(line, f"a retrace roll of {roll} {'brings' if roll == 1 else 'does not bring'} "
                                  "wandering monsters (they come on a 1)", "retrace.wandering")


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

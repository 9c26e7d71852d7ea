"""Map mode: build a dungeon on a graph sheet one room at a time, as the rules say.

The placement rules are the engine's (rules.py): the sheet (rules.Sheet: one flat list
of squares, so a placement costs the squares of the shape however full the sheet is),
the entrance at the bottom centre (entrance_origin), the placements of a rolled shape
at a door (fitting) and the truncations when none fits (cuts), what each exit becomes
(exit_door); map mode only chooses among them (its policy) and keeps the doors' states
as play changes them.  actions_of() gives the game as the actions its log writes.

Dice come from a dice object (RandomDice or a player's prompts); choices that are
not rolls (which orientation to try first, the random policy) come from a separate
seeded Random so an interactive game with typed rolls stays reproducible.
"""
from __future__ import annotations

import random
from collections import deque
from operator import itemgetter

from .actions import (D66, ENTRANCE, EXPLORED, SECRET, UNEXPLORED, Action, Contents, DoorMark, End, Escalation,
                      Place, Retrace, RetraceRoll, Search, Time, Transform)
from .rules import MINUTES_PER_ROOM, Sheet, cuts, entrance_origin, exit_door, fitting, is_wandering
from .shapes import DELTA, OPPOSITE
from .tables import BOSS_ROLL, ContentsTable, Result, RoomEntry, RoomTable, Variant

POLICIES = ("first", "random", "deepest")
# the entrance rolls no contents: "When you open an unexplored door: ... 2. Roll 2d6 on the Room
# Contents Table", and the entrance is not opened through a door (it is empty: it may be searched)
NO_CONTENTS = Result("entrance", "empty", "The entrance is not opened through a door: no contents roll.",
                     "No contents (the entrance)")
_ROW_BY_ROW = itemgetter(1, 0)


class Door:
    __slots__ = ("x", "y", "side", "state", "to", "secret")

    def __init__(self, x: int, y: int, side: str, state: str = UNEXPLORED, to: int | None = None,
                 secret: bool = False):
        self.x, self.y, self.side = x, y, side
        self.state = state
        self.to = to
        self.secret = secret

    @property
    def at(self) -> str:
        return f"{self.x},{self.y}:{self.side}"

    @property
    def beyond(self) -> tuple[int, int]:
        dx, dy = DELTA[self.side]
        return self.x + dx, self.y + dy


class Room:
    __slots__ = ("id", "die", "roll", "entry", "kind", "cells", "rotate", "mirror", "stretch", "truncated",
                 "doors", "contents_roll", "result", "escalation", "parent", "depth", "retrace", "minutes",
                 "searched")

    def __init__(self, id: int, die: str, roll: int, entry: RoomEntry):
        self.id = id
        self.die = die                      # 'entrance' (d6) or 'd66'
        self.roll = roll
        self.entry = entry
        self.kind = entry.kind
        self.cells: list[tuple[int, int]] = []
        self.rotate, self.mirror, self.stretch = 0, False, 0
        self.truncated = False
        self.doors: list[Door] = []
        self.contents_roll = 0
        self.result = None                  # tables.Result
        self.escalation: tuple[int, int, int] | None = None   # roll, modifier, total
        self.parent: int | None = None
        self.depth = 0
        self.retrace: list[tuple[int, int]] = []               # (room id, d6) moving back through
        self.minutes = 0
        self.searched = False               # searched, and a secret door came to light

    @property
    def final_boss(self) -> bool:
        return self.escalation is not None and self.result is not None and self.result.id == "final-boss"


class Explorer:
    """One exploration: call start() then step() until it returns False (or run())."""

    def __init__(self, rooms: RoomTable, entrances: RoomTable, contents: ContentsTable, dice,
                 width: int = 20, height: int = 28, policy: str = "first", max_rooms: int | None = None,
                 choices: random.Random | None = None, choose_door=None):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy '{policy}' (first, random or deepest)")
        self.table = rooms
        self.entrances = entrances
        self.contents = contents
        self.dice = dice
        self.width, self.height = width, height
        self.policy = policy
        self.max_rooms = max_rooms
        self.choices = choices or random.Random(0)
        self.choose_door = choose_door      # optional callback(explorer, doors) -> (room, door)
        self.sheet = Sheet(width, height)   # squares hold room ids (map mode numbers rooms 1, 2, 3 ...)
        self.fits = self.sheet.fits
        self.occupant = self.sheet.occupant
        self.on_sheet = self.sheet.on_sheet
        self.rooms: list[Room] = []
        self.waiting: dict[int, list[tuple[Room, Door]]] = {}   # square -> unexplored doors facing it
        self.here = 0                       # the room the party is in
        self.links: dict[int, set[int]] = {}   # rooms joined by explored doors
        self.bosses = 0
        self.ended: str | None = None
        self.open_doors = 0                 # unexplored doors on the sheet (the dungeon ends at none)

    @property
    def owner(self) -> list:
        """The sheet's squares, row by row: the room id on each (0 free)."""
        return self.sheet.owner

    # -- the game ----------------------------------------------------------
    def start(self) -> Room:
        roll = self.dice.d6("entrance room")
        entry = self.entrances[roll]
        room = Room(1, "entrance", roll, entry)
        v = entry.variants(0)[0]
        w = max(x for x, _ in v.cells) + 1
        h = max(y for _, y in v.cells) + 1
        tx, ty = entrance_origin(self.sheet, w, h)
        self._settle(room, v, tx, ty, None, truncated=False, cells=None)
        self.here = room.id
        return room

    def unexplored(self) -> list[tuple[Room, Door]]:
        return [(r, d) for r in self.rooms for d in r.doors if d.state == UNEXPLORED]

    def pick(self, doors):
        if self.choose_door is not None:
            return self.choose_door(self, doors)
        if self.policy == "first":
            return doors[0]
        if self.policy == "random":
            return doors[self.choices.randrange(len(doors))]
        best = max(doors, key=lambda rd: (rd[0].depth, rd[0].id))
        return best

    def step(self) -> bool:
        """Open one door; False when the dungeon has ended (self.ended says why)."""
        if self.ended:
            return False
        if not self.rooms:
            self.start()
            return self._check_end()
        doors = self.unexplored()
        if not doors:
            self.ended = "no-doors"
            return False
        room, door = self.pick(doors)
        self.open(room, door)
        return self._check_end()

    def _check_end(self) -> bool:
        if self.rooms and self.rooms[-1].final_boss:
            self.ended = "final-boss"
        elif self.max_rooms is not None and len(self.rooms) >= self.max_rooms:
            self.ended = "rooms"
        elif not self.open_doors:
            self.ended = "no-doors"
        return self.ended is None

    def run(self) -> "Explorer":
        while self.step():
            pass
        return self

    def open(self, room: Room, door: Door) -> Room:
        """Move to room (retracing), open its unexplored door and generate what lies beyond."""
        retrace = self.retrace_to(room.id)
        roll = self.dice.d66("room shape")
        entry = self.table[roll]
        fx, fy = door.beyond
        side = OPPOSITE[door.side]
        new = Room(len(self.rooms) + 1, "d66", roll, entry)
        new.retrace = retrace
        new.parent = room.id
        new.depth = room.depth + 1
        door.state, door.to = EXPLORED, new.id
        self.open_doors -= 1
        self._link(room.id, new.id)
        self._unwait(fx, fy, room, door)
        placed = self._place(entry, fx, fy, side)
        if placed is not None:
            v, tx, ty = placed
            self._settle(new, v, tx, ty, (fx, fy, side), truncated=False, cells=None)
        else:
            v, tx, ty, cells = self._truncate(entry, fx, fy, side)
            self._settle(new, v, tx, ty, (fx, fy, side), truncated=True, cells=cells)
        self.here = new.id
        return new

    def retrace_to(self, target: int) -> list[tuple[int, int]]:
        """Walk back from the party's room to target through explored doors: d6 per room entered."""
        if self.here in (0, target):
            return []
        path = self.path(self.here, target)
        return [(rid, self.dice.d6(f"retracing through room {rid}")) for rid in path[1:]]

    def path(self, start: int, goal: int) -> list[int]:
        prev = {start: None}
        queue = deque([start])
        while queue:
            rid = queue.popleft()
            if rid == goal:
                break
            for n in self.neighbours(rid):
                if n not in prev:
                    prev[n] = rid
                    queue.append(n)
        out = []
        node = goal
        while node is not None:
            out.append(node)
            node = prev.get(node)
        return out[::-1]

    def neighbours(self, rid: int):
        return sorted(self.links.get(rid, ()))

    def _link(self, a: int, b: int) -> None:
        self.links.setdefault(a, set()).add(b)
        self.links.setdefault(b, set()).add(a)

    # -- placement ---------------------------------------------------------
    def _place(self, entry: RoomEntry, fx: int, fy: int, side: str):
        """An orientation whose entry exit meets the door and fits (stretch 1, then 2, only if none
        does); among those that fit, the one leaving most exits open onto free squares."""
        for stretch_by in (0, 1, 2):
            variants = entry.variants(stretch_by)
            order = list(range(len(variants)))
            self.choices.shuffle(order)
            best, best_open = None, -1
            for v, tx, ty in fitting(self.sheet, variants, fx, fy, side, order):
                n = self._open_exits(v, tx, ty)
                if n > best_open:
                    best, best_open = (v, tx, ty), n
            if best is not None:
                return best
        return None

    def _open_exits(self, v: Variant, tx: int, ty: int) -> int:
        n = 0
        for ex, ey, s in v.exits:
            dx, dy = DELTA[s]
            if self.occupant(ex + tx + dx, ey + ty + dy) == 0:
                n += 1
        return n

    def _truncate(self, entry: RoomEntry, fx: int, fy: int, side: str):
        """No room for the room: the largest part that fits, joined to the door, as a dead end."""
        best = None
        for v, tx, ty, part in cuts(self.sheet, entry.variants(0), fx, fy, side):
            if best is None or len(part) > len(best[3]):
                best = (v, tx, ty, part)
        return best

    def _settle(self, room: Room, v: Variant, tx: int, ty: int, entry, truncated: bool, cells):
        room.rotate, room.mirror, room.stretch = v.rotate, v.mirror, v.stretch
        room.truncated = truncated
        if cells is None:
            cells = [(x + tx, y + ty) for x, y in v.cells]
        room.cells = sorted(cells, key=_ROW_BY_ROW)     # row by row, as a player reads them
        self.sheet.claim_all(room.cells, room.id)
        self.rooms.append(room)
        for x, y in room.cells:             # doors of other rooms that now open into this one
            for other, door in self.waiting.pop((x, y), ()):
                if door.state == UNEXPLORED:
                    door.state, door.to = EXPLORED, room.id
                    self.open_doors -= 1
                    self._link(other.id, room.id)
        if not truncated:                   # a truncated room is a dead end: no more exits
            for ex, ey, s in v.exits:
                X, Y = ex + tx, ey + ty
                if entry is not None and (X, Y, s) == entry:
                    continue
                secret = (ex, ey, s) in v.secret
                found = exit_door(self.sheet, X, Y, s, secret)
                if found is None:
                    continue                # a door leading off the edge is a dead end
                state, occ = found
                door = Door(X, Y, s, state, occ if state == EXPLORED else None, secret)
                if state == EXPLORED:
                    self._link(room.id, occ)
                elif state == UNEXPLORED:
                    self.open_doors += 1
                    self.waiting.setdefault(door.beyond, []).append((room, door))
                room.doors.append(door)
        self._contents(room)
        room.minutes = MINUTES_PER_ROOM * len(self.rooms)

    def _unwait(self, fx, fy, room, door):
        lst = self.waiting.get((fx, fy))
        if lst:
            lst[:] = [(r, d) for r, d in lst if d is not door]

    def _contents(self, room: Room):
        if room.die == "entrance":
            room.contents_roll, room.result = None, NO_CONTENTS      # not opened through a door
            self._search(room)
            return
        roll = self.dice.two_d6("room contents")
        room.contents_roll = roll
        result = self.contents.result(roll, room.kind)
        if roll == BOSS_ROLL and result.category == "boss":
            esc = self.dice.d6("boss escalation")
            mod = self.contents.escalation.modifier(self.bosses)
            room.escalation = (esc, mod, esc + mod)
            if self.contents.escalation.is_final(esc, self.bosses):
                result = self.contents.final_result()
            self.bosses += 1
        room.result = result
        if result.category == "empty":
            self._search(room)

    def _search(self, room: Room):
        """Search the empty room ("4. Search the room (optional, once per room) if it's empty after
        the encounter"): its secret doors come to light (the log writes the search where one did)."""
        for d in room.doors:
            if d.state == SECRET:
                room.searched = True
                d.state = UNEXPLORED
                bx, by = d.beyond
                if self.occupant(bx, by) == 0:
                    self.open_doors += 1
                    self.waiting.setdefault((bx, by), []).append((room, d))
                else:
                    d.state, d.to = EXPLORED, self.occupant(bx, by)
                    self._link(room.id, d.to)

    # -- summary -----------------------------------------------------------
    @property
    def minutes(self) -> int:
        return MINUTES_PER_ROOM * len(self.rooms)

    def wandering(self) -> int:
        return sum(1 for r in self.rooms for _, roll in r.retrace if is_wandering(roll))


def actions_of(ex: Explorer) -> list[Action]:
    """A map-mode game as the actions its play log writes (doors as they are now, at its end)."""
    final_at = ex.contents.escalation.final_at
    out: list[Action] = []
    add = out.append
    for r in ex.rooms:
        if r.retrace:
            add(Retrace(tuple([RetraceRoll(rid, roll, True if is_wandering(roll) else None) for rid, roll in r.retrace]),
                        r.id))
        doors = tuple([DoorMark((d.x, d.y, d.side), d.state, d.to, d.secret and d.state != SECRET) for d in r.doors])
        if r.die == ENTRANCE:
            add(Place(r.id, ENTRANCE, r.roll, tuple(r.cells), r.parent, None, r.kind, r.entry.name, None, doors))
        else:
            add(Place(r.id, D66, r.roll, tuple(r.cells), r.parent, Transform(r.rotate, r.mirror, r.stretch),
                      r.kind, r.entry.name, r.truncated, doors))
        esc = None
        if r.escalation:
            roll, mod, total = r.escalation
            esc = Escalation(roll, mod, total, total >= final_at)
        add(Contents(r.contents_roll, r.result.id, esc) if r.contents_roll is not None else Contents())
        if r.searched:
            add(Search())
        add(Time(r.minutes))
    retreat = getattr(ex, "retreat", None)      # a played game's walk out of the entrance
    if retreat:
        add(Retrace(tuple([RetraceRoll(rid, roll, True if is_wandering(roll) else None) for rid, roll in retreat])))
    add(End(ex.ended or "stopped", len(ex.rooms), ex.minutes, ex.wandering()))
    return out


def explore(rooms: RoomTable, entrances: RoomTable, contents: ContentsTable, seed: int = 1,
            width: int = 20, height: int = 28, policy: str = "first", max_rooms: int | None = None) -> Explorer:
    """A whole seeded exploration (dice and choices both from the seed)."""
    from ..dice import RandomDice
    return Explorer(rooms, entrances, contents, RandomDice(random.Random(seed)), width, height, policy,
                    max_rooms, random.Random(seed * 7919 + 1)).run()

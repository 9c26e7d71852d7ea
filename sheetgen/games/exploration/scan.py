"""Dungeon Exploration's scan side (`SCANNER`): the graph sheet's penciled grid edges, the
rooms they enclose and their doors, the time boxes, and the checks.

Regions (sheetgen.scan.contract), on the grid the `sheet-edge` rectangle of sheets.py
frames (cols x rows squares):
- every grid edge: a wall penciled along it (LINE `edge-X-Y-E` / `edge-X-Y-S`: the edge
  right of or below square X,Y; `edge-0-Y-E` and `edge-X-0-S` are the sheet's left and top
  borders);
- on every edge, a door drawn across it (LINE `door-X-Y-S` ...: the two sides of the small
  door box parallel to the edge, read together), and the box filled in (FILL `fill-X-Y-S`:
  its two halves, one each side of the wall's stroke, read together: an explored door);
- in every square, a room's number written in (AREA `note-X-Y`, measured against the paper
  around it in the same square);
- the time boxes `time-N` of the side panel.

A door box has two sides: a wall's stroke wandering off its edge (or blurred wide) darkens
the door's place on one side only, so a door (and a filled one) reads where both sides do.

Refine (named passes, each with the test that asked for it) reads a door box read filled
once more, across its inside (LINE `inside-X-Y-S-1` beyond the edge, `-2` on square X,Y's
side; deferred: read only there, never shown): a box drawn with wide strokes (a felt tip, a
soft pencil pressed hard) darkens its strips beside the wall from its own sides and the
wall's, yet paper shows between them, which a box filled in does not.

The rooms are what the walls enclose: squares joined across edges without a wall, every
group whose outline (the sheet's border included) is penciled all round.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from sheetgen.scan.contract import (AREA, BOX, CROSSED, EMPTY, FILL, FILLED, LINE, MARKED, AreaShape, BoxShape, Difference,
                                    FillShape, GameScanner, LineShape, Region, RegionKey, SheetView)

EDGE_BAND = 1.4              # mm across an edge's wall region
EDGE_BLACK = 0.08            # mm of black across it for a pencil wall (a grid line is printed, not counted)
DOOR_SHARE = 0.65            # of a door's sides penciled (both at once): a door (a wall's stroke alone, less)
DOOR_OUT = 1.08              # where a door's sides are read, of their distance from the edge: a little outside,
                             # where a wide, blurred wall reaches less and the side's stroke is still in the band
FILLED_DOOR = 0.4           # mean darkness of each half of a door's box filled in (thin strips beside the wall)
INSIDE = "door box's inside"    # the role of a door box's half read across, from the wall to the side (refine)
INSIDE_REACH = 1.2          # of the door side's distance from the edge: how far across the inside is read
REFINED = 0.2               # the confidence of a reading refine decided (below UNCERTAIN: listed to check)
NOTE_MARKED = 0.025         # mean darkness of a room number's place over the paper around it: a few thin digits
NOTE_AROUND = 0.09          # of a square: the strips beside a number's place its darkness is measured against
NOTE_GAP = 0.03             # of a square: between the place and those strips
MAX_ROOM = 40                # squares: a larger enclosed group is the open sheet, not a room


@dataclass
class Grid:
    x0: float
    y0: float
    sq: float
    cols: int
    rows: int

    def corner(self, x: int, y: int) -> tuple[float, float]:
        """Top-left of square (x, y), 1-based (x, y = 0 is the border's outside)."""
        return self.x0 + (x - 1) * self.sq, self.y0 + (y - 1) * self.sq

    def edge(self, x: int, y: int, side: str) -> tuple[float, float, float, float]:
        """The segment of the edge right of (E) or below (S) square (x, y)."""
        left, top = self.corner(x, y)
        if side == "E":
            return (left + self.sq, top, left + self.sq, top + self.sq)
        return (left, top + self.sq, left + self.sq, top + self.sq)


def edges(grid: Grid):
    """(x, y, side) of every grid edge inside the sheet's border (the border is printed: a
    room's wall along it is the border itself)."""
    for y in range(1, grid.rows + 1):
        for x in range(1, grid.cols):
            yield (x, y, "E")
    for y in range(1, grid.rows):
        for x in range(1, grid.cols + 1):
            yield (x, y, "S")


def canonical(x: int, y: int, side: str) -> tuple[int, int, str]:
    """'x,y:N' -> the same edge named from the square above or left of it."""
    return {"E": (x, y, "E"), "S": (x, y, "S"), "W": (x - 1, y, "E"), "N": (x, y - 1, "S")}[side]


def edge_name(e) -> str:
    x, y, side = e
    return f"{x},{y}:{side}"


@dataclass
class ExplorationView(SheetView):
    walls: set = field(default_factory=set)        # canonical edges (x, y, 'E'|'S')
    doors: dict = field(default_factory=dict)      # edge -> 'explored' (filled) | 'open'
    rooms: list = field(default_factory=list)      # frozensets of squares enclosed, with a number written in
    time: int = 0                                  # time boxes crossed
    numbered: set = field(default_factory=set)     # squares with something written in (a room's number)

    def as_dict(self) -> dict:
        rooms = sorted((sorted(r, key=lambda c: (c[1], c[0])) for r in self.rooms), key=lambda r: (r[0][1], r[0][0]))
        return {"rooms": [[f"{x},{y}" for x, y in r] for r in rooms],
                "doors": {edge_name(e): s for e, s in sorted(self.doors.items())},
                "walls": len(self.walls), "time_boxes": self.time}


def enclosed(walls: set, cols: int, rows: int, largest: int = MAX_ROOM) -> list[frozenset]:
    """The groups of squares the walls enclose all round (the sheet's border is a wall), each
    no larger than `largest`, in the order of their first square (row by row)."""
    import cv2
    import numpy as np
    # squares at odd places of a (2 rows + 1) x (2 cols + 1) raster, the edge between two squares
    # between them: open where no wall is; its 4-connected parts are the groups
    open_ = np.zeros((2 * rows + 1, 2 * cols + 1), np.uint8)
    open_[1::2, 1::2] = 1
    open_[1::2, 2:-1:2] = 1
    open_[2:-1:2, 1::2] = 1
    for x, y, side in walls:
        if side == "E" and 1 <= x < cols and 1 <= y <= rows:
            open_[2 * y - 1, 2 * x] = 0
        elif side == "S" and 1 <= x <= cols and 1 <= y < rows:
            open_[2 * y, 2 * x - 1] = 0
    _, labels = cv2.connectedComponents(open_, connectivity=4)
    squares = labels[1::2, 1::2].ravel()
    sizes = np.bincount(squares)
    order = np.argsort(squares, kind="stable")         # row by row within each group
    ends = np.cumsum(sizes)
    groups = []
    for label in np.nonzero((sizes > 0) & (sizes <= largest))[0].tolist():
        where = order[ends[label] - sizes[label]:ends[label]]
        groups.append((int(where[0]), frozenset((int(i) % cols + 1, int(i) // cols + 1) for i in where)))
    return [group for _, group in sorted(groups, key=lambda g: g[0])]


def outline(cells) -> set:
    """The canonical edges around a set of squares."""
    out = set()
    cells = set(cells)
    for x, y in cells:
        for side, (dx, dy) in (("E", (1, 0)), ("W", (-1, 0)), ("S", (0, 1)), ("N", (0, -1))):
            if (x + dx, y + dy) not in cells:
                out.add(canonical(x, y, side))
    return out


def _cell(text) -> tuple[int, int]:
    if isinstance(text, (list, tuple)):
        return int(text[0]), int(text[1])
    x, y = str(text).split(",")
    return int(x), int(y)


_KEY_FORMS = (
    re.compile(r"^(edge|door|fill)-(\d+)-(\d+)-([ES])$"),     # on square x,y's east or south edge
    re.compile(r"^(note)-(\d+)-(\d+)()$"),                    # square x,y's room number
    re.compile(r"^(inside)-(\d+)-(\d+)-([ES])-([12])$"),     # half n of the door box on that edge, read across
    re.compile(r"^(time)-(\d+)$"),                             # the time track's box n
)


def region_key(rid: str) -> RegionKey:
    """An Exploration region id parsed (ValueError: not one of its forms): 'edge-3-4-S' -> ('edge',
    ((3, 4),), 'S'), 'note-3-4' -> ('note', ((3, 4),)), 'time-7' -> ('time', number 7)."""
    for form in _KEY_FORMS:
        m = form.match(rid)
        if m:
            if m.group(1) == "time":
                return RegionKey("time", number=int(m.group(2)))
            if m.group(1) == "inside":
                prefix, x, y, side, half = m.groups()
                return RegionKey(prefix, ((int(x), int(y)),), side, number=int(half))
            prefix, x, y, side = m.groups()
            return RegionKey(prefix, ((int(x), int(y)),), side)
    raise ValueError(f"{rid!r} is not an Exploration region id (like edge-3-4-S, door-3-4-E, fill-3-4-E, note-3-4, "
                     "time-7, inside-3-4-E-1)")


def _region(rid: str, kind: str, shape, role: str) -> Region:
    """A region with its id parsed once (region.key)."""
    return Region(rid, kind, shape, role, key=region_key(rid))


def key_of(region: Region) -> RegionKey:
    """The region's key (parsed where the region was made; a region made elsewhere, by a test: now)."""
    return region.key if region.key is not None else region_key(region.id)


def _open_boxes_not_filled(readings, out) -> None:
    """A door box read filled whose inside shows paper between two strokes (the wall and the box's side)
    along at least half of it, on either half, is an open door drawn with wide strokes: their flanks
    darken the strips a filled box is read by.  Asked for by tests/test_scan_exploration_inside.py."""
    from dataclasses import replace
    for rid, r in readings.items():
        if r.region.role != INSIDE or not r.marked:
            continue
        x, y = key_of(r.region).cells[0]
        fill_id = f"fill-{x}-{y}-{key_of(r.region).side}"
        fill = out.get(fill_id)
        if fill is not None and fill.marked:
            out[fill_id] = replace(fill, value=EMPTY, confidence=min(fill.confidence, REFINED))


REFINE_PASSES = (_open_boxes_not_filled,)


class ExplorationScanner(GameScanner):
    game = "exploration"
    light_closing = True        # a soft shadow's edge across the page: no band of darker paper beside it
    deferred = (INSIDE,)        # read only where refine asks: the door boxes read filled

    def playable(self, loaded) -> bool:
        return loaded.kind == "sheet" and loaded.definition.model.sheet == "graph"

    def grid(self, sheet) -> Grid:
        cached = getattr(sheet, "_grid", None)
        if cached is None:
            from sheetgen.scan.geometry import placed
            where = placed(sheet.page.items)
            d = sheet.loaded.definition
            x, y, w, h = where["sheet-edge"].rect
            cached = Grid(x, y, w / d.width, d.width, d.height)
            sheet._grid = cached
            sheet._where = where
        return cached

    def regions(self, sheet) -> list[Region]:
        g = self.grid(sheet)
        out = []
        sq = g.sq
        off, half = 0.98 * sq / 7.0, 0.2 * sq       # the door box's side: where door_mark draws it at 7 mm squares
        for x, y, side in edges(g):
            x1, y1, x2, y2 = g.edge(x, y, side)
            t = 0.15
            a = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, x1 + (x2 - x1) * (1 - t), y1 + (y2 - y1) * (1 - t))
            out.append(_region(f"edge-{x}-{y}-{side}", LINE, LineShape(*a, band=EDGE_BAND, black=EDGE_BLACK), "wall"))
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            # the box's side beyond the edge (below it, right of it), read with its twin inside square x,y
            o = DOOR_OUT * off
            # each half of the box read across, from the wall's middle to a little beyond its side (INSIDE)
            across = INSIDE_REACH * o
            if side == "S":
                out.append(_region(f"door-{x}-{y}-{side}", LINE, LineShape(mx - half, my + o, mx + half, my + o, band=0.9,
                                                                          share=DOOR_SHARE, twin=-2 * o), "door"))
                for n, sign in ((1, 1), (2, -1)):
                    out.append(_region(f"inside-{x}-{y}-{side}-{n}", LINE,
                                       LineShape(mx - half, my + sign * across / 2, mx + half, my + sign * across / 2,
                                                 band=across, valley=True), INSIDE))
                out.append(_region(f"fill-{x}-{y}-{side}", FILL,
                                  FillShape(x=mx - half, y=my + 0.56 * off, w=2 * half, h=0.26 * off, mean=FILLED_DOOR,
                                            dx=0.0, dy=-1.38 * off), "explored door"))
            else:
                out.append(_region(f"door-{x}-{y}-{side}", LINE, LineShape(mx + o, my - half, mx + o, my + half, band=0.9,
                                                                          share=DOOR_SHARE, twin=2 * o), "door"))
                for n, sign in ((1, 1), (2, -1)):
                    out.append(_region(f"inside-{x}-{y}-{side}-{n}", LINE,
                                       LineShape(mx + sign * across / 2, my - half, mx + sign * across / 2, my + half,
                                                 band=across, valley=True), INSIDE))
                out.append(_region(f"fill-{x}-{y}-{side}", FILL,
                                  FillShape(x=mx + 0.56 * off, y=my - half, w=0.26 * off, h=2 * half, mean=FILLED_DOOR,
                                            dx=-1.38 * off, dy=0.0), "explored door"))
        for y in range(1, g.rows + 1):
            for x in range(1, g.cols + 1):
                left, top = g.corner(x, y)
                out.append(_region(f"note-{x}-{y}", AREA,
                                  AreaShape(x=left + 0.3 * sq, y=top + 0.38 * sq, w=0.4 * sq, h=0.34 * sq, mean=NOTE_MARKED,
                                            around=NOTE_AROUND * sq, gap=NOTE_GAP * sq), "room number"))
        for pid, p in sheet._where.items():
            if re.match(r"^time-\d+$", pid):
                x, y, w, h = p.rect
                out.append(_region(pid, BOX, BoxShape(x=x, y=y, w=w, h=h), "time box"))
        return out

    def place(self, region: Region) -> str:
        key = key_of(region)
        if key.prefix == "time":
            return f"time box {key.number}"
        x, y = key.cells[0]
        side = {"E": "east", "S": "south"}.get(key.side, key.side)
        return {"edge": f"the wall on square {x},{y}'s {side} side",
                "door": f"a door on square {x},{y}'s {side} side",
                "fill": f"the door on square {x},{y}'s {side} side, filled in (explored)",
                "inside": f"the inside of the door box on square {x},{y}'s {side} side",
                "note": f"a room's number in square {x},{y}"}.get(key.prefix, f"{region.role} {region.id}")

    def wanted(self, sheet, readings) -> set[str]:
        """The insides of the door boxes read filled (refine's _open_boxes_not_filled)."""
        out = set()
        for rid, r in readings.items():
            if r.marked and r.region.role == "explored door":
                x, y = key_of(r.region).cells[0]
                side = key_of(r.region).side
                out.update(f"inside-{x}-{y}-{side}-{n}" for n in (1, 2))
        return out

    def refine(self, sheet, readings):
        """The readings once REFINE_PASSES have run, in order, each a small function saying what it
        corrects and the test that asked for it; the regions only refine reads (INSIDE) left out.
        A reading a pass changes takes a low confidence (REFINED: listed to check)."""
        out = {rid: r for rid, r in readings.items() if r.region.role != INSIDE}
        for refine_pass in REFINE_PASSES:
            refine_pass(readings, out)
        return out

    def interpret(self, sheet, readings) -> ExplorationView:
        g = self.grid(sheet)
        view = ExplorationView()
        marked = [rid for rid, r in readings.items() if r.value != EMPTY]     # a few hundred of thousands
        fills = []
        for rid in marked:
            key = key_of(readings[rid].region)
            kind = key.prefix
            if kind == "time":
                view.time += 1
                continue
            if kind == "note":
                view.numbered.add(key.cells[0])
                continue
            e = (*key.cells[0], key.side)
            if kind == "edge":
                view.walls.add(e)
            elif kind == "door":
                view.doors[e] = "open"
                view.walls.add(e)               # a door sits on a wall
            elif kind == "fill":
                fills.append(e)
        for e in fills:
            if e in view.doors:
                view.doors[e] = "explored"
        # a room is what the walls enclose with its number written in (not a pocket between rooms)
        view.rooms = [r for r in enclosed(view.walls, g.cols, g.rows) if r & view.numbered]
        return view

    def expected_values(self, sheet, expected: ExplorationView) -> dict[str, str]:
        out = {}
        for region in self.regions(sheet):
            key = key_of(region)
            kind = key.prefix
            if kind == "time":
                out[region.id] = CROSSED if key.number <= expected.time else EMPTY
                continue
            if kind == "note":
                out[region.id] = MARKED if key.cells[0] in expected.numbered else EMPTY
                continue
            e = (*key.cells[0], key.side)
            if kind == "edge":
                if e in expected.doors:
                    continue                    # under a door box: the door's, not a wall's reading
                out[region.id] = MARKED if e in expected.walls else EMPTY
            elif kind == "door":
                out[region.id] = MARKED if e in expected.doors else EMPTY
            elif kind == "fill":
                out[region.id] = FILLED if expected.doors.get(e) == "explored" else EMPTY
        return out

    def check(self, sheet, view: ExplorationView) -> list:
        from sheetgen.games.base import broken
        from .rules import Sheet, at_bottom_centre
        g = self.grid(sheet)
        out = []
        owner = {}
        for i, room in enumerate(view.rooms):
            for c in room:
                owner[c] = i
        for e in sorted(view.doors):
            x, y, side = e
            a = (x, y)
            b = (x + 1, y) if side == "E" else (x, y + 1)
            if a not in owner and b not in owner:
                out.append(broken("scan.door-wall", f"a door at {edge_name(e)} is on no room's wall"))
            elif a in owner and b in owner and view.doors[e] != "explored":
                out.append(broken("scan.door-state", f"the door at {edge_name(e)} joins two rooms but is not drawn "
                                  "explored (filled in)"))
        if view.rooms:
            sheet_model = Sheet(g.cols, g.rows)
            entrances = [r for r in view.rooms if at_bottom_centre(sheet_model, r)]
            if not entrances:
                out.append(broken("scan.entrance", "no room touches the bottom edge in the middle: the entrance "
                                  "is drawn at the bottom centre of the sheet"))
            for i, room in enumerate(view.rooms):
                if room in entrances[:1]:
                    continue
                doors = [e for e in view.doors if _sides(e) & room]
                if not any(owner.get(c) not in (None, i) for e in doors for c in _sides(e)):
                    cells = sorted(room, key=lambda c: (c[1], c[0]))
                    out.append(broken("scan.room-door", f"the room at {', '.join(f'{x},{y}' for x, y in cells[:4])}"
                                      f"{' ...' if len(cells) > 4 else ''} has no door to another room"))
        return out

    # -- against a play log ------------------------------------------------------------------
    def mismatch(self, sheet, record) -> str | None:
        log = record.definition
        g = self.grid(sheet)
        if (log.width, log.height) != (g.cols, g.rows):
            return f"the log plays a {log.width}x{log.height} sheet; the photo shows {g.cols}x{g.rows}"
        return None

    def expected(self, sheet, record) -> ExplorationView:
        log = record.definition
        view = ExplorationView()
        rooms = []
        for room in log.model.rooms:
            try:
                cells = frozenset(_cell(c) for c in room.cells)
            except (ValueError, IndexError):
                continue
            rooms.append(cells)
            view.walls |= outline(cells)
            for d in room.doors or []:
                try:
                    cell, side = str(d.at).split(":")
                    e = canonical(*_cell(cell), side.strip().upper())
                except (ValueError, KeyError):
                    continue
                view.doors[e] = "explored" if d.state == "explored" else "open"
                view.walls.add(e)
        g = self.grid(sheet)
        view.numbered = {label_square(r) for r in rooms if r}
        view.rooms = [r for r in enclosed(view.walls, g.cols, g.rows) if r & view.numbered]
        end = getattr(log.model, "end", None)
        minutes = getattr(end, "minutes", None) if end is not None else None
        view.time = int(minutes) // 10 if minutes else len(rooms)
        return view

    def compare(self, sheet, view: ExplorationView, expected: ExplorationView) -> list[Difference]:
        out = []

        def name(room):
            cells = sorted(room, key=lambda c: (c[1], c[0]))
            return ", ".join(f"{x},{y}" for x, y in cells[:4]) + (" ..." if len(cells) > 4 else "")
        got, want = set(view.rooms), set(expected.rooms)
        for room in sorted(got - want, key=lambda r: min(r)):
            out.append(Difference(f"room {name(room)}", f"a room penciled at {name(room)}: no room of the log is there"))
        for room in sorted(want - got, key=lambda r: min(r)):
            out.append(Difference(f"room {name(room)}", f"the log's room at {name(room)} is not penciled as drawn"))
        for e in sorted(set(view.doors) | set(expected.doors)):
            a, b = view.doors.get(e), expected.doors.get(e)
            if a == b:
                continue
            if a is None:
                out.append(Difference(f"door {edge_name(e)}", f"door {edge_name(e)}: in the log ({b}), not on paper"))
            elif b is None:
                out.append(Difference(f"door {edge_name(e)}", f"door {edge_name(e)} on paper, not in the log"))
            else:
                out.append(Difference(f"door {edge_name(e)}", f"door {edge_name(e)}: paper {a}, log {b}"))
        if view.time != expected.time:
            out.append(Difference("time", f"paper: time boxes {view.time}, log: {expected.time}"))
        return out

    # -- for the photo simulator ------------------------------------------------------------------
    def record_sheet_ref(self, record):
        log = record.definition
        return f"exploration-sheet-{log.width}x{log.height}", ()

    def penciled(self, sheet, record, rng) -> tuple:
        """The graph sheet with the log's rooms drawn: walls round every room, the doors (filled
        when explored, an S when secret), each room's number, the time boxes crossed."""
        import copy
        from sheetgen.draw.model import Group, Line, Style
        g = self.grid(sheet)
        page = copy.deepcopy(sheet.document.pages[sheet.identity.page - 1])
        expected = self.expected(sheet, record)
        wall = Style(stroke="#3a3a3a", stroke_width=0.7, cap="round")
        items = []
        for e in sorted(expected.walls):
            items.append(Line(*g.edge(*e), wall, cls="pencil wall"))
        for e, state in sorted(expected.doors.items()):
            items.append(_door_box(g, e, state))
        log = record.definition
        for room in log.model.rooms:
            try:
                cells = [_cell(c) for c in room.cells]
            except (ValueError, IndexError):
                continue
            if not cells:
                continue
            items.append(_number(g, label_square(cells), str(room.id)))
        where = sheet._where
        for i in range(1, expected.time + 1):
            p = where.get(f"time-{i}")
            if p is None:
                break
            items.append(_crossed(p.rect))
        page.add(Group(tuple(items), id="pencil", cls="pencil"))
        return page, []

    def tamper(self, sheet, page, marks):
        """Marks the log does not explain: ('wall', 'x,y:S'), a door box drawn ('door', 'x,y:S')
        or drawn filled in ('explored door', 'x,y:S'), a number written in a square ('number', 'x,y'),
        a time box crossed ('time box', 'N')."""
        from dataclasses import replace
        from sheetgen.draw.model import Group, Line, Style
        g = self.grid(sheet)
        extra = []
        for kind, what in marks:
            if kind == "number":
                extra.append(_number(g, _cell(what), "7"))
                continue
            if kind == "time box":
                extra.append(_crossed(sheet._where[f"time-{int(what)}"].rect))
                continue
            cell, side = what.split(":")
            e = canonical(*_cell(cell), side)
            if kind == "wall":
                extra.append(Line(*g.edge(*e), Style(stroke="#3a3a3a", stroke_width=0.7, cap="round"),
                                  cls="pencil wall"))
            elif kind in ("door", "explored door"):
                extra.append(_door_box(g, e, "explored" if kind == "explored door" else "open"))
        page.items = [replace(i, items=i.items + tuple(extra)) if isinstance(i, Group) and i.id == "pencil" else i
                      for i in page.items]
        return page


def _illegal_marks(self, sheet, expected: ExplorationView, rng) -> list:
    """A door box drawn on an edge of no room's wall (scan.door-wall), between squares clear of every
    room and of the squares around them; a room of one square, numbered, with no door (scan.room-door)."""
    from sheetgen.scan.contract import IllegalMark
    g = self.grid(sheet)
    taken = {c for room in expected.rooms for c in room} | {c for e in expected.walls | set(expected.doors)
                                                             for c in _sides(e)}
    near = {(x + dx, y + dy) for x, y in taken for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    out = []
    clear = [e for e in edges(g) if not _sides(e) & near]
    if clear:
        e = rng.choice(clear)
        x, y, side = e
        out.append(IllegalMark((("door", edge_name(e)),), ("scan.door-wall",), f"a door at {edge_name(e)}",
                               (f"door-{x}-{y}-{side}",)))
    # a room of one square walled all round, its number written in, with no door: clear of the others
    # (and of the sheet's border and bottom row, where the entrance room goes)
    squares = [(x, y) for y in range(2, g.rows) for x in range(2, g.cols) if (x, y) not in near]
    if squares:
        x, y = rng.choice(squares)
        walls = tuple(("wall", f"{x},{y}:{side}") for side in "NESW")
        out.append(IllegalMark(walls + (("number", f"{x},{y}"),), ("scan.room-door",), f"the room at {x},{y}",
                               (f"note-{x}-{y}",)))
    return out


ExplorationScanner.illegal_marks = _illegal_marks


def _door_box(g: Grid, e, state: str):
    """A door penciled on edge e as door_mark draws one: a box across the wall, filled when explored."""
    from sheetgen.draw.model import Rect, Style
    x1, y1, x2, y2 = g.edge(*e)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    long, thick = g.sq * 0.55, max(g.sq * 0.28, 0.9)
    w, h = (long, thick) if e[2] == "S" else (thick, long)
    fill = "#3a3a3a" if state == "explored" else "#ffffff"
    return Rect(mx - w / 2, my - h / 2, w, h, Style(stroke="#3a3a3a", stroke_width=0.35, fill=fill), cls="pencil door")


def _crossed(rect):
    """A box crossed out in pencil."""
    from sheetgen.draw.model import Group, Line, Style
    x, y, w, h = rect
    d = 0.2
    cross = Style(stroke="#3a3a3a", stroke_width=0.45, cap="round")
    return Group((Line(x + w * d, y + h * d, x + w * (1 - d), y + h * (1 - d), cross),
                  Line(x + w * (1 - d), y + h * d, x + w * d, y + h * (1 - d), cross)), cls="pencil cross")


def _number(g: Grid, square, text: str):
    """A room's number penciled in a square."""
    from sheetgen.draw.model import Text
    left, top = g.corner(*square)
    return Text(left + g.sq / 2, top + g.sq * 0.68, text, size=6.5, font="sans", anchor="middle", fill="#3a3a3a",
                cls="pencil number")


def label_square(cells) -> tuple[int, int]:
    """The square nearest the middle of a room, where its number is written (as sheets.py does)."""
    cells = list(cells)
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))


def _sides(e) -> set:
    x, y, side = e
    return {(x, y), (x + 1, y) if side == "E" else (x, y + 1)}


SCANNER = ExplorationScanner()

"""Dungeon Foury's scan side (`SCANNER`): which sheets are played on, their regions by the
drawing model's ids, what the pencil on them means, and the checks.

Regions (sheetgen.scan.contract), by the ids of sheets/map.py and sheets/character.py:
- on the map, for every cell `cell-C4` but rock: the visited dot (DOT `cell-C4`), the crossed-out
  collapsed room (LINE `room-C4`, the lower right arm of the cross; `arm-C4`, its upper left arm,
  consulted by refine where an icon hides the lower right one, and `inner-C4`, that arm between the
  foe's place and the dot read by its centre band, in rooms with items; never shown), a foe's letter written in
  (AREA `monster-C4`), an item struck through (LINE `struck-C4`, cells with printed items), a
  flooded room's waves (LINE `flood-C4`, maps whose water spreads); for every edge between two
  cells but printed walls: a wall penciled (LINE `wall-C4-E`, `wall-C4-S`) and the path across it
  (LINE `path-C4-D4`), and its place again read by its centre band against its sides (LINE
  `centre-C4-D4`, refine's: a faint thin stroke; never shown); at every entry arrow `entry-C1-N`: the arrow blacked out (FILL) and the
  path from it (LINE `path-C1-N`); between two magic circles the jump (LINE `jump-A9-K5`); from a
  room with stairs to every room beside a lever (not beside the stairs, nor on their row or column)
  the stairs line (LINE `stairs-I3-D5`: the hero climbed, pulled the lever, went on from its room;
  the pencil draws the stairs' room to the room entered), and for every line region it crosses its
  part clear of it (LINE `path-F4-G4@stairs-I3-D5`, read by refine where the line is penciled, never
  shown);
- on the character sheet(s) (ids prefixed `p2-` ... on several-sheet pages): every box of the
  tracks (`track-hearts-3`, `track-turns-12` ...), the Fury skulls (FILL), the requirement boxes
  and the Oracle and exit circles (`req-A-1`, `req-A-oracle`), the round markers
  (`chest-round-2`), Santa's collection and the INSERT COIN box.  Boxes printed blacked out
  (caps) take no pencil and are not read.

The expected view of a play log is read off the pencil drawing of it (sheets/pencil.py) by the
same ids and places, so the scanner and the pencil always mean the same thing.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from sheetgen.errors import InputError
from sheetgen.scan.contract import (BOX, CROSSED, DOT, EMPTY, FILL, FILLED, LINE, MARKED, AREA, AreaShape, BoxShape,
                                    Difference, DotShape, FillShape, GameScanner, LineShape, Region, RegionKey,
                                    SheetView)

if TYPE_CHECKING:                   # numpy is the scan extra's: building a sheet (playable()) needs none of it
    import numpy as np

BOX_RE = re.compile(r"^(p\d+-)?(track-[a-z-]+-\d+|req-[A-Z]-(?:\d+|oracle|exit)|chest-round-\d+|monster-round-\d+|"
                    r"insert-coin-box|collect-[a-z-]+-\d+|safe-zone)$")
CELL_RE = re.compile(r"^cell-([A-Z]\d+)$")
ENTRY_RE = re.compile(r"^entry-([A-Z]\d+)-([NESW])$")
LABEL_RE = re.compile(r"^letter-([A-Z]\d+)$")        # a room's printed zone letter (sheets/map.py)
# a region id's grammar (region_key): what each kind of id names, after the boxes' BOX_RE
_KEY_FORMS = (
    re.compile(r"^(cell|room|printed|arm|monster|struck|inner|flood|beside)-([A-Z]\d+)()$"),    # of one room
    re.compile(r"^(letter)-([A-Z]\d+)-(N|W|NW)$"),          # a foe's place clear of the walls on these sides
    re.compile(r"^(wall|entry|path)-([A-Z]\d+)-([NESW])$"),  # on a room's side (a path from an entry arrow)
    re.compile(r"^(path|centre|jump|stairs)-([A-Z]\d+)-([A-Z]\d+)$"),    # between two rooms
)


def region_key(rid: str) -> RegionKey:
    """A Dungeon Foury region id parsed (ValueError: not one of its forms): 'cell-C4' -> ('cell', ('C4',)),
    'wall-C4-E' -> ('wall', ('C4',), 'E'), 'path-C4-D4' -> ('path', ('C4', 'D4')), 'path-C1-N' -> ('path',
    ('C1',), 'N'), 'letter-C4-NW' -> ('letter', ('C4',), 'NW'), 'p2-track-hearts-3' -> ('track-hearts',
    number 3, page 'p2-'), 'req-A-oracle' -> ('req-A-oracle'), 'path-F4-G4@stairs-I3-D5' -> the path's
    key, clear_of the stairs line's."""
    whole, at, line = rid.partition("@")
    if at:
        return replace(region_key(whole), clear_of=region_key(line))
    m = BOX_RE.match(rid)
    if m:
        page = m.group(1) or ""
        head, _, tail = rid[len(page):].rpartition("-")
        return RegionKey(head, number=int(tail), page=page) if tail.isdigit() else RegionKey(rid[len(page):], page=page)
    for form in _KEY_FORMS:
        m = form.match(rid)
        if m:
            prefix, a, b = m.groups()
            if len(b) > 1 and b[1:].isdigit():          # a second room, not a side
                return RegionKey(prefix, (a, b))
            return RegionKey(prefix, (a,), b)
    raise ValueError(f"{rid!r} is not a Dungeon Foury region id (like cell-C4, wall-C4-E, path-C4-D4, path-C1-N, "
                     "p2-track-hearts-3)")


def key_of(region: Region) -> RegionKey:
    """The region's key (parsed where the region was made; a region made elsewhere, by a test: now)."""
    return region.key if region.key is not None else region_key(region.id)


def _link(key: RegionKey) -> str:
    """A path region's link as a view names it: 'C4-D4' between two rooms, 'C1:N' from an entry arrow."""
    return f"{key.cells[0]}:{key.side}" if key.side else "-".join(key.cells)


# the view's set of rooms each role of a region of one room adds to
_ROOM_SETS = {"visited": "visited", "crossed room": "rooms", "foe written in": "foes", "struck item": "struck",
              "flooded room": "floods"}


_SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
# a room's regions: what the player penciled there
_IN_ROOM = {"cell": "the visited mark in room {}", "room": "the cross over room {}",
            "printed": "the cross over room {}", "arm": "the cross over room {}", "inner": "the cross over room {}",
            "monster": "the foe's letter in room {}", "beside": "the foe's letter in room {}",
            "letter": "the foe's letter in room {}", "struck": "the stroke through room {}'s item",
            "flood": "the flood's waves in room {}"}


def _place(key: RegionKey) -> str:
    """Where a player finds the region of KEY on the map or its tracks (GameScanner.place)."""
    page = f" (sheet {key.page.strip('p-')})" if key.page else ""
    if key.clear_of is not None:
        return f"{_place(replace(key, clear_of=None))}, beside {_place(key.clear_of)}"
    prefix, cells, side = key.prefix, key.cells, _SIDE_WORDS.get(key.side, key.side)
    if prefix in _IN_ROOM:
        return _IN_ROOM[prefix].format(cells[0]) + page
    if prefix == "wall":
        return f"the wall on room {cells[0]}'s {side} side" + page
    if prefix == "entry":
        return f"the arrow on room {cells[0]}'s {side} side, blacked out" + page
    if prefix in ("path", "centre"):
        if len(cells) == 2:
            return f"the path between rooms {cells[0]} and {cells[1]}" + page
        return f"the path in from the arrow on room {cells[0]}'s {side} side" + page
    if prefix == "jump":
        return f"the jump's line between rooms {cells[0]} and {cells[1]}" + page
    if prefix == "stairs":
        return f"the stairs' line from room {cells[0]} to room {cells[1]}" + page
    n = key.number
    if prefix.startswith("track-"):
        return f"box {n} of the {prefix[len('track-'):].replace('-', ' ')} track" + page
    if prefix.startswith("req-"):
        zone = prefix.split("-")[1]
        if n is not None:
            return f"requirement box {n} of zone {zone}" + page
        return f"zone {zone}'s {prefix.split('-')[2]} tick" + page
    if prefix.startswith("collect-"):
        return f"box {n} of the {prefix[len('collect-'):].replace('-', ' ')} collection" + page
    if prefix.endswith("-round"):
        return f"the {prefix[:-len('-round')]}'s round marker {n}" + page
    if prefix == "insert-coin-box":
        return "the insert-coin box" + page
    return "the " + prefix.replace("-", " ") + (f" {n}" if n is not None else "") + page


def _region(rid: str, kind: str, shape, role: str) -> Region:
    """A region with its id parsed once (region.key)."""
    return Region(rid, kind, shape, role, key=region_key(rid))


WALL_BAND = 1.8             # mm across a wall or path line region
TRIM = 0.16                 # of an edge, left out at each end (corners: the next edge's wall)
CROSS_SHARE = 0.7           # of a crossed room's arm penciled (a short arm: a few points, one stray stroke is many)
CROSSING_SHARE = 0.78       # of an item's strike or a flood's wave penciled: the room's other lines cross them
PATH_GAP = 0.43             # of a path's region: its middle, +-0.12 of a cell around the edge it crosses
ARM = "crossed room, other arm"    # the role of a cross's upper left arm (refine reads it, no view shows it)
ARM_BARE = 0.1             # of the upper left arm penciled: none of a cross's stroke there
DOT_OVER_WAVES = 0.3        # a dot read in a room drawn flooded: its waves' crests by the centre read up to about 0.22
CROSS_FAINT = 0.5           # of a crossed room's lower right arm, in view, penciled: the cross's other strokes tell
ARM_SEEN = 0.6              # a crossed room's lower right arm seen less than this (under an icon): the other one tells
STROKES_INSET = 0.7         # mm inside a box's outline its cross's strokes are read (clear of the outline)
STROKES_INSET_CIRCLE = 0.4  # mm inside the square within an Oracle or exit circle
UPPER = "stairs line"        # the line from the stairs to the room entered past a lever (the upper level)
LINES_OVER = ("jump", UPPER)  # the lines drawn across the grid between rooms that are not neighbours
STAIRS_CLEAR = "part clear of a stairs line"  # refine reads a region crossed by a stairs line penciled by it; never shown
WALL_BLACK = 0.18           # mm of black across a wall's band: a wall is a thick line (an erased one is not)
ENTRY_CLEAR = 0.12          # of a cell: the path from an arrow read from this far inside the map's edge
FOE_CLEAR = "foe's place clear of walls"  # the role of the part of a foe's place a penciled wall's ink cannot reach
WALL_REACH = 1.4            # mm into a room a wall penciled on its edge darkens (half its widest stroke, the hand, blur)
CLEAR_SEEN = 0.5            # of that part seen (not under print), or it tells nothing
FOE_BESIDE = "foe's letter beside the zone's letter"  # the role of the part of a foe's letter clear of the print
FOE_WIDE = 0.8              # of the letter's size: how far a wide letter (M, G) written in the foe's place reaches
LABEL_CLEAR = 0.45          # mm right of the printed zone letter its print (and its blur) cannot reach
BESIDE_LEAST = 0.3          # mm: narrower, the part beside the zone letter tells nothing
BESIDE_MARKED = 0.14        # its mean darkness from which a letter's stroke is there (a wide letter's right stem
                            # reads 0.15-0.4; the paper, a shadow, a path's stroke at the centre far under it)
WAVE_CLEAR = 1.1            # mm above a flood's waves' line their crests and strokes cannot reach
ARM_PRINTED = "crossed room, arm as printed"   # the lower right arm seen as printed (refine reads it, never shown)
AS_PRINTED = True           # a LINE seen where the print itself leaves paper (sheetgen.scan.contract)
CENTRE = "path's centre band"   # the role of a path's place read by its centre band against its sides
PATH_CENTRE_DARKER = 0.06   # of the paper's white: a path's centre band darker than this than beside it ...
PATH_CENTRE_SHARE = 0.35    # ... along this share of it: a faint thin stroke, walked where both its rooms are dotted
PATH_RIDGE = True           # a path penciled only where its darkness has a ridge inside the band (read.RIDGE_*): a
                            # flood's waves run beside a path's place, a crayon's wash over it.  Not the narrower
                            # bands (a cross's arm, 1.4 mm; a strike, 1.6): a felt tip's stroke a little off
                            # their axis fills them to an edge, and reads no ridge
INNER_ARM = "crossed room, inner arm"   # the role of a cross's upper left arm between the foe's place and the dot
INNER_SHARE = 0.8           # of it darker along its centre than beside it: a cross's arm (a letter reaches about half)
UNSHOWN = (ARM, FOE_CLEAR, STAIRS_CLEAR, FOE_BESIDE, ARM_PRINTED, CENTRE, INNER_ARM)  # roles refine reads and no view shows


def _role(key: str) -> str:
    key = re.sub(r"^p\d+-", "", key)
    if key.startswith("track-turns"):
        return "hourglass box"
    if key.startswith("track-fury"):
        return "fury box"
    if key.startswith("track-"):
        return "track box"
    if key.endswith("-oracle"):
        return "oracle tick"
    if key.endswith("-exit"):
        return "exit tick"
    if key.startswith("req-"):
        return "requirement box"
    if "round" in key:
        return "round marker"
    if key.startswith("collect") or key == "safe-zone":
        return "collection box"
    return "coin box"


def _dark_fill(item) -> bool:
    style = getattr(item, "style", None)
    fill = getattr(style, "fill", None)
    if not fill or not fill.startswith("#") or len(fill) != 7:
        return False
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 100


@dataclass
class MapLayout:
    """The map's cells on the page: name -> (x, y, size), rock and centre cells, printed walls, entries."""
    cells: dict = field(default_factory=dict)
    rock: set = field(default_factory=set)
    centre: set = field(default_factory=set)
    printed: set = field(default_factory=set)          # canonical 'C4:E' / 'C4:S' edges printed as walls
    entries: dict = field(default_factory=dict)        # 'C1:N' -> (cell, side)
    labels: dict = field(default_factory=dict)         # cell -> (x0, y0, x1, y1) of its printed zone letter
    items: dict = field(default_factory=dict)          # cell -> [item ids]
    size: float = 0.0
    crossings: dict | None = None      # stairs line region id -> [(id of a line region it crosses, id of
                                       # that region's part clear of it, or None)]: map_regions makes it

    @property
    def circles(self) -> list[str]:
        """The cells with a magic circle (a path may jump between any two)."""
        return self._with_item("magic-circle")

    def _with_item(self, item: str) -> list[str]:
        return sorted((c for c, ids in self.items.items() if any(i.endswith(f"-{item}") for i in ids)),
                      key=_cell_order)

    @property
    def upper_lines(self) -> list[tuple[str, str]]:
        """(stairs, room) for every line the pencil may draw over the upper level: from a room with
        stairs to a room beside a lever and not beside the stairs (the hero climbs, pulls the lever
        and goes on from the lever's room; the pencil draws the stairs' room to the room entered).
        Not along a row or a column: there the line is the paths along it to the eye (straight through
        the rooms' dots), and is read as them."""
        out = []
        for stairs in self._with_item("stairs"):
            if stairs in self.rock:
                continue
            rooms = set()
            for lever in self._with_item("lever"):
                for side in "NESW":
                    room = _neighbour_name(lever, side)
                    if room in self.cells and room not in self.rock and room != stairs \
                            and not _adjacent(room, stairs) and not _in_line(room, stairs):
                        rooms.add(room)
            out += [(stairs, room) for room in sorted(rooms, key=_cell_order)]
        return out


def _coord(name: str) -> tuple[int, int]:
    from .board import parse_cell
    return parse_cell(name)


def _name(c) -> str:
    from .board import cell_name
    return cell_name(c)


def canonical_edge(cell: str, side: str) -> str | None:
    """'C4:N' -> 'C3:S': every edge named by the cell to its left or above (None off the map's top/left)."""
    from .board import DELTA, OPPOSITE
    x, y = _coord(cell)
    if side in ("E", "S"):
        return f"{cell}:{side}"
    dx, dy = DELTA[side]
    if x + dx < 0 or y + dy < 0:
        return None
    return f"{_name((x + dx, y + dy))}:{OPPOSITE[side]}"


def map_layout(placed: dict) -> MapLayout:
    out = MapLayout()
    for pid, p in placed.items():
        m = CELL_RE.match(pid)
        if m:
            x0, y0, x1, y1 = p.box
            out.cells[m.group(1)] = (x0, y0, x1 - x0)
            cls = (getattr(p.item, "cls", "") or "").split()
            if "rock" in cls:
                out.rock.add(m.group(1))
            if "centre" in cls:
                out.centre.add(m.group(1))
    if out.cells:
        out.size = min(s for _, _, s in out.cells.values())
    for pid in placed:
        if pid.startswith("wall-") and pid.count("-") == 2:
            _, cell, side = pid.split("-")
            if cell in out.cells and side in "NESW":
                key = canonical_edge(cell, side)
                if key:
                    out.printed.add(key)
        m = ENTRY_RE.match(pid)
        if m and m.group(1) in out.cells:
            out.entries[f"{m.group(1)}:{m.group(2)}"] = (m.group(1), m.group(2))
        if pid.startswith("item-"):
            cell = pid.split("-")[1]
            if cell in out.cells:
                out.items.setdefault(cell, []).append(pid)
        m = LABEL_RE.match(pid)
        if m and m.group(1) in out.cells:
            out.labels[m.group(1)] = placed[pid].box
    return out


def _neighbour_name(cell: str, side: str) -> str | None:
    from .board import DELTA
    x, y = _coord(cell)
    dx, dy = DELTA[side]
    if x + dx < 0 or y + dy < 0:
        return None
    return _name((x + dx, y + dy))


def _edge_line(layout: MapLayout, cell: str, side: str):
    x, y, s = layout.cells[cell]
    return {"N": (x, y, x + s, y), "S": (x, y + s, x + s, y + s),
            "W": (x, y, x, y + s), "E": (x + s, y, x + s, y + s)}[side]


def _centre(layout: MapLayout, cell: str):
    x, y, s = layout.cells[cell]
    return (x + s / 2, y + s / 2)


def _trim(x1, y1, x2, y2, a, b):
    return (x1 + (x2 - x1) * a, y1 + (y2 - y1) * a, x1 + (x2 - x1) * b, y1 + (y2 - y1) * b)


def map_regions(layout: MapLayout, floods: bool) -> list[Region]:
    out: list[Region] = []
    from .board import DELTA
    for cell, (x, y, s) in sorted(layout.cells.items()):
        if cell in layout.rock:
            continue
        cx, cy = x + s / 2, y + s / 2
        out.append(_region(f"cell-{cell}", DOT, DotShape(cx=cx, cy=cy, r=max(0.5, s * 0.07)), "visited"))
        # the cross's lower right arm, clear of the walls on the east and south edges (their pencil
        # reaches into the cell) and of the paths and the dot at the centre
        lower_right = (x + 0.63 * s, y + 0.63 * s, x + 0.82 * s, y + 0.82 * s)
        out.append(_region(f"room-{cell}", LINE, LineShape(*lower_right, band=1.4, share=CROSS_SHARE), "crossed room"))
        # the same arm seen as printed: where an icon's small dark parts along it (a die's pips on its
        # diagonal) leave the print itself no paper, however soft the photo makes them, refine reads
        # the cross by its other strokes
        out.append(_region(f"printed-{cell}", LINE, LineShape(*lower_right, band=1.4, share=CROSS_SHARE,
                                                             as_printed=AS_PRINTED), ARM_PRINTED))
        # its mirror, the upper left arm, where an icon hides the lower right one: it runs through the
        # foe's place and the zone's tab, so it never reads the room, only tells refine that a cross may
        # be what the foe's place shows
        out.append(_region(f"arm-{cell}", LINE, LineShape(x + 0.18 * s, y + 0.18 * s, x + 0.37 * s, y + 0.37 * s,
                                                         band=1.4, share=CROSS_SHARE), ARM))
        fs = max(6.5, s * 0.9) * 0.3528
        foe = AreaShape(x=x + 0.08 * s, y=y + 0.32 * s - fs * 0.72, w=fs * 0.62, h=fs * 0.72)
        out.append(_region(f"monster-{cell}", AREA, foe, "foe written in"))
        beside = _beside_label(layout, cell, foe, fs, floods)
        if beside is not None:
            out.append(beside)
        # the foe's place less what a wall penciled on the room's north or west edge (or both) darkens:
        # refine reads the letter there where such a wall reads penciled
        walled = {"N": _neighbour_name(cell, "N"), "W": _neighbour_name(cell, "W")}
        walled = {side: n for side, n in walled.items() if n in layout.cells and n not in layout.rock
                  and canonical_edge(cell, side) not in layout.printed
                  and not (cell in layout.centre and n in layout.centre)}
        for sides in ("N", "W", "NW"):
            if all(side in walled for side in sides):
                x0 = max(foe.x, x + WALL_REACH) if "W" in sides else foe.x
                y0 = max(foe.y, y + WALL_REACH) if "N" in sides else foe.y
                out.append(_region(f"letter-{cell}-{sides}", AREA,
                                  AreaShape(x=x0, y=y0, w=foe.x + foe.w - x0, h=foe.y + foe.h - y0), FOE_CLEAR))
        if layout.items.get(cell):
            out.append(_region(f"struck-{cell}", LINE, LineShape(x + 0.15 * s, y + 0.85 * s, x + 0.85 * s, y + 0.15 * s,
                                                                band=1.6), "struck item"))
            # the cross's upper left arm between the foe's place and the dot, clear of the paths to the
            # centre, read by its centre band: refine reads it where an icon hides the lower right arm
            out.append(_region(f"inner-{cell}", LINE, LineShape(x + 0.27 * s, y + 0.27 * s, x + 0.41 * s, y + 0.41 * s,
                                                               band=1.4, share=INNER_SHARE, centre=PATH_CENTRE_DARKER),
                              INNER_ARM))
        if floods:
            # seen as printed: waves over an icon's detail show no pencil however soft the photo makes it
            out.append(_region(f"flood-{cell}", LINE, LineShape(x + 0.17 * s, y + 0.35 * s, x + 0.83 * s, y + 0.35 * s,
                                                               band=2.0, as_printed=AS_PRINTED), "flooded room"))
        for side in ("E", "S"):
            other = _neighbour_name(cell, side)
            if other not in layout.cells or other in layout.rock:
                continue
            key = f"{cell}:{side}"
            if not (cell in layout.centre and other in layout.centre) and key not in layout.printed:
                out.append(_region(f"wall-{cell}-{side}", LINE,
                                  LineShape(*_trim(*_edge_line(layout, cell, side), TRIM, 1 - TRIM), band=WALL_BAND,
                                            black=WALL_BLACK), "wall"))
            a, b = _centre(layout, cell), _centre(layout, other)
            # the middle, where a wall penciled on the edge crosses the path, is not read
            between = _trim(*a, *b, 0.22, 0.78)
            out.append(_region(f"path-{cell}-{other}", LINE, LineShape(*between, band=WALL_BAND, gap=PATH_GAP,
                                                                      ridge=PATH_RIDGE), "path"))
            # the same place read by its centre band against its sides: a faint thin stroke there
            out.append(_region(f"centre-{cell}-{other}", LINE, LineShape(*between, band=WALL_BAND, gap=PATH_GAP,
                                                                        share=PATH_CENTRE_SHARE,
                                                                        centre=PATH_CENTRE_DARKER), CENTRE))
    circles = layout.circles
    for i, a in enumerate(circles):
        for b in circles[i + 1:]:
            out.append(_region(f"jump-{a}-{b}", LINE, LineShape(*_trim(*_centre(layout, a), *_centre(layout, b), 0.2, 0.8),
                                                              band=WALL_BAND), "jump"))
    uppers = [_region(f"stairs-{stairs}-{room}", LINE,
                     LineShape(*_trim(*_centre(layout, stairs), *_centre(layout, room), 0.2, 0.8), band=WALL_BAND), UPPER)
              for stairs, room in layout.upper_lines]
    layout.crossings = {}
    for line in uppers:
        crossed = layout.crossings[line.id] = []
        # the parts clear of an earlier line are crossed by a later one too (read like any line region)
        for region, part in _clear_parts([r for r in out if r.kind == LINE and r.role not in (ARM, ARM_PRINTED, CENTRE,
                                                                                  INNER_ARM)], line):
            crossed.append((region.id, part and part.id))
            if part:
                out.append(part)
    out += uppers
    for key, (cell, side) in sorted(layout.entries.items()):
        x1, y1, x2, y2 = _edge_line(layout, cell, side)
        s = layout.cells[cell][2]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dx, dy = DELTA[side]                     # outwards
        px, py = -dy, dx
        # from ENTRY_CLEAR in: the map's outer edge is a thick printed line, and within a millimetre
        # of it (its blur, the print's tolerance) a pencil line reads faint; up to clear of the dot
        a = (mx - dx * ENTRY_CLEAR * s, my - dy * ENTRY_CLEAR * s)
        b = (mx - dx * 0.34 * s, my - dy * 0.34 * s)
        out.append(_region(f"path-{cell}-{side}", LINE, LineShape(*a, *b, band=WALL_BAND, ridge=PATH_RIDGE), "path"))
        # the blacked-out arrow: a box across the triangle, outside the edge
        near, far = 0.23 * s, 0.33 * s
        half = 0.09 * s
        xs = [mx + dx * near + px * half, mx + dx * far - px * half]
        ys = [my + dy * near + py * half, my + dy * far - py * half]
        out.append(_region(f"entry-{cell}-{side}", FILL,
                          FillShape(x=min(xs), y=min(ys), w=max(xs) - min(xs), h=max(ys) - min(ys)), "used arrow"))
    return out


def _beside_label(layout: MapLayout, cell: str, foe: AreaShape, fs: float, floods: bool) -> Region | None:
    """The part of a foe's letter clear of the room's printed zone letter (the foe's place is written
    over it: most of the place is under its print, a wide letter's right part is not), clear of the
    walls penciled on the north edge and of a flood's waves' crests; None where an icon is beside the
    zone letter (its print there) or too little is left."""
    label = layout.labels.get(cell)
    if label is None or layout.items.get(cell):
        return None
    x, y, s = layout.cells[cell]
    x0, x1 = label[2] + LABEL_CLEAR, foe.x + FOE_WIDE * fs
    y0, y1 = max(foe.y, y + WALL_REACH), foe.y + foe.h
    if floods:
        y1 = min(y1, y + 0.35 * s - WAVE_CLEAR)
    if x1 - x0 < BESIDE_LEAST or y1 - y0 < BESIDE_LEAST:
        return None
    return _region(f"beside-{cell}", AREA, AreaShape(x=x0, y=y0, w=x1 - x0, h=y1 - y0, mean=BESIDE_MARKED), FOE_BESIDE)


CLEAR_REACH = 0.7           # mm beyond a region's half band a stairs line's stroke may reach (its width, the hand)
CLEAR_LEAST = 1.2           # mm: a region's part clear of a stairs line shorter than this tells nothing
CLEAR_SAMPLES = 48
CLEAR_CROSSED = 0.12        # of a region's length within a stairs line's reach: less is too little ink to read


def _clear_parts(regions: list[Region], line: Region) -> list[tuple[Region, Region | None]]:
    """Every LINE region a stairs line's stroke (its whole length, centre to centre) crosses, with
    its longest part clear of the stroke as a region of its own (role STAIRS_CLEAR, id
    'REGION@LINE'), or None where the line runs along all of it. A region the line does not reach,
    or reaches only at a tip, is left out. Sampled at CLEAR_SAMPLES + 1 points along each region,
    all regions at once."""
    if not regions:
        return []
    import numpy as np
    whole = _between_centres(line.shape)
    geo = np.array([(*r.shape.ends, r.shape.band) for r in regions], dtype=float)
    x1, y1, x2, y2, band = geo.T
    reach = band / 2 + CLEAR_REACH
    # apart by more than the reach along x or y: no point of the region is within reach of the line
    near = ~((np.minimum(x1, x2) - max(whole[0], whole[2]) > reach)
             | (min(whole[0], whole[2]) - np.maximum(x1, x2) > reach)
             | (np.minimum(y1, y2) - max(whole[1], whole[3]) > reach)
             | (min(whole[1], whole[3]) - np.maximum(y1, y2) > reach))
    idx = np.flatnonzero(near)
    if not len(idx):
        return []
    gaps = np.array([regions[i].shape.gap or 0.0 for i in idx])
    t = np.linspace(0.0, 1.0, CLEAR_SAMPLES + 1)
    far = _distances(x1[idx, None] + (x2 - x1)[idx, None] * t, y1[idx, None] + (y2 - y1)[idx, None] * t,
                     whole) > reach[idx, None]
    left_out = np.abs(t - 0.5)[None, :] < gaps[:, None] / 2        # the middle a path leaves out
    crossed = (~far & ~left_out).sum(axis=1) >= CLEAR_CROSSED * (~left_out).sum(axis=1)   # else at a tip only
    out = []
    for n in np.flatnonzero(crossed):
        region = regions[idx[n]]
        clear = np.where(left_out[n], None, far[n]).tolist()
        out.append((region, _longest_clear(region, line, clear)))
    return out


def _longest_clear(region: Region, line: Region, clear: list) -> Region | None:
    """The longest run of samples clear of the line (True; None: left out, False: under it) as a
    region, or None if it is shorter than CLEAR_LEAST."""
    g = region.shape
    x1, y1, x2, y2 = g.ends
    best, run = (0, -1), None
    for i, c in enumerate(clear + [None]):
        if c:
            run = i if run is None else run
            continue
        if run is not None and i - 1 - run > best[1] - best[0]:
            best = (run, i - 1)
        run = None
    a, b = best[0] / CLEAR_SAMPLES, best[1] / CLEAR_SAMPLES
    if b <= a or (b - a) * math.hypot(x2 - x1, y2 - y1) < CLEAR_LEAST:
        return None
    # the part is read as the region is, but whole (a path's middle left out is where the part is not)
    px1, py1, px2, py2 = _trim(x1, y1, x2, y2, a, b)
    return _region(f"{region.id}@{line.id}", LINE, replace(g, x1=px1, y1=py1, x2=px2, y2=py2, gap=None), STAIRS_CLEAR)


def box_regions(placed: dict) -> list[Region]:
    out = []
    for pid, p in placed.items():
        if not BOX_RE.match(pid):
            continue
        if _dark_fill(p.item):
            continue                        # a cap: printed blacked out, never penciled
        role = _role(pid)
        kind = FILL if role == "fury box" else BOX
        x, y, w, h = p.rect
        inset: float = STROKES_INSET
        if pid.endswith("-oracle") or pid.endswith("-exit"):
            # a circle: read the square inside it (its corners touch the ring: the strokes well inside)
            k = 0.15 * w
            x, y, w, h = x + k, y + k, w - 2 * k, h - 2 * k
            inset = STROKES_INSET_CIRCLE
        # every box is penciled with a cross (sheets/pencil.py): read by its strokes, not its mean
        # darkness (a rubber's residue, paper a shade dark, a printed grey cross mislead the mean)
        shape = BoxShape(x=x, y=y, w=w, h=h, strokes=inset) if kind == BOX else FillShape(x=x, y=y, w=w, h=h)
        out.append(_region(pid, kind, shape, role))
    return sorted(out, key=lambda r: r.id)


# -- what a sheet shows -----------------------------------------------------------------------------
@dataclass
class FouryView(SheetView):
    boxes: dict = field(default_factory=dict)       # box region id -> CROSSED / FILLED (marked boxes only)
    walls: set = field(default_factory=set)         # 'C4:E'
    path: set = field(default_factory=set)          # 'C4-D4' (cells in reading order), 'C1:N' (from an arrow),
                                                    # 'A9~K5' (a jump between magic circles)
    visited: set = field(default_factory=set)
    rooms: set = field(default_factory=set)         # collapsed rooms crossed out
    struck: set = field(default_factory=set)        # cells with an item struck through
    foes: set = field(default_factory=set)          # cells with a foe written in
    floods: set = field(default_factory=set)
    arrows: set = field(default_factory=set)        # arrows blacked out ('C1:N')
    upper: set = field(default_factory=set)         # 'I3-D5': the line from the stairs (I3) to the room
                                                    # entered past a lever (the upper level walked)
    unread: set = field(default_factory=set, compare=False)    # path links under print too dark to read
                                                    # or under a jump's line ('C4-D4', 'C1:N'): the
                                                    # paper's checks cannot tell them missing
    unseen: set = field(default_factory=set, compare=False)    # rooms whose dot is under print too dark
                                                    # to read

    def tracks(self) -> dict[str, list[int]]:
        """'hearts' (or 'p2-hearts') -> the numbers of its marked boxes, for every track and box row."""
        out: dict[str, list[int]] = {}
        for rid in self.boxes:
            m = re.match(r"^(p\d+-)?(?:track-([a-z-]+)|(req-[A-Z])|(chest-round|monster-round)|(collect-[a-z-]+))-(\d+)$",
                         rid)
            if m:
                name = (m.group(1) or "") + next(g for g in m.groups()[1:5] if g)
                out.setdefault(name, []).append(int(m.group(6)))
        return {k: sorted(v) for k, v in sorted(out.items())}

    def count(self, track: str) -> int:
        return len(self.tracks().get(track, []))

    def ticks(self) -> list[str]:
        return sorted(rid for rid in self.boxes if rid.endswith("-oracle") or rid.endswith("-exit")
                      or rid.endswith("insert-coin-box") or rid.endswith("safe-zone"))

    def as_dict(self) -> dict:
        tracks = self.tracks()
        out: dict = {"resources": {k: len(v) for k, v in tracks.items()}}
        if self.ticks():
            out["ticked"] = self.ticks()
        for name in ("visited", "path", "upper", "walls", "arrows", "rooms", "struck", "foes", "floods"):
            values = getattr(self, name)
            if values:
                out[name] = sorted(values, key=_cell_order)
        return out


def _cell_order(text: str):
    m = re.match(r"([A-Z])(\d+)", text)
    return (int(m.group(2)), m.group(1), text) if m else (0, "", text)


PATH_WEAK = (0.25, 0.75)     # a path's share of pencil between these: decided by its ends (refine) ...
PATH_ALONE = 0.6             # ... unless this much of it is penciled
PATH_WALLED = 0.45           # ... and a path a wall is penciled across, with both its rooms' dots, from this
UNCERTAIN_REFINED = 0.2      # the confidence of a reading refine decided


def _side_between(a: str, b: str) -> str:
    """The side of cell a that faces the adjacent cell b."""
    (ax, ay), (bx, by) = _coord(a), _coord(b)
    return {(1, 0): "E", (-1, 0): "W", (0, 1): "S", (0, -1): "N"}[(bx - ax, by - ay)]


class FouryScanner(GameScanner):
    game = "foury"

    def printed_options(self):
        from .heroes import HEROES
        return {"hero": tuple(HEROES)}      # build --hero: a map's character sheet filled for a hero

    def playable(self, loaded) -> bool:
        if loaded.kind == "map":
            return True
        if loaded.kind == "sheet":
            return loaded.definition.model.sheet != "icons"
        return False

    # -- regions ---------------------------------------------------------------------------
    def _layout(self, sheet):
        cached = getattr(sheet, "_foury_layout", None)
        if cached is None:
            from sheetgen.scan.geometry import placed
            where = placed(sheet.page.items)
            cached = (where, map_layout(where))
            sheet._foury_layout = cached
        return cached

    def _floods(self, sheet) -> bool:
        if sheet.loaded.kind != "map":
            return False
        from .rules import rules_for
        return rules_for(sheet.loaded.definition.board).campaign.flood_every is not None

    def regions(self, sheet) -> list[Region]:
        where, layout = self._layout(sheet)
        return map_regions(layout, self._floods(sheet)) + box_regions(where)

    # the parts of regions clear of a stairs line, read where the line reads penciled; a foe's place
    # clear of walls, read where a foe reads written in (refine consults nothing else of them)
    deferred = (STAIRS_CLEAR, FOE_CLEAR)

    def _crossings(self, sheet) -> dict:
        """Stairs line id -> the line regions it crosses (map_regions works them out)."""
        _, layout = self._layout(sheet)
        if layout.crossings is None:
            self.regions(sheet)
        return layout.crossings

    def wanted(self, sheet, readings):
        out = {part for line_id, crossed in self._crossings(sheet).items()
               if (line := readings.get(line_id)) is not None and line.marked for _, part in crossed if part}
        for rid, r in readings.items():
            if r.region.role == "foe written in" and r.marked:
                out |= {f"letter-{key_of(r.region).cells[0]}-{sides}" for sides in ("N", "W", "NW")}
        return out

    def refine(self, sheet, readings):
        """Readings the marks around them decide: first every line region a penciled stairs line
        crosses is read on its part clear of it (_clear_of_stairs_lines), then REFINE_PASSES run in
        order, each a small function saying what it corrects and the test that asked for it. A
        reading a pass changes takes a low confidence (UNCERTAIN_REFINED: listed as uncertain)."""
        _, layout = self._layout(sheet)
        readings = self._clear_of_stairs_lines(sheet, layout, readings)
        ctx = _Refining(layout, readings, {rid: r for rid, r in readings.items() if r.region.role not in UNSHOWN})
        for refine_pass in REFINE_PASSES:           # each names what it corrects and the test that asked for it
            refine_pass(ctx)
        return ctx.out

    @staticmethod
    def _letters_beside_labels(readings, out, lines) -> None:
        """A foe's letter is written over the room's printed zone letter: its place reads little (under
        print, or its ink against the print's blur), a wide letter's right part beside the zone letter
        shows it.  A foe's place read empty is a letter where that part reads penciled, unless the room
        is crossed out (the cross's stroke runs there) or a jump's or stairs line runs through it."""
        from dataclasses import replace
        for rid, beside in readings.items():
            if beside.region.role != FOE_BESIDE or not beside.marked or beside.visible < CLEAR_SEEN:
                continue
            cell = key_of(beside.region).cells[0]
            foe, room = out.get(f"monster-{cell}"), out.get(f"room-{cell}")
            if foe is None or foe.marked or (room is not None and room.marked):
                continue
            g = beside.region.shape
            if any(_near_segment(g.x + g.w / 2, g.y + g.h / 2, j.shape, math.hypot(g.w, g.h) / 2 + j.shape.band / 2)
                   for j in lines):
                continue
            out[f"monster-{cell}"] = replace(foe, value=MARKED, confidence=min(beside.confidence, UNCERTAIN_REFINED))

    @staticmethod
    def _waves_beside_paths(readings, out) -> None:
        """A flood's waves read in a room a path runs through across (to the room west or east of it,
        penciled PATH_ALONE of its length) stand only where CROSSING_SHARE of them is penciled: the waves'
        place runs a little above the path's line, and in a small room the path's stroke reaches into
        it (waves drawn read nearly all along)."""
        from dataclasses import replace
        for rid, r in list(out.items()):
            if r.region.role != "flooded room" or not r.marked or r.score >= CROSSING_SHARE:
                continue
            cell = key_of(r.region).cells[0]
            across = (readings.get(f"path-{a}-{b}") for a, b in ((_neighbour_name(cell, "W"), cell),
                                                                   (cell, _neighbour_name(cell, "E"))) if a and b)
            if any(p is not None and not p.hidden and p.score >= PATH_ALONE for p in across):
                out[rid] = replace(r, value=EMPTY, confidence=min(r.confidence, UNCERTAIN_REFINED))

    def _clear_of_stairs_lines(self, sheet, layout: MapLayout, readings):
        """The readings with every line region a penciled stairs line crosses read on its part clear
        of the line (the line's stroke is not its mark): a real path, wall or flood there still reads;
        one the line runs all along cannot be seen (empty, uncertain)."""
        from dataclasses import replace
        from sheetgen.scan.read import classify
        crossings = self._crossings(sheet)
        marked = [readings[i] for i in crossings if i in readings and readings[i].marked]
        if not marked:
            return readings
        out = dict(readings)
        # a line along the other marks read (paths walked nearly its way, walls, jumps, rooms crossed,
        # items struck, dots) may be their ink: where they explain half its length it stands only if
        # both its rooms read visited (the stairs' room has its dot, the room entered gets one)
        strokes = _diagonal_strokes(layout, readings) + _marked_strokes(layout, readings)
        for line in list(marked):
            ends = [readings.get(f"cell-{c}") for c in key_of(line.region).cells]
            if not all(e is None or e.marked or e.hidden for e in ends) and _share_near(
                    line.region.shape, strokes, line.region.shape.band / 2 + CLEAR_REACH) >= JUMP_EXPLAINED:
                out[line.region.id] = replace(line, value=EMPTY, confidence=min(line.confidence, UNCERTAIN_REFINED))
                marked.remove(line)
        # two lines from one stairs nearly along each other both read the one stroke: the better read is it
        for line in marked:
            if any(other is not line and other.score > line.score and under(line.region, other.region) >= UNDER
                   for other in marked):
                out[line.region.id] = replace(line, value=EMPTY, confidence=min(line.confidence, UNCERTAIN_REFINED))
        for line_id, crossed in crossings.items():
            line = out.get(line_id)
            if line is None or not line.marked:
                continue
            for rid, part_id in crossed:
                r, part = out.get(rid), readings.get(part_id) if part_id else None
                if r is None or r.hidden:
                    continue
                if part is None or part.hidden:
                    walked = r.region.role == "path" and self._ends_dotted(key_of(r.region), line, readings)
                    out[rid] = replace(r, value=MARKED if walked else EMPTY, confidence=UNCERTAIN_REFINED)
                    continue
                out[rid] = classify(r.region, part.score, r.visible)
        return out

    @staticmethod
    def _ends_dotted(path: RegionKey, line, readings) -> bool:
        """A path a stairs line runs all along (or whose part clear of it is under print): walked if
        both its rooms read dotted, each an end of the line or clear of its stroke (else the dot's
        place shows the line's ink)."""
        ends = key_of(line.region).cells
        for cell in path.cells:
            dot = readings.get(f"cell-{cell}")
            if dot is None or dot.hidden:
                continue
            if not dot.marked or (cell not in ends and _near_segment(dot.region.shape.cx, dot.region.shape.cy,
                                                                     line.region.shape,
                                                                     line.region.shape.band / 2 + CLEAR_REACH)):
                return False
        return True

    def place(self, region: Region) -> str:
        return _place(key_of(region))

    def interpret(self, sheet, readings) -> FouryView:
        view = FouryView()
        jumps = [r.region for r in readings.values() if r.region.role == "jump" and r.marked]
        for rid, r in readings.items():
            key = key_of(r.region)
            if r.hidden and r.region.role == "path":
                view.unread.add(_link(key))
            if r.hidden and r.region.role == "visited":
                view.unseen.add(key.cells[0])
            if not r.marked:
                continue
            if jumps and r.region.kind == LINE and r.region.role not in LINES_OVER and _under_any(sheet, r.region, jumps):
                if r.region.role == "path":     # penciled or not, the jump's line is all one sees there
                    view.unread.add(_link(key))
                continue                    # the jump's line, not a mark of this region
            role = r.region.role
            if r.region.kind in (BOX, FILL) and role not in ("used arrow",):
                view.boxes[rid] = r.value
                continue
            if role in ("visited", "crossed room", "foe written in", "struck item", "flooded room"):
                getattr(view, _ROOM_SETS[role]).add(key.cells[0])
            elif role in ("wall", "used arrow"):
                (view.walls if role == "wall" else view.arrows).add(f"{key.cells[0]}:{key.side}")
            elif role == "path":
                view.path.add(_link(key))
            elif role == "jump":
                view.path.add("~".join(key.cells))
            elif role == UPPER:
                view.upper.add("-".join(key.cells))
        view.struck -= view.rooms           # a room crossed out crosses its items too: no telling
        # a room the path runs into was visited, even where its dot sits on an icon too dark to show it
        for link in view.path:
            view.visited |= {link.split(":")[0]} if ":" in link else set(re.split("[-~]", link))
        for line in view.upper:
            view.visited |= set(line.split("-"))
        return view

    def expected_values(self, sheet, expected: FouryView) -> dict[str, str]:
        """Region id -> the reading the view implies; regions a jump's line runs along are left
        out (their ink is the jump's)."""
        out = {}
        jumps = [r for r in self.regions(sheet) if r.role == "jump" and "~".join(key_of(r).cells) in expected.path]
        for region in self.regions(sheet):
            rid, role = region.id, region.role
            key = key_of(region)
            rest = key.cells[0] if len(key.cells) == 1 and not key.side else "-".join(key.cells)
            if role in UNSHOWN or (region.kind == LINE and role not in LINES_OVER
                                   and any(under(region, j) >= UNDER for j in jumps)):
                continue
            if region.kind in (BOX, FILL) and role != "used arrow":
                out[rid] = expected.boxes.get(rid, EMPTY)
                continue
            hit = {
                "visited": lambda: rest in expected.visited,
                "crossed room": lambda: rest in expected.rooms,
                "foe written in": lambda: rest in expected.foes,
                "struck item": lambda: rest in expected.struck or rest in expected.rooms,
                "flooded room": lambda: rest in expected.floods,
                "wall": lambda: f"{key.cells[0]}:{key.side}" in expected.walls,
                "path": lambda: _link(key) in expected.path,
                "jump": lambda: "~".join(key.cells) in expected.path,
                UPPER: lambda: rest in expected.upper,
                "used arrow": lambda: f"{key.cells[0]}:{key.side}" in expected.arrows,
            }[role]()
            out[rid] = (FILLED if region.kind == FILL else MARKED) if hit else EMPTY
        return out

    # -- the rules a finished sheet is held to --------------------------------------------
    def check(self, sheet, view: FouryView) -> list:
        from sheetgen.games.base import broken
        out = []
        where, layout = self._layout(sheet)
        tracks = view.tracks()
        # every track is a count: its marked boxes are 1..n, no gaps
        for name, marked in tracks.items():
            gaps = [i for i in range(1, max(marked) + 1) if i not in marked]
            if gaps and not name.endswith(("chest-round", "monster-round")):
                out.append(broken("scan.track-gap", f"{name}: box {max(marked)} is marked but box "
                                  f"{', '.join(map(str, gaps[:4]))} {'is' if len(gaps) == 1 else 'are'} not"))
        caps = self._caps(sheet)
        for key, cap in caps.items():
            for name in [n for n in tracks if re.sub(r"^p\d+-", "", n) == key]:
                n = len(tracks[name])
                if n > cap:
                    out.append(broken("scan.cap", f"{name}: {n} boxes marked, more than the cap of {cap}"))
        if layout.cells:
            out += self._map_checks(sheet, view, layout)
        return out

    def _caps(self, sheet) -> dict[str, int]:
        from .formats.sheet import track_limits
        loaded = sheet.loaded
        # only the two refusals track_limits makes: any other failure is a bug, never "no caps"
        # (that would let a sheet with too many boxes marked pass)
        try:
            if loaded.kind == "map":
                hero = dict(sheet.identity.options).get("hero")
                return dict(track_limits(loaded.definition.board.campaign, hero))
            m = loaded.definition.model
            return dict(track_limits(m.campaign, m.hero)) if m.sheet == "character" else {}
        except InputError:      # a hero the built-in sheets do not offer: no caps to hold to
            return {}
        except ValueError:      # a campaign this sheetgen does not know (rules.find_campaign)
            return {}

    def _map_checks(self, sheet, view: FouryView, layout: MapLayout) -> list:
        from sheetgen.games.base import broken
        out = []
        visited = view.visited
        # a room whose dot cannot be seen and that a link no one can read reaches may have been entered
        maybe = {c for c in view.unseen if any(c in re.split("[-:]", link) for link in view.unread)}
        for wall in sorted(view.walls, key=_cell_order):
            cell, side = wall.split(":")
            other = _neighbour_name(cell, side)
            if cell not in visited and other not in visited and not {cell, other} & maybe:
                out.append(broken("scan.wall-unexplored", f"wall {wall} penciled, but neither {cell} nor {other} "
                                  "was visited (walls collapse around the rooms entered)"))
        arrows_with_path = set()
        graph: dict[str, set] = {}
        for link in sorted(view.path, key=_cell_order):
            if ":" in link:
                cell, side = link.split(":")
                arrows_with_path.add(link)
                if link not in view.arrows:
                    out.append(broken("scan.path-arrow", f"a path leaves the arrow {link}, which is not blacked out"))
                if cell not in visited:
                    out.append(broken("scan.path-dot", f"the path from the arrow {link} reaches {cell}, "
                                      "which has no visited mark"))
                graph.setdefault(cell, set()).add(link)
                graph.setdefault(link, set()).add(cell)
                continue
            a, b = re.split("[-~]", link)
            for c in (a, b):
                if c not in visited:
                    out.append(broken("scan.path-dot", f"the path {link} runs through {c}, which has no visited mark"))
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
        for line in sorted(view.upper, key=_cell_order):
            a, b = line.split("-")
            for c in (a, b):
                if c not in visited:
                    out.append(broken("scan.path-dot", f"the stairs line {line} runs to {c}, which has no visited mark"))
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
        # a link under print too dark to read may join two parts of the path: no part is held to
        # start at an arrow through it (nothing can be read there, so nothing is claimed)
        for link in view.unread:
            # an arrow's link is a node of its own (as above); between rooms, the two rooms
            a, b = (link.split(":")[0], link) if ":" in link else link.split("-")
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
        starts = set(view.arrows) | self._start_cells(sheet)
        seen: set = set()
        for node in sorted(set(graph) | visited, key=_cell_order):
            if node in seen:
                continue
            part, todo = set(), [node]
            while todo:
                n = todo.pop()
                if n in part:
                    continue
                part.add(n)
                todo += list(graph.get(n, ()))
            seen |= part
            if not part & starts and (part & visited or part & view.path):     # (not unread links alone)
                cells = sorted((c for c in part if ":" not in c), key=_cell_order)
                out.append(broken("scan.path-start", f"the path through {', '.join(cells[:6])}"
                                  f"{' ...' if len(cells) > 6 else ''} starts at no used arrow"))
        # the rounds: exits need the Oracle; arrows used = rounds begun
        zones = sorted({m.group(1) for rid in view.boxes for m in [re.match(r"^req-([A-Z])-exit$", rid)] if m})
        for z in zones:
            if f"req-{z}-oracle" not in view.boxes:
                out.append(broken("scan.exit-oracle", f"zone {z}: the exit is ticked but not the Oracle"))
        exits = len(zones)
        # every round enters by an arrow (the path starts there) and leaves by another (blacked out, no path)
        # (INSERT COIN, checked once: the dead hero starts again from an arrow, no exit between)
        entered, left = len(arrows_with_path), len(view.arrows - arrows_with_path)
        coin = int(any(rid.endswith("insert-coin-box") for rid in view.boxes))
        if layout.entries and view.arrows and not exits <= entered <= exits + 1 + coin:
            out.append(broken("scan.rounds", f"paths start at {entered} arrow{'s' if entered != 1 else ''} but {exits} "
                              f"round{'s' if exits != 1 else ''} {'are' if exits != 1 else 'is'} ticked as exited"
                              + (" and INSERT COIN is checked" if coin else "")))
        if layout.entries and left > exits:
            out.append(broken("scan.rounds", f"{left} arrows are blacked out with no path from them (the exits), "
                              f"but only {exits} round{'s' if exits != 1 else ''} {'are' if exits != 1 else 'is'} "
                              "ticked as exited"))
        current = self._round_after(sheet, exits)
        for marker in ("chest-round", "monster-round"):
            marked = view.tracks().get(marker, [])
            if len(marked) > 1:
                out.append(broken("scan.round-marker", f"{marker}: {len(marked)} rounds ticked; tick only the current one"))
            elif marked and view.arrows and marked[0] != current:
                out.append(broken("scan.round-marker", f"{marker}: round {marked[0]} ticked, but {exits} "
                                  f"round{'s' if exits != 1 else ''} {'are' if exits != 1 else 'is'} exited "
                                  f"(round {current})"))
        # (kills are not held to the foes on the map: a monster the dice put in a room and the hero
        # beat is no longer written there, as `sheetgen track render` draws it)
        return out

    def _round_after(self, sheet, exits: int) -> int:
        """The round the markers show after EXITS exits, as the map's rules move it on (the base
        game: the next round, the fourth the last; the Kraken's one round: it stays)."""
        from types import SimpleNamespace

        from .rules import rules_for
        s = SimpleNamespace(completed=exits, round_no=max(exits, 1), phase=None, market_done=False)
        if exits:
            rules_for(sheet.loaded.definition.board).end_round(s)
        return min(s.round_no, 4)

    def _start_cells(self, sheet) -> set:
        out = set()
        board = getattr(sheet.loaded.definition, "board", None)
        if board is not None:
            if board.start is not None:
                out.add(_name(board.start))
            for c, items in board.items.items():
                if "magic circle" in items:
                    out.add(_name(c))
            out |= {_name(c) for c in board.centre_cells()}
            from .board import DELTA, neighbour
            from .rules import rules_for
            if rules_for(board).campaign.start_beside_centre:
                # Santa's start: any coloured space next to Santa's room (the rules' check_start)
                out |= {_name(neighbour(c, side)) for c in board.centre_cells() for side in DELTA
                        if not board.is_rock(neighbour(c, side)) and not board.is_centre(neighbour(c, side))}
        return out

    # -- against a play log -------------------------------------------------------------------
    def mismatch(self, sheet, record) -> str | None:
        log = record.definition
        if sheet.loaded.kind != "map":
            return (f"the log plays the map {log.map_name}; the photo shows {sheet.identity.describe()}, "
                    "a sheet without a map")
        from sheetgen.definitions.registry import resolve
        from sheetgen.draw.scanmarks import content_hash
        ref, _ = self.record_sheet_ref(record)
        try:
            path, builtin = resolve(ref)
            definition = path.stem if builtin else content_hash(path.read_bytes())
        except (InputError, OSError):   # the log's map cannot be found or read: it cannot be this sheet's
            definition = None
        if definition != sheet.identity.definition:
            return f"the log plays the map {log.map_name}; the photo shows {sheet.identity.describe()}"
        hero = dict(sheet.identity.options).get("hero")
        if hero and (log.hero.name or "") != hero:
            return f"the sheet is printed for the hero {hero}; the log plays {log.hero.name or 'a free character'}"
        return None

    def penciled_document(self, sheet, record):
        """The sheet's document with the log's pencil over it (sheets/pencil.py)."""
        import copy
        from .sheets.pencil import pencil_over
        log = record.definition
        doc = copy.deepcopy(sheet.document)
        doc.pages = [doc.pages[sheet.identity.page - 1]]
        return pencil_over(doc, log.board, log.hero, [e.action for e in log.entries], sheet.options)

    def expected(self, sheet, record) -> FouryView:
        doc = self.penciled_document(sheet, record)
        return self.view_of_pencil(sheet, doc.pages[0])

    def view_of_pencil(self, sheet, page) -> FouryView:
        """What a pencil drawing (the group id='pencil' of a page) shows, by its ids and places."""
        from sheetgen.draw.model import Group, Line, Rect
        from sheetgen.scan.geometry import bounds, transformed_points
        where, layout = self._layout(sheet)
        view = FouryView()
        boxes = [r for r in box_regions(where)]
        pencil = [g for g in page.items if isinstance(g, Group) and g.id == "pencil"]
        if not pencil:
            return view
        items = pencil[0].items
        upper = set(layout.upper_lines)

        def box_at(x, y):
            hits = [r for r in boxes if r.shape.x <= x <= r.shape.x + r.shape.w
                    and r.shape.y <= y <= r.shape.y + r.shape.h]
            return min(hits, key=lambda r: r.shape.w * r.shape.h) if hits else None

        def cell_at(x, y):
            for name, (cx, cy, s) in layout.cells.items():
                if cx <= x < cx + s and cy <= y < cy + s:
                    return name
            return None

        for item in items:
            pid = getattr(item, "id", None) or ""
            cls = (getattr(item, "cls", None) or "").split()
            if "path" in cls and isinstance(item, Line):
                end = cell_at(item.x2, item.y2)
                start = cell_at(item.x1, item.y1)
                if end is None:
                    continue
                if start is None:
                    arrow = self._arrow_near(layout, item.x1, item.y1)
                    if arrow:
                        view.path.add(arrow)
                elif start != end:
                    a, b = sorted((start, end), key=lambda c: (_coord(c)[1], _coord(c)[0]))
                    if (start, end) in upper:
                        view.upper.add(f"{start}-{end}")
                    elif _adjacent(a, b):
                        view.path.add(f"{a}-{b}")
                    elif a in layout.circles and b in layout.circles:
                        a, b = sorted((a, b), key=_cell_order)
                        view.path.add(f"{a}~{b}")
                continue
            if "flood" in cls:
                pts = transformed_points(item)
                c = cell_at(*pts[0]) if pts else None
                if c:
                    view.floods.add(c)
                continue
            m = re.match(r"^pencil-(dot|wall|room|removed|monster|arrow)-([A-Z]\d+)(?:-(.*))?$", pid)
            if m:
                what, cell, rest = m.groups()
                if what == "dot":
                    view.visited.add(cell)
                elif what == "wall":
                    key = canonical_edge(cell, rest)
                    if key:
                        view.walls.add(key)
                elif what == "room":
                    view.rooms.add(cell)
                elif what == "removed":
                    if layout.items.get(cell):
                        view.struck.add(cell)
                elif what == "monster":
                    view.foes.add(cell)
                elif what == "arrow":
                    view.arrows.add(f"{cell}:{rest}")
                continue
            if "cross" in cls or (isinstance(item, Rect) and pid.startswith("pencil-fury")):
                b = bounds(item)
                if b:
                    r = box_at((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
                    if r is not None:
                        view.boxes[r.id] = FILLED if r.kind == FILL else CROSSED
        return view

    def _arrow_near(self, layout, x, y):
        best, dist = None, 1e9
        for key, (cell, side) in layout.entries.items():
            x1, y1, x2, y2 = _edge_line(layout, cell, side)
            d = (x - (x1 + x2) / 2) ** 2 + (y - (y1 + y2) / 2) ** 2
            if d < dist:
                best, dist = key, d
        return best if dist < layout.size ** 2 else None

    def compare(self, sheet, view: FouryView, expected: FouryView) -> list[Difference]:
        out: list[Difference] = []
        got, want = view.tracks(), expected.tracks()
        for name in sorted(set(got) | set(want)):
            a, b = len(got.get(name, [])), len(want.get(name, []))
            if a != b:
                out.append(Difference(name, f"paper: {_label(name)} {a}, log: {b}"))
        for tick in sorted(set(view.ticks()) ^ set(expected.ticks())):
            on_paper = tick in view.boxes
            out.append(Difference(tick, f"{tick} {'ticked on paper, not in the log' if on_paper else 'ticked in the log, not on paper'}"))
        for name, paper_only, log_only in (
                ("walls", "wall {x} penciled, no event of the log collapses it",
                 "wall {x} collapses in the log, not penciled"),
                ("visited", "{x} marked visited, the log never enters it", "{x} entered in the log, not marked visited"),
                ("path", "path {x} penciled, the log never moves along it", "path {x} walked in the log, not penciled"),
                ("upper", "stairs line {x} penciled, the log never climbs there and goes on past a lever to that room",
                 "stairs line {x} in the log (climbed, on past a lever), not penciled"),
                ("arrows", "arrow {x} blacked out, the log never enters by it",
                 "arrow {x} used in the log, not blacked out"),
                ("rooms", "room {x} crossed out, the log never collapses it",
                 "room {x} collapses in the log, not crossed out"),
                ("struck", "an item of {x} struck through, the log takes or beats nothing there",
                 "an item of {x} taken or beaten in the log, not struck through"),
                ("foes", "a foe written in {x}, no event of the log puts one there",
                 "a foe appears in {x} in the log, not written in"),
                ("floods", "{x} drawn flooded, the log floods no such room", "{x} floods in the log, not drawn")):
            a, b = getattr(view, name), getattr(expected, name)
            for x in sorted(a - b, key=_cell_order):
                out.append(Difference(f"{name} {x}", paper_only.format(x=x)))
            for x in sorted(b - a, key=_cell_order):
                out.append(Difference(f"{name} {x}", log_only.format(x=x)))
        return out

    # -- for the photo simulator ------------------------------------------------------------------
    def record_sheet_ref(self, record):
        """(the sheet's definition reference, build game options) a play log is played on."""
        log = record.definition
        from pathlib import Path
        ref = log.map_name
        p = Path(ref)
        if p.suffix in (".yaml", ".yml") and not p.is_absolute():
            ref = str(record.source.folder / p)
        options = (("hero", log.hero.name),) if log.hero.name else ()
        return ref, options

    def penciled(self, sheet, record, rng) -> tuple:
        """(the played page with its pencil group, residue: the marks erased during play)."""
        from sheetgen.draw.model import Line
        doc = self.penciled_document(sheet, record)
        page = doc.pages[0]
        where, layout = self._layout(sheet)
        log = record.definition
        from .rules import rules_for
        rules = rules_for(log.board)
        state = rules.new_game(log.board, log.hero)
        most: dict[str, int] = {}
        walls_ever = set()
        for e in log.entries:
            state = rules.step(state, e.action).state
            for k, v in dict(state.res).items():
                most[k] = max(most.get(k, 0), int(v))
            most["kills"] = max(most.get("kills", 0), state.kills)
            walls_ever |= set(state.walls)
        final = dict(state.res)
        final["kills"] = state.kills
        residue = []
        for key, top in most.items():
            for i in range(int(final.get(key, 0)) + 1, top + 1):
                p = where.get(f"track-{key.replace(' ', '-')}-{i}")
                if p is None or rng.random() < 0.3:      # some erased marks leave nothing
                    continue
                x, y, w, h = p.rect
                d = 0.22
                residue += [Line(x + w * d, y + h * d, x + w * (1 - d), y + h * (1 - d)),
                            Line(x + w * (1 - d), y + h * d, x + w * d, y + h * (1 - d))]
        from .board import OPPOSITE
        for c, side in sorted(walls_ever - set(state.walls)):
            cell = _name(c)
            if cell not in layout.cells:
                n = _neighbour_name(cell, side)
                if n not in layout.cells:
                    continue
                cell, side = n, OPPOSITE[side]
            residue.append(Line(*_edge_line(layout, cell, side)))
        return page, residue


JUMP_EXPLAINED = 0.5        # of a jump's length along crosses and strikes: its own reading tells nothing
FOE_UNDER_LINE = 0.2        # a foe's place a jump's line or a cross's arm runs through: their ink reads up to about this


def _walked(readings) -> set:
    """The rooms a path or a jump read penciled enters."""
    out = set()
    for rid, r in readings.items():
        if r.region.role in ("path", "jump") and r.marked:
            out |= set(key_of(r.region).cells)
    return out


def _other_strokes(readings, cell: str) -> bool:
    """Do a cross's upper left arm (through the foe's place, well seen) and its other stroke (along
    the item's strike) read penciled in the room?"""
    arm, strike = readings.get(f"arm-{cell}"), readings.get(f"struck-{cell}")
    return arm is not None and arm.marked and arm.visible >= ARM_SEEN and strike is not None and strike.marked


def _crossed_unseen(readings, cell: str) -> bool:
    """Do the readings show a cross in the room where its lower right arm cannot be seen (under an
    icon: read so little, or seen as printed so little: a die's pips on its diagonal)?  Its upper left
    arm (through the foe's place) and the other stroke (along the item's strike) read penciled.  A foe's letter reads the upper left arm too, and its item may be struck:
    the caller holds the foe's place to more than the arm's ink makes of it."""
    room, printed = readings.get(f"room-{cell}"), readings.get(f"printed-{cell}")
    unseen = room is not None and (room.visible < ARM_SEEN or (printed is not None and printed.visible < ARM_SEEN))
    return unseen and _other_strokes(readings, cell)


def _crossed_inner(readings, cell: str) -> bool:
    """Is a foe's letter read in the room the upper left arm of a cross whose lower right arm cannot
    be seen (under an icon)?  Its other stroke (along the item's strike) reads penciled, and so does
    the upper left arm between the foe's place and the room's centre, read by its centre band: a
    letter written in the foe's place keeps out of that part, a cross's arm runs all along it."""
    room, strike, inner, foe = (readings.get(f"{what}-{cell}") for what in ("room", "struck", "inner", "monster"))
    return room is not None and room.visible < ARM_SEEN and strike is not None and strike.marked and \
        inner is not None and inner.marked and not inner.hidden and foe is not None and foe.marked


def _crossed_faint(readings, cell: str) -> bool:
    """Do the readings show a cross whose lower right arm, in view, reads penciled along only part
    of its length (CROSS_FAINT of it: faint where it runs over an icon's lines), with its upper left
    arm and its other stroke penciled?  A foe's letter and a struck item make those two, never ink
    along the lower right arm; the caller holds the foe's place as for _crossed_unseen."""
    room = readings.get(f"room-{cell}")
    return (room is not None and room.visible >= ARM_SEEN and room.score >= CROSS_FAINT
            and _other_strokes(readings, cell))


def _walls_ink(readings, cell: str) -> bool:
    """Is a foe's letter read in the room only the ink of walls penciled on its north or west edge?
    Their stroke reaches about WALL_REACH into the room, a millimetre or so of the foe's place (a
    letter is most of it): read again clear of them, no letter is there."""
    sides = "".join(side for side in ("N", "W")
                    if (w := readings.get(f"wall-{(canonical_edge(cell, side) or '').replace(':', '-')}")) is not None
                    and w.marked)
    clear = readings.get(f"letter-{cell}-{sides}") if sides else None
    return clear is not None and not clear.marked and clear.visible >= CLEAR_SEEN


def _diagonal_strokes(layout: MapLayout, readings) -> list[tuple]:
    """The corner-to-corner strokes the readings say are penciled (sheets/pencil.py draws them):
    both diagonals of a crossed room, the strike through a room's item."""
    out = []
    for cell, (x, y, s) in layout.cells.items():
        room, strike = readings.get(f"room-{cell}"), readings.get(f"struck-{cell}")
        if room is not None and room.marked:
            out += [(x + 0.06 * s, y + 0.06 * s, x + 0.94 * s, y + 0.94 * s),
                    (x + 0.94 * s, y + 0.06 * s, x + 0.06 * s, y + 0.94 * s)]
        if strike is not None and strike.marked:
            out.append((x + 0.12 * s, y + 0.88 * s, x + 0.88 * s, y + 0.12 * s))
    return out


def _marked_strokes(layout: MapLayout, readings) -> list[tuple]:
    """The strokes of the paths, walls and jumps the readings say are penciled (centre to centre,
    along the edge), and the dots read (as points)."""
    out = []
    for rid, r in readings.items():
        role = r.region.role
        if not r.marked or role not in ("path", "wall", "jump", "visited"):
            continue
        key = key_of(r.region)
        if role == "visited":
            dot = r.region.shape
            out.append((dot.cx, dot.cy, dot.cx, dot.cy))
        elif role == "wall":
            out.append(_edge_line(layout, key.cells[0], key.side))
        elif role == "jump":
            out.append(_between_centres(r.region.shape))
        elif len(key.cells) == 2:          # a path between two rooms (not from an entry arrow)
            out.append((*_centre(layout, key.cells[0]), *_centre(layout, key.cells[1])))
    return out


def _distance(px: float, py: float, seg) -> float:
    """The distance from a point to a segment (x1, y1, x2, y2)."""
    a1, b1, a2, b2 = seg
    dx, dy = a2 - a1, b2 - b1
    t = max(0.0, min(1.0, ((px - a1) * dx + (py - b1) * dy) / max(dx * dx + dy * dy, 1e-9)))
    return math.hypot(px - (a1 + t * dx), py - (b1 + t * dy))


def _distances(px: np.ndarray, py: np.ndarray, seg) -> np.ndarray:
    """_distance of many points at once."""
    import numpy as np
    a1, b1, a2, b2 = seg
    dx, dy = a2 - a1, b2 - b1
    t = np.clip(((px - a1) * dx + (py - b1) * dy) / max(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
    return np.hypot(px - (a1 + t * dx), py - (b1 + t * dy))


def _share_near(line: LineShape, segments, reach: float, n: int = 12) -> float:
    """The share of a LINE region's length within reach of any of the segments."""
    x1, y1, x2, y2 = line.ends
    hits = 0
    for i in range(n):
        px, py = x1 + (x2 - x1) * (i + 0.5) / n, y1 + (y2 - y1) * (i + 0.5) / n
        hits += any(_distance(px, py, seg) <= reach for seg in segments)
    return hits / n


UNDER = 0.4                 # a region this much under a jump's line is the jump's


def _between_centres(line: LineShape) -> tuple:
    """The whole line between the rooms' centres a jump region is trimmed from."""
    a1, b1, a2, b2 = line.ends
    dx, dy = a2 - a1, b2 - b1
    return (a1 - dx * 0.34, b1 - dy * 0.34, a2 + dx * 0.34, b2 + dy * 0.34)


def under(region: Region, line: Region) -> float:
    """The share of a LINE region's length within its band of another LINE region's segment."""
    a1, b1, a2, b2 = line.shape.ends
    if a1 == a2 and b1 == b2:
        return 0.0
    # the jump region is trimmed: measure against the whole line between the centres
    return _share_near(region.shape, [_between_centres(line.shape)], region.shape.band / 2 + 0.3)


def _under_any(sheet, region: Region, jumps: list) -> bool:
    """Is the LINE region UNDER a jump's line, of any of jumps?  Each pair worked out once a sheet (its
    geometry's alone): interpret is asked again for each unsure region's other reading
    (sheetgen.scan.pipeline.moot_regions)."""
    cache = getattr(sheet, "_under_jumps", None)
    if cache is None:
        cache = sheet._under_jumps = {}
    for j in jumps:
        key = (region.id, j.id)
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = under(region, j) >= UNDER
        if hit:
            return True
    return False


def _near_segment(x: float, y: float, line: LineShape, reach: float) -> bool:
    """Is (x, y) within reach of the whole line between the centres a jump region is trimmed from?"""
    return _distance(x, y, _between_centres(line)) <= reach


def _in_line(a: str, b: str) -> bool:
    """On one row or one column of the grid."""
    (ax, ay), (bx, by) = _coord(a), _coord(b)
    return ax == bx or ay == by


def _adjacent(a: str, b: str) -> bool:
    (ax, ay), (bx, by) = _coord(a), _coord(b)
    return abs(ax - bx) + abs(ay - by) == 1


def _label(name: str) -> str:
    return name.replace("-", " ")


def _tamper(self, sheet, page, marks):
    """The page with marks the log does not explain added to its pencil: ('wall', 'D4:N'),
    ('dot', 'C4'), ('box', 'track-hearts-9') crossed, ('fill', 'track-hearts-9') blacked out,
    ('path', 'C4-D4') (a line from room centre to room centre, as the pencil draws a move: 'I3-K7'
    from the stairs is a stairs line) (for the tests of what a scan must find)."""
    from dataclasses import replace
    from sheetgen.draw.model import Circle, Group, Line, Rect, Style
    where, layout = self._layout(sheet)
    extra = []
    for kind, what in marks:
        if kind == "wall":
            cell, side = what.split(":")
            extra.append(Line(*_edge_line(layout, cell, side), Style(stroke="#3a3a3a", stroke_width=1.1, cap="round"),
                              id=f"pencil-wall-{cell}-{side}", cls="pencil wall"))
        elif kind == "dot":
            cx, cy = _centre(layout, what)
            extra.append(Circle(cx, cy, max(0.5, layout.size * 0.07), Style(stroke=None, fill="#111111"),
                                id=f"pencil-dot-{what}", cls="pencil dot"))
        elif kind == "path":
            a, b = what.split("-")
            extra.append(Line(*_centre(layout, a), *_centre(layout, b),
                              Style(stroke="#3a3a3a", stroke_width=0.45, cap="round", join="round"), cls="pencil path"))
        elif kind == "box":
            x, y, w, h = where[what].rect
            d = 0.22
            st = Style(stroke="#3a3a3a", stroke_width=0.5, cap="round")
            extra.append(Group((Line(x + w * d, y + h * d, x + w * (1 - d), y + h * (1 - d), st),
                                Line(x + w * (1 - d), y + h * d, x + w * d, y + h * (1 - d), st)),
                               id=f"pencil-{what}", cls="pencil cross"))
        elif kind == "fill":
            x, y, w, h = where[what].rect
            d = 0.08 * w
            extra.append(Rect(x + d, y + d, w - 2 * d, h - 2 * d, Style(stroke=None, fill="#3a3a3a"),
                              id=f"pencil-fill-{what}", cls="pencil fill"))
    page.items = [replace(i, items=i.items + tuple(extra)) if isinstance(i, Group) and i.id == "pencil" else i
                  for i in page.items]
    return page


@dataclass
class _Refining:
    """What Dungeon Foury's refinement passes share: the layout, every reading (the regions a penciled
    stairs line crosses read clear of it), the shown readings as the passes decide them (out), and the
    jumps' and stairs lines' regions read penciled (the first pass finds them)."""
    layout: MapLayout
    readings: dict
    out: dict
    jumps: list = field(default_factory=list)
    lines: list = field(default_factory=list)      # the jumps and the stairs lines


def _jumps_along_crosses(ctx: _Refining) -> None:
    """A diagonal jump (or stairs line) whose line runs along rooms' crosses and strikes stands only where
    both its rooms read visited.  Motivated by test_scan_foury_reading.py::
    test_a_diagonal_jump_along_crossed_rooms_is_not_read_without_its_rooms_dots."""
    readings, out, layout = ctx.readings, ctx.out, ctx.layout
    jumps, uppers, strokes = [], [], None
    for rid, r in readings.items():
        if r.region.role not in LINES_OVER or not r.marked:
            continue
        # a diagonal jump runs along the rooms' crosses and strikes (strokes corner to corner):
        # where they explain half its length, its reading tells nothing of its own, and it stands
        # only if both its rooms read visited (the room a jump enters gets its dot, the room it
        # leaves has one: every room entered does), or cannot be seen
        strokes = _diagonal_strokes(layout, readings) if strokes is None else strokes
        ends = [readings.get(f"cell-{c}") for c in key_of(r.region).cells]
        if strokes and _share_near(r.region.shape, strokes, r.region.shape.band / 2) >= JUMP_EXPLAINED \
                and not all(e is None or e.marked or e.hidden for e in ends):
            out[rid] = replace(r, value=EMPTY, confidence=min(r.confidence, UNCERTAIN_REFINED))
            continue
        (jumps if r.region.role == "jump" else uppers).append(r.region)
    ctx.jumps, ctx.lines = jumps, jumps + uppers     # a dot's or a foe's place they run through is their ink


def _weak_paths(ctx: _Refining) -> None:
    """A path read weakly is decided by its ends: it stands when PATH_ALONE of it is penciled, or when both
    its rooms are dotted and no wall is penciled across (or PATH_WALLED of it is), or when its centre band
    reads a thin faint stroke between two dotted rooms; a flood's waves are no path.  Motivated by
    test_scan_foury_reading.py::test_a_faint_path_between_two_rooms_entered_reads,
    test_a_path_walked_before_the_wall_behind_collapsed_reads, test_a_floods_waves_are_no_path and
    test_scan_foury_paths.py::test_a_faint_thin_path_between_two_dotted_rooms_reads."""
    readings, out, layout = ctx.readings, ctx.out, ctx.layout
    # a room a path penciled nearly all along reaches was entered: its dot is there, however faint
    # (the rules draw a dot in every room a line enters)
    entered = set()
    for rid, r in readings.items():
        if r.region.role == "path" and not r.hidden and r.score >= PATH_ALONE and \
                not any(under(r.region, j) >= UNDER for j in ctx.jumps):
            entered |= set(key_of(r.region).cells)
    crossed = {rid for line, regions in (layout.crossings or {}).items()
               if line in readings and readings[line].marked for rid, _ in regions}
    for rid, r in readings.items():
        if r.region.role != "path" or r.hidden:
            continue
        key = key_of(r.region)
        if key.side or r.score >= PATH_WEAK[1]:      # from an entry arrow, or read well enough
            continue
        a, b = key.cells
        centre = readings.get(f"centre-{a}-{b}")
        if not PATH_WEAK[0] <= r.score and not (centre is not None and centre.marked and rid not in crossed):
            continue
        wall = readings.get(f"wall-{a}-{_side_between(a, b)}") or readings.get(f"wall-{b}-{_side_between(b, a)}")
        ends = [readings.get(f"cell-{c}") for c in (a, b)]
        ends = [replace(e, value=MARKED) if e is not None and c in entered else e for c, e in zip((a, b), ends)]
        # a wall penciled across the path reads along it up to about a quarter of its length; a
        # path walked before the wall collapsed behind it (the die's "the wall behind you") is
        # most of its length, with both its rooms' dots
        # a flood's waves run along both sides of a path's place: in a room drawn flooded, a path
        # read weakly is the waves' unless a dot is seen at one of its ends
        waves = any(f is not None and f.marked for f in (readings.get(f"flood-{c}") for c in (a, b)))
        # a thin faint stroke (its centre band darker than its sides: no wall across, no paper's
        # unevenness, no shadow's edge is) between two rooms dotted, wherever a wall is
        dotted = all(e is None or e.marked or e.hidden for e in ends) and \
            not (waves and not any(e is not None and e.marked for e in ends))
        walked = r.score >= PATH_ALONE or (
            (wall is None or not wall.marked or r.score >= PATH_WALLED) and PATH_WEAK[0] <= r.score and dotted) or (
            centre is not None and centre.marked and rid not in crossed and dotted)
        value = MARKED if walked else EMPTY
        if value != r.value:
            out[rid] = replace(r, value=value, confidence=min(r.confidence, UNCERTAIN_REFINED))


def _strike_or_waves(ctx: _Refining) -> None:
    """An item's strike and a flood's waves read in one room: the weaker is the other's ink unless
    CROSSING_SHARE of it is penciled.  (No test names it alone: test_scan_foury_print.py's flood tests
    read rooms with both.)"""
    readings, out = ctx.readings, ctx.out
    # an item's strike and a flood's waves cross each other: where both read, the weaker is the
    # other's ink unless it is penciled nearly all along itself
    for rid, r in readings.items():
        if r.region.role != "struck item" or not r.marked:
            continue
        flood = out.get(f"flood-{key_of(r.region).cells[0]}")
        if flood is None or not flood.marked:
            continue
        weaker = min((r, flood), key=lambda x: x.score)
        if weaker.score < CROSSING_SHARE:
            out[weaker.region.id] = replace(weaker, value=EMPTY, confidence=min(weaker.confidence, UNCERTAIN_REFINED))


def _waves_beside_paths(ctx: _Refining) -> None:
    """A flood's waves beside a path across the room are the path's ink
    (FouryScanner._waves_beside_paths).  Motivated by test_scan_foury_print.py::
    test_a_path_across_a_small_room_is_no_flood."""
    FouryScanner._waves_beside_paths(ctx.readings, ctx.out)


def _crosses_by_other_strokes(ctx: _Refining) -> None:
    """A cross whose lower right arm an icon hides (or shows faint) reads by its other strokes, unless the
    upper left one is a letter's; what reads crossed is no cross where the upper left arm, well seen, is
    bare.  Motivated by test_scan_foury_reading.py::test_a_cross_an_icon_half_hides_reads_by_its_other_strokes,
    test_a_cross_faint_over_an_icon_reads_by_its_other_strokes,
    test_the_little_seen_of_an_arm_is_no_cross_where_the_other_arm_is_bare and
    test_scan_foury_print.py::test_a_cross_over_a_dies_pips_reads_by_its_other_strokes."""
    readings, out = ctx.readings, ctx.out
    for rid, r in list(out.items()):
        if r.region.role != "crossed room":
            continue
        # a cross whose lower right arm an icon hides, read by its two other strokes (unless the
        # upper left one is a letter's: darker in the foe's place than an arm makes it)
        cell = key_of(r.region).cells[0]
        foe = out.get(f"monster-{cell}")
        if r.region.role == "crossed room" and not r.marked and ((
                _crossed_unseen(readings, cell) or _crossed_faint(readings, cell)) and
                not (foe is not None and foe.marked and foe.score >= FOE_UNDER_LINE)
                or _crossed_inner(readings, cell)):
            out[rid] = replace(r, value=MARKED, confidence=min(r.confidence, UNCERTAIN_REFINED))
        # ... and what reads crossed of it (the little an icon leaves seen, an icon the camera sees
        # darker than printed) is something else's where the upper left arm, well seen, has no
        # pencil at all (a cross is drawn corner to corner)
        arm = readings.get(f"arm-{cell}")
        if r.region.role == "crossed room" and r.marked and arm is not None and \
                arm.visible >= ARM_SEEN and arm.score <= ARM_BARE:
            out[rid] = replace(r, value=EMPTY, confidence=min(r.confidence, UNCERTAIN_REFINED))


def _crosses_without_strike(ctx: _Refining) -> None:
    """A room read crossed out whose item's strike (along the cross's other arm) reads empty is not crossed
    out.  Motivated by test_scan_foury_paths.py::test_a_foe_written_in_a_room_whose_item_is_struck_is_no_cross."""
    out = ctx.out
    for rid, r in list(out.items()):
        if r.region.role == "crossed room" and r.marked:
            strike = out.get(f"struck-{key_of(r.region).cells[0]}")     # along the cross's other arm
            if strike is not None and not strike.marked and not strike.hidden:
                out[rid] = replace(r, value=EMPTY, confidence=min(r.confidence, UNCERTAIN_REFINED))


def _foes_under_other_ink(ctx: _Refining) -> None:
    """A foe's letter read where a wall's, a cross's arm or (fainter than FOE_UNDER_LINE) a jump's line ink
    falls is that ink.  Motivated by test_scan_foury_reading.py::test_a_walls_ink_in_a_foes_place_is_no_foe,
    test_the_arm_of_a_cross_an_icon_half_hides_is_no_foe, test_a_jumps_line_through_a_foes_place_is_no_foe."""
    readings, out, lines = ctx.readings, ctx.out, ctx.lines
    for rid, r in list(out.items()):
        if r.region.role == "foe written in" and r.marked:
            room = out.get(f"room-{key_of(r.region).cells[0]}")
            x, y, w, h = r.region.shape.x, r.region.shape.y, r.region.shape.w, r.region.shape.h
            cell = key_of(r.region).cells[0]
            if _walls_ink(readings, cell) or (room is not None and room.marked) or (    # the cross's arm runs through the letter's place
                    r.score < FOE_UNDER_LINE and _crossed_unseen(readings, cell)) or (
                    r.score < FOE_UNDER_LINE and any(
                        _near_segment(x + w / 2, y + h / 2, j.shape, math.hypot(w, h) / 2)
                        for j in lines)):                 # so does a jump's line: its ink, unless darker
                out[rid] = replace(r, value=EMPTY, confidence=min(r.confidence, UNCERTAIN_REFINED))


def _dots_under_other_ink(ctx: _Refining) -> None:
    """A room's dot read under a line of another mark (the item's strike, the room's cross, a jump's line) or
    faint under a flood's waves is that ink unless a path reaches the room.  Motivated by
    test_scan_foury_dots.py::test_a_strike_through_a_room_never_entered_is_no_dot,
    test_a_dot_under_a_strike_by_a_path_a_jump_hides_reads and test_scan_foury_reading.py::
    test_a_floods_waves_by_a_rooms_centre_are_no_dot."""
    out, lines = ctx.out, ctx.lines
    # a path reaches a room where it is penciled, however faintly (not a jump's line along it)
    reached = {c for j in lines for c in key_of(j).cells}
    unseen_path = set()         # ... and may where a jump's line runs all along its path (its ink the jump's)
    for rid, r in out.items():
        if r.region.role == "path" and not r.hidden and r.score >= PATH_WEAK[0]:
            ends = set(key_of(r.region).cells)
            if any(under(r.region, j) >= UNDER for j in ctx.jumps):
                unseen_path |= ends
            else:
                reached |= ends
    walked = None
    for rid, r in list(out.items()):
        if r.region.role != "visited" or not r.marked:
            continue
        cell = key_of(r.region).cells[0]
        flood = out.get(f"flood-{cell}")
        if flood is not None and flood.marked and r.score < DOT_OVER_WAVES:
            # the waves' crests run by the room's centre: a faint dot there is theirs unless a path
            # read penciled enters the room (every room entered has one)
            walked = _walked(out) if walked is None else walked
            if cell not in walked:
                out[rid] = replace(r, value=EMPTY, confidence=min(r.confidence, UNCERTAIN_REFINED))
                continue
        if cell in reached:
            continue
        crossed = any(out.get(f"{what}-{cell}") is not None and out[f"{what}-{cell}"].marked
                      for what in ("struck", "room"))
        dot = r.region.shape
        through = any(_near_segment(dot.cx, dot.cy, j.shape, j.shape.band / 2) for j in lines)
        if crossed and not through and cell in unseen_path:
            # a path that may reach the room cannot be told from a jump's line along it: the dot read
            # where the item's strike (or the room's cross) runs is not taken for the stroke's ink
            continue
        if crossed or through:
            out[rid] = replace(r, value=EMPTY, confidence=min(r.confidence, UNCERTAIN_REFINED))


def _letters_beside_labels(ctx: _Refining) -> None:
    """A foe's place read empty is a letter where its part beside the printed zone
    letter reads penciled (FouryScanner._letters_beside_labels).  Motivated by test_scan_foury_print.py::
    test_a_foe_written_over_the_zone_letter_reads."""
    FouryScanner._letters_beside_labels(ctx.readings, ctx.out, ctx.lines)


# Foury's refinement, in the order it runs (after the regions a penciled stairs line crosses are read
# clear of it: FouryScanner._clear_of_stairs_lines, motivated by test_scan_foury_lines.py)
REFINE_PASSES = (_jumps_along_crosses, _weak_paths, _strike_or_waves, _waves_beside_paths, _crosses_by_other_strokes,
                 _crosses_without_strike, _foes_under_other_ink, _dots_under_other_ink, _letters_beside_labels)


def _illegal_marks(self, sheet, expected: FouryView, rng) -> list:
    """A wall between two rooms never entered (scan.wall-unexplored), a visited dot in a room no path
    reaches (scan.path-start), a path between two rooms never entered (scan.path-dot, and it starts at no
    arrow: scan.path-start), each among rooms clear of the log's marks and of every start (their
    neighbours never entered either); a track's box crossed past a bare one (_track_gap).  (A path led
    on into a room with no dot is no fault: interpret counts every room a path runs into as visited,
    the line itself showing the move.)"""
    from sheetgen.scan.contract import IllegalMark
    _, layout = self._layout(sheet)
    starts = self._start_cells(sheet) | set(layout.circles) | set(layout.centre)
    marked = expected.visited | expected.rooms | expected.struck | expected.foes | expected.floods | starts
    for link in expected.path | expected.upper | set(expected.arrows):
        marked |= {c for c in re.split("[-~:]", link) if c in layout.cells}
    cells = [c for c in sorted(layout.cells, key=_cell_order) if c not in layout.rock]

    def quiet(c: str | None) -> bool:
        return c is not None and c in layout.cells and c not in layout.rock and c not in marked and all(
            n not in marked for n in (_neighbour_name(c, side) for side in "NESW") if n is not None)

    pairs = [(c, side, _neighbour_name(c, side)) for c in cells for side in ("E", "S")
             if quiet(c) and quiet(_neighbour_name(c, side))]
    walls = [(c, side) for c, side, n in pairs
             if f"{c}:{side}" not in layout.printed and not (c in layout.centre and n in layout.centre)]
    out = []
    if walls:
        c, side = rng.choice(walls)
        out.append(IllegalMark((("wall", f"{c}:{side}"),), ("scan.wall-unexplored",), c, (f"wall-{c}-{side}",)))
    dots = [c for c in cells if quiet(c)]
    if dots:
        c = rng.choice(dots)
        out.append(IllegalMark((("dot", c),), ("scan.path-start",), c, (f"cell-{c}",)))
    paths = [(c, n) for c, side, n in pairs if f"{c}:{side}" not in layout.printed]
    if paths:
        c, n = rng.choice(paths)
        out.append(IllegalMark((("path", f"{c}-{n}"),), ("scan.path-dot", "scan.path-start"), c, (f"path-{c}-{n}",)))
    out += _track_gap(self, sheet, expected, rng)
    return out


def _track_gap(self, sheet, expected: FouryView, rng) -> list:
    """A track's box crossed two past its last one crossed, the one between left bare (scan.track-gap; past
    the hero's cap, scan.cap too)."""
    from sheetgen.scan.contract import IllegalMark
    boxes = {r.id: key_of(r) for r in self.regions(sheet) if r.kind == BOX}
    marked = expected.tracks()
    gaps = []
    for rid, key in sorted(boxes.items()):
        if key.page or not key.prefix.startswith("track-"):
            continue
        name = key.prefix.removeprefix("track-")
        last = max(marked.get(name, [0]))
        if key.number == last + 2 and f"{key.prefix}-{last + 1}" in boxes:
            gaps.append((rid, name))
    if not gaps:
        return []
    rid, name = rng.choice(gaps)
    return [IllegalMark((("box", rid),), ("scan.track-gap", "scan.cap"), name, (rid,))]


FouryScanner.tamper = _tamper
FouryScanner.illegal_marks = _illegal_marks
SCANNER = FouryScanner()

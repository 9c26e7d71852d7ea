"""Dungeon Foury pages: the map sheet (map + event tables | detachable character
sheet), the character-sheet pages (spares, heroes, 2 players) and the icon page.

compose_map(fmap, options) is called by sheetgen.games.foury.formats.map; fmap has
`.model` (the validated map) and `.board` (sheetgen.games.foury.board.Board).
"""
from __future__ import annotations

import math
from string import ascii_uppercase

from sheetgen.errors import InputError, Problem
from sheetgen.fonts import text_width, wrap
from .. import board as fb
from ..rules import rules_for
from ..tables import DIE_TABLE, REQUIREMENT_COUNT, SLAUGHTER
from .character import CharacterSpec, Hero, ZoneInfo, character_sheet
from sheetgen.draw.furniture import CORNER_ZONE, FOOTER_BAND, PRINTER_MARGIN, finish_page, sheet_id
from sheetgen.draw import scanmarks as SM
from sheetgen.draw.icons import MAP_ICONS, LABELS, icon, slug
from .enemies import BASE_FOES, FOES, enemy_reference, reference_height
from .pictograms import event_pictogram
from sheetgen.draw.model import Circle, Document, Group, Line, Page, Path, Polygon, Rect, Style, Text, allow_overlap
from sheetgen.draw.options import PAPER_SIZES, BuildOptions

INK = "#1a1a1a"
GREY = "#6b6b6b"
GRID = "#8a8a8a"
MARGIN = 6.0
SHEET_W = 97.0               # the character sheet's width
WALL_W = 1.1                 # printed walls and the map edge
ZONE_COLOURS = {"A": "#b7dc9f", "B": "#f5d98c", "C": "#d4c3e8", "D": "#a9d2ef"}
EXTRA_COLOURS = ("#f4b9a8", "#c9e4de", "#e8d6b0", "#f0c8e0", "#d9e8a8", "#c8d2f0")
# grayscale: each zone gets a hatching (angle in degrees, or 'dots' / 'cross')
ZONE_PATTERNS = {"A": 45.0, "B": "dots", "C": 0.0, "D": "cross"}
EXTRA_PATTERNS = (-45.0, 90.0, "dots", 45.0, 0.0, "cross")
REQ_PHRASE = {"statues": "stand before {n} statue{s}", "kills": "kill {n} monster{s}",
              "levers": "reach {n} lever{s} (stairs)", "cornucopias": "keep {n} unused cornucopia{s}"}
BLANK_TITLE = "Blank map"    # the character half of a blank map (its own title is written in the strip)
# the base game's zones, for sheets without a map
DEFAULT_ZONES = tuple(ZoneInfo(letter, name, kind, REQUIREMENT_COUNT[kind], ZONE_COLOURS[letter])
                      for letter, name, kind in (("A", "The Temple", "statues"), ("B", "The Palace Rooms", "kills"),
                                                 ("C", "The Castle Cliff", "levers"),
                                                 ("D", "The Waterways", "cornucopias")))


def page_size(options: BuildOptions, default: str = "a4", landscape: bool = True) -> tuple[float, float]:
    w, h = PAPER_SIZES[(options.paper or default).lower()]
    return (max(w, h), min(w, h)) if landscape else (min(w, h), max(w, h))


def coloured(fmap) -> bool:
    """Does the map print its zones in colour (`coloured: false`: white, to colour in by hand)?"""
    return fmap is None or bool(getattr(fmap.model, "coloured", True))


def zone_colour(letter: str, fmap=None) -> str:
    if not coloured(fmap):
        return "#ffffff"
    if fmap is not None:
        zone = fmap.model.zones.get(letter)
        if zone is not None and getattr(zone, "colour", None):
            return zone.colour
    if letter in ZONE_COLOURS:
        return ZONE_COLOURS[letter]
    return EXTRA_COLOURS[(ord(letter) - ord("A")) % len(EXTRA_COLOURS)]


def zone_pattern(letter: str):
    if letter in ZONE_PATTERNS:
        return ZONE_PATTERNS[letter]
    return EXTRA_PATTERNS[(ord(letter) - ord("A")) % len(EXTRA_PATTERNS)]


def _t(x, y, s, size=7.5, font="sans", anchor="start", fill=INK, id=None, cls=None):
    return Text(x, y, s, size=size, font=font, anchor=anchor, fill=fill, id=id, cls=cls)


def hatch(x, y, w, h, pattern, colour="#9c9c9c", pitch=2.2) -> list:
    """Grayscale zone pattern clipped to the rectangle (lines cut by hand: no clip paths)."""
    st = Style(stroke=colour, stroke_width=0.2)
    out = []
    if pattern == "dots":
        r = 0.3
        ny, nx = int(h // pitch), int(w // pitch)
        for j in range(ny):
            for i in range(nx):
                off = pitch / 2 if j % 2 else 0
                cx = x + pitch / 2 + i * pitch + off / 2
                cy = y + pitch / 2 + j * pitch
                if cx < x + w - r:
                    out.append(Circle(cx, cy, r, Style(stroke=None, fill=colour)))
        return out
    angles = [45.0, -45.0] if pattern == "cross" else [float(pattern)]
    for ang in angles:
        out += _hatch_lines(x, y, w, h, ang, pitch * (1.3 if pattern == "cross" else 1.0), st)
    return out


def _hatch_lines(x, y, w, h, angle, pitch, st):
    a = math.radians(angle)
    dx, dy = math.cos(a), math.sin(a)           # line direction
    nx, ny = -dy, dx                            # normal
    cx, cy = x + w / 2, y + h / 2
    half = math.hypot(w, h) / 2
    out = []
    k = -half
    while k <= half:
        px, py = cx + nx * k, cy + ny * k
        # clip the infinite line p + t*d to the box (Liang-Barsky)
        t0, t1 = -1e9, 1e9
        ok = True
        for p, q in ((-dx, px - x), (dx, x + w - px), (-dy, py - y), (dy, y + h - py)):
            if abs(p) < 1e-12:
                if q < 0:
                    ok = False
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
        if ok and t1 - t0 > 0.3:
            out.append(Line(px + dx * t0, py + dy * t0, px + dx * t1, py + dy * t1, st))
        k += pitch
    return out


# -- the map ----------------------------------------------------------------------
class MapGeometry:
    def __init__(self, x, y, cell, columns, rows):
        self.x, self.y, self.cell, self.columns, self.rows = x, y, cell, columns, rows

    def cell_xy(self, c):
        return self.x + c[0] * self.cell, self.y + c[1] * self.cell

    def side_line(self, c, side):
        x, y = self.cell_xy(c)
        s = self.cell
        return {"N": (x, y, x + s, y), "S": (x, y + s, x + s, y + s),
                "W": (x, y, x, y + s), "E": (x + s, y, x + s, y + s)}[side]


def _letter_corner(letter_pt: float, letters: str = "ABCD") -> float:
    """How far (mm) from a cell's top-left corner the zone letter's white tab reaches (the widest
    of the map's letters), with clearance."""
    from sheetgen.draw.lint import CLEARANCE
    widest = max(text_width(ch, "sans-bold", letter_pt) for ch in letters or "A")
    return 0.5 + max(widest + 1.0, letter_pt * 0.42) + CLEARANCE


def item_slots(count: int, s: float, corner: float) -> list[tuple[float, float, float]]:
    """Where the icons of count items go in a cell of side s: (x, y, size) from the cell's
    top-left.  One icon fills the cell below and right of the zone letter's corner; two sit
    side by side along the bottom; three or four share the quarters but the letter's.  On a
    small cell the icons keep a readable size and may reach the letter (the layout lint names
    that for a map's designer)."""
    pad = max(0.3, s * 0.04)
    if count == 1:
        size = max(s * 0.5, min(s * 0.66, s - corner - pad))
        off = min(max((s - size) / 2, corner), s - size - pad)
        return [(off, off, size)]
    if count == 2:
        size = max(s * 0.38, min(s * 0.46, (s - 3 * pad) / 2, s - corner - pad))
        y = s - size - pad
        return [(pad + k * (size + pad), y, size) for k in range(2)]
    size = max(s * 0.34, min(s * 0.44, (s - 3 * pad) / 2))
    near, far = pad, s - size - pad
    slots = [(far, near, size), (near, far, size), (far, far, size)]
    if count > 3:
        slots.insert(0, (near, near, size))        # four items: one shares the letter's quarter
    return slots[:count]


def draw_map(fmap, geo: MapGeometry, grayscale: bool, blank_grid: bool = False) -> list:
    """The zone grid with walls, entries, items, centre and coordinates."""
    b = fmap.board if fmap is not None else None
    items: list = []
    s = geo.cell
    colour = not grayscale
    cells = b.cells if b else {}
    letter_pt = max(6.0, min(7.5, s * 0.32))
    for yy in range(geo.rows):
        for xx in range(geo.columns):
            c = (xx, yy)
            name = fb.cell_name(c)
            x, y = geo.cell_xy(c)
            sym = cells.get(c)
            if sym is None or blank_grid:
                items.append(Rect(x, y, s, s, Style(stroke=GRID, stroke_width=0.25), id=f"cell-{name}", cls="cell"))
                continue
            if sym == fb.ROCK:
                items.append(Rect(x, y, s, s, Style(stroke=None, fill="#5a5a5a"), id=f"cell-{name}", cls="cell rock"))
                items += hatch(x, y, s, s, 45.0, "#8a8a8a", 1.6)
                continue
            if sym == fb.CENTRE:
                items.append(Rect(x, y, s, s, Style(stroke=GRID, stroke_width=0.25, fill="#ffffff"),
                                  id=f"cell-{name}", cls="cell centre"))
                continue
            fill = zone_colour(sym, fmap) if colour else "#ffffff"
            items.append(Rect(x, y, s, s, Style(stroke=GRID, stroke_width=0.25, fill=fill),
                              id=f"cell-{name}", cls=f"cell zone-{sym}"))
            if grayscale:
                # the zone's pattern is the cell's background: the letter's white tab covers it on purpose
                items.append(allow_overlap(Group(tuple(hatch(x + 0.4, y + 0.4, s - 0.8, s - 0.8, zone_pattern(sym))),
                                                 cls="hatch")))
            if b is not None and b.is_flooded(c):
                items += _water(x, y, s, colour, f"item-{name}-flooded")
            # the zone letter in the corner (always in grayscale; in colour too, for colour-blind players)
            items.append(Rect(x + 0.5, y + 0.5, text_width(sym, "sans-bold", letter_pt) + 1.0, letter_pt * 0.42,
                              Style(stroke=None, fill="#ffffff", opacity=0.85)))
            items.append(_t(x + 1.0, y + 0.6 + letter_pt * 0.36, sym, letter_pt, "sans-bold", id=f"letter-{name}",
                            cls="zone-letter"))
    if b is None:
        return items + _border(geo, [])
    # the centre room: one icon over all its cells
    centre = b.centre_cells()
    camp = rules_for(getattr(fmap.model, "campaign", "ancient")).campaign
    if centre and not blank_grid:
        xs = [c[0] for c in centre]
        ys = [c[1] for c in centre]
        x0, y0 = geo.cell_xy((min(xs), min(ys)))
        w = (max(xs) - min(xs) + 1) * s
        h = (max(ys) - min(ys) + 1) * s
        size = min(w, h) * 0.72
        items.append(icon(camp.centre_icon, x0 + (w - size) / 2, y0 + (h - size) / 2 - s * 0.04,
                          size, colour=colour, id="centre"))
        label = camp.centre
        # named inside a room of 2 x 2 cells or more (the legend names it on every map)
        if min(max(xs) - min(xs), max(ys) - min(ys)) >= 1 and text_width(label, "condensed-bold", 6.5) < w - 1.0:
            items.append(_t(x0 + w / 2, y0 + h - 0.9, label, 6.5, "condensed-bold", "middle"))
    # items: beside the zone letter in the top-left corner, never under it
    corner = _letter_corner(letter_pt, "".join(sorted(b.zones)))
    for c, names in sorted(b.items.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        names = [n for n in names if n != "flooded" or not b.is_flooded(c)]
        if not names:
            continue
        x, y = geo.cell_xy(c)
        for i, (n, (ix, iy, size)) in enumerate(zip(names, item_slots(len(names), s, corner))):
            item_id = f"item-{fb.cell_name(c)}-{slug(n)}"
            if names[:i].count(n):                  # the same item twice in a cell: keep ids unique
                item_id += f"-{names[:i].count(n) + 1}"
            items.append(icon(n, x + ix, y + iy, size, colour=colour, id=item_id))
    # start triangle: the cell's middle, or its top-right corner beside the items there
    if b.start is not None:
        x, y = geo.cell_xy(b.start)
        if b.items_at(b.start) or b.is_centre(b.start):
            size = s * 0.3
            sx, sy = x + s - size - 0.5, y + 0.5
        else:
            ox, oy, size = item_slots(1, s, corner)[0]
            size *= 0.9
            sx, sy = x + ox, y + oy
        items.append(icon("start", sx, sy, size, colour=colour, id=f"start-{fb.cell_name(b.start)}"))
    # rock edges and printed walls
    wall_st = Style(stroke=INK, stroke_width=WALL_W, cap="round")
    done = set()
    for text in getattr(fmap.model, "walls", []) or []:
        try:
            c, side = fb.parse_cell_side(text)
        except ValueError:
            continue
        key = fb.wall_key(c, side)
        if key in done:
            continue
        done.add(key)
        items.append(Line(*geo.side_line(c, side), wall_st, id=f"wall-{fb.cell_name(c)}-{side}", cls="wall"))
    for c, side in sorted(b.walls):
        if (c, side) not in done:
            items.append(Line(*geo.side_line(c, side), wall_st, id=f"wall-{fb.cell_name(c)}-{side}", cls="wall"))
    for c, sym in cells.items():
        if sym == fb.ROCK:
            continue
        for side in fb.SIDES:
            n = fb.neighbour(c, side)
            if b.on_board(n) and b.is_rock(n):
                items.append(Line(*geo.side_line(c, side), wall_st, cls="wall rock-edge"))
    if not coloured(fmap) and not grayscale:
        items += _zone_borders(geo, b)
    items += _border(geo, list(b.entries))
    for c, side in b.entries:
        items.append(_entry_arrow(geo, c, side, zone_colour(b.zone_of(c) or "A", fmap), b.zone_of(c),
                                  colour and coloured(fmap)))
    return items


ZONE_BORDER = Style(stroke="#6b6b6b", stroke_width=0.6, dash=(1.6, 0.9))


def _zone_borders(geo: MapGeometry, b) -> list:
    """Dashed lines between cells of two zones (or a zone and the centre): the regions of a map
    printed without colour, where no wall stands already."""
    out = []
    for c, sym in sorted(b.cells.items()):
        if sym == fb.ROCK:
            continue
        for side in ("E", "S"):
            n = fb.neighbour(c, side)
            other = b.cells.get(n)
            if other is None or other == fb.ROCK or other == sym or fb.wall_key(c, side) in b.walls:
                continue
            out.append(Line(*geo.side_line(c, side), ZONE_BORDER, cls="zone-border"))
    return out


def _water(x, y, s, colour, id):
    out = [Rect(x, y, s, s, Style(stroke=None, fill="#bfe1f6" if colour else "#d9d9d9", opacity=0.9))]
    st = Style(stroke="#2f6fc0" if colour else "#555555", stroke_width=0.35, cap="round")
    for k in (0.45, 0.65, 0.85):          # below the zone letter in the cell's corner
        v = y + k * s
        out.append(Path((("M", x + 0.12 * s, v), ("C", x + 0.25 * s, v - 0.07 * s, x + 0.32 * s, v - 0.07 * s, x + 0.42 * s, v),
                         ("C", x + 0.52 * s, v + 0.07 * s, x + 0.6 * s, v + 0.07 * s, x + 0.7 * s, v),
                         ("C", x + 0.78 * s, v - 0.07 * s, x + 0.84 * s, v - 0.07 * s, x + 0.9 * s, v)), st))
    return [Group(tuple(out), id=id, cls="flooded")]


def _border(geo: MapGeometry, entries) -> list:
    """The map edge is a wall except where an entry arrow stands."""
    st = Style(stroke=INK, stroke_width=WALL_W, cap="square")
    open_sides = set(entries)
    out = []
    for xx in range(geo.columns):
        for c, side in (((xx, 0), "N"), ((xx, geo.rows - 1), "S")):
            if (c, side) not in open_sides:
                out.append(Line(*geo.side_line(c, side), st, cls="edge"))
    for yy in range(geo.rows):
        for c, side in (((0, yy), "W"), ((geo.columns - 1, yy), "E")):
            if (c, side) not in open_sides:
                out.append(Line(*geo.side_line(c, side), st, cls="edge"))
    return out


def _entry_arrow(geo: MapGeometry, c, side, fill, letter, colour) -> Group:
    """A fat arrow outside the border pointing into the map, in the zone's colour."""
    s = geo.cell
    length = min(6.0, s * 0.5)
    half = min(s * 0.3, 5.0)
    x1, y1, x2, y2 = geo.side_line(c, side)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    ox, oy = {"N": (0, -1), "S": (0, 1), "W": (-1, 0), "E": (1, 0)}[side]   # outwards
    px, py = -oy, ox                                                        # along the edge
    base = 0.8 + length                                                     # tail distance from the edge
    tip = 0.6
    shaft = half * 0.5
    head = length * 0.5

    def P(d, t):
        return (mx + ox * d + px * t, my + oy * d + py * t)
    pts = (P(base, -shaft), P(base, shaft), P(tip + head, shaft), P(tip + head, half), P(tip, 0.0),
           P(tip + head, -half), P(tip + head, -shaft))
    st = Style(stroke=INK, stroke_width=0.4, fill=fill if colour else "#ffffff", join="miter")
    items = [Polygon(pts, st)]
    if letter and not colour:
        lx, ly = P(tip + head + 0.2, 0.0)
        items.append(_t(lx, ly + 1.0, letter, 6.0, "sans-bold", "middle"))
    name = fb.cell_name(c)
    return Group(tuple(items), id=f"entry-{name}-{side}", cls=f"entry zone-{letter}" if letter else "entry")


def coordinates(geo: MapGeometry, gap: float) -> list:
    """Column letters above the map and row numbers to its left (outside the entry arrows)."""
    fs = max(6.0, min(8.0, geo.cell * 0.35))
    out = []
    for xx in range(geo.columns):
        cx = geo.x + (xx + 0.5) * geo.cell
        out.append(_t(cx, geo.y - gap, ascii_uppercase[xx], fs, "sans-bold", "middle", GREY,
                      id=f"column-{ascii_uppercase[xx]}", cls="coord"))
    for yy in range(geo.rows):
        cy = geo.y + (yy + 0.5) * geo.cell + fs * 0.13
        out.append(_t(geo.x - gap, cy, str(yy + 1), fs, "sans-bold", "end", GREY, id=f"row-{yy + 1}", cls="coord"))
    return out


# -- event tables ------------------------------------------------------------------------
def requirement_phrase(kind, count) -> str:
    if not kind:
        return ""
    return REQ_PHRASE[kind].format(n=count, s="s" if count != 1 else "")


EVENT_GAP = 3.0              # mm between the zones' event blocks
EVENT_HEAD = 7.2             # a block's heading: the zone's swatch, name and requirement
EVENT_ROW_GAP = 2.0          # between the two rows of pictograms (room for the extra step's "+1")
NUMBER_W = 3.2               # the die face's number before each pictogram


def _event_grid(fmap, w):
    """(block columns, block rows, block width, pictograms per row, pictogram size) of the tables."""
    n = len(fmap.board.zones)
    cols = min(max(n, 1), 4)
    rows = (n + cols - 1) // cols
    bw = (w - EVENT_GAP * (cols - 1)) / cols
    per_row = 6 if bw >= 6 * 13 else 3
    size = max(6.0, min((bw - per_row * NUMBER_W) / per_row - 1.0, 13.0))
    return cols, rows, bw, per_row, size


def event_tables_height(fmap, w) -> float:
    """How tall the event tables are at width w."""
    cols, rows, _, per_row, size = _event_grid(fmap, w)
    return rows * (EVENT_HEAD + (6 // per_row) * (size + EVENT_ROW_GAP))


def draw_event_tables(fmap, x, y, w, h, grayscale) -> list:
    """Each zone's six d6 events as pictograms with their numbers, name and requirement."""
    b = fmap.board
    letters = sorted(b.zones)
    if not letters:
        return []
    cols, rows, bw, per_row, size = _event_grid(fmap, w)
    bh = h / rows
    out = []
    for i, letter in enumerate(letters):
        zone = b.zones[letter]
        r, c = divmod(i, cols)
        bx, by = x + c * (bw + EVENT_GAP), y + r * bh
        out += _zone_block(fmap, zone, bx, by, bw, per_row, size, grayscale)
    return out


def _zone_block(fmap, zone, x, y, w, per_row, size, grayscale):
    out = []
    fill = zone_colour(zone.letter, fmap)
    sw = 5.0
    out.append(Rect(x, y, sw, sw, Style(stroke=INK, stroke_width=0.3, fill="#ffffff" if grayscale else fill)))
    if grayscale:
        # the pattern is the swatch's background; the letter gets a white knockout over it
        out.append(allow_overlap(Group(tuple(hatch(x + 0.3, y + 0.3, sw - 0.6, sw - 0.6, zone_pattern(zone.letter),
                                                   pitch=1.4)), cls="hatch")))
        lw = text_width(zone.letter, "sans-bold", 9.0)
        out.append(Rect(x + sw / 2 - lw / 2 - 0.3, y + 0.9, lw + 0.6, 3.3, Style(stroke=None, fill="#ffffff")))
    out.append(_t(x + sw / 2, y + 3.8, zone.letter, 9.0, "sans-bold", "middle"))
    name = zone.name
    fs = 8.0
    while text_width(name, "condensed-bold", fs) > w - sw - 1.5 and fs > 6.5:
        fs -= 0.25
    out.append(_t(x + sw + 1.2, y + 2.8, name, fs, "condensed-bold", id=f"zone-{zone.letter}-name"))
    req = requirement_phrase(zone.requirement_kind, zone.requirement_count)
    if req:
        room = w - sw - 1.5
        # the label only where every zone's phrase fits with it (narrow Letter blocks),
        # so all blocks of a page read alike
        phrases = [requirement_phrase(z.requirement_kind, z.requirement_count) or ""
                   for z in fmap.board.zones.values()]
        if all(text_width("Requirement: " + p, "condensed", 6.0) <= room for p in phrases):
            req = "Requirement: " + req
        fs = 6.6
        while text_width(req, "condensed", fs) > room and fs > 6.0:
            fs -= 0.2
        out.append(_t(x + sw + 1.2, y + 5.6, req, fs, "condensed", fill=GREY))
    top = y + EVENT_HEAD
    for k in range(1, 7):
        r, c = divmod(k - 1, per_row)
        cx = x + c * (w / per_row)
        cy = top + r * (size + EVENT_ROW_GAP)
        out.append(Circle(cx + 1.5, cy + size / 2, 1.5, Style(stroke=None, fill=INK)))
        out.append(_t(cx + 1.5, cy + size / 2 + 0.95, str(k), 7.0, "sans-bold", "middle", "#ffffff"))
        events = zone.events.get(k, ())
        if events:
            out.append(event_pictogram(events, cx + NUMBER_W, cy, size, colour=not grayscale,
                                       id=f"event-{zone.letter}-{k}"))
    return out


# -- the legend column ---------------------------------------------------------------------
LEGEND_PT = 6.6
DIE_PITCH = 3.0
LEGEND_WIDTHS = (40.0, 42.0, 44.0, 46.0, 48.0, 52.0, 56.0)     # mm: the narrowest that holds the legend


def map_foes(fmap) -> list[str]:
    """The foes a player meets on this map (printed, named by an event, the centre's; on a
    blank map every base-game foe, for its designer), in the enemy reference's order;
    'monster' for an event's unnamed monster."""
    b = fmap.board
    met = set()
    if getattr(fmap.model, "blank", False):
        met |= set(BASE_FOES)               # the designer draws them: all the base game's foes
    else:
        met |= {n for names in b.items.values() for n in names}
    for zone in b.zones.values():
        for events in zone.events.values():
            for e in _events_of(events):
                if e.kind == "monster":
                    met.add(e.enemy or "monster")
    camp = rules_for(getattr(fmap.model, "campaign", "ancient")).campaign
    if camp.centre_icon in FOES and b.centre_cells():
        met.add(camp.centre_icon)
    return [f for f in FOES if f in met]


def _events_of(events):
    from .pictograms import parse_events
    return parse_events(events) if isinstance(events, str) else tuple(events)


def _map_has_die(fmap) -> bool:
    b = fmap.board
    if any("die" in names for names in b.items.values()):
        return True
    return any(e.kind == "find" and e.item == "die" for z in b.zones.values() for ev in z.events.values()
               for e in _events_of(ev))


class LegendPlan:
    """What the legend column holds at a width and how tall each part is."""

    def __init__(self, fmap, w: float, h: float):
        b = fmap.board
        self.w, self.h = w, h
        self.rounds = rules_for(getattr(fmap.model, "campaign", "ancient")).campaign.rounds
        self.foes = map_foes(fmap)
        present = []
        for names in (b.items.values() if not getattr(fmap.model, "blank", False) else ()):
            for n in names:
                if n not in present and n not in self.foes:
                    present.append(n)
        order = {n: i for i, n in enumerate(fb.ITEMS)}
        present.sort(key=lambda n: order.get(n, 99))
        labels = {n: LABELS.get(n, n) for n in present}
        camp = rules_for(getattr(fmap.model, "campaign", "ancient")).campaign
        if b.centre_cells() and camp.centre_icon not in self.foes:
            present.insert(0, camp.centre_icon)             # the centre room, by its name
            labels[camp.centre_icon] = camp.centre
        self.die = _map_has_die(fmap)
        self.demo = 10.0
        self.tips = wrap("Roll on the table of the zone you move FROM. The arrow is your move: front is ahead, "
                         "behind is where you came from. Bars are walls that collapse.", "condensed", LEGEND_PT,
                         w - self.demo - 1.5)[:8]
        self.reading_h = 4.5 + max(self.demo, len(self.tips) * 2.6) + 2.0
        self.die_h = (4.5 + len(DIE_TABLE) * DIE_PITCH + 1.0) if self.die else 0.0
        self.cols = 2 if w >= 30 else 1
        self.cw = w / self.cols
        for size in (5.0, 4.4, 3.8):
            cells = []
            for n in present:
                lines = wrap(labels[n], "condensed", LEGEND_PT, self.cw - size - 1.6)
                cells.append((n, lines[:2], max(size, len(lines[:2]) * 2.5) + 0.7))
            self.rows = [cells[i:i + self.cols] for i in range(0, len(cells), self.cols)]
            self.size = size
            self.items_h = (4.5 + sum(max(c[2] for c in row) for row in self.rows) + 1.5) if self.rows else 0.0
            self.foes_h = (4.5 + reference_height(self.foes, w, size - 0.6, self.rounds) + 1.5) if self.foes else 0.0
            if self.fits:
                break

    @property
    def height(self) -> float:
        return self.reading_h + self.items_h + self.foes_h + self.die_h

    @property
    def fits(self) -> bool:
        return self.height <= self.h + 0.05

    def problem(self) -> Problem:
        parts = [name for name, part in (("ON THIS MAP", self.items_h), ("ENEMIES", self.foes_h),
                                         ("DIE TABLE", self.die_h)) if part]
        return Problem(f"the legend beside the map has no room for {', '.join(parts)}: {self.height:.0f} mm needed, "
                       f"{self.h:.0f} mm beside the map",
                       expected="fewer kinds of items and enemies, or fewer columns or rows")


def draw_legend(fmap, x, y, w, h, grayscale) -> list:
    """Beside the map: how to read the events, the items on this map, its enemies (what each
    does) and the die table.  Smaller icons where the column is short; a column that cannot
    hold them all is an error naming what does not fit (nothing is left out silently)."""
    colour = not grayscale
    plan = LegendPlan(fmap, w, h)
    if not plan.fits:
        raise InputError(plan.problem())
    tips, demo, rows, cw, size, foes = plan.tips, plan.demo, plan.rows, plan.cw, plan.size, plan.foes
    reading_h, foes_h, die_h, die = plan.reading_h, plan.foes_h, plan.die_h, plan.die
    out = []
    cy = y
    out.append(_t(x, cy + 3, "READING THE EVENTS", 7.5, "condensed-bold"))
    out.append(event_pictogram("collapse left front", x, cy + 4.5, demo, colour=colour))
    for i, ln in enumerate(tips):
        out.append(_t(x + demo + 1.5, cy + 4.5 + 2.5 + i * 2.6, ln, LEGEND_PT, "condensed"))
    cy += reading_h
    if rows:
        out.append(_t(x, cy + 3, "ON THIS MAP", 7.5, "condensed-bold"))
        cy += 4.5
        # two columns of icon + name (names wrap onto a second line rather than shrink)
        for row in rows:
            pitch = max(c[2] for c in row)
            for c, (n, lines, _) in enumerate(row):
                ix = x + c * cw
                out.append(icon(n, ix, cy, size, colour=colour))
                top = cy + size / 2 - (len(lines) - 1) * 1.25 + 0.9
                for k, ln in enumerate(lines):
                    out.append(_t(ix + size + 1.0, top + k * 2.5, ln, LEGEND_PT, "condensed"))
            cy += pitch
        cy += 1.5
    if foes:
        out.append(_t(x, cy + 3, "ENEMIES", 7.5, "condensed-bold"))
        out.append(_t(x + w, cy + 3, "each rolls d6 + its strength", 6.0, "condensed", "end", GREY))
        cy += 4.5
        out.append(Group(tuple(enemy_reference(foes, x, cy, w, size=size - 0.6, rounds=plan.rounds,
                                               colour=colour, id_prefix="legend-foe")), id="enemy-reference"))
        cy += foes_h - 4.5
    if die:
        table = [_t(x, cy + 3, "DIE TABLE", 7.5, "condensed-bold"),
                 _t(x + w, cy + 3, "this map's own" if fmap.model.die_table else "ours, editable", 6.0, "condensed", "end", GREY)]
        ty = cy + 4.5
        for face in fmap.board.die_table.values():
            table.append(_t(x, ty + 2.5, f"{face.face}", 6.8, "condensed-bold"))
            table.append(_t(x + 3.0, ty + 2.5, face.text, 6.8, "condensed"))
            ty += DIE_PITCH
        out.append(Group(tuple(table), id="die-table"))
        cy += die_h
    return out


# -- pages ---------------------------------------------------------------------------------
def scissors(x, y, size=4.0, vertical=True) -> Group:
    """A scissors mark centred at (x, y), blades along the cut line."""
    s = size
    st = Style(stroke=INK, stroke_width=0.3, fill="#ffffff")
    if vertical:
        items = (Circle(x - s * 0.28, y + s * 0.35, s * 0.18, st), Circle(x + s * 0.28, y + s * 0.35, s * 0.18, st),
                 Line(x - s * 0.18, y + s * 0.22, x + s * 0.12, y - s * 0.5, Style(stroke=INK, stroke_width=0.45)),
                 Line(x + s * 0.18, y + s * 0.22, x - s * 0.12, y - s * 0.5, Style(stroke=INK, stroke_width=0.45)))
    else:
        items = (Circle(x - s * 0.35, y - s * 0.28, s * 0.18, st), Circle(x - s * 0.35, y + s * 0.28, s * 0.18, st),
                 Line(x - s * 0.22, y - s * 0.18, x + s * 0.5, y + s * 0.12, Style(stroke=INK, stroke_width=0.45)),
                 Line(x - s * 0.22, y + s * 0.18, x + s * 0.5, y - s * 0.12, Style(stroke=INK, stroke_width=0.45)))
    return Group(items, cls="scissors")


# mm above the bottom edge: the top of the QR code's white and 0.5 mm (the middle sheet of three ends
# above it: its bottom row's marks reach a little below the height it is given)
QR_TOP = SM.QR_BOTTOM + SM.QR + SM.QUIET + 0.5
# mm: how much higher the event tables are drawn than the map's layout puts them: the pictograms
# above the QR code end as far above its white (0.27 mm) as before the code moved up to the
# printer's margin
EVENTS_LIFT = 0.4
# mm: where the sheets of a page of character sheets start: the top of their title's capitals
# is 1.7 mm lower, 0.4 mm clear of the printer's margin (the hero sheets need every mm above the QR code)
SHEETS_TOP = PRINTER_MARGIN - 1.3
CUT_TOP = PRINTER_MARGIN + 0.2     # mm: a cut line's top end, its stroke clear of the printer's margin
CUT_BOTTOM = FOOTER_BAND[0] + 0.2  # mm above the bottom edge: a cut line's bottom end, above the footer line


def cut_line(x, y1, y2, id="cut-line") -> list:
    return [Line(x, y1, x, y2, Style(stroke=GREY, stroke_width=0.3, dash=(2.0, 1.5)), id=id, cls="cut"),
            Group((Rect(x - 2.6, y1, 5.2, 6.0, Style(stroke=None, fill="#ffffff")),
                   scissors(x, y1 + 3.2, 4.6)), id=f"{id}-scissors")]


def zone_infos(fmap) -> list[ZoneInfo]:
    b = fmap.board
    return [ZoneInfo(z.letter, z.name, z.requirement_kind, z.requirement_count, zone_colour(z.letter, fmap))
            for _, z in sorted(b.zones.items())]


def spec_for_map(fmap, hero: Hero | None = None) -> CharacterSpec:
    b = fmap.board
    m = fmap.model
    campaign = getattr(m, "campaign", "ancient")
    camp = rules_for(campaign).campaign
    extras = getattr(b, "hero_extras", True)
    return CharacterSpec(campaign=campaign, hero_extras=extras and not camp.full_scale,
                         turns=getattr(b, "turns", None),
                         max_enemies=getattr(b, "max_enemies", None) or SLAUGHTER.max_enemies,
                         zones=[z for z in zone_infos(fmap) if z.requirement_kind] or list(DEFAULT_ZONES),
                         hero=hero, title=BLANK_TITLE if getattr(m, "blank", False) else m.title)


def compose_map(fmap, options: BuildOptions, hero: Hero | None = None) -> Document:
    """The map sheet: map, event tables and legend on the left; the character sheet on the right
    (pre-filled for hero, the sheet data of the hero that `options.option("hero")` names)."""
    W, H = page_size(options)
    page = Page(W, H, name=slug(fmap.model.title) or "map")
    gray = options.grayscale
    m, b = fmap.model, fmap.board
    blank = bool(getattr(m, "blank", False))
    columns = int(options.option("columns") or b.columns)
    rows = int(options.option("rows") or b.rows)
    resized = (columns, rows) != (b.columns, b.rows)
    cut_x = W - SHEET_W - 2 * MARGIN
    left_w = cut_x - 2 * MARGIN
    bottom = H - CORNER_ZONE            # the event tables and the sheet end above the bottom corners
    camp = rules_for(getattr(m, "campaign", "ancient")).campaign

    # title (clear of the top-left corner)
    tx = CORNER_ZONE + 0.5
    page.add(_t(tx, MARGIN + 8.0, "DUNGEON FOURY", 24, "serif-bold", id="game-title"))
    gx = tx + text_width("DUNGEON FOURY", "serif-bold", 24) + 5
    if blank:
        # the strip to write the map's own title in
        page.add(Rect(tx, MARGIN + 10.5, MARGIN + left_w * 0.62 - tx, 8.0, Style(stroke=INK, stroke_width=0.4),
                      radius=1.5, id="title-strip", cls="title-strip"))
        page.add(_t(tx + 2, MARGIN + 12.8, "TITLE", 6.0, "condensed-bold", fill=GREY))
    else:
        page.add(_t(gx, MARGIN + 8.0, m.title, 13, "serif-bold", id="map-title"))
    if not blank:
        # the map's own description; a map without one names its campaign, never the base game's story
        line = getattr(m, "description", "") or ""
        if not line and camp.name != "ancient" and camp.title != m.title:
            line = f"A map for {camp.title}."
        if line:
            fs = 7.5
            while text_width(line, "serif-italic", fs) > MARGIN + left_w - gx and fs > 6.0:
                fs -= 0.25
            # every line (a description too long for two runs into the column letters: the layout
            # lint names it, nothing is cut off silently)
            lines = wrap(line, "serif-italic", fs, MARGIN + left_w - gx)
            page.add(Group(tuple(_t(gx, MARGIN + 12.8 + i * 3.2, ln, fs, "serif-italic", fill=GREY)
                                 for i, ln in enumerate(lines)), id="map-description"))

    # the event tables along the bottom, as tall as their pictograms need
    events_h = event_tables_height(fmap, left_w)
    events_y = bottom - events_h
    # the map: the biggest square that leaves room for the events below and a legend beside it
    top = MARGIN + (32.0 if blank else 27.0)
    avail_h = events_y - 4.0 - top - (14.0 if blank else 11.0)
    legend_top = top - 6.0
    legend_bottom = events_y - (9.0 if blank else 4.0)
    # the legend as narrow as its contents allow (the map takes the rest of the width)
    for legend_w in LEGEND_WIDTHS:
        cell = min(avail_h / rows, (left_w - legend_w - 22.0) / columns, 26.0)
        if LegendPlan(fmap, legend_w - 1.0, legend_bottom - legend_top).fits:
            break
    map_w = cell * columns
    mx = MARGIN + 11.0
    geo = MapGeometry(mx, top, cell, columns, rows)
    # another size than the definition's grid: an empty grid for the player to zone
    page.add(Group(tuple(draw_map(None if resized else fmap, geo, gray)), id="map", cls="map"))
    page.add(*coordinates(geo, (min(7.5, cell * 0.5) + 2.5) if not resized else 3.0))
    lx = mx + map_w + 12.0
    page.add(Group(tuple(draw_legend(fmap, lx, legend_top, MARGIN + left_w - lx, legend_bottom - legend_top, gray)),
                   id="legend"))
    # (drawn EVENTS_LIFT higher than laid out: the pictograms above the QR code keep clear of its white)
    page.add(Group(tuple(draw_event_tables(fmap, MARGIN, events_y - EVENTS_LIFT, left_w, events_h, gray)),
                   id="events"))
    if blank:
        if resized:
            how = ("An empty grid: colour the zones, draw the centre room, the entry arrows, the walls and the "
                   "icons (cut them from the icon page); write the map's title in the strip.")
        else:
            how = ("The zones, the centre, the entry arrows and the outer walls are printed: draw the icons "
                   "(cut them from the icon page) and any walls; write the map's title in the strip.")
        lines = wrap(how, "condensed", 7.0, left_w)
        page.add(Group(tuple(_t(MARGIN, events_y - 3.5 - (len(lines) - 1 - k) * 3.0, ln, 7.0, "condensed", fill=GREY)
                             for k, ln in enumerate(lines)), id="blank-instructions"))
    # the character sheet, detachable; its header clear of the top-right corner
    page.add(*cut_line(cut_x, CUT_TOP, H - CUT_BOTTOM))
    hero_name = options.option("hero")
    spec = spec_for_map(fmap, hero)
    sx = cut_x + MARGIN
    page.add(Group(tuple(character_sheet(sx, MARGIN, SHEET_W, bottom - MARGIN, spec, gray,
                                         clear=(0.0, max(0.0, sx + SHEET_W - (W - CORNER_ZONE) + 0.5)))),
                   id="character-sheet", cls="character-sheet"))
    sid = sheet_id("foury-map", m.model_dump() if hasattr(m, "model_dump") else repr(m), columns, rows,
                   options.paper, gray, hero_name)
    finish_page(page, options, sid, footer=f"Dungeon Foury · {m.title} · our own map")
    source = getattr(fmap, "source", None)
    name = source.path.stem if source is not None and getattr(source, "path", None) else slug(m.title)
    if resized:
        name += f"-{columns}x{rows}"
    return Document([page], title=f"Dungeon Foury: {m.title}", name=name or "foury-map",
                    subject="Dungeon Foury map and character sheet")


def element_key(element_id: str | None) -> tuple | None:
    """The map file's key an element of the map page comes from (for the layout lint's
    warnings): map-title -> title, zone-A-name -> zones.A.name, item-C4-... -> items.C4 (and the
    zone letter of C4, which only an item there can run into)."""
    import re
    if not element_id:
        return None
    fixed = {"map-title": ("title",), "sheet-subtitle": ("title",), "map-description": ("description",)}
    if element_id in fixed:
        return fixed[element_id]
    for pattern, key in ((r"zone-([A-Z])-name$", lambda m: ("zones", m[1], "name")),
                         (r"(?:p\d+-)?req-name-([A-Z])$", lambda m: ("zones", m[1], "name")),
                         (r"event-([A-Z])-(\d)$", lambda m: ("zones", m[1], "events", int(m[2]))),
                         (r"item-([A-Z]\d+)-", lambda m: ("items", m[1])),
                         (r"letter-([A-Z]\d+)$", lambda m: ("items", m[1]))):
        found = re.match(pattern, element_id)
        if found:
            return key(found)
    return None


# -- sheets without a map ---------------------------------------------------------------------
SHEET_GAP = 6.0              # mm between two sheets of a page (the cut line in its middle)
PAGE_BREAK = "@page"         # a side-text heading: the blocks after it go to the next page's column
ENEMIES_BLOCK = "@enemies "  # a side-text heading: the enemy reference ('@enemies base' or '@enemies all')


def character_pages(specs: list[CharacterSpec], options: BuildOptions, title: str, name: str,
                    side_text: list[tuple[str, str]] | None = None, per_page: int = 3) -> Document:
    """Character sheets side by side on landscape pages (cut lines between them);
    side_text: (heading, paragraph) blocks filling a free column beside the sheets, a
    PAGE_BREAK heading starting the next page's column (a page past the last break repeats
    nothing: its column takes the blocks of the last break).  The sheets' headers and the
    column stay clear of the page's corners (the scanner's marks)."""
    W, H = page_size(options)
    gray = options.grayscale
    pages = []
    slots = per_page if side_text is None else per_page - 1
    chunks = [specs[i:i + slots] for i in range(0, len(specs), slots)] or [[]]
    inner = W - 2 * MARGIN
    if side_text is None:
        sw = min(SHEET_W, (inner - (slots - 1) * SHEET_GAP) / slots)
    else:
        sw = min(SHEET_W, (inner - slots * SHEET_GAP - SIDE_MIN) / slots)
    clear = max(0.0, CORNER_ZONE - MARGIN + 0.5)
    columns = _side_columns(side_text, len(chunks)) if side_text is not None else []
    for pi, chunk in enumerate(chunks):
        page = Page(W, H, name=f"{name}-{pi + 1}" if len(chunks) > 1 else name)
        for i, spec in enumerate(chunk):
            x = MARGIN + i * (sw + SHEET_GAP)
            prefix = f"p{pi * slots + i + 1}-" if len(specs) > 1 else ""
            # the sheets start higher than the page's margin and end above the QR code's white
            page.add(Group(tuple(character_sheet(x, SHEETS_TOP, sw, H - max(CORNER_ZONE, QR_TOP) - SHEETS_TOP,
                                                 spec, gray, prefix,
                                                 clear=(clear, clear))),
                           id=f"{prefix}character-sheet", cls="character-sheet"))
            if i:
                page.add(*cut_line(x - SHEET_GAP / 2, CUT_TOP, H - CUT_BOTTOM, id=f"cut-line-{i}"))
        if side_text is not None:
            x = MARGIN + len(chunk) * (sw + SHEET_GAP)
            if chunk:
                page.add(*cut_line(x - SHEET_GAP / 2, CUT_TOP, H - CUT_BOTTOM, id=f"cut-line-{len(chunk)}"))
            x += 1.0
            page.add(Group(tuple(text_column(x, MARGIN, W - CORNER_ZONE - x, H - CORNER_ZONE - MARGIN, columns[pi],
                                             gray)), id="notes"))
        sid = sheet_id("foury-sheet", name, [repr(s) for s in chunk], options.paper, gray, pi)
        finish_page(page, options, sid, footer=f"Dungeon Foury · {title}")
        pages.append(page)
    return Document(pages, title=f"Dungeon Foury: {title}", name=name, subject="Dungeon Foury character sheets")


SIDE_MIN = 52.0              # mm: the narrowest side column beside two sheets


def _side_columns(blocks, pages: int) -> list[list]:
    """The side-text blocks of each page: split at PAGE_BREAK headings."""
    columns: list[list] = [[]]
    for heading, body in blocks:
        if heading == PAGE_BREAK:
            columns.append([])
        else:
            columns[-1].append((heading, body))
    while len(columns) < pages:
        columns.append(columns[-1])
    return columns[:pages]


def text_column(x, y, w, h, blocks, grayscale) -> list:
    """Side-text blocks down a column: a serif heading, paragraphs in condensed type; a heading
    '@icon a,b' draws icons, '@enemies base|all' the enemy reference."""
    out = []
    cy = y
    for heading, body in blocks:
        if heading.startswith("@icon "):
            names = heading[6:].split(",")
            size = 9.0
            for i, n in enumerate(names):
                out.append(icon(n.strip(), x + i * (size + 2), cy, size, colour=not grayscale))
            cy += size + 2
            continue
        if heading.startswith(ENEMIES_BLOCK):
            foes = FOES if heading[len(ENEMIES_BLOCK):].strip() == "all" else BASE_FOES
            title, _, note = body.partition("\n")
            out.append(_t(x, cy + 3.6, title or "Enemies", 9.0, "serif-bold"))
            cy += 5.2
            if note:
                for ln in wrap(note, "condensed", 7.4, w):
                    out.append(_t(x, cy + 2.8, ln, 7.4, "condensed"))
                    cy += 3.3
                cy += 1.0
            size = 5.6
            out.append(Group(tuple(enemy_reference(foes, x, cy, w, size=size, colour=not grayscale,
                                                   id_prefix="notes-foe")), id="enemy-reference"))
            cy += reference_height(foes, w, size) + 2.0
            continue
        if heading:
            out.append(_t(x, cy + 3.6, heading, 9.0, "serif-bold"))
            cy += 5.2
        for para in body.split("\n"):
            for ln in wrap(para, "condensed", 7.4, w):
                out.append(_t(x, cy + 2.8, ln, 7.4, "condensed"))
                cy += 3.3
            cy += 0.8
        cy += 2.0
    return out


def icon_page(options: BuildOptions, title: str, size: float = 14.0, small: float = 8.0) -> Document:
    """Every icon at print size with its name, in cut-out tiles, plus the event pictograms."""
    W, H = page_size(options, landscape=False)
    gray = options.grayscale
    page = Page(W, H, name="icons")
    page.add(_t(MARGIN, MARGIN + 7, "DUNGEON FOURY", 18, "serif-bold"))
    page.add(_t(W - MARGIN, MARGIN + 7, title, 11, "serif-bold", "end"))
    page.add(_t(MARGIN, MARGIN + 12, "Cut out the icons or copy them onto a blank map. "
                "Big tiles for 5x5 maps, small ones for bigger grids.", 7.5, "condensed", fill=GREY))
    tile_w, tile_h = size + 8.0, size + 7.0
    cols = int((W - 2 * MARGIN) // tile_w)
    x0 = (W - cols * tile_w) / 2
    y0 = MARGIN + 16
    cut = Style(stroke="#b0b0b0", stroke_width=0.2, dash=(1.2, 1.0))
    for i, n in enumerate(MAP_ICONS):
        r, c = divmod(i, cols)
        x, y = x0 + c * tile_w, y0 + r * tile_h
        page.add(Rect(x, y, tile_w, tile_h, cut))
        page.add(icon(n, x + (tile_w - size) / 2, y + 1.5, size, colour=not gray, id=f"icon-{slug(n)}"))
        label = LABELS.get(n, n)
        fs = 7.0
        while text_width(label, "condensed", fs) > tile_w - 1.5 and fs > 6.0:
            fs -= 0.2
        page.add(_t(x + tile_w / 2, y + tile_h - 2.0, label, fs, "condensed", "middle", cls="icon-label"))
    rows_used = (len(MAP_ICONS) + cols - 1) // cols
    y = y0 + rows_used * tile_h + 6
    page.add(_t(MARGIN, y, f"SMALL ({small:g} mm)", 8, "condensed-bold"))
    y += 2
    small_tile = small + 2.0
    per = int((W - 2 * MARGIN) // small_tile)
    for i, n in enumerate(MAP_ICONS):
        r, c = divmod(i, per)
        tx, ty = MARGIN + c * small_tile, y + r * small_tile
        page.add(Rect(tx, ty, small_tile, small_tile, cut, cls="cut-guide"))      # cut guides, as the big tiles
        page.add(icon(n, tx + 1, ty + 1, small, colour=not gray, id=f"icon-small-{slug(n)}"))
    y += ((len(MAP_ICONS) + per - 1) // per) * small_tile + 6
    page.add(_t(MARGIN, y, "EVENT PICTOGRAMS (the move enters from below; bars collapse)", 8, "condensed-bold"))
    y += 2
    events = ("monster", "chest", "extra step", "collapse front", "collapse behind", "collapse left",
              "collapse right", "collapse left right", "collapse left front", "collapse right front",
              "collapse front behind", "collapse origin", "flood origin", "collapse behind + monster",
              "find potion", "find cornucopia")
    ev = 14.0
    per = int((W - 2 * MARGIN) // (ev + 8))
    for i, e in enumerate(events):
        r, c = divmod(i, per)
        ex, ey = MARGIN + c * (ev + 8) + 4, y + r * (ev + 9)
        if ey + ev + 6 > H - 10:
            break
        page.add(event_pictogram(e, ex, ey, ev, colour=not gray, id=f"pictogram-{slug(e.replace('+', ''))}"))
        lines = wrap(e, "condensed", 6.0, ev + 7)
        for k, ln in enumerate(lines[:2]):
            page.add(_t(ex + ev / 2, ey + ev + 2.6 + k * 2.4, ln, 6.0, "condensed", "middle"))
    # fill the rest of the page with spare copies of the icons a designer needs most
    y = ey + ev + 12 if events else y
    spares = ("statue", "lever", "stairs", "chest", "monster", "magic circle", "potion", "cornucopia", "die",
              "shovel", "weapon", "shield", "clover", "entry")
    tile = 12.0
    per = int((W - 2 * MARGIN) // tile)
    x0 = (W - per * tile) / 2
    rows = int((H - 12 - (y + 2)) // tile)
    if rows > 0:
        page.add(_t(MARGIN, y, "SPARE COPIES", 8, "condensed-bold"))
        y += 2
        for k in range(rows * per):
            r, c = divmod(k, per)
            tx, ty = x0 + c * tile, y + r * tile
            page.add(Rect(tx, ty, tile, tile, cut))
            page.add(icon(spares[k % len(spares)], tx + 1.5, ty + 1.5, tile - 3.0, colour=not gray))
    sid = sheet_id("foury-icons", MAP_ICONS, size, small, options.paper, gray)
    finish_page(page, options, sid, footer=f"Dungeon Foury · {title}")
    return Document([page], title=f"Dungeon Foury: {title}", name="foury-icons", subject="Dungeon Foury icons")

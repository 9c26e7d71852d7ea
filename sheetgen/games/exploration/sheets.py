"""Exploration sheets: the d66 shape table, the contents and entrance tables, the blank
graph sheet and map-mode maps.  Drawing-model primitives only (mm, y down).

Door states are told apart by shape, never by colour alone: unexplored = open box on
the wall, explored = filled box, secret = 'S' on the wall.
"""
from __future__ import annotations

from sheetgen.fonts import fit_size, text_width, wrap
from sheetgen.draw.furniture import CORNER_ZONE, finish_page, sheet_id
from sheetgen.draw.model import Circle, Document, Group, Line, Page, Polygon, Rect, Style, Text, allow_overlap
from sheetgen.draw.options import PAPER_SIZES, BuildOptions

INK = "#000000"
GRID_INK = "#b8b8b8"
SOFT = "#555555"
FLOOR_FILL = "#ece3cf"
CORRIDOR_FILL = "#dfe6ee"
MARGIN = 8.0
WALL = Style(stroke=INK, stroke_width=0.5, cap="square")
THIN_WALL = Style(stroke=INK, stroke_width=0.35, cap="square")
GRID = Style(stroke=GRID_INK, stroke_width=0.15)
BOX = Style(stroke=INK, stroke_width=0.3)
DOOR_OPEN = Style(stroke=INK, stroke_width=0.3, fill="#ffffff")
DOOR_SHUT = Style(stroke=INK, stroke_width=0.3, fill=INK)
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def paper_size(paper: str | None) -> tuple[float, float]:
    return PAPER_SIZES.get(paper or "a4", PAPER_SIZES["a4"])


def _fill(colour: str, options: BuildOptions) -> str | None:
    return None if options.grayscale else colour


# -- shapes and doors ----------------------------------------------------------------
def _edge(x0: float, y0: float, sq: float, cx: int, cy: int, side: str):
    """The two end points of a square's side on the page."""
    left, top = x0 + cx * sq, y0 + cy * sq
    return {"N": (left, top, left + sq, top), "S": (left, top + sq, left + sq, top + sq),
            "W": (left, top, left, top + sq), "E": (left + sq, top, left + sq, top + sq)}[side]


def door_mark(x0: float, y0: float, sq: float, cx: int, cy: int, side: str, state: str,
              ident: str | None = None) -> Group:
    """A door on the side of square (cx, cy) of a grid at (x0, y0) with squares of sq mm."""
    ax, ay, bx, by = _edge(x0, y0, sq, cx, cy, side)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    long, thick = sq * 0.55, max(sq * 0.28, 0.9)
    w, h = (long, thick) if side in "NS" else (thick, long)
    if state == "secret":
        size = max(sq * 1.6, 6.0)          # points: an 'S' on the wall
        cap = size * 0.3528 * 0.73
        box = cap + 0.8
        items = (Rect(mx - box / 2, my - box / 2, box, box, Style(stroke=None, fill="#ffffff")),
                 Text(mx, my + cap / 2, "S", size=size, font="sans-bold", anchor="middle"))
        # the 'S' sits on the wall line on purpose (a white knockout behind it)
        return allow_overlap(Group(items, id=ident, cls=f"door {state}"))
    items = (Rect(mx - w / 2, my - h / 2, w, h, DOOR_SHUT if state == "explored" else DOOR_OPEN),)
    return Group(items, id=ident, cls=f"door {state}")


def outline_walls(cells: set, x0: float, y0: float, sq: float, style: Style = WALL, ident_prefix: str | None = None,
                  offset=(0, 0)) -> list:
    """Thick lines on every side of a square that does not border another square of the set."""
    out = []
    ox, oy = offset
    for cx, cy in sorted(cells):
        for side, (dx, dy) in DELTA.items():
            if (cx + dx, cy + dy) not in cells:
                ax, ay, bx, by = _edge(x0, y0, sq, cx - ox, cy - oy, side)
                ident = f"{ident_prefix}-{cx}-{cy}-{side}" if ident_prefix else None
                out.append(Line(ax, ay, bx, by, style, id=ident, cls="wall"))
    return out


def shape_panel(entry, key, x: float, y: float, w: float, sq: float, options: BuildOptions, grid: int = 8) -> Group:
    """One table entry: its number, name and kind above an 8x8 little grid with the shape and exits."""
    shape = entry.shape
    items: list = []
    label = str(key)
    items.append(Text(x, y + 4.2, label, size=12, font="sans-bold", id=f"shape-{key}-number", cls="number"))
    name_x = x + text_width(label, "sans-bold", 12) + 1.5
    kind = "corridor" if entry.kind == "corridor" else "room"
    caption = f"{entry.name}"
    size = fit_size(caption, "condensed", 7.0, w - (name_x - x), minimum=6.0)
    items.append(Text(name_x, y + 2.6, caption, size=size, font="condensed"))
    items.append(Text(name_x, y + 5.2, f"{kind} · {len(shape.exits)} exit{'s' if len(shape.exits) != 1 else ''}",
                      size=6.0, font="condensed", fill=SOFT))
    gy = y + 6.8
    gx = x + (w - grid * sq) / 2
    for i in range(grid + 1):
        items.append(Line(gx + i * sq, gy, gx + i * sq, gy + grid * sq, GRID))
        items.append(Line(gx, gy + i * sq, gx + grid * sq, gy + i * sq, GRID))
    ox = (grid - shape.width) // 2
    oy = (grid - shape.height) // 2
    fill = _fill(CORRIDOR_FILL if entry.kind == "corridor" else FLOOR_FILL, options)
    for cx, cy in sorted(shape.cells):
        items.append(Rect(gx + (cx + ox) * sq, gy + (cy + oy) * sq, sq, sq,
                          Style(stroke=None, fill=fill or None) if fill else Style(stroke=None)))
    if options.grayscale and entry.kind == "corridor":
        # ink saver: corridors get a centre line so they differ from rooms without colour
        for cx, cy in sorted(shape.cells):
            mx, my = gx + (cx + ox + 0.5) * sq, gy + (cy + oy + 0.5) * sq
            items.append(Circle(mx, my, sq * 0.12, Style(stroke=None, fill=SOFT)))
    items += outline_walls(set(shape.cells), gx + ox * sq, gy + oy * sq, sq, THIN_WALL)
    for ex, ey, side in shape.exits:
        state = "secret" if (ex, ey, side) in shape.secret else "unexplored"
        items.append(door_mark(gx + ox * sq, gy + oy * sq, sq, ex, ey, side, state))
    return Group(tuple(items), id=f"shape-{key}", cls=f"shape {entry.kind}")


def legend_row(x: float, y: float, sq: float = 4.0) -> list:
    """Floor, corridor and the three door states, in one line."""
    items = []
    cx = x
    for state, label in (("unexplored", "unexplored door"), ("explored", "explored door"),
                         ("secret", "secret door")):
        items.append(Line(cx, y, cx + sq, y, WALL))
        items.append(door_mark(cx, y, sq, 0, 0, "N", state))
        items.append(Text(cx + sq + 1.5, y + 1.2, label, size=7, font="sans"))
        cx += sq + 3 + text_width(label, "sans", 7) + 5
    return items


# -- table sheets ---------------------------------------------------------------------
def tables_document(rooms, entrances, contents, options: BuildOptions, title: str = "", paper: str = "a4",
                    name: str = "exploration-tables", treasure=None) -> Document:
    """The d66 shapes (page 1), then the contents, entrance and treasure tables; any may be None."""
    pages = []
    pw, ph = paper_size(paper)
    sid = sheet_id("exploration-tables", getattr(rooms, "title", None), getattr(contents, "title", None),
                   _table_fingerprint(rooms), _table_fingerprint(entrances), options.paper, options.grayscale)
    if rooms is not None:
        pages.append(finish_page(_d66_page(rooms, pw, ph, options), options, sid, footer=title or rooms.title))
    if contents is not None or entrances is not None or treasure is not None:
        pages.append(finish_page(_contents_page(contents, entrances, pw, ph, options, treasure), options, sid,
                                 footer=title or "Dungeon exploration tables"))
    return Document(pages, title=title or "Dungeon exploration tables", name=name,
                    subject="d66 room shapes, room contents and entrance tables")


def _table_fingerprint(table) -> str:
    if table is None or table.rooms is None:
        return ""
    return repr(sorted((k, e.kind, tuple(sorted(e.shape.cells)), e.shape.exits) for k, e in table.rooms.entries.items()))


def _d66_page(table, pw: float, ph: float, options: BuildOptions) -> Page:
    page = Page(pw, ph, name="d66-shapes")
    page.add(Text(MARGIN + 2, 14, table.title, size=16, font="sans-bold", id="title"))
    note = ("Roll two d6: first die = tens, second = units. Rotate or mirror a shape, stretch it 1-2 squares "
            "to fit; if it still won't fit, draw what fits as a dead end.")
    lines = wrap(note, "sans", 7.5, pw - 2 * MARGIN - 4)
    for i, line in enumerate(lines):
        page.add(Text(MARGIN + 2, 19 + i * 3.3, line, size=7.5, font="sans"))
    ly = 19 + len(lines) * 3.3 + 2.5
    page.add(*legend_row(MARGIN + 2, ly))
    top = ly + 5
    avail_w = pw - 2 * MARGIN
    col_w = avail_w / 6
    sq = min((col_w - 3) / 8, (ph - top - 14) / 6 / 8 - 1.2)
    sq = int(sq * 10) / 10
    row_h = 6.8 + 8 * sq + 3.0
    for r in range(6):
        for c in range(6):
            key = (r + 1) * 10 + c + 1
            entry = table.rooms.entries[key]
            page.add(shape_panel(entry, key, MARGIN + c * col_w + 1, top + r * row_h, col_w - 2, sq, options))
    return page


def _contents_page(contents, entrances, pw: float, ph: float, options: BuildOptions, treasure=None) -> Page:
    page = Page(pw, ph, name="contents-entrance")
    y = 14.0
    x0 = MARGIN + 2
    width = pw - 2 * MARGIN - 4
    if contents is not None:
        table = contents.contents
        page.add(Text(x0, y, contents.title, size=16, font="sans-bold", id="title"))
        y += 6
        page.add(Text(x0, y, "Roll 2d6 for every new room or corridor and read the column for its kind.",
                      size=8, font="sans"))
        y += 4
        cols = (x0, x0 + 12, x0 + 12 + (width - 12) / 2)
        col_w = (width - 12) / 2 - 3
        page.add(Rect(x0, y, width, 6, Style(stroke=INK, stroke_width=0.3, fill=_fill("#e8e8e8", options))))
        for cx, head in zip(cols, ("2d6", "Corridor", "Room")):
            page.add(Text(cx + 1.5, y + 4.3, head, size=9, font="sans-bold"))
        y += 6
        for roll in range(2, 13):
            corridor_id, room_id = table.rows[roll]
            cells = []
            for rid in (corridor_id, room_id):
                res = table.results[rid]
                tag = "" if res.label.lower() == res.category else f" ({res.category})"
                text = f"{res.label}{tag}" + (f": {res.text}" if res.text else "")
                cells.append(wrap(text, "condensed", 8, col_w))
            n = max(len(c) for c in cells)
            h = 2.2 + n * 3.4
            page.add(Rect(x0, y, width, h, BOX, id=f"contents-row-{roll}", cls="contents-row"))
            page.add(Line(cols[1], y, cols[1], y + h, BOX), Line(cols[2], y, cols[2], y + h, BOX))
            page.add(Text(cols[0] + 6, y + 4.4, str(roll), size=11, font="sans-bold", anchor="middle"))
            for cx, lines in zip(cols[1:], cells):
                for i, line in enumerate(lines):
                    page.add(Text(cx + 1.5, y + 4.0 + i * 3.4, line, size=8, font="condensed"))
            y += h
        rule = table.escalation.rule or (f"On 11 roll the boss escalation d6, +{table.escalation.per_prior} for "
                                         f"every earlier boss result; {table.escalation.final_at}+ is the Final Boss.")
        y += 8
        page.add(Text(x0, y, "Boss escalation (11)", size=10, font="sans-bold"))
        y += 2
        lines = wrap(" ".join(rule.split()), "sans", 8, width - 4)
        page.add(Rect(x0, y, width, 2.5 + len(lines) * 3.6, BOX, id="escalation", cls="escalation"))
        for i, line in enumerate(lines):
            page.add(Text(x0 + 2, y + 4.2 + i * 3.6, line, size=8, font="sans"))
        y += 2.5 + len(lines) * 3.6 + 8
    if entrances is not None:
        page.add(Text(x0, y, entrances.title, size=14, font="sans-bold", id="entrance-title"))
        y += 3
        page.add(Text(x0, y + 2.5, "Roll d6 and draw the entrance at the bottom centre of the sheet.",
                      size=8, font="sans"))
        y += 5
        alone = contents is None and treasure is None       # alone on its page: drawn large, 3 x 2
        per_row = 3 if alone else 6
        col_w = width / per_row
        sq = min((col_w - 3) / 8, 7.0 if alone else 3.6)
        for i in range(6):
            entry = entrances.rooms.entries[i + 1]
            row, col = divmod(i, per_row)
            page.add(shape_panel(entry, i + 1, x0 + col * col_w, y + row * (6.8 + 8 * sq + 4), col_w - 2, sq,
                                 options))
        y += (6 // per_row) * (6.8 + 8 * sq + 4)
        page.add(*legend_row(x0, y + 1))    # the door states, drawn only in the entrance rooms
        y += 6
    if treasure is not None:
        y = _treasure_table(page, treasure, x0, y + 4, width, options)
    _play_aids(page, contents, treasure, x0, y + 4, width, ph - CORNER_ZONE - 2)
    return page


def _play_aids(page: Page, contents, treasure, x0: float, y: float, width: float, bottom: float) -> None:
    """What fills the rest of a tables page: what a player writes down while the tables are in
    use, so a short table alone on a page (treasure: six rows) is still worth its paper:
    a tick box per boss met (each adds to the next escalation roll) and a log of finds, or notes."""
    if contents is not None and bottom - y >= 10:
        esc = contents.contents.escalation
        per = getattr(esc, "per_prior", 1)
        final = getattr(esc, "final_at", 6)
        page.add(Text(x0, y, "Bosses met", size=10, font="sans-bold", id="bosses-met-title"))
        page.add(Text(x0 + text_width("Bosses met", "sans-bold", 10) + 3, y,
                      f"tick one for each boss result: each adds +{per} to the next escalation roll "
                      f"({final}+ is the Final Boss)", size=8, font="sans"))
        for i in range(8):
            page.add(Rect(x0 + i * 9, y + 3, 6, 6, BOX, id=f"boss-box-{i + 1}", cls="boss-box"))
        y += 17
    if bottom - y < 20:
        return
    title, heads = (("Treasure found", ("d6", "Find", "Carried by")) if treasure is not None
                    else ("Notes", ()))
    page.add(Text(x0, y, title, size=10, font="sans-bold", id="log-title"))
    y += 3
    cols = (x0, x0 + 12, x0 + width * 0.68) if heads else ()
    if heads:
        page.add(Rect(x0, y, width, 6, BOX))
        for cx, head in zip(cols, heads):
            page.add(Text(cx + 1.5, y + 4.3, head, size=9, font="sans-bold"))
        y += 6
    pitch = 7.5
    rows = int((bottom - y) // pitch)
    for r in range(rows):
        top = y + r * pitch
        # (no id: a Letter page has fewer lines than an A4 one)
        page.add(Line(x0, top + pitch, x0 + width, top + pitch, Style(stroke=GRID_INK, stroke_width=0.3),
                      cls="log-line"))
        for cx in cols[1:]:
            page.add(Line(cx, top, cx, top + pitch, Style(stroke=GRID_INK, stroke_width=0.3)))


def _treasure_table(page: Page, table, x0: float, y: float, width: float, options: BuildOptions) -> float:
    """The treasure table (d6 | find) in the style of the contents table; returns the y below it."""
    treasure = table.treasure
    page.add(Text(x0, y, table.title, size=14, font="sans-bold", id="treasure-title"))
    y += 3
    for line in wrap(treasure.notes or "Roll d6 when a result sends you to the treasure table.", "sans", 8, width):
        page.add(Text(x0, y + 2.5, line, size=8, font="sans"))
        y += 3.6
    y += 2.0
    num_w = 12.0
    page.add(Rect(x0, y, width, 6, Style(stroke=INK, stroke_width=0.3, fill=_fill("#e8e8e8", options))))
    page.add(Text(x0 + 1.5, y + 4.3, "d6", size=9, font="sans-bold"))
    page.add(Text(x0 + num_w + 1.5, y + 4.3, "Treasure", size=9, font="sans-bold"))
    y += 6
    for roll in sorted(treasure.entries):
        entry = treasure.entries[roll]
        text = f"{entry.title}: {entry.text}" if entry.text else entry.title
        lines = wrap(text, "condensed", 8, width - num_w - 3)
        h = 2.2 + len(lines) * 3.4
        page.add(Rect(x0, y, width, h, BOX, id=f"treasure-row-{roll}", cls="treasure-row"))
        page.add(Line(x0 + num_w, y, x0 + num_w, y + h, BOX))
        page.add(Text(x0 + 6, y + 4.4, str(roll), size=11, font="sans-bold", anchor="middle"))
        for i, line in enumerate(lines):
            page.add(Text(x0 + num_w + 1.5, y + 4.0 + i * 3.4, line, size=8, font="condensed"))
        y += h
    return y + 4


# -- graph sheet and maps -----------------------------------------------------------------
class GraphLayout:
    """Where the grid, side panel and bottom area go on a page."""

    def __init__(self, cols: int, rows: int, pw: float, ph: float):
        self.cols, self.rows, self.pw, self.ph = cols, rows, pw, ph
        panel = 46.0
        sq = min((pw - 12 - MARGIN - panel - 4) / cols, (ph - 22 - 62) / rows, 9.0)
        self.sq = max(int(sq * 2) / 2, 2.5)
        self.x0 = 12.0
        self.y0 = 22.0
        self.panel_x = self.x0 + cols * self.sq + 5
        self.panel_w = pw - MARGIN - self.panel_x
        self.bottom = self.y0 + rows * self.sq + 6

    def cell(self, x: int, y: int) -> tuple[float, float]:
        """Top-left of sheet square (x, y), 1-based."""
        return self.x0 + (x - 1) * self.sq, self.y0 + (y - 1) * self.sq


def _grid(lay: GraphLayout) -> list:
    items = []
    x1 = lay.x0 + lay.cols * lay.sq
    y1 = lay.y0 + lay.rows * lay.sq
    for i in range(lay.cols + 1):
        x = lay.x0 + i * lay.sq
        items.append(Line(x, lay.y0, x, y1, GRID))
    for j in range(lay.rows + 1):
        y = lay.y0 + j * lay.sq
        items.append(Line(lay.x0, y, x1, y, GRID))
    items.append(Rect(lay.x0, lay.y0, x1 - lay.x0, y1 - lay.y0, Style(stroke=INK, stroke_width=0.35), id="sheet-edge"))
    for i in range(lay.cols):
        if lay.cols <= 30 or (i + 1) % 5 == 0:
            items.append(Text(lay.x0 + (i + 0.5) * lay.sq, lay.y0 - 1.2, str(i + 1), size=6, font="condensed",
                              anchor="middle", fill=SOFT))
    for j in range(lay.rows):
        if lay.rows <= 40 or (j + 1) % 5 == 0:
            items.append(Text(lay.x0 - 1.2, lay.y0 + (j + 0.75) * lay.sq, str(j + 1), size=6, font="condensed",
                              anchor="end", fill=SOFT))
    # the entrance goes at the bottom centre: the mark graph-20x28 prints, a triangle under the middle
    mid = lay.x0 + lay.cols * lay.sq / 2
    items.append(Group((Polygon(((mid, y1 + 0.5), (mid - 2.4, y1 + 4.3), (mid + 2.4, y1 + 4.3)),
                                Style(stroke=None, fill=INK)),
                        Text(mid + 3.1, y1 + 4.1, "ENTRANCE", size=6.5, font="sans-bold")), id="entrance-mark",
                       cls="entrance"))
    return items


def _panel(lay: GraphLayout, minutes_used: int = 0, extra_title: str = "") -> list:
    items = []
    x, w = lay.panel_x, lay.panel_w
    y = lay.y0
    items.append(Text(x, y + 3, "Doors", size=9, font="sans-bold"))
    y += 5
    for state, label in (("unexplored", "unexplored: rolls a new room"), ("explored", "explored: leads to a room"),
                         ("secret", "secret: found by searching")):
        items.append(Line(x, y + 2, x + 5, y + 2, WALL))
        items.append(door_mark(x, y + 2, 5, 0, 0, "N", state, ident=f"legend-{state}"))
        for i, line in enumerate(wrap(label, "condensed", 7, w - 8)):
            items.append(Text(x + 7, y + 3 + i * 3, line, size=7, font="condensed", id=f"legend-{state}-text" if i == 0 else None))
        y += 8
    y += 2
    items.append(Text(x, y + 3, "Marching order", size=9, font="sans-bold"))
    y += 5
    box = (w - 3) / 2
    for i in range(4):
        bx = x + (i % 2) * (box + 3)
        by = y + (i // 2) * (12 + 3)
        items.append(Rect(bx, by, box, 12, BOX, id=f"march-{i + 1}", cls="marching-order"))
        items.append(Text(bx + 1.5, by + 4, str(i + 1), size=9, font="sans-bold"))
    y += 2 * 15
    items.append(Text(x, y + 1, "front: 1 & 2 fight in corridors", size=6.5, font="condensed", fill=SOFT))
    items.append(Text(x, y + 4, "rear: 3 & 4 take wandering monsters", size=6.5, font="condensed", fill=SOFT))
    y += 9
    items.append(Text(x, y + 3, "Time (10 min a room)", size=9, font="sans-bold"))
    y += 5.5
    per_row = 6
    bw = min(5.0, (w - 9) / per_row)
    hours = max(6, min(12, int((lay.bottom - 8 - y) / (bw + 1.2))))
    used = minutes_used // 10
    for hr in range(hours):
        items.append(Text(x, y + hr * (bw + 1.2) + bw * 0.75, f"{hr + 1}h", size=6.5, font="condensed", fill=SOFT))
        for k in range(per_row):
            n = hr * per_row + k
            bx = x + 7 + k * (bw + 0.6)
            by = y + hr * (bw + 1.2)
            items.append(Rect(bx, by, bw, bw, BOX, id=f"time-{n + 1}", cls="time-box"))
            if n < used:
                items.append(Line(bx + 0.8, by + 0.8, bx + bw - 0.8, by + bw - 0.8, BOX))
                items.append(Line(bx + bw - 0.8, by + 0.8, bx + 0.8, by + bw - 0.8, BOX))
    if used > hours * per_row:
        items.append(Text(x, y + hours * (bw + 1.2) + 3, f"+{used - hours * per_row} more", size=6.5,
                          font="condensed"))
    return items


def graph_document(cols: int, rows: int, options: BuildOptions, title: str = "", paper: str = "a4") -> Document:
    pw, ph = paper_size(paper)
    lay = GraphLayout(cols, rows, pw, ph)
    page = Page(pw, ph, name=f"sheet-{cols}x{rows}")
    title = title or "Dungeon exploration graph sheet"
    tx = max(lay.x0, CORNER_ZONE)           # clear of the page's corner squares (the scanner's marks)
    page.add(Text(tx, 12, title, size=14, font="sans-bold", id="title"))
    page.add(Text(tx, 17, f"{cols} x {rows} squares · x 1-{cols} left to right, y 1-{rows} top to bottom",
                  size=7, font="sans", fill=SOFT))
    page.add(*_grid(lay))
    page.add(*_panel(lay))
    # notes lines below the grid for a paper game's room key
    y = lay.bottom + 2
    page.add(Text(lay.x0, y, "Room key", size=9, font="sans-bold"))
    y += 6
    # a line that would run through the QR code's white breaks around it (writing over the code
    # would spoil its scan)
    from sheetgen.draw.scanmarks import reserved_boxes
    qx, qy, qw, _ = reserved_boxes(pw, ph)["scan-qr"]
    while y < ph - CORNER_ZONE - 1:
        style = Style(stroke=GRID_INK, stroke_width=0.2)
        if y + 0.3 < qy:
            page.add(Line(lay.x0, y, pw - MARGIN, y, style))
        else:
            page.add(Line(lay.x0, y, qx - 1.0, y, style), Line(qx + qw + 1.0, y, pw - MARGIN, y, style))
        y += 6
    sid = sheet_id("exploration-graph", cols, rows, paper, options.grayscale)
    return Document([finish_page(page, options, sid, footer=title)], title=title,
                    name=f"exploration-sheet-{cols}x{rows}")


def map_document(ex, options: BuildOptions, title: str = "", paper: str = "a4", name: str = "explore") -> Document:
    """A map-mode dungeon on the graph sheet: rooms drawn and numbered, doors in their
    states, the time used ticked off, and a key of room numbers to contents."""
    pw, ph = paper_size(paper)
    lay = GraphLayout(ex.width, ex.height, pw, ph)
    page = Page(pw, ph, name="map")
    title = title or f"Dungeon map (seed {options.seed})"
    tx = max(lay.x0, CORNER_ZONE)
    page.add(Text(tx, 12, title, size=14, font="sans-bold", id="title"))
    ending = {"final-boss": "ended on the Final Boss", "no-doors": "no unexplored door left",
              "rooms": "room limit reached"}.get(ex.ended or "", "in progress")
    page.add(Text(tx, 17, f"{len(ex.rooms)} rooms · {ex.minutes} minutes · {ex.wandering()} wandering "
                              f"monster attack{'s' if ex.wandering() != 1 else ''} · {ending}",
                  size=7.5, font="sans", fill=SOFT, id="summary"))
    page.add(*_grid(lay))
    sq = lay.sq
    owner = {}
    for room in ex.rooms:
        for c in room.cells:
            owner[c] = room.id
    for room in ex.rooms:
        fill = _fill(CORRIDOR_FILL if room.kind == "corridor" else FLOOR_FILL, options)
        cells = []
        for x, y in room.cells:
            cx, cy = lay.cell(x, y)
            cells.append(Rect(cx, cy, sq, sq, Style(stroke=None, fill=fill) if fill else Style(stroke=None),
                              id=f"cell-{x}-{y}", cls=f"cell room-{room.id}"))
        if options.grayscale and room.kind == "corridor":
            for x, y in room.cells:
                cx, cy = lay.cell(x, y)
                cells.append(Circle(cx + sq / 2, cy + sq / 2, sq * 0.08, Style(stroke=None, fill=SOFT)))
        page.add(Group(tuple(cells), id=f"room-{room.id}", cls=f"room {room.kind}"))
    for room in ex.rooms:
        page.add(*outline_walls(set(room.cells), lay.x0 - sq, lay.y0 - sq, sq, WALL, ident_prefix="wall"))
    for room in ex.rooms:
        for d in room.doors:
            page.add(door_mark(lay.x0 - sq, lay.y0 - sq, sq, d.x, d.y, d.side, d.state,
                               ident=f"door-{d.x}-{d.y}-{d.side}"))
    for room in ex.rooms:
        cx, cy = _label_cell(room.cells)
        px, py = lay.cell(cx, cy)
        size = 7.5 if room.id < 100 else 6.5
        if room.final_boss:
            page.add(Circle(px + sq / 2, py + sq / 2, sq * 0.45, Style(stroke=INK, stroke_width=0.4, fill="#ffffff")))
        page.add(Text(px + sq / 2, py + sq / 2 + size * 0.352 * 0.36, str(room.id), size=size, font="sans-bold",
                      anchor="middle", id=f"room-label-{room.id}", cls="room-number"))
    page.add(*_panel(lay, ex.minutes))
    pages = [page]
    _key(ex, lay, pages, pw, ph, title)
    sid = sheet_id("exploration-map", options.seed, ex.width, ex.height, len(ex.rooms), paper)
    return Document([finish_page(p, options, sid, footer=title) for p in pages], title=title, name=name)


def _label_cell(cells):
    """The square nearest the middle of a room, for its number."""
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))


def _key_lines(ex) -> list[tuple[int, str]]:
    out = []
    for room in ex.rooms:
        res = room.result
        roll = f"d6 {room.roll}" if room.die == "entrance" else f"d66 {room.roll}"
        text = f"{room.id}. {room.entry.name} ({roll}): {res.label if res else '?'}"
        if room.escalation:
            text += f" [escalation {room.escalation[0]}{room.escalation[1]:+d}]"
        if room.truncated:
            text += " · dead end"
        if any(r == 1 for _, r in room.retrace):
            text += " · ambushed on the way"
        out.append((room.id, text))
    return out


def _key(ex, lay: GraphLayout, pages: list, pw: float, ph: float, title: str):
    entries = _key_lines(ex)
    size, lead = 6.5, 2.9
    x0 = lay.x0
    width = pw - MARGIN - x0
    ncols = 3
    col_w = width / ncols
    page = pages[0]
    top = lay.bottom + 1
    page.add(Text(x0, top + 2, "Key", size=9, font="sans-bold", id="key-title"))
    y_start = top + 6
    y_end = ph - 11
    col = 0
    y = y_start
    for rid, text in entries:
        lines = wrap(text, "condensed", size, col_w - 2)
        if y + len(lines) * lead > y_end:
            col += 1
            y = y_start
            if col >= ncols:
                page = Page(pw, ph, name=f"key-{len(pages) + 1}")
                page.add(Text(x0, 14, f"{title}: key (continued)", size=12, font="sans-bold"))
                pages.append(page)
                col, y_start, y_end = 0, 22, ph - 12
                y = y_start
        for i, line in enumerate(lines):
            page.add(Text(x0 + col * col_w + (2 if i else 0), y, line, size=size, font="condensed",
                          id=f"key-{rid}" if i == 0 else None, cls="key"))
            y += lead

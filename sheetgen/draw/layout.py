"""The layout composer: a validated layout or deck definition -> Document.

Every element goes through the same argument pipeline (Squib's idea): its
position and size are resolved by `Frame` (lengths, % of the containing area,
grid cells), its colours and fill through `_paint` (which swaps colour fills
for patterns in --grayscale), and its id is `el-<name>` (`el-<group>-<name>`
inside groups, `c<N>-el-<name>` on card N).  Draw order is file order, then z.

This module reads the definition's models by attribute only (the definitions
package depends on draw, not the other way round).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .furniture import finish_page, sheet_id
from .model import (Document, Group, Image, Item, Line, Page, Polygon, Rect, Style, Text, allow_overlap, rotate,
                    translate, compose as compose_transforms)
from .options import PAPER_SIZES, BuildOptions
from .patterns import is_grey, pattern_for_colour, pattern_items, rect_points

DECK_MARGIN = 5.0           # default least margin around a deck's cards (printers' reach)
FURNITURE_MM = 8.0          # bottom band of every page kept free for footer and ruler
MM_PER_PT = 25.4 / 72.0
ASCENT = 0.76               # first baseline below the top of a text box, in em
DESCENT = 0.24


class LayoutError(Exception):
    """A problem found while composing, located by a key path into the definition."""

    def __init__(self, loc: tuple, message: str):
        super().__init__(message)
        self.loc = loc
        self.message = message


@dataclass(frozen=True)
class Area:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class GridGeometry:
    """Where a grid landed: its top-left corner, cell pitch and size (mm)."""
    x: float
    y: float
    cell_w: float
    cell_h: float
    w: float
    h: float
    cell: float             # the nominal cell size (squares: side; hexes: across the flats)


@dataclass
class Frame:
    """What coordinates are relative to: the area, the grids, and whether cells
    count from the grid's corner (top level) or from the area's origin (groups)."""
    area: Area
    grids: dict[str, GridGeometry]
    default_grid: str | None
    cells_from_grid: bool
    grayscale: bool
    id_prefix: str
    groups: dict
    subst: dict
    loc: tuple = ()
    depth: int = 0

    def grid_of(self, el) -> GridGeometry | None:
        name = getattr(el, "grid", None) or self.default_grid
        return self.grids.get(name) if name else None

    def _rel(self, v, el, axis: str, origin: bool) -> float:
        from_rel = getattr(v, "unit", None)
        if from_rel is None:
            return float(v) + ((self.area.x if axis == "x" else self.area.y) if origin else 0.0)
        if from_rel == "%":
            span = self.area.w if axis == "x" else self.area.h
            return v.value / 100.0 * span + ((self.area.x if axis == "x" else self.area.y) if origin else 0.0)
        grid = self.grid_of(el)
        if grid is None:
            raise LayoutError(self.loc, "uses 'cells' but there is no grid to count them on")
        pitch = grid.cell_w if axis == "x" else grid.cell_h
        base = 0.0
        if origin:
            base = (grid.x if axis == "x" else grid.y) if self.cells_from_grid else \
                (self.area.x if axis == "x" else self.area.y)
        return base + v.value * pitch

    def x(self, v, el) -> float:
        return self._rel(v, el, "x", True)

    def y(self, v, el) -> float:
        return self._rel(v, el, "y", True)

    def w(self, v, el) -> float:
        return self._rel(v, el, "x", False)

    def h(self, v, el) -> float:
        return self._rel(v, el, "y", False)

    def box(self, el, default_w: bool = True, default_h: bool = True) -> tuple[float, float, float | None, float | None]:
        """(x, y, width, height); a missing width/height fills the rest of the area."""
        x, y = self.x(el.x, el), self.y(el.y, el)
        width = getattr(el, "width", None)
        height = getattr(el, "height", None)
        w = self.w(width, el) if width is not None else (self.area.right - x if default_w else None)
        h = self.h(height, el) if height is not None else (self.area.bottom - y if default_h else None)
        return x, y, w, h

    def child(self, name: str, **kw) -> "Frame":
        return replace(self, loc=self.loc + (name,), **kw)


# -- the entry point ----------------------------------------------------------------------------


def page_size(page_spec, options: BuildOptions) -> tuple[float, float]:
    size = options.paper or page_spec.size
    if size in PAPER_SIZES:
        w, h = PAPER_SIZES[size]
    else:
        w, h = page_spec.width, page_spec.height
    if page_spec.orientation == "landscape":
        w, h = max(w, h), min(w, h)
    else:
        w, h = min(w, h), max(w, h)
    return w, h


def content_area(page_spec, w: float, h: float) -> Area:
    m = page_spec.margins
    if isinstance(m, (int, float)):
        top = right = bottom = left = float(m)
    else:
        top, right, bottom, left = m.top, m.right, m.bottom, m.left
    bottom = max(bottom, FURNITURE_MM)
    return Area(left, top, w - left - right, h - top - bottom)


def compose_layout(definition, options: BuildOptions) -> Document:
    """definition: a definitions.layout.LayoutDefinition (read by attribute)."""
    model = definition.model
    w, h = page_size(model.page, options)
    paper = options.paper or (model.page.size if model.page.size != "custom" else f"{w:g}x{h:g} mm")
    title = definition.title
    sid = sheet_id(definition.name, repr(model), w, h, options.grayscale, options.duplex, options.seed)
    if model.kind == "deck":
        pages = _deck_pages(definition, options, w, h, paper)
    else:
        pages = [_layout_page(definition, options, w, h, paper)]
    for page in pages:
        finish_page(page, options, sid, footer=title)
    return Document(pages, title=title, name=definition.name, subject=model.description)


def _layout_page(definition, options: BuildOptions, w: float, h: float, paper: str) -> Page:
    model = definition.model
    area = content_area(model.page, w, h)
    if area.w <= 0 or area.h <= 0:
        raise LayoutError(("page", "margins"), f"the margins leave no room on a {w:g} x {h:g} mm page")
    frame = Frame(area, {}, None, True, options.grayscale, "el-", model.groups,
                  {"title": definition.title, "paper": paper}, ("elements",))
    grids = [(n, e) for n, e in model.elements.items() if e.type == "grid"]
    for name, el in grids:
        frame.grids[name] = grid_geometry(el, frame.child(name))
    if len(grids) == 1:
        frame.default_grid = grids[0][0]
    page = Page(w, h, name=definition.name)
    page.add(*draw_elements(model.elements, frame))
    return page


def _deck_pages(definition, options: BuildOptions, w: float, h: float, paper: str) -> list[Page]:
    from .nup import nup_pages
    model = definition.model
    card = model.card
    margins = model.page.margins
    if "margins" not in model.page.model_fields_set:
        margin = DECK_MARGIN
    elif isinstance(margins, (int, float)):
        margin = margins
    else:
        margin = min(margins.top, margins.right, margins.bottom, margins.left)
    base = Frame(Area(0.0, 0.0, card.width, card.height), {}, None, False, options.grayscale, "",
                 model.groups, {"title": definition.title, "paper": paper})
    faces = []
    for n, (card_name, elements) in enumerate(definition.cards, start=1):
        frame = replace(base, id_prefix=f"c{n}-el-", subst={**base.subst, "card": card_name, "n": str(n)},
                        loc=("template",))
        faces.append(Group(tuple(draw_elements(elements, frame)), cls="card-face"))
    backs = None
    if options.duplex:
        back_items: tuple = ()
        if model.back is not None:
            frame = replace(base, id_prefix="back-el-", loc=("back",))
            back_items = tuple(draw_elements(model.back, frame))
        backs = [Group(back_items, cls="card-back")]
    cut = model.cut_lines if model.cut_lines is not None else card.bleed == 0
    try:
        return nup_pages(faces, card.width, card.height, w, h, bleed=card.bleed, gap=model.gap, backs=backs,
                         duplex=True, crop=model.crop_marks, cuts=cut, margin=margin, name=definition.name)
    except ValueError as exc:
        raise LayoutError(("card",), str(exc)) from None


# -- elements ------------------------------------------------------------------------------------


def draw_elements(elements: dict, frame: Frame) -> list[Item]:
    out: list[Item] = []
    order = sorted(enumerate(elements.items()), key=lambda t: (t[1][1].z, t[0]))
    for _, (name, el) in order:
        f = frame.child(name)
        item = DRAWERS[el.type](el, f, f"{frame.id_prefix}{name}")
        if item is not None:
            out.append(allow_overlap(item) if getattr(el, "overlap", False) else item)
    return out


def _style(el, fill=None, **kw) -> Style:
    return Style(stroke=getattr(el, "stroke", "#000000"), stroke_width=getattr(el, "stroke_width", 0.25),
                 fill=fill, dash=tuple(el.dash) if getattr(el, "dash", None) else None, **kw)


def _paint(el, frame: Frame, outline: list[tuple[float, float]], ident: str):
    """(fill for the shape, pattern Group or None): in grayscale a colour fill
    becomes a pattern clipped to the outline (or nothing for a light tint)."""
    fill = getattr(el, "fill", None)
    if not frame.grayscale or fill is None or is_grey(fill):
        return fill, None
    kind = getattr(el, "pattern", None) or pattern_for_colour(fill)
    if kind == "none":
        return None, None
    return None, pattern_items(kind, outline, id=f"{ident}-pattern")


def draw_grid(el, frame: Frame, ident: str) -> Item:
    g = frame.grids.get(frame.loc[-1]) if frame.depth == 0 and frame.loc[-1] in frame.grids else None
    if g is None:
        g = grid_geometry(el, frame)
    if el.shape == "hex":
        return _hex_grid(el, g, ident)
    items: list[Item] = []
    minor = Style(stroke=el.stroke, stroke_width=el.stroke_width)
    major = Style(stroke=el.major_stroke, stroke_width=el.major_width)
    every = el.major_every
    for i in range(1, el.columns):
        is_major = bool(every) and i % every == 0
        x = g.x + i * g.cell_w
        items.append(Line(x, g.y, x, g.y + g.h, major if is_major else minor, id=f"{ident}-v{i}",
                          cls="grid-line major" if is_major else "grid-line minor"))
    for j in range(1, el.rows):
        is_major = bool(every) and j % every == 0
        y = g.y + j * g.cell_h
        items.append(Line(g.x, y, g.x + g.w, y, major if is_major else minor, id=f"{ident}-h{j}",
                          cls="grid-line major" if is_major else "grid-line minor"))
    # majors drawn after minors so crossings show the heavier line
    items.sort(key=lambda it: "major" in it.cls)
    if el.border_width > 0 and el.border:
        items.append(Rect(g.x, g.y, g.w, g.h, Style(stroke=el.border, stroke_width=el.border_width),
                          id=f"{ident}-border", cls="grid-border"))
    labels = _labels(el)
    if labels is not None:
        size_mm = labels.size * MM_PER_PT
        for i in range(el.columns):
            text = _label(labels.columns, i + labels.start)
            if text:
                items.append(Text(g.x + (i + 0.5) * g.cell_w, g.y - 0.35 * size_mm - 0.8, text, labels.size,
                                  labels.font, "middle", labels.colour, id=f"{ident}-col{i + 1}", cls="grid-label"))
        for j in range(el.rows):
            text = _label(labels.rows, j + labels.start)
            if text:
                items.append(Text(g.x - 1.0, g.y + (j + 0.5) * g.cell_h + 0.36 * size_mm, text, labels.size,
                                  labels.font, "end", labels.colour, id=f"{ident}-row{j + 1}", cls="grid-label"))
    return Group(tuple(items), id=ident, cls="grid grid-square")


def _labels(el):
    if el.labels is True:
        from types import SimpleNamespace
        return SimpleNamespace(columns="letters" if el.shape == "square" else "numbers", rows="numbers", start=1,
                               font="condensed", size=6.5, colour="#555555")
    return el.labels or None


def _label(style: str, n: int) -> str:
    if style == "none":
        return ""
    if style == "numbers":
        return str(n)
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _hex_geometry(el, cell: float) -> tuple[float, float, float, float, float]:
    """(s, col pitch, row pitch, width, height) for hexes `cell` across the flats."""
    s = cell / math.sqrt(3)
    r3 = math.sqrt(3)
    if el.orientation == "flat":
        w = 1.5 * s * (el.columns - 1) + 2 * s
        h = r3 * s * el.rows + (r3 / 2 * s if el.columns > 1 else 0)
        return s, 1.5 * s, r3 * s, w, h
    w = r3 * s * el.columns + (r3 / 2 * s if el.rows > 1 else 0)
    h = 1.5 * s * (el.rows - 1) + 2 * s
    return s, r3 * s, 1.5 * s, w, h


def grid_geometry(el, frame: Frame) -> GridGeometry:
    """Place a grid: a fixed cell at (x, y), or the largest whole cells that fit the area, centred."""
    x, y, w, h = frame.box(el)
    gutter = 0.0
    if _labels(el) is not None and el.shape == "square":
        gutter = _labels(el).size * MM_PER_PT * 1.2 + 1.2
    if el.fit:
        aw, ah = w - 2 * gutter, h - 2 * gutter
        if el.shape == "hex":
            _, _, _, uw, uh = _hex_geometry(el, 1.0)
        else:
            uw, uh = el.columns, el.rows
        cell = min(aw / uw, ah / uh)
        step = el.fit_step
        cell = math.floor(cell / step + 1e-9) * step
        if cell <= 0:
            raise LayoutError(frame.loc, f"{el.columns} x {el.rows} cells do not fit in {w:.1f} x {h:.1f} mm")
    else:
        cell = el.cell
    if el.shape == "hex":
        _, pitch_x, pitch_y, gw, gh = _hex_geometry(el, cell)
    else:
        pitch_x = pitch_y = cell
        gw, gh = el.columns * cell, el.rows * cell
    if el.fit:
        gx, gy = x + (w - gw) / 2, y + (h - gh) / 2
    else:
        gx, gy = x + gutter, y + gutter
    return GridGeometry(gx, gy, pitch_x, pitch_y, gw, gh, cell)


def _hex_grid(el, g: GridGeometry, ident: str) -> Item:
    s = g.cell / math.sqrt(3)
    r3 = math.sqrt(3)
    style = Style(stroke=el.stroke, stroke_width=el.stroke_width, join="round")
    labels = _labels(el)
    cells: list[Item] = []
    texts: list[Item] = []
    for col in range(el.columns):
        for row in range(el.rows):
            if el.orientation == "flat":
                cx = g.x + s + col * 1.5 * s
                cy = g.y + r3 / 2 * s + row * r3 * s + (r3 / 2 * s if col % 2 else 0)
                pts = tuple((cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a)))
                            for a in range(0, 360, 60))
                top = cy - r3 / 2 * s
            else:
                cx = g.x + r3 / 2 * s + col * r3 * s + (r3 / 2 * s if row % 2 else 0)
                cy = g.y + s + row * 1.5 * s
                pts = tuple((cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a)))
                            for a in range(30, 390, 60))
                top = cy - s * 0.5
            name = _hex_name(labels, col, row)
            cells.append(Polygon(tuple((round(px, 6), round(py, 6)) for px, py in pts), style,
                                 id=f"{ident}-{name}", cls="hex cell"))
            if labels is not None:
                size_mm = labels.size * MM_PER_PT
                texts.append(Text(cx, top + size_mm * 1.1 + 0.4, name, labels.size, labels.font, "middle",
                                  labels.colour, cls="grid-label"))
    return Group(tuple(cells + texts), id=ident, cls="grid grid-hex")


def _hex_name(labels, col: int, row: int) -> str:
    start = labels.start if labels is not None else 1
    cstyle = labels.columns if labels is not None else "numbers"
    rstyle = labels.rows if labels is not None else "numbers"
    if cstyle == "numbers" and rstyle == "numbers":
        return f"{col + start:02d}{row + start:02d}"
    return f"{_label(cstyle, col + start)}{_label(rstyle, row + start)}" or f"{col + start:02d}{row + start:02d}"


def draw_box(el, frame: Frame, ident: str) -> Item:
    x, y, w, h = frame.box(el)
    fill, pattern = _paint(el, frame, _rounded_outline(x, y, w, h, el.radius), ident)
    rect = Rect(x, y, w, h, _style(el, fill), radius=el.radius, id=None if pattern else ident, cls="box")
    if pattern is None:
        return rect
    return Group((pattern, rect), id=ident, cls="box")


def _rounded_outline(x, y, w, h, r) -> list[tuple[float, float]]:
    if r <= 0:
        return rect_points(x, y, w, h)
    r = min(r, w / 2, h / 2)
    pts = []
    for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90),
                          (x + r, y + r, 180)):
        for k in range(0, 91, 15):
            a = math.radians(start + k)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def draw_line(el, frame: Frame, ident: str) -> Item:
    return Line(frame.x(el.x, el), frame.y(el.y, el), frame.x(el.x2, el), frame.y(el.y2, el),
                _style(el, cap=el.cap), id=ident, cls="line")


def draw_polygon(el, frame: Frame, ident: str) -> Item:
    x0, y0 = frame.x(el.x, el), frame.y(el.y, el)
    pts = [(x0 + frame.w(px, el), y0 + frame.h(py, el)) for px, py in el.points]
    fill, pattern = _paint(el, frame, pts, ident) if el.closed else (None, None)
    poly = Polygon(tuple(pts), _style(el, fill, join="round"), closed=el.closed,
                   id=None if pattern else ident, cls="polygon")
    return poly if pattern is None else Group((pattern, poly), id=ident, cls="polygon")


def _substitute(text: str, frame: Frame, el) -> str:
    values = dict(frame.subst)
    grid = frame.grid_of(el)
    if grid is not None:
        values["cell"] = f"{grid.cell:g} mm"
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def text_lines(el, frame: Frame, width: float | None) -> tuple[list[str], float]:
    """The lines of a text element and the size they are set at (pt)."""
    from ..fonts import fit_size, wrap
    text = _substitute(el.text, frame, el)
    if el.upper:
        text = text.upper()
    size = el.size
    if width is not None and el.shrink:
        size = fit_size(text, el.font, size, width)
        return text.split("\n"), size
    if width is not None:
        return wrap(text, el.font, size, width), size
    return text.split("\n"), size


def draw_text(el, frame: Frame, ident: str) -> Item:
    x, y, w, h = frame.box(el, default_w=False, default_h=False)
    lines, size = text_lines(el, frame, w)
    em = size * MM_PER_PT
    pitch = em * el.line_height
    block = em * (ASCENT + DESCENT) + (len(lines) - 1) * pitch
    top = y
    if h is not None:
        top = y + {"top": 0.0, "middle": (h - block) / 2, "bottom": h - block}[el.valign]
    anchor = {"left": "start", "center": "middle", "right": "end"}[el.align]
    if w is not None:
        ax = {"left": x, "center": x + w / 2, "right": x + w}[el.align]
    else:
        ax = x
    items = [Text(ax, top + em * ASCENT + i * pitch, line, size, el.font, anchor, el.colour or "#000000",
                  cls="text") for i, line in enumerate(lines)]
    if len(items) == 1:
        return replace(items[0], id=ident)
    return Group(tuple(items), id=ident, cls="text")


def draw_checkbox_track(el, frame: Frame, ident: str) -> Item:
    from ..fonts import text_width
    x, y = frame.x(el.x, el), frame.y(el.y, el)
    items: list[Item] = []
    em = el.size * MM_PER_PT
    label_w = 0.0
    if el.label:
        label_w = el.label_width if el.label_width is not None else \
            math.ceil((text_width(el.label, el.font, el.size) + 2.0) * 10) / 10    # 0.1 mm steps: stable
        items.append(Text(x, y + el.box / 2 + 0.36 * em, el.label, el.size, el.font, "start", id=f"{ident}-label",
                          cls="track-label"))
    caps = set(el.caps) | set(range(el.boxes - el.blacked_out + 1, el.boxes + 1))
    per_row = el.per_row or el.boxes
    label_h = (6.0 * MM_PER_PT + 0.8) if el.box_labels else 0.0
    style = Style(stroke=el.stroke, stroke_width=el.stroke_width)
    black = Style(stroke=el.stroke, stroke_width=el.stroke_width, fill="#000000")
    for i in range(el.boxes):
        row, col = divmod(i, per_row)
        bx = x + label_w + col * (el.box + el.gap)
        by = y + row * (el.box + el.gap + label_h)
        capped = (i + 1) in caps
        st = black if capped else style
        cls = "checkbox cap" if capped else "checkbox"
        if el.shape == "circle":
            from .model import Circle
            items.append(Circle(bx + el.box / 2, by + el.box / 2, el.box / 2, st, id=f"{ident}-box{i + 1}", cls=cls))
        else:
            items.append(Rect(bx, by, el.box, el.box, st, id=f"{ident}-box{i + 1}", cls=cls))
        if el.box_labels and i < len(el.box_labels) and el.box_labels[i]:
            items.append(Text(bx + el.box / 2, by + el.box + 6.0 * MM_PER_PT * ASCENT + 0.5, el.box_labels[i], 6.0,
                              "condensed", "middle", "#333333", cls="box-label"))
    return Group(tuple(items), id=ident, cls="checkbox-track")


def draw_table(el, frame: Frame, ident: str) -> Item:
    from ..fonts import wrap
    x, y, w, _ = frame.box(el)
    height = frame.h(el.height, el) if el.height is not None else None
    ncols = max([len(el.header or [])] + [len(r) for r in el.rows])
    widths = list(el.widths) if el.widths else [1.0] * ncols
    total = sum(widths) or 1.0
    widths = [wd * w / total for wd in widths]
    aligns = el.align or ["left"] * ncols
    em = el.size * MM_PER_PT
    pitch = em * 1.2
    pad = el.padding
    rows = ([(list(el.header), True)] if el.header else []) + [([str(c) for c in r], False) for r in el.rows]
    laid = []
    for cells, is_header in rows:
        font = el.header_font if is_header else el.font
        wrapped = [wrap(str(c), font, el.size, max(1.0, widths[i] - 2 * pad)) for i, c in enumerate(cells)]
        n = max([len(c) for c in wrapped] + [1])
        row_h = max(el.min_row_height, 2 * pad + em * (ASCENT + DESCENT) + (n - 1) * pitch)
        laid.append((wrapped, is_header, row_h, font))
    needed = sum(r[2] for r in laid)
    limit = height if height is not None else frame.area.bottom - y
    if needed > limit + 0.01:
        raise LayoutError(frame.loc, f"the table needs {needed:.1f} mm but has {limit:.1f} mm "
                                     "(fewer rows, a smaller size or a taller area)")
    items: list[Item] = []
    grid_style = Style(stroke=el.stroke, stroke_width=el.stroke_width)
    cy = y
    for r, (wrapped, is_header, row_h, font) in enumerate(laid):
        fill = el.header_fill if is_header else (el.stripe if (el.stripe and r % 2 == 0) else None)
        if fill and not (frame.grayscale and not is_grey(fill)):
            items.append(Rect(x, cy, w, row_h, Style(stroke=None, fill=fill), cls="table-fill"))
        cx = x
        for i in range(ncols):
            lines = wrapped[i] if i < len(wrapped) else []
            anchor = {"left": "start", "center": "middle", "right": "end"}[aligns[i]]
            tx = {"left": cx + pad, "center": cx + widths[i] / 2, "right": cx + widths[i] - pad}[aligns[i]]
            for k, line in enumerate(lines):
                items.append(Text(tx, cy + pad + em * ASCENT + k * pitch, line, el.size, font, anchor,
                                  cls="table-header" if is_header else "table-cell"))
            cx += widths[i]
        cy += row_h
        if r < len(laid) - 1:
            items.append(Line(x, cy, x + w, cy, grid_style, cls="table-rule"))
    cx = x
    for wd in widths[:-1]:
        cx += wd
        items.append(Line(cx, y, cx, cy, grid_style, cls="table-rule"))
    items.append(Rect(x, y, w, cy - y, grid_style, id=f"{ident}-frame", cls="table-frame"))
    return Group(tuple(items), id=ident, cls="table")


def draw_icon(el, frame: Frame, ident: str) -> Item:
    from .icons import icon
    size = frame.w(el.size, el)
    return icon(el.name, frame.x(el.x, el), frame.y(el.y, el), size,
                colour=el.colour and not frame.grayscale, id=ident)


def draw_image(el, frame: Frame, ident: str) -> Item:
    x, y = frame.x(el.x, el), frame.y(el.y, el)
    w = frame.w(el.width, el) if el.width is not None else None
    h = frame.h(el.height, el) if el.height is not None else None
    if el.fit == "contain" or w is None or h is None:
        from PIL import Image as PILImage
        with PILImage.open(el.path) as im:
            pw, ph = im.size
        if w is None and h is None:
            w, h = frame.area.right - x, frame.area.bottom - y
        if w is None:
            w = h * pw / ph
        elif h is None:
            h = w * ph / pw
        else:
            s = min(w / pw, h / ph)
            nw, nh = pw * s, ph * s
            x, y, w, h = x + (w - nw) / 2, y + (h - nh) / 2, nw, nh
    return Image(x, y, w, h, el.path, id=ident, cls="image")


def _placed(items: list[Item], ax: float, ay: float, angle: float, ident: str, cls: str) -> Item:
    t = translate(ax, ay)
    if angle:
        t = compose_transforms(t, rotate(angle))
    return Group(tuple(items), transform=t, id=ident, cls=cls)


def draw_group(el, frame: Frame, ident: str) -> Item:
    ax, ay = frame.x(el.at.x, el), frame.y(el.at.y, el)
    w = frame.w(el.width, el) if el.width is not None else frame.area.right - ax
    h = frame.h(el.height, el) if el.height is not None else frame.area.bottom - ay
    inner = replace(frame, area=Area(0.0, 0.0, w, h), cells_from_grid=False, id_prefix=f"{ident}-",
                    default_grid=el.grid or frame.default_grid, loc=frame.loc + ("elements",), depth=frame.depth + 1)
    return _placed(draw_elements(el.elements, inner), ax, ay, el.rotate, ident, "group")


def draw_use(el, frame: Frame, ident: str) -> Item:
    gdef = frame.groups[el.use]
    ax, ay = frame.x(el.at.x, el), frame.y(el.at.y, el)
    w = frame.w(gdef.width, el) if gdef.width is not None else frame.area.right - ax
    h = frame.h(gdef.height, el) if gdef.height is not None else frame.area.bottom - ay
    if frame.depth > 20:
        raise LayoutError(frame.loc, "groups nest too deeply (a group that uses itself?)")
    inner = replace(frame, area=Area(0.0, 0.0, w, h), cells_from_grid=False, id_prefix=f"{ident}-",
                    default_grid=el.grid or frame.default_grid, loc=("groups", el.use, "elements"),
                    depth=frame.depth + 1)
    return _placed(draw_elements(gdef.elements, inner), ax, ay, el.rotate, ident, f"group use-{el.use}")


DRAWERS = {
    "grid": draw_grid, "box": draw_box, "line": draw_line, "polygon": draw_polygon, "text": draw_text,
    "checkbox_track": draw_checkbox_track, "table": draw_table, "icon": draw_icon, "image": draw_image,
    "group": draw_group, "use": draw_use,
}

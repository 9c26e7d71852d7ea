"""N-up card and tile sheets: many same-size cards on a page, with crop marks,
optional cut lines, gap and bleed, PDF TrimBox/BleedBox, and back pages laid in
mirrored column order for long-edge duplex.

The one entry point most callers need::

    pages = nup_pages(faces, 63, 88, 210, 297, bleed=3, backs=backs, duplex=True)
    for page in pages:
        finish_page(page, options, sid, footer=title)

Each face (and back) is a drawing-model item drawn with the card's top-left
trim corner at (0, 0) and size card_w x card_h in mm; bleed art may extend
`bleed` mm beyond every edge (nothing is clipped: art that goes further would
overprint the neighbouring card).  nup_pages wraps each face in a Group that
moves it into its slot, with id `<name>-<n>` (1-based card number) and class
`card` (`card back` for backs).

Geometry (see NupGrid): slots are `card + 2*bleed` wide, `gap` apart; the block
of slots is centred on the page.  Crop marks are drawn only outside the block
(so they never print on a card) along every trim line and run to the page
edge; the bottom marks break for the footer band where
sheetgen.draw.furniture.finish_page prints its footer and ruler.

Duplex: a sheet printed on both sides and flipped on its long edge (portrait)
shows the back of the card at column c behind column cols-1-c of the front, so
back pages lay cards in mirrored column order (and a mirrored block position,
in case the block is not centred).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .furniture import FOOTER_BAND
from .model import Box, Group, Item, Line, Page, Style, translate

CROP_STYLE = Style(stroke="#000000", stroke_width=0.2)
CUT_STYLE = Style(stroke="#9a9a9a", stroke_width=0.15, dash=(1.0, 1.0))
CROP_OFFSET = 1.5          # mm between the bleed edge and where a crop mark starts
MIN_MARGIN = 5.0           # mm around the block (printers cannot print to the edge)


@dataclass(frozen=True)
class NupGrid:
    """Where cards go on one page.  All lengths in mm, y down."""
    card_w: float
    card_h: float
    paper_w: float
    paper_h: float
    cols: int
    rows: int
    bleed: float
    gap: float
    x0: float                  # left edge of the block (bleed edge of column 0)
    y0: float                  # top edge of the block

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def pitch_x(self) -> float:
        return self.card_w + 2 * self.bleed + self.gap

    @property
    def pitch_y(self) -> float:
        return self.card_h + 2 * self.bleed + self.gap

    @property
    def block_w(self) -> float:
        return self.cols * self.pitch_x - self.gap

    @property
    def block_h(self) -> float:
        return self.rows * self.pitch_y - self.gap

    def slot(self, index: int, mirrored: bool = False) -> tuple[float, float]:
        """Top-left trim corner of the card in slot index (0-based, row-major).

        mirrored gives the slot's position on a back page (long-edge duplex)."""
        row, col = divmod(index % self.per_page, self.cols)
        x0 = self.x0
        if mirrored:
            col = self.cols - 1 - col
            x0 = self.paper_w - self.x0 - self.block_w
        return (x0 + col * self.pitch_x + self.bleed, self.y0 + row * self.pitch_y + self.bleed)

    def trim_lines(self, mirrored: bool = False) -> tuple[list[float], list[float]]:
        """The x positions of vertical trim lines and y positions of horizontal ones."""
        xs: set[float] = set()
        ys: set[float] = set()
        for i in range(self.per_page):
            x, y = self.slot(i, mirrored)
            xs.update((round(x, 6), round(x + self.card_w, 6)))
            ys.update((round(y, 6), round(y + self.card_h, 6)))
        return sorted(xs), sorted(ys)

    def trim_box(self, mirrored: bool = False) -> Box:
        b = self.bleed_box(mirrored)
        return Box(b.x + self.bleed, b.y + self.bleed, b.w - 2 * self.bleed, b.h - 2 * self.bleed)

    def bleed_box(self, mirrored: bool = False) -> Box:
        x0 = self.paper_w - self.x0 - self.block_w if mirrored else self.x0
        return Box(x0, self.y0, self.block_w, self.block_h)


def nup_grid(card_w: float, card_h: float, paper_w: float, paper_h: float, *,
             bleed: float = 0.0, gap: float = 0.0, margin: float = MIN_MARGIN,
             cols: int | None = None, rows: int | None = None) -> NupGrid:
    """As many cards as fit inside `margin` on every side (or cols x rows), block centred.

    Raises ValueError if not even one card fits (callers turn that into an InputError)."""
    if card_w <= 0 or card_h <= 0:
        raise ValueError("card width and height must be positive")
    slot_w, slot_h = card_w + 2 * bleed, card_h + 2 * bleed
    fit_cols = math.floor((paper_w - 2 * margin + gap) / (slot_w + gap) + 1e-9)
    fit_rows = math.floor((paper_h - 2 * margin + gap) / (slot_h + gap) + 1e-9)
    cols = fit_cols if cols is None else cols
    rows = fit_rows if rows is None else rows
    if cols < 1 or rows < 1:
        raise ValueError(f"a {card_w:g} x {card_h:g} mm card (bleed {bleed:g} mm) does not fit on a "
                         f"{paper_w:g} x {paper_h:g} mm page with {margin:g} mm margins")
    block_w = cols * (slot_w + gap) - gap
    block_h = rows * (slot_h + gap) - gap
    if block_w > paper_w + 1e-9 or block_h > paper_h + 1e-9:
        raise ValueError(f"{cols} x {rows} cards of {card_w:g} x {card_h:g} mm do not fit on a "
                         f"{paper_w:g} x {paper_h:g} mm page")
    return NupGrid(card_w, card_h, paper_w, paper_h, cols, rows, bleed, gap,
                   (paper_w - block_w) / 2, (paper_h - block_h) / 2)


def crop_marks(grid: NupGrid, mirrored: bool = False, footer_band: bool = True) -> Group:
    """Crop marks along every trim line, from just outside the bleed to the page edge."""
    xs, ys = grid.trim_lines(mirrored)
    box = grid.bleed_box(mirrored)
    top, bottom = box.y - CROP_OFFSET, box.y + box.h + CROP_OFFSET
    left, right = box.x - CROP_OFFSET, box.x + box.w + CROP_OFFSET
    h, w = grid.paper_h, grid.paper_w
    band_top, band_bottom = h - FOOTER_BAND[0], h - FOOTER_BAND[1]
    items: list[Item] = []
    for i, x in enumerate(xs):
        if top > 0:
            items.append(Line(x, 0.0, x, top, CROP_STYLE, id=f"crop-v{i}-top", cls="crop"))
        if bottom < h:
            # the mark that reaches the bottom edge is crop-v<i>-bottom on every paper; where the
            # footer band leaves room above it, an unnamed piece above the band goes with it
            if footer_band and bottom < band_top:
                items.append(Line(x, bottom, x, band_top, CROP_STYLE, cls="crop"))
                items.append(Line(x, band_bottom, x, h, CROP_STYLE, id=f"crop-v{i}-bottom", cls="crop"))
            elif footer_band and bottom < band_bottom:
                items.append(Line(x, band_bottom, x, h, CROP_STYLE, id=f"crop-v{i}-bottom", cls="crop"))
            else:
                items.append(Line(x, bottom, x, h, CROP_STYLE, id=f"crop-v{i}-bottom", cls="crop"))
    for i, y in enumerate(ys):
        if left > 0:
            items.append(Line(0.0, y, left, y, CROP_STYLE, id=f"crop-h{i}-left", cls="crop"))
        if right < w:
            items.append(Line(right, y, w, y, CROP_STYLE, id=f"crop-h{i}-right", cls="crop"))
    return Group(tuple(items), id="crop-marks" + ("-back" if mirrored else ""), cls="crop-marks")


def cut_lines(grid: NupGrid, mirrored: bool = False) -> Group:
    """Thin dashed guides along every trim line across the block (for scissors)."""
    xs, ys = grid.trim_lines(mirrored)
    box = grid.bleed_box(mirrored)
    items: list[Item] = [Line(x, box.y, x, box.y + box.h, CUT_STYLE, cls="cut") for x in xs]
    items += [Line(box.x, y, box.x + box.w, y, CUT_STYLE, cls="cut") for y in ys]
    return Group(tuple(items), id="cut-lines" + ("-back" if mirrored else ""), cls="cut-lines")


def nup_pages(faces: list[Item], card_w: float, card_h: float, paper_w: float, paper_h: float, *,
              bleed: float = 0.0, gap: float = 0.0, backs: list[Item] | None = None,
              duplex: bool = False, crop: bool = True, cuts: bool = False,
              margin: float = MIN_MARGIN, cols: int | None = None, rows: int | None = None,
              name: str = "cards", footer_band: bool = True) -> list[Page]:
    """Lay faces out N-up; returns unfinished Pages (the caller runs finish_page).

    backs: None for no back pages; else one back per face, or a single back used
    for every card.  duplex=True puts each back page right after its front page
    (print double-sided, flip on the long edge); duplex=False puts all back pages
    after all front pages (print them separately).  Back pages are always laid
    in mirrored column order so they line up behind their fronts.
    Page names: `<name>-<n>` and `<name>-<n>-back`; trim and bleed boxes are set
    to the block of cards (the bleed box only when bleed > 0).
    """
    grid = nup_grid(card_w, card_h, paper_w, paper_h, bleed=bleed, gap=gap, margin=margin,
                    cols=cols, rows=rows)
    if backs is not None and len(backs) not in (1, len(faces)):
        raise ValueError(f"{len(backs)} backs for {len(faces)} faces (give one back, or one per face)")
    sheets = max(1, math.ceil(len(faces) / grid.per_page))
    fronts: list[Page] = []
    back_pages: list[Page] = []
    for sheet in range(sheets):
        first = sheet * grid.per_page
        chunk = range(first, min(first + grid.per_page, len(faces)))
        fronts.append(_sheet(grid, [faces[i] for i in chunk], first, False, crop, cuts,
                             f"{name}-{sheet + 1}", name, footer_band))
        if backs is not None:
            these = [backs[i] if len(backs) > 1 else backs[0] for i in chunk]
            back_pages.append(_sheet(grid, these, first, True, crop, cuts,
                                     f"{name}-{sheet + 1}-back", name, footer_band))
    if backs is None:
        return fronts
    if duplex:
        return [p for pair in zip(fronts, back_pages) for p in pair]
    return fronts + back_pages


def _sheet(grid: NupGrid, items: list[Item], first: int, mirrored: bool, crop: bool, cuts: bool,
           page_name: str, name: str, footer_band: bool) -> Page:
    page = Page(grid.paper_w, grid.paper_h, name=page_name,
                trim=grid.trim_box(mirrored), bleed=grid.bleed_box(mirrored) if grid.bleed > 0 else None)
    cls = "card back" if mirrored else "card"
    suffix = "-back" if mirrored else ""
    for slot, item in enumerate(items):
        x, y = grid.slot(slot, mirrored)
        page.add(Group((item,), transform=translate(x, y), id=f"{name}-{first + slot + 1}{suffix}", cls=cls))
    if cuts:
        page.add(cut_lines(grid, mirrored))
    if crop:
        page.add(crop_marks(grid, mirrored, footer_band))
    return page

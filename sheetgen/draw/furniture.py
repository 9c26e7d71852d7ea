"""What every printed page carries: footer (seed, sheet id, scale correction),
a 50 mm calibration ruler, and the printer scale correction itself."""
from __future__ import annotations

import hashlib

from .model import Box, Document, Group, Line, Page, Style, Text, compose, scale, translate
from .options import BuildOptions

FOOTER_SIZE = 6.0       # pt
# mm: the square at each corner of a playable page that the sheets leave empty (the
# scanner's fiducial marks go there), and the band along the bottom edge the footer uses
CORNER_ZONE = 15.0
# many laser printers print nothing within 4.2 mm of the paper's edge, some nothing within 5:
# every built-in keeps PRINTER_MARGIN clear (issue 30), the footer and the ruler too (their
# baseline is FOOTER_Y above the edge; 6 pt descenders reach 0.45 mm below it)
PRINTER_MARGIN = 5.0
# --printer-margin's range: past 15 mm the content shrinks to under 90% (6 pt text prints under 5.4 pt)
MAX_PRINTER_MARGIN = 15.0
FOOTER_Y = 5.6
# mm above the bottom edge: the ruler's line (its label on the footer's baseline): its 2 mm ticks
# end below the bottom corner markers' lower edge (scanmarks.INSET, 7.5 mm), which a photo's
# marker close-up would otherwise take for part of that edge (photo-0008's corners moved 2 px)
RULER_Y = 5.3
FOOTER_X = CORNER_ZONE + 0.5        # mm from the left and right edges: where the footer and ruler end
FOOTER_BAND = (8.3, 4.8)    # mm above the bottom edge: the footer line and the ruler
GREY = "#555555"
RULER_STYLE = Style(stroke="#000000", stroke_width=0.2)


def sheet_id(*parts) -> str:
    """A short stable id for a sheet made from its definition text and options."""
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:8]


def ruler(x: float, y: float, length: float = 50.0, label_y: float | None = None) -> Group:
    """A horizontal ruler with mm ticks, its left end at (x, y) (the baseline); its label's
    baseline at label_y (default y)."""
    items = [Line(x, y, x + length, y, RULER_STYLE)]
    for mm in range(0, int(length) + 1):
        tick = 2.0 if mm % 10 == 0 else (1.4 if mm % 5 == 0 else 0.8)
        items.append(Line(x + mm, y, x + mm, y - tick, RULER_STYLE))
    items.append(Text(x + length + 1.0, y if label_y is None else label_y, f"{length:g} mm", size=FOOTER_SIZE,
                      font="sans", fill=GREY))
    return Group(tuple(items), id="calibration-ruler", cls="ruler")


def finish_page(page: Page, options: BuildOptions, sid: str, footer: str = "",
                ruler_at: tuple[float, float] | None = None) -> Page:
    """Add footer and ruler and apply the printer scale correction.

    footer: extra text (e.g. the title) printed at the left of the footer line.
    ruler_at: where the 50 mm ruler goes (default bottom right, on the footer's baseline).
    """
    y = page.height - FOOTER_Y
    parts = [p for p in (footer, f"seed {options.seed}", f"sheet {sid}", options.calibration.label()) if p]
    # between the bottom corner squares (the scanner's markers), which the footer's 6 pt line,
    # 5 mm clear of the edge, would reach into
    page.add(Text(FOOTER_X, y, " · ".join(parts), size=FOOTER_SIZE, font="condensed", fill=GREY, id="footer", cls="footer"))
    if options.ruler:
        if ruler_at:
            page.add(ruler(*ruler_at))
        else:
            page.add(ruler(page.width - FOOTER_X - 50.0 - 9.0, page.height - RULER_Y, label_y=y))
    cal = options.calibration
    if not cal.is_identity:
        # scale about the page centre so margins stay balanced
        cx, cy = page.width / 2, page.height / 2
        t = compose(translate(cx, cy), compose(scale(cal.factor_x, cal.factor_y), translate(-cx, -cy)))
        page.items = [Group(tuple(page.items), transform=t, id="calibrated")]
    return page


def add_scan_marks(page: Page, identity) -> bool:
    """Add the corner markers and the QR code of `identity` (sheetgen.draw.scanmarks.SheetIdentity)
    to a finished page, inside its printer scale correction (the marks scale with what they
    locate); False for a page that is neither A4 nor Letter (it gets none)."""
    from dataclasses import replace

    from .scanmarks import scan_marks
    marks = scan_marks(page.width, page.height, identity)
    if marks is None:
        return False
    if len(page.items) == 1 and isinstance(page.items[0], Group) and page.items[0].id == "calibrated":
        page.items = [replace(page.items[0], items=page.items[0].items + (marks,))]
    else:
        page.add(marks)
    return True


def keep_clear(doc: Document, margin: float) -> float:
    """--printer-margin: every page's content scaled uniformly about the page centre, by one
    factor for the whole document (duplex backs stay aligned with their fronts), so that what
    prints keeps margin mm clear of each edge (crop marks excepted, as sheetgen.draw.lint
    measures it); returns the factor (1.0: already clear, nothing changed).

    The scan marks scale with the rest, so a photo rectified on its corner markers shows the
    sheet as composed unscaled: `sheetgen scan` reads it against the unscaled template."""
    from .lint import printed_extent
    factor = 1.0
    for page in doc.pages:
        extent = printed_extent(page)
        if extent is None:
            continue
        cx, cy = page.width / 2, page.height / 2
        x0, y0, x1, y1 = extent
        for reach, room in ((cx - x0, cx - margin), (x1 - cx, cx - margin),
                            (cy - y0, cy - margin), (y1 - cy, cy - margin)):
            if reach > room > 0:
                factor = min(factor, room / reach)
    if factor < 1.0:
        for page in doc.pages:
            _scale_page(page, factor)
    return factor


def _scale_page(page: Page, factor: float) -> None:
    cx, cy = page.width / 2, page.height / 2
    t = compose(translate(cx, cy), compose(scale(factor), translate(-cx, -cy)))
    page.items = [Group(tuple(page.items), transform=t, id="printer-margin")]

    def box(b: Box | None) -> Box | None:
        return None if b is None else Box(cx + (b.x - cx) * factor, cy + (b.y - cy) * factor,
                                          b.w * factor, b.h * factor)
    page.trim, page.bleed = box(page.trim), box(page.bleed)
    page.content_scale = factor

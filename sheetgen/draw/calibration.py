"""The printer scale test page: 100 mm and 4 in rulers on both axes."""
from __future__ import annotations

from .furniture import finish_page, sheet_id
from .model import Document, Group, Line, Page, Rect, Style, Text, rotate
from .options import PAPER_SIZES, BuildOptions, Calibration

RULE = Style(stroke="#000000", stroke_width=0.25)
THICK = Style(stroke="#000000", stroke_width=0.5)


def _ruler(x: float, y: float, length_mm: float, step_mm: float, major_every: int, label: str,
           vertical: bool, id: str, numbers: int | None = None) -> Group:
    """A ruler from (x, y) along +x (or +y when vertical); ticks above (or left of) the line,
    numbers and the label below (or right of) it, the vertical label reading upwards."""
    items = []
    items.append(Line(x, y, x, y + length_mm, THICK) if vertical else Line(x, y, x + length_mm, y, THICK))
    n = round(length_mm / step_mm)
    for i in range(n + 1):
        pos = i * step_mm
        major = i % major_every == 0
        half = (not major) and major_every % 2 == 0 and i % (major_every // 2) == 0
        tick = 4.0 if major else (2.5 if half else 1.5)
        if vertical:
            items.append(Line(x, y + pos, x - tick, y + pos, RULE))
        else:
            items.append(Line(x + pos, y, x + pos, y - tick, RULE))
        if major and numbers is not None:
            value = f"{i // major_every * numbers}"
            if vertical:
                items.append(Text(x + 1.5, y + pos + 1.0, value, size=6, fill="#333333"))
            else:
                items.append(Text(x + pos, y + 3.0, value, size=6, anchor="middle", fill="#333333"))
    if vertical:
        cx, cy = x + 8.0, y + length_mm / 2
        items.append(Group((Text(cx, cy, label, size=9, font="sans-bold", anchor="middle"),),
                           transform=rotate(-90, cx, cy)))
    else:
        items.append(Text(x + length_mm / 2, y + 8.0, label, size=9, font="sans-bold", anchor="middle"))
    return Group(tuple(items), id=id, cls="ruler")


def compose_calibration(options: BuildOptions) -> Document:
    """The test page is printed WITHOUT any stored correction: it measures the raw printer."""
    paper = options.paper or "a4"
    w, h = PAPER_SIZES[paper]
    page = Page(w, h, name="calibrate")
    page.add(Text(w / 2, 22, "sheetgen printer calibration", size=18, font="serif-bold", anchor="middle"))
    page.add(Text(w / 2, 30, f"Print this page at 100% / actual size on {paper.upper()} paper, then measure the two long rulers.",
                  size=9, anchor="middle"))
    left = (w - 100.0) / 2
    page.add(_ruler(left, 55.0, 100.0, 1.0, 10, "100 mm  (measure this: --measured-x)", False, "ruler-x-100mm", 10))
    page.add(_ruler(left, 80.0, 101.6, 25.4 / 8, 8, "4 in", False, "ruler-x-4in", 1))
    page.add(_ruler(32.0, 105.0, 100.0, 1.0, 10, "100 mm  (measure this: --measured-y)", True, "ruler-y-100mm", 10))
    page.add(_ruler(w - 40.0, 105.0, 101.6, 25.4 / 8, 8, "4 in", True, "ruler-y-4in", 1))
    # a 50 mm square: a quick visual check of both axes at once
    page.add(Rect(w / 2 - 25, 130.0, 50, 50, THICK, id="square-50mm"))
    page.add(Text(w / 2, 156.0, "50 x 50 mm", size=9, anchor="middle"))
    steps = [
        "1. Print at 100% (\"actual size\", no \"fit to page\").",
        "2. Measure the horizontal 100 mm ruler and the vertical one, in mm.",
        "3. Store them: sheetgen calibrate --measured-x 99.2 --measured-y 99.6 [--printer NAME]",
        "4. Every later build is corrected for that printer (unless --no-calibration);",
        "   the footer of each sheet says which correction was applied.",
    ]
    for i, line in enumerate(steps):
        page.add(Text(25, h - 70 + i * 6.5, line, size=10))
    opts = BuildOptions(paper=paper, seed=options.seed, ruler=False, calibration=Calibration())
    finish_page(page, opts, sheet_id("calibrate", paper), footer="printer calibration (printed without correction)")
    return Document([page], title="sheetgen printer calibration", name="calibrate")

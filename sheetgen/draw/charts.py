"""Charts every simulation report draws: labelled horizontal bars, colour ramps for heatmaps.

Drawing-model primitives only; the games' report pages (sheetgen.games.*.sim) place them.
"""
from __future__ import annotations

from ..fonts import fit_size
from .model import Group, Page, Rect, Style, Text
from .options import PAPER_SIZES, BuildOptions

INK = "#1a1a1a"
GREY = "#666666"
LIGHT = "#d9d9d9"
MARGIN = 14.0
BAR = {"won": "#3c8d40", "died": "#c0392b", "trapped": "#8e5a2b", "lost": "#7f8c8d", "no entry": "#34495e"}
BAR_DEFAULT = "#2f6fa8"
VISIT_RAMP = ((255, 255, 255), (255, 224, 130), (244, 109, 67), (165, 0, 38))
DEATH_RAMP = ((255, 255, 255), (253, 204, 138), (215, 48, 31), (103, 0, 13))


def text_item(x, y, s, size=9.0, font="sans", anchor="start", fill=INK, id=None, cls=None):
    return Text(x, y, s, size=size, font=font, anchor=anchor, fill=fill, id=id, cls=cls)


def percent(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def ramp(t: float, stops, grayscale: bool = False) -> str:
    """Colour at t in 0..1 along the stops (grey levels when grayscale)."""
    t = max(0.0, min(1.0, t))
    if grayscale:
        v = int(round(255 - 200 * t))
        return f"#{v:02x}{v:02x}{v:02x}"
    seg = t * (len(stops) - 1)
    i = min(int(seg), len(stops) - 2)
    f = seg - i
    a, b = stops[i], stops[i + 1]
    r, g, bl = (round(a[k] + (b[k] - a[k]) * f) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


# -- charts ------------------------------------------------------------------------
def bar_chart(x, y, w, title, rows, id, grayscale=False, max_value=None, label_w=34.0, row_h=6.2) -> tuple[list, float]:
    """Horizontal bars: rows of (label, value, shown text, colour or None). Returns (items, height)."""
    items = [text_item(x, y + 4.0, title, 10.5, "sans-bold", id=f"{id}-title")]
    top = y + 8.0
    vmax = max_value if max_value is not None else max([r[1] for r in rows] + [0])
    bar_w = w - label_w - 22.0
    for i, (label, value, shown, colour) in enumerate(rows):
        ry = top + i * row_h
        size = fit_size(label, "sans", 8.5, label_w - 2.0, 6.5)
        items.append(text_item(x + label_w - 2.0, ry + row_h * 0.68, label, size, anchor="end"))
        items.append(Rect(x + label_w, ry + 0.8, bar_w, row_h - 1.6, Style(stroke=LIGHT, stroke_width=0.2)))
        frac = (value / vmax) if vmax else 0.0
        if frac > 0:
            fill = "#808080" if grayscale else (colour or BAR_DEFAULT)
            items.append(Rect(x + label_w, ry + 0.8, max(0.4, bar_w * frac), row_h - 1.6,
                              Style(stroke=None, fill=fill), id=f"{id}-bar-{_slug(label)}", cls="bar"))
        items.append(text_item(x + label_w + bar_w + 1.5, ry + row_h * 0.68, shown, 8.0, "condensed"))
    height = 8.0 + len(rows) * row_h + 3.0
    return [Group(tuple(items), id=id, cls="chart")], height


def place_chart(page: Page, chart: tuple[list, float]) -> float:
    """Adds a bar_chart's items to the page; returns its height."""
    items, h = chart
    page.add(*items)
    return h


def _slug(s: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in str(s).lower()).strip("-")


def paper_size(options: BuildOptions) -> tuple[float, float]:
    w, h = PAPER_SIZES[(options.paper or "a4").lower()]
    return min(w, h), max(w, h)

"""Pieces every card face shares (the card games): the card
frame, wrapped text, small stat badges.  Cards are drawn with their top-left
trim corner at (0, 0), in mm, ready for sheetgen.draw.nup."""
from __future__ import annotations

from ..fonts import fit_size, wrap
from .model import Circle, Group, Rect, Style, Text

CARD_W, CARD_H = 63.0, 88.0
INK = "#1a1a1a"
PAPER = "#fbf8f1"
SAFE = 3.0                       # mm inside the trim that nothing important crosses


def frame(fill: str | None, grayscale: bool, id: str | None = None) -> list:
    """Card background and a rounded inner border (the trim itself is cut)."""
    bg = None if grayscale else fill
    return [Rect(0, 0, CARD_W, CARD_H, Style(stroke=None, fill=bg), id=id and f"{id}-bg"),
            Rect(1.5, 1.5, CARD_W - 3, CARD_H - 3, Style(stroke=INK, stroke_width=0.35), radius=2.5)]


def title(text: str, y: float, size: float = 11.0, width: float = CARD_W - 2 * SAFE - 2,
          font: str = "serif-bold", cx: float = CARD_W / 2, id: str | None = None) -> Text:
    size = fit_size(text, font, size, width, minimum=7.0)
    return Text(cx, y, text, size=size, font=font, anchor="middle", fill=INK, id=id, cls="card-title")


def paragraph(text: str, x: float, y: float, width: float, size: float = 7.5, font: str = "sans",
              leading: float = 1.25, max_lines: int = 6, anchor: str = "start") -> list:
    """Wrapped text from baseline y; shrinks (not below 6 pt) rather than overflow max_lines."""
    items = []
    lines = wrap(text, font, size, width)
    while len(lines) > max_lines and size > 6.0:
        size -= 0.5
        lines = wrap(text, font, size, width)
    step = size * leading * 25.4 / 72
    for i, line in enumerate(lines[:max_lines]):
        items.append(Text(x, y + i * step, line, size=size, font=font, anchor=anchor, fill=INK, cls="card-text"))
    return items


def badge(cx: float, cy: float, r: float, value: str, fill: str, grayscale: bool, label: str = "",
          id: str | None = None) -> Group:
    """A round stat badge with a number (and a small label under it)."""
    items = [Circle(cx, cy, r, Style(stroke=INK, stroke_width=0.35, fill=None if grayscale else fill)),
             Text(cx, cy + r * 0.38, value, size=r * 2.6, font="sans-bold", anchor="middle",
                  fill=INK if grayscale else "#ffffff")]
    if label:
        items.append(Text(cx, cy + r + 2.6, label, size=6.0, font="condensed", anchor="middle", fill=INK))
    return Group(tuple(items), id=id, cls="badge")

"""Fill patterns for ink-saver (grayscale) prints: hatching, cross-hatching and
dots, clipped to a rectangle or polygon geometrically.

Back ends need no clipping support: a hatch line is cut where it crosses the
outline (scan-line intersection, even-odd rule, so concave outlines work) and a
dot is kept only if its centre lies inside.  Everything is in mm, y down.

    items = pattern_items("hatch", rect_points(10, 10, 30, 20))
"""
from __future__ import annotations

import colorsys
import math

from .model import Circle, Group, Line, Style

PATTERNS = ("hatch", "backhatch", "crosshatch", "horizontal", "vertical", "dots", "none")
PATTERN_STYLE = Style(stroke="#000000", stroke_width=0.15)
DOT_STYLE = Style(stroke=None, fill="#000000")

Point = tuple[float, float]


def rect_points(x: float, y: float, w: float, h: float) -> list[Point]:
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def hatch_segments(points: list[Point], spacing: float = 1.5, angle: float = 45.0) -> list[tuple[float, float, float, float]]:
    """Parallel lines `spacing` mm apart at `angle` degrees (0 = horizontal,
    counter-clockwise as seen on the page), clipped to the polygon."""
    if len(points) < 3 or spacing <= 0:
        return []
    a = math.radians(angle)
    # direction along the lines (on the page, y down, so negate the sine)
    ux, uy = math.cos(a), -math.sin(a)
    nx, ny = -uy, ux                       # unit normal: lines are n.p = const
    offsets = [px * nx + py * ny for px, py in points]
    lo, hi = min(offsets), max(offsets)
    first = math.floor(lo / spacing) * spacing + spacing / 2   # aligned to a page-wide lattice
    edges = list(zip(points, points[1:] + points[:1]))
    segments = []
    k = first
    while k < hi:
        ts = []
        for (x1, y1), (x2, y2) in edges:
            d1 = x1 * nx + y1 * ny - k
            d2 = x2 * nx + y2 * ny - k
            if (d1 < 0) != (d2 < 0):       # the edge crosses the line (half-open rule)
                f = d1 / (d1 - d2)
                ix, iy = x1 + f * (x2 - x1), y1 + f * (y2 - y1)
                ts.append(ix * ux + iy * uy)
        ts.sort()
        for t1, t2 in zip(ts[0::2], ts[1::2]):
            if t2 - t1 > 1e-6:
                # back from (along, normal) coordinates to the page
                segments.append((t1 * ux + k * nx, t1 * uy + k * ny, t2 * ux + k * nx, t2 * uy + k * ny))
        k += spacing
    return segments


def clip_to_box(x0: float, y0: float, dx: float, dy: float, box: tuple[float, float, float, float],
                lo: float = -math.inf, hi: float = math.inf) -> tuple[float, float] | None:
    """The range t0..t1 (within lo..hi) of the points (x0 + t*dx, y0 + t*dy) that lie in
    box (x_min, y_min, x_max, y_max), or None when none does (Liang-Barsky clipping)."""
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if abs(p) < 1e-12:
            if q < 0:
                return None         # parallel to this edge and outside it
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return None
    return lo, hi


def inside(point: Point, points: list[Point]) -> bool:
    """Even-odd point-in-polygon test."""
    x, y = point
    result = False
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def dot_centres(points: list[Point], spacing: float = 2.0) -> list[Point]:
    """Centres of a staggered dot lattice that fall inside the polygon."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    out = []
    row = 0
    y = math.floor(min(ys) / spacing) * spacing + spacing / 2
    while y < max(ys):
        shift = spacing / 2 if row % 2 else 0.0
        x = math.floor(min(xs) / spacing) * spacing + spacing / 2 + shift
        while x < max(xs):
            if inside((x, y), points):
                out.append((x, y))
            x += spacing
        y += spacing
        row += 1
    return out


def pattern_items(kind: str, points: list[Point], *, spacing: float | None = None,
                  colour: str = "#000000", width: float = 0.15, id: str | None = None,
                  cls: str | None = None) -> Group:
    """The pattern `kind` (one of PATTERNS) filling the polygon, as a Group."""
    style = Style(stroke=colour, stroke_width=width)
    items: list = []
    if kind in ("hatch", "backhatch", "crosshatch", "horizontal", "vertical"):
        gap = spacing or 1.6
        angles = {"hatch": (45.0,), "backhatch": (135.0,), "crosshatch": (45.0, 135.0),
                  "horizontal": (0.0,), "vertical": (90.0,)}[kind]
        for angle in angles:
            items += [Line(*(round(v, 6) for v in seg), style) for seg in hatch_segments(points, gap, angle)]
    elif kind == "dots":
        gap = spacing or 1.8
        r = max(0.18, gap * 0.14)
        items += [Circle(round(x, 6), round(y, 6), r, Style(stroke=None, fill=colour))
                  for x, y in dot_centres(points, gap)]
    elif kind != "none":
        raise ValueError(f"unknown pattern '{kind}'")
    return Group(tuple(items), id=id, cls=cls or f"pattern pattern-{kind}")


def is_grey(colour: str | None) -> bool:
    """True for no colour, black, white and greys (they survive an ink-saver print)."""
    if colour is None or not colour.startswith("#") or len(colour) != 7:
        return True
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return max(r, g, b) - min(r, g, b) < 12


def luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def pattern_for_colour(colour: str) -> str:
    """A pattern that stands in for a colour fill: very light tints are dropped
    ('none'); other colours get a pattern chosen by hue, so fills that differed
    by colour still differ on a grayscale print."""
    if is_grey(colour):
        return "none"
    if luminance(colour) > 0.86:
        return "none"
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue = colorsys.rgb_to_hsv(r, g, b)[0] * 360
    choices = ("hatch", "dots", "crosshatch", "vertical", "backhatch", "horizontal")
    return choices[int(((hue + 30) % 360) // 60)]

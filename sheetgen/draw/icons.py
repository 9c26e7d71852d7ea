"""The vector icon set: every element a zone map prints (its items, events and foes), and the
card games' monsters and heroes (MAP_ICONS, CARD_ICONS), drawn from our own primitives.
Shared: layouts place icons by name (draw/layout.py) and several games draw them.

`icon(name, x, y, size)` returns a Group whose top-left corner is (x, y) and
which fills a size x size mm square.  Icons are designed on a unit square and
mapped to millimetres point by point (no group transform), so stroke widths are
the same in every back end (PDF, SVG, PNG) and scale with the icon.

With colour=False every fill is turned into the grey of its luminance, so the
shapes (not the hues) tell icons apart on an ink-saver print.
"""
from __future__ import annotations

import math

from ..errors import InputError, Problem, did_you_mean
from .model import Circle, Group, Line, Path, Polygon, Rect, Style, Text

# -- palette -----------------------------------------------------------------
INK = "#1a1a1a"
WHITE = "#ffffff"
RED = "#d0312d"
DARK_RED = "#8e1b1b"
GOLD = "#e8b41c"
YELLOW = "#f5d327"
BROWN = "#8b5a2b"
LIGHT_BROWN = "#c68e4e"
GREEN = "#3f9b3a"
DARK_GREEN = "#2f6b2a"
OLIVE = "#7b8b3a"
BLUE = "#2f6fc0"
LIGHT_BLUE = "#a9d4f2"
PURPLE = "#7d3c98"
STONE = "#a7a29a"
STEEL = "#c9ced6"
SKIN = "#e9c39b"
PINK = "#e58fa7"


def grey_of(colour: str | None, floor: bool = True) -> str | None:
    """The grey with the same luminance as colour (for colour=False / ink saver);
    floor keeps dark fills from swallowing the black outlines drawn over them."""
    if colour is None or not colour.startswith("#") or len(colour) != 7:
        return colour
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    y = round(0.299 * r + 0.587 * g + 0.114 * b)
    # keep greys light enough that the black outlines stay visible
    if floor and 20 < y < 255:
        y = max(y, 70)
    return f"#{y:02x}{y:02x}{y:02x}"


class Pen:
    """Draws on a unit square mapped to (x, y, size) mm; widths are in units too."""

    def __init__(self, x: float, y: float, size: float, colour: bool = True, opacity: float = 1.0):
        self.x, self.y, self.s, self.colour, self.opacity = x, y, size, colour, opacity
        self.items: list = []

    # coordinates
    def p(self, u: float, v: float) -> tuple[float, float]:
        return (self.x + u * self.s, self.y + v * self.s)

    def c(self, colour: str | None, floor: bool = True) -> str | None:
        return colour if self.colour else grey_of(colour, floor)

    def style(self, fill=None, stroke=INK, w=0.05, **kw) -> Style:
        return Style(stroke=self.c(stroke, floor=False) if stroke else None, stroke_width=w * self.s,
                     fill=self.c(fill) if fill else None, opacity=self.opacity, **kw)

    # shapes
    def rect(self, u, v, w, h, fill=None, stroke=INK, sw=0.05, r=0.0, **kw):
        x, y = self.p(u, v)
        # tiny rounded corners add nothing and trip raster back ends: keep them to a sensible size
        radius = min(r, w * 0.3, h * 0.3) * self.s if self.s >= 4.0 else 0.0
        self.items.append(Rect(x, y, w * self.s, h * self.s, self.style(fill, stroke, sw, **kw), radius=radius))

    def circle(self, u, v, r, fill=None, stroke=INK, sw=0.05, **kw):
        x, y = self.p(u, v)
        self.items.append(Circle(x, y, r * self.s, self.style(fill, stroke, sw, **kw)))

    def poly(self, pts, fill=None, stroke=INK, sw=0.05, closed=True, **kw):
        st = self.style(fill, stroke, sw, join="round", cap="round", **kw)
        self.items.append(Polygon(tuple(self.p(u, v) for u, v in pts), st, closed=closed))

    def line(self, u1, v1, u2, v2, stroke=INK, sw=0.05, cap="round", **kw):
        self.items.append(Line(*self.p(u1, v1), *self.p(u2, v2), self.style(None, stroke, sw, cap=cap, **kw)))

    def path(self, cmds, fill=None, stroke=INK, sw=0.05, **kw):
        out = []
        for cmd in cmds:
            op, nums = cmd[0], cmd[1:]
            pts = []
            for i in range(0, len(nums), 2):
                pts.extend(self.p(nums[i], nums[i + 1]))
            out.append((op, *pts))
        st = self.style(fill, stroke, sw, join=kw.pop("join", "round"), cap=kw.pop("cap", "round"), **kw)
        self.items.append(Path(tuple(out), st))

    def ellipse(self, u, v, rx, ry, fill=None, stroke=INK, sw=0.05, **kw):
        self.path(ellipse_cmds(u, v, rx, ry), fill, stroke, sw, **kw)

    def text(self, u, v, text, size_units, font="sans-bold", fill=INK, anchor="middle"):
        x, y = self.p(u, v)
        pt = size_units * self.s * 72.0 / 25.4
        self.items.append(Text(x, y, text, size=pt, font=font, anchor=anchor, fill=self.c(fill)))  # (text: opaque)


K = 0.5522847498  # cubic Bezier circle constant


def ellipse_cmds(u, v, rx, ry):
    return (("M", u + rx, v), ("C", u + rx, v + K * ry, u + K * rx, v + ry, u, v + ry),
            ("C", u - K * rx, v + ry, u - rx, v + K * ry, u - rx, v),
            ("C", u - rx, v - K * ry, u - K * rx, v - ry, u, v - ry),
            ("C", u + K * rx, v - ry, u + rx, v - K * ry, u + rx, v), ("Z",))


def star_points(cx, cy, r_out, r_in, n=5, rot=-90.0):
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + i * 180.0 / n)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def heart_cmds(cx, top, w, h):
    """A heart of width w and height h, its top notch at (cx, top + 0.28h)."""
    l, r, b = cx - w / 2, cx + w / 2, top + h
    n = top + 0.28 * h
    return (("M", cx, b), ("C", cx - 0.1 * w, b - 0.12 * h, l, top + 0.62 * h, l, top + 0.3 * h),
            ("C", l, top + 0.05 * h, cx - 0.05 * w, top - 0.02 * h, cx, n),
            ("C", cx + 0.05 * w, top - 0.02 * h, r, top + 0.05 * h, r, top + 0.3 * h),
            ("C", r, top + 0.62 * h, cx + 0.1 * w, b - 0.12 * h, cx, b), ("Z",))


# -- the icons -----------------------------------------------------------------
# each draws on a Pen in unit coordinates (0..1, y down), keeping ~0.05 margin

def _heart(p: Pen):
    p.path(heart_cmds(0.5, 0.12, 0.86, 0.8), fill=RED, sw=0.06)
    p.ellipse(0.3, 0.33, 0.08, 0.05, fill=WHITE, stroke=None)


def _skull(p: Pen):
    # the Fury symbol: a white skull on black
    p.rect(0.03, 0.03, 0.94, 0.94, fill=INK, stroke=None, r=0.1)
    p.path((("M", 0.22, 0.5), ("C", 0.18, 0.2, 0.82, 0.2, 0.78, 0.5), ("L", 0.74, 0.62), ("L", 0.66, 0.66),
            ("L", 0.66, 0.8), ("L", 0.34, 0.8), ("L", 0.34, 0.66), ("L", 0.26, 0.62), ("Z",)),
           fill=WHITE, stroke=None)
    p.ellipse(0.38, 0.5, 0.08, 0.085, fill=INK, stroke=None)
    p.ellipse(0.62, 0.5, 0.08, 0.085, fill=INK, stroke=None)
    p.poly([(0.5, 0.58), (0.46, 0.66), (0.54, 0.66)], fill=INK, stroke=None)
    for u in (0.43, 0.5, 0.57):
        p.line(u, 0.71, u, 0.8, stroke=INK, sw=0.03)


def _chest(p: Pen):
    p.path((("M", 0.1, 0.45), ("L", 0.1, 0.35), ("C", 0.1, 0.12, 0.9, 0.12, 0.9, 0.35), ("L", 0.9, 0.45), ("Z",)),
           fill=LIGHT_BROWN, sw=0.05)
    p.rect(0.1, 0.45, 0.8, 0.42, fill=BROWN, sw=0.05)
    p.rect(0.2, 0.2, 0.08, 0.67, fill=GOLD, sw=0.03)
    p.rect(0.72, 0.2, 0.08, 0.67, fill=GOLD, sw=0.03)
    p.rect(0.42, 0.38, 0.16, 0.2, fill=GOLD, sw=0.04, r=0.02)
    p.circle(0.5, 0.46, 0.03, fill=INK, stroke=None)


def _flask(p: Pen, liquid: str, dots: int = 0):
    p.rect(0.4, 0.06, 0.2, 0.1, fill=LIGHT_BROWN, sw=0.04, r=0.02)          # cork
    p.path((("M", 0.42, 0.16), ("L", 0.42, 0.36), ("C", 0.2, 0.42, 0.12, 0.58, 0.14, 0.7),
            ("C", 0.16, 0.88, 0.32, 0.95, 0.5, 0.95), ("C", 0.68, 0.95, 0.84, 0.88, 0.86, 0.7),
            ("C", 0.88, 0.58, 0.8, 0.42, 0.58, 0.36), ("L", 0.58, 0.16), ("Z",)), fill=WHITE, sw=0.05)
    p.path((("M", 0.17, 0.6), ("C", 0.35, 0.54, 0.65, 0.66, 0.83, 0.6), ("C", 0.88, 0.8, 0.72, 0.93, 0.5, 0.93),
            ("C", 0.28, 0.93, 0.12, 0.8, 0.17, 0.6), ("Z",)), fill=liquid, stroke=None)
    p.path((("M", 0.42, 0.16), ("L", 0.42, 0.36), ("C", 0.2, 0.42, 0.12, 0.58, 0.14, 0.7),
            ("C", 0.16, 0.88, 0.32, 0.95, 0.5, 0.95), ("C", 0.68, 0.95, 0.84, 0.88, 0.86, 0.7),
            ("C", 0.88, 0.58, 0.8, 0.42, 0.58, 0.36), ("L", 0.58, 0.16), ("Z",)), sw=0.05)
    if dots:
        # the label: 2 dots (yellow potion) or 3 dots (purple potion)
        p.rect(0.3, 0.4, 0.4, 0.17, fill=WHITE, sw=0.035, r=0.03)
        xs = [0.5 + (i - (dots - 1) / 2) * 0.11 for i in range(dots)]
        for u in xs:
            p.circle(u, 0.485, 0.04, fill=INK, stroke=None)
    else:
        p.path(heart_cmds(0.5, 0.66, 0.22, 0.2), fill=WHITE, stroke=None)


def _potion(p):
    _flask(p, RED)


def _yellow_potion(p):
    _flask(p, YELLOW, 2)


def _purple_potion(p):
    _flask(p, PURPLE, 3)


def _shovel(p: Pen):
    p.line(0.3, 0.3, 0.62, 0.62, sw=0.09, stroke=INK)
    p.line(0.3, 0.3, 0.62, 0.62, sw=0.05, stroke=LIGHT_BROWN)
    p.path((("M", 0.13, 0.25), ("L", 0.25, 0.13), ("C", 0.3, 0.2, 0.34, 0.24, 0.32, 0.32),
            ("C", 0.24, 0.34, 0.2, 0.3, 0.13, 0.25), ("Z",)), fill=LIGHT_BROWN, sw=0.045)
    # the blade: a pointed spade
    p.path((("M", 0.55, 0.67), ("L", 0.67, 0.55), ("L", 0.9, 0.7), ("C", 0.95, 0.82, 0.9, 0.9, 0.93, 0.93),
            ("C", 0.9, 0.9, 0.82, 0.95, 0.7, 0.9), ("Z",)), fill=STEEL, sw=0.05)


def _weapon(p: Pen):
    # a sword, point up-right
    p.poly([(0.36, 0.56), (0.8, 0.12), (0.9, 0.1), (0.88, 0.2), (0.44, 0.64)], fill=STEEL, sw=0.05)
    p.line(0.41, 0.59, 0.83, 0.17, sw=0.02)
    p.poly([(0.22, 0.5), (0.28, 0.44), (0.56, 0.72), (0.5, 0.78)], fill=GOLD, sw=0.045)   # crossguard
    p.poly([(0.34, 0.6), (0.4, 0.66), (0.22, 0.84), (0.16, 0.78)], fill=BROWN, sw=0.045)  # grip
    p.circle(0.15, 0.85, 0.065, fill=GOLD, sw=0.045)


def _shield(p: Pen):
    cmds = (("M", 0.5, 0.06), ("C", 0.64, 0.14, 0.78, 0.16, 0.88, 0.16), ("C", 0.9, 0.55, 0.76, 0.8, 0.5, 0.95),
            ("C", 0.24, 0.8, 0.1, 0.55, 0.12, 0.16), ("C", 0.22, 0.16, 0.36, 0.14, 0.5, 0.06), ("Z",))
    p.path(cmds, fill=BLUE, sw=0.06)
    p.path((("M", 0.5, 0.06), ("L", 0.5, 0.95), ("C", 0.76, 0.8, 0.9, 0.55, 0.88, 0.16),
            ("C", 0.78, 0.16, 0.64, 0.14, 0.5, 0.06), ("Z",)), fill=STEEL, stroke=None)
    p.line(0.12, 0.42, 0.86, 0.42, sw=0.04)
    p.path(cmds, sw=0.06)


def _clover(p: Pen):
    p.path((("M", 0.5, 0.52), ("C", 0.55, 0.7, 0.62, 0.82, 0.76, 0.94)), sw=0.07, stroke=DARK_GREEN)
    for rot in (0, 90, 180, 270):
        a = math.radians(rot)
        ca, sa = math.cos(a), math.sin(a)

        def r(u, v):
            # a heart-shaped leaf pointing at the centre, rotated about (0.5, 0.5)
            du, dv = u - 0.5, v - 0.5
            return (0.5 + du * ca - dv * sa, 0.5 + du * sa + dv * ca)
        pts = [r(0.5, 0.5), r(0.33, 0.36), r(0.27, 0.2), r(0.37, 0.08), r(0.5, 0.16),
               r(0.63, 0.08), r(0.73, 0.2), r(0.67, 0.36)]
        cmds = (("M", *pts[0]), ("C", *r(0.42, 0.44), *r(0.27, 0.32), *pts[2]),
                ("C", *r(0.27, 0.1), *r(0.42, 0.04), *pts[4]),
                ("C", *r(0.58, 0.04), *r(0.73, 0.1), *pts[6]),
                ("C", *r(0.73, 0.32), *r(0.58, 0.44), *pts[0]), ("Z",))
        p.path(cmds, fill=GREEN, sw=0.04)
    p.circle(0.5, 0.5, 0.04, fill=DARK_GREEN, stroke=None)


def _cornucopia(p: Pen):
    # a curled horn, its mouth open to the right, fruit spilling out
    p.path((("M", 0.62, 0.18), ("C", 0.4, 0.2, 0.2, 0.42, 0.14, 0.6), ("C", 0.08, 0.74, 0.14, 0.9, 0.28, 0.84),
            ("C", 0.2, 0.84, 0.18, 0.76, 0.24, 0.72), ("C", 0.36, 0.66, 0.5, 0.66, 0.62, 0.66), ("Z",)),
           fill=GOLD, sw=0.05)
    for u in (0.36, 0.48):
        p.path((("M", u, 0.22 + (0.48 - u) * 0.6), ("C", u + 0.04, 0.36, u + 0.04, 0.5, u, 0.66)), sw=0.03)
    p.ellipse(0.64, 0.42, 0.09, 0.24, fill=BROWN, sw=0.05)
    p.circle(0.8, 0.3, 0.1, fill=RED, sw=0.035)
    p.circle(0.84, 0.54, 0.08, fill=PURPLE, sw=0.035)
    p.circle(0.72, 0.74, 0.08, fill=YELLOW, sw=0.035)
    p.path((("M", 0.8, 0.2), ("C", 0.82, 0.14, 0.86, 0.1, 0.9, 0.1)), stroke=DARK_GREEN, sw=0.035)


def _die(p: Pen):
    p.rect(0.1, 0.1, 0.8, 0.8, fill=WHITE, sw=0.06, r=0.14)
    for u, v in ((0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)):
        p.circle(u, v, 0.075, fill=INK, stroke=None)


def _magic_circle(p: Pen):
    p.circle(0.5, 0.5, 0.43, fill="#e6d5f2", stroke=PURPLE, sw=0.05)
    p.circle(0.5, 0.5, 0.34, stroke=PURPLE, sw=0.03)
    pts = star_points(0.5, 0.5, 0.33, 0.33, 5)
    outer = pts[::2]
    p.poly([outer[i % 5] for i in (0, 2, 4, 1, 3)], stroke=PURPLE, sw=0.045)


def _stairs(p: Pen):
    p.poly([(0.08, 0.92), (0.08, 0.74), (0.28, 0.74), (0.28, 0.56), (0.48, 0.56), (0.48, 0.38), (0.68, 0.38),
            (0.68, 0.2), (0.92, 0.2), (0.92, 0.92)], fill=STONE, sw=0.06)
    for v in (0.74, 0.56, 0.38):
        p.line(0.92, v, 0.92 - 0.02, v, sw=0.02)


def _lever(p: Pen):
    p.line(0.5, 0.72, 0.78, 0.18, sw=0.08, stroke=INK)
    p.circle(0.8, 0.15, 0.1, fill=RED, sw=0.05)
    p.path((("M", 0.18, 0.86), ("C", 0.18, 0.58, 0.82, 0.58, 0.82, 0.86), ("Z",)), fill=STONE, sw=0.05)
    p.rect(0.08, 0.84, 0.84, 0.1, fill=INK, stroke=None, r=0.02)


def _statue(p: Pen):
    p.rect(0.2, 0.76, 0.6, 0.18, fill=STONE, sw=0.05)                      # plinth
    p.path((("M", 0.26, 0.76), ("C", 0.26, 0.5, 0.36, 0.44, 0.5, 0.44), ("C", 0.64, 0.44, 0.74, 0.5, 0.74, 0.76),
            ("Z",)), fill=STONE, sw=0.05)                                   # shoulders
    p.circle(0.5, 0.28, 0.15, fill=STONE, sw=0.05)                         # head
    p.line(0.42, 0.27, 0.47, 0.27, sw=0.03)
    p.line(0.53, 0.27, 0.58, 0.27, sw=0.03)
    # the dart trap: a dart flying from the statue
    p.line(0.78, 0.34, 0.95, 0.34, sw=0.03)
    p.poly([(0.74, 0.34), (0.8, 0.31), (0.8, 0.37)], fill=INK, stroke=None)


# -- enemies -------------------------------------------------------------------

def _eyes(p: Pen, v=0.48, du=0.12, r=0.05, fill=WHITE, pupil=INK):
    for u in (0.5 - du, 0.5 + du):
        p.circle(u, v, r, fill=fill, sw=0.025)
        p.circle(u, v + 0.01, r * 0.45, fill=pupil, stroke=None)


def _goblin(p: Pen):
    p.poly([(0.3, 0.42), (0.02, 0.22), (0.24, 0.6)], fill=GREEN, sw=0.045)      # big pointed ears
    p.poly([(0.7, 0.42), (0.98, 0.22), (0.76, 0.6)], fill=GREEN, sw=0.045)
    p.ellipse(0.5, 0.55, 0.26, 0.32, fill=GREEN, sw=0.05)
    _eyes(p, 0.48, 0.1, 0.06, fill=YELLOW)
    p.poly([(0.5, 0.52), (0.44, 0.66), (0.56, 0.66)], fill=DARK_GREEN, sw=0.025)
    p.path((("M", 0.38, 0.74), ("C", 0.45, 0.8, 0.55, 0.8, 0.62, 0.74)), sw=0.035)


def _orc(p: Pen):
    p.path((("M", 0.16, 0.4), ("C", 0.16, 0.1, 0.84, 0.1, 0.84, 0.4), ("L", 0.86, 0.7),
            ("C", 0.8, 0.92, 0.2, 0.92, 0.14, 0.7), ("Z",)), fill=OLIVE, sw=0.05)
    p.line(0.3, 0.38, 0.44, 0.44, sw=0.05)      # heavy brow
    p.line(0.7, 0.38, 0.56, 0.44, sw=0.05)
    p.circle(0.37, 0.5, 0.04, fill=RED, stroke=None)
    p.circle(0.63, 0.5, 0.04, fill=RED, stroke=None)
    p.path((("M", 0.28, 0.74), ("C", 0.4, 0.68, 0.6, 0.68, 0.72, 0.74)), sw=0.04)
    p.poly([(0.32, 0.73), (0.3, 0.56), (0.38, 0.71)], fill=WHITE, sw=0.03)   # tusks
    p.poly([(0.68, 0.73), (0.7, 0.56), (0.62, 0.71)], fill=WHITE, sw=0.03)


def _imp(p: Pen):
    p.poly([(0.3, 0.34), (0.16, 0.04), (0.42, 0.26)], fill=DARK_RED, sw=0.04)    # horns
    p.poly([(0.7, 0.34), (0.84, 0.04), (0.58, 0.26)], fill=DARK_RED, sw=0.04)
    p.path((("M", 0.5, 0.2), ("C", 0.78, 0.2, 0.82, 0.46, 0.74, 0.62), ("L", 0.5, 0.9), ("L", 0.26, 0.62),
            ("C", 0.18, 0.46, 0.22, 0.2, 0.5, 0.2), ("Z",)), fill=RED, sw=0.05)
    p.poly([(0.33, 0.44), (0.46, 0.5), (0.34, 0.52)], fill=YELLOW, sw=0.025)
    p.poly([(0.67, 0.44), (0.54, 0.5), (0.66, 0.52)], fill=YELLOW, sw=0.025)
    p.path((("M", 0.36, 0.64), ("C", 0.45, 0.72, 0.55, 0.72, 0.64, 0.64)), sw=0.035)   # grin
    # the tail
    p.path((("M", 0.74, 0.7), ("C", 0.9, 0.76, 0.9, 0.9, 0.8, 0.92)), sw=0.035)
    p.poly([(0.8, 0.92), (0.86, 0.84), (0.9, 0.96)], fill=INK, stroke=None)


def _bandit(p: Pen):
    p.path((("M", 0.12, 0.92), ("C", 0.1, 0.3, 0.3, 0.08, 0.5, 0.08), ("C", 0.7, 0.08, 0.9, 0.3, 0.88, 0.92),
            ("Z",)), fill=BROWN, sw=0.05)                                      # hood
    p.ellipse(0.5, 0.54, 0.25, 0.28, fill=SKIN, sw=0.04)
    p.rect(0.22, 0.4, 0.56, 0.13, fill=INK, stroke=None, r=0.04)             # the mask
    p.circle(0.4, 0.465, 0.035, fill=WHITE, stroke=None)
    p.circle(0.6, 0.465, 0.035, fill=WHITE, stroke=None)
    p.poly([(0.24, 0.64), (0.76, 0.64), (0.5, 0.86)], fill=RED, sw=0.03)     # scarf over the mouth


def _troll(p: Pen):
    # a club over the shoulder, then the big lumpy head
    p.path((("M", 0.78, 0.95), ("L", 0.84, 0.36), ("C", 0.84, 0.2, 1.0, 0.2, 0.98, 0.36), ("L", 0.88, 0.95), ("Z",)),
           fill=LIGHT_BROWN, sw=0.04)
    p.path((("M", 0.08, 0.5), ("C", 0.04, 0.14, 0.72, 0.08, 0.76, 0.44), ("C", 0.82, 0.8, 0.62, 0.95, 0.42, 0.95),
            ("C", 0.2, 0.95, 0.08, 0.8, 0.08, 0.5), ("Z",)), fill="#8aa3a0", sw=0.05)
    p.circle(0.3, 0.42, 0.04, fill=INK, stroke=None)
    p.circle(0.52, 0.42, 0.04, fill=INK, stroke=None)
    p.ellipse(0.41, 0.58, 0.1, 0.08, fill="#6f8986", sw=0.035)              # big nose
    p.rect(0.26, 0.74, 0.32, 0.06, fill=WHITE, sw=0.03)
    p.line(0.34, 0.74, 0.34, 0.8, sw=0.02)
    p.line(0.42, 0.74, 0.42, 0.8, sw=0.02)
    p.line(0.5, 0.74, 0.5, 0.8, sw=0.02)


def _minotaur(p: Pen):
    # wide bull horns
    p.path((("M", 0.3, 0.32), ("C", 0.12, 0.34, 0.04, 0.22, 0.06, 0.06), ("C", 0.14, 0.16, 0.24, 0.2, 0.36, 0.22),
            ("Z",)), fill="#efe6d2", sw=0.04)
    p.path((("M", 0.7, 0.32), ("C", 0.88, 0.34, 0.96, 0.22, 0.94, 0.06), ("C", 0.86, 0.16, 0.76, 0.2, 0.64, 0.22),
            ("Z",)), fill="#efe6d2", sw=0.04)
    p.poly([(0.26, 0.3), (0.12, 0.42), (0.28, 0.46)], fill=BROWN, sw=0.035)   # ears
    p.poly([(0.74, 0.3), (0.88, 0.42), (0.72, 0.46)], fill=BROWN, sw=0.035)
    p.path((("M", 0.28, 0.26), ("C", 0.4, 0.18, 0.6, 0.18, 0.72, 0.26), ("L", 0.68, 0.6),
            ("L", 0.32, 0.6), ("Z",)), fill=BROWN, sw=0.05)
    p.ellipse(0.5, 0.72, 0.2, 0.16, fill=LIGHT_BROWN, sw=0.05)               # muzzle
    p.circle(0.42, 0.72, 0.03, fill=INK, stroke=None)
    p.circle(0.58, 0.72, 0.03, fill=INK, stroke=None)
    p.circle(0.5, 0.86, 0.065, stroke=GOLD, sw=0.035)                         # nose ring
    p.circle(0.4, 0.42, 0.035, fill=RED, stroke=None)
    p.circle(0.6, 0.42, 0.035, fill=RED, stroke=None)


def _yeti(p: Pen):
    pts = []
    for i in range(20):
        a = math.radians(-90 + i * 18)
        r = 0.44 if i % 2 == 0 else 0.36
        pts.append((0.5 + r * math.cos(a), 0.52 + r * 0.95 * math.sin(a)))
    p.poly(pts, fill=WHITE, sw=0.045)                                          # shaggy fur
    p.ellipse(0.5, 0.56, 0.22, 0.22, fill=LIGHT_BLUE, sw=0.04)
    p.circle(0.42, 0.5, 0.035, fill=INK, stroke=None)
    p.circle(0.58, 0.5, 0.035, fill=INK, stroke=None)
    p.path((("M", 0.38, 0.64), ("L", 0.62, 0.64), ("L", 0.58, 0.7), ("L", 0.42, 0.7), ("Z",)), fill=INK, sw=0.02)
    p.poly([(0.44, 0.64), (0.46, 0.68), (0.48, 0.64)], fill=WHITE, stroke=None)
    p.poly([(0.52, 0.64), (0.54, 0.68), (0.56, 0.64)], fill=WHITE, stroke=None)


def _grinch(p: Pen):
    p.ellipse(0.5, 0.62, 0.3, 0.3, fill="#7fb43a", sw=0.05)
    # a droopy Santa hat
    p.path((("M", 0.2, 0.46), ("C", 0.3, 0.1, 0.7, 0.02, 0.9, 0.22), ("L", 0.78, 0.46), ("Z",)), fill=RED, sw=0.04)
    p.circle(0.9, 0.24, 0.07, fill=WHITE, sw=0.03)
    p.rect(0.16, 0.42, 0.68, 0.1, fill=WHITE, sw=0.03, r=0.05)
    p.poly([(0.34, 0.6), (0.46, 0.64), (0.34, 0.66)], fill=YELLOW, sw=0.025)
    p.poly([(0.66, 0.6), (0.54, 0.64), (0.66, 0.66)], fill=YELLOW, sw=0.025)
    p.path((("M", 0.3, 0.74), ("C", 0.4, 0.84, 0.6, 0.84, 0.72, 0.7)), sw=0.04)   # sly grin


def _kraken(p: Pen):
    for u0, u1 in ((0.24, 0.06), (0.36, 0.24), (0.5, 0.5), (0.64, 0.76), (0.76, 0.94)):
        p.path((("M", u0, 0.56), ("C", u0, 0.76, u1 + (0.1 if u1 < 0.5 else -0.1), 0.8, u1, 0.94)),
               stroke=INK, sw=0.11)
        p.path((("M", u0, 0.56), ("C", u0, 0.76, u1 + (0.1 if u1 < 0.5 else -0.1), 0.8, u1, 0.94)),
               stroke="#8e5aa8", sw=0.06)
    p.path((("M", 0.18, 0.6), ("C", 0.12, 0.1, 0.88, 0.1, 0.82, 0.6), ("Z",)), fill="#8e5aa8", sw=0.05)
    p.circle(0.38, 0.44, 0.06, fill=YELLOW, sw=0.025)
    p.circle(0.62, 0.44, 0.06, fill=YELLOW, sw=0.025)
    p.rect(0.37, 0.41, 0.02, 0.06, fill=INK, stroke=None)
    p.rect(0.61, 0.41, 0.02, 0.06, fill=INK, stroke=None)


def _monster(p: Pen):
    # a generic horned monster with a toothy mouth
    pts = star_points(0.5, 0.55, 0.44, 0.34, 9, rot=-90)
    p.poly(pts, fill="#9b59b6", sw=0.045)
    p.circle(0.5, 0.45, 0.13, fill=WHITE, sw=0.035)                         # one big eye
    p.circle(0.52, 0.46, 0.06, fill=INK, stroke=None)
    p.path((("M", 0.3, 0.64), ("L", 0.7, 0.64), ("C", 0.66, 0.8, 0.34, 0.8, 0.3, 0.64), ("Z",)), fill=INK, sw=0.02)
    p.poly([(0.36, 0.64), (0.4, 0.7), (0.44, 0.64)], fill=WHITE, stroke=None)
    p.poly([(0.56, 0.64), (0.6, 0.7), (0.64, 0.64)], fill=WHITE, stroke=None)


# -- campaign elements -----------------------------------------------------------

def _star(p: Pen):
    p.poly(star_points(0.5, 0.54, 0.46, 0.19), fill=GOLD, sw=0.05)
    p.poly(star_points(0.5, 0.54, 0.16, 0.07), fill=WHITE, stroke=None)     # a twinkle


def _hourglass(p: Pen):
    p.rect(0.16, 0.05, 0.68, 0.09, fill=BROWN, sw=0.04, r=0.02)
    p.rect(0.16, 0.86, 0.68, 0.09, fill=BROWN, sw=0.04, r=0.02)
    p.path((("M", 0.24, 0.14), ("L", 0.76, 0.14), ("C", 0.76, 0.36, 0.56, 0.44, 0.54, 0.5),
            ("C", 0.56, 0.56, 0.76, 0.64, 0.76, 0.86), ("L", 0.24, 0.86), ("C", 0.24, 0.64, 0.44, 0.56, 0.46, 0.5),
            ("C", 0.44, 0.44, 0.24, 0.36, 0.24, 0.14), ("Z",)), fill=WHITE, sw=0.045)
    p.poly([(0.34, 0.3), (0.66, 0.3), (0.5, 0.46)], fill=GOLD, stroke=None)
    p.poly([(0.3, 0.84), (0.7, 0.84), (0.5, 0.66)], fill=GOLD, stroke=None)
    p.line(0.5, 0.48, 0.5, 0.7, stroke=GOLD, sw=0.02)


def _package(p: Pen, colour: str, tall: bool):
    # green packages are wide and low with a cross ribbon; blue ones tall with a band
    if tall:
        p.rect(0.22, 0.28, 0.56, 0.66, fill=colour, sw=0.05)
        p.rect(0.22, 0.5, 0.56, 0.1, fill=GOLD, sw=0.03)
        p.rect(0.22, 0.72, 0.56, 0.1, fill=GOLD, sw=0.03)
        p.ellipse(0.38, 0.2, 0.12, 0.07, fill=GOLD, sw=0.035)
        p.ellipse(0.62, 0.2, 0.12, 0.07, fill=GOLD, sw=0.035)
        p.circle(0.5, 0.24, 0.045, fill=GOLD, sw=0.03)
    else:
        p.rect(0.08, 0.38, 0.84, 0.54, fill=colour, sw=0.05)
        p.rect(0.44, 0.38, 0.12, 0.54, fill=RED, sw=0.03)
        p.rect(0.08, 0.58, 0.84, 0.1, fill=RED, sw=0.03)
        p.ellipse(0.34, 0.28, 0.15, 0.09, fill=RED, sw=0.035)
        p.ellipse(0.66, 0.28, 0.15, 0.09, fill=RED, sw=0.035)
        p.circle(0.5, 0.33, 0.05, fill=RED, sw=0.03)


def _green_package(p):
    _package(p, GREEN, tall=False)


def _blue_package(p):
    _package(p, BLUE, tall=True)


def _deer(p: Pen, nose: str, nose_r: float):
    # antlers
    for s in (-1, 1):
        def a(u):
            return 0.5 + s * (u - 0.5)
        p.path((("M", a(0.4), 0.3), ("C", a(0.3), 0.2, a(0.2), 0.16, a(0.1), 0.06)), sw=0.05, stroke=BROWN)
        p.path((("M", a(0.27), 0.19), ("L", a(0.3), 0.05)), sw=0.04, stroke=BROWN)
        p.path((("M", a(0.18), 0.13), ("L", a(0.05), 0.2)), sw=0.04, stroke=BROWN)
    p.poly([(0.3, 0.36), (0.12, 0.34), (0.3, 0.46)], fill=LIGHT_BROWN, sw=0.035)   # ears
    p.poly([(0.7, 0.36), (0.88, 0.34), (0.7, 0.46)], fill=LIGHT_BROWN, sw=0.035)
    p.path((("M", 0.3, 0.36), ("C", 0.3, 0.22, 0.7, 0.22, 0.7, 0.36), ("C", 0.7, 0.6, 0.64, 0.9, 0.5, 0.9),
            ("C", 0.36, 0.9, 0.3, 0.6, 0.3, 0.36), ("Z",)), fill=LIGHT_BROWN, sw=0.05)
    p.circle(0.41, 0.45, 0.035, fill=INK, stroke=None)
    p.circle(0.59, 0.45, 0.035, fill=INK, stroke=None)
    p.circle(0.5, 0.84, nose_r, fill=nose, sw=0.03)


def _reindeer(p):
    _deer(p, INK, 0.06)


def _rudolph(p):
    _deer(p, RED, 0.15)
    p.circle(0.45, 0.8, 0.04, fill=WHITE, stroke=None)
    for a in (160, 200, 250, 290, 340, 20):     # the nose shines
        r = math.radians(a)
        p.line(0.5 + 0.2 * math.cos(r), 0.84 + 0.2 * math.sin(r), 0.5 + 0.3 * math.cos(r),
               0.84 + 0.3 * math.sin(r), sw=0.05, stroke=RED)


def _sleigh(p: Pen):
    p.path((("M", 0.04, 0.82), ("L", 0.86, 0.82), ("C", 0.98, 0.82, 0.98, 0.7, 0.9, 0.68)), sw=0.05)   # runner
    p.line(0.3, 0.72, 0.3, 0.82, sw=0.04)
    p.line(0.7, 0.72, 0.7, 0.82, sw=0.04)
    p.path((("M", 0.12, 0.3), ("C", 0.16, 0.3, 0.2, 0.36, 0.22, 0.48), ("L", 0.72, 0.48), ("L", 0.78, 0.34),
            ("C", 0.84, 0.26, 0.94, 0.3, 0.9, 0.38), ("C", 0.84, 0.5, 0.86, 0.72, 0.72, 0.72),
            ("L", 0.26, 0.72), ("C", 0.14, 0.72, 0.08, 0.5, 0.12, 0.3), ("Z",)), fill=RED, sw=0.05)
    p.line(0.2, 0.6, 0.8, 0.6, stroke=GOLD, sw=0.04)
    p.rect(0.3, 0.24, 0.22, 0.24, fill=GREEN, sw=0.035)                  # a sack of presents
    p.rect(0.5, 0.3, 0.18, 0.18, fill=BLUE, sw=0.035)


def _candy_cane(p: Pen):
    cmds = (("M", 0.62, 0.94), ("L", 0.62, 0.34), ("C", 0.62, 0.06, 0.22, 0.06, 0.22, 0.34))
    p.path(cmds, stroke=INK, sw=0.2, cap="round")
    p.path(cmds, stroke=WHITE, sw=0.14, cap="round")
    p.path(cmds, stroke=RED, sw=0.14, cap="butt", dash=(0.09 * p.s, 0.09 * p.s))


def _flooded(p: Pen):
    p.rect(0.05, 0.05, 0.9, 0.9, fill=LIGHT_BLUE, sw=0.04, r=0.06)
    for v in (0.3, 0.52, 0.74):
        p.path((("M", 0.12, v), ("C", 0.22, v - 0.1, 0.28, v - 0.1, 0.36, v), ("C", 0.44, v + 0.1, 0.5, v + 0.1, 0.6, v),
                ("C", 0.68, v - 0.1, 0.76, v - 0.1, 0.88, v)), stroke=BLUE, sw=0.06)


# -- sheet symbols -------------------------------------------------------------

def _oracle(p: Pen):
    # a crystal ball on a stand with an eye inside
    p.path((("M", 0.24, 0.94), ("L", 0.32, 0.76), ("L", 0.68, 0.76), ("L", 0.76, 0.94), ("Z",)), fill=BROWN, sw=0.05)
    p.circle(0.5, 0.44, 0.36, fill="#cfe3f7", sw=0.05)
    p.path((("M", 0.26, 0.44), ("C", 0.38, 0.28, 0.62, 0.28, 0.74, 0.44), ("C", 0.62, 0.6, 0.38, 0.6, 0.26, 0.44),
            ("Z",)), fill=WHITE, sw=0.04)
    p.circle(0.5, 0.44, 0.09, fill=PURPLE, sw=0.02)
    p.circle(0.5, 0.44, 0.04, fill=INK, stroke=None)
    p.ellipse(0.34, 0.24, 0.06, 0.035, fill=WHITE, stroke=None)


def _entry(p: Pen):
    # the entry arrow, pointing into the map (down)
    p.poly([(0.32, 0.06), (0.68, 0.06), (0.68, 0.5), (0.9, 0.5), (0.5, 0.94), (0.1, 0.5), (0.32, 0.5)],
           fill=WHITE, sw=0.07)


def _coin(p: Pen):
    p.circle(0.5, 0.5, 0.44, fill=GOLD, sw=0.05)
    p.circle(0.5, 0.5, 0.34, stroke=INK, sw=0.03)
    p.rect(0.44, 0.26, 0.12, 0.48, fill=INK, stroke=None, r=0.03)          # the slot mark


def _start(p: Pen):
    p.poly([(0.5, 0.08), (0.94, 0.88), (0.06, 0.88)], fill=INK, sw=0.05)


def _santa(p: Pen):
    p.ellipse(0.5, 0.6, 0.28, 0.26, fill=SKIN, sw=0.045)
    p.path((("M", 0.22, 0.62), ("C", 0.24, 1.0, 0.76, 1.0, 0.78, 0.62), ("L", 0.66, 0.68), ("L", 0.34, 0.68), ("Z",)),
           fill=WHITE, sw=0.04)                                                # beard
    p.path((("M", 0.2, 0.44), ("C", 0.3, 0.04, 0.72, 0.02, 0.88, 0.16), ("L", 0.8, 0.44), ("Z",)), fill=RED, sw=0.04)
    p.circle(0.88, 0.18, 0.07, fill=WHITE, sw=0.03)
    p.rect(0.18, 0.4, 0.64, 0.1, fill=WHITE, sw=0.03, r=0.05)
    p.circle(0.4, 0.57, 0.03, fill=INK, stroke=None)
    p.circle(0.6, 0.57, 0.03, fill=INK, stroke=None)
    p.circle(0.5, 0.64, 0.05, fill=PINK, stroke=None)


def _market(p: Pen):
    # a market stall: striped awning over a counter
    p.poly([(0.08, 0.36), (0.16, 0.12), (0.84, 0.12), (0.92, 0.36)], fill=WHITE, sw=0.045)
    for i in range(0, 6, 2):
        u0 = 0.08 + i * 0.14
        p.poly([(u0, 0.36), (0.16 + i * 0.1133, 0.12), (0.16 + (i + 1) * 0.1133, 0.12), (u0 + 0.14, 0.36)],
               fill=RED, stroke=None)
    p.poly([(0.08, 0.36), (0.16, 0.12), (0.84, 0.12), (0.92, 0.36)], sw=0.045)
    p.rect(0.14, 0.36, 0.06, 0.56, fill=BROWN, sw=0.03)
    p.rect(0.8, 0.36, 0.06, 0.56, fill=BROWN, sw=0.03)
    p.rect(0.1, 0.66, 0.8, 0.12, fill=LIGHT_BROWN, sw=0.04)
    p.circle(0.4, 0.6, 0.06, fill=GOLD, sw=0.025)
    p.circle(0.56, 0.6, 0.06, fill=GOLD, sw=0.025)


# -- the card games' monsters and heroes ------------------------------------------

def _rat(p: Pen):
    # side view, nose to the left: a long tail curling back over the body
    p.path((("M", 0.62, 0.7), ("C", 0.86, 0.72, 0.98, 0.56, 0.9, 0.4), ("C", 0.84, 0.3, 0.74, 0.34, 0.78, 0.42)),
           stroke=PINK, sw=0.045)
    p.path((("M", 0.06, 0.64), ("C", 0.16, 0.5, 0.3, 0.36, 0.5, 0.38), ("C", 0.7, 0.4, 0.76, 0.56, 0.7, 0.72),
            ("L", 0.22, 0.74), ("C", 0.14, 0.74, 0.08, 0.7, 0.06, 0.64), ("Z",)), fill="#8d8a86", sw=0.05)
    p.circle(0.38, 0.4, 0.09, fill=PINK, sw=0.04)                              # round ear
    p.circle(0.24, 0.55, 0.03, fill=INK, stroke=None)                          # eye
    p.circle(0.07, 0.64, 0.03, fill=PINK, stroke=None)                         # nose
    for dv in (-0.05, 0.0, 0.05):                                              # whiskers
        p.line(0.1, 0.64, 0.02, 0.64 + dv * 2, sw=0.015)
    p.line(0.3, 0.74, 0.28, 0.82, sw=0.04)                                     # feet
    p.line(0.56, 0.74, 0.58, 0.82, sw=0.04)


def _skeleton(p: Pen):
    # a skull over its ribs (the Fury's skull is white on black: this one is bone on white)
    p.path((("M", 0.24, 0.34), ("C", 0.22, 0.04, 0.78, 0.04, 0.76, 0.34), ("L", 0.7, 0.48), ("L", 0.62, 0.5),
            ("L", 0.62, 0.58), ("L", 0.38, 0.58), ("L", 0.38, 0.5), ("L", 0.3, 0.48), ("Z",)), fill="#f2ead8", sw=0.05)
    p.ellipse(0.4, 0.3, 0.065, 0.075, fill=INK, stroke=None)
    p.ellipse(0.6, 0.3, 0.065, 0.075, fill=INK, stroke=None)
    p.poly([(0.5, 0.38), (0.46, 0.45), (0.54, 0.45)], fill=INK, stroke=None)
    p.line(0.5, 0.6, 0.5, 0.96, sw=0.05)                                      # spine
    for k, v in enumerate((0.68, 0.77, 0.86)):                                 # ribs
        half = 0.28 - k * 0.05
        p.path((("M", 0.5, v), ("C", 0.5 - half * 0.6, v - 0.04, 0.5 - half, v, 0.5 - half, v + 0.05)), sw=0.04)
        p.path((("M", 0.5, v), ("C", 0.5 + half * 0.6, v - 0.04, 0.5 + half, v, 0.5 + half, v + 0.05)), sw=0.04)


def _ogre(p: Pen):
    # a broad, bald head on heavy shoulders, a topknot and an underbite
    p.path((("M", 0.02, 0.98), ("C", 0.04, 0.74, 0.2, 0.7, 0.5, 0.7), ("C", 0.8, 0.7, 0.96, 0.74, 0.98, 0.98),
            ("Z",)), fill="#7a6a4f", sw=0.05)
    p.ellipse(0.5, 0.48, 0.34, 0.3, fill="#c9a66b", sw=0.05)
    p.path((("M", 0.46, 0.2), ("C", 0.42, 0.08, 0.52, 0.02, 0.58, 0.08), ("C", 0.54, 0.12, 0.54, 0.16, 0.54, 0.2),
            ("Z",)), fill=INK, sw=0.03)                                        # topknot
    p.circle(0.16, 0.46, 0.06, fill="#c9a66b", sw=0.04)                        # small ears
    p.circle(0.84, 0.46, 0.06, fill="#c9a66b", sw=0.04)
    p.line(0.3, 0.4, 0.44, 0.43, sw=0.045)                                     # one heavy brow
    p.line(0.56, 0.43, 0.7, 0.4, sw=0.045)
    p.circle(0.38, 0.47, 0.03, fill=INK, stroke=None)
    p.circle(0.62, 0.47, 0.03, fill=INK, stroke=None)
    p.path((("M", 0.32, 0.6), ("C", 0.42, 0.66, 0.58, 0.66, 0.68, 0.6)), sw=0.04)
    p.poly([(0.38, 0.62), (0.4, 0.54), (0.43, 0.63)], fill=WHITE, sw=0.025)    # teeth up (underbite)
    p.poly([(0.62, 0.62), (0.6, 0.54), (0.57, 0.63)], fill=WHITE, sw=0.025)


def _knight(p: Pen):
    # a great helm with its visor slit and a plume
    p.path((("M", 0.52, 0.14), ("C", 0.6, 0.02, 0.86, 0.02, 0.9, 0.16), ("C", 0.78, 0.12, 0.68, 0.14, 0.6, 0.22),
            ("Z",)), fill=RED, sw=0.04)
    p.path((("M", 0.2, 0.92), ("L", 0.2, 0.36), ("C", 0.2, 0.16, 0.8, 0.16, 0.8, 0.36), ("L", 0.8, 0.92),
            ("Z",)), fill=STEEL, sw=0.05)
    p.rect(0.26, 0.44, 0.48, 0.06, fill=INK, stroke=None)                     # the slit
    p.line(0.5, 0.22, 0.5, 0.92, sw=0.03)                                     # the ridge
    for u in (0.36, 0.44, 0.56, 0.64):                                        # breathing holes
        p.circle(u, 0.66, 0.018, fill=INK, stroke=None)


def _rogue(p: Pen):
    # two daggers crossed
    for flip in (False, True):
        def q(u, v):
            return (1 - u, v) if flip else (u, v)
        p.poly([q(0.12, 0.12), q(0.2, 0.1), q(0.62, 0.54), q(0.54, 0.62), q(0.1, 0.2)], fill=STEEL, sw=0.04)
        p.line(*q(0.5, 0.7), *q(0.7, 0.5), sw=0.07)                             # guard
        p.poly([q(0.6, 0.64), q(0.64, 0.6), q(0.86, 0.82), q(0.82, 0.86)], fill=BROWN, sw=0.035)   # grip
        p.circle(*q(0.88, 0.88), 0.045, fill=GOLD, sw=0.025)                    # pommel


def _mage(p: Pen):
    # a pointed hat with a star, over a wide brim
    p.path((("M", 0.58, 0.04), ("C", 0.5, 0.2, 0.36, 0.5, 0.28, 0.74), ("L", 0.74, 0.74),
            ("C", 0.7, 0.5, 0.66, 0.24, 0.58, 0.04), ("Z",)), fill="#3b4fa8", sw=0.05)
    p.ellipse(0.5, 0.78, 0.46, 0.1, fill="#3b4fa8", sw=0.05)
    p.poly(star_points(0.52, 0.52, 0.09, 0.04), fill=YELLOW, sw=0.02)
    p.circle(0.6, 0.3, 0.025, fill=YELLOW, stroke=None)
    p.circle(0.44, 0.64, 0.02, fill=YELLOW, stroke=None)


DRAWERS = {
    "chest": _chest, "potion": _potion, "yellow potion": _yellow_potion, "purple potion": _purple_potion,
    "shovel": _shovel, "weapon": _weapon, "shield": _shield, "clover": _clover, "cornucopia": _cornucopia,
    "die": _die, "magic circle": _magic_circle, "stairs": _stairs, "lever": _lever, "statue": _statue,
    "goblin": _goblin, "orc": _orc, "imp": _imp, "bandit": _bandit, "troll": _troll, "minotaur": _minotaur,
    "yeti": _yeti, "grinch": _grinch, "kraken": _kraken, "monster": _monster,
    "star": _star, "hourglass": _hourglass, "green package": _green_package, "blue package": _blue_package,
    "reindeer": _reindeer, "rudolph": _rudolph, "sleigh": _sleigh, "candy cane": _candy_cane, "flooded": _flooded,
    "heart": _heart, "skull": _skull, "oracle": _oracle, "entry": _entry, "coin": _coin, "start": _start,
    "santa": _santa, "market": _market,
}
MAP_ICONS: tuple[str, ...] = tuple(DRAWERS)         # a zone map's (its game's icon page prints these)
DRAWERS.update({"rat": _rat, "skeleton": _skeleton, "ogre": _ogre, "knight": _knight, "rogue": _rogue,
                "mage": _mage})
CARD_ICONS: tuple[str, ...] = ("rat", "skeleton", "ogre", "knight", "rogue", "mage")   # the card games'
ICON_NAMES: tuple[str, ...] = tuple(DRAWERS)
# other words people use for the same things
ALIASES = {"sword": "weapon", "fury": "skull", "life": "heart", "hearts": "heart", "four-leaf clover": "clover",
           "treasure": "chest", "trap": "statue", "staircase": "stairs", "stone stairs": "stairs",
           "arrow": "entry", "triangle": "start", "insert coin": "coin", "water": "flooded",
           "package": "green package", "present": "green package", "cicisbeo juice": "yellow potion",
           "dragon blood": "purple potion", "dragon's blood": "purple potion", "turn": "hourglass",
           "mouse": "rat", "bones": "skeleton", "wizard": "mage", "thief": "rogue"}
LABELS = {name: name.replace("weapon", "weapon (sword)").replace("skull", "fury (skull)") for name in ICON_NAMES}


def icon_key(name: str) -> str:
    """The canonical icon name for name (aliases accepted); InputError with did-you-mean if unknown."""
    key = str(name).strip().lower().replace("_", " ").replace("-", " ") if name is not None else ""
    key = " ".join(key.split())
    if key in DRAWERS:
        return key
    if key in ALIASES:
        return ALIASES[key]
    dashed = str(name).strip().lower()
    if dashed in ALIASES:
        return ALIASES[dashed]
    raise InputError(Problem(f"unknown icon '{name}'", expected="one of " + ", ".join(ICON_NAMES),
                             suggestion=did_you_mean(key, list(ICON_NAMES) + list(ALIASES))))


def slug(name: str) -> str:
    return "-".join(str(name).lower().split())


def icon(name: str, x: float, y: float, size: float, *, colour: bool = True, id: str | None = None,
         opacity: float = 1.0) -> Group:
    """The icon called name drawn in the size x size mm square whose top-left is (x, y).
    opacity < 1 gives a faint print (a watermark a pencil cross can go over)."""
    key = icon_key(name)
    pen = Pen(x, y, size, colour, opacity)
    DRAWERS[key](pen)
    return Group(tuple(pen.items), id=id, cls=f"icon icon-{slug(key)}")

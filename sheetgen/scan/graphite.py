"""Pencil drawing items made to look like graphite by hand (for the photo simulator).

`graphite(items, rng)` takes the exact marks of a pencil drawing (a game's pencil
sheets draw them as clean lines, dots, crosses and
filled shapes) and returns what a hand with a pencil makes of them: grey of varying
darkness, strokes of uneven width that wander a little and over- or undershoot their
ends, crosses a little askew, dots and circles that are not round, filled shapes
scribbled in.  `erased(items, rng)` draws marks as a rubber leaves them: faint,
smudged residue.  Seeded: the same rng gives the same drawing.
"""
from __future__ import annotations

import math
import random

from ..draw.model import Circle, Group, Line, Path, Polygon, Rect, Style, Text, compose, rotate

GREYS = ("#2e2e2e", "#363636", "#3d3d3d", "#444444", "#4c4c4c")
RESIDUE = ("#d8d8d8", "#dddddd", "#e2e2e2", "#d4d4d4")


def _apply(t, x, y):
    if t is None:
        return x, y
    a, b, c, d, e, f = t
    return a * x + c * y + e, b * x + d * y + f


def _wobble(rng: random.Random, n: int, amplitude: float) -> list[float]:
    """A smooth random offset along a stroke (two sine waves of random phase)."""
    f1, f2 = rng.uniform(0.5, 1.5), rng.uniform(2.0, 4.0)
    p1, p2 = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    a2 = rng.uniform(0.2, 0.5)
    return [amplitude * (math.sin(2 * math.pi * f1 * i / max(1, n - 1) + p1)
                         + a2 * math.sin(2 * math.pi * f2 * i / max(1, n - 1) + p2)) / (1 + a2) for i in range(n)]


def stroke(x1, y1, x2, y2, width, rng: random.Random, colour=None, jitter=0.18, overshoot=0.5,
           opacity=1.0) -> list:
    """One hand-drawn stroke from about (x1, y1) to about (x2, y2): short segments of varying width."""
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1e-6:
        return []
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy, ux
    a = rng.uniform(-overshoot, overshoot * 0.6)
    b = rng.uniform(-overshoot, overshoot * 0.6)
    sx, sy = x1 - ux * a, y1 - uy * a
    ex, ey = x2 + ux * b, y2 + uy * b
    total = math.hypot(ex - sx, ey - sy)
    n = max(3, int(total / 1.2) + 2)
    off = _wobble(rng, n, jitter * min(1.0, 0.3 + total / 12.0))
    pts = [(sx + (ex - sx) * i / (n - 1) + nx * off[i], sy + (ey - sy) * i / (n - 1) + ny * off[i]) for i in range(n)]
    colour = colour or rng.choice(GREYS)
    base = width * rng.uniform(0.8, 1.25)
    out = []
    for i in range(n - 1):
        w = max(0.15, base * rng.uniform(0.75, 1.2))
        out.append(Line(*pts[i], *pts[i + 1], Style(stroke=colour, stroke_width=w, cap="round", opacity=opacity)))
    return out


def blob(cx, cy, r, rng: random.Random, colour=None, ring: bool = False, opacity=1.0) -> list:
    """A dot (filled) or a small circle (ring) by hand: not round, a little off its place."""
    colour = colour or rng.choice(GREYS)
    cx += rng.uniform(-0.15, 0.15) * r
    cy += rng.uniform(-0.15, 0.15) * r
    n = 14
    radii = [r * rng.uniform(0.85, 1.15) for _ in range(n)]
    squash = rng.uniform(0.85, 1.1)
    turn = rng.uniform(0, math.pi)
    pts = []
    for i in range(n):
        a = 2 * math.pi * i / n
        x, y = radii[i] * math.cos(a), radii[i] * math.sin(a) * squash
        pts.append((cx + x * math.cos(turn) - y * math.sin(turn), cy + x * math.sin(turn) + y * math.cos(turn)))
    if ring:
        gap = rng.randint(0, 2)                     # a circle drawn in one go rarely closes exactly
        return [Polygon(tuple(pts[:n - gap]), Style(stroke=colour, stroke_width=max(0.3, r * 0.35), cap="round",
                                                      join="round", opacity=opacity), closed=gap == 0)]
    return [Polygon(tuple(pts), Style(stroke=colour, stroke_width=0.2, fill=colour, join="round", opacity=opacity))]


def scribble(points, rng: random.Random, colour=None, opacity=1.0) -> list:
    """A shape blacked out with a pencil: its outline, a little off, filled."""
    colour = colour or rng.choice(GREYS)
    pts = tuple((x + rng.uniform(-0.12, 0.12), y + rng.uniform(-0.12, 0.12)) for x, y in points)
    return [Polygon(pts, Style(stroke=colour, stroke_width=0.35, fill=colour, join="round", opacity=opacity))]


def _line_items(item: Line, t, rng, residue: bool):
    x1, y1 = _apply(t, item.x1, item.y1)
    x2, y2 = _apply(t, item.x2, item.y2)
    width = item.style.stroke_width if item.style else 0.45
    if residue:
        return stroke(x1, y1, x2, y2, width * rng.uniform(0.9, 1.3), rng, rng.choice(RESIDUE), jitter=0.25,
                      opacity=rng.uniform(0.6, 1.0))
    return stroke(x1, y1, x2, y2, width, rng)


def graphite(items, rng: random.Random, transform=None, residue: bool = False) -> list:
    """Every mark of items as a hand with a pencil draws it (residue: as a rubber leaves it)."""
    out: list = []
    for item in items:
        if isinstance(item, Group):
            t = compose(transform, item.transform) if transform is not None and item.transform is not None \
                else (item.transform if transform is None else transform)
            cls = (item.cls or "").split()
            if "cross" in cls and not residue:
                # a cross: both strokes askew together, by the same hand
                angle = rng.uniform(-7, 7)
                lines = [i for i in item.items if isinstance(i, Line)]
                if lines:
                    xs = [v for i in lines for v in (i.x1, i.x2)]
                    ys = [v for i in lines for v in (i.y1, i.y2)]
                    cx, cy = _apply(t, sum(xs) / len(xs), sum(ys) / len(ys))
                    out.append(Group(tuple(graphite(item.items, rng, t)), transform=rotate(angle, cx, cy)))
                    continue
            out += graphite(item.items, rng, t, residue)
            continue
        if isinstance(item, Line):
            out += _line_items(item, transform, rng, residue)
        elif isinstance(item, Circle):
            cx, cy = _apply(transform, item.cx, item.cy)
            filled = item.style is not None and item.style.fill is not None
            colour = rng.choice(RESIDUE) if residue else None
            out += blob(cx, cy, item.r, rng, colour, ring=not filled)
        elif isinstance(item, Polygon):
            pts = [_apply(transform, x, y) for x, y in item.points]
            filled = item.style is not None and item.style.fill is not None
            if filled:
                out += scribble(pts, rng, rng.choice(RESIDUE) if residue else None)
            else:
                width = item.style.stroke_width if item.style else 0.4
                segs = list(zip(pts, pts[1:] + (pts[:1] if item.closed else [])))
                colour = rng.choice(RESIDUE) if residue else rng.choice(GREYS)
                for (a, b) in segs:
                    out += stroke(*a, *b, width, rng, colour, jitter=0.08, overshoot=0.1)
        elif isinstance(item, Rect):
            x, y = _apply(transform, item.x, item.y)
            x2, y2 = _apply(transform, item.x + item.w, item.y + item.h)
            pts = [(x, y), (x2, y), (x2, y2), (x, y2)]
            if item.style is not None and item.style.fill not in (None, "#ffffff"):
                out += scribble(pts, rng, rng.choice(RESIDUE) if residue else None)
            else:
                for a, b in zip(pts, pts[1:] + pts[:1]):
                    out += stroke(*a, *b, item.style.stroke_width, rng)
        elif isinstance(item, Text):
            x, y = _apply(transform, item.x, item.y)
            colour = rng.choice(RESIDUE) if residue else rng.choice(GREYS)
            font = rng.choice(("sans", "sans-bold", "condensed-bold"))
            t = Text(x, y, item.text, size=item.size * rng.uniform(0.85, 1.1), font=font, anchor=item.anchor,
                     fill=colour)
            out.append(Group((t,), transform=rotate(rng.uniform(-12, 12), x, y)))
        elif isinstance(item, Path):
            pts = [(c[-2], c[-1]) for c in item.commands if len(c) >= 3]
            pts = [_apply(transform, x, y) for x, y in pts]
            for a, b in zip(pts, pts[1:]):
                out += stroke(*a, *b, item.style.stroke_width, rng, jitter=0.1, overshoot=0.1)
    return out


def erased(items, rng: random.Random) -> list:
    """Marks rubbed out: faint, wider, patchy."""
    return [i for i in graphite(items, rng, residue=True) if rng.random() < 0.85]


def pencil_by_hand(page, rng: random.Random, residue=(), group_id: str = "pencil"):
    """The page with its pencil group (id group_id) drawn by hand, and residue (marks erased
    during play: items in page mm) rubbed out under it."""
    from dataclasses import replace
    out = []
    for item in page.items:
        if isinstance(item, Group) and item.id == group_id:
            out.append(Group(tuple(erased(list(residue), rng)), id="pencil-erased", cls="pencil erased"))
            out.append(replace(item, items=tuple(graphite(item.items, rng, item.transform)), transform=None))
        else:
            out.append(item)
    page.items = out
    return page

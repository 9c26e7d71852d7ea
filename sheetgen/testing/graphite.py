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
from dataclasses import dataclass

from ..draw.model import Circle, Group, Line, Path, Polygon, Rect, Style, Text, compose, rotate

GREYS = ("#2e2e2e", "#363636", "#3d3d3d", "#444444", "#4c4c4c")
RESIDUE = ("#d8d8d8", "#dddddd", "#e2e2e2", "#d4d4d4")

# what a hand holds: its colours and how wide it draws against a soft pencil
INKS = {
    "graphite": (GREYS, 1.0),
    "graphite-light": (("#8c8c8c", "#969696", "#a0a0a0", "#888888"), 0.8),     # a hard pencil, pressed lightly
    "graphite-heavy": (("#1a1a1a", "#202020", "#262626"), 1.3),                 # a soft one, pressed hard
    "ballpoint-blue": (("#1d3b9a", "#233f8f", "#2a48a8"), 0.55),
    "ballpoint-black": (("#141418", "#1b1b20", "#202024"), 0.55),
    "felt-tip": (("#0e0e0e", "#151515", "#1c1c1c"), 1.6),
}
# erasures: what the rubber leaves (colours, share of strokes left)
RESIDUES = {"normal": (RESIDUE, 0.85), "little": (("#ececec", "#f0f0f0", "#e8e8e8"), 0.6),
            "much": (("#c2c2c2", "#c8c8c8", "#bcbcbc", "#cdcdcd"), 1.0)}
CRAYON = ("#8fc1ea", "#80b6e4", "#9bc8ee")          # a light-blue crayon (the Kraken's floods)


@dataclass(frozen=True)
class Hand:
    """How one player marks a sheet (the photo corpus's pencil families).  The default is the
    hand the first corpus was drawn by, stroke for stroke (the same seed, the same drawing)."""
    ink: str = "graphite"           # a key of INKS
    dot: str = "dot"                # a visited room: dot, circle, tick, slash, cross, scribble
    box: str = "cross"              # a box: cross, tick, slash
    wall: str = "plain"             # plain, overshoot, short, off-edge (about 1 mm off), twice
    erase: str = "normal"           # a key of RESIDUES
    flood: str = "pencil"           # a flooded room's waves: pencil, crayon (light blue, wide)

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v != getattr(PLAIN, k)}


PLAIN = Hand()


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


def _line_items(item: Line, t, rng, residue: bool, hand: Hand = PLAIN):
    x1, y1 = _apply(t, item.x1, item.y1)
    x2, y2 = _apply(t, item.x2, item.y2)
    width = item.style.stroke_width if item.style else 0.45
    if residue:
        return stroke(x1, y1, x2, y2, width * rng.uniform(0.9, 1.3), rng, _residue(hand, rng), jitter=0.25,
                      opacity=rng.uniform(0.6, 1.0))
    if hand == PLAIN:
        return stroke(x1, y1, x2, y2, width, rng)
    colour, width = _ink(hand, rng), width * INKS[hand.ink][1]
    if "wall" in (item.cls or "").split() and hand.wall != "plain":
        return _wall(x1, y1, x2, y2, width, rng, colour, hand.wall)
    return stroke(x1, y1, x2, y2, width, rng, colour)


def _ink(hand: Hand, rng: random.Random) -> str | None:
    """The colour of one mark (None: the plain pencil's, chosen by stroke as it always was)."""
    return None if hand.ink == "graphite" else rng.choice(INKS[hand.ink][0])


def _residue(hand: Hand, rng: random.Random) -> str:
    return rng.choice(RESIDUES[hand.erase][0])


def _wall(x1, y1, x2, y2, width, rng, colour, how: str) -> list:
    """A wall as this hand draws it along an edge: past its ends, short of them, a millimetre
    off the edge, or stroked twice."""
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy, ux
    if how == "overshoot":
        a, b = rng.uniform(0.8, 2.0), rng.uniform(0.8, 2.0)
        return stroke(x1 - ux * a, y1 - uy * a, x2 + ux * b, y2 + uy * b, width, rng, colour, overshoot=0.1)
    if how == "short":
        a, b = rng.uniform(0.1, 0.22) * length, rng.uniform(0.1, 0.22) * length
        return stroke(x1 + ux * a, y1 + uy * a, x2 - ux * b, y2 - uy * b, width, rng, colour, overshoot=0.1)
    if how == "off-edge":
        d = rng.choice((-1, 1)) * rng.uniform(0.8, 1.1)
        return stroke(x1 + nx * d, y1 + ny * d, x2 + nx * d, y2 + ny * d, width, rng, colour)
    if how == "twice":
        out = []
        for side in (-1, 1):
            d = side * rng.uniform(0.1, 0.3)
            out += stroke(x1 + nx * d, y1 + ny * d, x2 + nx * d, y2 + ny * d, width * 0.8, rng, colour)
        return out
    raise ValueError(f"unknown wall style {how}")


def _visited(cx, cy, r, rng, hand: Hand) -> list:
    """A visited room's mark as this hand makes it: a dot, a small circle, a tick, a slash, a
    cross or a scribbled fill, about the dot's size."""
    colour = _ink(hand, rng) or rng.choice(GREYS)
    width = 0.45 * INKS[hand.ink][1]
    if hand.dot == "dot":
        return blob(cx, cy, r, rng, colour)
    s = r * rng.uniform(1.2, 1.8)
    if hand.dot == "circle":
        return [Polygon(p.points, Style(stroke=colour, stroke_width=width * rng.uniform(0.7, 1.0), cap="round",
                                        join="round"), closed=p.closed)
                for p in blob(cx, cy, s, rng, colour, ring=True)]
    if hand.dot == "tick":
        mid = (cx - 0.2 * s, cy + 0.7 * s)
        return stroke(cx - 0.9 * s, cy, *mid, width, rng, colour, overshoot=0.1) + \
            stroke(*mid, cx + 1.0 * s, cy - 1.1 * s, width, rng, colour, overshoot=0.1)
    if hand.dot == "slash":
        return stroke(cx - 0.8 * s, cy + 0.8 * s, cx + 0.8 * s, cy - 0.8 * s, width, rng, colour, overshoot=0.1)
    if hand.dot == "cross":
        return stroke(cx - 0.75 * s, cy - 0.75 * s, cx + 0.75 * s, cy + 0.75 * s, width, rng, colour, overshoot=0.1) + \
            stroke(cx + 0.75 * s, cy - 0.75 * s, cx - 0.75 * s, cy + 0.75 * s, width, rng, colour, overshoot=0.1)
    if hand.dot == "scribble":
        out, n = [], rng.randint(4, 7)
        for i in range(n):
            y0 = cy - s + 2 * s * i / (n - 1)
            half = s * math.sqrt(max(0.0, 1 - ((y0 - cy) / s) ** 2)) + 0.2
            a, b = (cx - half, cx + half) if i % 2 == 0 else (cx + half, cx - half)
            out += stroke(a, y0, b, y0 + s / n, width, rng, colour, jitter=0.1, overshoot=0.05)
        return out
    raise ValueError(f"unknown visited mark {hand.dot}")


def _box_mark(lines, t, rng, hand: Hand) -> list:
    """A box marked with a tick or a single slash where the plain hand draws a cross."""
    pts = [_apply(t, x, y) for i in lines for x, y in ((i.x1, i.y1), (i.x2, i.y2))]
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    colour = _ink(hand, rng) or rng.choice(GREYS)
    width = (lines[0].style.stroke_width if lines[0].style else 0.45) * INKS[hand.ink][1]
    if hand.box == "slash":
        return stroke(x0, y1, x1, y0, width, rng, colour, overshoot=0.15)
    mid = (x0 + 0.35 * (x1 - x0), y1)
    return stroke(x0, y0 + 0.55 * (y1 - y0), *mid, width, rng, colour, overshoot=0.1) + \
        stroke(*mid, x1, y0, width, rng, colour, overshoot=0.1)


def graphite(items, rng: random.Random, transform=None, residue: bool = False, hand: Hand = PLAIN) -> list:
    """Every mark of items as a hand with a pencil draws it (residue: as a rubber leaves it)."""
    out: list = []
    plain = hand == PLAIN
    for item in items:
        if isinstance(item, Group):
            t = compose(transform, item.transform) if transform is not None and item.transform is not None \
                else (item.transform if transform is None else transform)
            cls = (item.cls or "").split()
            if "cross" in cls and not residue:
                lines = [i for i in item.items if isinstance(i, Line)]
                if lines and hand.box != "cross" and not (item.id or "").startswith("pencil-room"):
                    out += _box_mark(lines, t, rng, hand)
                    continue
                # a cross: both strokes askew together, by the same hand
                angle = rng.uniform(-7, 7)
                if lines:
                    xs = [v for i in lines for v in (i.x1, i.x2)]
                    ys = [v for i in lines for v in (i.y1, i.y2)]
                    cx, cy = _apply(t, sum(xs) / len(xs), sum(ys) / len(ys))
                    out.append(Group(tuple(graphite(item.items, rng, t, hand=hand)), transform=rotate(angle, cx, cy)))
                    continue
            out += graphite(item.items, rng, t, residue, hand)
            continue
        if isinstance(item, Line):
            out += _line_items(item, transform, rng, residue, hand)
        elif isinstance(item, Circle):
            cx, cy = _apply(transform, item.cx, item.cy)
            filled = item.style is not None and item.style.fill is not None
            if residue:
                out += blob(cx, cy, item.r, rng, _residue(hand, rng), ring=not filled)
            elif filled and not plain:
                out += _visited(cx, cy, item.r, rng, hand)
            else:
                out += blob(cx, cy, item.r, rng, None, ring=not filled)
        elif isinstance(item, Polygon):
            pts = [_apply(transform, x, y) for x, y in item.points]
            filled = item.style is not None and item.style.fill is not None
            if filled:
                out += scribble(pts, rng, _residue(hand, rng) if residue else _ink(hand, rng))
            elif not residue and hand.flood == "crayon" and "flood" in (item.cls or "").split():
                # a crayon colours the wave's band rather than drawing its line
                for (a, b) in zip(pts, pts[1:]):
                    out += stroke(*a, *b, rng.uniform(1.4, 2.2), rng, rng.choice(CRAYON), jitter=0.2, overshoot=0.2,
                                  opacity=rng.uniform(0.6, 0.85))
            else:
                width = item.style.stroke_width if item.style else 0.4
                segs = list(zip(pts, pts[1:] + (pts[:1] if item.closed else [])))
                colour = _residue(hand, rng) if residue else (_ink(hand, rng) or rng.choice(GREYS))
                for (a, b) in segs:
                    out += stroke(*a, *b, width * INKS[hand.ink][1], rng, colour, jitter=0.08, overshoot=0.1)
        elif isinstance(item, Rect):
            x, y = _apply(transform, item.x, item.y)
            x2, y2 = _apply(transform, item.x + item.w, item.y + item.h)
            pts = [(x, y), (x2, y), (x2, y2), (x, y2)]
            if item.style is not None and item.style.fill not in (None, "#ffffff"):
                out += scribble(pts, rng, _residue(hand, rng) if residue else _ink(hand, rng))
            else:
                for a, b in zip(pts, pts[1:] + pts[:1]):
                    out += stroke(*a, *b, item.style.stroke_width * INKS[hand.ink][1], rng, _ink(hand, rng))
        elif isinstance(item, Text):
            x, y = _apply(transform, item.x, item.y)
            colour = _residue(hand, rng) if residue else (_ink(hand, rng) or rng.choice(GREYS))
            font = rng.choice(("sans", "sans-bold", "condensed-bold"))
            t = Text(x, y, item.text, size=item.size * rng.uniform(0.85, 1.1), font=font, anchor=item.anchor,
                     fill=colour)
            out.append(Group((t,), transform=rotate(rng.uniform(-12, 12), x, y)))
        elif isinstance(item, Path):
            pts = [(c[-2], c[-1]) for c in item.commands if len(c) >= 3]
            pts = [_apply(transform, x, y) for x, y in pts]
            for a, b in zip(pts, pts[1:]):
                out += stroke(*a, *b, item.style.stroke_width * INKS[hand.ink][1], rng, _ink(hand, rng), jitter=0.1,
                              overshoot=0.1)
    return out


def erased(items, rng: random.Random, hand: Hand = PLAIN) -> list:
    """Marks rubbed out: faint, wider, patchy."""
    keep = RESIDUES[hand.erase][1]
    return [i for i in graphite(items, rng, residue=True, hand=hand) if rng.random() < keep]


def pencil_by_hand(page, rng: random.Random, residue=(), group_id: str = "pencil", hand: Hand = PLAIN):
    """The page with its pencil group (id group_id) drawn by hand, and residue (marks erased
    during play: items in page mm) rubbed out under it."""
    from dataclasses import replace
    out = []
    for item in page.items:
        if isinstance(item, Group) and item.id == group_id:
            out.append(Group(tuple(erased(list(residue), rng, hand)), id="pencil-erased", cls="pencil erased"))
            out.append(replace(item, items=tuple(graphite(item.items, rng, item.transform, hand=hand)),
                               transform=None))
        else:
            out.append(item)
    page.items = out
    return page

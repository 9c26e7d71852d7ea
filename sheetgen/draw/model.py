"""The drawing model: what every back end draws.

Everything is in millimetres, origin at the page's top-left corner, y growing
downwards (the SVG convention; the PDF back end flips it).  Primitives are plain
frozen dataclasses so a page can be compared, hashed, logged as text in tests
and drawn by any back end without knowing anything about games.

`id` and `cls` are carried to the SVG as element id and class so tests and
tools can find things (`cell-C4`, `wall-B3-E`); other back ends ignore them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

PT_PER_MM = 72.0 / 25.4


@dataclass(frozen=True, slots=True)
class Style:
    stroke: str | None = "#000000"      # '#rrggbb' or None for no outline
    stroke_width: float = 0.25          # mm
    fill: str | None = None             # '#rrggbb' or None for no fill
    dash: tuple[float, ...] | None = None  # mm on/off lengths
    cap: str = "butt"                   # butt | round | square
    join: str = "miter"                 # miter | round | bevel
    opacity: float = 1.0                # fill and stroke opacity


NO_STYLE = Style(stroke=None)
THIN = Style()


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style = THIN
    id: str | None = None
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style = THIN
    radius: float = 0.0
    id: str | None = None
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style = THIN
    id: str | None = None
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Polygon:
    """A polyline (closed=False) or polygon (closed=True)."""
    points: tuple[tuple[float, float], ...]
    style: Style = THIN
    closed: bool = True
    id: str | None = None
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Path:
    """A general path: commands ('M', x, y), ('L', x, y),
    ('C', x1, y1, x2, y2, x, y) (cubic Bezier) and ('Z',)."""
    commands: tuple[tuple, ...]
    style: Style = THIN
    id: str | None = None
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text; (x, y) is the baseline point at the anchor.

    font is a family key of sheetgen.fonts (sans, sans-bold, condensed,
    condensed-bold, serif, serif-bold, serif-italic, mono); size in points.
    """
    x: float
    y: float
    text: str
    size: float = 10.0
    font: str = "sans"
    anchor: str = "start"               # start | middle | end
    fill: str = "#000000"
    id: str | None = None
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Image:
    x: float
    y: float
    w: float
    h: float
    path: str                           # absolute path to a PNG or JPEG file
    id: str | None = None
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Group:
    """Items drawn under an affine transform (a, b, c, d, e, f) in mm:
    x' = a*x + c*y + e, y' = b*x + d*y + f (the SVG matrix order)."""
    items: tuple["Item", ...]
    transform: tuple[float, float, float, float, float, float] | None = None
    id: str | None = None
    cls: str | None = None


Item = Union[Line, Rect, Circle, Polygon, Path, Text, Image, Group]


@dataclass(frozen=True, slots=True)
class Box:
    """A page box in mm from the top-left corner (used for TrimBox/BleedBox)."""
    x: float
    y: float
    w: float
    h: float


@dataclass(slots=True)
class Page:
    width: float                        # mm
    height: float                       # mm
    items: list[Item] = field(default_factory=list)
    name: str = "page"                  # used for per-page file names (SVG/PNG)
    trim: Box | None = None
    bleed: Box | None = None
    content_scale: float = 1.0          # what --printer-margin scaled the content to (1: as composed)

    def add(self, *items: Item) -> None:
        self.items.extend(items)


@dataclass(slots=True)
class Document:
    pages: list[Page]
    title: str = "sheetgen"
    name: str = "sheet"                 # base file name for outputs
    author: str = "sheetgen"
    subject: str = ""


def translate(dx: float, dy: float) -> tuple[float, float, float, float, float, float]:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def scale(sx: float, sy: float | None = None) -> tuple[float, float, float, float, float, float]:
    return (sx, 0.0, 0.0, sx if sy is None else sy, 0.0, 0.0)


def rotate(degrees: float, cx: float = 0.0, cy: float = 0.0) -> tuple[float, float, float, float, float, float]:
    """Rotation clockwise on the page (y down) about (cx, cy)."""
    import math
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return (c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy)


def compose(m1, m2):
    """The transform that applies m2 first, then m1."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


# The cls token that says an item, or every item of a group, overlaps other elements on
# purpose (sheetgen.draw.lint lets it; a layout element's `overlap: true` sets it).
OVERLAP_OK = "overlap-ok"


def has_token(cls: str | None, token: str) -> bool:
    return bool(cls) and token in cls.split()


def allow_overlap(item: Item) -> Item:
    """The item marked as overlapping other elements on purpose."""
    from dataclasses import replace
    if has_token(item.cls, OVERLAP_OK):
        return item
    return replace(item, cls=f"{item.cls} {OVERLAP_OK}" if item.cls else OVERLAP_OK)


def walk(items, transform=None) -> Iterator[tuple[Item, tuple | None]]:
    """Every non-group item with the accumulated transform (None = identity)."""
    for item in items:
        if isinstance(item, Group):
            t = item.transform
            if transform is not None and t is not None:
                t = compose(transform, t)
            elif t is None:
                t = transform
            yield from walk(item.items, t)
        else:
            yield item, transform


def dump(items, indent: int = 0) -> str:
    """The drawing calls as text: regression tests compare this (Squib's idea)."""
    out = []
    pad = "  " * indent
    for item in items:
        if isinstance(item, Group):
            out.append(f"{pad}group id={item.id} cls={item.cls} transform={item.transform}")
            out.append(dump(item.items, indent + 1))
        else:
            out.append(pad + repr(item))
    return "\n".join(o for o in out if o)

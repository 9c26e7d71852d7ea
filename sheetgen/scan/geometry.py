"""Where things are on a drawing-model page: every item or group with an id, in page mm
(transforms applied), so a game can take its regions by the ids its sheets carry."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..draw.model import Circle, Group, Image, Line, Path, Polygon, Rect, Text, compose


@dataclass(frozen=True, slots=True)
class Placed:
    """An item with an id, where it is on the page."""
    id: str
    item: object
    box: tuple[float, float, float, float]         # x0, y0, x1, y1 in mm
    line: tuple[float, float, float, float] | None = None     # a Line's ends, transformed

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def rect(self) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.box
        return (x0, y0, x1 - x0, y1 - y0)


def _apply(t, x, y):
    if t is None:
        return x, y
    a, b, c, d, e, f = t
    return a * x + c * y + e, b * x + d * y + f


def _points(item) -> list[tuple[float, float]]:
    if isinstance(item, Rect) or isinstance(item, Image):
        return [(item.x, item.y), (item.x + item.w, item.y), (item.x, item.y + item.h),
                (item.x + item.w, item.y + item.h)]
    if isinstance(item, Circle):
        return [(item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r),
                (item.cx - item.r, item.cy + item.r), (item.cx + item.r, item.cy - item.r)]
    if isinstance(item, Line):
        return [(item.x1, item.y1), (item.x2, item.y2)]
    if isinstance(item, Polygon):
        return list(item.points)
    if isinstance(item, Path):
        pts = []
        for cmd in item.commands:
            vals = cmd[1:]
            pts += [(vals[i], vals[i + 1]) for i in range(0, len(vals) - 1, 2)]
        return pts
    if isinstance(item, Text):
        size = item.size * 0.3528
        return [(item.x, item.y - size * 0.75), (item.x + size * 0.6 * len(item.text), item.y)]
    return []


def _bounds(items, transform) -> tuple[float, float, float, float] | None:
    xs, ys = [], []
    for item in items:
        if isinstance(item, Group):
            t = compose(transform, item.transform) if transform is not None and item.transform is not None \
                else (item.transform if transform is None else transform)
            b = _bounds(item.items, t)
            if b:
                xs += [b[0], b[2]]
                ys += [b[1], b[3]]
            continue
        for x, y in _points(item):
            px, py = _apply(transform, x, y)
            xs.append(px)
            ys.append(py)
    if not xs:
        return None
    return (min(xs), min(ys), max(xs), max(ys))


def placed(items, transform=None, out: dict | None = None) -> dict[str, Placed]:
    """id -> Placed for every item and group with an id (the first one of an id wins)."""
    out = {} if out is None else out
    for item in items:
        if isinstance(item, Group):
            t = compose(transform, item.transform) if transform is not None and item.transform is not None \
                else (item.transform if transform is None else transform)
            if item.id and item.id not in out:
                b = _bounds(item.items, t)
                if b:
                    out[item.id] = Placed(item.id, item, b)
            placed(item.items, t, out)
            continue
        if item.id and item.id not in out:
            b = _bounds([item], transform)
            if b:
                line = None
                if isinstance(item, Line):
                    line = (*_apply(transform, item.x1, item.y1), *_apply(transform, item.x2, item.y2))
                out[item.id] = Placed(item.id, item, b, line)
    return out


def items_with_class(items, token: str, transform=None):
    """(item, transform) for every item or group whose cls has the token (groups not entered)."""
    for item in items:
        cls = (getattr(item, "cls", None) or "").split()
        if token in cls:
            yield item, transform
            continue
        if isinstance(item, Group):
            t = compose(transform, item.transform) if transform is not None and item.transform is not None \
                else (item.transform if transform is None else transform)
            yield from items_with_class(item.items, token, t)


def bounds(item, transform=None) -> tuple[float, float, float, float] | None:
    return _bounds([item], transform)


def transformed_points(item, transform=None) -> list[tuple[float, float]]:
    return [_apply(transform, x, y) for x, y in _points(item)]


# -- a Region's geometry by name (sheetgen.scan.contract: the tuple each kind's region carries) -----------

@dataclass(frozen=True, slots=True)
class BoxShape:
    """A BOX: its outline; strokes: mm inside it, the window a cross's strokes are read in (None: its
    mean darkness decides)."""
    x: float
    y: float
    w: float
    h: float
    strokes: float | None = None


@dataclass(frozen=True, slots=True)
class LineShape:
    """A LINE: from (x1, y1) to (x2, y2), read across `band` mm (the rest: sheetgen.scan.contract)."""
    x1: float
    y1: float
    x2: float
    y2: float
    band: float
    black: float | None = None          # mm of black across the band that make a point penciled
    gap: float | None = None            # the share of its middle not read
    share: float | None = None          # the share of its length penciled from which it reads marked
    twin: float | None = None           # mm across: the parallel line read with it
    as_printed: bool = False            # seen where the print itself leaves paper
    centre: float | None = None         # read by its centre band against its sides, from this contrast


@dataclass(frozen=True, slots=True)
class DotShape:
    """A DOT: its centre and radius."""
    cx: float
    cy: float
    r: float


@dataclass(frozen=True, slots=True)
class AreaShape:
    """An AREA: its rectangle; mean: its threshold (None: the default); around, gap: the strips of paper
    beside it it is measured against (around None or 0: none; gap None: 0.2 mm)."""
    x: float
    y: float
    w: float
    h: float
    mean: float | None = None
    around: float | None = None
    gap: float | None = None


@dataclass(frozen=True, slots=True)
class FillShape:
    """A FILL: its rectangle; mean: its threshold (None: the default); dx, dy: its twin's offset (0, 0: none)."""
    x: float
    y: float
    w: float
    h: float
    mean: float | None = None
    dx: float = 0.0
    dy: float = 0.0


Shape = BoxShape | LineShape | DotShape | AreaShape | FillShape
_SHAPES: dict[str, type] = {"box": BoxShape, "line": LineShape, "dot": DotShape, "area": AreaShape, "fill": FillShape}


def shape_of(kind: str, geometry: tuple) -> Shape:
    """A region's geometry tuple by name (its kind's Shape); a None where a default is meant takes it."""
    cls = _SHAPES.get(kind)
    if cls is None:
        raise ValueError(f"unknown region kind {kind}")
    shape = cls(*geometry)
    if isinstance(shape, LineShape):            # as_printed: 1, True, None in the tuple
        return replace(shape, as_printed=bool(shape.as_printed))
    if isinstance(shape, FillShape):            # a twin's offset given as None: none
        return replace(shape, dx=shape.dx or 0.0, dy=shape.dy or 0.0)
    return shape

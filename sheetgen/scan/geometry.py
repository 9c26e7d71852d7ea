"""Where things are on a drawing-model page: every item or group with an id, in page mm
(transforms applied), so a game can take its regions by the ids its sheets carry."""
from __future__ import annotations

from dataclasses import dataclass

# a Region's shape by name lives in the contract (the standard library's): here for the readers of old
from .contract import AreaShape, BoxShape, DotShape, FillShape, LineShape, Shape, shape_of  # noqa: F401
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


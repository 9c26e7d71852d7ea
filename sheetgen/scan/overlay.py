"""The overlay PNG: the photo made flat (rectified, the light evened out, in colour), every
region outlined by what the scanner read there, so a person sees at a glance what it saw:
green marked, light blue empty, orange uncertain, grey not readable (under dark print)."""
from __future__ import annotations

import cv2
import numpy as np

from .contract import AreaShape, BoxShape, DotShape, FillShape, LineShape

MARKED = (40, 160, 40)          # BGR
EMPTY = (220, 200, 150)
UNCERTAIN = (0, 140, 255)
HIDDEN = (150, 150, 150)


def flat_image(result) -> np.ndarray:
    """The rectified photo at the page's template resolution, its light evened out, as BGR pixels."""
    from . import image as I
    page = result.page
    rows, cols = page.rows, page.cols
    colour = result.colour if result.colour is not None and result.colour.ndim == 3 else None
    if colour is not None:
        img = I.rectify(colour, result.location, (rows, cols))
        # each channel's 97th percentile white drawn at 245: one table a channel (OpenCV's histogram
        # of an interleaved channel: numpy's would copy the channel out first)
        white = np.maximum([_percentile_of_counts(_histogram(img, c), 97) for c in range(3)], 1.0)
        levels = np.arange(256, dtype=np.float64)[:, None] / white * 245.0
        img = cv2.LUT(img, np.clip(levels, 0, 255).astype(np.uint8).reshape(256, 1, 3))
    else:
        img = cv2.cvtColor((np.clip(page.reflectance, 0, 1) * 245).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return img


def overlay_image(result) -> np.ndarray:
    """The overlay as BGR pixels (the rectified photo at the page's template resolution)."""
    img = flat_image(result)
    kx, ky = result.page.kx, result.page.ky
    # outlines gathered by colour and width and drawn a group at a time (thousands of regions),
    # the empty first and the uncertain last, so a mark that needs a look is never drawn over;
    # the points in page mm gathered first and made pixels at once (numpy's rint rounds halves to
    # even as round() does)
    boxes, lines, dots = _Outlines(), _Outlines(), _Outlines()
    for r in result.readings.values():
        g = r.region.shape
        hidden, uncertain, marked = r.hidden, r.uncertain, r.marked
        colour = HIDDEN if hidden else UNCERTAIN if uncertain else MARKED if marked else EMPTY
        thick = 2 if (marked or uncertain) and not hidden else 1
        if isinstance(g, (BoxShape, AreaShape, FillShape)):
            boxes.add((colour, thick, True), (g.x, g.y, g.x + g.w, g.y + g.h))
        elif isinstance(g, LineShape):
            width = max(1, int(g.band * kx * 0.35)) if marked or uncertain else 1
            lines.add((colour, width, False), (g.x1, g.y1, g.x2, g.y2))
        elif isinstance(g, DotShape):
            dots.add((colour, max(2, int(round(g.r * 1.6 * kx))), thick), (g.cx, g.cy))
    shapes: dict = {}
    for outlines, corners in ((boxes, [0, 1, 2, 1, 2, 3, 0, 3]), (lines, [0, 1, 2, 3])):
        points = outlines.pixels(kx, ky)[:, corners].reshape(len(outlines.keys), len(corners) // 2, 2)
        for key, poly in zip(outlines.keys, points):
            shapes.setdefault(key, []).append(poly)
    order = {EMPTY: 0, HIDDEN: 1, MARKED: 2, UNCERTAIN: 3}
    for (colour, width, closed), polys in sorted(shapes.items(), key=lambda kv: (order[kv[0][0]], kv[0][1:])):
        cv2.polylines(img, polys, closed, colour, width)
    centres = dots.pixels(kx, ky).tolist()
    for (colour, radius, thick), (x, y) in sorted(zip(dots.keys, centres), key=lambda c: order[c[0][0]]):
        cv2.circle(img, (x, y), radius, colour, thick)
    return img


class _Outlines:
    """Outlines of one kind: each one's (colour, width, ...) key and its points in page mm."""

    def __init__(self) -> None:
        self.keys: list = []
        self.points: list = []

    def add(self, key: tuple, points: tuple) -> None:
        self.keys.append(key)
        self.points.append(points)

    def pixels(self, kx: float, ky: float) -> np.ndarray:
        """The points in pixels, one row an outline (x, y, x, y ...), as int32."""
        if not self.points:
            return np.zeros((0, 4), np.int32)
        mm = np.array(self.points, np.float64)
        scale = np.tile([kx, ky], mm.shape[1] // 2)
        return np.rint(mm * scale).astype(np.int32)


def _histogram(img: np.ndarray, channel: int) -> np.ndarray:
    """How many pixels of a uint8 image's channel take each of the 256 values."""
    counts = cv2.calcHist([img], [channel], None, [256], [0, 256])
    return counts.ravel().astype(np.int64)       # float32 counts: exact below 2**24 pixels


def _percentile_of_counts(counts: np.ndarray, q: float) -> float:
    """np.percentile of the values whose counts (a histogram of 0..255) these are."""
    counts = np.cumsum(counts)
    at = q / 100.0 * (counts[-1] - 1)
    lo = int(np.searchsorted(counts, np.floor(at), side="right"))
    hi = int(np.searchsorted(counts, np.ceil(at), side="right"))
    return lo + (hi - lo) * (at - np.floor(at))


def _percentile_u8(channel: np.ndarray, q: float) -> float:
    """np.percentile(channel, q) of a uint8 array (linear between ranks), from its histogram."""
    return _percentile_of_counts(np.bincount(channel.ravel(), minlength=256), q)


# the overlay's PNG is stored, not deflated: the rectified photo's grain leaves zlib little to take
# (its fastest level: 2.2 MB of 4.7 MB at A4, for about 100 ms of CPU a photo, as much as reading
# the photo's regions); stored with no row filter it takes about 12 ms, the same pixels, 4.7 MB
PNG_PARAMS = [cv2.IMWRITE_PNG_COMPRESSION, 0, cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_NONE]


def overlay_png(result) -> bytes:
    """The overlay as a PNG file's bytes."""
    ok, data = cv2.imencode(".png", overlay_image(result), PNG_PARAMS)
    return data.tobytes()


def write_overlay(result, path) -> None:
    from ..atomic import write_bytes
    write_bytes(path, overlay_png(result))

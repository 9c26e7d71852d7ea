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
        # each channel's 97th percentile white drawn at 245: one table a channel
        white = np.maximum([_percentile_u8(img[..., c], 97) for c in range(3)], 1.0)
        levels = np.arange(256, dtype=np.float64)[:, None] / white * 245.0
        img = cv2.LUT(img, np.clip(levels, 0, 255).astype(np.uint8).reshape(256, 1, 3))
    else:
        img = cv2.cvtColor((np.clip(page.reflectance, 0, 1) * 245).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return img


def overlay_image(result) -> np.ndarray:
    """The overlay as BGR pixels (the rectified photo at the page's template resolution)."""
    img = flat_image(result)
    kx, ky = result.page.kx, result.page.ky

    def pt(x, y):
        return int(round(x * kx)), int(round(y * ky))
    # outlines gathered by colour and width and drawn a group at a time (thousands of regions),
    # the empty first and the uncertain last, so a mark that needs a look is never drawn over
    shapes: dict = {}
    circles = []
    for r in result.readings.values():
        g = r.region.shape
        colour = HIDDEN if r.hidden else UNCERTAIN if r.uncertain else MARKED if r.marked else EMPTY
        thick = 2 if (r.marked or r.uncertain) and not r.hidden else 1
        if isinstance(g, (BoxShape, AreaShape, FillShape)):
            (x0, y0), (x1, y1) = pt(g.x, g.y), pt(g.x + g.w, g.y + g.h)
            shapes.setdefault((colour, thick, True), []).append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        elif isinstance(g, LineShape):
            width = max(1, int(g.band * kx * 0.35)) if r.marked or r.uncertain else 1
            shapes.setdefault((colour, width, False), []).append([pt(g.x1, g.y1), pt(g.x2, g.y2)])
        elif isinstance(g, DotShape):
            circles.append((colour, pt(g.cx, g.cy), max(2, int(round(g.r * 1.6 * kx))), thick))
    order = {EMPTY: 0, HIDDEN: 1, MARKED: 2, UNCERTAIN: 3}
    for (colour, width, closed), polys in sorted(shapes.items(), key=lambda kv: (order[kv[0][0]], kv[0][1:])):
        cv2.polylines(img, [np.array(p, np.int32) for p in polys], closed, colour, width)
    for colour, centre, radius, thick in sorted(circles, key=lambda c: order[c[0]]):
        cv2.circle(img, centre, radius, colour, thick)
    return img


def _percentile_u8(channel: np.ndarray, q: float) -> float:
    """np.percentile(channel, q) of a uint8 array (linear between ranks), from its histogram."""
    counts = np.cumsum(np.bincount(channel.ravel(), minlength=256))
    at = q / 100.0 * (counts[-1] - 1)
    lo = int(np.searchsorted(counts, np.floor(at), side="right"))
    hi = int(np.searchsorted(counts, np.ceil(at), side="right"))
    return lo + (hi - lo) * (at - np.floor(at))


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

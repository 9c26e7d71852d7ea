"""The overlay PNG: the photo made flat (rectified, the light evened out, in colour), every
region outlined by what the scanner read there, so a person sees at a glance what it saw:
green marked, light blue empty, orange uncertain, grey not readable (under dark print)."""
from __future__ import annotations

import cv2
import numpy as np

from .contract import BOX, DOT, FILL, LINE, AREA

MARKED = (40, 160, 40)          # BGR
EMPTY = (220, 200, 150)
UNCERTAIN = (0, 140, 255)
HIDDEN = (150, 150, 150)


def overlay_image(result) -> np.ndarray:
    """The overlay as BGR pixels (the rectified photo at the page's template resolution)."""
    from . import image as I
    page = result.page
    rows, cols = page.rows, page.cols
    colour = result.colour if result.colour is not None and result.colour.ndim == 3 else None
    if colour is not None:
        chans = [I.rectify(colour[..., c], result.location, (rows, cols)).astype(np.float32) for c in range(3)]
        img = np.stack(chans, axis=-1)
        white = np.percentile(img.reshape(-1, 3), 97, axis=0)
        img = np.clip(img / np.maximum(white, 1.0) * 245.0, 0, 255).astype(np.uint8)
    else:
        img = cv2.cvtColor((np.clip(page.reflectance, 0, 1) * 245).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    kx, ky = page.kx, page.ky

    def pt(x, y):
        return int(round(x * kx)), int(round(y * ky))
    for r in result.readings.values():
        g = r.region.geometry
        colour = HIDDEN if r.hidden else UNCERTAIN if r.uncertain else MARKED if r.marked else EMPTY
        thick = 2 if (r.marked or r.uncertain) and not r.hidden else 1
        if r.region.kind in (BOX, AREA, FILL):
            x, y, w, h = g[:4]
            cv2.rectangle(img, pt(x, y), pt(x + w, y + h), colour, thick)
        elif r.region.kind == LINE:
            x1, y1, x2, y2, band = g[:5]
            if r.marked or r.uncertain:
                cv2.line(img, pt(x1, y1), pt(x2, y2), colour, max(1, int(band * kx * 0.35)))
            else:
                cv2.line(img, pt(x1, y1), pt(x2, y2), colour, 1)
        elif r.region.kind == DOT:
            cx, cy, rad = g
            cv2.circle(img, pt(cx, cy), max(2, int(round(rad * 1.6 * kx))), colour, thick)
    return img


def write_overlay(result, path) -> None:
    from ..atomic import write_bytes
    ok, data = cv2.imencode(".png", overlay_image(result))
    write_bytes(path, data.tobytes())

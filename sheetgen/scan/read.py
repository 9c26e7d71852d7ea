"""Every region of a rectified page measured and classified.

The printed page is known exactly (its template, sheetgen.scan.sheet.template), so the
pencil is what the photo has darker than the paper should be there:

1. lighting: the paper's white is estimated where the template is white (a max filter
   at 1 px a mm, blurred), and the photo divided by it: uneven light and shadows go;
2. tone: the photo's grey as a mix of the template's red, green and blue (a colour cast),
   then a median per grey bin (the camera's tone curve), blurred as much as the photo is:
   the page as this camera sees it;
3. darkness: how much darker the photo is than the darkest the expected page is within
   TOLERANCE mm (so a slightly misplaced printed line is not pencil), less a noise floor;
4. each region integrates the darkness in its own way (sheetgen.scan.contract): a BOX its
   mean inside the printed outline, a LINE the share of its length where the darkness
   across its band is a pencil line's, a DOT the darkest dot-sized spot near its centre,
   an AREA its mean.  Integrals of darkness keep their size under blur.
"""
from __future__ import annotations

import cv2
import numpy as np

from .contract import AREA, BOX, CROSSED, DOT, EMPTY, FILL, FILLED, HIDDEN, LINE, MARKED, Region, RegionReading

TOLERANCE = 0.4             # mm: how far a printed edge may be from where the template has it
TILE = 24.0                 # mm: the side of a tile the alignment matches
SEARCH = 4.0                # mm: how far a tile may have moved from where the homography puts it
VISIBLE = 0.4               # printed darker than this (of white), a pencil mark does not show
NOISE_FLOOR = 0.05          # of the paper's white: darkness below this is noise
# the decision thresholds, in each kind's own measure
BOX_CROSSED = 0.015         # mean darkness inside a box
BOX_FILLED = 0.42
LINE_PER_MM = 0.10          # darkness integrated across a line's band, in mm of black, at one point
LINE_MARKED = 0.5           # the share of a line's length the pencil covers
DOT_MARKED = 0.40           # the darkest dot-sized spot's mean darkness
AREA_MARKED = 0.05          # mean darkness of an area
FILL_MARKED = 0.30          # mean darkness of a shape blacked out


class Page:
    """A rectified photo against its template: the darkness map and the region measures."""

    def __init__(self, rect: np.ndarray, template_rgb: np.ndarray, page_mm: tuple[float, float], align: bool = True,
                 blur_mm: float = 0.0):
        template = template_rgb @ np.float32([0.299, 0.587, 0.114])       # the grey the photo is taken to
        self.rows, self.cols = template.shape
        self.kx = self.cols / page_mm[0]
        self.ky = self.rows / page_mm[1]
        self.k = (self.kx + self.ky) / 2
        self.template = template
        rect = rect.astype(np.float32)
        self.shift = (0.0, 0.0)
        if align:
            rect = self._align(rect, template)
        refl = self._even_light(rect, template)
        expected = self._tone(refl, template, template_rgb)
        # the print as this camera sees it: as soft as the photo (measured on the markers' edges)
        sigma = blur_mm * self.k
        if sigma > 0.5:
            expected = cv2.GaussianBlur(expected, (0, 0), sigma)
        r = max(1, int(round(TOLERANCE * self.k)))
        darkest = cv2.erode(expected, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        self.reflectance = refl
        self.expected = expected
        # the share of the light the pencil takes away where the paper should be this light;
        # where the print is too dark for a pencil to show, nothing can be seen (visible 0)
        self.dark = np.clip((darkest - refl) / np.maximum(darkest, 0.3) - NOISE_FLOOR, 0.0, 1.0)
        self.visible = (darkest >= VISIBLE).astype(np.float32)
        self.dark *= self.visible
        self.integral = cv2.integral(self.dark, sdepth=cv2.CV_64F)
        self.seen = cv2.integral(self.visible, sdepth=cv2.CV_64F)

    # -- alignment ------------------------------------------------------------------------------
    def _align(self, rect: np.ndarray, template: np.ndarray) -> np.ndarray:
        """The rectified photo moved onto its template where a homography cannot: a lens's
        distortion, paper that does not lie flat.  Tiles of the page are matched with the
        template (normalised cross-correlation, +-SEARCH mm), and a smooth field (a cubic in
        x and y, outliers dropped) moves every pixel."""
        k = self.k
        tile = int(TILE * k)
        reach = int(SEARCH * k)
        points, shifts = [], []
        for r0 in range(reach, self.rows - tile - reach, tile):
            for c0 in range(reach, self.cols - tile - reach, tile):
                t = template[r0:r0 + tile, c0:c0 + tile]
                if float(t.std()) < 0.08:
                    continue                          # a blank tile tells nothing
                window = rect[r0 - reach:r0 + tile + reach, c0 - reach:c0 + tile + reach]
                score = cv2.matchTemplate(window, t.astype(np.float32), cv2.TM_CCOEFF_NORMED)
                _, best, _, (bx, by) = cv2.minMaxLoc(score)
                if best < 0.45 or not (0 < bx < score.shape[1] - 1 and 0 < by < score.shape[0] - 1):
                    continue
                # sub-pixel: a parabola through the peak and its neighbours
                dx = 0.5 * (score[by, bx - 1] - score[by, bx + 1]) / (score[by, bx - 1] - 2 * best + score[by, bx + 1] - 1e-9)
                dy = 0.5 * (score[by - 1, bx] - score[by + 1, bx]) / (score[by - 1, bx] - 2 * best + score[by + 1, bx] - 1e-9)
                points.append((c0 + tile / 2, r0 + tile / 2))
                shifts.append((bx + dx - reach, by + dy - reach))
        if len(points) < 12:
            return rect
        P, D = np.array(points, dtype=np.float64), np.array(shifts, dtype=np.float64)
        u = (P[:, 0] / self.cols) * 2 - 1
        v = (P[:, 1] / self.rows) * 2 - 1

        def basis(u, v):
            return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v, u ** 3, u * u * v, u * v * v, v ** 3], axis=-1)
        A = basis(u, v)
        keep = np.ones(len(P), bool)
        for _ in range(3):
            coef, *_ = np.linalg.lstsq(A[keep], D[keep], rcond=None)
            err = np.hypot(*(A @ coef - D).T)
            limit = max(0.35 * k, 2.5 * np.median(err[keep]))
            new = err <= limit
            if new.sum() < 12 or (new == keep).all():
                keep = new if new.sum() >= 12 else keep
                break
            keep = new
        coef, *_ = np.linalg.lstsq(A[keep], D[keep], rcond=None)
        # the field on a coarse grid, then every pixel
        gy, gx = np.mgrid[0:self.rows:8, 0:self.cols:8].astype(np.float64)
        field = basis(gx / self.cols * 2 - 1, gy / self.rows * 2 - 1) @ coef
        fx = cv2.resize(field[..., 0].astype(np.float32), (self.cols, self.rows), interpolation=cv2.INTER_LINEAR)
        fy = cv2.resize(field[..., 1].astype(np.float32), (self.cols, self.rows), interpolation=cv2.INTER_LINEAR)
        self.shift = (float(np.abs(fx).max() / k), float(np.abs(fy).max() / k))
        yy, xx = np.mgrid[0:self.rows, 0:self.cols].astype(np.float32)
        return cv2.remap(rect, xx + fx, yy + fy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    # -- lighting and tone ------------------------------------------------------------------
    def _even_light(self, rect: np.ndarray, template: np.ndarray) -> np.ndarray:
        """The photo divided by the light falling on it: the light is the photo over the template
        where the print is plain and light (a millimetre's square of one pale colour), its local
        maximum (pencil only ever darkens), filled in and smoothed."""
        w, h = int(round(self.cols / self.k)), int(round(self.rows / self.k))
        small = cv2.resize(rect, (w, h), interpolation=cv2.INTER_AREA)
        t = cv2.resize(template, (w, h), interpolation=cv2.INTER_AREA)
        t2 = cv2.resize(template * template, (w, h), interpolation=cv2.INTER_AREA)
        plain = (t > 0.5) & (t2 - t * t < 0.002)
        ratio = np.where(plain, small / np.maximum(t, 0.05), 0.0).astype(np.float32)
        env = cv2.dilate(ratio, np.ones((7, 7), np.uint8))
        for size in (15, 31, 61):                     # fill what no plain paper is near
            if np.all(env > 0):
                break
            wider = cv2.dilate(ratio, np.ones((size, size), np.uint8))
            env = np.where(env > 0, env, wider)
        if not np.any(env > 0):
            env = np.full_like(env, max(float(np.percentile(rect, 95)), 1.0))
        env[env <= 0] = float(np.median(env[env > 0]))
        env = cv2.GaussianBlur(env, (0, 0), 3.0)
        env = cv2.resize(env, (self.cols, self.rows), interpolation=cv2.INTER_LINEAR)
        return np.clip(rect / np.maximum(env, 1.0), 0.0, 1.5)

    def _tone(self, refl: np.ndarray, template: np.ndarray, rgb: np.ndarray) -> np.ndarray:
        """The template as the camera sees it: the photo's grey as a linear mix of the template's
        red, green and blue (a colour cast weighs the channels), fitted robustly (pencil and
        misplaced edges dropped), then a median per grey bin for the camera's tone curve."""
        # plain print only (a millimetre of one colour): at edges the photo's blur, not its tone, speaks
        size = max(3, int(round(self.k)) | 1)
        mean = cv2.blur(template, (size, size))
        var = cv2.blur(template * template, (size, size)) - mean * mean
        plain = (var < 0.0008).ravel()
        step = max(1, int(plain.sum()) // 60000)
        X = rgb.reshape(-1, 3)[plain][::step].astype(np.float64)
        y = refl.ravel()[plain][::step].astype(np.float64)
        A = np.column_stack([X, np.ones(len(X))])
        keep = np.ones(len(y), bool)
        w = np.array([0.299, 0.587, 0.114, 0.0])
        for _ in range(3):
            w, *_ = np.linalg.lstsq(A[keep], y[keep], rcond=None)
            err = np.abs(A @ w - y)
            keep = err <= np.percentile(err, 85)
        lin = np.clip(rgb @ w[:3].astype(np.float32) + np.float32(w[3]), 0.0, 1.5)
        bins = 24
        flat_lin = lin.ravel()[plain][::step]
        idx = np.minimum((np.clip(flat_lin, 0, 0.9999) * bins).astype(np.int32), bins - 1)
        order = np.argsort(idx, kind="stable")
        idx, flat_r = idx[order], refl.ravel()[plain][::step][order]
        edges = np.searchsorted(idx, np.arange(bins + 1))
        centres = (np.arange(bins) + 0.5) / bins
        values = centres.copy()
        for b in range(bins):
            part = flat_r[edges[b]:edges[b + 1]]
            if len(part) >= 40:
                values[b] = float(np.median(part))
        values = np.maximum.accumulate(values)          # darker print, never lighter photo
        return np.interp(lin, centres, values).astype(np.float32)

    # -- geometry ---------------------------------------------------------------------------
    def _px(self, x: float, y: float) -> tuple[float, float]:
        return x * self.kx - 0.5, y * self.ky - 0.5

    def _box_mean(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float]:
        """(mean darkness over the visible part, the visible share) of a rectangle in mm."""
        c0, r0 = int(round(x0 * self.kx)), int(round(y0 * self.ky))
        c1, r1 = int(round(x1 * self.kx)), int(round(y1 * self.ky))
        c0, c1 = max(0, min(self.cols, c0)), max(0, min(self.cols, c1))
        r0, r1 = max(0, min(self.rows, r0)), max(0, min(self.rows, r1))
        if c1 <= c0 or r1 <= r0:
            return 0.0, 0.0
        n = (c1 - c0) * (r1 - r0)
        I, S = self.integral, self.seen
        total = I[r1, c1] - I[r0, c1] - I[r1, c0] + I[r0, c0]
        seen = S[r1, c1] - S[r0, c1] - S[r1, c0] + S[r0, c0]
        return float(total / max(seen, 1.0)), float(seen / n)

    # -- the measures -----------------------------------------------------------------------
    def measure(self, region: Region) -> tuple[float, float]:
        """(the region's measure, the share of it where pencil would show)."""
        g = region.geometry
        if region.kind == BOX:
            x, y, w, h = g
            inset = max(0.55, 0.13 * min(w, h))
            return self._box_mean(x + inset, y + inset, x + w - inset, y + h - inset)
        if region.kind in (AREA, FILL):
            x, y, w, h = g
            return self._box_mean(x, y, x + w, y + h)
        if region.kind == LINE:
            return self._line_cover(*g[:5], g[5] if len(g) > 5 else LINE_PER_MM)
        if region.kind == DOT:
            return self._dot(*g)
        raise ValueError(f"unknown region kind {region.kind}")

    def _line_cover(self, x1, y1, x2, y2, band, per_mm=LINE_PER_MM) -> tuple[float, float]:
        length = float(np.hypot(x2 - x1, y2 - y1))
        if length <= 0:
            return 0.0, 0.0
        n_along = max(4, int(length * self.k / 1.5))
        n_across = max(3, int(band * self.k) + 1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        nx, ny = -uy, ux
        t = np.linspace(0.0, length, n_along)
        s = np.linspace(-band / 2, band / 2, n_across)
        xs = x1 + ux * t[None, :] + nx * s[:, None]
        ys = y1 + uy * t[None, :] + ny * s[:, None]
        mx = (xs * self.kx - 0.5).astype(np.float32)
        my = (ys * self.ky - 0.5).astype(np.float32)
        vals = cv2.remap(self.dark, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        seen = cv2.remap(self.visible, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        across = vals.sum(axis=0) * (band / n_across)          # mm of black across the band
        shown = seen.mean(axis=0) > 0.5                        # points where a line across would show
        if not shown.any():
            return 0.0, 0.0
        return float(np.mean(across[shown] > per_mm)), float(shown.mean())

    def _dot(self, cx, cy, r) -> tuple[float, float]:
        """The mean darkness of the darkest spot of about a dot's size (radius r) near (cx, cy)."""
        size = max(3, int(round(1.2 * r * self.k)) | 1)
        reach = r + size / self.k
        c0, r0 = int((cx - reach) * self.kx), int((cy - reach) * self.ky)
        c1, r1 = int((cx + reach) * self.kx) + 1, int((cy + reach) * self.ky) + 1
        c0, r0 = max(0, c0), max(0, r0)
        patch = self.dark[r0:r1, c0:c1]
        if patch.size == 0:
            return 0.0, 0.0
        seen = cv2.blur(self.visible[r0:r1, c0:c1], (size, size))
        local = cv2.blur(patch, (size, size)) / np.maximum(seen, 0.3)
        # only spots centred within r of the centre
        yy, xx = np.mgrid[r0:r0 + patch.shape[0], c0:c0 + patch.shape[1]]
        near = (((xx + 0.5) / self.kx - cx) ** 2 + ((yy + 0.5) / self.ky - cy) ** 2) <= r ** 2
        if not near.any():
            return 0.0, 0.0
        return float(local[near].max()), float(seen[near].mean())


def classify(region: Region, score: float, visible: float = 1.0) -> RegionReading:
    """The reading of a measure, with its confidence (the distance from the nearest threshold,
    relative to half that threshold); a region mostly under dark print reads empty with
    confidence 0 (nothing could be seen there)."""
    if visible < HIDDEN:
        return RegionReading(region, EMPTY, 0.0, round(score, 4), round(visible, 3))
    if region.kind == BOX:
        if score >= BOX_FILLED:
            value, t = FILLED, BOX_FILLED
        elif score >= BOX_CROSSED:
            value, t = CROSSED, BOX_CROSSED if score - BOX_CROSSED < BOX_FILLED - score else BOX_FILLED
        else:
            value, t = EMPTY, BOX_CROSSED
        conf = abs(score - t) / (0.5 * BOX_CROSSED if t == BOX_CROSSED else 0.3 * BOX_FILLED)
    else:
        t = {LINE: LINE_MARKED, DOT: DOT_MARKED, AREA: AREA_MARKED, FILL: FILL_MARKED}[region.kind]
        value = (FILLED if region.kind == FILL else MARKED) if score >= t else EMPTY
        margin = {LINE: 0.25, DOT: 0.5 * DOT_MARKED, AREA: 0.5 * AREA_MARKED, FILL: 0.5 * FILL_MARKED}[region.kind]
        conf = abs(score - t) / margin
    return RegionReading(region, value, round(min(1.0, conf), 3), round(score, 4), round(visible, 3))


def read_regions(page: Page, regions: list[Region]) -> dict[str, RegionReading]:
    return {r.id: classify(r, *page.measure(r)) for r in regions}

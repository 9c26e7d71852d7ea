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
DOT_MARKED = 0.25           # the darkest dot-sized spot's mean darkness
AREA_MARKED = 0.05          # mean darkness of an area
FILL_MARKED = 0.30          # mean darkness of a shape blacked out


_grids: dict = {}


def _pixel_grid(rows: int, cols: int):
    """(x, y) of every pixel, float32, kept for the run."""
    if (rows, cols) not in _grids:
        yy, xx = np.mgrid[0:rows, 0:cols].astype(np.float32)
        _grids.clear()
        _grids[(rows, cols)] = (xx, yy)
    return _grids[(rows, cols)]


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
        k = self.k / 2                                # matched at half the resolution
        small = cv2.resize(rect, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        tsmall = cv2.resize(template, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        rows, cols = small.shape
        tile = int(TILE * k)
        reach = int(SEARCH * k)
        points, shifts = [], []
        for r0 in range(reach, rows - tile - reach, tile):
            for c0 in range(reach, cols - tile - reach, tile):
                t = tsmall[r0:r0 + tile, c0:c0 + tile]
                if float(t.std()) < 0.08:
                    continue                          # a blank tile tells nothing
                window = small[r0 - reach:r0 + tile + reach, c0 - reach:c0 + tile + reach]
                score = cv2.matchTemplate(window, t.astype(np.float32), cv2.TM_CCOEFF_NORMED)
                _, best, _, (bx, by) = cv2.minMaxLoc(score)
                if best < 0.45 or not (0 < bx < score.shape[1] - 1 and 0 < by < score.shape[0] - 1):
                    continue
                # sub-pixel: a parabola through the peak and its neighbours
                dx = 0.5 * (score[by, bx - 1] - score[by, bx + 1]) / (score[by, bx - 1] - 2 * best + score[by, bx + 1] - 1e-9)
                dy = 0.5 * (score[by - 1, bx] - score[by + 1, bx]) / (score[by - 1, bx] - 2 * best + score[by + 1, bx] - 1e-9)
                points.append((2 * (c0 + tile / 2), 2 * (r0 + tile / 2)))
                shifts.append((2 * (bx + dx - reach), 2 * (by + dy - reach)))
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
            limit = max(0.35 * self.k, 2.5 * np.median(err[keep]))
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
        self.shift = (float(np.abs(fx).max() / self.k), float(np.abs(fy).max() / self.k))
        xx, yy = _pixel_grid(self.rows, self.cols)
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
        step = max(1, template.size // 150000)
        sel = np.arange(0, template.size, step)
        plain = (var.ravel()[sel] < 0.0008)
        sel = sel[plain]
        X = rgb.reshape(-1, 3)[sel].astype(np.float64)
        y = refl.ravel()[sel].astype(np.float64)
        A = np.column_stack([X, np.ones(len(X))])
        keep = np.ones(len(y), bool)
        w = np.array([0.299, 0.587, 0.114, 0.0])
        for _ in range(3):
            w, *_ = np.linalg.lstsq(A[keep], y[keep], rcond=None)
            err = np.abs(A @ w - y)
            keep = err <= np.percentile(err, 85)
        lin = np.clip(cv2.transform(rgb, np.float32([[w[0], w[1], w[2], w[3]]])), 0.0, 1.5)
        bins = 24
        flat_lin = lin.ravel()[sel]
        idx = np.minimum((np.clip(flat_lin, 0, 0.9999) * bins).astype(np.int32), bins - 1)
        order = np.argsort(idx, kind="stable")
        idx, flat_r = idx[order], refl.ravel()[sel][order]
        edges = np.searchsorted(idx, np.arange(bins + 1))
        centres = (np.arange(bins) + 0.5) / bins
        values = centres.copy()
        for b in range(bins):
            part = flat_r[edges[b]:edges[b + 1]]
            if len(part) >= 40:
                values[b] = float(np.median(part))
        values = np.maximum.accumulate(values)          # darker print, never lighter photo
        lut = np.interp(np.linspace(0, 1.5, 1536), centres, values).astype(np.float32)
        return lut[np.minimum((lin * 1023).astype(np.int32), 1535)]

    # -- geometry ---------------------------------------------------------------------------
    def _px(self, x: float, y: float) -> tuple[float, float]:
        return x * self.kx - 0.5, y * self.ky - 0.5

    # -- the measures -----------------------------------------------------------------------
    def read(self, plan: "Plan") -> dict[str, tuple[float, float]]:
        """Region id -> (its measure, the share of it where a pencil would show), for a Plan's regions."""
        out: dict[str, tuple[float, float]] = {}
        I, S = self.integral, self.seen
        for rid, (r0, r1, c0, c1) in plan.rects:
            total = I[r1, c1] - I[r0, c1] - I[r1, c0] + I[r0, c0]
            seen = S[r1, c1] - S[r0, c1] - S[r1, c0] + S[r0, c0]
            n = max(1, (c1 - c0) * (r1 - r0))
            out[rid] = (float(total / max(seen, 1.0)), float(seen / n))
        if plan.line_ids:
            # every line's band sampled in one remap: darkness across (mm of black) at each point along
            vals = cv2.remap(self.dark, plan.mx, plan.my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                             borderValue=0)
            seen = cv2.remap(self.visible, plan.mx, plan.my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                             borderValue=0)
            across = vals.mean(axis=0) * plan.band_of_point
            shown = seen.mean(axis=0) > 0.5
            hit = (across > plan.thr_of_point) & shown
            starts = plan.starts
            n_shown = np.add.reduceat(shown.astype(np.int32), starts)
            n_hit = np.add.reduceat(hit.astype(np.int32), starts)
            for rid, ns, nh, n in zip(plan.line_ids, n_shown, n_hit, plan.spans):
                out[rid] = (float(nh / ns) if ns else 0.0, float(ns / n))
        blurred: dict = {}
        for rid, size, (r0, r1, c0, c1), near in plan.dots:
            if size not in blurred:
                blurred[size] = (cv2.blur(self.dark, (size, size)),
                                 cv2.blur(self.visible, (size, size)))
            dark, vis = blurred[size]
            d, v = dark[r0:r1, c0:c1], vis[r0:r1, c0:c1]
            if d.shape != near.shape or not near.any():
                out[rid] = (0.0, 0.0)
                continue
            local = d[near] / np.maximum(v[near], 0.3)
            out[rid] = (float(local.max()), float(v[near].mean()))
        return out


class Plan:
    """Where every region is sampled on a page of `shape` pixels over `page_mm`: made once per
    sheet, used for every photo of it."""

    def __init__(self, regions: list[Region], shape: tuple[int, int], page_mm: tuple[float, float]):
        rows, cols = shape
        kx, ky = cols / page_mm[0], rows / page_mm[1]
        k = (kx + ky) / 2
        self.regions = regions
        self.rects: list = []
        self.dots: list = []

        def px_rect(x0, y0, x1, y1):
            c0, r0 = int(round(x0 * kx)), int(round(y0 * ky))
            c1, r1 = int(round(x1 * kx)), int(round(y1 * ky))
            c0, c1 = max(0, min(cols, c0)), max(0, min(cols, c1))
            r0, r1 = max(0, min(rows, r0)), max(0, min(rows, r1))
            return (r0, max(r0, r1), c0, max(c0, c1))

        xs, ys, spans, bands, thrs, ids = [], [], [], [], [], []
        across = np.linspace(-0.5, 0.5, 9)[:, None]
        for r in regions:
            g = r.geometry
            if r.kind == BOX:
                x, y, w, h = g
                inset = max(0.55, 0.13 * min(w, h))
                self.rects.append((r.id, px_rect(x + inset, y + inset, x + w - inset, y + h - inset)))
            elif r.kind in (AREA, FILL):
                x, y, w, h = g
                self.rects.append((r.id, px_rect(x, y, x + w, y + h)))
            elif r.kind == LINE:
                x1, y1, x2, y2, band = g[:5]
                length = float(np.hypot(x2 - x1, y2 - y1))
                n = max(4, int(length * k / 1.5))
                ux, uy = ((x2 - x1) / length, (y2 - y1) / length) if length > 0 else (1.0, 0.0)
                t = np.linspace(0.0, length, n)[None, :]
                xs.append(x1 + ux * t - uy * across * band)
                ys.append(y1 + uy * t + ux * across * band)
                spans.append(n)
                bands.append(np.full(n, band, np.float32))
                thrs.append(np.full(n, g[5] if len(g) > 5 else LINE_PER_MM, np.float32))
                ids.append(r.id)
            elif r.kind == DOT:
                cx, cy, rad = g
                size = max(3, int(round(1.2 * rad * k)) | 1)
                box = px_rect(cx - rad, cy - rad, cx + rad, cy + rad)
                r0, r1, c0, c1 = box
                yy, xx = np.mgrid[r0:r1, c0:c1]
                near = (((xx + 0.5) / kx - cx) ** 2 + ((yy + 0.5) / ky - cy) ** 2) <= rad ** 2
                self.dots.append((r.id, size, box, near))
            else:
                raise ValueError(f"unknown region kind {r.kind}")
        self.line_ids = ids
        self.spans = np.array(spans, dtype=np.int64)
        if ids:
            self.mx = (np.hstack(xs) * kx - 0.5).astype(np.float32)
            self.my = (np.hstack(ys) * ky - 0.5).astype(np.float32)
            self.band_of_point = np.concatenate(bands)
            self.thr_of_point = np.concatenate(thrs)
            self.starts = np.concatenate([[0], np.cumsum(self.spans)[:-1]])


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


def read_regions(page: Page, plan: Plan) -> dict[str, RegionReading]:
    measured = page.read(plan)
    return {r.id: classify(r, *measured[r.id]) for r in plan.regions}

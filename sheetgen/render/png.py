"""PNG back end (Pillow ImageDraw) at a given dpi.

Every point goes through one affine matrix (mm -> pixels, with the groups'
transforms folded in).  Axis-aligned rectangles and circles use Pillow's own
shapes (fast); anything rotated or skewed is flattened to polygons.  Strokes
are centred on the geometry as in PDF/SVG, at least 1 px wide; dashes are cut
here; Bezier curves are flattened.  Text uses the same TTF files at
pt * dpi / 72 px (characters a face lacks come from its DejaVu fallback, as
in the PDF); rotated text is drawn into a mask and rotated.  Translucent items
are drawn as coverage masks over their bounding box and blended in, so they
composite like PDF/SVG.  ImageDraw does not antialias shapes, so a page is drawn at
SUPERSAMPLE times the resolution and each block of pixels averaged into one (Image.reduce,
a box filter: the pixel's ink coverage), which gives smooth edges with the same geometry.
"""
from __future__ import annotations

import io
import math
from functools import lru_cache

from ..draw.model import Circle, Group, Image, Line, Path, Polygon, Rect, Text
from ..errors import InputError, Problem
from ..fonts import font_path
from .common import check_image, dash_of, rgb, text_runs

KAPPA = 0.5522847498307936
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}


@lru_cache(maxsize=256)
def _font(name: str, px: float):
    from PIL import ImageFont
    return ImageFont.truetype(str(font_path(name)), px)


def _mul(m1, m2):
    """m1 after m2 (same convention as draw.model.compose)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def _bezier(p0, p1, p2, p3, n):
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = p0, p1, p2, p3
    out = []
    for i in range(1, n + 1):
        t = i / n
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return out


def _segments(n_pts: float) -> int:
    return max(4, min(96, int(n_pts / 2.0)))


def _circle_points(cx, cy, r, m):
    """A circle in model space, flattened to device points under matrix m."""
    a, b, c, d, e, f = m
    scale = math.sqrt(abs(a * d - b * c))
    n = _segments(2 * math.pi * r * scale)
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x, y = cx + r * math.cos(t), cy + r * math.sin(t)
        pts.append((a * x + c * y + e, b * x + d * y + f))
    return pts


def _extend(p0, p1, by):
    """p1 moved `by` further along the direction p0 -> p1."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    n = math.hypot(dx, dy)
    return p1 if n == 0 else (p1[0] + dx / n * by, p1[1] + dy / n * by)


_STYLED = (Line, Rect, Circle, Polygon, Path)


def _model_points(item):
    """Points whose hull contains the item (Bezier control points bound their curve)."""
    t = type(item)
    if t is Line:
        return ((item.x1, item.y1), (item.x2, item.y2))
    if t is Rect:
        return ((item.x, item.y), (item.x + item.w, item.y + item.h), (item.x + item.w, item.y),
                (item.x, item.y + item.h))
    if t is Circle:
        r = item.r
        return ((item.cx - r, item.cy - r), (item.cx + r, item.cy + r), (item.cx + r, item.cy - r),
                (item.cx - r, item.cy + r))
    if t is Polygon:
        return item.points
    return tuple((cmd[i], cmd[i + 1]) for cmd in item.commands for i in range(1, len(cmd) - 1, 2))


def _device_box(item, m, size):
    """The item's pixel bounding box (with room for its stroke) clipped to the image, or None."""
    pts = _model_points(item)
    if not pts:
        return None
    a, b, c, d, e, f = m
    xs = [a * x + c * y + e for x, y in pts]
    ys = [b * x + d * y + f for x, y in pts]
    pad = item.style.stroke_width * math.sqrt(abs(a * d - b * c)) + 3
    x0, y0 = max(0, math.floor(min(xs) - pad)), max(0, math.floor(min(ys) - pad))
    x1, y1 = min(size[0], math.ceil(max(xs) + pad)), min(size[1], math.ceil(max(ys) + pad))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


class _PngPage:
    def __init__(self, img, k: float, grayscale: bool):
        from PIL import ImageDraw
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.k = k
        self.gray = grayscale
        self.mode = img.mode
        self.cols: dict = {}
        self.ink_override = None         # drawing a coverage mask: every ink is 255

    # --- colours --------------------------------------------------------
    def col(self, colour: str):
        """The ink for a colour in this image's mode (opacity is done by _translucent)."""
        if self.ink_override is not None:
            return self.ink_override
        v = self.cols.get(colour)
        if v is None:
            r, g, b = rgb(colour, self.gray)
            v = self.cols[colour] = r if self.mode == "L" else (r, g, b)
        return v

    def _stroke(self, style, scale):
        if style.stroke is None or style.stroke_width <= 0:
            return None, 0
        return self.col(style.stroke), max(1, round(style.stroke_width * scale))

    def _fill(self, style):
        return None if style.fill is None else self.col(style.fill)

    # --- primitives -----------------------------------------------------
    def items(self, items, m) -> None:
        a, b, c, d, e, f = m
        axis = b == 0 and c == 0
        scale = math.sqrt(abs(a * d - b * c))
        for item in items:
            t = type(item)
            if t in _STYLED and item.style.opacity < 1.0:
                self._translucent(item, m)
            elif t is Line:
                ink, width = self._stroke(item.style, scale)
                if ink is None:
                    continue
                x1, y1, x2, y2 = item.x1, item.y1, item.x2, item.y2
                pts = [(a * x1 + c * y1 + e, b * x1 + d * y1 + f), (a * x2 + c * y2 + e, b * x2 + d * y2 + f)]
                if dash_of(item.style):
                    self._dashed(pts, ink, width, item.style.dash, scale, item.style.cap)
                else:
                    self._polyline(pts, ink, width, item.style.cap)
            elif t is Text:
                self.text(item, m)
            elif t is Rect:
                self.rect(item, m, axis, scale)
            elif t is Group:
                self.items(item.items, m if item.transform is None else _mul(m, item.transform))
            elif t is Circle:
                self.circle(item, m, axis, scale)
            elif t is Polygon:
                pts = [(a * x + c * y + e, b * x + d * y + f) for x, y in item.points]
                self.shape([pts], [item.closed], item.style, scale)
            elif t is Path:
                subpaths, closed = self._flatten(item.commands, m)
                self.shape(subpaths, closed, item.style, scale)
            elif t is Image:
                self.image(item, m, axis)
            else:
                raise TypeError(f"cannot draw {item!r}")

    def shape(self, subpaths, closed, style, scale) -> None:
        fill = self._fill(style)
        if fill is not None:
            for pts in subpaths:
                if len(pts) >= 3:
                    self.draw.polygon(pts, fill=fill)
        ink, width = self._stroke(style, scale)
        if ink is None:
            return
        for pts, is_closed in zip(subpaths, closed):
            if len(pts) < 2:
                continue
            line = pts + [pts[0]] if is_closed else pts
            if dash_of(style):
                self._dashed(line, ink, width, style.dash, scale, style.cap)
            else:
                # a closed outline's start and end meet with a round cap, not a notch
                self._polyline(line, ink, width, "round" if is_closed else style.cap)

    def rect(self, r: Rect, m, axis: bool, scale: float) -> None:
        a, b, c, d, e, f = m
        if axis and not dash_of(r.style):
            x0, x1 = sorted((a * r.x + e, a * (r.x + r.w) + e))
            y0, y1 = sorted((d * r.y + f, d * (r.y + r.h) + f))
            self._box(x0, y0, x1, y1, r.style, scale, "rect", r.radius * scale)
            return
        if r.radius > 0:
            x, y, x2, y2 = r.x, r.y, r.x + r.w, r.y + r.h
            rr = min(r.radius, abs(r.w) / 2, abs(r.h) / 2)
            k = rr * (1 - KAPPA)
            cmds = (("M", x + rr, y), ("L", x2 - rr, y), ("C", x2 - k, y, x2, y + k, x2, y + rr),
                    ("L", x2, y2 - rr), ("C", x2, y2 - k, x2 - k, y2, x2 - rr, y2),
                    ("L", x + rr, y2), ("C", x + k, y2, x, y2 - k, x, y2 - rr),
                    ("L", x, y + rr), ("C", x, y + k, x + k, y, x + rr, y), ("Z",))
            subpaths, closed = self._flatten(cmds, m)
        else:
            corners = ((r.x, r.y), (r.x + r.w, r.y), (r.x + r.w, r.y + r.h), (r.x, r.y + r.h))
            subpaths, closed = [[(a * x + c * y + e, b * x + d * y + f) for x, y in corners]], [True]
        self.shape(subpaths, closed, r.style, scale)

    def circle(self, ci: Circle, m, axis: bool, scale: float) -> None:
        a, b, c, d, e, f = m
        if axis and abs(abs(a) - abs(d)) < 1e-9 and not dash_of(ci.style):
            x, y, r = a * ci.cx + e, d * ci.cy + f, ci.r * abs(a)
            self._box(x - r, y - r, x + r, y + r, ci.style, scale, "ellipse")
            return
        self.shape([_circle_points(ci.cx, ci.cy, ci.r, m)], [True], ci.style, scale)

    def _box(self, x0, y0, x1, y1, style, scale, kind, radius=0.0) -> None:
        """Pillow draws outlines inside the box; grow it by half the width so
        the stroke is centred on the edge as in PDF and SVG."""
        fill = self._fill(style)
        ink, width = self._stroke(style, scale)
        draw = self.draw
        if fill is not None:
            box = [round(x0), round(y0), round(x1) - 1, round(y1) - 1]
            if box[2] >= box[0] and box[3] >= box[1]:
                if kind == "ellipse":
                    draw.ellipse(box, fill=fill)
                elif _fit_radius(box, radius) >= 1:
                    draw.rounded_rectangle(box, radius=_fit_radius(box, radius), fill=fill)
                else:
                    draw.rectangle(box, fill=fill)
        if ink is not None:
            h = width / 2
            box = [round(x0 - h), round(y0 - h), round(x1 + h) - 1, round(y1 + h) - 1]
            if box[2] < box[0] or box[3] < box[1]:
                return
            if kind == "ellipse":
                draw.ellipse(box, outline=ink, width=width)
            elif _fit_radius(box, radius + h) >= 1:
                draw.rounded_rectangle(box, radius=_fit_radius(box, radius + h), outline=ink, width=width)
            else:
                draw.rectangle(box, outline=ink, width=width)

    def _flatten(self, commands, m):
        a, b, c, d, e, f = m
        scale = math.sqrt(abs(a * d - b * c))
        subpaths, closed = [], []
        cur: list = []
        start = (0.0, 0.0)
        pos = (0.0, 0.0)
        for cmd in commands:
            k = cmd[0]
            if k == "M":
                if len(cur) > 1:
                    subpaths.append(cur)
                    closed.append(False)
                pos = start = (cmd[1], cmd[2])
                cur = [pos]
            elif k == "L":
                pos = (cmd[1], cmd[2])
                cur.append(pos)
            elif k == "C":
                p1, p2, p3 = (cmd[1], cmd[2]), (cmd[3], cmd[4]), (cmd[5], cmd[6])
                est = (math.dist(pos, p1) + math.dist(p1, p2) + math.dist(p2, p3)) * scale
                cur.extend(_bezier(pos, p1, p2, p3, _segments(est)))
                pos = p3
            elif k == "Z":
                if len(cur) > 1:
                    subpaths.append(cur)
                    closed.append(True)
                cur = [start]
                pos = start
            else:
                raise InputError(Problem(f"unknown path command {k!r}", expected="M, L, C or Z"))
        if len(cur) > 1:
            subpaths.append(cur)
            closed.append(False)
        dev = [[(a * x + c * y + e, b * x + d * y + f) for x, y in sp] for sp in subpaths]
        return dev, closed

    def _polyline(self, pts, ink, width: int, cap: str) -> None:
        """A stroked polyline with PDF-like caps (Pillow's own ends are butt)."""
        if cap == "square" and len(pts) >= 2:
            pts = list(pts)
            pts[0] = _extend(pts[1], pts[0], width / 2)
            pts[-1] = _extend(pts[-2], pts[-1], width / 2)
        self.draw.line(pts, fill=ink, width=width, joint="curve" if width > 2 and len(pts) > 2 else None)
        if cap == "round" and width > 2:
            r = width / 2
            for x, y in (pts[0], pts[-1]):
                self.draw.ellipse([x - r, y - r, x + r, y + r], fill=ink)

    def _translucent(self, item, m) -> None:
        """Draw item's fill and stroke as coverage masks and blend their inks in
        at the item's opacity (true compositing over whatever is below).  The
        masks cover only the item's bounding box, so faded icons stay cheap."""
        from dataclasses import replace
        from PIL import Image as PILImage
        box = _device_box(item, m, self.img.size)
        if box is None:
            return
        x0, y0, x1, y1 = box
        local = _mul((1.0, 0.0, 0.0, 1.0, -x0, -y0), m)
        style = item.style
        parts = ((replace(style, stroke=None, opacity=1.0), style.fill),
                 (replace(style, fill=None, opacity=1.0), style.stroke if style.stroke_width > 0 else None))
        alpha = round(255 * style.opacity)
        for part, colour in parts:
            if colour is None:
                continue
            mask = PILImage.new("L", (x1 - x0, y1 - y0), 0)
            sub = _PngPage(mask, self.k, False)
            sub.ink_override = 255
            sub.items([replace(item, style=part)], local)
            mask = mask.point(lambda v: v * alpha // 255)
            self.img.paste(self.col(colour), box, mask)

    def _dashed(self, pts, ink, width, dash, scale, cap="butt") -> None:
        pattern = [max(d * scale, 0.5) for d in dash]
        if len(pattern) % 2:
            pattern = pattern * 2
        i, left, on = 0, pattern[0], True
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            seg = math.hypot(x1 - x0, y1 - y0)
            if seg == 0:
                continue
            ux, uy = (x1 - x0) / seg, (y1 - y0) / seg
            done = 0.0
            while done < seg:
                step = min(left, seg - done)
                if on:
                    self._polyline([(x0 + ux * done, y0 + uy * done),
                                    (x0 + ux * (done + step), y0 + uy * (done + step))], ink, width, cap)
                done += step
                left -= step
                if left <= 1e-9:
                    i = (i + 1) % len(pattern)
                    left, on = pattern[i], not on

    def text(self, t: Text, m) -> None:
        if not t.text or t.fill is None:
            return
        a, b, c, d, e, f = m
        scale = math.sqrt(abs(a * d - b * c))
        px = t.size / 72 * 25.4 * scale           # m maps mm to px, so px per pt = scale * 25.4 / 72
        if px < 0.5:
            return
        px = round(px * 4) / 4                     # quarter-pixel sizes keep the font cache small
        x, y = a * t.x + c * t.y + e, b * t.x + d * t.y + f
        ink = self.col(t.fill)
        runs = text_runs(t.font, t.text)
        upright = b == 0 and c == 0 and a > 0 and d > 0
        if upright and len(runs) == 1:
            self.draw.text((x, y), t.text, fill=ink, font=_font(t.font, px), anchor=_ANCHORS.get(t.anchor, "ls"))
            return
        fonts = [(_font(key, px), chunk) for key, chunk in runs]
        width = sum(font.getlength(chunk) for font, chunk in fonts)
        start = {"middle": -width / 2, "end": -width}.get(t.anchor, 0.0)
        if upright:
            for font, chunk in fonts:
                self.draw.text((x + start, y), chunk, fill=ink, font=font, anchor="ls")
                start += font.getlength(chunk)
            return
        # rotated (or mirrored) text: draw into a mask centred on the anchor, rotate, stamp
        from PIL import Image as PILImage, ImageDraw
        half = math.ceil(max(width, px * 1.5)) + 2
        mask = PILImage.new("L", (2 * half, 2 * half), 0)
        mdraw = ImageDraw.Draw(mask)
        for font, chunk in fonts:
            mdraw.text((half + start, half), chunk, fill=255, font=font, anchor="ls")
            start += font.getlength(chunk)
        angle = math.degrees(math.atan2(b, a))     # clockwise on the page (y down)
        if a * d - b * c < 0:
            mask = mask.transpose(PILImage.Transpose.FLIP_TOP_BOTTOM)
        mask = mask.rotate(-angle, resample=PILImage.Resampling.BILINEAR, center=(half, half))
        colour = PILImage.new(self.mode, mask.size, ink)
        self.img.paste(colour, (round(x) - half, round(y) - half), mask)

    def image(self, im: Image, m, axis: bool) -> None:
        from PIL import Image as PILImage
        path = check_image(im.path)
        try:
            src = PILImage.open(path)
            src.load()
        except Exception as exc:    # noqa: BLE001 - Pillow raises many kinds for a bad file: an input error
            raise InputError(Problem(f"cannot read image: {exc}", str(path))) from None
        src = src.convert("RGBA")
        a, b, c, d, e, f = m
        if axis:
            x0, x1 = sorted((a * im.x + e, a * (im.x + im.w) + e))
            y0, y1 = sorted((d * im.y + f, d * (im.y + im.h) + f))
            w, h = max(1, round(x1 - x0)), max(1, round(y1 - y0))
            src = src.resize((w, h), PILImage.Resampling.LANCZOS)
            if a < 0:
                src = src.transpose(PILImage.Transpose.FLIP_LEFT_RIGHT)
            if d < 0:
                src = src.transpose(PILImage.Transpose.FLIP_TOP_BOTTOM)
            layer = src.convert(self.mode) if self.mode != "RGBA" else src
            self.img.paste(layer, (round(x0), round(y0)), src.getchannel("A"))
            return
        # general affine: map each page pixel back to the source image
        sx, sy = src.width / im.w, src.height / im.h
        # page px -> model mm: inverse of m; model mm -> source px: (x - im.x) * sx
        det = a * d - b * c
        ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
        ie, if_ = -(ia * e + ic * f), -(ib * e + id_ * f)
        coeffs = (sx * ia, sx * ic, sx * (ie - im.x), sy * ib, sy * id_, sy * (if_ - im.y))
        layer = src.transform(self.img.size, PILImage.Transform.AFFINE, coeffs,
                              resample=PILImage.Resampling.BILINEAR)
        self.img.paste(layer.convert(self.mode), (0, 0), layer.getchannel("A"))


def page_pixels(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    return max(1, round(width_mm * dpi / 25.4)), max(1, round(height_mm * dpi / 25.4))


# Letter at 1200 dpi is 135 million pixels (400 MB as RGB); much more would exhaust memory
MAX_PIXELS = 150_000_000


# drawn at this many times the resolution, then averaged down (antialiasing); less at high dpi,
# where a pixel is too small to show a stair, and within DRAW_PIXELS
SUPERSAMPLE = 3
DRAW_PIXELS = 40_000_000


def supersample_for(size: tuple[int, int], dpi: float) -> int:
    """How many times the resolution a page of size pixels at dpi is drawn at."""
    factor = SUPERSAMPLE if dpi <= 300 else 2 if dpi <= 600 else 1
    while factor > 1 and size[0] * size[1] * factor * factor > DRAW_PIXELS:
        factor -= 1
    return factor


def render_page_image(page, dpi: int = 150, grayscale: bool = False, supersample: int | None = 1):
    """The page as a PIL image (RGB, or L for grayscale), antialiased by drawing it at
    supersample times the resolution (None: supersample_for's choice, as the PNG files
    get; 1, the default, as the scanner's templates were made: not antialiased)."""
    from PIL import Image as PILImage
    size = page_pixels(page.width, page.height, dpi)
    if size[0] * size[1] > MAX_PIXELS:
        fit = int(dpi * (MAX_PIXELS / (size[0] * size[1])) ** 0.5)
        raise InputError(Problem(f"a {page.width:g} x {page.height:g} mm page at {dpi} dpi is "
                                 f"{size[0]} x {size[1]} pixels, too large for a PNG in memory",
                                 expected=f"--dpi {fit} or less, or --format pdf,svg"))
    s = supersample_for(size, dpi) if supersample is None else max(1, int(supersample))
    big = (size[0] * s, size[1] * s)
    img = PILImage.new("L" if grayscale else "RGB", big, 255 if grayscale else (255, 255, 255))
    # the pixel grid is scaled so the page's edges land on the image's edges exactly
    kx, ky = big[0] / page.width, big[1] / page.height
    _PngPage(img, (kx + ky) / 2, grayscale).items(page.items, (kx, 0.0, 0.0, ky, 0.0, 0.0))
    return img.reduce(s) if s > 1 else img


def check_dpi(dpi) -> None:
    if isinstance(dpi, bool) or not isinstance(dpi, (int, float)) or not 1 <= dpi <= 2400:
        raise InputError(Problem(f"dpi {dpi} is out of range", expected="a number from 1 to 2400"))


def png_bytes(page, dpi: int = 150, grayscale: bool = False, supersample: int | None = None) -> bytes:
    """The page as a PNG file, antialiased (see render_page_image)."""
    buf = io.BytesIO()
    # zlib level 3: the same size as the default 6 on these pages (flat colour), in 60 % of the time
    render_page_image(page, dpi, grayscale, supersample).save(buf, "PNG", dpi=(dpi, dpi), compress_level=3)
    return buf.getvalue()


def iter_png_pages(doc, dpi: int = 150, grayscale: bool = False, supersample: int | None = None):
    """Yield each page as PNG bytes."""
    check_dpi(dpi)
    for page in doc.pages:
        yield png_bytes(page, dpi, grayscale, supersample)


def _fit_radius(box, radius: float) -> float:
    """A corner radius that fits the pixel box (Pillow fails on radii larger than half
    a side); below one pixel the corner is square anyway."""
    if radius <= 0:
        return 0.0
    return min(radius, (box[2] - box[0]) / 2, (box[3] - box[1]) / 2)

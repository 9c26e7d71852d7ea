"""A synthetic phone camera: a flat page raster photographed as a person would.

`Camera` is one photo's recipe (all seeded numbers, small enough to keep hundreds as
test data); `photograph(flat, camera)` makes the picture: the page turned to any angle,
tilted up to 30 degrees (a true perspective: a pinhole camera looking at the tilted
plane), filling part of the frame over a textured table, a slight barrel or pincushion
lens, light falling off across the page and a soft shadow over it, a colour cast, focus
blur, sensor noise and JPEG compression, at the recipe's megapixels.
"""
from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass

import cv2
import numpy as np

FRAMES = {1: (1152, 864), 2: (1632, 1224), 5: (2592, 1944), 8: (3264, 2448), 12: (4000, 3000)}


@dataclass(frozen=True)
class Camera:
    megapixels: int = 2                 # 2 or 12
    rotation: float = 0.0               # degrees, the page turned in the frame
    tilt: float = 0.0                   # degrees between the page and the sensor (0-30)
    tilt_axis: float = 0.0              # degrees: the direction the page leans away
    fill: float = 0.8                   # the page's share of the frame's area (0.6-0.95)
    shift: tuple = (0.0, 0.0)           # where in the free room the page sits (-1..1 each way)
    k1: float = 0.0                     # radial lens distortion (+ barrel, - pincushion), about +-0.05
    light: float = 0.2                  # how much the light falls off across the frame (0-0.4)
    light_angle: float = 0.0            # degrees: the direction it falls off to
    shadow: float = 0.0                 # how dark the shadow is (0 none .. 0.5)
    shadow_line: tuple = (0.5, 0.0)     # the shadow's edge: (offset 0..1 across the frame, angle degrees)
    cast: tuple = (1.0, 1.0, 1.0)       # white balance gains (B, G, R)
    blur: float = 0.0                   # focus blur sigma in pixels (0-1.5)
    noise: float = 2.0                  # sensor noise sigma (of 255)
    jpeg: int = 85                      # JPEG quality (50-90)
    background: int = 0                 # which table texture (seed)
    seed: int = 0                       # the noise's seed
    motion: float = 0.0                 # motion blur: the shake's length in frame pixels (a hand moving)
    motion_angle: float = 0.0           # degrees: its direction in the frame
    glare: float = 0.0                  # a lamp's reflection: how much it washes out (0 none .. 1)
    glare_at: tuple = (0.5, 0.5)        # where (fractions of the frame) and ...
    glare_size: float = 0.15            # ... how wide (of the frame's diagonal)
    exposure: float = 1.0               # the light's level (low light: 0.3-0.5, with more noise)

    def as_dict(self) -> dict:
        out = asdict(self)
        out["shift"], out["shadow_line"], out["cast"] = list(self.shift), list(self.shadow_line), list(self.cast)
        out["glare_at"] = list(self.glare_at)
        # the first corpus's recipes keep their form: the newer effects only when used
        for key, plain in (("motion", 0.0), ("motion_angle", 0.0), ("glare", 0.0), ("glare_at", [0.5, 0.5]),
                           ("glare_size", 0.15), ("exposure", 1.0)):
            if out[key] == plain:
                del out[key]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Camera":
        data = dict(data)
        for key in ("shift", "shadow_line", "cast", "glare_at"):
            if key in data:
                data[key] = tuple(data[key])
        return cls(**data)

    @classmethod
    def random(cls, rng: random.Random, megapixels: int = 2) -> "Camera":
        """A recipe within the ranges a phone photo of a sheet on a table has."""
        return cls(megapixels=megapixels, rotation=round(rng.uniform(0, 360), 2), tilt=round(rng.uniform(0, 30), 2),
                   tilt_axis=round(rng.uniform(0, 360), 2), fill=round(rng.uniform(0.6, 0.95), 3),
                   shift=(round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3)),
                   k1=round(rng.uniform(-0.05, 0.05), 4), light=round(rng.uniform(0.0, 0.4), 3),
                   light_angle=round(rng.uniform(0, 360), 1),
                   shadow=round(rng.choice((0.0, rng.uniform(0.15, 0.5))), 3),
                   shadow_line=(round(rng.uniform(0.2, 0.8), 3), round(rng.uniform(0, 180), 1)),
                   cast=tuple(round(rng.uniform(0.9, 1.08), 3) for _ in range(3)),
                   blur=round(rng.uniform(0.0, 1.5), 3), noise=round(rng.uniform(1.0, 6.0), 2),
                   jpeg=rng.randint(50, 90), background=rng.randint(0, 9999), seed=rng.randint(0, 2 ** 31 - 1))


def _page_quad(w: float, h: float, cam: Camera, frame: tuple[int, int]) -> np.ndarray:
    """The page's corners in the frame: the plane turned and tilted, seen by a pinhole camera,
    then scaled to fill its share of the frame and moved within the room left."""
    fw, fh = frame
    r = math.radians(cam.rotation)
    corners = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    flat = corners @ rot.T
    # tilt: the plane turns about an axis in it (direction tilt_axis) by tilt degrees
    a = math.radians(cam.tilt_axis)
    axis = np.array([math.cos(a), math.sin(a), 0.0])
    t = math.radians(cam.tilt)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    R = np.eye(3) + math.sin(t) * K + (1 - math.cos(t)) * (K @ K)
    pts3 = np.column_stack([flat, np.zeros(4)]) @ R.T
    distance = 1.6 * max(w, h)            # a phone held about a page and a half away
    z = distance + pts3[:, 2]
    proj = pts3[:, :2] / z[:, None]
    proj -= proj.mean(axis=0)
    area = 0.5 * abs(np.dot(proj[:, 0], np.roll(proj[:, 1], 1)) - np.dot(proj[:, 1], np.roll(proj[:, 0], 1)))
    scale = math.sqrt(cam.fill * fw * fh / area)
    quad = proj * scale
    # shrink until it fits the frame with a small margin
    for _ in range(40):
        span = quad.max(axis=0) - quad.min(axis=0)
        if span[0] <= fw * 0.97 and span[1] <= fh * 0.97:
            break
        quad *= 0.97
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    room = np.array([fw, fh]) - (hi - lo)
    centre = np.array([fw / 2, fh / 2]) + np.array(cam.shift) * room * 0.45
    return quad - (lo + hi) / 2 + centre


def _background(frame: tuple[int, int], seed: int) -> np.ndarray:
    """A table: wood grain, cloth or a speckled stone, in some colour (BGR float)."""
    fw, fh = frame
    rng = np.random.default_rng(seed)
    kind = seed % 3
    small = (max(8, fw // 8), max(8, fh // 8))
    noise = rng.normal(0, 1, (small[1], small[0])).astype(np.float32)
    noise = cv2.GaussianBlur(noise, (0, 0), 2.0)
    noise = cv2.resize(noise, frame, interpolation=cv2.INTER_CUBIC)
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    if kind == 0:       # wood
        ang = rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        tex = 0.5 + 0.25 * np.sin(u / rng.uniform(6, 18) + 3 * noise) + 0.1 * noise
        colour = np.array([rng.uniform(40, 90), rng.uniform(80, 130), rng.uniform(120, 180)])
    elif kind == 1:     # cloth
        fine = rng.normal(0, 1, (fh, fw)).astype(np.float32)
        tex = 0.5 + 0.15 * fine + 0.15 * noise + 0.1 * np.sin(xx / 2.5) * np.sin(yy / 2.5)
        colour = rng.uniform(40, 200, 3)
    else:               # stone
        fine = cv2.GaussianBlur(rng.normal(0, 1, (fh, fw)).astype(np.float32), (0, 0), 1.2)
        tex = 0.5 + 0.3 * fine + 0.2 * noise
        colour = rng.uniform(60, 170, 3)
    tex = np.clip(tex, 0, 1)
    return (tex[..., None] * 0.8 + 0.4) * colour[None, None, :]


def photograph(flat: np.ndarray, page_mm: tuple[float, float], cam: Camera) -> np.ndarray:
    """The photo (BGR uint8, JPEG-compressed and decoded) of the flat page raster (RGB uint8)."""
    fw, fh = FRAMES[cam.megapixels]
    w, h = page_mm
    rows, cols = flat.shape[:2]
    quad = _page_quad(w, h, cam, (fw, fh))
    src = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    Hm = cv2.getPerspectiveTransform(src, quad.astype(np.float32))           # flat px -> frame px
    # against aliasing: the flat is blurred to the frame's scale before sampling
    scale = math.sqrt(abs(np.linalg.det(Hm[:2, :2]))) if abs(Hm[2, 0]) + abs(Hm[2, 1]) < 1e-9 else \
        math.sqrt(cv2.contourArea(quad.astype(np.float32)) / (cols * rows))
    page = flat.astype(np.float32)[..., ::-1]                                  # RGB -> BGR
    if scale < 0.8:
        page = cv2.GaussianBlur(page, (0, 0), 0.45 / scale)
    # the lens: frame pixel (distorted) -> undistorted frame pixel -> flat pixel
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    cx, cy = fw / 2, fh / 2
    norm = math.hypot(cx, cy)
    dx, dy = (xx - cx) / norm, (yy - cy) / norm
    factor = 1 + cam.k1 * (dx * dx + dy * dy)
    ux, uy = cx + dx * factor * norm, cy + dy * factor * norm
    Hinv = np.linalg.inv(Hm)
    den = Hinv[2, 0] * ux + Hinv[2, 1] * uy + Hinv[2, 2]
    mapx = ((Hinv[0, 0] * ux + Hinv[0, 1] * uy + Hinv[0, 2]) / den).astype(np.float32)
    mapy = ((Hinv[1, 0] * ux + Hinv[1, 1] * uy + Hinv[1, 2]) / den).astype(np.float32)
    inside = ((mapx >= 0) & (mapx < cols - 1) & (mapy >= 0) & (mapy < rows - 1)).astype(np.float32)
    sheet = cv2.remap(page, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.GaussianBlur(inside, (0, 0), 0.7)[..., None]
    img = sheet * inside + _background((fw, fh), cam.background) * (1 - inside)
    # light: a fall-off across the frame, a vignette and a soft shadow
    a = math.radians(cam.light_angle)
    u = ((xx - cx) * math.cos(a) + (yy - cy) * math.sin(a)) / norm
    light = 1.0 - cam.light * (u + 1) / 2
    light *= 1.0 - 0.12 * (dx * dx + dy * dy)
    if cam.shadow > 0:
        off, ang = cam.shadow_line
        b = math.radians(ang)
        v = ((xx - fw * off) * math.cos(b) + (yy - fh * off) * math.sin(b))
        soft = 0.5 * (1 + np.tanh(v / (0.04 * norm)))
        light *= 1.0 - cam.shadow * soft
    img *= light[..., None] * cam.exposure
    img *= np.array(cam.cast, dtype=np.float32)[None, None, :]
    if cam.glare > 0:
        # a lamp's reflection: the sheet's white and its ink washed towards white alike
        gx, gy = cam.glare_at
        d2 = ((xx - fw * gx) ** 2 + (yy - fh * gy) ** 2) / (cam.glare_size * 2 * norm) ** 2
        spot = (cam.glare * np.exp(-d2))[..., None]
        img = img * (1 - spot) + 255.0 * spot
    if cam.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), cam.blur)
    if cam.motion >= 1.0:
        img = cv2.filter2D(img, -1, _motion_kernel(cam.motion, cam.motion_angle))
    rng = np.random.default_rng(cam.seed)
    img += rng.normal(0, cam.noise, img.shape).astype(np.float32) * np.sqrt(np.clip(img / 160.0, 0.2, 1.6))
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(cam.jpeg)])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _motion_kernel(length: float, angle: float) -> np.ndarray:
    """A straight shake of length pixels in direction angle (degrees): a line kernel summing to 1."""
    size = int(math.ceil(length)) | 1
    k = np.zeros((size * 4 + 1, size * 4 + 1), np.float32)
    c = size * 2
    a = math.radians(angle)
    for t in np.linspace(-length / 2, length / 2, int(length * 4) + 1):
        k[int(round(c + t * math.sin(a))), int(round(c + t * math.cos(a)))] += 1.0
    return k / k.sum()


def page_quad_in_photo(page_mm, cam: Camera) -> np.ndarray:
    """Where the page's corners land (before the lens), for tests."""
    return _page_quad(*page_mm, cam, FRAMES[cam.megapixels])

"""The photo: finding the sheet in it and making it flat.

- `load_photo`: the image file (JPEG, PNG, ...) as BGR pixels;
- `find_markers`: the four corner markers (ArUco 4x4, sheetgen.draw.scanmarks) by id,
  each id naming its corner and the page's paper and orientation: each looked at closely
  where the page's outline (or the markers already found) put it;
- `locate`: the homography page mm -> photo pixels from the markers' corners (a corner
  cut off is named), or from the page's outline when the sheet has no markers;
- `measure_quality`: how sharp and how bright the photo is, measured on the markers'
  edges (blur as the edge's spread in page mm, paper and ink levels);
- `read_qr`: the QR code's text, read module by module where the sheet drew it (the photo's
  blur undone), else by OpenCV's detector on a warp of its square;
- `rectify`: the page seen flat at PX_PER_MM (sheetgen.scan.sheet), from the full photo.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from ..draw import scanmarks as SM
from ..errors import InputError, Problem

WORK_SIDE = 2000            # px: marker search on a copy at most this big
MAX_BLUR_MM = 0.42          # a pencil line is about 0.45 mm wide: softer edges blur it away
MAX_SHAKE_MM = 0.5          # the print smeared one way this much more than the other (sigma): a shaken phone
MIN_CONTRAST = 50           # of 255: paper minus ink on the markers
MIN_PAPER = 70              # of 255: the paper's level on the markers
MAX_PHOTO_PIXELS = 50_000_000   # a photo's size, read from its header before decoding (phones: 12-48 MP)
MAX_PHOTO_SIDE = 32_766         # px: OpenCV's warps (remap) take sides below SHRT_MAX; its decoder 2**20


def _problem(message: str, photo: str, expected: str | None = None) -> InputError:
    return InputError(Problem(message, photo, expected=expected))


# a photo's arrays are 1 to 20 MB each, made and let go dozens of times a photo: glibc's malloc gives
# arrays past its mmap threshold pages of their own, handed back when freed and faulted in again for the
# next (a fresh --jobs worker most of all: its threshold has not grown yet), and trims the heap's free
# top; past these, a run's freed arrays stay in its heap for the next photo's (as much again, not more)
MMAP_THRESHOLD = 32 * 2 ** 20       # glibc's most
TRIM_THRESHOLD = 256 * 2 ** 20


def keep_freed_memory() -> bool:
    """Have this process (and the workers it forks) keep freed arrays for the next photo rather than
    give the pages back and fault them in again: glibc's mallopt; False where there is none."""
    import ctypes
    import ctypes.util
    import sys
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False                # not glibc (musl has no mallopt)
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    m_trim_threshold, m_mmap_threshold = -1, -3
    return bool(mallopt(m_mmap_threshold, MMAP_THRESHOLD)) and bool(mallopt(m_trim_threshold, TRIM_THRESHOLD))


def load_photo(path: str | Path) -> np.ndarray:
    """The photo as BGR pixels; InputError for a file that is not an image."""
    path = Path(path)
    _check_photo_file(path)
    data = np.fromfile(str(path), dtype=np.uint8)
    try:
        img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error as exc:        # a size past OpenCV's own limits, in a header we could not read
        raise _opencv_refused(exc, str(path)) from None
    if img is None:
        raise _problem("not an image this scanner can read", str(path), "a photo or scan as JPEG, PNG, TIFF or BMP")
    _check_size(img.shape[1], img.shape[0], str(path))     # a format whose header we do not read
    if min(img.shape[:2]) < 200:
        raise _problem(f"the image is only {img.shape[1]} x {img.shape[0]} pixels", str(path),
                       "a photo of at least 1 megapixel (2 MP or more is best)")
    return img


def _check_photo_file(path: Path) -> None:
    """A regular file whose header names an image of at most MAX_PHOTO_PIXELS; else an InputError
    naming what it is (a folder, a FIFO, a device, a loop of links, a PDF, a HEIC photo) or its size,
    found without decoding a pixel."""
    import errno
    import stat

    from PIL import Image
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(Problem("a loop of symbolic links, not a photo", str(path))) from None
        raise InputError(Problem("no such file" if exc.errno == errno.ENOENT else
                                 f"cannot read: {exc.strerror or exc}", str(path))) from None
    for test, what in ((stat.S_ISDIR, "is a folder, not a photo (name the photos in it)"),
                       (stat.S_ISFIFO, "is a FIFO (a named pipe), not a photo (never read)"),
                       (stat.S_ISCHR, "is a character device, not a photo (never read)"),
                       (stat.S_ISBLK, "is a block device, not a photo (never read)"),
                       (stat.S_ISSOCK, "is a socket, not a photo")):
        if test(mode):
            raise InputError(Problem(what, str(path)))
    with open(path, "rb") as f:
        head = f.read(32)
    if head.startswith(b"%PDF"):
        raise _problem("a PDF, not a photo", str(path), "the page as an image: export or print the PDF page "
                       "to PNG or JPEG, or photograph the printed sheet")
    if head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1"):
        raise _problem("a HEIC (HEIF) photo, which this scanner cannot read", str(path),
                       "the photo as JPEG (on an iPhone: Settings > Camera > Formats > Most Compatible, "
                       "or export it as JPEG)")
    limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None       # Pillow's own bomb check would hide the size; ours names it
    try:
        with Image.open(path) as im:    # reads the header only
            size = im.size
    except Exception:                   # noqa: BLE001 - not an image Pillow knows: read its header here
        with open(path, "rb") as f:
            size = _other_header_size(f.read(4096))
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    if size is not None:
        _check_size(*size, str(path))


def _check_size(width: int, height: int, photo: str) -> None:
    """At most MAX_PHOTO_PIXELS, and no side past what OpenCV's warps take: else an InputError
    naming the size and the limit."""
    if width * height > MAX_PHOTO_PIXELS:
        raise _problem(f"the image is {width:,} x {height:,} pixels ({width * height / 1e6:,.0f} MP); at most "
                       f"{MAX_PHOTO_PIXELS // 1_000_000} MP are read", photo,
                       "a photo of the sheet of at most 50 MP (a phone's: 12-48 MP)")
    if max(width, height) > MAX_PHOTO_SIDE:
        raise _problem(f"the image is {width:,} x {height:,} pixels; a side of at most {MAX_PHOTO_SIDE:,} pixels "
                       "is read (OpenCV's limit)", photo, f"a photo of the sheet of at most {MAX_PHOTO_PIXELS // 1_000_000} MP "
                       f"and {MAX_PHOTO_SIDE:,} pixels a side")


def _other_header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the header of an image OpenCV reads and Pillow does not (PFM,
    Radiance HDR, PAM and the other Netpbm kinds), else None."""
    import re
    if head[:2] in (b"PF", b"Pf") or head[:2] in (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6"):
        text = re.sub(rb"#[^\n]*", b" ", head[2:])         # Netpbm comments run to the line's end
        numbers = re.match(rb"\s+(\d+)\s+(\d+)", text)
        return (int(numbers[1]), int(numbers[2])) if numbers else None
    if head.startswith(b"P7"):
        width, height = re.search(rb"\bWIDTH\s+(\d+)", head), re.search(rb"\bHEIGHT\s+(\d+)", head)
        return (int(width[1]), int(height[1])) if width and height else None
    if head.startswith((b"#?RADIANCE", b"#?RGBE")):
        axes = re.search(rb"\n[-+]([XY]) (\d+) [-+]([XY]) (\d+)\s", head)
        if axes and axes[1] != axes[3]:
            sides = {axes[1]: int(axes[2]), axes[3]: int(axes[4])}
            return sides[b"X"], sides[b"Y"]
    return None


def _opencv_refused(exc: Exception, photo: str) -> InputError:
    """OpenCV's decoder refused the image (its size limits): an InputError naming the limit."""
    text = str(exc)
    for key, what in (("PIXELS", f"{2 ** 30:,} pixels in all"), ("WIDTH", f"{2 ** 20:,} pixels wide"),
                      ("HEIGHT", f"{2 ** 20:,} pixels high")):
        if f"CV_IO_MAX_IMAGE_{key}" in text:
            return _problem(f"the image's header claims a size past OpenCV's limit of {what}", photo,
                            f"a photo of the sheet of at most {MAX_PHOTO_PIXELS // 1_000_000} MP")
    return _problem("OpenCV cannot decode this image (" + text.strip().splitlines()[-1][:200] + ")", photo,
                    "a photo or scan as JPEG, PNG, TIFF or BMP")


@dataclass
class Markers:
    """The corner markers found: corner name -> 4x2 pixel corners (the marker's own TL, TR, BR, BL)."""
    layout: tuple[str, str] | None                 # (paper, orientation) the ids say
    corners: dict = field(default_factory=dict)
    foreign: int = 0                               # markers of another sheet layout or dictionary
    soft: tuple = ()                               # corners whose marker only the soft read made out (_soft_read)

    @property
    def missing(self) -> list[str]:
        return [c for c in SM.CORNERS if c not in self.corners]


def _detector(windows: tuple[int, int, int] = (7, 23, 8), perimeter: tuple[float, float] = (0.02, 4.0)):
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, params.adaptiveThreshWinSizeStep = windows
    params.minMarkerPerimeterRate, params.maxMarkerPerimeterRate = perimeter
    params.polygonalApproxAccuracyRate = 0.05
    params.errorCorrectionRate = 0.6
    # blurred or small markers: read each cell's middle only, finely
    params.perspectiveRemovePixelPerCell = 8
    params.perspectiveRemoveIgnoredMarginPerCell = 0.25
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


_DETECTORS: dict = {}


def _detector_for(kind: str, margin: float = 4.0):
    """The frame's detectors ('quick': one threshold window, 'thorough': three) and the one
    for a marker's close-up with margin mm around it ('close')."""
    key = (kind, margin if kind.startswith("close") else None)
    if key not in _DETECTORS:
        if kind.startswith("close"):
            share = 4 * SM.MARKER / (SM.MARKER + 2 * margin)       # the marker's perimeter / the view's side
            detector = _detector((5, 25, 4), (0.5 * share, 1.5 * share))
            # the close-up looks for one id where it must be: every correctable bit corrected
            params = detector.getDetectorParameters()
            params.errorCorrectionRate = 1.0
            if kind == "close":             # soft edges: a lower threshold, rounder corners
                params.adaptiveThreshConstant = 3
                params.polygonalApproxAccuracyRate = 0.1
            detector.setDetectorParameters(params)
            _DETECTORS[key] = detector
        else:
            _DETECTORS[key] = _detector((15, 15, 8)) if kind == "quick" else _detector()
    return _DETECTORS[key]


def _detect(work: np.ndarray, scale: float, found: dict, kind: str = "thorough") -> None:
    corners, ids, _ = _detector_for(kind).detectMarkers(work)
    if ids is not None:
        for quad, mid in zip(corners, ids.ravel()):
            found.setdefault(int(mid), quad.reshape(4, 2) / scale)


def _layout_ids(found: dict) -> dict:
    layouts: dict = {}
    for mid in found:
        known = SM.layout_of_marker(mid)
        if known:
            layouts.setdefault(known[:2], []).append(mid)
    return layouts


CLOSE_PX_PER_MM = 6.0       # a marker's close-up: 6 px a cell


def _close_up(gray: np.ndarray, H: np.ndarray, layout: tuple[str, str], corner: str, margin: float,
              want: int | None = None, soft: bool = False):
    """The marker of a corner as the page homography H (page mm -> photo px) expects it, seen
    square on: (its id, its corners in the photo in ArUco's order, whether the soft read made it
    out) when the close-up finds it, else None.  want: the one id taken (default: the corner's
    own); -1: any id sheetgen prints.  soft: when ArUco cannot read it, the soft read (a corner
    no look has found yet: one found keeps the corners it was found with)."""
    w, h = SM.page_size(*layout)
    x, y, s, _ = SM.marker_box(w, h, corner)
    k = CLOSE_PX_PER_MM
    side = int(round((s + 2 * margin) * k))
    # close-up pixel -> page mm -> photo pixel
    C = H @ np.array([[1 / k, 0, x - margin], [0, 1 / k, y - margin], [0, 0, 1.0]])
    view = cv2.warpPerspective(gray, C, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    want = SM.marker_id(*layout, corner) if want is None else want
    shapes = []                                 # every square the detectors saw, read or not
    for kind in ("close", "close, plain"):
        corners, ids, rejected = _detector_for(kind, margin).detectMarkers(view)
        for quad, mid in zip(corners, ids.ravel() if ids is not None else ()):
            if int(mid) == want or (want < 0 and SM.layout_of_marker(int(mid))):
                return (int(mid), cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), C).reshape(4, 2),
                        False)
        shapes += list(corners) + list(rejected)
    quad = _soft_read(view, shapes, want) if soft and want >= 0 else None
    if quad is None:
        return None
    return want, cv2.perspectiveTransform(quad.reshape(-1, 1, 2), C).reshape(4, 2), True


SOFT_CELL_PX = 8                                # a marker's cell in the soft read's view
SOFT_BLURS = (0.0, 0.25, 0.5, 0.75, 1.0)        # sigma in cells (1 mm): sharp to over twice MAX_BLUR_MM
MIN_BITS_MATCH = 0.5                            # correlation of the bits with the id's: the marker's code, not a blot
_SOFT_PATTERNS: dict = {}


def _bit_patterns() -> dict:
    """Blur (cells) -> every DICT_4X4_50 id turned 0-3 quarters (row id * 4 + turns), its 4 x 4 bits
    as the soft read sees them (SOFT_CELL_PX a cell, blurred, zero mean, unit norm)."""
    if not _SOFT_PATTERNS:
        p = SOFT_CELL_PX
        drawn = []
        for mid in range(50):
            m = _marker_printed(mid, 1, p)
            drawn += [np.rot90(m, -turns) for turns in range(4)]
        for blur in SOFT_BLURS:
            # blurred whole (border and quiet zone included), then the bits cut out
            seen = np.stack([cv2.GaussianBlur(d, (0, 0), blur * p) if blur else d for d in drawn])
            _SOFT_PATTERNS[blur] = _unit_rows(seen[:, 2 * p:6 * p, 2 * p:6 * p].reshape(len(seen), -1))
    return _SOFT_PATTERNS


def _marker_printed(mid: int, white: int, px: float) -> np.ndarray:
    """DICT_4X4_50's marker mid as sheetgen prints it (0 black .. 1 white, float32): its 6 x 6 cells
    (the black border included) with WHITE cells of blank page around, PX pixels a cell (a cell is a mm)."""
    aruco = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    m = np.pad(cv2.aruco.generateImageMarker(aruco, mid, 6).astype(np.float32) / 255, white, constant_values=1.0)
    return cv2.resize(m, None, fx=px, fy=px, interpolation=cv2.INTER_NEAREST)


def _unit_rows(patterns: np.ndarray) -> np.ndarray:
    """Each row less its mean, over its norm: patterns compared by correlation alone."""
    patterns = patterns - patterns.mean(axis=1, keepdims=True)
    return patterns / np.maximum(np.linalg.norm(patterns, axis=1, keepdims=True), 1e-9)


def _soft_read(view: np.ndarray, shapes: list, want: int) -> np.ndarray | None:
    """The blur-tolerant read of a close-up (the page square on, the marker upright): of the
    squares ArUco saw but could not decode (a blurred marker's white cells run into its black
    ones, so its bits read wrong taken one by one), the one whose bits look most like id
    want's, blurred as the photo may be, when that id upright is the best match of every id of
    the dictionary turned every way (a maximum-likelihood read of the whole pattern, not bit by
    bit) and matches at least MIN_BITS_MATCH: its corners (view pixels, float64, ArUco's
    order), or None."""
    p = SOFT_CELL_PX
    patterns = _bit_patterns()
    target = np.float32([[p, p], [7 * p, p], [7 * p, 7 * p], [p, 7 * p]])
    best, best_match = None, MIN_BITS_MATCH
    for shape in shapes:
        quad = np.asarray(shape, np.float64).reshape(4, 2)
        # clockwise from the corner nearest the view's top left: the marker's own order when upright
        if np.sum(quad[:, 0] * np.roll(quad[:, 1], -1) - np.roll(quad[:, 0], -1) * quad[:, 1]) < 0:
            quad = quad[::-1]
        quad = np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0)
        M = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        flat = cv2.warpPerspective(view.astype(np.float32), M, (8 * p, 8 * p), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        bits = flat[2 * p:6 * p, 2 * p:6 * p].ravel()
        bits = bits - bits.mean()
        norm = float(np.linalg.norm(bits))
        if norm < 1e-6:
            continue
        match = max((patterns[blur] @ (bits / norm) for blur in SOFT_BLURS), key=lambda m: float(m.max()))
        if int(np.argmax(match)) == 4 * want and float(match[4 * want]) > best_match:
            best, best_match = quad, float(match[4 * want])
    return best


def _by_page_outline(gray: np.ndarray, found: dict) -> None:
    """Markers where the page's outline puts its corners (a bright quadrilateral, on a copy 500
    pixels wide: cheap), looked at closely: ids of any layout, the page either way up (a close-up
    turned a quarter or a half still shows its marker)."""
    quad = _page_outline(gray, 500)
    if quad is None:
        return
    w, h = SM.page_size("a4", "portrait")
    if np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2])) > \
            np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3])):
        quad = np.roll(quad, 1, axis=0)         # the page's short side first
    H = _homography([(0, 0), (w, 0), (w, h), (0, h)], quad)[0]
    for corner in SM.CORNERS:
        got = _close_up(gray, H, ("a4", "portrait"), corner, 5.0, want=-1)
        if got is not None:
            found.setdefault(got[0], got[1])


def _page_homography(layout, quads: dict) -> np.ndarray:
    w, h = SM.page_size(*layout)
    mm, px = [], []
    for corner, quad in quads.items():
        mm += SM.marker_corners(w, h, corner)
        px += [tuple(p) for p in quad]
    return _homography(mm, px)[0]


def _closer(gray: np.ndarray, layout, quads: dict, soft: set | None = None) -> dict:
    """Every corner's marker from a close-up where the markers in quads put it (a wide look
    while only two are known: a homography from two is loose far from them), twice while
    the first finds more.  soft: the missing ones read softly too, and the corners the soft
    read made out kept in it (None: ArUco's reads only)."""
    for _ in range(2):
        H = _page_homography(layout, quads)
        margin = 4.0 if len(quads) >= 3 else 12.0
        closer = {}
        for corner in SM.CORNERS:
            got = _close_up(gray, H, layout, corner, margin, soft=soft is not None and corner not in quads)
            if got is not None:
                closer[corner] = got[1]
                if soft is not None:
                    (soft.add if got[2] else soft.discard)(corner)
        before = len(quads)
        quads = {**quads, **closer}
        if len(quads) == 4 or len(quads) == before:
            break
    return quads


def _with_outline(gray: np.ndarray, layout, quads: dict, soft: set) -> dict:
    """The markers still missing from quads, looked for where the page's outline puts its corners.
    Two markers on one side fix the page's perspective only by their own few pixels, and the
    lens bends what lies far from them: predicted from them alone, the far markers can be 20 mm
    off at a 26 degree tilt (issue 27: ballpoint-blue-06), beyond any close-up's margin.  The
    paper's corners are within 11 mm of their markers: a homography from the markers found and
    the outline's corners where none was found predicts those few mm off.  The outline's corners
    are matched to the page's by the markers (the turn that puts them nearest, one marker: the
    corner nearest it), so a corner the outline cut short (a shadow across the page) only costs
    its own close-up.  One marker is enough to tell the turn."""
    quad = _page_outline(gray, 1000)
    if quad is None:
        return quads
    w, h = SM.page_size(*layout)
    page = np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])
    if len(quads) >= 2:
        guess = cv2.perspectiveTransform(page.reshape(-1, 1, 2), _page_homography(layout, quads)).reshape(4, 2)
        turn = min(range(4), key=lambda k: float(np.sum(np.hypot(*(np.roll(quad, -k, axis=0) - guess).T))))
    else:
        corner, marker = next(iter(quads.items()))
        at = SM.CORNERS.index(corner)
        turn = min(range(4), key=lambda k: float(np.hypot(*(np.roll(quad, -k, axis=0)[at] - marker.mean(axis=0)))))
    quad = np.roll(quad, -turn, axis=0)
    mm, px = [], []
    for corner, marker in quads.items():
        mm += SM.marker_corners(w, h, corner)
        px += [tuple(p) for p in marker]
    missing = [c for c in SM.CORNERS if c not in quads]
    for corner in missing:
        mm.append(tuple(page[SM.CORNERS.index(corner)]))
        px.append(tuple(quad[SM.CORNERS.index(corner)]))
    try:
        H = _homography(mm, px)[0]
    except ValueError:
        return quads
    found = dict(quads)
    for corner in missing:
        got = _close_up(gray, H, layout, corner, 4.0, soft=True)
        if got is not None:
            found[corner] = got[1]
            if got[2]:
                soft.add(corner)
    return found


def find_markers(gray: np.ndarray) -> Markers:
    """The corner markers.  First a quick look at a copy of the frame about 1000 pixels wide
    (one threshold); a second, full-size and more thorough, when that finds fewer than two of
    one layout.  Then every corner is looked at closely where the markers found put it: the
    photo warped square onto the marker at 6 px a mm (small markers made bigger, big ones
    smaller, the perspective taken out), which finds markers too small or soft for the whole
    frame and those in a shadow, and reads each marker's corners afresh; these are refined
    on the photo's own pixels."""
    found: dict[int, np.ndarray] = {}           # marker id -> its corners, from the frame
    closer: dict = {}                           # layout -> corner -> its corners, from close-ups
    soft: dict = {}                             # layout -> the corners only the soft read made out
    layout = None
    for look in ("outline", "quick", "full size", "thorough"):
        if look == "outline":
            _by_page_outline(gray, found)
        elif look == "quick":
            scale = min(1.0, 1000 / max(gray.shape))
            if scale > 0.75:
                continue
            _detect(cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale, found, "quick")
        else:
            big = min(1.0, WORK_SIDE / max(gray.shape))
            work = cv2.resize(gray, None, fx=big, fy=big, interpolation=cv2.INTER_AREA) if big < 1.0 else gray
            _detect(work, big, found, "quick" if look == "full size" else "thorough")
            if look == "thorough" and big >= 1.0 and max(gray.shape) * 1.5 <= 3200:
                _detect(cv2.resize(gray, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_CUBIC), 1.5, found)
        layouts = _layout_ids(found)
        if not layouts:
            continue
        layout = max(layouts, key=lambda k: len(layouts[k]))
        quads = {**closer.get(layout, {}), **{SM.layout_of_marker(mid)[2]: found[mid] for mid in layouts[layout]}}
        if len(quads) >= 2:
            quads = _closer(gray, layout, quads)
        closer[layout] = quads
        if len(quads) == 4:
            break
    if layout is None:
        return Markers(None, {}, len(found))
    if len(closer[layout]) < 4:
        # the last resorts, once every look is done: the soft read where the markers found put
        # the others, then where the page's outline does
        quads = closer[layout]
        if len(quads) >= 2:
            quads = _closer(gray, layout, quads, soft.setdefault(layout, set()))
        if len(quads) < 4:
            quads = _with_outline(gray, layout, quads, soft.setdefault(layout, set()))
            if 2 <= len(quads) < 4:
                quads = _closer(gray, layout, quads, soft[layout])
        closer[layout] = quads
    out = Markers(layout, {}, len(found) - len(_layout_ids(found)[layout]),
                  tuple(c for c in SM.CORNERS if c in soft.get(layout, ())))
    quads = closer[layout]
    for corner, quad in quads.items():
        side = np.mean(np.hypot(*(quad - np.roll(quad, 1, axis=0)).T))
        win = max(2, int(round(side / SM.MARKER * 0.45)))
        quad = cv2.cornerSubPix(gray, quad.astype(np.float32).reshape(-1, 1, 2), (win, win), (-1, -1),
                                (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)).reshape(4, 2)
        out.corners[corner] = quad.astype(np.float64)
    return out


@dataclass
class Location:
    """Where the page is in the photo: H maps page mm to photo pixels."""
    H: np.ndarray
    size: tuple[float, float]                      # page width, height in mm
    layout: tuple[str, str] | None
    markers: Markers | None
    error_px: float                                # the markers' reprojection error
    by: str                                        # 'markers' or 'page outline'

    def to_photo(self, pts_mm) -> np.ndarray:
        pts = np.asarray(pts_mm, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.H).reshape(-1, 2)

    def px_per_mm(self, x: float, y: float) -> float:
        a, b = self.to_photo([(x, y), (x + 1.0, y + 1.0)])
        return float(np.hypot(*(b - a)) / np.sqrt(2))


def _homography(pairs_mm, pairs_px) -> tuple[np.ndarray, float]:
    src = np.asarray(pairs_mm, dtype=np.float64)
    dst = np.asarray(pairs_px, dtype=np.float64)
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        raise ValueError("degenerate")
    back = cv2.perspectiveTransform(src.reshape(-1, 1, 2), H).reshape(-1, 2)
    return H, float(np.sqrt(np.mean(np.sum((back - dst) ** 2, axis=1))))


def locate(img: np.ndarray, gray: np.ndarray, photo: str, markers: Markers) -> Location:
    """The page's place in the photo from its markers; InputError naming a corner cut off or
    a marker that cannot be found."""
    if markers.layout is None:
        raise _problem("no sheetgen corner markers found", photo)
    w, h = SM.page_size(*markers.layout)
    mm, px = [], []
    for corner, quad in markers.corners.items():
        mm += SM.marker_corners(w, h, corner)
        px += [tuple(p) for p in quad]
    H, err = _homography(mm, px)
    loc = Location(H, (w, h), markers.layout, markers, err, "markers")
    missing = markers.missing
    if missing:
        rows, cols = gray.shape
        cut = []
        for corner in missing:
            pts = loc.to_photo(SM.marker_corners(w, h, corner))
            if np.any(pts[:, 0] < 0) or np.any(pts[:, 1] < 0) or np.any(pts[:, 0] >= cols) or np.any(pts[:, 1] >= rows):
                cut.append(corner)
        if cut:
            names = " and ".join(cut)
            raise _problem(f"the {names} corner{'s' if len(cut) > 1 else ''} of the sheet {'are' if len(cut) > 1 else 'is'} "
                           f"cut off: {'their markers lie' if len(cut) > 1 else 'its marker lies'} outside the photo",
                           photo, "a photo with all four corner markers in view (step back a little)")
        if len(missing) > 1:
            # markers lost to a shaken or unfocused phone: say so, measured on the markers found
            check_blur_where_missing(gray, loc, missing, photo)
            raise _problem(f"the {' and '.join(missing)} corner markers cannot be found (covered, in a shadow or a "
                           "reflection?)", photo, "all four corner markers in view, uncovered")
    return loc


def _page_outline(gray: np.ndarray, side: int) -> np.ndarray | None:
    """The corners (photo pixels, clockwise from any) of the biggest bright quadrilateral, found
    on a copy at most side pixels big, or None."""
    scale = min(1.0, side / max(gray.shape))
    work = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    work = cv2.GaussianBlur(work, (5, 5), 0)
    _, mask = cv2.threshold(work, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    best = max(contours, key=cv2.contourArea)
    if cv2.contourArea(best) < 0.1 * work.size:
        return None
    quad = cv2.approxPolyDP(cv2.convexHull(best), 0.02 * cv2.arcLength(best, True), True).reshape(-1, 2)
    if len(quad) != 4:
        return None
    quad = quad.astype(np.float64) / scale
    centre = quad.mean(axis=0)
    return quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]


def locate_page(gray: np.ndarray, photo: str, size: tuple[float, float]) -> list[Location]:
    """Without markers: the page's outline (the biggest bright quadrilateral) as candidate
    homographies for a page of `size` mm (both ways up: the caller keeps the one that fits)."""
    quad = _page_outline(gray, 1000)
    if quad is None:
        return []
    # the page's long side goes with the quad's long side
    w, h = size
    side01 = np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2]))
    side12 = np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3]))
    if (side01 > side12) != (w > h):
        quad = np.roll(quad, 1, axis=0)
    page = [(0, 0), (w, 0), (w, h), (0, h)]
    out = []
    for k in (0, 2):
        H, err = _homography(page, np.roll(quad, -k, axis=0))
        out.append(Location(H, size, SM.paper_of(w, h), None, err, "page outline"))
    return out


@dataclass
class Quality:
    blur_mm: float          # the spread (sigma) of the markers' edges on the page, the worse direction
    paper: float            # 0..255
    ink: float              # 0..255
    direction_mm: tuple = ()    # the spread of the edges along the page's width and along its height
    shake_mm: float = 0.0       # the page's print smeared one way more than the other (sheetgen.scan.image.page_blur)
    soft_mm: float | None = None    # all the markers' edges' median spread: how soft the reader takes the
                                    # print to be (as before the blur was measured per direction)

    @property
    def softness(self) -> float:
        return self.blur_mm if self.soft_mm is None else self.soft_mm

    @property
    def contrast(self) -> float:
        return self.paper - self.ink

    def as_dict(self) -> dict:
        return {"blur_mm": round(self.blur_mm, 3), "paper": round(self.paper, 1), "ink": round(self.ink, 1),
                "contrast": round(self.contrast, 1)}


def _edge_profiles(gray: np.ndarray, loc: Location, corners, k: float = 20.0) -> np.ndarray:
    """Samples across the four outer edges of each marker of corners, from black (inside) to
    white (outside): (edges, across, along), every 1/k mm over +-1.1 mm across, 16 along."""
    w, h = loc.size
    half = 1.1
    n = int(2 * half * k) + 1
    t = np.linspace(-half, half, n)[:, None]        # across: inside (-) to outside (+)
    xs, ys = [], []
    for corner in corners:
        x, y, s, _ = SM.marker_box(w, h, corner)
        along = np.linspace(1.5, s - 1.5, 16)[None, :]
        for ex, ey in ((x + along, y - t), (x + along, y + s + t), (x - t, y + along), (x + s + t, y + along)):
            ex, ey = np.broadcast_arrays(ex, ey)
            xs.append(ex)
            ys.append(ey)
    xs, ys = np.stack(xs), np.stack(ys)
    pts = loc.to_photo(np.stack([xs.ravel(), ys.ravel()], axis=1)).astype(np.float32)
    vals = cv2.remap(gray, pts[:, 0].reshape(-1, 16), pts[:, 1].reshape(-1, 16), cv2.INTER_LINEAR)
    return vals.reshape(xs.shape).astype(np.float64)


def _spreads(samples: np.ndarray, k: float) -> list[tuple[float, float, float, int]]:
    """(sigma in mm, ink, paper, edge index) of every edge whose samples (edges, across, along) show one:
    each column's edge found where it crosses half way, the columns lined up on it, then
    the 10-90 % width of their median."""
    edges, n, cols = samples.shape
    ink = np.median(samples[:, :5].reshape(edges, -1), axis=1)
    paper = np.median(samples[:, -5:].reshape(edges, -1), axis=1)
    mid = (ink + paper) / 2
    above = samples > mid[:, None, None]
    first = np.argmax(above, axis=1)                                    # (edges, cols)
    valid = above.any(axis=1) & (first > 0)
    i = np.maximum(first, 1)
    hi_v = np.take_along_axis(samples, i[:, None, :], axis=1)[:, 0]
    lo_v = np.take_along_axis(samples, (i - 1)[:, None, :], axis=1)[:, 0]
    f = (mid[:, None] - lo_v) / np.maximum(hi_v - lo_v, 1e-6)
    centre = (i - 1) / k + f / k                                        # mm from the first sample
    grid = np.linspace(-0.8, 0.8, int(1.6 * k) + 1)
    # each column resampled at grid + its centre (linear, clamped at the ends, as np.interp)
    p = np.clip((grid[None, None, :] + centre[:, :, None]) * k, 0, n - 1)
    i0 = np.minimum(np.floor(p).astype(int), n - 2)
    fr = p - i0
    cols_t = np.transpose(samples, (0, 2, 1))                           # (edges, cols, across)
    aligned = np.take_along_axis(cols_t, i0, axis=2) * (1 - fr) + np.take_along_axis(cols_t, i0 + 1, axis=2) * fr
    out = []
    for e in range(edges):
        if paper[e] - ink[e] < 10 or valid[e].sum() < 4:
            continue
        prof = np.median(aligned[e][valid[e]], axis=0)
        lo, hi = ink[e] + 0.1 * (paper[e] - ink[e]), ink[e] + 0.9 * (paper[e] - ink[e])
        a = np.nonzero(prof > lo)[0]
        b = np.nonzero(prof > hi)[0]
        if len(a) and len(b):
            out.append((max(0.0, (b[0] - a[0]) / k) / 2.563, float(ink[e]), float(paper[e]), e))
    return out


def measure_quality(gray: np.ndarray, loc: Location) -> Quality:
    """Blur and levels on the markers' edges (the photo's own pixels, resampled finely).

    The blur is the worse of two directions: the markers' edges along the page's width and
    those along its height, each the median of its own.  A shaken phone smears the page along
    one direction only: edges along it stay sharp, so one median of all edges (half of them
    sharp) would not see it; a pencil line across the shake is smeared all the same."""
    k = 20.0
    corners = list(loc.markers.corners) if loc.markers else []
    got = _spreads(_edge_profiles(gray, loc, corners, k), k) if corners else []
    if not got:
        return Quality(9.9, float(np.percentile(gray, 95)), float(np.percentile(gray, 5)))
    sigmas, inks, papers, edges = zip(*got)
    # _edge_profiles' order: each marker's top and bottom edges (along the width), then its left and right
    along_width = [sg for sg, e in zip(sigmas, edges) if e % 4 < 2]
    along_height = [sg for sg, e in zip(sigmas, edges) if e % 4 >= 2]
    per_direction = [float(np.median(d)) for d in (along_width, along_height) if d]
    return Quality(max(per_direction), float(np.median(papers)), float(np.median(inks)),
                   direction_mm=tuple(round(d, 3) for d in per_direction), soft_mm=float(np.median(sigmas)))


_PAGE_SIGMAS = np.array([0.0, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])    # px at half the page's resolution
_page_kept: dict = {}


def _template_energies(tmpl: np.ndarray) -> tuple:
    """(half-size template, its edge and plain masks, its gradient energy per direction and blur):
    worked out once per template (kept with the array: its id is its own while kept)."""
    hit = _page_kept.get(id(tmpl))
    if hit is not None and hit[0] is tmpl:
        return hit[1]
    t = cv2.resize(tmpl.astype(np.float32), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    gt = [cv2.Sobel(t, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(t, cv2.CV_32F, 0, 1, ksize=3)]
    # generous masks: the page found by its outline may sit a few pixels off the template
    edges = cv2.dilate(((np.abs(gt[0]) + np.abs(gt[1])) > 0.2).astype(np.uint8), np.ones((15, 15), np.uint8)) > 0
    plain = ~cv2.dilate(edges.astype(np.uint8), np.ones((15, 15), np.uint8)).astype(bool)
    blurred = [t] + [cv2.GaussianBlur(t, (0, 0), sg) for sg in _PAGE_SIGMAS[1:]]
    energy = [np.array([float(np.mean(g[edges] ** 2)) for g in (_directional(bt, d) for bt in blurred)])
              for d in range(4)]
    out = (t, edges, plain, energy, np.percentile(t, (2, 98)))
    if len(_page_kept) >= 16:
        _page_kept.clear()
    _page_kept[id(tmpl)] = (tmpl, out)
    return out


def _directional(img: np.ndarray, d: int) -> np.ndarray:
    """The gradient along the page's width (d 0), its height (1) and the two diagonals (2, 3)."""
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    return (gx, gy, (gx + gy) * np.float32(0.7071), (gx - gy) * np.float32(0.7071))[d]


def page_blur(rect: np.ndarray, tmpl: np.ndarray, k: float) -> tuple[float, ...] | None:
    """The photo's blur (sigma, mm) along the page's width, its height and its two diagonals
    (a shake smears one way: a shake along a diagonal blurs width and height alike), measured on
    the whole printed page: the rectified photo (rect, 0-255, k px a mm) against its template
    (tmpl, 0-1, the same pixels; a grey array kept for the run).

    The energy of the photo's gradient (its square's mean near the print's edges, the noise's
    share, measured on plain paper, taken off) against the template's blurred more and more:
    a blurred edge spreads the same step over more pixels, so its energy falls, and the sigma
    at which the template's matches the photo's is the photo's.  Levels are matched by the
    two's spreads of grey (nothing compares pixel with pixel).  Pencil adds a little energy
    (reads a little sharp); the camera's own resolution a little blur.  None: no print to tell."""
    t, edges, plain, energy, (t_lo, t_hi) = _template_energies(tmpl)
    r = cv2.resize(rect.astype(np.float32), (t.shape[1], t.shape[0]), interpolation=cv2.INTER_AREA)
    r_lo, r_hi = np.percentile(r, (2, 98))
    if r_hi - r_lo < 1.0 or t_hi - t_lo < 0.05 or not edges.any():
        return None
    a = (r_hi - r_lo) / (t_hi - t_lo)
    rn = ((r - (r_lo - a * t_lo)) / a).astype(np.float32)
    out = []
    for d, e in enumerate(energy):
        g = _directional(rn, d)
        noise = float(np.mean(g[plain] ** 2)) if plain.any() else 0.0
        seen = max(float(np.mean(g[edges] ** 2)) - noise, 1e-9)
        if seen >= e[0]:
            out.append(0.0)
            continue
        i = int(np.searchsorted(-e, -seen))
        if i >= len(_PAGE_SIGMAS):
            out.append(float(_PAGE_SIGMAS[-1]) / (k / 2))
            continue
        # energy falls with sigma: between two of them, linearly in its logarithm
        e0, e1 = np.log(e[i - 1]), np.log(e[i])
        f = (e0 - np.log(seen)) / max(e0 - e1, 1e-9)
        out.append(float(_PAGE_SIGMAS[i - 1] + f * (_PAGE_SIGMAS[i] - _PAGE_SIGMAS[i - 1])) / (k / 2))
    return tuple(out)


def check_quality(q: Quality, photo: str) -> None:
    if q.paper < MIN_PAPER or q.contrast < MIN_CONTRAST:
        raise _problem(f"too dark: the paper reads {q.paper:.0f}/255 and the ink-to-paper contrast is "
                       f"{q.contrast:.0f}/255", photo,
                       f"paper at least {MIN_PAPER}/255 and contrast at least {MIN_CONTRAST}/255 (more light, no flash glare)")
    if q.shake_mm > MAX_SHAKE_MM:
        raise _problem(f"too blurred: the phone moved while the photo was taken: the print is smeared over "
                       f"{q.shake_mm:.2f} mm of the page one way more than the other (sigma)", photo,
                       f"at most {MAX_SHAKE_MM:.2f} mm (hold the phone still: lean on the table, or use more light)")
    if q.blur_mm > MAX_BLUR_MM:
        shaken = len(q.direction_mm) == 2 and max(q.direction_mm) > 1.6 * max(min(q.direction_mm), 0.05)
        what = (f"too blurred: the phone moved: edges are spread over {max(q.direction_mm):.2f} mm of the page one "
                f"way and {min(q.direction_mm):.2f} mm the other (sigma)") if shaken else \
            f"too blurred: edges are spread over {q.blur_mm:.2f} mm of the page (sigma)"
        raise _problem(what, photo, f"at most {MAX_BLUR_MM:.2f} mm (hold the phone still, let it focus, or come closer)")


FIT_PX_PER_MM = 10.0                # the blur fit's view of a marker
FIT_BLURS_MM = np.arange(0.0, 1.5001, 0.025)
_FIT_PATTERNS: dict = {}


def _fit_patterns(mid: int) -> np.ndarray:
    """Marker mid as printed (its 1 mm quiet zone and 1 mm more of blank page around it), blurred
    by each of FIT_BLURS_MM, FIT_PX_PER_MM a mm: (blurs, pixels), zero mean, unit norm."""
    if mid not in _FIT_PATTERNS:
        k = FIT_PX_PER_MM
        m = _marker_printed(mid, 2, k)
        seen = np.stack([cv2.GaussianBlur(m, (0, 0), b * k, borderType=cv2.BORDER_REPLICATE) if b else m
                         for b in FIT_BLURS_MM]).reshape(len(FIT_BLURS_MM), -1)
        _FIT_PATTERNS[mid] = _unit_rows(seen)
    return _FIT_PATTERNS[mid]


def marker_blur_px(gray: np.ndarray, loc: Location, corner: str) -> float:
    """The photo's blur (sigma, photo pixels) on one marker found: the marker as printed (its id's
    pattern, known) blurred more and more until it looks most like the photo's (seen square on
    through loc), in mm, times the photo's pixels a mm there.  measure_quality's edge spreads
    read the border's 1 mm of black against the bits within, which a blur past about 0.4 mm
    greys: they stop growing near MAX_BLUR_MM, where the whole pattern still tells."""
    w, h = loc.size
    x, y, s, _ = SM.marker_box(w, h, corner)
    k = FIT_PX_PER_MM
    side = int(round((s + 4.0) * k))
    C = loc.H @ np.array([[1 / k, 0, x - 2.0 + 0.5 / k], [0, 1 / k, y - 2.0 + 0.5 / k], [0, 0, 1.0]])
    view = cv2.warpPerspective(gray, C, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32).ravel()
    view -= view.mean()
    match = _fit_patterns(SM.marker_id(*loc.layout, corner)) @ (view / max(float(np.linalg.norm(view)), 1e-9))
    i = int(np.argmax(match))
    blur = float(FIT_BLURS_MM[i])
    if 0 < i < len(match) - 1:             # the peak between the blurs tried: a parabola through three
        a, b, c = (float(v) for v in match[i - 1:i + 2])
        if a - 2 * b + c < 0:
            blur += 0.5 * (a - c) / (a - 2 * b + c) * float(FIT_BLURS_MM[1] - FIT_BLURS_MM[0])
    return max(0.0, blur) * loc.px_per_mm(x + s / 2, y + s / 2)


def check_blur_where_missing(gray: np.ndarray, loc: Location, missing: list[str], photo: str,
                             far_scale: bool = True) -> None:
    """InputError when the markers found show a photo too dark or too blurred (check_quality), or
    one too blurred where the missing markers are.  A camera's blur is about the same number of
    photo pixels all over the frame (a shake: exactly), but a corner further from the camera is
    smaller in the photo, so the same pixels spread its print over more mm: the blur fitted on
    the markers found (marker_blur_px, their median) is taken to each missing marker at the
    scale the page has there (not far_scale: the found markers' own), and held to the reader's
    limit, MAX_BLUR_MM.  Missing markers whose print is sharper than that are not lost to blur."""
    check_quality(measure_quality(gray, loc), photo)
    w, h = loc.size
    found = [c for c in SM.CORNERS if c not in missing]
    blur_px = float(np.median([marker_blur_px(gray, loc, c) for c in found]))
    there = {}
    for corner in (missing if far_scale else found):
        x, y, s, _ = SM.marker_box(w, h, corner)
        there[corner] = blur_px / loc.px_per_mm(x + s / 2, y + s / 2)
    if not far_scale:
        there = dict.fromkeys(missing, max(there.values()))
    blurred = [c for c in missing if there[c] > MAX_BLUR_MM]
    if blurred:
        names = " and ".join(blurred) if len(blurred) < 3 else f"{', '.join(blurred[:-1])} and {blurred[-1]}"
        raise _problem(f"too blurred to find the {names} corner marker{'s' if len(blurred) > 1 else ''}: the "
                       f"print there is spread over {max(there[c] for c in blurred):.2f} mm of the page (sigma, "
                       f"{blur_px:.1f} px measured on the marker{'s' if len(found) > 1 else ''} found)", photo,
                       f"at most {MAX_BLUR_MM:.2f} mm (hold the phone still, let it focus, or come closer)")


def check_one_marker(gray: np.ndarray, markers: Markers, photo: str) -> None:
    """check_blur_where_missing with the one marker found: its own four corners put the page
    around it (the other corners' scale unknown, as far from it: its own taken)."""
    (corner, quad), = markers.corners.items()
    w, h = SM.page_size(*markers.layout)
    try:
        H, err = _homography(SM.marker_corners(w, h, corner), quad)
    except ValueError:                  # a marker seen as a line: nothing to measure on
        return
    loc = Location(H, (w, h), markers.layout, markers, err, "markers")
    check_blur_where_missing(gray, loc, markers.missing, photo, far_scale=False)


def _photo_gradients(gray: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray, float]:
    """(2 % and 98 % grey levels, x and y gradients, scale) of a copy at most 1200 pixels big."""
    scale = min(1.0, 1200 / max(gray.shape))
    work = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32)
    lo, hi = np.percentile(work, 2), np.percentile(work, 98)
    gx = cv2.Sobel(work, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(work, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    return float(lo), float(hi), gx, gy, scale


def whole_photo_quality(gray: np.ndarray) -> tuple[float, float, float]:
    """(paper level, contrast, edge spread in pixels) of a photo without markers: to say why
    nothing was found."""
    lo, hi, gx, gy, scale = _photo_gradients(gray)
    g = np.percentile(np.hypot(gx, gy), 99.7)
    spread = (hi - lo) / max(g, 1e-3) / 2.5066 / scale
    return float(hi), float(hi - lo), float(spread)


def whole_photo_smear(gray: np.ndarray) -> tuple[float, float]:
    """(most, least) edge spread in pixels over four directions (0, 45, 90, 135 degrees): each
    from the steepest edges across that direction, as whole_photo_quality from all of them.  A
    shaken phone smears the photo one way only: the steepest edges of all are then those along
    the shake, sharp, and whole_photo_quality does not see it; across it they are spread."""
    lo, hi, gx, gy, scale = _photo_gradients(gray)
    spreads = []
    for angle in (0.0, 45.0, 90.0, 135.0):
        a = np.radians(angle)
        g = np.percentile(np.abs(gx * np.float32(np.cos(a)) + gy * np.float32(np.sin(a))), 99.7)
        spreads.append((hi - lo) / max(g, 1e-3) / 2.5066 / scale)
    return float(max(spreads)), float(min(spreads))


def qr_crop(gray: np.ndarray, loc: Location, k: float, pad: float) -> tuple[np.ndarray, tuple]:
    """The QR code's square (and pad mm around it) warped from the photo at k px a mm."""
    w, h = loc.size
    qx, qy, qs, _ = SM.qr_box(w, h)
    side = int(round((qs + 2 * pad) * k))
    src = np.float32([[qx - pad, qy - pad], [qx + qs + pad, qy - pad], [qx + qs + pad, qy + qs + pad],
                      [qx - pad, qy + qs + pad]])
    M = cv2.getPerspectiveTransform(np.float32([[0, 0], [side, 0], [side, side], [0, side]]),
                                    loc.to_photo(src).astype(np.float32))
    crop = cv2.warpPerspective(gray, M, (side, side), flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    return crop, (qx - pad, qy - pad)


def _clean_code(bits: np.ndarray, k: int = 4, quiet: int = 4) -> np.ndarray:
    n = bits.shape[0]
    img = np.full((n + 2 * quiet, n + 2 * quiet), 255, np.uint8)
    img[quiet:quiet + n, quiet:quiet + n] = np.where(bits, 0, 255)
    return cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST)


_QR_DETECTOR = None


def _decode_bits(bits: np.ndarray) -> str | None:
    """The text of a QR code's modules (True dark), drawn cleanly and decoded where its corners
    are known (no search); None when its error correction cannot mend them."""
    global _QR_DETECTOR
    if _QR_DETECTOR is None:
        _QR_DETECTOR = cv2.QRCodeDetector()
    k, q, n = 4, 4, bits.shape[0]
    corners = np.float32([[q, q], [q + n, q], [q + n, q + n], [q, q + n]]).reshape(1, 4, 2) * k
    try:
        return _QR_DETECTOR.decode(_clean_code(bits, k, q), corners)[0] or None
    except cv2.error:
        return None


def _erf(x: np.ndarray) -> np.ndarray:
    """erf, vectorised (Abramowitz and Stegun 7.1.26: within 1.5e-7)."""
    s, a = np.sign(x), np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    return s * (1.0 - poly * np.exp(-a * a))


def module_footprints(t: np.ndarray, n: int, sigma: float) -> np.ndarray:
    """(samples, modules): how much of module i (one unit wide, from i to i + 1) a sample at
    t sees through a Gaussian blur of sigma modules."""
    i = np.arange(n)[None, :]
    sg = max(sigma, 0.05) * np.sqrt(2.0)
    return 0.5 * (_erf((t[:, None] - i) / sg) - _erf((t[:, None] - i - 1) / sg))


def function_modules(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(known, dark): the modules every QR code of n modules has fixed (finders with their white
    separators, timing rows, version 2+'s alignment pattern, the dark module)."""
    known = np.zeros((n, n), bool)
    dark = np.zeros((n, n), bool)
    finder = np.ones((7, 7), bool)
    finder[1:6, 1:6] = False
    finder[2:5, 2:5] = True
    for r, c in ((0, 0), (0, n - 7), (n - 7, 0)):
        known[max(0, r - 1):r + 8, max(0, c - 1):c + 8] = True
        dark[r:r + 7, c:c + 7] = finder
    timing = np.arange(8, n - 8) % 2 == 0
    known[6, 8:n - 8] = known[8:n - 8, 6] = True
    dark[6, 8:n - 8] = dark[8:n - 8, 6] = timing
    if n >= 25:
        a = n - 7
        align = np.ones((5, 5), bool)
        align[1:4, 1:4] = False
        align[2, 2] = True
        known[a - 2:a + 3, a - 2:a + 3] = True
        dark[a - 2:a + 3, a - 2:a + 3] = align
    known[n - 8, 8] = dark[n - 8, 8] = True
    return known, dark


def _finder(m: float, k: float, blur_px: float = 0.0) -> np.ndarray:
    """A QR finder pattern with its one-module white ring, m mm a module, at k px a mm, blurred
    as the photo is."""
    mod = np.ones((9, 9), np.float32)
    mod[1:8, 1:8] = 0.0
    mod[2:7, 2:7] = 1.0
    mod[3:6, 3:6] = 0.0
    size = int(round(9 * m * k))
    out = cv2.resize(mod, (size, size), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(out, (0, 0), blur_px, borderType=cv2.BORDER_REPLICATE) if blur_px > 0.3 else out


def _peak(score: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """A correlation peak to a fraction of a pixel (a parabola through it and its neighbours)."""
    def offset(a, b, c):
        d = a - 2 * b + c
        return 0.0 if abs(d) < 1e-9 else float(np.clip(0.5 * (a - c) / d, -0.5, 0.5))
    dx = offset(score[y, x - 1], score[y, x], score[y, x + 1]) if 0 < x < score.shape[1] - 1 else 0.0
    dy = offset(score[y - 1, x], score[y, x], score[y + 1, x]) if 0 < y < score.shape[0] - 1 else 0.0
    return x + dx, y + dy


def finders_found(src, box, origin, k, n, blur_mm, reach):
    """Where a code of n modules has its three finder patterns in the crop: each one's shift
    (mm) from where the homography puts it, and its match (0..1); None when the crop is short."""
    qx, qy, qs = box
    ox, oy = origin
    m = qs / n
    tmpl = _finder(m, k, blur_mm * k) * 255
    found = []
    for i, j in ((0, 0), (n - 7, 0), (0, n - 7)):
        # the finder's ring's top-left corner, expected at module (i - 1, j - 1)
        ex, ey = (qx + (i - 1) * m - ox) * k, (qy + (j - 1) * m - oy) * k
        r = int(reach * k)
        x0, y0 = int(max(0, ex - r)), int(max(0, ey - r))
        window = src[y0:int(ey + r) + tmpl.shape[0], x0:int(ex + r) + tmpl.shape[1]]
        if window.shape[0] < tmpl.shape[0] + 2 or window.shape[1] < tmpl.shape[1] + 2:
            return None
        score = cv2.matchTemplate(window, tmpl, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(score)
        sx, sy = _peak(score, bx, by)
        found.append(((x0 + sx - ex) / k, (y0 + sy - ey) / k, best))
    return found


def grid_darkness(src: np.ndarray, found, box: tuple, origin: tuple, k: float, n: int,
                  per_module: int = 4, quiet: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(t, darkness): the code's n x n grid and its quiet zone sampled per_module times a module
    (t: the module coordinate of each sample, one axis), each sample's darkness against the paper
    fitted as a plane on the quiet ring.  Module coordinates (u, v) -> crop pixels: the
    homography's grid, moved and sheared by the finders' shifts (d0 at the first, growing
    linearly to the other two)."""
    qx, qy, qs = box
    m = qs / n
    d0 = np.array(found[0][:2])
    di = (np.array(found[1][:2]) - d0) / (n - 7)
    dj = (np.array(found[2][:2]) - d0) / (n - 7)
    t = (np.arange((n + 2 * quiet) * per_module) + 0.5) / per_module - quiet
    uu, vv = np.meshgrid(t, t)
    xs = ((qx - origin[0] + d0[0]) + uu * (m + di[0]) + vv * dj[0]) * k - 0.5
    ys = ((qy - origin[1] + d0[1]) + uu * di[1] + vv * (m + dj[1])) * k - 0.5
    seen = cv2.remap(src, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    ring = (uu < -0.3) | (uu > n + 0.3) | (vv < -0.3) | (vv > n + 0.3)
    plane = np.stack([np.ones(int(ring.sum())), uu[ring], vv[ring]], axis=1)
    coef = np.linalg.lstsq(plane, seen[ring], rcond=None)[0]
    paper = coef[0] + coef[1] * uu + coef[2] * vv
    return t, 1.0 - seen / np.maximum(paper, 1.0)


def read_qr_grid(gray: np.ndarray, loc: Location, blur_mm: float = 0.1, reach: float | None = None,
                 failed: set | None = None, most: int | None = None) -> str | None:
    """The QR code read module by module where the sheet drew it, for codes too small or soft
    for a detector to find (a module is 1.3 to 2 pixels in a 2 MP photo).

    Its three finder patterns are found near their places (which puts right what the
    homography has wrong there: lens distortion bends the page's bottom edge); the code and
    its quiet zone are sampled four times a module on that grid, the lighting levelled by
    the quiet zone around it; then the modules' darkness is solved for (least squares,
    separable: the photo's blur, measured on the corner markers, spreads each module over
    its neighbours, and this undoes it); the modules every code has fixed set the threshold;
    the bits, drawn again cleanly, are decoded (its error correction mends the modules read
    wrong).  Blur a little more and less than measured is tried when that fails.  None when
    no code's finders are where the sheet put them, '' when they are but it cannot be read.
    reach: how far (mm) from where the homography puts them the finders are looked for; None:
    qr_reach's first.  failed: the modules (as bytes) already given to the decoder in vain, skipped
    (the decoder would say the same), and those that fail here added.  most: '' once that many have
    failed (the rest left for a later call with the same failed)."""
    w, h = loc.size
    qx, qy, qs, _ = SM.qr_box(w, h)
    k = 10.0
    if reach is None:
        reach = qr_reach(loc)[0]
    crop, origin = qr_crop(gray, loc, k, reach + 1.0)
    src = crop.astype(np.float32)
    candidates = []
    for n in (21, 25, 29):
        found = finders_found(src, (qx, qy, qs), origin, k, n, blur_mm, reach)
        if found and min(f[2] for f in found) >= 0.4:
            candidates.append((min(f[2] for f in found), n, found))
    if failed is None:
        failed = set()
    for _, n, found in sorted(candidates, reverse=True):
        m = qs / n
        t, darkness = grid_darkness(src, found, (qx, qy, qs), origin, k, n)
        known, dark = function_modules(n)
        for spread in (1.0, 1.3, 1.6, 0.75):
            F = module_footprints(t, n, spread * blur_mm / m)
            for ridge in (0.01, 0.003):
                P = np.linalg.solve(F.T @ F + ridge * np.eye(n), F.T)
                modules = P @ darkness @ P.T
                level = (np.median(modules[known & dark]) + np.median(modules[known & ~dark])) / 2
                bits = modules > level
                if bits.tobytes() in failed:
                    continue
                text = _decode_bits(bits)
                if text:
                    return text
                failed.add(bits.tobytes())
                if most is not None and len(failed) >= most:
                    return ""
    return "" if candidates else None


QR_REACH = 1.5          # mm: where four markers put the page, the finders are looked for this near
QR_REACH_FAR = 3.0      # mm: ... and then this far, as where a marker is missing (a page bent near its
                        # edge, where the code is, moves it past the first: 1.8 to 2.1 mm seen)


def qr_reach(loc: Location) -> tuple[float, ...]:
    """How far from where the homography puts them the code's finders are looked for, in turn: near
    first (a finder found at the edge of a wide search over a near one is likelier a look-alike), then far;
    three markers only: far at once (the homography is less sure far from them)."""
    return (QR_REACH, QR_REACH_FAR) if loc.markers is not None and not loc.markers.missing else (QR_REACH_FAR,)


def read_qr(gray: np.ndarray, loc: Location, blur_mm: float = 0.1, failed: set | None = None,
            most: int | None = None) -> str | None:
    """The QR code's text; else None or '' (nothing read): read module by module where the sheet
    drew it (read_qr_grid), its finders looked for near and then farther (qr_reach); when that
    reads nothing, its square warped at 16 px a mm is given to OpenCV's detector, which searches
    for it.  failed: the modules given to the decoder in vain (read_qr_grid), kept by the caller
    for a later call; most: '' once that many have failed, or when the grid reads nothing (the
    detector left for that later call: a code that does not decode at once seldom does, so the
    caller matches the modules to the sheets it could be first, then calls again for the rest)."""
    if failed is None:
        failed = set()          # a spread, ridge or reach that changes no module: not decoded again
    for reach in qr_reach(loc):
        text = read_qr_grid(gray, loc, blur_mm, reach, failed, most)
        if text or (most is not None and len(failed) >= most):
            return text
    if most is not None:
        return ""
    crop, _ = qr_crop(gray, loc, 16.0, SM.QUIET + 1.5)
    side = crop.shape[0]
    canvas = np.full((side + 40, side + 40), 255, np.uint8)
    canvas[20:20 + side, 20:20 + side] = crop
    try:
        return cv2.QRCodeDetector().detectAndDecode(canvas)[0] or None
    except cv2.error:
        return None


def rectify(gray: np.ndarray, loc: Location, shape: tuple[int, int]) -> np.ndarray:
    """The page flat: shape (rows, cols) pixels over the page's mm, sampled from the photo
    (halved first while the photo has more than twice the pixels a mm, against aliasing)."""
    w, h = loc.size
    rows, cols = shape
    kx, ky = cols / w, rows / h
    src = gray
    S = np.eye(3)
    ppm = loc.px_per_mm(w / 2, h / 2)
    while ppm / 2 >= max(kx, ky) * 1.15 and min(src.shape) > 400:
        src = cv2.pyrDown(src)
        S = np.diag([0.5, 0.5, 1.0]) @ S
        ppm /= 2
    # output pixel (u, v) is page mm ((u + 0.5) / kx, (v + 0.5) / ky) (the template's pixel
    # centres) -> photo pixel through H, then through the halvings
    M = S @ loc.H @ np.diag([1.0 / kx, 1.0 / ky, 1.0]) @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1.0]])
    return cv2.warpPerspective(src, M, (cols, rows), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)

"""The marks that let `sheetgen scan` read a photo of a printed sheet: four corner
markers and a QR code with the sheet's identity, as vector items of the drawing
model (so PDF, SVG and PNG agree).

Where they go (the sheets keep these places free):
- four square markers of MARKER mm, their outer corners at INSET mm from the page's
  corners, quiet zones included inside the CORNER_ZONE squares the sheets leave empty
  (sheetgen.draw.furniture): 4x4 ArUco markers (OpenCV's DICT_4X4_50), whose ids say
  which corner a marker is and the page's paper and orientation (`marker_id`), so a
  photo can be rectified before anything is read;
- the QR code, QR mm square, centred in the bottom band below the sheet (which ends
  CORNER_ZONE above the bottom edge), between the footer text and the calibration ruler
  and clear of the cut lines of the three-up character sheets.
`reserved_boxes(width, height)` lists these squares (with their white quiet zones).

The identity (`SheetIdentity`) is the definition (a built-in name, or `$` and a
content hash of a custom file), the options that change what is printed where
(paper, game options such as columns/rows/hero, the seed, grayscale), the page
of a several-page document and the format version, written in QR alphanumeric
characters: `SG1/ANCIENT-STORY/A4/S1/HKAEL`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .model import Group, Rect, Style

FORMAT = 1                      # the identity's format version
MARKER = 6.0                    # mm: the side of a corner marker (6 x 6 cells of the ArUco pattern)
INSET = 7.5                     # mm from the page edge to a marker's outer corner (quiet zone within 15 mm)
QUIET = 1.0                     # mm of white around a marker and the QR code
QR = 11.0                       # mm: the QR code's modules (version 1 or 2: 21 or 25 modules)
QR_BOTTOM = 5.2                 # mm from the bottom edge to the QR code's modules (PRINTER_MARGIN and 0.2: printers leave 4.2-5 mm blank)
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
LAYOUTS = (("a4", "portrait"), ("a4", "landscape"), ("letter", "portrait"), ("letter", "landscape"))
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
INK = "#000000"
WHITE = Style(stroke=None, fill="#ffffff")
BLACK = Style(stroke=None, fill=INK)

# The inner 4x4 bits (row by row, 1 = white) of markers 0..15 of OpenCV's DICT_4X4_50,
# so the printed marks need no OpenCV (the scanner's detector reads them).
ARUCO_4X4 = (
    "1011010100110010", "0000111110011010", "0011001100101101", "1001100101000110",
    "0101010010011110", "0111100111001101", "1001111000101110", "1100010011110010",
    "1111111011011010", "1100111101010110", "1111100110010001", "0001000110100111",
    "0000111010110111", "0010101000001111", "0010010010110001", "0010011000111110",
)


def paper_of(width: float, height: float) -> tuple[str, str] | None:
    """(paper, orientation) of a page size in mm, or None for a size that is neither A4 nor Letter."""
    for paper, (w, h) in PAPERS.items():
        if abs(min(width, height) - w) < 0.6 and abs(max(width, height) - h) < 0.6:
            return paper, ("landscape" if width > height else "portrait")
    return None


def marker_id(paper: str, orientation: str, corner: str) -> int:
    return 4 * LAYOUTS.index((paper, orientation)) + CORNERS.index(corner)


def layout_of_marker(mid: int) -> tuple[str, str, str] | None:
    """(paper, orientation, corner) a marker id stands for; None for an id sheetgen never prints."""
    if not 0 <= mid < 4 * len(LAYOUTS):
        return None
    paper, orientation = LAYOUTS[mid // 4]
    return paper, orientation, CORNERS[mid % 4]


def page_size(paper: str, orientation: str) -> tuple[float, float]:
    w, h = PAPERS[paper]
    return (h, w) if orientation == "landscape" else (w, h)


def marker_box(width: float, height: float, corner: str) -> tuple[float, float, float, float]:
    """(x, y, w, h) of a corner marker on a page of width x height mm."""
    x = INSET if "left" in corner else width - INSET - MARKER
    y = INSET if "top" in corner else height - INSET - MARKER
    return (x, y, MARKER, MARKER)


def marker_corners(width: float, height: float, corner: str) -> list[tuple[float, float]]:
    """The marker's four corners in ArUco's order (its own top-left, top-right, bottom-right,
    bottom-left: the page's, as printed upright)."""
    x, y, s, _ = marker_box(width, height, corner)
    return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]


def qr_box(width: float, height: float) -> tuple[float, float, float, float]:
    """(x, y, w, h) of the QR code's modules."""
    x = (width - QR) / 2
    y = height - QR_BOTTOM - QR
    return (x, y, QR, QR)


def reserved_boxes(width: float, height: float) -> dict[str, tuple[float, float, float, float]]:
    """The squares the marks take (quiet zones included), by name: what a sheet keeps free."""
    out = {}
    for corner in CORNERS:
        x, y, w, h = marker_box(width, height, corner)
        out[f"scan-marker-{corner}"] = (x - QUIET, y - QUIET, w + 2 * QUIET, h + 2 * QUIET)
    x, y, w, h = qr_box(width, height)
    out["scan-qr"] = (x - QUIET, y - QUIET, w + 2 * QUIET, h + 2 * QUIET)
    return out


# -- the identity ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetIdentity:
    """Which sheet a page is: enough to compose the very same page again."""
    definition: str                             # a built-in name, or '$' + content hash of a custom file
    paper: str = "a4"
    seed: int = 1
    grayscale: bool = False
    options: tuple[tuple[str, str], ...] = ()   # game options given (name, value as text), sorted
    page: int = 1                               # 1-based page of the document
    version: int = FORMAT

    @property
    def custom(self) -> bool:
        return self.definition.startswith("$")

    def encode(self) -> str:
        parts = [f"SG{self.version}", self.definition.upper(), "A4" if self.paper == "a4" else "LT", f"S{self.seed}"]
        if self.grayscale:
            parts.append("G")
        if self.page != 1:
            parts.append(f"P{self.page}")
        for name, value in self.options:
            parts.append(f"{OPTION_LETTERS.get(name, name.upper() + ':')}{str(value).upper()}")
        return "/".join(parts)

    @classmethod
    def decode(cls, text: str) -> "SheetIdentity":
        """The identity a QR code holds; ValueError for text sheetgen did not write."""
        parts = text.strip().split("/")
        if len(parts) < 4 or not parts[0].startswith("SG") or not parts[0][2:].isdigit():
            raise ValueError(f"not a sheetgen sheet code: {text[:40]!r}")
        version = int(parts[0][2:])
        if version != FORMAT:
            raise ValueError(f"sheet code format {version} (this sheetgen reads format {FORMAT})")
        definition = parts[1].lower() if not parts[1].startswith("$") else parts[1]
        paper = {"A4": "a4", "LT": "letter"}.get(parts[2])
        if paper is None or not parts[3].startswith("S"):
            raise ValueError(f"not a sheetgen sheet code: {text[:40]!r}")
        seed = int(parts[3][1:])
        grayscale, page, options = False, 1, []
        letters = {v: k for k, v in OPTION_LETTERS.items()}
        for part in parts[4:]:
            if part == "G":
                grayscale = True
            elif part.startswith("P") and part[1:].isdigit():
                page = int(part[1:])
            elif ":" in part:
                name, _, value = part.partition(":")
                options.append((name.lower(), value.lower()))
            elif part[:1] in letters:
                options.append((letters[part[:1]], part[1:].lower()))
            else:
                raise ValueError(f"unknown part {part!r} in the sheet code {text[:40]!r}")
        return cls(definition, paper, seed, grayscale, tuple(sorted(options)), page, version)

    def describe(self) -> str:
        opts = "".join(f", {k} {v}" for k, v in self.options)
        page = f", page {self.page}" if self.page != 1 else ""
        name = f"a custom sheet (content hash {self.definition[1:]})" if self.custom else self.definition
        return f"{name} on {self.paper}{opts}, seed {self.seed}{', grayscale' if self.grayscale else ''}{page}"


# one letter each for the game options sheets take today (others are written NAME:VALUE)
OPTION_LETTERS = {"hero": "H", "columns": "C", "rows": "R"}


def content_hash(data: bytes) -> str:
    """The '$' definition of a custom file: the first 10 hex digits of its SHA-256, upper case."""
    return "$" + hashlib.sha256(data).hexdigest()[:10].upper()


# -- the drawing ---------------------------------------------------------------------------
def aruco_marker(mid: int, x: float, y: float, size: float = MARKER) -> list:
    """Marker mid of DICT_4X4_50 at (x, y): a black square of 6 x 6 cells, white inner bits
    drawn as runs of cells (fewer items), on a white quiet zone."""
    cell = size / 6.0
    bits = ARUCO_4X4[mid]
    items = [Rect(x - QUIET, y - QUIET, size + 2 * QUIET, size + 2 * QUIET, WHITE),
             Rect(x, y, size, size, BLACK)]
    for row in range(4):
        col = 0
        while col < 4:
            if bits[row * 4 + col] == "1":
                start = col
                while col < 4 and bits[row * 4 + col] == "1":
                    col += 1
                items.append(Rect(x + (1 + start) * cell, y + (1 + row) * cell, (col - start) * cell, cell, WHITE))
            else:
                col += 1
    return items


def qr_items(text: str, x: float, y: float, size: float = QR) -> list:
    """The QR code of text with its modules filling (x, y, size, size), on a white quiet zone:
    one rect per horizontal run of dark modules."""
    import segno
    code = segno.make_qr(text, error="l")     # the smallest version; segno boosts the error level
    matrix = [list(row) for row in code.matrix]
    n = len(matrix)
    m = size / n
    items = [Rect(x - QUIET, y - QUIET, size + 2 * QUIET, size + 2 * QUIET, WHITE)]
    for r, row in enumerate(matrix):
        c = 0
        while c < n:
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                items.append(Rect(x + start * m, y + r * m, (c - start) * m, m, BLACK))
            else:
                c += 1
    return items


def scan_marks(width: float, height: float, identity: SheetIdentity) -> Group | None:
    """The four markers and the QR code of a page (None for a page neither A4 nor Letter)."""
    layout = paper_of(width, height)
    if layout is None:
        return None
    items: list = []
    for corner in CORNERS:
        x, y, _, _ = marker_box(width, height, corner)
        items.append(Group(tuple(aruco_marker(marker_id(*layout, corner), x, y)), id=f"scan-marker-{corner}",
                           cls="scan-marker"))
    qx, qy, qs, _ = qr_box(width, height)
    items.append(Group(tuple(qr_items(identity.encode(), qx, qy, qs)), id="scan-qr", cls="scan-qr"))
    return Group(tuple(items), id="scan-marks", cls="scan-marks")

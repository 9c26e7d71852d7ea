"""The bundled fonts (TrueType outlines, embedded in every PDF) and text metrics.

Composers measure text here to wrap and fit it; back ends look up the files.
Metrics come from FreeType through Pillow, loaded lazily and cached.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .errors import InputError, Problem, did_you_mean
from .paths import fonts_dir

FONT_FILES = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
    "mono": "DejaVuSansMono.ttf",
    "serif": "EBGaramond12-Regular.ttf",
    "serif-bold": "EBGaramond12-Bold.ttf",
    "serif-italic": "EBGaramond12-Italic.ttf",
}
FAMILIES = tuple(FONT_FILES)

_MEASURE_SIZE = 200  # px at which we measure; widths scale linearly


def check_font(name: str) -> None:
    if name not in FONT_FILES:
        raise InputError(Problem(f"unknown font '{name}'", expected="one of " + ", ".join(FAMILIES),
                                 suggestion=did_you_mean(name, FAMILIES)))


def font_path(name: str) -> Path:
    check_font(name)
    path = fonts_dir() / FONT_FILES[name]
    if not path.is_file():
        raise InputError(Problem(f"font file for '{name}' is missing", str(path)))
    return path


@lru_cache(maxsize=None)
def _pil_font(name: str):
    from PIL import ImageFont
    return ImageFont.truetype(str(font_path(name)), _MEASURE_SIZE)


@lru_cache(maxsize=4096)
def _width_units(text: str, font: str) -> float:
    return _pil_font(font).getlength(text) / _MEASURE_SIZE


def text_width(text: str, font: str = "sans", size: float = 10.0) -> float:
    """Advance width of text in mm at size points."""
    return _width_units(text, font) * size * 25.4 / 72.0


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap into lines no wider than width mm (a long word stays whole)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = words[0]
        for word in words[1:]:
            candidate = f"{line} {word}"
            if text_width(candidate, font, size) <= width:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def fit_size(text: str, font: str, size: float, width: float, minimum: float = 4.0) -> float:
    """The largest size <= size at which text fits in width mm (not below minimum)."""
    w = text_width(text, font, size)
    if w <= width or w == 0:
        return size
    return max(minimum, size * width / w)


@lru_cache(maxsize=4096)
def _ink_units(text: str, font: str) -> tuple[float, float, float, float]:
    left, top, right, bottom = _pil_font(font).getbbox(text, anchor="ls")
    return left / _MEASURE_SIZE, top / _MEASURE_SIZE, right / _MEASURE_SIZE, bottom / _MEASURE_SIZE


def ink_box(text: str, font: str = "sans", size: float = 10.0) -> tuple[float, float, float, float]:
    """Where the glyphs of text put ink, in mm from its start point on the baseline:
    (left, top, right, bottom), y down (top is negative: above the baseline)."""
    mm = size * 25.4 / 72.0
    return tuple(v * mm for v in _ink_units(text, font))


# -- the faces the PDF back end embeds ------------------------------------------------------------

_NOT_CACHED = ("_ttf_data", "_pdfScale", "filename")     # the file itself, a function, where it is now


def _pdf_scale(units_per_em: int):
    """Font units to PDF's 1/1000 em, as reportlab's parser sets it."""
    if units_per_em == 1000:
        return lambda x: x
    mult = 1000 / units_per_em
    return lambda x: x * mult


@lru_cache(maxsize=None)
def pdf_face(name: str):
    """reportlab's parsed TrueType face of a family (metrics, character map, glyph
    places: what PDF subsetting needs).  Parsing is pure Python (tens of ms a font),
    so the parsed face is kept in the user cache, keyed by the font file's hash and
    reportlab's version; a missing or corrupt entry is parsed afresh."""
    import hashlib

    from reportlab import Version
    from reportlab.pdfbase.ttfonts import TTFontFace

    from .usercache import cached
    path = font_path(name)
    data = path.read_bytes()

    def parse() -> dict:
        face = TTFontFace(str(path))
        return {k: v for k, v in face.__dict__.items() if k not in _NOT_CACHED}

    state = cached("ttf-face", f"{hashlib.sha256(data).hexdigest()[:32]}-reportlab-{Version}", parse,
                   check=lambda s: isinstance(s, dict) and isinstance(s.get("charToGlyph"), dict)
                   and isinstance(s.get("unitsPerEm"), int))
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(state)
    face._ttf_data, face.filename = data, str(path)
    face._pdfScale = _pdf_scale(face.unitsPerEm)
    return face


def pdf_font(name: str, pdf_name: str):
    """A reportlab TTFont of the family, called pdf_name, over the cached face: what
    TTFont(pdf_name, path) makes, without parsing the file again."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFont
    font = TTFont.__new__(TTFont)
    font.fontName = pdf_name
    font.face = pdf_face(name)
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(pdf_name, glob) for glob in rl_config.unShapedFontGlob)
    return font


def glyph_codes(name: str) -> frozenset[int]:
    """The characters the family's font file has glyphs for."""
    return frozenset(pdf_face(name).charToGlyph)

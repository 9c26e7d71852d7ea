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

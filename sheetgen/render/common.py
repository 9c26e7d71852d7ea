"""What the three back ends share: colours (and the grayscale safety net),
font family names, file checks and output file names.  No heavy imports here."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..errors import InputError, Problem

# SVG font-family / weight / style per sheetgen.fonts family key.
SVG_FONTS = {
    "sans": ("DejaVu Sans", None, None),
    "sans-bold": ("DejaVu Sans", "bold", None),
    "condensed": ("DejaVu Sans Condensed", None, None),
    "condensed-bold": ("DejaVu Sans Condensed", "bold", None),
    "mono": ("DejaVu Sans Mono", None, None),
    "serif": ("EB Garamond", None, None),
    "serif-bold": ("EB Garamond", "bold", None),
    "serif-italic": ("EB Garamond", None, "italic"),
}
SVG_FALLBACK = {"DejaVu Sans": "sans-serif", "DejaVu Sans Condensed": "sans-serif",
                "DejaVu Sans Mono": "monospace", "EB Garamond": "serif"}

_NAMED = {"black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000",
          "blue": "#0000ff", "grey": "#808080", "gray": "#808080", "none": None}


@lru_cache(maxsize=1024)
def rgb(colour: str, grayscale: bool = False) -> tuple[int, int, int]:
    """'#rrggbb', '#rgb' or a CSS colour name -> (r, g, b) 0..255; grayscale
    maps it to its luminance grey (Rec. 601 weights, as a printer driver would)."""
    c = colour.strip().lower()
    if c in _NAMED and _NAMED[c]:
        c = _NAMED[c]
    if c.startswith("#") and len(c) == 7:
        r, g, b = int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
    elif c.startswith("#") and len(c) == 4:
        r, g, b = (int(ch * 2, 16) for ch in c[1:])
    else:
        from PIL import ImageColor   # the full CSS name list; rare path
        try:
            r, g, b = ImageColor.getrgb(c)[:3]
        except ValueError:
            raise InputError(Problem(f"unknown colour '{colour}'", expected="#rrggbb or a colour name")) from None
    if grayscale:
        y = round(0.299 * r + 0.587 * g + 0.114 * b)
        return (y, y, y)
    return (r, g, b)


@lru_cache(maxsize=1024)
def hex_colour(colour: str, grayscale: bool = False) -> str:
    return "#%02x%02x%02x" % rgb(colour, grayscale)


def check_image(path: str) -> Path:
    """The image file, or an InputError naming it."""
    p = Path(path)
    if not p.is_file():
        raise InputError(Problem("image file not found", str(p)))
    return p


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(name: str) -> str:
    """A file-name-safe version of a page or document name."""
    return _UNSAFE.sub("-", name).strip("-.") or "page"


def page_file_name(doc_name: str, index: int, page_name: str, ext: str) -> str:
    """<doc>-<NN>-<page>.<ext>, NN counting from 01."""
    return f"{safe_name(doc_name)}-{index + 1:02d}-{safe_name(page_name)}.{ext}"


# Where a bundled font lacks a glyph (the EB Garamond bold file covers ASCII
# only) the character is drawn from the DejaVu face of the same weight.
FALLBACK_FONT = {"serif": "sans", "serif-bold": "sans-bold", "serif-italic": "sans",
                 "condensed": "sans", "condensed-bold": "sans-bold", "mono": "sans",
                 "sans-bold": "sans"}


@lru_cache(maxsize=None)
def _charset(font: str) -> frozenset[int]:
    from ..fonts import glyph_codes
    return glyph_codes(font)


@lru_cache(maxsize=4096)
def text_runs(font: str, text: str) -> tuple[tuple[str, str], ...]:
    """text split into (font, chunk) runs, each chunk drawn by a font that has its glyphs."""
    if text.isascii():              # every bundled font covers ASCII
        return ((font, text),)
    runs: list[list[str]] = []
    for ch in text:
        f = font
        while ord(ch) not in _charset(f) and f in FALLBACK_FONT:
            f = FALLBACK_FONT[f]
        if ord(ch) not in _charset(f):
            f = font                # nobody has it: let the first choice draw its .notdef
        if runs and runs[-1][0] == f:
            runs[-1][1] += ch
        else:
            runs.append([f, ch])
    return tuple((f, s) for f, s in runs)


@lru_cache(maxsize=64)
def grey_image_png(path: str) -> bytes:
    """The image at path converted to luminance grey (keeping alpha), as PNG bytes."""
    import io
    from PIL import Image
    p = check_image(path)
    try:
        with Image.open(p) as im:
            im.load()
            grey = im.convert("LA") if "A" in im.getbands() or "transparency" in im.info else im.convert("L")
    except OSError as exc:
        raise InputError(Problem(f"cannot read image: {exc}", str(p))) from None
    buf = io.BytesIO()
    grey.save(buf, "PNG")
    return buf.getvalue()


def dash_of(style) -> tuple[float, ...] | None:
    """The style's dash pattern, or None for a solid line (an all-zero pattern is solid)."""
    dash = style.dash
    return dash if dash and sum(dash) > 0 else None

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
_SMALLEST = "serif-bold"          # 128 glyphs: pdf_font makes its fonts over this one

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
#
# Parsing a TrueType file is pure Python (several ms a font), so the parsed face is kept in
# the user cache.  A cached face is put back into a TTFontFace without parsing: that is the one
# use of reportlab's internals here, and it is checked against the public parse of the same
# reportlab version when the entry is made (the entry's name holds the version): where the
# restored face would differ from the parsed one, the entry says so and every run parses
# the file as reportlab does.  Fonts are made by reportlab's public constructor (pdf_font).
# Works with reportlab 4.0 (the declared floor) to 5.1, both tested.

_REBUILT = ("_ttf_data", "filename", "_pdfScale")     # the file itself, where it is now, a function


def _pdf_scale(units_per_em: int):
    """Font units to PDF's 1/1000 em, as newer reportlabs' parser sets it."""
    if units_per_em == 1000:
        return lambda x: x
    mult = 1000 / units_per_em
    return lambda x: x * mult


def _restored(entry: dict, data: bytes, path: Path):
    """The TTFontFace of a cache entry, or None where the entry says it cannot be restored."""
    from reportlab.pdfbase.ttfonts import TTFontFace
    if entry.get("state") is None:
        return None
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(entry["state"])
    rebuilt = {"_ttf_data": data, "filename": str(path)}
    if "_pdfScale" in entry["rebuilt"]:
        rebuilt["_pdfScale"] = _pdf_scale(face.unitsPerEm)
    for k in entry["rebuilt"]:
        setattr(face, k, rebuilt[k])
    return face


def _same_face(face, fresh) -> bool:
    """Whether a restored face is the freshly parsed one (the scale function by its values)."""
    if face is None or set(vars(face)) != set(vars(fresh)):
        return False
    scale = getattr(fresh, "_pdfScale", None)
    if scale is not None and [face._pdfScale(v) for v in (0, 1, 977, 2048)] != [scale(v) for v in (0, 1, 977, 2048)]:
        return False
    return all(v is getattr(face, k) or v == getattr(face, k) for k, v in vars(fresh).items() if k != "_pdfScale")


def _parse(path: Path, data: bytes) -> tuple[dict, object]:
    """(the cache entry, the parsed face): the face's state, the attributes made afresh on
    restoring, and no state at all where restoring would not give the parsed face back."""
    import pickle

    from reportlab.pdfbase.ttfonts import TTFontFace
    fresh = TTFontFace(str(path))
    state, rebuilt = {}, []
    for k, v in vars(fresh).items():
        if k in _REBUILT:
            rebuilt.append(k)
            continue
        state[k] = v
    entry = {"state": state, "rebuilt": rebuilt}
    try:
        pickle.dumps(state)
    except Exception:           # noqa: BLE001 - something this reportlab keeps cannot be stored
        entry["state"] = None
    if entry["state"] is not None and not _same_face(_restored(entry, data, path), fresh):
        entry["state"] = None
    return entry, fresh


@lru_cache(maxsize=None)
def pdf_face(name: str):
    """reportlab's parsed TrueType face of a family (metrics, character map, glyph
    places: what PDF subsetting needs), from the user cache where it can be (keyed by
    the font file's hash and reportlab's version); a missing or corrupt entry is parsed afresh."""
    import hashlib

    from reportlab import Version

    from .usercache import entry_path, store
    path = font_path(name)
    data = path.read_bytes()
    cache = entry_path("ttf-face", f"{hashlib.sha256(data).hexdigest()[:32]}-reportlab-{Version}")
    try:
        import pickle
        entry = pickle.loads(cache.read_bytes())
        if entry["state"] is None:          # this reportlab's faces cannot be restored: parse
            from reportlab.pdfbase.ttfonts import TTFontFace
            return TTFontFace(str(path))
        face = _restored(entry, data, path)
        if isinstance(face.charToGlyph, dict) and isinstance(face.unitsPerEm, int):
            return face
    except Exception:           # noqa: BLE001 - missing or corrupt: parse again
        pass
    entry, fresh = _parse(path, data)
    store(cache, entry)
    return fresh


# TTFont's own attributes besides its face, in reportlab 4.0 to 5.1: where a version sets
# others (made from the face, perhaps), the font is made by the public TTFont(name, path)
_FONT_ATTRIBUTES = {"fontName", "face", "encoding", "state", "_asciiReadable", "shapable", "_shapable"}


def pdf_font(name: str, pdf_name: str):
    """A reportlab TTFont of the family, called pdf_name, over the cached face: what
    TTFont(pdf_name, path) makes, without parsing the file again.  reportlab's public
    constructor makes the font (its name, encoding and settings, whatever the version
    does with them) over the smallest bundled file, an ASCII-only face parsed in well
    under a millisecond, and the family's face takes that one's place."""
    from reportlab.pdfbase.ttfonts import TTFont
    font = TTFont(pdf_name, str(font_path(_SMALLEST)))
    if set(vars(font)) <= _FONT_ATTRIBUTES:
        font.face = pdf_face(name)
        return font
    return TTFont(pdf_name, str(font_path(name)))
def glyph_codes(name: str) -> frozenset[int]:
    """The characters the family's font file has glyphs for."""
    return frozenset(pdf_face(name).charToGlyph)

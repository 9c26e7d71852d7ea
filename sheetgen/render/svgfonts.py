"""The fonts an SVG page carries with it: an @font-face per bundled face it uses, holding
a TrueType subset of only the glyphs the page draws, as a base64 data: URL.

Without them a browser on a computer without EB Garamond or DejaVu draws the text in
another face, wider or narrower than the one the page was measured with.  The subset is
made by reportlab's own subsetter (the one that embeds fonts in every PDF), with its
Macintosh-only character map replaced by a Windows Unicode one (format 4), which
browsers need to map text to glyphs.
"""
from __future__ import annotations

import base64
import struct
from functools import lru_cache

from ..draw.model import Text, walk
from ..fonts import check_font
from .common import FALLBACK_FONT, SVG_FALLBACK, SVG_FONTS, text_runs


def family_list(font: str) -> str:
    """The CSS font-family of a text in font: its face, then the faces text_runs falls back
    to for glyphs it lacks (their @font-face subsets hold those glyphs), then a generic family."""
    names: list[str] = []
    key: str | None = font
    while key is not None:
        family = SVG_FONTS[key][0]
        if family not in names:
            names.append(family)
        key = FALLBACK_FONT.get(key)
    return ", ".join(names + [SVG_FALLBACK[SVG_FONTS[font][0]]])


def used_characters(items) -> dict[str, frozenset[int]]:
    """font key -> the characters drawn in it (after the glyph fallback of text_runs)."""
    used: dict[str, set[int]] = {}
    for item, _ in walk(items):
        if type(item) is Text and item.text and item.fill is not None:
            check_font(item.font)               # an unknown font: the InputError naming it
            for font, chunk in text_runs(item.font, item.text):
                used.setdefault(font, set()).update(map(ord, chunk))
    return {k: frozenset(v) for k, v in used.items()}


def font_face_css(items) -> str:
    """The @font-face rules for the text among items ('' when there is none)."""
    rules = []
    for font, codes in sorted(used_characters(items).items()):
        rules.append(_face_rule(font, codes))
    return "".join(rules)


@lru_cache(maxsize=256)
def _face_rule(font: str, codes: frozenset[int]) -> str:
    family, weight, style = SVG_FONTS[font]
    data = base64.b64encode(subset_ttf(font, codes)).decode("ascii")
    return (f'@font-face{{font-family:"{family}";font-weight:{weight or "normal"};'
            f'font-style:{style or "normal"};src:url(data:font/ttf;base64,{data}) format("truetype")}}')


def subset_ttf(font: str, codes: frozenset[int]) -> bytes:
    """A TrueType file of the font's glyphs for codes (those it has; the basic plane only)."""
    from reportlab.pdfbase.ttfonts import TTFontMaker

    from ..fonts import pdf_face
    face = pdf_face(font)
    to_glyph = face.charToGlyph
    subset = sorted(c for c in codes if c in to_glyph and c <= 0xFFFF and c != 0xFFFF)
    stream = face.makeSubset(subset)
    # the glyph numbers makeSubset gives: .notdef first, then each new glyph in subset order
    new_of: dict[int, int] = {0: 0}
    cmap: dict[int, int] = {}
    for code in subset:
        old = to_glyph[code]
        if old not in new_of:
            new_of[old] = len(new_of)
        cmap[code] = new_of[old]
    maker = TTFontMaker()
    for tag, table in _tables(stream).items():
        maker.add(tag, _cmap_format4(cmap) if tag == "cmap" else _short_names(table) if tag == "name" else table)
    return maker.makeStream()


# the names kept: copyright, family, subfamily, unique id, full name, version, PostScript name,
# licence URL; the long description and the licence's whole text (half the subset) are left out
_NAMES_KEPT = {0, 1, 2, 3, 4, 5, 6, 14}


def _short_names(table: bytes) -> bytes:
    """The name table with only the _NAMES_KEPT records (format 0)."""
    fmt, count, start = struct.unpack(">3H", table[:6])
    if fmt != 0:
        return table
    records, strings = [], b""
    for i in range(count):
        platform, encoding, language, name_id, length, offset = struct.unpack(">6H", table[6 + 12 * i:18 + 12 * i])
        if name_id in _NAMES_KEPT:
            records.append((platform, encoding, language, name_id, length, len(strings)))
            strings += table[start + offset:start + offset + length]
    head = struct.pack(">3H", 0, len(records), 6 + 12 * len(records))
    return head + b"".join(struct.pack(">6H", *r) for r in records) + strings


def _tables(stream: bytes) -> dict[str, bytes]:
    count = struct.unpack(">H", stream[4:6])[0]
    out = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sLLL", stream[12 + 16 * i:28 + 16 * i])
        out[tag.decode("latin-1")] = stream[offset:offset + length]
    return out


def _cmap_format4(cmap: dict[int, int]) -> bytes:
    """A cmap table with one Windows Unicode BMP subtable (platform 3, encoding 1, format 4):
    a segment per run of consecutive codes with consecutive glyphs, then the 0xFFFF end."""
    segments: list[list[int]] = []          # [start, end, delta]
    for code, glyph in sorted(cmap.items()):
        delta = (glyph - code) % 0x10000
        if segments and segments[-1][1] == code - 1 and segments[-1][2] == delta:
            segments[-1][1] = code
        else:
            segments.append([code, code, delta])
    segments.append([0xFFFF, 0xFFFF, 1])
    n = len(segments)
    search = 1 << (n.bit_length() - 1)
    body = struct.pack(f">{n}H", *(s[1] for s in segments)) + b"\0\0"
    body += struct.pack(f">{n}H", *(s[0] for s in segments))
    body += struct.pack(f">{n}H", *(s[2] for s in segments))
    body += b"\0\0" * n                     # no glyph id arrays: every segment maps by delta
    header = struct.pack(">7H", 4, 14 + len(body), 0, 2 * n, 2 * search, search.bit_length() - 1,
                         2 * n - 2 * search)
    return struct.pack(">HHHHL", 0, 1, 3, 1, 12) + header + body

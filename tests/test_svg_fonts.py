"""SVG pages carry their fonts: an @font-face with a subset of each bundled face the page
uses, so a computer without EB Garamond or DejaVu shows the page as it was measured."""
import base64
import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from sheetgen.build import DEFAULT_PACK, compose_pack, load
from sheetgen.draw.model import Document, Page, Text
from sheetgen.draw.options import BuildOptions
from sheetgen.fonts import font_path
from sheetgen.render import render_svg_pages
from sheetgen.render.svgfonts import subset_ttf

FACE = re.compile(r'@font-face\{font-family:"([^"]+)";font-weight:(\w+);font-style:(\w+);'
                  r'src:url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\) format\("truetype"\)\}')
GENERIC = {"serif", "sans-serif", "monospace"}


def _faces(svg: str) -> dict[tuple[str, str, str], bytes]:
    root = ET.fromstring(svg)
    css = "".join(el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}style"))
    return {(f, w, s): base64.b64decode(data) for f, w, s, data in FACE.findall(css)}


def _used(svg: str) -> set[tuple[str, str, str]]:
    """(family, weight, style) of every text, each family of its font-family list, inherited from groups."""
    used = set()

    def visit(el, family, weight, style):
        family = el.get("font-family", family)
        weight = el.get("font-weight", weight)
        style = el.get("font-style", style)
        if el.tag.endswith("}text") and (el.text or "").strip():
            for name in family.split(","):
                if name.strip() not in GENERIC:
                    used.add((name.strip(), weight, style))
        for child in el:
            visit(child, family, weight, style)
    visit(ET.fromstring(svg), "", "normal", "normal")
    return used


@pytest.fixture(scope="module")
def pack_svgs():
    return render_svg_pages(compose_pack(load(DEFAULT_PACK), BuildOptions()))


def test_every_font_family_an_svg_page_uses_has_its_font_face(pack_svgs):
    for svg in pack_svgs:
        faces = _faces(svg)
        missing = _used(svg) - set(faces)
        # a fallback face (DejaVu Sans after EB Garamond) needs a face only where it draws a glyph
        missing = {m for m in missing if not any(f[0] == m[0] for f in faces) or m[0] != "DejaVu Sans"}
        assert _used(svg), "no text found"
        assert not missing, missing


def test_a_page_without_text_carries_no_fonts():
    svg = render_svg_pages(Document([Page(50, 50, [])]))[0]
    assert "@font-face" not in svg


def test_the_subset_draws_the_text_as_the_whole_font_does_and_is_small():
    text = "DUNGEON Foury \u00e9\u2014 d66"
    codes = frozenset(map(ord, text))
    for font in ("serif", "sans-bold", "condensed"):
        whole = font_path(font).read_bytes()
        small = subset_ttf(font, codes)
        assert len(small) < len(whole) / 5
        # glyph by glyph: the subset drops the kerning table (as the PDF's subsets do)
        for ch in set(text) - {" "}:
            images = []
            for data in (whole, small):
                img = Image.new("L", (80, 80), 255)
                ImageDraw.Draw(img).text((5, 60), ch, font=ImageFont.truetype(io.BytesIO(data), 48), anchor="ls")
                images.append(img)
            assert ImageChops.difference(*images).getbbox() is None, (font, ch)
            assert images[0].getextrema()[0] == 0       # something was drawn


def test_a_glyph_the_serif_bold_face_lacks_goes_to_the_sans_bold_subset():
    # the EB Garamond bold file covers ASCII only: the arrow comes from DejaVu Sans Bold
    svg = render_svg_pages(Document([Page(50, 50, [Text(5, 20, "Go \u2192", 12, font="serif-bold")])]))[0]
    faces = _faces(svg)
    assert set(faces) == {("EB Garamond", "bold", "normal"), ("DejaVu Sans", "bold", "normal")}
    arrow = ImageFont.truetype(io.BytesIO(faces[("DejaVu Sans", "bold", "normal")]), 40)
    assert arrow.getbbox("\u2192")[2] > 10
    assert 'font-family="EB Garamond, DejaVu Sans, serif"' in svg


def test_fonts_can_be_left_out_for_a_page_that_carries_them():
    doc = Document([Page(50, 50, [Text(5, 20, "Hall", 12, font="serif")])])
    assert "@font-face" in render_svg_pages(doc)[0]
    assert "@font-face" not in render_svg_pages(doc, embed_fonts=False)[0]

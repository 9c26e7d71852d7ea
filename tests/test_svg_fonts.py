"""SVG pages carry their fonts: an @font-face with a subset of each bundled face the page
uses, so a computer without EB Garamond or DejaVu shows the page as it was measured."""
import base64
import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageStat

from sheetgen.build import DEFAULT_PACK, compose_pack, load
from sheetgen.draw.model import Document, Page, Text
from sheetgen.draw.options import BuildOptions
from sheetgen.fonts import font_path
from sheetgen.render import render_pdf_bytes, render_svg_pages
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


@pytest.mark.browser
@pytest.mark.skipif(shutil.which("chromium") is None or shutil.which("pdftoppm") is None,
                    reason="needs Debian's chromium and poppler-utils (pdftoppm)")
def test_chromium_draws_the_svg_as_poppler_draws_the_pdf_without_our_fonts_installed(tmp_path):
    """The families renamed to names no computer has: only the SVG's own @font-face can draw
    them.  Chromium's picture of the SVG is then the PDF's (poppler, same 96 dpi), and far from
    the picture with the @font-face taken out (the fallback faces a browser would use)."""
    page = Page(120, 40, [Text(5, 14, "DUNGEON FOURY", 22, font="serif-bold"),
                          Text(5, 24, "The Ancient Story, an oracle and its four paths", 11, font="serif-italic"),
                          Text(5, 34, "Roll d6 \u00b7 3 wounds \u2192 flee", 11, font="condensed")])
    doc = Document([page])
    svg = render_svg_pages(doc)[0]
    for family in ("EB Garamond", "DejaVu Sans Condensed", "DejaVu Sans Mono", "DejaVu Sans"):
        svg = svg.replace(family, f"Nowhere{len(family)} {family.split()[-1]}")    # (no token may start with a digit)
    w, h = round(120 * 96 / 25.4), round(40 * 96 / 25.4)

    def shot(text: str, name: str) -> Image.Image:
        path, out = tmp_path / f"{name}.svg", tmp_path / f"{name}.png"
        path.write_text(text, encoding="utf-8")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={w},{h}", f"--screenshot={out}", path.as_uri()],
                       capture_output=True, timeout=120, check=False)
        return Image.open(out).convert("L")

    pdf = subprocess.run(["pdftoppm", "-r", "96", "-gray", "-"], input=render_pdf_bytes(doc),
                         capture_output=True, check=True).stdout
    poppler = Image.open(io.BytesIO(pdf)).convert("L")
    embedded, fallback = shot(svg, "embedded"), shot(svg.replace("@font-face", "@no-font-face"), "fallback")
    size = (0, 0, min(poppler.width, embedded.width), min(poppler.height, embedded.height))

    def difference(im: Image.Image) -> float:
        a, b = (x.crop(size).filter(ImageFilter.GaussianBlur(1.5)) for x in (poppler, im))
        return ImageStat.Stat(ImageChops.difference(a, b)).mean[0]
    # measured: 2.0 against 6.5 (grey levels, mean over the page)
    assert difference(embedded) < 3.0
    assert difference(embedded) < 0.5 * difference(fallback)

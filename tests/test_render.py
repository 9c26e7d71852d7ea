"""The three back ends: page sizes, text, fonts, reproducibility, ids, safety."""
from __future__ import annotations

import io
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader

from sheetgen.draw.model import (Box, Circle, Document, Group, Image, Line, Page, Path as PathItem, Polygon,
                                 Rect, Style, Text, compose, rotate, translate)
from sheetgen.errors import InputError
from sheetgen.render import (output_paths, render_document, render_pdf_bytes, render_png_pages,
                             render_svg_pages)

DATA = Path(__file__).parent / "data" / "render"
SVG_NS = "{http://www.w3.org/2000/svg}"

# the tests that read a PDF back as an image run where poppler's pdftoppm is installed
# (.ci/run installs poppler-utils); elsewhere they are skipped with this reason (-ra shows it)
needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                    reason="needs poppler's pdftoppm (Debian: poppler-utils)")


def sample_page(width=210.0, height=297.0, name="sample", label="Dungeon level 1") -> Page:
    grid = Group(tuple(Line(20 + 10 * i, 30, 20 + 10 * i, 130, id=f"col-{i}") for i in range(6)),
                 id="grid", cls="grid")
    page = Page(width, height, name=name)
    page.add(
        Text(width / 2, 20, label, size=14, font="serif-bold", anchor="middle", id="title"),
        grid,
        Rect(20, 140, 50, 20, Style(stroke="#aa0000", fill="#ffee00"), radius=3, id="box"),
        Circle(100, 150, 8, Style(fill="#0044cc"), id="dot"),
        Polygon(((120, 140), (140, 160), (160, 140)), Style(dash=(2, 1)), closed=False, id="zigzag"),
        PathItem((("M", 20, 170), ("C", 40, 160, 60, 180, 80, 170), ("L", 80, 180), ("Z",)),
                 Style(fill="#00aa00"), id="curve"),
        Group((Text(0, 0, "Turned", size=9, id="turned"),), transform=compose(translate(180, 60), rotate(90))),
        Text(width - 10, height - 10, "room 12", size=8, font="mono", anchor="end", id="room", cls="label"),
        Image(150, 30, 30, 15, str(DATA / "marker.png"), id="marker"),
    )
    return page


def sample_doc(**kw) -> Document:
    return Document([sample_page(**kw), sample_page(name="second", label="Second sheet")],
                    title="Render test", name="render-test", author="Tester")


# --- PDF -----------------------------------------------------------------------

@pytest.mark.parametrize("size, expected", [((210.0, 297.0), (595.28, 841.89)),
                                            ((215.9, 279.4), (612.0, 792.0)),
                                            ((100.0, 50.0), (283.46, 141.73))])
def test_pdf_page_size_is_exact(size, expected):
    doc = Document([sample_page(*size)], name="s")
    page = PdfReader(io.BytesIO(render_pdf_bytes(doc))).pages[0]
    assert float(page.mediabox.width) == pytest.approx(expected[0], abs=0.01)
    assert float(page.mediabox.height) == pytest.approx(expected[1], abs=0.01)


def test_pdf_mixed_page_sizes_and_metadata():
    doc = Document([sample_page(210, 297), sample_page(215.9, 279.4)], title="Mixed", author="Me", name="m")
    reader = PdfReader(io.BytesIO(render_pdf_bytes(doc)))
    assert [round(float(p.mediabox.width), 2) for p in reader.pages] == [595.28, 612.0]
    assert reader.metadata.title == "Mixed"
    assert reader.metadata.author == "Me"


def test_pdf_text_is_extractable_including_rotated_and_non_ascii():
    doc = Document([sample_page(label="Hall — Ärger")], name="t")
    text = PdfReader(io.BytesIO(render_pdf_bytes(doc))).pages[0].extract_text()
    for word in ("Hall — Ärger", "Turned", "room 12"):
        assert word in text


def _fonts(reader):
    fonts = []
    for page in reader.pages:
        resources = page["/Resources"]
        for font in resources["/Font"].values():
            fonts.append(font.get_object())
    return fonts


def test_pdf_fonts_are_embedded_subsets_never_helvetica():
    data = render_pdf_bytes(sample_doc())
    fonts = _fonts(PdfReader(io.BytesIO(data)))
    assert fonts
    for font in fonts:
        assert "Helvetica" not in font["/BaseFont"]
        assert "+" in font["/BaseFont"]                   # subset tag
        assert "/FontFile2" in font["/FontDescriptor"]    # embedded TrueType
    assert b"Helvetica" not in data


def test_pdf_is_byte_identical_for_the_same_document_even_across_processes():
    first = render_pdf_bytes(sample_doc())
    assert render_pdf_bytes(sample_doc()) == first
    code = ("import sys; sys.path.insert(0, %r); import test_render as t; "
            "sys.stdout.buffer.write(t.render_pdf_bytes(t.sample_doc()))" % str(Path(__file__).parent))
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    assert other == first


def test_pdf_trim_and_bleed_boxes():
    page = sample_page(216, 303)
    page.trim = Box(3, 3, 210, 297)
    page.bleed = Box(0, 0, 216, 303)
    reader = PdfReader(io.BytesIO(render_pdf_bytes(Document([page, sample_page()], name="b"))))
    first, second = reader.pages
    k = 72 / 25.4
    assert [round(float(v), 2) for v in first.trimbox] == [round(3 * k, 2), round(3 * k, 2),
                                                           round(213 * k, 2), round(300 * k, 2)]
    assert [round(float(v), 2) for v in first.bleedbox] == [0, 0, round(216 * k, 2), round(303 * k, 2)]
    assert "/TrimBox" not in second                       # boxes do not leak to later pages


def test_pdf_repeated_group_is_drawn_once_as_a_form():
    grid = Group(tuple(Line(10, 10 + i, 100, 10 + i) for i in range(10)) + (Text(10, 30, "Legend"),), cls="grid")
    pages = []
    for n in range(5):
        p = Page(210, 297, name=f"p{n}")
        p.add(grid, Text(10, 200, f"page {n}"))
        pages.append(p)
    data = render_pdf_bytes(Document(pages, name="f"))
    reader = PdfReader(io.BytesIO(data))
    xobjects = {name for page in reader.pages[1:] for name in page["/Resources"].get("/XObject", {})}
    assert len(xobjects) == 1                             # one form shared by the later pages
    assert all(f"page {n}" in reader.pages[n].extract_text() for n in range(5))
    assert all("Legend" in reader.pages[n].extract_text() for n in range(5))   # text inside the form


def test_pdf_equal_groups_share_a_form_and_small_ones_stay_inline():
    def page(n):
        p = Page(100, 100)
        # built afresh for each page (equal value, new objects), as composers do
        p.add(Group(tuple(Line(0, i, 50, i) for i in range(8)), transform=((1, 0, 0, 1, n, 0))),
              Group((Line(0, 0, 1, 1),)))
        return p
    reader = PdfReader(io.BytesIO(render_pdf_bytes(Document([page(n) for n in range(4)]))))
    names = [set(p["/Resources"].get("/XObject", {})) for p in reader.pages]
    assert names[0] == set() and names[1] == names[2] == names[3] and len(names[1]) == 1


@needs_pdftoppm
def test_pdf_grayscale_has_no_colour():
    colour = _pdftoppm(render_pdf_bytes(sample_doc()), dpi=30, gray=False)
    grey = _pdftoppm(render_pdf_bytes(sample_doc(), grayscale=True), dpi=30, gray=False)
    assert not is_grey(colour)
    assert is_grey(grey)


# --- SVG -----------------------------------------------------------------------

def test_svg_size_in_mm_with_matching_viewbox_and_ids():
    svgs = render_svg_pages(Document([sample_page(215.9, 279.4)], name="s"))
    root = ET.fromstring(svgs[0])
    assert root.get("width") == "215.9mm" and root.get("height") == "279.4mm"
    assert root.get("viewBox") == "0 0 215.9 279.4"
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    for ident in ("title", "grid", "box", "dot", "zigzag", "curve", "turned", "room", "col-3"):
        assert ident in ids
    assert ids["box"].tag == SVG_NS + "rect" and ids["box"].get("rx") == "3"
    assert ids["zigzag"].tag == SVG_NS + "polyline"
    assert ids["room"].get("class") == "label" and ids["room"].get("text-anchor") == "end"
    assert ids["title"].text == "Dungeon level 1"
    assert ids["title"].get("font-family").startswith("EB Garamond")
    assert float(ids["title"].get("font-size")) == pytest.approx(14 * 25.4 / 72, abs=1e-3)
    assert ids["curve"].get("d").startswith("M20 170 C40 160")


def test_svg_duplicate_ids_become_classes():
    page = Page(100, 100)
    page.add(Line(0, 0, 10, 10, id="wall"), Line(0, 0, 20, 20, id="wall", cls="thick"))
    root = ET.fromstring(render_svg_pages(Document([page]))[0])
    lines = [el for el in root.iter(SVG_NS + "line")]
    assert [el.get("id") for el in lines] == ["wall", None]
    assert lines[1].get("class").split() == ["thick", "wall"]


def test_svg_is_deterministic_and_grayscale_drops_colour():
    assert render_svg_pages(sample_doc()) == render_svg_pages(sample_doc())
    grey = render_svg_pages(sample_doc(), grayscale=True)[0]
    root = ET.fromstring(grey)
    colours = {el.get(a) for el in root.iter() for a in ("fill", "stroke") if (el.get(a) or "").startswith("#")}
    assert colours and all(c[1:3] == c[3:5] == c[5:7] for c in colours)


def test_svg_image_is_embedded():
    page = Page(100, 100)
    page.add(Image(10, 10, 40, 20, str(DATA / "marker.png"), id="pic"))
    root = ET.fromstring(render_svg_pages(Document([page]))[0])
    pic = next(el for el in root.iter() if el.get("id") == "pic")
    href = pic.get("{http://www.w3.org/1999/xlink}href") or pic.get("href")
    assert href.startswith("data:image/png;base64,")


# --- PNG -----------------------------------------------------------------------

@pytest.mark.parametrize("dpi", [72, 150])
def test_png_size_is_the_page_at_dpi(dpi):
    from PIL import Image as PILImage
    data = render_png_pages(Document([sample_page(215.9, 279.4)]), dpi=dpi)[0]
    img = PILImage.open(io.BytesIO(data))
    assert img.size == (round(215.9 * dpi / 25.4), round(279.4 * dpi / 25.4))


def test_png_grayscale_and_colour():
    from PIL import Image as PILImage
    colour = PILImage.open(io.BytesIO(render_png_pages(sample_doc(), dpi=50)[0])).convert("RGB")
    grey = PILImage.open(io.BytesIO(render_png_pages(sample_doc(), dpi=50, grayscale=True)[0])).convert("RGB")
    assert not is_grey(colour)
    assert is_grey(grey)


def test_png_dashes_leave_gaps():
    from PIL import Image as PILImage
    page = Page(100, 20)
    page.add(Line(10, 10, 90, 10, Style(stroke_width=0.5, dash=(4, 4))))
    img = PILImage.open(io.BytesIO(render_png_pages(Document([page]), dpi=100)[0])).convert("L")
    row = round(10 * 100 / 25.4)
    ink = [img.getpixel((x, row)) < 128 for x in range(round(10 * 100 / 25.4), round(90 * 100 / 25.4))]
    changes = sum(1 for a, b in zip(ink, ink[1:]) if a != b)
    assert changes >= 15                                  # 10 dashes and 10 gaps


# --- files -----------------------------------------------------------------------

def test_render_document_writes_named_files(tmp_path):
    written = render_document(sample_doc(), tmp_path)
    names = [p.name for p in written]
    assert names == ["render-test.pdf", "render-test-01-sample.svg", "render-test-02-second.svg",
                     "render-test-01-sample.png", "render-test-02-second.png"]
    assert written == output_paths(sample_doc(), tmp_path)
    assert all(p.stat().st_size > 0 for p in written)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)   # no temporary files left
    assert render_document(sample_doc(), tmp_path / "only", formats=("svg",))[0].suffix == ".svg"


def test_render_document_streams_a_generator_of_pages(tmp_path):
    doc = Document((sample_page(name=f"p{n}") for n in range(3)), name="streamed")
    written = render_document(doc, tmp_path, formats=("pdf", "png"), dpi=40)
    assert [p.name for p in written] == ["streamed.pdf", "streamed-01-p0.png", "streamed-02-p1.png",
                                        "streamed-03-p2.png"]
    assert len(PdfReader(written[0]).pages) == 3


def test_empty_document_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no pages"):
        render_document(Document([], name="empty"), tmp_path)
    assert not list(tmp_path.iterdir())


def test_failed_render_leaves_no_partial_file_and_keeps_good_ones(tmp_path):
    good = render_document(sample_doc(), tmp_path)
    before = {p: p.read_bytes() for p in good}
    broken = sample_doc()
    broken.pages[1].add(Image(10, 10, 20, 20, str(tmp_path / "missing-map.png")))
    for formats in (("pdf", "svg", "png"), ("png",), ("svg",)):
        with pytest.raises(InputError) as err:
            render_document(broken, tmp_path, formats=formats)
        assert "missing-map.png" in str(err.value)
        assert {p: p.read_bytes() for p in good} == before
        assert sorted(tmp_path.iterdir()) == sorted(good)
    fresh = tmp_path / "fresh"
    with pytest.raises(InputError):
        render_document(broken, fresh)
    assert not fresh.exists() or not any(fresh.iterdir())


def test_unknown_format_and_font_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="format"):
        render_document(sample_doc(), tmp_path, formats=("gif",))
    page = Page(50, 50)
    page.add(Text(5, 5, "x", font="comic"))
    for fmt in ("pdf", "svg", "png"):
        with pytest.raises(InputError, match="comic"):
            render_document(Document([page]), tmp_path, formats=(fmt,))
    assert not list(tmp_path.iterdir())


def is_grey(img) -> bool:
    from PIL import ImageChops
    r, g, b = img.convert("RGB").split()
    return ImageChops.difference(r, g).getbbox() is None and ImageChops.difference(g, b).getbbox() is None


def _pdftoppm(data: bytes, dpi: int, gray: bool = True):
    from PIL import Image as PILImage
    args = ["pdftoppm", "-r", str(dpi), "-f", "1", "-l", "1"] + (["-gray"] if gray else []) + ["-"]
    out = subprocess.run(args, input=data, capture_output=True, check=True).stdout
    return PILImage.open(io.BytesIO(out))


@needs_pdftoppm
def test_pdf_form_does_not_inherit_colour_or_width_from_the_page():
    grid = Group(tuple(Line(10, 10 + 5 * i, 90, 10 + 5 * i, Style(stroke_width=0.5)) for i in range(6)), cls="form")
    pages = []
    for _ in range(2):
        p = Page(100, 60)
        p.add(Line(5, 50, 95, 50, Style(stroke="#ff0000", stroke_width=2)), grid)
        pages.append(p)
    img = _pdftoppm(render_pdf_bytes(Document(pages)), dpi=100, gray=False).convert("RGB")
    y = round(10 * 100 / 25.4)
    x = round(50 * 100 / 25.4)
    r, g, b = min((img.getpixel((x, y + d)) for d in (-1, 0, 1)), key=sum)
    assert r < 100 and g < 100 and b < 100        # black, not the red the page used before


def test_render_documents_is_all_or_nothing_across_documents(tmp_path):
    from sheetgen.render import render_documents
    good = Document([sample_page()], name="first")
    broken = Document([sample_page()], name="second")
    broken.pages[0].add(Image(1, 1, 5, 5, str(tmp_path / "gone.png")))
    with pytest.raises(InputError, match="gone.png"):
        render_documents([good, broken], tmp_path, formats=("pdf", "svg"))
    assert not list(tmp_path.iterdir())
    written = render_documents([good, Document([sample_page()], name="second")], tmp_path, formats=("pdf",))
    assert [p.name for p in written] == ["first.pdf", "second.pdf"]


@needs_pdftoppm
def test_pdf_image_inside_a_form_is_drawn_on_every_page():
    stamp = Group((Image(0, 0, 20, 10, str(DATA / "marker.png")), Rect(0, 0, 20, 10)), cls="form")
    pages = []
    for n in range(3):
        p = Page(60, 40)
        p.add(Group((stamp,), transform=translate(5 + 5 * n, 5)))
        pages.append(p)
    data = render_pdf_bytes(Document(pages))
    from PIL import Image as PILImage
    for n in range(3):
        out = subprocess.run(["pdftoppm", "-r", "50", "-f", str(n + 1), "-l", str(n + 1), "-"],
                             input=data, capture_output=True, check=True).stdout
        img = PILImage.open(io.BytesIO(out)).convert("RGB")
        assert img.getpixel((round((10 + 5 * n) * 50 / 25.4), round(10 * 50 / 25.4))) == (255, 0, 0)


def test_png_tiny_rounded_rects_do_not_fail():
    """Pillow rejects corner radii larger than half a side: tiny rounded boxes must still draw."""
    from sheetgen.draw.model import Document, Page, Rect, Style
    from sheetgen.render import render_png_pages
    doc = Document([Page(20, 20, [Rect(1, 1, 0.5, 0.25, radius=0.05),
                                  Rect(2, 2, 0.3, 0.3, Style(fill="#ff0000"), radius=0.2),
                                  Rect(5, 5, 10, 10, radius=2)])])
    assert render_png_pages(doc, 150)[0][:8] == b"\x89PNG\r\n\x1a\n"


def test_every_graphics_state_used_is_defined_in_its_resources():
    """Forms (repeated groups) cannot carry ExtGState in reportlab: each /gsN gs must resolve."""
    import io
    import re

    import pypdf

    from sheetgen.draw.model import Document, Group, Line, Page, Rect, Style
    from sheetgen.render import render_pdf_bytes
    shared = Group(tuple(Line(i, 0, i, 5) for i in range(12)))
    faded = Group(tuple(Rect(i, 10, 1, 1, Style(fill="#ff0000", opacity=0.5)) for i in range(12)))
    pages = [Page(50, 50, [shared, faded, Rect(1, 1, 5, 5, Style(fill="#00ff00", opacity=0.3))]),
             Page(50, 50, [shared, faded]), Page(50, 50, [shared])]
    reader = pypdf.PdfReader(io.BytesIO(render_pdf_bytes(Document(pages))))

    def check(stream_owner, data):
        used = set(re.findall(rb"/(\S+) gs", data))
        res = stream_owner.get("/Resources") or {}
        defined = {k.encode()[1:] for k in (res.get("/ExtGState") or {})}
        assert used <= defined, (used, defined)
        for xobj in (res.get("/XObject") or {}).values():
            xobj = xobj.get_object()
            check(xobj, xobj.get_data())

    for page in reader.pages:
        check(page, page.get_contents().get_data())


def test_a_shorter_build_removes_its_own_stale_page_files(tmp_path):
    from sheetgen.draw.model import Document, Page, Rect
    from sheetgen.render import render_document
    long_doc = Document([Page(50, 50, [Rect(1, 1, 5, 5)], name=f"p{i}") for i in range(3)], name="deck")
    render_document(long_doc, tmp_path, formats=("svg",))
    (tmp_path / "deck-notes.svg").write_text("<svg/>")        # not a page file: stays
    (tmp_path / "deckle-01-x.svg").write_text("<svg/>")       # another document: stays
    short_doc = Document([Page(50, 50, [Rect(1, 1, 5, 5)], name="p0")], name="deck")
    written = render_document(short_doc, tmp_path, formats=("svg",))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [w.name for w in written] + ["deck-notes.svg", "deckle-01-x.svg"])

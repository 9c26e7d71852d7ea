"""Geometry agrees across the back ends: one document drawn as PDF (rasterised
by poppler's pdftoppm), SVG (coordinates parsed, and rasterised by librsvg
when rsvg-convert is installed) and PNG (our own rasteriser) puts lines,
shapes and text on the same millimetres."""
from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image as PILImage, ImageChops

from sheetgen.draw.model import (Circle, Document, Group, Image, Line, Page, Rect, Style, Text, compose, rotate,
                                 translate)
from sheetgen.render import render_pdf_bytes, render_png_pages, render_svg_pages

DATA = Path(__file__).parent / "data" / "render"
DPI = 150
PX = DPI / 25.4
XS = (20.0, 33.3, 47.7, 101.1, 180.55)          # vertical grid lines, mm
YS = (40.0, 77.7, 200.2)                        # horizontal grid lines, mm
PROBE_Y, PROBE_X = 60.0, 190.0                  # where we read across the lines (clear of other ink)
SVG_NS = "{http://www.w3.org/2000/svg}"

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")


def geometry_doc(width=210.0, height=297.0) -> Document:
    page = Page(width, height, name="geometry")
    style = Style(stroke_width=0.3)
    grid = [Line(x, 30, x, 250, style, id=f"v{i}") for i, x in enumerate(XS)]
    grid += [Line(15, y, 195, y, style, id=f"h{i}") for i, y in enumerate(YS)]
    page.add(Group(tuple(grid), id="grid"),
             Rect(60, 100, 30, 20, Style(stroke=None, fill="#000000"), id="block"),
             Circle(140, 110, 10, Style(stroke=None, fill="#000000"), id="disc"),
             Image(120, 130, 40, 20, str(DATA / "marker.png"), id="marker"),
             Text(105, 270, "MIDDLE", size=20, anchor="middle", id="middle"),
             Group((Text(0, 0, "TURN", size=16, id="turn"),), transform=compose(translate(60, 170), rotate(90))))
    return Document([page], name="geometry")


def pdf_image(doc) -> PILImage.Image:
    out = subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-"], input=render_pdf_bytes(doc),
                         capture_output=True, check=True).stdout
    return PILImage.open(io.BytesIO(out)).convert("L")


def svg_image(doc) -> PILImage.Image | None:
    """The SVG rasterised by librsvg, if it is installed (an independent reader of our SVG)."""
    if shutil.which("rsvg-convert") is None:
        return None
    out = subprocess.run(["rsvg-convert", "-d", str(DPI), "-p", str(DPI)],
                         input=render_svg_pages(doc)[0].encode(), capture_output=True, check=True).stdout
    return PILImage.open(io.BytesIO(out)).convert("L")


def png_image(doc) -> PILImage.Image:
    return PILImage.open(io.BytesIO(render_png_pages(doc, dpi=DPI)[0])).convert("L")


def dark_runs(values) -> list[float]:
    """Centres of runs of dark pixels along a row or column."""
    centres, start = [], None
    for i, v in enumerate(list(values) + [255]):
        if v < 128 and start is None:
            start = i
        elif v >= 128 and start is not None:
            centres.append((start + i - 1) / 2)
            start = None
    return centres


def row(img, y_mm):
    y = int(y_mm * PX)
    return [img.getpixel((x, y)) for x in range(img.width)]


def column(img, x_mm):
    x = int(x_mm * PX)
    return [img.getpixel((x, y)) for y in range(img.height)]


def ink_box(img, box_mm):
    """Bounding box in px of the ink inside a region given in mm."""
    x0, y0, x1, y1 = (round(v * PX) for v in box_mm)
    region = ImageChops.invert(img.crop((x0, y0, x1, y1))).point(lambda v: 255 if v > 96 else 0)
    bx = region.getbbox()
    assert bx is not None, f"no ink in {box_mm}"
    return (bx[0] + x0, bx[1] + y0, bx[2] + x0, bx[3] + y0)


@pytest.fixture(scope="module")
def rendered():
    doc = geometry_doc()
    return doc, pdf_image(doc), png_image(doc), svg_image(doc)


def rasters(rendered):
    """PDF (poppler), our PNG, and the SVG (librsvg) when it can be rasterised."""
    return [img for img in rendered[1:] if img is not None]


def test_images_have_the_same_size(rendered):
    png = rendered[2]
    for img in rasters(rendered):
        assert abs(img.width - png.width) <= 1 and abs(img.height - png.height) <= 1


def test_vertical_lines_fall_on_the_same_millimetres(rendered):
    expected = [x * PX for x in XS]
    for img in rasters(rendered):
        found = dark_runs(row(img, PROBE_Y))
        assert len(found) == len(expected), found
        assert all(abs(f - e) <= 1.0 for f, e in zip(found, expected)), (found, expected)


def test_horizontal_lines_fall_on_the_same_millimetres(rendered):
    expected = [y * PX for y in YS]
    for img in rasters(rendered):
        found = [c for c in dark_runs(column(img, PROBE_X)) if c < 250 * PX]
        assert len(found) == len(expected), found
        assert all(abs(f - e) <= 1.0 for f, e in zip(found, expected)), (found, expected)


def test_svg_coordinates_are_the_model_millimetres():
    root = ET.fromstring(render_svg_pages(geometry_doc())[0])
    assert root.get("viewBox") == "0 0 210 297" and root.get("width") == "210mm"
    lines = {el.get("id"): el for el in root.iter(SVG_NS + "line")}
    assert [float(lines[f"v{i}"].get("x1")) for i in range(len(XS))] == list(XS)
    assert [float(lines[f"h{i}"].get("y1")) for i in range(len(YS))] == list(YS)
    block = next(el for el in root.iter(SVG_NS + "rect") if el.get("id") == "block")
    assert (float(block.get("x")), float(block.get("y")), float(block.get("width"))) == (60, 100, 30)


@pytest.mark.parametrize("region, expected_mm", [
    ((55, 95, 95, 125), (60, 100, 90, 120)),     # filled rectangle
    ((125, 95, 155, 125), (130, 100, 150, 120)),  # filled circle
    ((115, 126, 165, 155), (120, 130, 160, 150)),  # image
])
def test_filled_shapes_cover_the_same_area(rendered, region, expected_mm):
    want = [v * PX for v in expected_mm]
    for img in rasters(rendered):
        got = ink_box(img, region)
        assert all(abs(g - w) <= 1.5 for g, w in zip(got, want)), (got, want)


@pytest.mark.parametrize("region", [(60, 258, 150, 275),    # centred text
                                    (55, 165, 70, 195)])    # text turned 90 degrees clockwise
def test_text_lands_in_the_same_place(rendered, region):
    boxes = [ink_box(img, region) for img in rasters(rendered)]
    for other in boxes[1:]:
        assert all(abs(p - q) <= 3 for p, q in zip(boxes[0], other)), boxes


def test_centred_text_is_centred(rendered):
    for img in rasters(rendered):
        x0, _, x1, y1 = ink_box(img, (60, 258, 150, 275))
        assert abs((x0 + x1) / 2 - 105 * PX) <= 2
        assert abs(y1 - 270 * PX) <= 2                 # baseline (capitals have no descenders)


def test_turned_text_reads_downwards(rendered):
    for img in rasters(rendered):
        x0, y0, x1, y1 = ink_box(img, (55, 165, 70, 195))
        assert y1 - y0 > 2 * (x1 - x0)                  # tall, not wide
        assert abs(y0 - 170 * PX) <= 2                  # starts at the anchor and runs down
        assert abs(x0 - 60 * PX) <= 2                   # baseline on x=60, the glyphs' tops point right


def test_scaled_page_moves_lines_identically():
    """A printer scale correction wraps the page in a scaling group (draw.furniture);
    every back end must move the lines by the same amount."""
    from sheetgen.draw.model import scale
    doc = geometry_doc()
    page = doc.pages[0]
    factor = 100 / 98.0
    cx, cy = page.width / 2, page.height / 2
    t = compose(translate(cx, cy), compose(scale(factor, factor), translate(-cx, -cy)))
    page.items = [Group(tuple(page.items), transform=t)]
    expected = [(cx + (x - cx) * factor) * PX for x in XS]
    probe = cy + (PROBE_Y - cy) * factor
    for img in (pdf_image(doc), png_image(doc), svg_image(doc)):
        if img is None:
            continue
        found = dark_runs(row(img, probe))
        assert len(found) == len(expected), found
        assert all(abs(f - e) <= 1.0 for f, e in zip(found, expected)), (found, expected)


def test_rotated_shapes_agree():
    page = Page(120, 120, name="turned")
    solid = Style(stroke=None, fill="#000000")
    page.add(Group((Rect(-20, -5, 40, 10, solid), Circle(0, 25, 6, Style(stroke_width=1.0))),
                   transform=compose(translate(60, 50), rotate(30))))
    doc = Document([page])
    boxes = [ink_box(img, (0, 0, 120, 120)) for img in (pdf_image(doc), png_image(doc), svg_image(doc))
             if img is not None]
    for other in boxes[1:]:
        assert all(abs(p - q) <= 2 for p, q in zip(boxes[0], other)), boxes
    # a 40x10 bar turned 30 degrees is wider than tall but no longer flat
    x0, y0, x1, y1 = ink_box(png_image(doc), (30, 30, 90, 64.9))   # the bar alone, not the ring below
    assert 30 * PX < (x1 - x0) < 40 * PX and (y1 - y0) > 20 * PX


def test_translucent_fills_blend_alike():
    page = Page(60, 40)
    page.add(Rect(5, 5, 30, 20, Style(stroke=None, fill="#ff0000")),
             Rect(20, 15, 30, 20, Style(stroke=None, fill="#0000ff", opacity=0.5)))
    doc = Document([page])
    pdf = subprocess.run(["pdftoppm", "-r", str(DPI), "-"], input=render_pdf_bytes(doc),
                         capture_output=True, check=True).stdout
    images = [PILImage.open(io.BytesIO(pdf)).convert("RGB"),
              PILImage.open(io.BytesIO(render_png_pages(doc, dpi=DPI)[0])).convert("RGB")]
    for where, want in (((28, 20), (128, 0, 128)),      # blue at half over red
                        ((45, 30), (128, 128, 255)),    # blue at half over white
                        ((10, 10), (255, 0, 0))):       # red alone
        for img in images:
            got = img.getpixel((round(where[0] * PX), round(where[1] * PX)))
            assert all(abs(g - w) <= 3 for g, w in zip(got, want)), (where, got, want)

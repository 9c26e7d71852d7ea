"""build's PNGs are antialiased (drawn at SUPERSAMPLE times the resolution and averaged), with
the geometry of the unsmoothed drawing."""
import io

from PIL import Image, ImageChops, ImageStat

from sheetgen.draw.model import Circle, Document, Line, Page, Style
from sheetgen.render import render_png_pages
from sheetgen.render.png import png_bytes, render_page_image, supersample_for



def _page() -> Page:
    thick = Style(stroke="#000000", stroke_width=0.6)
    return Page(60, 40, [Line(5, 5, 55, 33, thick), Circle(30, 20, 12, thick), Line(5, 35, 55, 30)])


def _grey(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("L")


def test_png_edges_are_smooth():
    smooth = _grey(render_png_pages(Document([_page()]))[0])
    stairs = render_page_image(_page(), 150, supersample=1).convert("L")
    levels = lambda im: sum(1 for n in im.histogram()[16:240] if n)        # noqa: E731 - greys between
    assert levels(stairs) == 0
    assert levels(smooth) >= 6          # a 3 x 3 block averaged: 8 greys between black and white


def test_the_smooth_png_has_the_same_geometry():
    smooth = _grey(png_bytes(_page(), 150))
    stairs = render_page_image(_page(), 150, supersample=1).convert("L")
    assert smooth.size == stairs.size
    # the same ink in the same places: blurred, they nearly agree (the stairs are the only difference)
    from PIL import ImageFilter
    a, b = (im.filter(ImageFilter.GaussianBlur(2)) for im in (smooth, stairs))
    assert ImageStat.Stat(ImageChops.difference(a, b)).mean[0] < 4


def test_supersampling_is_bounded_at_high_dpi():
    assert supersample_for((1754, 1240), 150) == 3
    assert supersample_for((4961, 7016), 600) == 1          # A4 at 600 dpi: 35 M pixels already
    assert supersample_for((100, 100), 1200) == 1

"""Ink read in colour (sheetgen.scan.read.INK_COLOUR): per channel the light and the print's tone are
fitted as the grey's are, and a pixel's darkness is the grey's plus what its largest channel loses beyond
it, less a margin: a blue stroke counts by what it takes of the red, a neutral pencil as in grey, and a
grey image is read in grey (issue 27 item 2).  On synthetic pages: a template with a pale green zone, a
photo of it with strokes drawn on, lit unevenly and with a colour cast."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.scan.read import Page                                 # noqa: E402

K = 5                       # px a mm
PAGE_MM = (80.0, 60.0)
ZONE = (slice(100, 250), slice(200, 380))                          # rows, cols: the pale green zone
BLUE = np.float32([0.11, 0.23, 0.60])                               # a blue ballpoint's ink (RGB)
CRAYON = np.float32([0.56, 0.76, 0.92])                             # a light-blue crayon's
GRAPHITE = np.float32([0.27, 0.27, 0.27])
ON_WHITE = (slice(40, 43), slice(40, 360))                          # a stroke 0.6 mm wide on paper
ON_ZONE = (slice(170, 173), slice(220, 360))                        # and one across the zone


def _template() -> np.ndarray:
    rgb = np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)
    rgb[ZONE] = (0.78, 0.92, 0.72)
    rgb[20:22, :] = 0.1                                              # printed lines: the tone's dark end
    rgb[:, 20:22] = 0.1
    return rgb


def _photo(template: np.ndarray, ink: np.ndarray, cover: float = 0.6, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(grey, colour BGR) of the template with two strokes of `ink` (each pixel `cover` of the way to it),
    light falling off across the page, a warm cast and a little noise, in 0..255."""
    page = template.copy()
    for where in (ON_WHITE, ON_ZONE):
        page[where] = page[where] * (1 - cover) + ink * cover
    rows, cols = page.shape[:2]
    light = np.linspace(0.95, 0.8, cols, dtype=np.float32)[None, :, None]
    cast = np.float32([1.0, 0.96, 0.9])                              # RGB gains
    rng = np.random.default_rng(seed)
    rgb = np.clip(page * light * cast * 235 + rng.normal(0, 1.5, page.shape), 0, 255).astype(np.float32)
    colour = np.ascontiguousarray(rgb[..., ::-1])
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    return grey, colour


def _darkness(monkeypatch, ink: np.ndarray, colour_on: bool, grey_only: bool = False,
              cover: float = 0.8) -> tuple[float, float, Page]:
    """(mean darkness along the stroke on white, along the stroke across the zone, the page)."""
    monkeypatch.setattr(read, "INK_COLOUR", colour_on)
    template = _template()
    grey, colour = _photo(template, ink, cover)
    page = Page(grey, template, PAGE_MM, align=False, colour=None if grey_only else colour)
    return float(page.dark[ON_WHITE].mean()), float(page.dark[ON_ZONE].mean()), page


@pytest.mark.parametrize("ink, cover, gain", [(BLUE, 0.8, 0.03), (CRAYON, 1.0, 0.06)], ids=["ballpoint", "crayon"])
def test_a_blue_stroke_reads_darker_in_colour_on_white_and_on_a_coloured_zone(monkeypatch, ink, cover, gain):
    grey_white, grey_zone, grey_page = _darkness(monkeypatch, ink, False, cover=cover)
    colour_white, colour_zone, colour_page = _darkness(monkeypatch, ink, True, cover=cover)
    assert grey_page.colour_excess is None and colour_page.colour_excess is not None
    # the red channel loses more than the grey: the stroke counts by it, less the margin
    assert colour_white > grey_white + gain
    assert colour_zone > grey_zone + gain


def test_a_neutral_pencil_reads_as_in_grey(monkeypatch):
    grey_white, grey_zone, _ = _darkness(monkeypatch, GRAPHITE, False)
    colour_white, colour_zone, page = _darkness(monkeypatch, GRAPHITE, True)
    assert grey_white > 0.3                     # a mark worth reading
    assert colour_white == pytest.approx(grey_white, abs=0.01)
    assert colour_zone == pytest.approx(grey_zone, abs=0.01)
    # the paper away from the strokes: no darkness added by the colour
    paper = (slice(280, 290), slice(40, 380))
    assert float(page.colour_excess[paper].max()) == 0.0


def test_a_grey_image_is_read_in_grey(monkeypatch):
    grey_white, grey_zone, _ = _darkness(monkeypatch, BLUE, False)
    white, zone, page = _darkness(monkeypatch, BLUE, True, grey_only=True)
    assert page.colour_excess is None
    assert (white, zone) == (grey_white, grey_zone)


@pytest.mark.photo
def test_a_grey_photo_scans_with_colour_on(monkeypatch):
    """The pipeline: a grey image (img.ndim == 2) is read by the grey path, colour or not."""
    from sheetgen.scan import pipeline
    seen = []
    real = pipeline.Page

    def page(*args, **kwargs):
        seen.append(kwargs.get("colour"))
        return real(*args, **kwargs)
    monkeypatch.setattr(read, "INK_COLOUR", True)
    monkeypatch.setattr(pipeline, "Page", page)
    from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed: apt-get install poppler-utils")
    from pathlib import Path
    recipe = load_recipes(Path(__file__).parent / "data" / "scan" / "recipes.yaml")[0]
    img, played = photo_of(recipe)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    result = pipeline.scan_photo("grey", sheet_ref=played.ref, options=played.options, img=grey)
    assert seen == [None] and result.readings
    pipeline.scan_photo("colour", sheet_ref=played.ref, options=played.options, img=img)
    assert seen[1] is not None and seen[1].ndim == 3

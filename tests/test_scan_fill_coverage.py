"""A FILL read by its coverage (sheetgen.scan.read.FILL_COVERAGE, FILL_COVER_LEVEL, FILL_COVERED): a shape
blacked out reads filled, hatched densely too; a wide stroke running through it, covering a band of it,
reads empty, where its mean darkness alone reads it filled (issue 27: a felt tip's wall or door stroke
through an explored door's box).  The reader ships with the flag off (docs/scanning.md, 2026-12-07): these
tests check the measure itself, with the flag set.  On synthetic pages: a white template, a photo of it
with the marks drawn, lit unevenly and a little blurred."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.scan.contract import FILL, Region                     # noqa: E402
from sheetgen.scan.geometry import FillShape                        # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions             # noqa: E402

K = 10                      # px a mm
PAGE_MM = (40.0, 30.0)
BOX = (15.0, 12.0, 6.0, 4.0)            # the FILL: x, y, w, h (mm)
FELT_TIP = 0.06                         # grey of a felt tip's ink


def _reads(monkeypatch, rects, on: bool = True) -> tuple[str, float]:
    """(reading, measure) of the FILL over a photo with RECTS ((x, y, w, h) mm each) inked."""
    monkeypatch.setattr(read, "FILL_COVERAGE", on)
    # the coverage scales the mean darkness: measured without FILL_INK's ink over the print (which reads
    # this felt tip's stroke, 0.4 of the shape at 0.94 of the light, as a fill, as its mean alone does)
    monkeypatch.setattr(read, "FILL_INK", False)
    template = np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)
    template[20:22, :] = 0.1                                         # a printed line: the tone's dark end
    page = template[..., 0].copy()
    for x, y, w, h in rects:
        page[int(y * K):int((y + h) * K), int(x * K):int((x + w) * K)] = FELT_TIP
    light = np.linspace(0.95, 0.8, page.shape[1], dtype=np.float32)[None, :]
    rng = np.random.default_rng(7)
    photo = np.clip(page * light * 235 + rng.normal(0, 1.5, page.shape), 0, 255).astype(np.float32)
    photo = cv2.GaussianBlur(photo, (0, 0), 0.2 * K)
    region = Region("fill", FILL, FillShape(*BOX), "fill")
    reading = read_regions(Page(photo, template, PAGE_MM, align=False),
                           Plan([region], template.shape[:2], PAGE_MM))["fill"]
    return reading.value, reading.score


x, y, w, h = BOX
BLACKED = [(x - 0.3, y - 0.3, w + 0.6, h + 0.6)]
HATCHED = [(x - 0.3, y - 0.3 + i * 0.6, w + 0.6, 0.45) for i in range(9)]      # strokes 0.45 mm, 0.15 apart
STROKE = [(x - 1.0, y + 0.6, w + 2.0, 1.6)]        # a wide stroke through it, along its length: 0.4 of it


@pytest.mark.parametrize("rects", [BLACKED, HATCHED], ids=["blacked", "hatched"])
def test_a_shape_blacked_out_reads_filled(monkeypatch, rects):
    assert _reads(monkeypatch, rects)[0] == "filled"


def test_a_wide_stroke_through_the_shape_reads_empty(monkeypatch):
    value, score = _reads(monkeypatch, STROKE)
    assert value == "empty"
    # read by its mean darkness alone (the flag off) the same stroke blacks it out
    assert _reads(monkeypatch, STROKE, on=False)[0] == "filled"

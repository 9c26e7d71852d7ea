"""A line read by the ridge of its darkness across (a LINE's `ridge`, sheetgen.scan.read.RIDGE_*): a stroke
drawn along the line reads marked, a little off its axis too; the same ink lying along the band's edge (a
flood's waves beside a path's place), on both edges, or a wide light wash over the band (a crayon's) reads
empty, where the darkness across the band alone reads each marked (issue 27: felt tip, crayon floods).
On synthetic pages: a white template with printed lines, a photo of it with the marks drawn, lit
unevenly and a little blurred."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.scan.contract import LINE, Region                     # noqa: E402
from sheetgen.scan.geometry import LineShape                        # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions             # noqa: E402

K = 5                       # px a mm
PAGE_MM = (80.0, 60.0)
AXIS_Y, X1, X2 = 30.0, 20.0, 60.0      # the line region, along x
BAND = 1.8                  # mm: a path's band (Dungeon Foury's WALL_BAND)
FELT_TIP = 0.06             # grey of a felt tip's ink, a graphite pencil's
GRAPHITE = 0.27
CRAYON = 0.72               # a light-blue crayon's grey


def _template() -> np.ndarray:
    rgb = np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)
    rgb[20:22, :] = 0.1                                              # printed lines: the tone's dark end
    rgb[:, 20:22] = 0.1
    return rgb


def _stroke(page: np.ndarray, off: float, width: float, grey: float, cover: float = 0.9) -> None:
    """A stroke along the region, `off` mm across its axis, `width` mm wide, `cover` of the way to `grey`."""
    r0, r1 = int(round((AXIS_Y + off - width / 2) * K)), int(round((AXIS_Y + off + width / 2) * K))
    c0, c1 = int((X1 - 1) * K), int((X2 + 1) * K)
    page[r0:r1, c0:c1] = page[r0:r1, c0:c1] * (1 - cover) + grey * cover


def _reads(monkeypatch, marks, ridge: bool = True, on: bool = True) -> tuple[str, float]:
    """(reading, measure) of the line region over a photo with MARKS ((off, width, grey, cover) each)."""
    monkeypatch.setattr(read, "RIDGE_READ", on)
    template = _template()
    page = template[..., 0].copy()
    for off, width, grey, cover in marks:
        _stroke(page, off, width, grey, cover)
    light = np.linspace(0.95, 0.8, page.shape[1], dtype=np.float32)[None, :]
    rng = np.random.default_rng(5)
    photo = np.clip(page * light * 235 + rng.normal(0, 1.5, page.shape), 0, 255).astype(np.float32)
    photo = cv2.GaussianBlur(photo, (0, 0), 0.25 * K)
    region = Region("line", LINE, LineShape(X1, AXIS_Y, X2, AXIS_Y, band=BAND, ridge=ridge), "line")
    reading = read_regions(Page(photo, template, PAGE_MM, align=False),
                           Plan([region], template.shape[:2], PAGE_MM))["line"]
    return reading.value, reading.score


ALONG = [(0.0, 0.5, GRAPHITE, 0.9)]
OFF_AXIS = [(0.45, 0.5, GRAPHITE, 0.9)]
FAINT = [(0.0, 0.3, 0.55, 0.9)]                 # a light hand's thin stroke
EDGE = [(-1.1, 0.7, FELT_TIP, 1.0)]             # a felt tip's wave beside the band, reaching into it
BOTH_EDGES = [(-1.1, 0.7, FELT_TIP, 1.0), (1.1, 0.7, FELT_TIP, 1.0)]
WASH = [(-0.3, 2.8, CRAYON, 0.8)]               # a crayon's band of colour over the line's place


@pytest.mark.parametrize("marks", [ALONG, OFF_AXIS, FAINT, ALONG + WASH, ALONG + EDGE],
                         ids=["along", "off-axis", "faint", "along-over-a-wash", "along-beside-a-wave"])
def test_a_stroke_along_the_line_reads_marked(monkeypatch, marks):
    value, score = _reads(monkeypatch, marks)
    assert value == "marked" and score >= 0.9


@pytest.mark.parametrize("marks", [EDGE, BOTH_EDGES, WASH], ids=["one-edge", "both-edges", "wash"])
def test_ink_beside_the_band_or_washed_over_it_reads_empty(monkeypatch, marks):
    value, score = _reads(monkeypatch, marks)
    assert value == "empty" and score <= 0.1
    # read by the darkness across the band alone (no ridge asked, or the reader's flag off), it is a line
    assert _reads(monkeypatch, marks, ridge=False)[0] == "marked"
    assert _reads(monkeypatch, marks, on=False)[0] == "marked"


def test_a_ridge_is_an_inner_sample_above_the_lightest_toward_each_edge():
    across = np.array([[0.0, 0.3, 0.1, 0.2, 0.0, 0.6],
                       [0.1, 0.2, 0.1, 0.22, 0.3, 0.5],
                       [0.4, 0.1, 0.1, 0.21, 0.05, 0.1],
                       [0.3, 0.05, 0.12, 0.2, 0.3, 0.4],
                       [0.1, 0.0, 0.1, 0.2, 0.0, 0.0]], np.float32)
    # a peak in the middle; darkest at an edge, falling off inward; flat; above its sides by less than the
    # noise floor; two peaks inside; a peak beside a darker edge
    assert read.ridge_inside(across).tolist() == [True, False, False, False, True, True]

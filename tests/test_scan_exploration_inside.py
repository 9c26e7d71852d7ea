"""An open door drawn with wide strokes is not read as an explored (filled) one (issue 27).

A door box's filled-in state is read by the mean darkness of two thin strips beside the wall.
A soft pencil pressed hard (graphite-heavy, a tuning family of bench/bench_scan.py --families)
darkens those strips from the wall's flank and the box's own side, and the box read filled
where it was left open.  Paper still shows between the two strokes; a box filled in shows
none.  So refine reads a box read filled once more, across its inside (a LINE's `valley`,
sheetgen.scan.read.valley_inside), and a box with paper along at least half of either half is
open, its reading listed to check.

Tested at three levels: the reader's valley on synthetic pages (two strokes with paper between
read marked, one wide stroke and a filled block empty; a filled box's grain, a dip of a small share
of its darkness, no valley: VALLEY_DEPTH); the refine pass on readings; and the family's flat
render where the bench found the misread, with every door box the log has filled in still read
filled."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.games.exploration import scan as exploration          # noqa: E402
from sheetgen.scan.contract import EMPTY, FILL, FILLED, LINE, MARKED, Region, RegionReading   # noqa: E402
from sheetgen.scan.geometry import FillShape, LineShape             # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions, valley_inside   # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of   # noqa: E402

K = 5                       # px a mm
PAGE_MM = (80.0, 60.0)
AXIS_Y, X1, X2 = 30.0, 20.0, 60.0      # the inside's line region, along x
BAND = 1.3                  # mm across: from the wall's middle to a little beyond the box's side
FELT_TIP = 0.06             # grey of a felt tip's ink, a graphite pencil's
GRAPHITE = 0.27
FAMILIES = Path(__file__).parent / "data" / "scan" / "families.yaml"


def _template() -> np.ndarray:
    return np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)


def _stroke(page: np.ndarray, off: float, width: float, grey: float) -> None:
    """A stroke along the region, `off` mm across from the band's first edge, `width` mm wide."""
    top = AXIS_Y - BAND / 2
    r0, r1 = int(round((top + off - width / 2) * K)), int(round((top + off + width / 2) * K))
    c0, c1 = int((X1 - 1) * K), int((X2 + 1) * K)
    page[r0:r1, c0:c1] = page[r0:r1, c0:c1] * 0.1 + grey * 0.9


def _reads(marks, valley: bool = True) -> tuple[str, float]:
    """(reading, measure) of the line region over a photo with MARKS ((off, width, grey) each)."""
    template = _template()
    page = template[..., 0].copy()
    for off, width, grey in marks:
        _stroke(page, off, width, grey)
    rng = np.random.default_rng(7)
    photo = np.clip(page * 235 + rng.normal(0, 1.5, page.shape), 0, 255).astype(np.float32)
    photo = cv2.GaussianBlur(photo, (0, 0), 0.2 * K)
    region = Region("inside", LINE, LineShape(X1, AXIS_Y, X2, AXIS_Y, band=BAND, valley=valley), "inside")
    reading = read_regions(Page(photo, template, PAGE_MM, align=False),
                           Plan([region], template.shape[:2], PAGE_MM))["inside"]
    return reading.value, reading.score


WALL_AND_SIDE = [(0.0, 0.6, FELT_TIP), (1.1, 0.6, FELT_TIP)]        # the wall's stroke, the box's side
THIN_PENCIL = [(0.0, 0.3, GRAPHITE), (1.1, 0.3, GRAPHITE)]
WIDE_WALL = [(0.0, 1.4, FELT_TIP)]                                   # one stroke, wide: no side beside it
FILLED_BOX = [(0.0, 0.6, FELT_TIP), (0.55, 0.6, FELT_TIP), (1.1, 0.6, FELT_TIP)]   # the inside scribbled over


@pytest.mark.parametrize("marks", [WALL_AND_SIDE, THIN_PENCIL], ids=["felt-tip", "thin-pencil"])
def test_paper_between_two_strokes_reads_a_valley(marks):
    value, score = _reads(marks)
    assert value == MARKED and score >= 0.9


@pytest.mark.parametrize("marks", [WIDE_WALL, FILLED_BOX, []], ids=["one-wide-stroke", "filled-in", "blank"])
def test_one_stroke_a_filled_box_or_paper_reads_no_valley(marks):
    value, score = _reads(marks)
    assert value == EMPTY and score <= 0.1


def test_the_valley_is_what_decides_not_the_darkness():
    """Read by its darkness across (no valley asked), a filled box and a wide stroke are lines."""
    assert _reads(FILLED_BOX, valley=False)[0] == MARKED
    assert _reads(WIDE_WALL, valley=False)[0] == MARKED


def test_valley_inside_per_point():
    # columns: paper between two strokes; one stroke falling off; flat dark; a dip within the noise floor;
    # a filled box's grain (above the floor, a small share of its darkness); a shallow valley between light strokes
    across = np.array([[0.9, 0.0, 0.8, 0.50, 0.85, 0.30],
                       [0.8, 0.9, 0.8, 0.50, 0.80, 0.30],
                       [0.1, 0.6, 0.8, 0.48, 0.74, 0.22],
                       [0.8, 0.3, 0.8, 0.50, 0.80, 0.30],
                       [0.9, 0.0, 0.8, 0.50, 0.85, 0.00]], np.float32)
    assert valley_inside(across).tolist() == [True, False, False, False, False, True]


# -- the refine pass ------------------------------------------------------------------------

def _reading(rid: str, kind: str, shape, role: str, value: str, confidence: float = 0.9) -> RegionReading:
    return RegionReading(exploration._region(rid, kind, shape, role), value, confidence, 0.5)


FILL_SHAPE = FillShape(x=10.0, y=10.5, w=2.8, h=0.26, mean=exploration.FILLED_DOOR, dx=0.0, dy=-1.4)
INSIDE_SHAPE = LineShape(10.0, 10.6, 12.8, 10.6, band=1.3, valley=True)


def _readings(fill: str, halves: tuple[str, str]) -> dict:
    out = {"fill-3-4-S": _reading("fill-3-4-S", FILL, FILL_SHAPE, "explored door", fill)}
    for n, value in zip((1, 2), halves):
        rid = f"inside-3-4-S-{n}"
        out[rid] = _reading(rid, LINE, INSIDE_SHAPE, exploration.INSIDE, value)
    return out


def test_a_box_read_filled_with_paper_inside_is_read_open_and_listed():
    out = exploration.SCANNER.refine(None, _readings(FILLED, (EMPTY, MARKED)))
    assert set(out) == {"fill-3-4-S"}                       # the insides are refine's own, never shown
    assert out["fill-3-4-S"].value == EMPTY
    assert out["fill-3-4-S"].uncertain                      # a reading refine decided is listed to check


def test_a_box_filled_in_stays_filled():
    out = exploration.SCANNER.refine(None, _readings(FILLED, (EMPTY, EMPTY)))
    assert out["fill-3-4-S"].value == FILLED and out["fill-3-4-S"].confidence == 0.9


def test_the_insides_are_read_only_where_a_box_reads_filled():
    filled = _readings(FILLED, (EMPTY, EMPTY))
    assert exploration.SCANNER.wanted(None, filled) == {"inside-3-4-S-1", "inside-3-4-S-2"}
    assert exploration.SCANNER.wanted(None, _readings(EMPTY, (EMPTY, EMPTY))) == set()
    assert exploration.region_key("inside-3-4-S-2").number == 2


# -- where the bench found it ---------------------------------------------------------------

@pytest.fixture(scope="module")
def heavy():
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    return next(r for r in load_recipes(FAMILIES) if r.id == "graphite-heavy-01")


@pytest.mark.photo
def test_the_open_door_the_bench_read_filled_reads_open(heavy):
    """graphite-heavy-01's flat render (its photo blurs that box's inside shut: read as before)."""
    from sheetgen.scan.pipeline import scan_photo
    fill = "fill-4-24-E"
    recipe = replace(heavy, id=f"{heavy.id}-flat", dpi=300, camera=None)
    img, played = photo_of(recipe)
    result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
    assert played.truth[fill] == EMPTY and played.truth["door" + fill[4:]] == MARKED
    assert result.readings[fill].value == EMPTY and result.readings[fill].uncertain
    # every box the log has filled in is still read filled, and no inside is shown
    for rid, truth in played.truth.items():
        if rid.startswith("fill-") and truth != EMPTY:
            assert result.readings[rid].value == FILLED, rid
    assert not any(rid.startswith("inside-") for rid in result.readings)

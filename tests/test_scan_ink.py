"""The per-photo ink calibration (sheetgen.scan.read.ink_of): a hand's strongest strokes measured on the
photo itself, so a light pencil is judged against its own ink, and a photo with no ink (noise alone) is
read as it is (issue 27 item 2)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of   # noqa: E402
from sheetgen.testing.graphite import Hand                          # noqa: E402
from sheetgen.scan.pipeline import scan_photo                       # noqa: E402

K = 5.0     # px a mm


def _page(stroke: float, noise: float = 0.01, seed: int = 1) -> np.ndarray:
    """A darkness map of paper noise with 20 strokes 0.4 mm wide and 100 mm long of darkness `stroke`."""
    rng = np.random.default_rng(seed)
    dark = rng.normal(0.0, noise, (1000, 800)).astype(np.float32)
    for i in range(20):
        dark[40 + 45 * i:42 + 45 * i, 100:600] = stroke
    return dark


@pytest.fixture(autouse=True)
def calibrated(monkeypatch):
    monkeypatch.setattr(read, "INK_CALIBRATION", True)
    monkeypatch.setattr(read, "INK_LEAST", 0.5)


def test_a_light_hand_is_read_in_units_of_its_own_ink():
    ink, scale = read.ink_of(_page(0.3), K)
    assert ink == pytest.approx(0.3, abs=0.02)
    assert scale == pytest.approx(0.3 / read.INK_REFERENCE, abs=0.05)
    assert scale < 1.0


def test_a_hand_as_dark_as_ours_or_darker_is_read_as_it_is():
    for stroke in (read.INK_REFERENCE + 0.05, 0.9):
        ink, scale = read.ink_of(_page(stroke), K)
        assert ink == pytest.approx(stroke, abs=0.02)
        assert scale == 1.0


def test_paper_noise_alone_moves_no_threshold():
    ink, scale = read.ink_of(_page(0.0, noise=0.03), K)
    assert ink is None
    assert scale == 1.0


def test_the_scale_never_goes_below_its_floor():
    _, scale = read.ink_of(_page(0.15), K)
    assert scale == read.INK_LEAST


def test_uncalibrated_the_scale_is_one(monkeypatch):
    monkeypatch.setattr(read, "INK_CALIBRATION", False)
    ink, scale = read.ink_of(_page(0.3), K)
    assert ink == pytest.approx(0.3, abs=0.02)
    assert scale == 1.0


@pytest.mark.photo
def test_a_light_pencil_flat_render_reads_more_of_its_marks_calibrated(monkeypatch):
    """A sheet of the first corpus penciled with a hard pencil pressed lightly (a seed no corpus uses)."""
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed: apt-get install poppler-utils")
    from pathlib import Path
    base = load_recipes(Path(__file__).parent / "data" / "scan" / "recipes.yaml")[0]
    recipe = replace(base, id="light", pencil=424242, dpi=300, camera=None, hand=Hand(ink="graphite-light"))
    img, played = photo_of(recipe)

    def missed(calibrate: bool) -> tuple[int, int]:
        monkeypatch.setattr(read, "INK_CALIBRATION", calibrate)
        result = scan_photo("light", sheet_ref=played.ref, options=played.options, img=img)
        wrong_marked = wrong_empty = 0
        for rid, truth in played.truth.items():
            r = result.readings.get(rid)
            if r is None or r.hidden:
                continue
            wrong_marked += r.marked and truth == "empty"
            wrong_empty += (not r.marked) and truth != "empty"
        return wrong_empty, wrong_marked
    before, after = missed(False), missed(True)
    assert after[0] < before[0]                 # marks missed: fewer
    assert after[1] <= before[1] + 2            # read where none was drawn: hardly more

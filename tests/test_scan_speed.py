"""What was made faster reads the same: each fast form against the slow one it replaced."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import image as I                     # noqa: E402
from sheetgen.scan.read import _quantiles_of_spans       # noqa: E402

RECIPES = Path(__file__).resolve().parent / "data" / "scan" / "recipes.yaml"


def test_quantiles_of_spans_are_numpys_quantile_of_each_part():
    """Page.wall_ink_level's quantile of each line's points, all lines at once: the same floats as
    np.quantile of each part (linear), with ties, one-point parts, q at 0, 0.5 and 1, and a NaN."""
    rng = np.random.default_rng(27)
    for trial in range(400):
        spans = rng.integers(1, 30, rng.integers(1, 12))
        values = rng.normal(size=int(spans.sum())) * rng.choice([1e-3, 1.0, 50.0])
        if trial % 3 == 0:
            values = np.round(values, 1)
        if trial % 50 == 0:
            values[rng.integers(len(values))] = np.nan
        q = rng.choice([0.0, 0.4, 0.45, 0.5, 1.0, float(rng.random())], len(spans))
        starts = np.cumsum(spans) - spans
        want = [float(np.quantile(values[a:a + n], t)) for a, n, t in zip(starts, spans, q.tolist())]
        assert np.array_equal(_quantiles_of_spans(values, spans, q), np.array(want), equal_nan=True)
    assert _quantiles_of_spans(np.zeros(0), np.zeros(0, np.int64), np.zeros(0)).shape == (0,)


@pytest.mark.photo
def test_modules_the_decoder_refused_are_not_given_to_it_again(monkeypatch):
    """read_qr_grid skips modules already decoded in vain (its `failed`): the decoder told to refuse
    everything sees each pattern of modules once over both searches, and read_qr still answers as
    the decoder would."""
    from dataclasses import replace

    import cv2

    from sheetgen.testing.corpus import flat_of, load_recipes, pdftoppm_available
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    img, played = flat_of(replace(load_recipes(RECIPES)[0], id="qr-flat", dpi=150, camera=None))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    loc = I.locate(img, gray, "qr-flat", I.find_markers(gray))
    assert I.read_qr(gray, loc, 0.1) == played.sheet.identity.encode()
    given: list = []
    monkeypatch.setattr(I, "_decode_bits", lambda bits: given.append(bits.tobytes()))
    failed: set = set()
    assert I.read_qr_grid(gray, loc, 0.1, I.QR_REACH, failed) == ""
    assert given and len(given) == len(set(given)) and set(given) == failed
    before = len(given)
    assert I.read_qr_grid(gray, loc, 0.1, I.QR_REACH, failed) == ""
    assert len(given) == before                     # the same finders, the same modules: none asked again
    given.clear()
    monkeypatch.setattr(cv2, "QRCodeDetector", lambda: type("D", (), {"detectAndDecode": lambda s, c: ("",)})())
    assert I.read_qr(gray, loc, 0.1) is None
    assert len(given) == len(set(given))


def test_a_run_of_many_photos_keeps_freed_arrays_for_the_next(monkeypatch, tmp_path):
    """glibc takes both thresholds (mallopt says no past its most: a threshold raised past 32 MB would
    fail here); the command asks for it over several photos, not for one."""
    import platform
    expected = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert I.keep_freed_memory() is expected
    asked = []
    monkeypatch.setattr(I, "keep_freed_memory", lambda: asked.append(1) or True)
    from click.testing import CliRunner

    from sheetgen.cli import main
    for photos in (["a.jpg"], ["a.jpg", "b.jpg"]):
        CliRunner().invoke(main, ["scan", *[str(tmp_path / p) for p in photos], "-o", str(tmp_path / "out"),
                                  "--jobs", "1"])
    assert asked == [1]

"""What was made faster reads the same: each fast form against the slow one it replaced."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.read import _quantiles_of_spans       # noqa: E402


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

"""The calibrated confidence (sheetgen.scan.confidence) and the one decision rule of the reader."""
from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy", reason="the scan extra (numpy, opencv) is not installed")
pytest.importorskip("cv2", reason="the scan extra (numpy, opencv) is not installed")

from sheetgen.scan import confidence as C  # noqa: E402
from sheetgen.scan.contract import AREA, BOX, DOT, EMPTY, FILL, LINE, MARKED, Region  # noqa: E402
from sheetgen.scan.geometry import AreaShape, LineShape, shape_of  # noqa: E402
from sheetgen.scan.read import Plan, _decided, classify  # noqa: E402


def test_the_logistic_fit_finds_the_weights_it_was_drawn_from():
    rng = np.random.default_rng(5)
    X = np.column_stack([np.ones(20000), rng.uniform(0, 4, 20000)])
    truth = np.array([1.0, -2.5])
    wrong = (rng.uniform(size=20000) < 1 / (1 + np.exp(-(X @ truth)))).astype(float)
    w = C.fit_logistic(X, wrong, l2=1e-6)
    assert np.abs(w - truth).max() < 0.15


def test_a_cell_with_no_misread_is_sure_but_finite():
    # the ridge keeps a cell the training never saw wrong from infinite weights
    X = C.features(np.linspace(0, 4, 500), np.ones(500))
    w = C.fit_logistic(X, np.zeros(500))
    assert np.all(np.isfinite(w)) and C._sigmoid(X @ w).max() < 0.05


def test_a_role_seen_often_enough_gets_its_own_weights_and_the_rest_their_groups():
    rng = np.random.default_rng(7)
    n = 4000
    group = np.full(n, C.GROUP["line"])
    marked = np.zeros(n, bool)
    distance = rng.uniform(0, 4, n)
    role = np.array(["wall"] * (n // 2) + ["path"] * (n // 2), dtype=object)
    # paths misread far more often than walls at the same distance
    p = np.where(role == "path", 0.4, 0.02) * np.exp(-distance)
    wrong = (rng.uniform(size=n) < p).astype(float)
    model = C.Model(C.fit(group, marked, distance, np.ones(n), wrong, role))
    d = np.full(3, 0.5)
    got = model.p_wrong(np.full(3, C.GROUP["line"]), np.zeros(3, bool), d, np.ones(3), ["path", "wall", "door"])
    assert got[0] > 5 * got[1]                  # each role its own
    assert got[1] < got[2] < got[0]             # a role never seen: the group's, fitted over both


REGIONS = [Region("b", BOX, (10, 10, 5, 5), "box"), Region("l", LINE, (0, 0, 10, 0, 1.0), "wall"),
           Region("l2", LINE, (0, 5, 10, 5, 1.0, None, 0.2, 0.3), "path"), Region("d", DOT, (30, 30, 1.5), "visited"),
           Region("a", AREA, (40, 40, 6, 6, 0.08), "letter"), Region("f", FILL, (50, 50, 4, 4), "fill")]


@pytest.mark.parametrize("score", [0.0, 0.004, 0.015, 0.05, 0.2, 0.29, 0.31, 0.45, 0.6, 0.95])
@pytest.mark.parametrize("seen", [1.0, 0.4, 0.1])
def test_one_region_read_alone_reads_as_in_a_plan(score, seen):
    """classify (a region measured again on a part of it) and read_regions decide by one rule."""
    plan = Plan(REGIONS, (400, 400), (100.0, 100.0))
    n = len(REGIONS)
    together = _decided(REGIONS, np.full(n, score), np.full(n, seen), plan)
    for r in REGIONS:
        alone = classify(r, score, seen)
        assert alone == together[r.id]
        assert alone.value in (EMPTY, MARKED, "crossed", "filled")


def test_region_geometry_by_name():
    line = shape_of(LINE, (0, 0, 10, 0, 1.0, None, 0.2, 0.3, None, 1))
    assert isinstance(line, LineShape) and line.gap == 0.2 and line.share == 0.3 and line.as_printed is True
    assert line.centre is None and line.black is None
    assert shape_of(AREA, (1, 2, 3, 4)) == AreaShape(1, 2, 3, 4)
    assert shape_of(FILL, (1, 2, 3, 4, None, 0.0, -1.5)).dy == -1.5 and shape_of(FILL, (1, 2, 3, 4)).dx == 0.0
    with pytest.raises(ValueError):
        shape_of("blob", (1, 2))
    assert math.isclose(shape_of(DOT, (1, 2, 0.5)).r, 0.5)

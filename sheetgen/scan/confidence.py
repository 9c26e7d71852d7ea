"""A region's reading made a probability: how likely it is right, calibrated on the family corpus.

The reader decides each region by one measure against one threshold (sheetgen.scan.read); how far
the measure is from it, in the region kind's own margin (`distance`: 0 on the threshold, 1 a margin
away), says how sure the reading is, but not in the same way for every kind of region: a wall a
margin past its threshold is surer than a letter's area a margin past its own.  So per reading
*cell* (the way a region is measured, `GROUPS`, and what it read, marked or empty) a logistic
regression gives P(the reading is wrong) from a few features of the reading (`features`), fitted
on the randomised families of tests/data/scan (tests/tools/train_scan_confidence.py writes the
weights into sheetgen/scan/confidence_weights.py; the numbers are in docs/scanning.md).

A reading is *uncertain* when its probability of being wrong is above BOUND (`bound_of`).  The
confidence kept in a reading (RegionReading.confidence, 0..1, uncertain below 0.5) is that
probability on a log scale: 0.5 at BOUND, 1.0 at BOUND squared, 0 when surely wrong.

numpy only, at import of read.py's callers: this module is part of the scan extra.
"""
from __future__ import annotations

import math

import numpy as np

# how a region is measured: its kind, and the variant of the measure its geometry asks for
GROUPS = ("box", "box-strokes", "line", "line-centre", "dot", "area", "area-local", "fill")
GROUP = {name: i for i, name in enumerate(GROUPS)}
FEATURES = ("1", "distance", "log distance", "seen")
DISTANCE_CAP = 4.0          # margins: beyond this a measure says no more (the fit's tails stay sane)
LOG_FLOOR = 0.02            # the log feature's floor: a measure on the threshold is not -infinity
# The bound: a sheet has some hundreds of regions read (a Four-y map about 600, the exploration sheet
# about 1,100); a "consistent" verdict wants fewer than EXPECTED_MISREADS expected misreads among the
# regions it takes as read, over a sheet of READ_REGIONS: no region may pass with more than their ratio.
EXPECTED_MISREADS = 0.05
READ_REGIONS = 500
BOUND = EXPECTED_MISREADS / READ_REGIONS
L2 = 1.0                    # the weights' ridge (one pseudo-observation's worth): cells with few misreads stay sane


def features(distance: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """The features of readings (rows), in FEATURES' order."""
    d = np.minimum(np.asarray(distance, dtype=np.float64), DISTANCE_CAP)
    return np.column_stack([np.ones_like(d), d, np.log(d + LOG_FLOOR), np.asarray(seen, dtype=np.float64)])


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def fit_logistic(X: np.ndarray, wrong: np.ndarray, weight: np.ndarray | None = None, l2: float = L2,
                 steps: int = 100) -> np.ndarray:
    """Weights w of P(wrong) = sigmoid(X @ w): Newton's method on the log-likelihood with a ridge on every
    weight but the intercept, each step halved until the penalised loss falls (rare misreads make the
    data nearly separable, where a full step overshoots)."""
    n, k = X.shape
    sw = np.ones(n) if weight is None else weight
    ridge = np.full(k, l2)
    ridge[0] = 1e-6

    def loss(w):
        z = X @ w
        return float((sw * (np.logaddexp(0.0, z) - wrong * z)).sum() + 0.5 * (ridge * w * w).sum())
    w = np.zeros(k)
    base = float(np.clip((sw * wrong).sum() / max(sw.sum(), 1e-9), 1e-6, 1 - 1e-6))
    w[0] = math.log(base / (1 - base))
    current = loss(w)
    for _ in range(steps):
        p = _sigmoid(X @ w)
        grad = X.T @ (sw * (p - wrong)) + ridge * w
        H = (X * (sw * p * (1 - p))[:, None]).T @ X + np.diag(ridge)
        step = np.linalg.solve(H, grad)
        scale = 1.0
        while scale > 1e-4:
            trial = w - scale * step
            got = loss(trial)
            if got <= current:
                break
            scale /= 2
        else:
            break
        w, gain, current = trial, current - got, got
        if gain < 1e-9 * max(1.0, abs(current)):
            break
    return w


def fit(group: np.ndarray, marked: np.ndarray, distance: np.ndarray, seen: np.ndarray, wrong: np.ndarray,
        weight: np.ndarray | None = None) -> dict:
    """The model: per cell (group, read marked or empty) the weights of P(wrong); a cell too little seen
    (fewer than MIN_CELL readings) takes its kind's pooled fit ('pooled': over every group, by what it read)."""
    X = features(distance, seen)
    model: dict = {"features": list(FEATURES), "cells": {}, "pooled": {}}
    for m in (False, True):
        sel = marked == m
        model["pooled"][_value(m)] = fit_logistic(X[sel], wrong[sel], None if weight is None else weight[sel]).tolist()
        for g, name in enumerate(GROUPS):
            cell = sel & (group == g)
            if cell.sum() >= MIN_CELL:
                w = fit_logistic(X[cell], wrong[cell], None if weight is None else weight[cell])
                model["cells"][f"{name}/{_value(m)}"] = [round(float(v), 5) for v in w]
    model["pooled"] = {k: [round(float(v), 5) for v in w] for k, w in model["pooled"].items()}
    return model


MIN_CELL = 200


def _value(marked: bool) -> str:
    return "marked" if marked else "empty"


class Model:
    """A fitted model (`fit`'s dict) as arrays: P(wrong) of many readings at once."""

    def __init__(self, model: dict):
        self.table = np.zeros((len(GROUPS), 2, len(FEATURES)))
        for g, name in enumerate(GROUPS):
            for m in (0, 1):
                w = model["cells"].get(f"{name}/{_value(bool(m))}", model["pooled"][_value(bool(m))])
                self.table[g, m] = w

    def p_wrong(self, group: np.ndarray, marked: np.ndarray, distance: np.ndarray, seen: np.ndarray) -> np.ndarray:
        X = features(distance, seen)
        W = self.table[np.asarray(group, dtype=np.int64), np.asarray(marked, dtype=np.int64)]
        return _sigmoid(np.einsum("ij,ij->i", X, W))


def confidence_of(p_wrong: np.ndarray, bound: float = BOUND) -> np.ndarray:
    """The kept confidence of readings wrong with probability p_wrong: log p_wrong / (2 log bound), within
    0..1: 0.5 at bound, 1 at bound squared (uncertain below 0.5, as the reading's confidence always was)."""
    p = np.clip(np.asarray(p_wrong, dtype=np.float64), 1e-300, 1.0)
    return np.clip(np.log(p) / (2 * math.log(bound)), 0.0, 1.0)


def shipped() -> Model | None:
    """The model that ships (sheetgen/scan/confidence_weights.py), None when there is none yet."""
    global _shipped
    if _shipped is None:
        try:
            from .confidence_weights import MODEL
        except ImportError:
            return None
        _shipped = Model(MODEL)
    return _shipped


_shipped: Model | None = None

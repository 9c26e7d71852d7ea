"""A region's reading as a probability of being wrong, calibrated on the family corpus.

The reader decides each region by one measure against one threshold (sheetgen.scan.read); how far
the measure is from it, in the region kind's own margin (its `distance`: 0 on the threshold, 1 a
margin away), says how sure the reading is, but not alike for every kind of region: a wall a margin
past its threshold is surer than a letter's area a margin past its own.  So per reading *cell*
(the way a region is measured, `GROUPS`, or its role where the data has enough of it, and what it
read, marked or empty) a logistic regression gives P(the reading is wrong) from a few features of
the reading (`FEATURES`), numpy only (Newton's method, a small ridge).

bench/bench_scan.py --families --hold-out all fits it leaving each family out and holds its verdict
(a region uncertain when P(wrong) > BOUND) against the reader's margin rule (uncertain within half a
margin of the threshold); tests/tools/train_scan_confidence.py fits it on a draw of the families of
its own.  Measured so (docs/scanning.md), it tells no more legal sheets "consistent" than the margin
rule without telling more misread ones so: the reader keeps the margin rule, and this stays the
yardstick a better feature (coverage along a band, continuity, darkness against local paper) has to
move.
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
# the comparison cut: P(wrong) above it is uncertain; at 0.2 the calibrated rule tells about as many held-out
# legal sheets "consistent" as the margin rule does, so the two are compared at equal yield
BOUND = 0.2
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
        role: np.ndarray | None = None) -> dict:
    """The model: per cell (group, read marked or empty) the weights of P(wrong), and per role (what a region
    is for in its game: walls, paths, visited dots ...) seen at least MIN_CELL times with MIN_WRONG misreads
    its own; a cell too little seen takes the pooled fit over every group, by what it read."""
    X = features(distance, seen)
    model: dict = {"features": list(FEATURES), "cells": {}, "roles": {}, "pooled": {}}
    for m in (False, True):
        sel = marked == m
        model["pooled"][_value(m)] = _rounded(fit_logistic(X[sel], wrong[sel]))
        for g, name in enumerate(GROUPS):
            cell = sel & (group == g)
            if cell.sum() >= MIN_CELL:
                model["cells"][f"{name}/{_value(m)}"] = _rounded(fit_logistic(X[cell], wrong[cell]))
        if role is not None:
            for name in sorted(set(role[sel].tolist())):
                cell = sel & (role == name)
                if cell.sum() >= MIN_CELL and wrong[cell].sum() >= MIN_WRONG:
                    model["roles"][f"{name}/{_value(m)}"] = _rounded(fit_logistic(X[cell], wrong[cell]))
    return model


MIN_CELL = 200
MIN_WRONG = 3


def _rounded(w: np.ndarray) -> list[float]:
    return [round(float(v), 5) for v in w]


def _value(marked: bool) -> str:
    return "marked" if marked else "empty"


class Model:
    """A fitted model (`fit`'s dict) as arrays: P(wrong) of many readings at once."""

    def __init__(self, model: dict):
        rows = []
        self.group_rows = np.zeros((len(GROUPS), 2), np.int64)
        for g, name in enumerate(GROUPS):
            for m in (0, 1):
                self.group_rows[g, m] = len(rows)
                rows.append(model["cells"].get(f"{name}/{_value(bool(m))}", model["pooled"][_value(bool(m))]))
        self.role_rows: dict[str, list[int]] = {}
        for key, w in sorted(model.get("roles", {}).items()):
            name, value = key.rsplit("/", 1)
            self.role_rows.setdefault(name, [-1, -1])[value == "marked"] = len(rows)
            rows.append(w)
        self.table = np.array(rows, dtype=np.float64)

    def rows(self, group: np.ndarray, role: list[str] | None = None) -> np.ndarray:
        """(n, 2): per region the table row of its reading empty and marked (its role's, else its group's)."""
        out = self.group_rows[np.asarray(group, dtype=np.int64)].copy()
        for i, name in enumerate(role or ()):
            own = self.role_rows.get(name)
            if own is not None:
                out[i] = [r if r >= 0 else out[i, m] for m, r in enumerate(own)]
        return out

    def p_wrong(self, group: np.ndarray, marked: np.ndarray, distance: np.ndarray, seen: np.ndarray,
                role: list[str] | None = None, rows: np.ndarray | None = None) -> np.ndarray:
        X = features(distance, seen)
        rows = self.rows(group, role) if rows is None else rows
        W = self.table[rows[np.arange(len(X)), np.asarray(marked, dtype=np.int64)]]
        return _sigmoid(np.einsum("ij,ij->i", X, W))

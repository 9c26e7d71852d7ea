"""Statistics every simulation report shares: the Wilson interval and the two-proportion test."""
from __future__ import annotations

import math


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def two_proportions(x1: int, n1: int, x2: int, n2: int) -> dict:
    """Difference p1 - p2 with its 95% Wald interval and the pooled two-proportion z test."""
    p1, p2 = (x1 / n1 if n1 else 0.0), (x2 / n2 if n2 else 0.0)
    diff = p1 - p2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2) if n1 and n2 else 0.0
    pooled = (x1 + x2) / (n1 + n2) if n1 + n2 else 0.0
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2)) if n1 and n2 else 0.0
    if se0 == 0.0:
        z, p_two = 0.0, 1.0
    else:
        z = diff / se0
        p_two = min(1.0, 2 * normal_sf(abs(z)))
    return {"difference": diff, "ci95": (diff - 1.96 * se, diff + 1.96 * se), "z": z, "p_value": p_two,
            "p_one_sided": normal_sf(abs(z)) if se0 else 0.5}

"""Hatch and dot patterns are clipped to their outline geometrically."""
import pytest

from sheetgen.draw.patterns import (dot_centres, hatch_segments, inside, pattern_for_colour, pattern_items,
                                    rect_points)

L_SHAPE = [(0, 0), (10, 0), (10, 4), (4, 4), (4, 10), (0, 10)]      # concave


def _on_or_inside(x, y, poly, eps=1e-6):
    return inside((x, y), poly) or any(
        abs((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) < eps * 100 and
        min(x1, x2) - eps <= x <= max(x1, x2) + eps and min(y1, y2) - eps <= y <= max(y1, y2) + eps
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]))


@pytest.mark.parametrize("angle", [0, 45, 90, 135, 30])
def test_hatch_lines_stay_inside_a_concave_outline(angle):
    segments = hatch_segments(L_SHAPE, 0.7, angle)
    assert len(segments) > 8
    for x1, y1, x2, y2 in segments:
        assert _on_or_inside(x1, y1, L_SHAPE) and _on_or_inside(x2, y2, L_SHAPE)
        for f in (0.25, 0.5, 0.75):                      # the whole segment, not just its ends
            assert inside((x1 + f * (x2 - x1), y1 + f * (y2 - y1)), L_SHAPE)


def test_horizontal_hatch_is_cut_at_the_notch():
    segs = hatch_segments(L_SHAPE, 2.0, 0)
    assert (0.0, 1.0, 10.0, 1.0) in segs and (0.0, 5.0, 4.0, 5.0) in segs


def test_dots_only_inside():
    dots = dot_centres(L_SHAPE, 1.0)
    assert dots and all(inside(p, L_SHAPE) for p in dots)
    assert not any(x > 4.5 and y > 4.5 for x, y in dots)


def test_pattern_choice_tells_colours_apart_and_drops_tints():
    assert pattern_for_colour("#c0392b") != pattern_for_colour("#2c5aa0") != pattern_for_colour("#2e8b57")
    assert pattern_for_colour("#f1e3c6") == "none" and pattern_for_colour("#808080") == "none"
    group = pattern_items("crosshatch", rect_points(0, 0, 10, 10), id="p")
    assert group.id == "p" and len(group.items) > 10
    with pytest.raises(ValueError):
        pattern_items("zigzag", rect_points(0, 0, 1, 1))

"""A line read with its twin (Dungeon Exploration's door box: its two sides, read together so that a
wall's stroke off its edge, which darkens one side only, is no door) is unsure where one side is
penciled and the other drawn light along part of it: the box a person sees, not confidently empty.

Motivated by the family corpus's one photo read wrong and told "consistent" (a black ballpoint door
box, one side drawn light: read empty, sure); drawn here by hand on a page made of numpy arrays."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.contract import EMPTY, LINE, UNCERTAIN, Region        # noqa: E402
from sheetgen.scan.geometry import LineShape                              # noqa: E402
from sheetgen.scan.read import TWIN_BOTH_DOUBT, Page, Plan, read_regions  # noqa: E402

K = 5                       # px a mm
SHARE = 0.65
X1, X2, Y, TWIN = 10.0, 13.0, 20.0, -2.0      # the side read, and its twin 2 mm above it


def _door(side: float, twin: float, twin_along: float = 1.0):
    """The door's reading on a white 40 x 40 mm page: its side penciled `side` dark (0: none), its twin
    `twin` dark along the first `twin_along` of its length."""
    template = np.ones((40 * K, 40 * K, 3), np.float32)
    template[:25, :25, :] = 0.5                     # some print, far away, for the tone to be fitted on
    photo = np.full((40 * K, 40 * K), 235.0, np.float32)
    photo[:25, :25] = 235.0 * 0.5
    x1, x2 = int(X1 * K), int(X2 * K)
    if side:
        photo[int(Y * K) - 1:int(Y * K) + 1, x1:x2] *= 1 - side
    if twin:
        photo[int((Y + TWIN) * K) - 1:int((Y + TWIN) * K) + 1, x1:x1 + int((x2 - x1) * twin_along)] *= 1 - twin
    region = Region("door", LINE, LineShape(X1, Y, X2, Y, band=0.9, share=SHARE, twin=TWIN), "door")
    page = Page(photo, template, (40.0, 40.0), align=False)
    return read_regions(page, Plan([region], photo.shape, (40.0, 40.0)))["door"]


def test_a_box_with_both_sides_penciled_is_a_door():
    door = _door(0.6, 0.6)
    assert door.marked and not door.uncertain


def test_nothing_and_a_walls_stroke_on_one_side_are_no_door_surely():
    for side, twin in ((0.0, 0.0), (0.6, 0.0), (0.0, 0.6)):
        door = _door(side, twin)
        assert door.value == EMPTY and not door.uncertain, (side, twin, door)


def test_a_box_drawn_light_on_one_side_is_unsure_not_surely_empty():
    # the twin penciled along a third of it: both sides together fall short of the share
    door = _door(0.6, 0.6, twin_along=0.35)
    assert 0.0 < door.score < SHARE
    assert door.score >= TWIN_BOTH_DOUBT * SHARE
    assert door.value == EMPTY and door.uncertain and door.confidence < UNCERTAIN


def test_one_side_and_a_speck_of_the_other_stays_sure():
    # both together along less than TWIN_BOTH_DOUBT of the share: a wall's stroke and the grain, not a box
    door = _door(0.6, 0.6, twin_along=0.08)
    assert door.score < TWIN_BOTH_DOUBT * SHARE
    assert door.value == EMPTY and not door.uncertain

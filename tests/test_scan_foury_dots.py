"""Dungeon Foury's visited dots under another mark's stroke, read where the scan bench found them
misread (tests/data/scan/recipes.yaml), flat (a 300 dpi render), photographed (the DISTORTED
camera) and as the bench photographed them: a dot an item's strike runs through is the room's
where a path a jump's line hides may reach the room, and no dot where none may."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.contract import EMPTY                                              # noqa: E402
from tests.test_scan_foury_reading import IMAGES, _read, _wrong, recipes  # noqa: E402,F401 (a fixture)

# a room entered along a path a jump's line runs all along (its ink the jump's), its item struck
# through its dot: the dot read is the room's, not the strike's
DOTS_UNDER_STRIKES = {"photo-0064": ["cell-A10"], "photo-0258": ["cell-A10"]}
# ... and where no jump hides a path, a strike through an unvisited room's dot place is no dot
# (the Furious clears a sector: items struck in rooms never entered)
STRIKES_ALONE = {"photo-0077": ["cell-A1", "cell-B1", "cell-B2", "cell-C1", "cell-C2", "cell-D4", "cell-E1",
                                "cell-E3", "cell-E4", "cell-E5", "cell-F3", "cell-G1", "cell-G2", "cell-G4"]}


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("rid", sorted(DOTS_UNDER_STRIKES))
def test_a_dot_under_a_strike_by_a_path_a_jump_hides_reads(recipes, rid, image):
    # the flat render prints the room's chest sharp and dark: its dot cannot be seen there
    read = _read(recipes, rid, image, DOTS_UNDER_STRIKES[rid], hidden_flat=True)
    assert _wrong(read) == {} and all(t != EMPTY for _, t in read.values())


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("rid", sorted(STRIKES_ALONE))
def test_a_strike_through_a_room_never_entered_is_no_dot(recipes, rid, image):
    read = _read(recipes, rid, image, STRIKES_ALONE[rid])
    assert _wrong(read) == {} and all(t == EMPTY for _, t in read.values())

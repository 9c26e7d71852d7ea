"""Faint thin paths and false foes on Dungeon Foury's sheet, on the regions where the scan bench
found them (tests/data/scan/recipes.yaml), flat and photographed, and beside them the marks of
that kind still read right: a path nobody walked stays empty, a real foe still reads.

- A path read by its centre band against its sides (sheetgen.scan.read, a LINE's `centre`): a thin
  faint stroke is darker along its middle than beside it; the paper's unevenness, a shadow's edge or
  a broad blur are not.
- A cross whose lower right arm an icon hides, read by its upper left arm between the foe's place
  and the dot: the arm's stroke in the foe's place is no letter."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.contract import EMPTY, LINE, Region                     # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions                    # noqa: E402
from tests.test_scan_foury_reading import IMAGES, _read, _scan, _wrong, recipes   # noqa: E402,F401


# -- the measure --------------------------------------------------------------------------------------
K, W, H = 5.0, 60.0, 40.0           # px a mm, the page's mm


def _page_with(darkening) -> Page:
    """A white page (a printed dark strip at its top for the tone) whose rows darken by
    darkening(mm from y = 20): a feature along the line y = 20."""
    rows, cols = int(H * K), int(W * K)
    y = (np.arange(rows) + 0.5) / K - 20.0
    grey = 235.0 * (1.0 - darkening(y))[:, None] * np.ones((1, cols))
    grey += np.random.default_rng(1).normal(0.0, 1.0, grey.shape)
    template = np.ones((rows, cols, 3), np.float32)
    template[:int(2 * K)] = 0.0
    grey[:int(2 * K)] = 10.0
    return Page(grey.astype(np.float32), template, (W, H), align=False)


LINES = [Region("across", LINE, (10.0, 20.0, 50.0, 20.0, 1.8), "path"),
         Region("centre", LINE, (10.0, 20.0, 50.0, 20.0, 1.8, None, None, 0.4, None, None, 0.06), "path")]


@pytest.mark.parametrize("what, darkening, across, centre", [
    ("a thin faint stroke", lambda y: 0.16 * np.exp(-0.5 * (y / 0.22) ** 2), "empty", "marked"),
    ("a dark stroke", lambda y: 0.6 * np.exp(-0.5 * (y / 0.2) ** 2), "marked", "marked"),
    ("a broad soft band (blur, a dull patch of paper)", lambda y: 0.15 * np.exp(-0.5 * (y / 1.5) ** 2),
     "marked", "empty"),
    ("a shadow's edge along the line", lambda y: 0.15 * (y > 0), "empty", "empty"),
    ("blank paper", lambda y: 0.0 * y, "empty", "empty"),
])
def test_a_line_read_by_its_centre_band_against_its_sides(what, darkening, across, centre):
    read = read_regions(_page_with(darkening), Plan(LINES, (int(H * K), int(W * K)), (W, H)))
    assert (read["across"].value, read["centre"].value) == (across, centre), what


# -- faint thin paths between two dotted rooms ---------------------------------------------------------
FAINT_PATHS = {"photo-0016": ["D10-E10", "E6-F6", "H5-I5", "K1-K2", "K8-K9", "J9-K9"],
               "photo-0110": ["H7-H8"], "photo-0111": ["A4-A5", "H7-H8", "J9-K9"],
               "photo-0112": ["D2-D3", "G6-H6"], "photo-0207": ["G3-G4"], "photo-0257": ["D6-E6"]}


@pytest.mark.parametrize("rid, image", [(rid, image) for rid in sorted(FAINT_PATHS) for image in IMAGES])
def test_a_faint_thin_path_between_two_dotted_rooms_reads(recipes, rid, image):
    """The 2 MP photos' strokes are 0.06-0.11 mm of black across against the 0.10 a point of an
    ordinary line needs; their centre band is darker than beside them all along."""
    read = _read(recipes, rid, image, [f"path-{p}" for p in FAINT_PATHS[rid]], hidden_flat=rid == "photo-0257")
    assert _wrong(read) == {}
    assert all(t != EMPTY for _, t in read.values()), "the log walks these paths"


@pytest.mark.parametrize("rid, image", [(rid, image) for rid in sorted(FAINT_PATHS) for image in IMAGES])
def test_no_path_between_two_dotted_rooms_nobody_walked(recipes, rid, image):
    """Every path place of those sheets read as the log penciled it: rooms side by side, both
    entered, never one from the other (photo-0016's E7-F7, H10-I10, A6-B6: their centre band reads
    along a third to half of them) stay empty, and so does every other place nobody walked."""
    result, played = _scan(recipes, rid, image)
    places = [r for r, reading in result.readings.items() if reading.region.role == "path" and r in played.truth]
    assert _wrong(_read(recipes, rid, image, places)) == {}
    assert any(played.truth[r] == EMPTY for r in places)


# -- a cross whose lower right arm an icon hides: its upper left arm is no foe ---------------------------
CROSSED_UNDER_ICONS = {"photo-0112": ["G4"], "photo-0207": ["K3", "K7"], "photo-0305": ["H6"]}


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("rid", sorted(CROSSED_UNDER_ICONS))
def test_a_crosss_arm_through_the_foes_place_is_no_foe(recipes, rid, image):
    """The room is crossed out, its item struck (along the cross's other stroke), the lower right arm
    under the item's icon; the upper left arm's stroke through the foe's place read as a letter
    (0.10-0.22 of mean darkness, as a letter reads) where the arm's own region, off the askew stroke
    and the zone's tab, read under 0.7: the arm between the foe's place and the dot tells."""
    cells = CROSSED_UNDER_ICONS[rid]
    assert _wrong(_read(recipes, rid, image, [f"monster-{c}" for c in cells])) == {}
    result, played = _scan(recipes, rid, image)
    assert all(played.truth[f"room-{c}"] != EMPTY and played.truth[f"monster-{c}"] == EMPTY for c in cells)
    assert not set(cells) & result.view.foes


@pytest.mark.parametrize("image", IMAGES)
def test_a_foe_written_in_a_room_whose_item_is_struck_is_no_cross(recipes, image):
    """photo-0049: a foe written in D2, its item struck, its lower right corner under an icon: the
    letter keeps out of the upper left arm's part by the dot, so the room is not read crossed and
    the foe still reads."""
    assert _read(recipes, "photo-0049", image, ["monster-D2"]) == {"monster-D2": ("marked", "marked")}
    result, played = _scan(recipes, "photo-0049", image)
    assert played.truth["room-D2"] == EMPTY and "D2" not in result.view.rooms and "D2" in result.view.foes


# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo

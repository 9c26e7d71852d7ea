"""Dungeon Foury's sheet read region by region where the scan bench found misreads
(tests/data/scan/recipes.yaml), each on the very regions it was found on, flat (a 300 dpi
render, as a flatbed scan) and photographed (tilted, turned, blurred, JPEG, uneven light),
and beside each the real mark of that kind still read marked: a fix that made the scanner
blind to a mark would make a sheet read consistent that is not."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.contract import EMPTY                                   # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of   # noqa: E402
from sheetgen.scan.pipeline import scan_photo                              # noqa: E402

RECIPES = Path(__file__).parent / "data" / "scan" / "recipes.yaml"
CLEAN = dict(megapixels=2, rotation=0.0, tilt=0.0, fill=0.85, k1=0.0, light=0.0, shadow=0.0, blur=0.0,
             noise=1.0, jpeg=90)
DISTORTED = dict(CLEAN, tilt=22.0, tilt_axis=120.0, rotation=200.0, blur=0.9, noise=3.0, jpeg=70, light=0.25,
                 light_angle=30.0, shadow=0.25, shadow_line=(0.4, 70.0))
IMAGES = ["flat", "photo", "bench photo"]
# A foe's letter written half over the printed label of its place reads on the part beside the
# label; some hands' letters put too little there.  Since issue 28 changed the Foury pencil
# overlay (merge 1542bc6) the pencil's random strokes differ, and E6's M on photo-0116 and
# photo-0213 is now one of those: read empty.  A reader limit (issue 27), not a tuning to make: the misread is kept in view
LETTER_OVER_LABEL = ("E6's M, written half over the printed label of the foe's place, reads too faint "
                     "since the pencil's strokes changed (issue 28's overlay): the reader's limit with "
                     "letters over print, issue 27")


@pytest.fixture(scope="module")
def recipes():
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    return {r.id: r for r in load_recipes(RECIPES)}


_scans: dict = {}


def _scan(recipes, rid: str, image: str):
    """(result, played) of the recipe as a flat 300 dpi render, as the DISTORTED photo, or as the
    bench photographed it (by --sheet: a tilted 2 MP photo's QR code is often too small)."""
    key = (rid, image)
    if key not in _scans:
        base = recipes[rid]
        recipe = {"flat": lambda: replace(base, id=f"{rid}-flat", dpi=300, camera=None),
                  "photo": lambda: replace(base, id=f"{rid}-photo", camera=replace(base.camera, **DISTORTED)),
                  "bench photo": lambda: base}[image]()
        img, played = photo_of(recipe)
        _scans[key] = (scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img), played)
        if len(_scans) > 6:
            del _scans[next(iter(_scans))]
    return _scans[key]


def _read(recipes, rid: str, image: str, regions: list[str], hidden_flat: bool = False) -> dict[str, tuple[str, str]]:
    """region -> (what the scanner read, what the log penciled), the regions that could be seen;
    hidden_flat: on the flat render the zone's tab (printed sharper) hides them all, and that is
    asserted instead (a region under print is never read)."""
    result, played = _scan(recipes, rid, image)
    out = {r: (result.readings[r].value, played.truth[r]) for r in regions if not result.readings[r].hidden}
    if hidden_flat and image == "flat":
        assert out == {}, f"{rid} flat: seen after all, drop hidden_flat"
        return out
    assert out, f"{rid} {image}: every region hidden, pick others"
    return out


def _wrong(read: dict) -> dict:
    return {r: f"read {v}, penciled {t}" for r, (v, t) in read.items() if (v != EMPTY) != (t != EMPTY)}


# -- a crossed room whose lower right arm is under an icon -------------------------------------------
# the cross's upper left arm runs through the foe's place: it read as a letter written in
CROSSED_UNDER_ICONS = {"photo-0015": ["G4"], "photo-0211": ["I2", "K2", "J10"]}


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("rid", sorted(CROSSED_UNDER_ICONS))
def test_the_arm_of_a_cross_an_icon_half_hides_is_no_foe(recipes, rid, image):
    cells = CROSSED_UNDER_ICONS[rid]
    read = _read(recipes, rid, image, [f"monster-{c}" for c in cells], hidden_flat=rid == "photo-0015")
    assert _wrong(read) == {}
    _, played = _scan(recipes, rid, image)
    assert all(played.truth[f"room-{c}"] != EMPTY for c in cells), "the log crosses these rooms out"


@pytest.mark.parametrize("image", IMAGES)
def test_a_foe_written_in_a_room_whose_item_is_struck_still_reads(recipes, image):
    """photo-0049: a foe written in D2, whose item is struck through and whose lower right corner
    is under an icon: the letter reads along the cross's upper left arm, as a cross would, but
    darker than an arm's stroke makes the foe's place; photo-0008: a foe in plain view (I5; on the
    flat render its zone's tab hides it)."""
    assert _read(recipes, "photo-0049", image, ["monster-D2"]) == {"monster-D2": ("marked", "marked")}
    read = _read(recipes, "photo-0008", image, ["monster-I5"], hidden_flat=True)
    assert read == ({} if image == "flat" else {"monster-I5": ("marked", "marked")})


def test_the_upper_left_arms_are_read_but_never_reported(recipes):
    """The arms (and the foe's places clear of walls) are refine's: no reading of the result, no key
    of the expected values."""
    result, played = _scan(recipes, "photo-0015", "flat")
    assert [rid for rid in result.readings if rid.startswith("arm-")] == []
    assert [rid for rid in played.truth if rid.startswith("arm-")] == []
    assert any(r.id.startswith("arm-") for r in played.scanner.regions(played.sheet))
    # so are the parts of the foe's places clear of the walls
    assert [rid for rid in result.readings if rid.startswith("letter-")] == []
    assert [rid for rid in played.truth if rid.startswith("letter-")] == []
    assert any(r.id.startswith("letter-") for r in played.scanner.regions(played.sheet))


# -- a jump between magic circles along crossed rooms -------------------------------------------------
@pytest.mark.parametrize("image", IMAGES)
def test_a_diagonal_jump_along_crossed_rooms_is_not_read_without_its_rooms_dots(recipes, image):
    """photo-0013: K5 and I7 are magic circles on one diagonal; J6 between them is crossed out and
    K5's item struck through, so the strokes corner to corner lie along the jump's line.  The log
    never jumps there (I7 has no dot)."""
    read = _read(recipes, "photo-0013", image, ["jump-K5-I7"])
    assert _wrong(read) == {}
    result, _ = _scan(recipes, "photo-0013", image)
    assert "K5~I7" not in result.view.path and "I7" not in result.view.visited


@pytest.mark.parametrize("image", IMAGES)
def test_a_jump_walked_still_reads(recipes, image):
    """photo-0118's log jumps from G4 to E8 (not along crosses); photo-0064's along its jumps."""
    read = _read(recipes, "photo-0118", image, ["jump-G4-E8"])
    assert read == {"jump-G4-E8": ("marked", "marked")}


# -- a foe's place a jump's line runs through ----------------------------------------------------------
@pytest.mark.parametrize("image", IMAGES)
def test_a_jumps_line_through_a_foes_place_is_no_foe(recipes, image):
    """photo-0118: the jump G4 -> E8 runs through G5's foe place."""
    assert _wrong(_read(recipes, "photo-0118", image, ["monster-G5"], hidden_flat=True)) == {}


# -- a path walked across a wall that collapsed behind it -------------------------------------------
@pytest.mark.parametrize("image", IMAGES)
def test_a_path_walked_before_the_wall_behind_collapsed_reads(recipes, image):
    """photo-0009: B3 -> C3, then the wall between them collapses (the die's "the wall behind you");
    the wall's stroke crosses the path and the magic circle printed in B3 hides part of it."""
    read = _read(recipes, "photo-0009", image, ["path-B3-C3", "wall-B3-E"])
    assert read == {"path-B3-C3": ("marked", "marked"), "wall-B3-E": ("marked", "marked")}


@pytest.mark.parametrize("image", IMAGES)
def test_a_walls_stroke_alone_is_no_path(recipes, image):
    """photo-0032: the wall C1:E penciled, C1-D1 never walked (D1 has no dot): the wall's ink
    along the path's place does not make it one."""
    read = _read(recipes, "photo-0032", image, ["path-C1-D1", "wall-C1-E"])
    assert read == {"path-C1-D1": ("empty", "empty"), "wall-C1-E": ("marked", "marked")}


# -- a flood's waves beside a path's place ------------------------------------------------------------
@pytest.mark.parametrize("image", IMAGES)
def test_a_floods_waves_are_no_path(recipes, image):
    """photo-0010: G7 drawn flooded, its waves' crests in the band of F7-G7, which nobody walks;
    both rooms' dots are under icons (F7's printed waves, G7's)."""
    assert _wrong(_read(recipes, "photo-0010", image, ["path-F7-G7", "flood-G7"])) == {}


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("rid,path", [("photo-0012", "path-H3-I3"), ("photo-0060", "path-A4-A5")])
def test_a_path_walked_into_a_flooded_room_still_reads(recipes, rid, path, image):
    """Read weakly on the bench's photos (about half its length), beside a room drawn flooded: the
    dots at its ends are seen, so it is a path, not the waves."""
    assert _read(recipes, rid, image, [path]) == {path: ("marked", "marked")}


# -- a cross whose lower right arm is half under an icon: read by its other strokes ------------------
@pytest.mark.parametrize("image", IMAGES)
def test_a_cross_an_icon_half_hides_reads_by_its_other_strokes(recipes, image):
    """photo-0018: C11 crossed out in the log, its lower right arm mostly under an icon (read
    empty), its upper left arm and the other stroke penciled, nothing written in its foe's place."""
    result, played = _scan(recipes, "photo-0018", image)
    assert "C11" in played.expected.rooms
    assert "C11" in result.view.rooms


@pytest.mark.parametrize("image", IMAGES)
def test_the_little_seen_of_an_arm_is_no_cross_where_the_other_arm_is_bare(recipes, image):
    """photo-0008: K5's item is struck through, the room never crossed out; the strike's stroke and
    the icon's edge read along the little of the lower right arm an icon leaves seen, while the upper
    left arm, in plain view, has no pencil."""
    result, played = _scan(recipes, "photo-0008", image)
    assert "K5" not in played.expected.rooms and "K5" in played.expected.struck
    assert "K5" not in result.view.rooms and "K5" in result.view.struck


# -- a faint path between two rooms other paths enter -------------------------------------------------
@pytest.mark.parametrize("image", IMAGES)
def test_a_faint_path_between_two_rooms_entered_reads(recipes, image):
    """photo-0218 (2 MP, blur 1.4 px): H6-I6 read along half its length, H6's dot faint (read
    empty), but the paths into H6 are penciled all along: H6 was entered, and so was the path."""
    assert _read(recipes, "photo-0218", image, ["path-H6-I6"]) == {"path-H6-I6": ("marked", "marked")}


@pytest.mark.parametrize("image", IMAGES)
def test_no_path_between_two_rooms_entered_that_nobody_walked(recipes, image):
    """photo-0016: E7 and F7 are both entered, never one from the other; what reads in the band
    between them (a quarter of it on the flat render) is not a path."""
    assert _wrong(_read(recipes, "photo-0016", image, ["path-E7-F7"])) == {}
    result, _ = _scan(recipes, "photo-0016", image)
    assert "E7-F7" not in result.view.path


# -- a wall penciled on a room's north or west edge beside its foe's place ---------------------------
WALLS_BESIDE_FOES = {"photo-0008": ["I6"], "photo-0016": ["B3", "D11", "E8", "G5"]}


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("rid", sorted(WALLS_BESIDE_FOES))
def test_a_walls_ink_in_a_foes_place_is_no_foe(recipes, rid, image):
    """photo-0008 I6 and photo-0016 B3 (a wall on the north edge), D11, E8, G5 (on the west edge):
    the wall's stroke reaches a millimetre into the foe's place and read as a faint letter; nobody
    wrote one there.  On the flat render the zones' tabs hide the foe's places."""
    cells = WALLS_BESIDE_FOES[rid]
    read = _read(recipes, rid, image, [f"monster-{c}" for c in cells], hidden_flat=True)
    assert _wrong(read) == {}
    _, played = _scan(recipes, rid, image)
    beside = [(f"wall-{c[0]}{int(c[1:]) - 1}-S", f"wall-{chr(ord(c[0]) - 1)}{c[1:]}-E") for c in cells]
    assert all("marked" in (played.truth.get(n), played.truth.get(w)) for n, w in beside), "a wall beside each"


@pytest.mark.parametrize("image", ["flat", pytest.param("bench photo", marks=pytest.mark.xfail(
    strict=True, reason=LETTER_OVER_LABEL))])
def test_a_foe_written_beside_a_penciled_wall_still_reads(recipes, image):
    """photo-0116: a foe written in E6, the wall on its west edge penciled: the letter reads in
    the part of its place the wall's ink does not reach.  (On the DISTORTED photo the letter, half
    over the printed label of the foe's place, reads too faint with or without the wall: the
    misread of letters over print, not this one.)"""
    _, played = _scan(recipes, "photo-0116", image)
    assert played.truth["wall-D6-E"] == "marked"
    read = _read(recipes, "photo-0116", image, ["monster-E6"], hidden_flat=True)
    assert read == ({} if image == "flat" else {"monster-E6": ("marked", "marked")})


# -- the path from an arrow, beside the map's printed edge ---------------------------------------------
@pytest.mark.parametrize("image", IMAGES)
def test_a_path_from_an_arrow_reads_clear_of_the_maps_edge(recipes, image):
    """photo-0008: the path from the arrow K2:E; within a millimetre of the map's thick printed edge
    (its blur, the print's tolerance) the pencil read faint, and with it half the region.  Beside
    it photo-0007's K7, entered from elsewhere, its arrow unused: no path from the arrow there."""
    assert _read(recipes, "photo-0008", image, ["path-K2-E"]) == {"path-K2-E": ("marked", "marked")}
    read = _read(recipes, "photo-0007", image, ["path-K7-E", "cell-K7"])
    assert read == {"path-K7-E": ("empty", "empty"), "cell-K7": ("marked", "marked")}


# -- a cross whose lower right arm, in view, reads faint over an icon's lines ----------------------
@pytest.mark.parametrize("image", ["flat", "bench photo"])
def test_a_cross_faint_over_an_icon_reads_by_its_other_strokes(recipes, image):
    """photo-0110: G5 crossed out, its lower right arm over the printed icon's lines read along two
    thirds of it (0.7 needed), its upper left arm and the other stroke penciled; the upper left arm
    through the foe's place read as a letter.  Beside it photo-0049's D2: a foe written in and the
    item struck through (the same two strokes), the room never crossed out.  (On the flat render
    the print, sharper, hides G5's arms: nothing to tell there; on the DISTORTED photo the zone's tab
    hides the upper left arm, and the lower right one reads a quarter: the cross cannot be told.)"""
    read = _read(recipes, "photo-0110", image, ["room-G5", "monster-G5"])
    assert _wrong(read) == {}
    assert ("room-G5" in read) == (image != "flat")
    _, played = _scan(recipes, "photo-0110", image)
    assert "G5" in played.expected.rooms and "G5" not in played.expected.foes
    read = _read(recipes, "photo-0049", image, ["room-D2", "monster-D2"])
    assert read == {"room-D2": ("empty", "empty"), "monster-D2": ("marked", "marked")}


# -- a flood's waves by a room's centre ----------------------------------------------------------------
@pytest.mark.parametrize("image", ["flat", "photo", "bench photo"])
def test_a_floods_waves_by_a_rooms_centre_are_no_dot(recipes, image):
    """photo-0057: D5 drawn flooded, never entered; its lower wave's crest runs by the centre and
    read as a faint dot.  Beside it photo-0204's D1 and G1, flooded and entered: their dots read.
    (On the bench photo, the Kraken's floods penciled since issue 32, the waves read as the paths
    D5-E5 and E5-F5 entering D5 until paths were read by the ridge of their darkness across.)"""
    assert _wrong(_read(recipes, "photo-0057", image, ["cell-D5", "flood-D5"])) == {}
    read = _read(recipes, "photo-0204", image, ["cell-D1", "cell-G1", "flood-D1", "flood-G1"])
    assert read == {r: ("marked", "marked") for r in ("cell-D1", "cell-G1", "flood-D1", "flood-G1")}


# -- a room read crossed out where its upper left arm, well seen, is bare ------------------------------
@pytest.mark.parametrize("image", IMAGES)
def test_an_icon_seen_darker_than_printed_is_no_cross(recipes, image):
    """photo-0270: the camera sees E4's, E5's and F5's icons darker than printed, and the lower right
    arm runs over them; the items are struck through, the rooms never crossed out, and the upper
    left arms, in plain view, have no pencil.  Beside them photo-0110's J6, crossed out, its upper
    left arm read along a third of it (the least of the crosses the bench read)."""
    cells = ["E4", "E5", "F5"]
    read = _read(recipes, "photo-0270", image, [f"{w}-{c}" for c in cells for w in ("room", "struck")])
    assert _wrong(read) == {}
    assert _read(recipes, "photo-0110", image, ["room-J6"]) == {"room-J6": ("marked", "marked")}


# -- boxes and ticks, read by a cross's two strokes ---------------------------------------------------
# (recipe, the regions the bench misread: penciled empty, the real crosses of the same kind beside them)
BOXES = {
    # a rubber's residue: the hearts spent during play, their crosses erased (faint, wide, patchy)
    "residue in a track box": ("photo-0269", ["track-hearts-4"], ["track-hearts-1", "track-hearts-2"]),
    "residue in the first track boxes": ("photo-0297", ["track-hearts-1", "track-hearts-2"],
                                         ["track-shovels-1", "track-shovels-2", "track-kills-3"]),
    # the hero's starting traits printed as grey crosses: the pencil over them hardly shows, the
    # grey cross alone (a trait lost) is no pencil
    "a printed grey cross": ("photo-0032", ["track-weapon-2", "track-shovels-7"],
                             ["track-shields-1", "track-weapon-1", "track-hearts-1", "track-clovers-2"]),
    # the paper a shade darker than the light says (inside the circles and the small boxes alike)
    "an exit circle's paper": ("photo-0045", ["req-B-exit", "req-C-exit", "track-turns-22"],
                               ["req-A-oracle", "track-turns-1", "track-turns-6"]),
    "an Oracle circle's paper": ("photo-0215", ["req-B-oracle", "req-C-oracle", "req-B-exit"],
                                 ["req-A-oracle", "req-D-oracle", "req-A-exit", "req-D-exit"]),
    "an hourglass box's paper": ("photo-0243", ["track-turns-21"], ["track-turns-1", "track-turns-3"]),
}


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("what", sorted(BOXES))
def test_a_box_reads_by_its_crosss_strokes(recipes, what, image):
    rid, empty, crossed = BOXES[what]
    read = _read(recipes, rid, image, empty + crossed)
    _, played = _scan(recipes, rid, image)
    assert [r for r in empty if played.truth[r] != EMPTY] == [], "the log leaves these empty"
    assert [r for r in crossed if played.truth[r] == EMPTY] == [], "the log crosses these"
    assert _wrong(read) == {}, what
    assert set(read) == set(empty + crossed), "a box was hidden: pick others"


@pytest.mark.parametrize("image", ["flat", "photo"])
def test_a_box_blacked_out_reads_filled_and_a_tampered_cross_crossed(recipes, image):
    """The strokes decide a cross; a box blacked out (no cross) still reads filled, by its mean
    darkness; a cross the log does not explain is found."""
    from sheetgen.scan.contract import CROSSED, FILLED
    base = recipes["photo-0215"]
    tamper = (("fill", "track-chests-3"), ("box", "track-chests-5"), ("fill", "req-B-exit"))
    recipe = replace(base, id=f"boxes-tampered-{image}", tamper=tamper)
    recipe = replace(recipe, dpi=300, camera=None) if image == "flat" else \
        replace(recipe, camera=replace(base.camera, **DISTORTED))
    img, played = photo_of(recipe)
    result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
    assert {b: result.readings[b].value for b in ("track-chests-3", "track-chests-5", "req-B-exit")} == {
        "track-chests-3": FILLED, "track-chests-5": CROSSED, "req-B-exit": FILLED}


# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo

"""The scanner on synthetic photos: play logs penciled by the seeded hand (graphite: grey,
uneven, jittered, some marks rubbed out), rasterised by poppler and photographed by the
seeded camera (any rotation, tilt up to 30 degrees, lens, uneven light and shadow, blur,
noise, JPEG, 2 and 12 MP), from the recipes of tests/data/scan/recipes.yaml.

For Dungeon Foury and Dungeon Exploration: what the scan reads back is what the log
penciled (every readable region, and the game's view of the sheet), the paper's own
rules hold for legal games, the record's verdict is `sheetgen check`'s for legal and
illegal logs alike, and a mark the log does not explain is found and named."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.definitions.registry import load                      # noqa: E402
from sheetgen.scan.contract import EMPTY                            # noqa: E402
from sheetgen.testing.corpus import (Recipe, load_recipes, pdftoppm_available, photo_of,   # noqa: E402
                                  played_cached)
from sheetgen.scan.pipeline import as_seen, compare_with_record, scan_photo   # noqa: E402

DATA = Path(__file__).parent / "data"
RECIPES = DATA / "scan" / "recipes.yaml"

# photos of legal games the scanner reads exactly (ids of recipes.yaml), with what makes each hard
FOURY = {
    "photo-0024": "full game, 2 MP, tilt 28, turned 342 degrees",
    "photo-0029": "12 MP, blur 1.49 px, turned 272 degrees",
    "photo-0041": "2 MP, JPEG quality 52",
    "photo-0050": "2 MP, tilt 29, JPEG 56, on Letter",
    "photo-0023": "2 MP, blur 1.1 px, the QR code unreadable: --sheet",
}
EXPLORATION = {
    "photo-0184": "2 MP, tilt 16, turned 294 degrees",
    "photo-0185": "2 MP, blur 1.1 px, the QR code unreadable: --sheet",
    "photo-0294": "12 MP, tilt 24, JPEG 52",
}


@pytest.fixture(scope="module")
def recipes() -> dict[str, Recipe]:
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    return {r.id: r for r in load_recipes(RECIPES)}


def _scan(recipe: Recipe, qr: bool = True):
    """The recipe's photo scanned: by its QR code (and for a custom map its file, as --sheet
    FILE), or qr=False: by --sheet alone."""
    img, played = photo_of(recipe)
    result = scan_photo(recipe.id, sheet_ref=played.sheet_ref if qr else played.ref, options=played.options, img=img)
    return result, played


def _misread(result, played) -> list[str]:
    out = []
    for rid, truth in played.truth.items():
        reading = result.readings.get(rid)
        if reading is None or reading.hidden:
            continue
        if (truth != EMPTY) != reading.marked:
            out.append(f"{rid} ({reading.region.role}): read {reading.value}, penciled {truth}")
    return out


def _roles(played) -> set[str]:
    regions = {r.id: r for r in played.scanner.regions(played.sheet)}
    return {regions[rid].role for rid, v in played.truth.items() if v != EMPTY}


def test_the_corpus_is_a_few_hundred_seeded_photos_over_both_games(recipes):
    assert len(recipes) >= 300
    logs = {r.log for r in recipes.values()}
    assert any("/exploration/" in log or "explore-" in log for log in logs)
    assert any("foury_logs" in log or "sim-" in log for log in logs)
    cams = [r.camera for r in recipes.values()]
    assert {c.megapixels for c in cams} == {2, 12}
    assert max(c.tilt for c in cams) > 25 and max(c.blur for c in cams) > 1.4
    assert {r.paper for r in recipes.values()} == {"a4", "letter"}


def test_a_recipe_makes_the_same_image_every_time(recipes):
    from sheetgen.testing import corpus
    recipe = recipes["photo-0041"]
    first, _ = photo_of(recipe)
    corpus._flats.clear()
    again, _ = photo_of(recipe)
    assert first.shape == again.shape and (first == again).all()


@pytest.mark.parametrize("rid", sorted(FOURY))
def test_foury_photo_reads_back_what_the_log_penciled(recipes, rid):
    result, played = _scan(recipes[rid], qr="--sheet" not in FOURY[rid])
    assert _misread(result, played) == [], FOURY[rid]
    differences = played.scanner.compare(played.sheet, result.view, as_seen(played.scanner, result, played.expected))
    assert [d.message for d in differences] == []
    assert result.violations == [], [v.message for v in result.violations]
    # what a finished Foury sheet shows: resources, the path, the visited rooms
    shows = result.view.as_dict()
    assert shows["resources"] and shows.get("path") and shows.get("visited")
    assert {"track box", "visited", "path", "used arrow"} <= _roles(played)


@pytest.mark.parametrize("rid", sorted(EXPLORATION))
def test_exploration_photo_reads_back_the_rooms_of_the_log(recipes, rid):
    result, played = _scan(recipes[rid], qr="--sheet" not in EXPLORATION[rid])
    assert _misread(result, played) == [], EXPLORATION[rid]
    assert result.view.rooms and set(result.view.rooms) == set(played.expected.rooms)
    assert result.view.doors == played.expected.doors
    assert result.violations == [], [v.message for v in result.violations]


def test_the_qr_code_names_the_sheet_the_photo_shows(recipes):
    result, played = _scan(recipes["photo-0024"])
    assert result.identity_from == "QR code"
    assert result.sheet.identity.definition == played.sheet.identity.definition


def test_marks_rubbed_out_during_play_read_empty(recipes):
    """legal-full-game spends resources: their crosses are erased and leave faint residue."""
    recipe = recipes["photo-0024"]
    result, played = _scan(recipe)
    _, residue = played.scanner.penciled(played.sheet, played.record, random.Random(recipe.pencil))
    assert residue, "the log erases nothing: pick another"
    under = []
    for rid, reading in result.readings.items():
        x0, y0, x1, y1 = reading.region.bounds()
        for line in residue:
            mx, my = (line.x1 + line.x2) / 2, (line.y1 + line.y2) / 2
            if x0 <= mx <= x1 and y0 <= my <= y1 and played.truth.get(rid) == EMPTY:
                under.append(reading)
    assert under, "no region under the residue"
    assert [r.region.id for r in under if r.marked] == []


# -- the checker's verdict, legal and illegal side by side ---------------------------------------

def _check(log: str):
    loaded = load(log)
    return [(v.rule, v.message) for v in loaded.handler.check(loaded.definition).violations]


@pytest.mark.parametrize("log,legal", [("foury_logs/legal-example.yaml", True),
                                       ("foury_logs/illegal-move-c2-e2.yaml", False),
                                       ("foury_logs/illegal-sheet-weapon.yaml", False),
                                       ("exploration/legal-example.yaml", True)])
def test_the_record_verdict_is_sheetgen_checks(recipes, log, legal):
    camera = recipes["photo-0041"].camera
    recipe = Recipe(f"verdict-{Path(log).stem}", str(DATA / log), "a4", 3, 150, camera)
    result, played = _scan(recipe, qr=False)
    compare_with_record(result, played.scanner, str(DATA / log))
    assert [(v.rule, v.message) for v in result.record_violations] == _check(str(DATA / log))
    assert bool(result.record_violations) is (not legal)
    assert result.consistent is legal and result.exit_code == (0 if legal else 1)


def test_a_wall_the_log_does_not_explain_is_found(recipes):
    base = recipes["photo-0024"]
    played = played_cached(base.log, base.paper)
    regions = played.scanner.regions(played.sheet)
    visited = played.expected.visited
    # an edge between two rooms the log never enters: a wall there is explained by nothing
    wall = next(r for r in regions if r.role == "wall" and played.truth[r.id] == EMPTY
                and not {r.id.split("-")[1], _other(r.id)} & visited and r.id.split("-")[1][0] in "EFG")
    cell, side = wall.id.split("-")[1:]
    tampered = replace(base, id="tampered", tamper=(("wall", f"{cell}:{side}"),))
    honest, _ = _scan(base)
    compare_with_record(honest, played.scanner, base.log)
    result, _ = _scan(tampered)
    compare_with_record(result, played.scanner, base.log)
    assert honest.differences == [] and honest.exit_code == 0
    assert [d.message for d in result.differences] == [f"wall {cell}:{side} penciled, no event of the log collapses it"]
    assert "scan.wall-unexplored" in {v.rule for v in result.violations}
    assert result.exit_code == 1


def _other(region_id: str) -> str:
    from sheetgen.games.foury.scan import _neighbour_name
    _, cell, side = region_id.split("-")
    return _neighbour_name(cell, side)


def test_a_room_split_by_a_wall_the_log_does_not_draw_is_found(recipes):
    base = recipes["photo-0184"]
    played = played_cached(base.log, base.paper)
    room = next(r for r in sorted(played.expected.rooms, key=min) if len(r) >= 4)
    # a wall right across the room, between its first column and the rest
    x = min(c[0] for c in room)
    split = tuple(("wall", f"{cx},{cy}:E") for cx, cy in sorted(room) if cx == x and (cx + 1, cy) in room)
    tampered = replace(base, id="split", tamper=split)
    result, _ = _scan(tampered)
    compare_with_record(result, played.scanner, base.log)
    assert result.differences and result.exit_code == 1
    assert any("not penciled as drawn" in d.message for d in result.differences)


# -- each distortion on its own, from one clean camera ---------------------------------------------

CLEAN = dict(megapixels=2, rotation=0.0, tilt=0.0, fill=0.85, k1=0.0, light=0.0, shadow=0.0, blur=0.0,
             noise=1.0, jpeg=90)
DISTORTIONS = {
    "turned 90": dict(rotation=90.0),
    "upside down": dict(rotation=180.0),
    "tilt 30": dict(tilt=30.0, tilt_axis=40.0),
    "barrel lens": dict(k1=0.05),
    "light falls off and a shadow": dict(light=0.4, light_angle=60.0, shadow=0.45, shadow_line=(0.5, 30.0)),
    "blur 1.5": dict(blur=1.5),
    "noise and JPEG 50": dict(noise=6.0, jpeg=50),
    "page fills 60 %": dict(fill=0.6, shift=(0.8, -0.8)),
}


@pytest.mark.parametrize("what", sorted(DISTORTIONS))
def test_each_distortion_alone_reads_the_sheet_exactly(recipes, what):
    base = recipes["photo-0041"]
    camera = replace(base.camera, **{**CLEAN, **DISTORTIONS[what]})
    result, played = _scan(replace(base, id=f"alone-{what}", camera=camera))
    assert _misread(result, played) == [], what
    assert played.scanner.compare(played.sheet, result.view, as_seen(played.scanner, result, played.expected)) == []


def test_pencil_pressure_light_and_heavy_hands(recipes):
    """Different seeds of the hand: stroke greys, widths and jitter differ; the reading does not."""
    base = recipes["photo-0041"]
    reads = []
    for pencil in (11, 12, 13):
        result, played = _scan(replace(base, id=f"hand-{pencil}", pencil=pencil))
        assert _misread(result, played) == [], f"hand {pencil}"
        reads.append(result.view.as_dict())
    assert reads[0] == reads[1] == reads[2]


def test_resources_past_the_heros_cap_break_the_rules_of_the_paper(recipes):
    """A free character on the test hall: shields are capped below the boxes printed (the beige
    ones are for the heroes); crossing up to one past the cap is found, against the rules and
    against the log."""
    log = str(DATA / "foury_logs" / "legal-example.yaml")
    base = replace(recipes["photo-0041"], id="free-character", log=log)
    played = played_cached(log, base.paper)
    cap = played.scanner._caps(played.sheet)["shields"]
    have = played.expected.count("shields")
    assert cap < sum(1 for rid in played.truth if rid.startswith("track-shields-"))
    extra = tuple(("box", f"track-shields-{i}") for i in range(have + 1, cap + 2))
    honest, _ = _scan(base)
    result, _ = _scan(replace(base, id="past-the-cap", tamper=extra))
    compare_with_record(result, played.scanner, log)
    assert honest.violations == []
    assert [(v.rule, v.message) for v in result.violations] == [
        ("scan.cap", f"shields: {cap + 1} boxes marked, more than the cap of {cap}")]
    assert [d.message for d in result.differences] == [f"paper: shields {cap + 1}, log: {have}"]
    assert result.exit_code == 1


# -- each kind of misread the bench found, read right flat (300 dpi) and photographed -------------

DISTORTED = dict(CLEAN, tilt=22.0, tilt_axis=120.0, rotation=200.0, blur=0.9, noise=3.0, jpeg=70, light=0.25,
                 light_angle=30.0, shadow=0.25, shadow_line=(0.4, 70.0))
# (recipe whose log shows it, what, regions where it shows)
MISREADS = {
    "a crossed room's arm is not the wall penciled beside it": ("photo-0016", ["room-B10", "room-C10", "room-C3",
                                                                               "room-D1"]),
    "a foe's place mostly under the zone's tab is no foe for a cross through it": ("photo-0021", ["monster-B9",
                                                                                                    "monster-H10"]),
    "a dot's place under an item's strike reads no dot": ("photo-0077", ["cell-D4", "cell-E4", "cell-G6"]),
    "a dot's place under a jump's line reads no dot": ("photo-0064", ["cell-B11", "cell-D11", "cell-F11"]),
    "a path is not the wall penciled across it": ("photo-0013", ["path-F8-G8"]),
    "an item's strike is not a flood's waves": ("photo-0057", ["struck-G7", "struck-D5"]),
    "a flood's waves are not the lines crossing them": ("photo-0060", ["flood-A7"]),
    "a thin room number is read": ("photo-0001", ["note-9-25"]),
    "a dot a quarter seen is read, not dropped": ("photo-0024", ["cell-B7", "cell-D6"]),
}


@pytest.mark.parametrize("what", sorted(MISREADS))
@pytest.mark.parametrize("image", ["flat", "photo"])
def test_each_misread_kind_reads_right(recipes, what, image):
    rid, regions = MISREADS[what]
    base = recipes[rid]
    recipe = replace(base, id=f"{rid}-{image}", dpi=300, camera=None) if image == "flat" else \
        replace(base, id=f"{rid}-{image}", camera=replace(base.camera, **DISTORTED))
    result, played = _scan(recipe, qr=image == "flat")      # the tilted photo's QR code is too small: --sheet
    read = {r: (result.readings[r].value, played.truth[r]) for r in regions if not result.readings[r].hidden}
    assert read, "every region hidden: pick others"
    wrong = {r: f"read {v}, penciled {t}" for r, (v, t) in read.items() if (v != EMPTY) != (t != EMPTY)}
    assert wrong == {}, what


# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo

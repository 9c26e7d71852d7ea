"""Dungeon Exploration's graph sheet read right where the scan bench found it misread, and the
real mark of each kind still read where it is penciled.

Each misread kind on the very photo of recipes.yaml (and the log's flat 300 dpi render) where
`bench/bench_scan.py --match explor` found it:
- a room number read where there is none: a shadow's edge darkens a band of the page, and a
  page-wide threshold took it for writing (a number's place is now measured against the paper
  beside it in its own square);
- a thin room number read empty in a blurred 2 MP photo (the noise floor took most of its ink);
- a door read beside a wall's stroke that wanders off its edge (a door box has two sides: both
  must read);
- a door's box filled in read open in a low-contrast photo (both halves of the box are read);
- time boxes read crossed along a soft shadow's edge (the light's local maximum lifted the
  slope: a photo of new seeds, as make_recipes draws them, found it: the light is now evened
  out by the maximum's minimum).
The sheets these misreads spoiled read exactly as the log's final state.  Against blindness:
a door box, a filled one and a number penciled where the log has none, in the same places and
under the same camera, are read and named."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.contract import AREA, EMPTY, Region               # noqa: E402
from sheetgen.testing.corpus import Recipe, load_recipes, pdftoppm_available, photo_of   # noqa: E402
from sheetgen.testing.photo import Camera                              # noqa: E402
from sheetgen.scan.pipeline import as_seen, compare_with_record, scan_photo   # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions             # noqa: E402

DATA = Path(__file__).parent / "data"
RECIPES = DATA / "scan" / "recipes.yaml"
# a photo of new seeds (not in recipes.yaml) where a soft shadow's edge crosses the time boxes
SHADOWED_TIME = Recipe("shadowed-time", str(DATA / "exploration" / "audit" / "legal-edge-door-retreat-plain-boss.yaml"),
                       "letter", 736698, 150, Camera.from_dict({
                           "megapixels": 2, "rotation": 263.74, "tilt": 5.51, "tilt_axis": 63.14, "fill": 0.932,
                           "shift": [0.964, 0.848], "k1": 0.0485, "light": 0.143, "light_angle": 119.9, "shadow": 0.497,
                           "shadow_line": [0.422, 36.3], "cast": [1.011, 1.02, 0.98], "blur": 1.106, "noise": 4.79,
                           "jpeg": 88, "background": 827, "seed": 1953563378}))

# (recipe where the bench found it, regions, what they must read: marked or empty)
MISREADS = {
    "no room number in a shadow's edge": ("photo-0003", ["note-20-10", "note-16-15", "note-6-28", "note-13-19"],
                                          False),
    "a thin room number in a blurred 2 MP photo": ("photo-0004", ["note-4-22"], True),
    "a thin number, another hand": ("photo-0002", ["note-16-27", "note-9-25"], True),
    "a thin number of a corridor": ("photo-0093", ["note-10-25"], True),
    "no door beside a wall's stroke (east)": ("photo-0002", ["door-10-15-E", "door-14-22-E", "door-16-20-E"], False),
    "no door beside a wall's stroke (south)": ("photo-0004", ["door-5-7-S", "door-3-19-S", "door-6-23-S"], False),
    "a door's box filled in, low contrast": ("photo-0004", ["fill-4-8-E", "fill-1-13-E", "fill-3-15-E"], True),
}
# photos the misreads above kept from reading exactly as the log's final state
SPOILED = ["photo-0002", "photo-0004", "photo-0093", "photo-0099", "photo-0101", "photo-0286", "photo-0293"]


@pytest.fixture(scope="module")
def recipes() -> dict[str, Recipe]:
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    return {r.id: r for r in load_recipes(RECIPES)}


_scans: dict = {}


def _scan(recipe: Recipe):
    """The recipe's image scanned with --sheet (a blurred 2 MP photo's QR code may not read)."""
    if recipe not in _scans:
        img, played = photo_of(recipe)
        _scans[recipe] = (scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img), played)
    return _scans[recipe]


def _image(recipe: Recipe, image: str) -> Recipe:
    return recipe if image == "photo" else replace(recipe, id=f"{recipe.id}-flat", dpi=300, camera=None)


@pytest.mark.parametrize("what", sorted(MISREADS))
@pytest.mark.parametrize("image", ["flat", "photo"])
def test_each_misread_kind_reads_right_where_the_bench_found_it(recipes, what, image):
    rid, regions, marked = MISREADS[what]
    result, played = _scan(_image(recipes[rid], image))
    for region in regions:
        assert (played.truth[region] != EMPTY) == marked, f"{region}: the log's truth is not what the case says"
        reading = result.readings[region]
        assert not reading.hidden
        assert reading.marked == marked, f"{what}: {region} read {reading.value} ({reading.score})"


@pytest.mark.parametrize("rid", SPOILED)
def test_the_sheets_those_misreads_spoiled_read_exactly(recipes, rid):
    result, played = _scan(recipes[rid])
    differences = played.scanner.compare(played.sheet, result.view, as_seen(played.scanner, result, played.expected))
    assert [d.message for d in differences] == []
    assert result.view.doors == played.expected.doors


def test_every_door_and_number_of_the_log_still_reads_on_those_photos(recipes):
    for rid in ("photo-0002", "photo-0004"):
        result, played = _scan(recipes[rid])
        for region, truth in played.truth.items():
            if truth != EMPTY and region.split("-")[0] in ("door", "fill", "note"):
                assert result.readings[region].marked, f"{rid}: {region} penciled, read {result.readings[region].value}"


# -- the real mark of each kind, penciled where the misread was: still read and named ---------------

def _tampered(recipes, rid: str, marks: tuple):
    base = recipes[rid]
    result, played = _scan(replace(base, id=f"{rid}-tampered", tamper=marks))
    compare_with_record(result, played.scanner, base.log)
    return result, played


@pytest.mark.parametrize("image", ["flat", "photo"])
def test_a_door_box_drawn_beside_the_wandering_wall_is_read_and_named(recipes, image):
    """Where the wall's stroke alone read as a door, a door box penciled is a door, and one
    filled in an explored door: the log has neither."""
    recipe = _image(recipes["photo-0002"], image)
    result, played = _scan(replace(recipe, id=f"{recipe.id}-doors", tamper=(("door", "10,15:E"),
                                                                             ("explored door", "14,22:E"))))
    compare_with_record(result, played.scanner, recipe.log)
    assert result.readings["door-10-15-E"].marked and not result.readings["fill-10-15-E"].marked
    assert result.readings["door-14-22-E"].marked and result.readings["fill-14-22-E"].marked
    messages = [d.message for d in result.differences]
    assert "door 10,15:E on paper, not in the log" in messages
    assert "door 14,22:E on paper, not in the log" in messages
    assert result.exit_code == 1


@pytest.mark.parametrize("image", ["flat", "photo"])
def test_a_number_written_in_the_shadows_edge_is_read(recipes, image):
    """In the band where the shadow's edge read as numbers, a number penciled still reads."""
    recipe = _image(recipes["photo-0003"], image)
    result, _ = _scan(replace(recipe, id=f"{recipe.id}-numbers", tamper=(("number", "16,15"), ("number", "6,28"))))
    assert result.readings["note-16-15"].marked and result.readings["note-6-28"].marked
    assert not result.readings["note-20-10"].marked


def test_a_room_enclosed_with_its_number_in_the_shadow_is_a_room(recipes):
    """A closed square penciled and numbered in the shadow's band: a room the log lacks, named."""
    walls = tuple(("wall", w) for w in ("16,15:N", "16,15:S", "16,15:W", "16,15:E"))
    result, played = _tampered(recipes, "photo-0003", walls + (("number", "16,15"),))
    assert frozenset({(16, 15)}) in result.view.rooms
    assert "room 16,15" in {d.what for d in result.differences}


# -- the local baseline of an area, on a page made by hand -----------------------------------------

def _page(shade: float, mark: bool) -> dict:
    """A white 40 x 40 mm page at 5 px a mm, darkened by `shade` right of x = 14 mm (a shadow's
    edge: the light is evened out at a few mm, not at its edge), optionally with a thin
    stroke in the area (10..16, 10..14 mm)."""
    k = 5
    template = np.ones((200, 200, 3), np.float32)
    template[:25, :25, :] = 0.5                 # some print, far from the area, for the tone to be fitted on
    photo = np.full((200, 200), 235.0, np.float32)
    photo[:25, :25] = 235.0 * 0.5
    photo[:, 14 * k:] *= 1 - shade
    if mark:
        photo[10 * k:14 * k, 13 * k:13 * k + 2] *= 0.35
    regions = [Region("local", AREA, (10.0, 10.0, 6.0, 4.0, 0.025, 0.6, 0.2), "number"),
               Region("plain", AREA, (10.0, 10.0, 6.0, 4.0, 0.025), "number")]
    page = Page(photo, template, (40.0, 40.0), align=False)
    return read_regions(page, Plan(regions, (200, 200), (40.0, 40.0)))


def test_an_area_against_the_paper_beside_it_ignores_a_shadow_but_not_a_mark():
    assert _page(0.0, False)["local"].value == EMPTY
    assert _page(0.0, True)["local"].marked
    # the shadow's edge darkens the area and the strips beside it alike: the page-wide mean
    # reads writing there, the area against its paper does not, and still reads the stroke
    shaded = _page(0.2, False)
    assert shaded["plain"].marked and shaded["local"].value == EMPTY
    assert _page(0.2, True)["local"].marked


# -- the rooms the walls enclose ----------------------------------------------------------------

def _flood(walls: set, cols: int, rows: int, largest: int) -> list[frozenset]:
    """The groups the walls enclose, square by square (what `enclosed` finds at once)."""
    seen: set = set()
    out = []
    for y0 in range(1, rows + 1):
        for x0 in range(1, cols + 1):
            if (x0, y0) in seen:
                continue
            group, todo = set(), [(x0, y0)]
            while todo:
                x, y = todo.pop()
                if (x, y) in group:
                    continue
                group.add((x, y))
                for nx, ny, e in ((x + 1, y, (x, y, "E")), (x - 1, y, (x - 1, y, "E")),
                                  (x, y + 1, (x, y, "S")), (x, y - 1, (x, y - 1, "S"))):
                    if e not in walls and 1 <= nx <= cols and 1 <= ny <= rows:
                        todo.append((nx, ny))
            seen |= group
            if len(group) <= largest:
                out.append(frozenset(group))
    return out


def test_the_rooms_enclosed_are_the_groups_a_flood_fill_finds():
    import random

    from sheetgen.games.exploration.scan import MAX_ROOM, enclosed, outline
    rng = random.Random(5)
    for trial in range(200):
        cols, rows = rng.randint(1, 9), rng.randint(1, 9)
        walls = set()
        for _ in range(rng.randint(0, 4)):      # whole rooms' outlines, the border's sides among them
            x, y = rng.randint(1, cols), rng.randint(1, rows)
            walls |= outline({(cx, cy) for cx in range(x, min(cols, x + rng.randint(0, 3)) + 1)
                              for cy in range(y, min(rows, y + rng.randint(0, 3)) + 1)})
        walls |= {(rng.randint(0, cols), rng.randint(0, rows), rng.choice("ES")) for _ in range(rng.randint(0, 30))}
        largest = rng.choice([MAX_ROOM, 3])
        assert enclosed(walls, cols, rows, largest) == _flood(walls, cols, rows, largest), (cols, rows, sorted(walls))


# -- the light along a soft shadow's edge --------------------------------------------------------

@pytest.mark.parametrize("image", ["flat", "photo"])
def test_no_time_box_crossed_along_a_shadows_edge(image):
    result, played = _scan(_image(SHADOWED_TIME, image))
    assert played.expected.time == 5
    assert {f"time-{n}" for n in range(1, 6)} == {rid for rid, r in result.readings.items()
                                                  if rid.startswith("time-") and r.marked}
    differences = played.scanner.compare(played.sheet, result.view, as_seen(played.scanner, result, played.expected))
    assert [d.message for d in differences] == []


def test_a_time_box_crossed_along_the_shadows_edge_is_read_and_named():
    result, played = _scan(replace(SHADOWED_TIME, id="shadowed-time-crossed", tamper=(("time box", "19"),
                                                                                       ("time box", "26"))))
    compare_with_record(result, played.scanner, SHADOWED_TIME.log)
    assert result.readings["time-19"].marked and result.readings["time-26"].marked
    assert "paper: time boxes 7, log: 5" in [d.message for d in result.differences]


def test_the_light_evened_out_keeps_a_soft_shadows_slope_where_it_is():
    """A plain page under a shadow whose edge spreads over 16 mm: the maximum alone lifts the
    slope and the paper beside it reads darker than it is; its closing does not (and a stroke
    on that slope still reads as dark as on plain paper)."""
    k = 5
    template = np.ones((300, 300, 3), np.float32)
    template[:25, :25, :] = 0.5
    xs = np.arange(300) / k
    light = 1.0 - 0.45 * 0.5 * (1 + np.tanh((xs - 30.0) / 8.0))
    photo = np.tile((235.0 * light).astype(np.float32), (300, 1))
    photo[:25, :25] *= 0.5
    photo[100:140, 150:152] *= 0.35                 # a stroke on the slope (x = 30 mm)
    lifted = Page(photo, template, (60.0, 60.0), align=False)
    kept = Page(photo, template, (60.0, 60.0), align=False, light_closing=True)
    paper = (slice(150, 290), slice(100, 200))      # the slope, below the stroke
    assert lifted.dark[paper].max() > 0.02
    assert kept.dark[paper].max() < 0.01
    assert kept.dark[100:140, 150:152].mean() > 0.5


# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo

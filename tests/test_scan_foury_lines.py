"""Dungeon Foury's stairs lines read back: the line the pencil draws from the stairs' room to the
room the hero goes on to past a lever (climb, pull the lever, move on from the lever's room: the
upper level passes over the grid, so the two rooms are not neighbours).  It has its own region
(`stairs-I3-D5`), its stroke is kept out of the paths, walls, dots and floods it crosses (they are
read on their part clear of it), and a line the log does not explain is named as a difference.
The sheets are the ones the scan bench misread (tests/data/scan/recipes.yaml), flat and
photographed, and beside them real marks along a line still read."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.games.foury.scan import SCANNER, UPPER, FouryView   # noqa: E402
from sheetgen.scan.contract import EMPTY                          # noqa: E402
from sheetgen.testing.corpus import photo_of, played_cached           # noqa: E402
from sheetgen.scan.pipeline import compare_with_record, scan_photo   # noqa: E402

# the corpus fixture and the images of the other reading tests
from test_scan_foury_reading import DISTORTED, IMAGES, recipes   # noqa: E402,F401  (recipes: a fixture)

# the bench's misreads: the Kraken's full game climbs at I3 and goes on to D5 past the lever in D4
# (its line read as F4's dot, the path F4-G4 and G4's waves); In and Out with your Strength climbs at
# F8 and goes on to J10 (read as H9's dot and the wall G8:S); the levers log goes B4 -> D5 (read right)
LINES = {"photo-0058": "I3-D5", "photo-0083": "F8-J10", "photo-0039": "B4-D5"}


_scans: dict = {}


def _scan(recipe, image: str, tamper: tuple = ()):
    """(result compared with the recipe's log, played) of the recipe as a flat 300 dpi render, as the
    DISTORTED photo or as the bench photographed it; tamper: marks the log does not explain."""
    key = (recipe.id, image, tamper)
    if key not in _scans:
        made = {"flat": lambda: replace(recipe, id=f"{recipe.id}-flat", dpi=300, camera=None),
                "photo": lambda: replace(recipe, id=f"{recipe.id}-photo", camera=replace(recipe.camera, **DISTORTED)),
                "bench photo": lambda: recipe}[image]()
        made = replace(made, tamper=tamper)
        img, played = photo_of(made)
        result = scan_photo(made.id, sheet_ref=played.ref, options=played.options, img=img)
        compare_with_record(result, played.scanner, made.log)
        _scans[key] = (result, played)
        if len(_scans) > 4:
            del _scans[next(iter(_scans))]
    return _scans[key]


@pytest.mark.parametrize("image", IMAGES)
@pytest.mark.parametrize("rid", sorted(LINES))
def test_a_sheet_with_a_stairs_line_reads_exactly(recipes, rid, image):
    result, played = _scan(recipes[rid], image)
    line = f"stairs-{LINES[rid]}"
    assert played.truth[line] != EMPTY and result.readings[line].marked
    assert LINES[rid] in result.view.upper
    assert [d.message for d in result.differences] == []
    # the paper's own rules: the line joins the stairs' room to the room entered (no path left unstarted)
    assert [v.message for v in result.violations if v.rule.startswith("scan.path")] == []


@pytest.mark.parametrize("image", IMAGES)
def test_the_paths_a_stairs_line_crosses_still_read(recipes, image):
    """photo-0058: the line I3 -> D5 leaves I3 along the path H3-I3 (the hero came from H3) and
    crosses the path H3-H4 and the wall place H3:S; the paths are walked, the wall never penciled."""
    result, played = _scan(recipes["photo-0058"], image)
    read = {rid: (result.readings[rid].value, played.truth[rid]) for rid in ("path-H3-I3", "path-H3-H4", "wall-H3-S",
                                                                            "path-F4-G4", "cell-F4", "flood-G4")
            if not result.readings[rid].hidden}
    assert {rid: v != EMPTY for rid, (v, _) in read.items()} == {rid: t != EMPTY for rid, (_, t) in read.items()}
    assert read.get("path-H3-I3", ("marked",))[0] == "marked" and read.get("path-H3-H4", ("marked",))[0] == "marked"


# a stairs line the log never draws (E9 -> I7, with I7's dot: the hero never climbs at E9), and along
# the line the log does draw (I3 -> D5) a dot and a path it crosses (F4, F4-G4) and a wall (H3:S): all found
TAMPER = (("path", "E9-I7"), ("dot", "I7"), ("dot", "F4"), ("path", "F4-G4"), ("wall", "H3:S"))


@pytest.mark.parametrize("image", ["flat", "photo"])
def test_marks_along_a_stairs_line_and_a_line_the_log_does_not_explain_are_found(recipes, image):
    result, _ = _scan(recipes["photo-0058"], image, TAMPER)
    messages = [d.message for d in result.differences]
    assert "stairs line E9-I7 penciled, the log never climbs there and goes on past a lever to that room" in messages
    assert "F4 marked visited, the log never enters it" in messages
    assert "path F4-G4 penciled, the log never moves along it" in messages
    assert "wall H3:S penciled, no event of the log collapses it" in messages
    assert result.view.upper == {"I3-D5", "E9-I7"}
    assert result.exit_code == 1


def test_the_log_s_stairs_line_is_expected_and_a_missing_one_named(recipes):
    played = played_cached(recipes["photo-0058"].log, "a4")
    assert played.expected.upper == {"I3-D5"}
    assert not {p for p in played.expected.path if "I3" in p and "D5" in p}
    paper = replace(played.expected, upper=set())
    assert [d.message for d in SCANNER.compare(played.sheet, paper, played.expected)] == [
        "stairs line I3-D5 in the log (climbed, on past a lever), not penciled"]
    assert [d.message for d in SCANNER.compare(played.sheet, played.expected, paper)] == [
        "stairs line I3-D5 penciled, the log never climbs there and goes on past a lever to that room"]


def test_stairs_lines_run_from_the_stairs_to_the_rooms_beside_a_lever(recipes):
    """Kraken: stairs in I3 and E9, levers in D4 and J7.  A room beside a lever and not beside the
    stairs gets a line; one on the stairs' row or column does not (straight through the rooms'
    dots the line is the paths along it: I3 -> D3 is read as those)."""
    played = played_cached(recipes["photo-0058"].log, "a4")
    lines = {r.id for r in SCANNER.regions(played.sheet) if r.role == UPPER}
    assert {"stairs-I3-D5", "stairs-I3-B9", "stairs-E9-J8"} <= lines
    assert not {"stairs-I3-D3", "stairs-I3-I7", "stairs-E9-E4", "stairs-E9-B9"} & lines
    assert all(r.startswith(("stairs-I3-", "stairs-E9-")) for r in lines)
    assert FouryView().as_dict() == {"resources": {}}


@pytest.mark.parametrize("image", ["flat", "bench photo"])
def test_the_kraken_s_one_round_keeps_its_round_marker_after_the_exit(recipes, image):
    """photo-0058: the Kraken's whole game is one round; after its exit the round markers stay on
    round 1 (the rules move them on only where another round follows), so the finished sheet
    breaks no rule of the paper.  A marker on another round is still a violation."""
    from dataclasses import replace as changed
    result, played = _scan(recipes["photo-0058"], image)
    assert any(t.endswith("-exit") for t in result.view.ticks()) and result.view.tracks().get("chest-round") == [1]
    assert [v.message for v in result.violations] == []
    moved = dict(result.view.boxes)
    moved.pop("chest-round-1")
    moved["chest-round-2"] = "crossed"
    found = SCANNER.check(result.sheet, changed(result.view, boxes=moved))
    assert [v.rule for v in found] == ["scan.round-marker"]
    assert "round 2 ticked, but 1 round is exited (round 1)" in found[0].message


# -- the paper's own rules on legal sheets: what cannot be read claims nothing ----------------------
@pytest.mark.parametrize("rid", ["photo-0024", "photo-0035"])
def test_a_path_link_under_dark_print_does_not_cut_the_path_from_its_arrow(recipes, rid):
    """photo-0024 (legal-full-game: B7-C7) and photo-0035 (legal-flooded-tunnels: A7-B7): the path's
    link between two rooms lies under print too dark to read, and the rooms beyond it read as a
    path that "starts at no used arrow".  A link that cannot be read may join them: no violation.
    A dot penciled far from any path still breaks the rule."""
    from dataclasses import replace as changed
    result, played = _scan(recipes[rid], "flat")
    assert result.view.unread and played.truth                 # links under dark print exist here
    assert [v.message for v in result.violations] == []
    assert "K11" not in result.view.visited
    stray = changed(result.view, visited=result.view.visited | {"K11"})
    found = [v for v in SCANNER.check(result.sheet, stray) if v.rule == "scan.path-start"]
    assert len(found) == 1 and "K11" in found[0].message


def test_a_second_entry_after_insert_coin_is_no_unexited_round(recipes):
    """photo-0031 (legal-death-and-insert-coin): the hero died, INSERT COIN was checked, and the
    game started again from another arrow: two paths start at arrows with no exit between, as
    the rules allow once.  Without the INSERT COIN box checked the same paper breaks the rule."""
    from dataclasses import replace as changed
    result, _ = _scan(recipes["photo-0031"], "flat")
    coin = [b for b in result.view.boxes if b.endswith("insert-coin-box")]
    assert coin and [v.message for v in result.violations] == []
    boxes = {k: v for k, v in result.view.boxes.items() if k not in coin}
    found = [v.rule for v in SCANNER.check(result.sheet, changed(result.view, boxes=boxes))]
    assert found == ["scan.rounds"]


def test_santa_s_start_may_be_any_room_beside_santa_s_room(recipes):
    """photo-0073 (a Santa game): the hero starts next to Santa's room, not on the map's marked
    start, as the rules allow (Santa.check_start): the path starts there.  A dot penciled in a room
    neither beside Santa's room nor joined to the path still starts at no used arrow."""
    from dataclasses import replace as changed

    from sheetgen.games.foury.board import DELTA, neighbour
    result, played = _scan(recipes["photo-0073"], "flat")
    board = played.sheet.loaded.definition.board
    assert [v.message for v in result.violations] == []
    beside = {neighbour(c, side) for c in board.centre_cells() for side in DELTA}
    assert any(f"{chr(ord('A') + x)}{y + 1}" in result.view.visited for x, y in beside)
    far = next(f"{chr(ord('A') + x)}{y + 1}" for x, y in sorted(board.cells) if (x, y) not in beside
               and not board.is_centre((x, y)) and not board.is_rock((x, y)) and (x, y) != board.start
               and all(f"{chr(ord('A') + a)}{b + 1}" not in result.view.visited
                       for a, b in [neighbour((x, y), s) for s in DELTA] + [(x, y)]))
    found = [v for v in SCANNER.check(result.sheet, changed(result.view, visited=result.view.visited | {far}))
             if v.rule == "scan.path-start"]
    assert len(found) == 1 and far in found[0].message


def test_a_path_link_under_a_jump_s_line_may_join_the_path(recipes):
    """photo-0018 (a Slaughter game): the jump J8 ~ A9 runs along the links C8-D8 and D8-D9, so
    they cannot be read (the jump's line is all one sees there) and the rooms beyond read as a path
    that "starts at no used arrow".  Such a link may join them, as one under dark print does.
    Without it the violation comes back; a dot penciled far from any path still breaks the rule."""
    from dataclasses import replace as changed
    result, _ = _scan(recipes["photo-0018"], "flat")
    assert "J8~A9" in result.view.path and {"C8-D8", "D8-D9"} <= result.view.unread
    assert [v.message for v in result.violations] == []
    cut = changed(result.view, unread=set())          # (every link it cannot read is under the jump)
    assert [v.rule for v in SCANNER.check(result.sheet, cut)] == ["scan.path-start"]
    far = next(c for c in ("K11", "A11", "A2") if c not in result.view.visited)
    found = SCANNER.check(result.sheet, changed(result.view, visited=result.view.visited | {far}))
    assert [v.rule for v in found] == ["scan.path-start"] and far in found[0].message


def test_a_wall_beside_a_room_that_cannot_be_seen_entered_claims_nothing(recipes):
    """photo-0017 (a Slaughter game): the wall D8:E is penciled; D8's dot is under an icon too dark
    to read and its links lie under the jump's line: it may have been entered, so the wall breaks
    no rule.  If a link into D8 could be read (and read empty) the wall would need a room visited
    beside it; a wall between two rooms never visited still breaks the rule."""
    from dataclasses import replace as changed
    result, _ = _scan(recipes["photo-0017"], "flat")
    assert "D8:E" in result.view.walls and "D8" in result.view.unseen and "D8" not in result.view.visited
    assert [v.message for v in result.violations] == []
    readable = changed(result.view, unread={u for u in result.view.unread if "D8" not in re.split("[-:]", u)})
    assert [v.rule for v in SCANNER.check(result.sheet, readable)] == ["scan.wall-unexplored"]
    lone = next(f"{c}{r}:E" for r in range(1, 12) for c in "ABCDEFGHIJ"
                if f"{c}{r}" not in result.view.visited | result.view.unseen
                and f"{chr(ord(c) + 1)}{r}" not in result.view.visited | result.view.unseen)
    found = SCANNER.check(result.sheet, changed(result.view, walls=result.view.walls | {lone}))
    assert [v.rule for v in found] == ["scan.wall-unexplored"] and lone in found[0].message


# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo

"""A region a person is asked to check is named where a player finds it on the paper (GameScanner.place):
the text of an "unconfirmed" verdict lists each with its place and reading before the verdict line, and
the review page shows it beside each close-up."""
from types import SimpleNamespace

import pytest

pytest.importorskip("numpy")

from sheetgen.draw.scanmarks import SheetIdentity  # noqa: E402
from sheetgen.games.exploration import scan as exploration  # noqa: E402
from sheetgen.games.foury import scan as foury  # noqa: E402
from sheetgen.scan import pipeline  # noqa: E402
from sheetgen.scan.contract import DOT, LINE, MARKED, GameScanner, Region, RegionReading  # noqa: E402
from sheetgen.scan.report import text  # noqa: E402
from sheetgen.scan.sheet import rebuild  # noqa: E402


def _foury(rid: str) -> Region:
    return Region(rid, LINE, (0.0, 0.0, 1.0, 1.0, 1.0), "any")


@pytest.mark.parametrize("rid, place", [
    ("cell-C4", "the visited mark in room C4"),
    ("room-C4", "the cross over room C4"),
    ("inner-C4", "the cross over room C4"),
    ("monster-K12", "the foe's letter in room K12"),
    ("letter-C4-NW", "the foe's letter in room C4"),
    ("struck-C4", "the stroke through room C4's item"),
    ("flood-A2", "the flood's waves in room A2"),
    ("wall-C4-E", "the wall on room C4's east side"),
    ("entry-C1-N", "the arrow on room C1's north side, blacked out"),
    ("path-C4-D4", "the path between rooms C4 and D4"),
    ("centre-C4-D4", "the path between rooms C4 and D4"),
    ("path-C1-N", "the path in from the arrow on room C1's north side"),
    ("jump-A9-K5", "the jump's line between rooms A9 and K5"),
    ("stairs-I3-D5", "the stairs' line from room I3 to room D5"),
    ("track-hearts-3", "box 3 of the hearts track"),
    ("p2-track-turns-12", "box 12 of the turns track (sheet 2)"),
    ("req-B-2", "requirement box 2 of zone B"),
    ("req-A-oracle", "zone A's oracle tick"),
    ("req-C-exit", "zone C's exit tick"),
    ("collect-blue-package-4", "box 4 of the blue package collection"),
    ("monster-round-2", "the monster's round marker 2"),
    ("insert-coin-box", "the insert-coin box"),
    ("path-F4-G4@stairs-I3-D5", "the path between rooms F4 and G4, beside the stairs' line from room I3 to room D5"),
])
def test_a_foury_region_is_named_where_a_player_finds_it(rid, place):
    assert foury.SCANNER.place(_foury(rid)) == place


@pytest.mark.parametrize("rid, place", [
    ("edge-3-4-S", "the wall on square 3,4's south side"),
    ("door-3-4-E", "a door on square 3,4's east side"),
    ("fill-3-4-E", "the door on square 3,4's east side, filled in (explored)"),
    ("note-12-7", "a room's number in square 12,7"),
    ("time-7", "time box 7"),
])
def test_an_exploration_region_is_named_where_a_player_finds_it(rid, place):
    assert exploration.SCANNER.place(_foury(rid)) == place


@pytest.mark.parametrize("code", ["SG1/KRAKEN/A4/S1", "SG1/EXPLORATION-SHEET-20X28/A4/S1"])
def test_every_region_of_a_built_in_sheet_has_a_place_of_its_own(code):
    """No region falls back to the contract's default (its role and id): each game names all of its own."""
    sheet = rebuild(SheetIdentity.decode(code))
    scanner = pipeline.scanner_for(sheet)
    regions = scanner.regions(sheet)
    assert regions
    for region in regions:
        place = scanner.place(region)
        assert place != GameScanner.place(scanner, region) and region.id not in place, region.id


def _result(*readings: RegionReading) -> pipeline.ScanResult:
    identity = SimpleNamespace(encode=lambda: "SG1/TEST", describe=lambda: "a test sheet")
    sheet = SimpleNamespace(identity=identity, loaded=SimpleNamespace(ruleset="foury"))
    view = SimpleNamespace(as_dict=lambda: {"visited": ["C4"]})
    return pipeline.ScanResult("p.jpg", sheet, "QR code", SimpleNamespace(by="markers", error_px=0.2),
                               SimpleNamespace(as_dict=lambda: {}), {r.region.id: r for r in readings}, view, [],
                               scanner=foury.SCANNER)


def test_the_regions_to_check_are_listed_with_their_places_before_the_verdict(monkeypatch):
    # no region here is moot (moot_regions would ask this test's sheet for the game's view), and read
    # otherwise the rules hold (tests/test_scan_moot.py asks a game)
    monkeypatch.setattr(pipeline, "moot_regions", lambda *args: frozenset())
    monkeypatch.setattr(pipeline.ScanResult, "otherwise", lambda self, reading: [("empty", [])])
    dot = Region("cell-C4", DOT, (10.0, 10.0, 1.5), "visited")
    path = Region("path-C4-D4", LINE, (10.0, 10.0, 20.0, 10.0, 1.8), "path")
    lines = text(_result(RegionReading(dot, MARKED, 1.0, 0.6), RegionReading(path, MARKED, 0.2, 0.55))).splitlines()
    assert lines[-3:] == ["  to check:",
                          "    path-C4-D4: the path between rooms C4 and D4, read marked (sure 20%); "
                          "if empty: the rules still hold",
                          "  consistent as read, if the 1 uncertain region reads right: check it on the sheet or "
                          "with --review (path-C4-D4)"]

"""A verdict of "consistent" waits only on the uncertain regions the paper's view rests on: an uncertain
region whose every other reading gives the very same view (a visited dot in a room a path runs into: the
path shows the room visited) is moot, listed as uncertain but not to check; one the view rests on is still
to check, and two that stand for each other are not moot together."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.contract import DOT, EMPTY, LINE, MARKED, Region, RegionReading   # noqa: E402
from sheetgen.scan.geometry import DotShape, LineShape                    # noqa: E402
from sheetgen.scan.pipeline import ScanResult, moot_regions, scan_photo   # noqa: E402
from sheetgen.scan.report import text                                   # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of   # noqa: E402


class _Either:
    """A game whose view has one fact, 'entered', shown by a dot or by a path (either will do), and a
    wall of its own, which its one rule allows only by a room entered."""

    def interpret(self, sheet, readings):
        return SimpleNamespace(entered=readings["dot"].marked or readings["path"].marked,
                               wall=readings["wall"].marked)

    def check(self, sheet, view):
        return [SimpleNamespace(message="a wall by a room never entered")] if view.wall and not view.entered else []

    def place(self, region):
        return f"the {region.role} by the room"


def _reading(rid: str, kind: str, value: str, confidence: float) -> RegionReading:
    shape = DotShape(cx=1.0, cy=1.0, r=0.5) if kind == DOT else LineShape(0.0, 0.0, 1.0, 0.0, band=1.0)
    return RegionReading(Region(rid, kind, shape, rid), value, confidence, 0.0)


def _readings(**confidence) -> dict:
    return {rid: _reading(rid, kind, value, confidence.get(rid, 1.0))
            for rid, kind, value in (("dot", DOT, MARKED), ("path", LINE, MARKED), ("wall", LINE, EMPTY))}


def _moot(readings) -> frozenset:
    game = _Either()
    return moot_regions(game, None, readings, game.interpret(None, readings))


def test_an_uncertain_dot_the_path_stands_for_is_moot():
    assert _moot(_readings(dot=0.2)) == {"dot"}
    assert _moot(_readings(path=0.2)) == {"path"}


def test_an_uncertain_region_the_view_rests_on_is_not_moot():
    assert _moot(_readings(wall=0.2)) == frozenset()
    # the path gone, the dot alone shows the room entered: it is not moot then
    readings = _readings(dot=0.2)
    readings["path"] = replace(readings["path"], value=EMPTY)
    assert _moot(readings) == frozenset()


def test_two_that_stand_for_each_other_are_not_moot_together():
    assert _moot(_readings(dot=0.2, path=0.2)) == frozenset()


def _result(readings) -> ScanResult:
    game = _Either()
    view = game.interpret(None, readings)
    sheet = SimpleNamespace(identity=SimpleNamespace(describe=lambda: "a test sheet"))
    return ScanResult("p.jpg", sheet, "QR code", None, None, readings, SimpleNamespace(as_dict=dict),
                      game.check(None, view), scanner=game)


def test_each_region_to_check_says_what_the_rules_find_if_it_reads_otherwise():
    # the wall read empty, unsure: were it marked, the rule would break only with the room not entered
    readings = _readings(wall=0.2)
    assert _result(readings).otherwise(readings["wall"]) == [(MARKED, [])]
    for rid in ("dot", "path"):
        readings[rid] = replace(readings[rid], value=EMPTY)
    wall = _result(readings).otherwise(readings["wall"])
    assert [(value, [v.message for v in found]) for value, found in wall] == [
        (MARKED, ["a wall by a room never entered"])]
    # a broken rule the paper shows as read is not said again as what the other reading would break
    readings["wall"] = replace(readings["wall"], value=MARKED)
    readings["path"] = replace(readings["path"], confidence=0.2)
    broken = _result(readings)
    assert broken.violations and broken.otherwise(readings["path"]) == [(MARKED, [])]


def test_the_text_says_it_beside_each_region_to_check(monkeypatch):
    import sheetgen.scan.pipeline as pipeline
    monkeypatch.setattr(pipeline, "moot_regions", lambda *args: frozenset())
    readings = _readings(wall=0.2)
    for rid in ("dot", "path"):
        readings[rid] = replace(readings[rid], value=EMPTY)
    result = _result(readings)
    result.sheet.identity.encode = lambda: "SG1/TEST"
    assert result.unconfirmed
    lines = text(result).splitlines()
    assert lines[-2] == "    wall: the wall by the room, read empty (sure 20%); if marked: rule: a wall by a room never entered"
    readings["dot"] = replace(readings["dot"], value=MARKED)
    assert text(_result(readings)).splitlines()[-2].endswith("read empty (sure 20%); if marked: the rules still hold")



def test_other_readings_that_come_to_the_same_are_said_together():
    from types import SimpleNamespace as NS

    from sheetgen.scan.report import _if_otherwise
    broken = NS(message="box 2 is marked but box 1 is not")
    assert _if_otherwise([("crossed", []), ("filled", [])]) == "; if crossed or filled: the rules still hold"
    assert _if_otherwise([("crossed", [broken]), ("filled", [broken, broken])]) == (
        "; if crossed: rule: box 2 is marked but box 1 is not"
        "; if filled: rule: box 2 is marked but box 1 is not (and 1 more)")
    assert _if_otherwise([]) == ""
    # where the paper as read breaks a rule already (the review page of a sheet not consistent)
    from sheetgen.scan.report import if_otherwise
    assert if_otherwise([("marked", [])], holds=False) == ["if marked: no other rule breaks"]


def test_sure_and_unreadable_regions_are_never_asked():
    readings = _readings()
    assert _moot(readings) == frozenset()
    hidden = _readings(dot=0.0)
    hidden["dot"] = replace(hidden["dot"], visible=0.0)     # under dark print: not unsure at all
    assert _moot(hidden) == frozenset()


@pytest.mark.photo
def test_on_a_played_sheet_a_dot_on_the_path_waits_on_nothing_a_path_does():
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the sheet: apt-get install poppler-utils")
    recipe = next(r for r in load_recipes(Path(__file__).parent / "data" / "scan" / "families.yaml")
                  if r.id == "visited-crosses-01")
    flat = replace(recipe, id="visited-crosses-01-moot", camera=None)
    img, played = photo_of(flat)
    result = scan_photo(flat.id, sheet_ref=played.ref, options=played.options, img=img)
    assert result.rules_hold
    view = result.view
    readings = dict(result.readings)
    a, b = next((a, b) for a, b in (link.split("-") for link in sorted(view.path) if "-" in link)
                if readings[f"cell-{b}"].marked and not readings[f"cell-{b}"].uncertain
                and f"path-{a}-{b}" in readings)
    dot = readings[f"cell-{b}"]
    readings[dot.region.id] = replace(dot, confidence=0.2)
    doubted = replace(result, readings=readings, _moot=None)
    assert dot.region.id in doubted.moot() and doubted.verdict == result.verdict
    assert dot.region.id not in [r.region.id for r in doubted.unsure()]
    assert dot.region.id in [r.region.id for r in doubted.uncertain()]
    path = readings[f"path-{a}-{b}"]
    readings[path.region.id] = replace(path, confidence=0.2)
    doubted = replace(result, readings=readings, _moot=None)
    assert path.region.id in [r.region.id for r in doubted.unsure()]
    assert doubted.verdict == "unconfirmed"


def test_past_moot_most_uncertain_regions_none_is_asked():
    from sheetgen.scan.pipeline import MOOT_MOST
    readings = _readings(dot=0.2)
    assert _moot(readings) == {"dot"}
    for i in range(MOOT_MOST):
        readings[f"extra-{i}"] = _reading(f"extra-{i}", LINE, EMPTY, 0.2)
    assert _moot(readings) == frozenset()

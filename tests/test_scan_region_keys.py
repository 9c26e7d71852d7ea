"""A region's id is parsed once, by its game's grammar, into a RegionKey (region.key); a malformed id
is refused with a message naming the game and its forms.  And a region carries its kind's shape."""
import pytest

pytest.importorskip("numpy")

from sheetgen.games.exploration import scan as exploration  # noqa: E402
from sheetgen.games.foury import scan as foury  # noqa: E402
from sheetgen.scan.contract import (BOX, DOT, LINE, BoxShape, DotShape, LineShape, Region,  # noqa: E402
                                    RegionKey, shape_of)


@pytest.mark.parametrize("rid, key", [
    ("cell-C4", RegionKey("cell", ("C4",))),
    ("monster-K12", RegionKey("monster", ("K12",))),
    ("letter-C4-NW", RegionKey("letter", ("C4",), "NW")),
    ("wall-C4-E", RegionKey("wall", ("C4",), "E")),
    ("entry-C1-N", RegionKey("entry", ("C1",), "N")),
    ("path-C4-D4", RegionKey("path", ("C4", "D4"))),
    ("path-C1-N", RegionKey("path", ("C1",), "N")),
    ("jump-A9-K5", RegionKey("jump", ("A9", "K5"))),
    ("stairs-I3-D5", RegionKey("stairs", ("I3", "D5"))),
    ("track-hearts-3", RegionKey("track-hearts", number=3)),
    ("p2-track-turns-12", RegionKey("track-turns", number=12, page="p2-")),
    ("monster-round-2", RegionKey("monster-round", number=2)),
    ("req-A-oracle", RegionKey("req-A-oracle")),
    ("insert-coin-box", RegionKey("insert-coin-box")),
    ("path-F4-G4@stairs-I3-D5", RegionKey("path", ("F4", "G4"), clear_of=RegionKey("stairs", ("I3", "D5")))),
])
def test_a_foury_region_id_is_parsed_into_its_key(rid, key):
    assert foury.region_key(rid) == key


@pytest.mark.parametrize("rid", ["cell-c4", "cell-C", "wall-C4-X", "wall-C4", "path-C4", "path-C4-D4-E", "letter-C4-E",
                                 "jump-A9-N", "track-hearts", "bogus", "", "path-F4-G4@", "@stairs-I3-D5"])
def test_a_malformed_foury_region_id_is_refused_clearly(rid):
    with pytest.raises(ValueError, match="not a Dungeon Foury region id"):
        foury.region_key(rid)


@pytest.mark.parametrize("rid, key", [
    ("edge-3-4-S", RegionKey("edge", ((3, 4),), "S")),
    ("door-12-1-E", RegionKey("door", ((12, 1),), "E")),
    ("fill-3-4-E", RegionKey("fill", ((3, 4),), "E")),
    ("note-3-4", RegionKey("note", ((3, 4),))),
    ("time-7", RegionKey("time", number=7)),
])
def test_an_exploration_region_id_is_parsed_into_its_key(rid, key):
    assert exploration.region_key(rid) == key


@pytest.mark.parametrize("rid", ["edge-3-4-N", "edge-3-4", "note-3", "time-x", "door-a-b-E", "cell-C4", ""])
def test_a_malformed_exploration_region_id_is_refused_clearly(rid):
    with pytest.raises(ValueError, match="not an Exploration region id"):
        exploration.region_key(rid)


def test_a_region_made_by_its_game_carries_its_key_and_a_test_made_one_gets_it_on_asking():
    made = foury._region("wall-C4-E", LINE, LineShape(0, 0, 10, 0, band=1.8), "wall")
    assert made.key == RegionKey("wall", ("C4",), "E")
    bare = Region("path-C4-D4", LINE, LineShape(0, 0, 10, 0, band=1.8), "path")
    assert bare.key is None and foury.key_of(bare) == RegionKey("path", ("C4", "D4"))
    assert made == Region("wall-C4-E", LINE, LineShape(0, 0, 10, 0, band=1.8), "wall")   # the key is no identity


def test_a_region_carries_its_kinds_shape_a_tuple_made_one():
    assert Region("d", DOT, (1.0, 2.0, 0.5), "visited").shape == DotShape(cx=1.0, cy=2.0, r=0.5)
    box = Region("b", BOX, BoxShape(x=1, y=2, w=3, h=4, strokes=0.7), "box")
    assert box.bounds() == (1, 2, 4, 6) and shape_of(BOX, box.shape) is box.shape
    line = Region("l", LINE, LineShape(0, 0, 10, 0, band=2.0), "wall")
    assert line.bounds() == (-1.0, -1.0, 11.0, 1.0)
    with pytest.raises(ValueError, match="shape of another kind"):
        Region("l", LINE, DotShape(1, 2, 3), "wall")


def test_foury_refines_in_named_passes_in_their_order_each_naming_its_test():
    names = [p.__name__ for p in foury.REFINE_PASSES]
    assert names == ["_jumps_along_crosses", "_weak_paths", "_strike_or_waves", "_waves_beside_paths",
                     "_crosses_by_other_strokes", "_crosses_without_strike", "_foes_under_other_ink",
                     "_dots_under_other_ink", "_letters_beside_labels"]
    for p in foury.REFINE_PASSES:
        assert p.__doc__ and "test" in p.__doc__, p.__name__

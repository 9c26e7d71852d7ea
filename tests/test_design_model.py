"""The workbench's editing model (sheetgen/games/foury/design.py): each operation on a parsed map,
the YAML written back with the designer's comments and key order, checked as `sheetgen validate`
checks it, drawn with the printed sheet's ids."""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import find_game
from sheetgen.errors import InputError
from sheetgen.games.foury import board as fb
from sheetgen.games.foury import design
from sheetgen.games.foury.formats.map import load_map
from sheetgen.games.foury.vocabulary import campaigns, items

DATA = Path(__file__).parent / "data" / "foury_maps"
HALL_ROWS = ["A A A A A", "D A A A B", "D D O B B", "D C C C B", "C C C C C"]
HALL_ENTRIES = ["C1:N", "E3:E", "C5:S", "A3:W", "A1:N", "E5:S", "A5:W", "E2:E"]
HALL_ITEMS = {"B1": "statue", "B2": "statue", "E1": "statue", "D2": "chest", "A4": "cornucopia", "B4": "stairs",
              "D4": "lever", "A5": "lever", "E4": "orc"}


def paint_hall(draft):
    """The test hall painted cell by cell, as a designer clicks it."""
    for y, row in enumerate(HALL_ROWS):
        for x, sym in enumerate(row.split()):
            draft.apply({"op": "paint", "cells": [fb.cell_name((x, y))], "symbol": sym})
    for e in HALL_ENTRIES:
        cell, side = e.split(":")
        draft.apply({"op": "entry", "cell": cell, "side": side})
    for cell, name in HALL_ITEMS.items():
        draft.apply({"op": "items", "cell": cell, "items": [name]})
    draft.apply({"op": "wall", "cell": "B3", "side": "E"})


def validate(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["validate", str(path)])
    return result.exit_code, result.output


@pytest.fixture
def hall(tmp_path):
    target = tmp_path / "hall.yaml"
    shutil.copy(DATA / "test-hall.yaml", target)
    return target


def test_the_game_declares_its_workbench():
    assert find_game("foury").module("designer") is design


def test_a_map_painted_from_nothing_validates_builds_and_plays(tmp_path):
    path = tmp_path / "cellar.yaml"
    draft = design.new_draft(path, 5, 5)
    assert not path.exists()                                  # nothing is written before a save
    start = draft.state()
    assert start["zones"] == [] and start["errors"] > 0 and start["options"]["title"] == "Cellar"
    paint_hall(draft)
    state = draft.state()
    assert state["loads"] and state["errors"] == 0, state["findings"]
    assert [z["letter"] for z in state["zones"]] == ["A", "B", "C", "D"]      # in letter order, as painted
    draft.save()
    code, out = validate(path)
    assert code == 0 and "ok, map foury" in out, out
    fmap = load_map(path)
    assert fmap.board.cells[(2, 2)] == fb.CENTRE and len(fmap.board.entries) == 8
    assert draft.document("letter").pages                      # it builds
    # the comments of `new map` are where they were: each before its own key
    text = path.read_text()
    assert text.index("# entry/exit arrows") < text.index("\nentries:") < text.index("# walls printed")
    assert text.index("\nzones:") < text.index("# entry/exit arrows")


def test_comments_key_order_and_styles_survive_edits(hall):
    before = hall.read_text()
    draft = design.open_draft(hall)
    draft.apply({"op": "paint", "cells": ["B2"], "symbol": "#"})
    draft.apply({"op": "wall", "cell": "D3", "side": "S"})
    draft.apply({"op": "zone", "letter": "A", "name": "The Old Temple", "events": {"1": "find potion"}})
    draft.apply({"op": "items", "cell": "C4", "items": ["potion", "shield"]})
    draft.save()
    after = hall.read_text()
    comments = [line[line.index("#"):] for line in before.splitlines() if "# " in line]
    assert all(c in after for c in comments)
    keys = [line.split(":")[0] for line in before.splitlines() if line and not line.startswith((" ", "#"))]
    assert [line.split(":")[0] for line in after.splitlines() if line and not line.startswith((" ", "#"))] == keys
    assert "walls: [B3:E, D3:S]" in after                     # a flow list stays on its line
    assert "events: {1: find potion, 2: collapse left right" in after
    assert "  C4: [potion, shield]\n" in after
    assert "  D A A A B\n" in before and "  D # A A B\n" in after
    assert "B2: statue" not in after                           # rock holds nothing
    code, out = validate(hall)
    assert code in (0, 1) and "Traceback" not in out           # its own findings, never a crash


def test_an_untouched_file_is_written_back_byte_for_byte(hall):
    draft = design.open_draft(hall)
    assert draft.text() == hall.read_text() and not draft.dirty


def test_walls_toggle_as_one_wall_whichever_cell_names_it(hall):
    draft = design.open_draft(hall)
    draft.apply({"op": "wall", "cell": "C3", "side": "W"})    # the file's B3:E, named from the other side
    assert list(draft.doc["walls"]) == []
    draft.apply({"op": "wall", "cell": "C3", "side": "W"})
    assert list(draft.doc["walls"]) == ["C3:W"]


def test_a_border_side_is_an_entry_and_an_inner_side_is_not(hall):
    draft = design.open_draft(hall)
    draft.apply({"op": "wall", "cell": "B1", "side": "N"})    # a click on the border: an arrow
    assert "B1:N" in list(draft.doc["entries"])
    draft.apply({"op": "entry", "cell": "B1", "side": "N"})
    assert "B1:N" not in list(draft.doc["entries"])
    with pytest.raises(InputError, match="does not face off the map"):
        draft.apply({"op": "entry", "cell": "B2", "side": "N"})
    assert draft.text() == hall.read_text()                    # a refused operation changes nothing


def test_painting_rock_or_the_centre_takes_what_cannot_stay(hall):
    draft = design.open_draft(hall)
    draft.apply({"op": "paint", "cells": ["C1", "B1"], "symbol": "#"})
    assert "C1:N" not in list(draft.doc["entries"]) and "B1" not in draft.doc["items"]
    draft.apply({"op": "paint", "cells": ["C3"], "symbol": "#"})                 # beside the wall B3:E
    assert list(draft.doc["walls"]) == []
    draft.apply({"op": "undo"})
    draft.apply({"op": "paint", "cells": ["E3"], "symbol": "O"})
    assert "E3:E" not in list(draft.doc["entries"])
    state = draft.state()
    two = [f for f in state["findings"] if "centre rooms" in f["message"]]
    assert two and set(two[0]["cells"]) >= {"C3", "E3"}      # the finding names the cells the page outlines


def test_a_new_letter_becomes_a_zone_and_removing_it_leaves_rock(hall):
    draft = design.open_draft(hall)
    draft.apply({"op": "paint", "cells": ["A1", "B1"], "symbol": "e"})
    zone = draft.doc["zones"]["E"]
    assert zone["name"] == "Zone E" and len(zone["events"]) == 6 and "requirement" not in zone
    draft.apply({"op": "zone", "letter": "E", "requirement": {"kind": "kills", "count": 2}, "colour": "#aabbcc"})
    assert dict(draft.doc["zones"]["E"]["requirement"]) == {"kills": 2}
    draft.apply({"op": "remove_zone", "letter": "E"})
    assert "E" not in draft.doc["zones"] and draft.grid[0][:2] == ["#", "#"]


@pytest.mark.parametrize("op, message", [
    ({"op": "paint", "cells": ["A1"], "symbol": "?"}, "cannot paint with"),
    ({"op": "paint", "cells": ["Z9"], "symbol": "A"}, "off the 5x5 grid"),
    ({"op": "items", "cell": "A1", "items": ["statu"]}, "unknown item"),
    ({"op": "zone", "letter": "A", "events": {"2": "colapse left"}}, "event 2"),
    ({"op": "zone", "letter": "A", "events": {"7": "chest"}}, "out of range"),
    ({"op": "zone", "letter": "A", "requirement": {"kind": "gold", "count": 2}}, "unknown requirement"),
    ({"op": "zone", "letter": "Q", "name": "x"}, "no zone 'Q'"),
    ({"op": "set", "key": "campaign", "value": "slaugter"}, "unknown campaign"),
    ({"op": "set", "key": "grid", "value": "9x9"}, "does not set 'grid'"),
    ({"op": "set", "key": "title", "value": "x" * 300}, "characters long"),
    ({"op": "paint", "cells": ["A1"]}, "operation 'paint'"),
    ({"op": "fly"}, "unknown operation"),
])
def test_a_bad_operation_is_a_clean_error_and_changes_nothing(hall, op, message):
    draft = design.open_draft(hall)
    with pytest.raises(InputError, match=message):
        draft.apply(op)
    assert draft.text() == hall.read_text() and draft.undo_stack == []


def test_options_and_undo(hall):
    draft = design.open_draft(hall)
    draft.apply({"op": "set", "key": "campaign", "value": "strength"})
    draft.apply({"op": "set", "key": "description", "value": "Under the old hall."})
    draft.apply({"op": "set", "key": "die_table", "value": {"2": "gain 2 hearts"}})
    keys = [k for k in draft.doc]
    assert keys.index("items") < keys.index("campaign") < keys.index("die_table")   # new keys in the format's order
    assert keys.index("title") < keys.index("description") < keys.index("grid")
    assert draft.doc["die_table"][2] == "gain 2 hearts" and draft.doc["die_table"][1] == "monster"
    assert draft.state()["options"]["campaign"] == "strength"
    for _ in range(3):
        draft.apply({"op": "undo"})
    assert draft.text() == hall.read_text()


def test_format_errors_are_listed_and_the_map_still_drawn(tmp_path):
    path = tmp_path / "bad.yaml"
    shutil.copy(DATA / "bad-zone-unused.yaml", path)
    state = design.open_draft(path).state()
    assert not state["loads"] and state["errors"] >= 1
    assert any("no cell uses it" in f["message"] for f in state["findings"])
    assert 'id="cell-A1"' in state["svg"]


def test_not_a_map_is_refused_cleanly(tmp_path):
    path = tmp_path / "deck.yaml"
    path.write_text("sheetgen: 1\nkind: deck\ntitle: x\n")
    with pytest.raises(InputError):
        design.open_draft(path)
    with pytest.raises(InputError, match="5x5 to 26x26"):
        design.new_draft(tmp_path / "x.yaml", 3, 40)


def test_the_drawing_has_stable_ids_for_cells_edges_walls_and_entries(hall):
    svg = design.open_draft(hall).state()["svg"]
    for ident in ("cell-A1", "cell-E5", "wall-B3-E", "entry-C1-N", "item-B1-statue", "edge-A1-N", "edge-A1-W",
                  "edge-E5-E", "edge-E5-S", "edge-B3-E"):
        assert f'id="{ident}"' in svg, ident
    assert svg.count('class="hit') == 6 * 5 + 5 * 6           # every edge of a 5x5 grid once
    assert "<svg" in svg and 'width="' not in svg.split(">", 1)[0]    # sized by the page, not in mm


def test_the_palette_is_the_vocabulary():
    p = design.palette()
    assert [i["name"] for i in p["items"]] == [n for n, _ in items()]
    assert [c["name"] for c in p["campaigns"]] == [n for n, _ in campaigns()]
    for phrase in p["event_phrases"]:
        fb.parse_event(phrase)                                 # every phrase offered loads
    assert set(design.icon_svgs()) == set(fb.ITEMS)


def test_playtest_reports_the_rate_and_compares_with_the_saved_file(hall):
    draft = design.open_draft(hall)
    seen = []
    draft.apply({"op": "items", "cell": "C4", "items": ["potion"]})
    out = draft.playtest(60, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (180, 180)          # the draft, the saved file and the base game, 60 games each
    lo, hi = out["draft"]["win_rate_ci95"]
    assert lo <= out["draft"]["win_rate"] <= hi
    assert set(out["draft"]["requirements"]) == {"A", "B", "C", "D"}
    assert max(out["draft"]["heat"].values()) == 1.0 and "A1" in out["draft"]["heat"]
    assert "verdict" in out["comparison"] and out["saved"]["games"] == 60
    # beside the base game for the same hero and player, and every end seen said in words
    assert out["base"]["name"] == "ancient-story" and out["base"]["games"] == 60
    assert 0 <= out["base"]["win_rate"] <= 1 and out["base"]["policy"] == "cautious"
    assert sum(o["games"] for o in out["outcomes"].values()) == 60
    assert all(o["meaning"] for o in out["outcomes"].values())
    alone = design.open_draft(hall).playtest(20)
    assert alone["draft"]["games"] == 20 and "saved" not in alone       # nothing saved to compare with


def test_the_base_game_is_not_set_beside_itself(tmp_path):
    from sheetgen.definitions.builtins import find_builtin
    copy = tmp_path / "base.yaml"
    copy.write_text(find_builtin("ancient-story").read_text(encoding="utf-8"), encoding="utf-8")
    seen = []
    out = design.open_draft(copy).playtest(20, progress=lambda done, total: seen.append(total))
    assert "base" not in out and seen[-1] == 20


def test_a_map_with_errors_is_not_playtested(tmp_path):
    draft = design.new_draft(tmp_path / "x.yaml", 5, 5)
    with pytest.raises(InputError, match="fix them to playtest"):
        draft.playtest(20)


def test_a_hand_edit_meanwhile_is_never_overwritten_and_can_be_reloaded(hall):
    draft = design.open_draft(hall)
    draft.apply({"op": "items", "cell": "C4", "items": ["potion"]})
    hall.write_text(hall.read_text().replace("title: Test Hall", "title: Hand Edited Hall"))
    with pytest.raises(InputError, match="changed on disk since the workbench read it"):
        draft.save()
    assert "Hand Edited Hall" in hall.read_text() and "C4" not in hall.read_text()
    draft.apply({"op": "reload"})
    assert draft.doc["title"] == "Hand Edited Hall" and not draft.dirty
    draft.apply({"op": "undo"})                                   # the draft is back
    assert draft.doc["items"]["C4"] == "potion" and draft.doc["title"] == "Test Hall"


def test_a_new_map_is_not_saved_over_a_file_made_meanwhile(tmp_path):
    path = tmp_path / "x.yaml"
    draft = design.new_draft(path, 5, 5)
    path.write_text("mine\n")
    with pytest.raises(InputError, match="changed on disk since the workbench started it"):
        draft.save()
    assert path.read_text() == "mine\n"


MAPS = sorted(p for p in [*(DATA.parent.parent.parent / "layouts" / "foury").glob("*.yaml"), *DATA.glob("*.yaml")]
              if "kind: map" in p.read_text() and p.name not in ("bad-grid.yaml", "bad-many.yaml"))


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.name)
def test_every_map_opens_and_is_written_back_byte_for_byte(path):
    draft = design.open_draft(path)
    assert draft.text() == path.read_text()


def test_a_multi_line_list_keeps_its_comments_when_edited(tmp_path):
    path = tmp_path / "story.yaml"
    shutil.copy(DATA.parent.parent.parent / "layouts" / "foury" / "ancient-story.yaml", path)
    before = path.read_text()
    draft = design.open_draft(path)
    draft.apply({"op": "wall", "cell": "J3", "side": "S"})          # removed from the Palace line
    draft.apply({"op": "wall", "cell": "C3", "side": "E"})          # added after the last wall
    text = draft.text()
    assert "  J7:W, I9:E,                         # Palace galleries\n" in text
    assert "  A4:E, B8:S, C3:E                    # Waterways sluices\n" in text
    changed = [(a, b) for a, b in zip(before.splitlines(), text.splitlines()) if a != b]
    assert len(changed) == 2 and len(before.splitlines()) == len(text.splitlines())
    draft.save()
    assert [w for w in load_map(path).model.walls if w in ("J3:S", "C3:E")] == ["C3:E"]


def test_compact_cells_stay_compact_and_a_malformed_key_is_not_overwritten(tmp_path):
    path = tmp_path / "compact.yaml"
    text = (DATA / "test-hall.yaml").read_text()
    for row in HALL_ROWS:
        text = text.replace("  " + row + "\n", "  " + row.replace(" ", "") + "\n")
    path.write_text(text.replace("walls: [B3:E]", "walls: {B3: E}"))
    draft = design.open_draft(path)
    draft.apply({"op": "paint", "cells": ["A1"], "symbol": "D"})
    assert "  DAAAA\n  DAAAB\n" in draft.text()
    with pytest.raises(InputError, match="`walls:` in the file is not a list: fix it there first"):
        draft.apply({"op": "wall", "cell": "C2", "side": "S"})
    assert "walls: {B3: E}" in draft.text()


def test_resizing_the_grid_adds_rock_and_takes_what_falls_off(hall):
    draft = design.open_draft(hall)
    draft.apply({"op": "grid", "columns": 6, "rows": 5})
    assert draft.grid[0] == list("AAAAA#") and draft.doc["grid"] == "6x5"
    assert "E3:E" not in list(draft.doc["entries"])          # the old border's arrow is inside now
    assert draft.check().loads
    draft.apply({"op": "undo"})
    draft.apply({"op": "grid", "columns": 5, "rows": 5})      # the same size: nothing changes
    assert draft.text() == hall.read_text()
    draft.apply({"op": "grid", "columns": 5, "rows": 6})
    draft.apply({"op": "grid", "columns": 5, "rows": 5})
    assert "C5:S" not in list(draft.doc["entries"])           # gone when a sixth row came below it
    with pytest.raises(InputError, match="out of range"):
        draft.apply({"op": "grid", "columns": 40, "rows": 5})


def test_every_cell_of_a_shortened_list_is_outlined():
    """A message prints six of zone C's eight cells ('... and 2 more'): the page outlines all eight."""
    path = DATA / "lint-requirement.yaml"
    checked = design.check_text(path, path.read_text())
    finding = next(f for f in checked.findings if "no stairs in or reachable from zone C" in f.message)
    assert "and 2 more" in finding.message
    zone_c = sorted(fb.cell_name(c) for c in checked.fmap.board.zone_cells("C"))
    assert len(zone_c) == 8 and sorted(finding.cells) == zone_c
    # a list printed whole is outlined as printed, nothing more
    statues = next(f for f in checked.findings if "statues" in f.message)
    assert statues.cells == ["B1", "B2"]
    # the validate text is as before: the full lists are the workbench's alone
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert "(B4, C4, D4, A5, B5, C5 and 2 more)" in res.output

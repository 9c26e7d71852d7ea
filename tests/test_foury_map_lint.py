"""Foury map lint through `sheetgen validate`: playable maps pass, unplayable ones exit 1 naming cells."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.builtins import builtin_info
from sheetgen.games.foury.formats.map import blank_layout, lint, load_map, resize_blank
from sheetgen.errors import InputError
from sheetgen.games.foury.board import parse_cell

DATA = Path(__file__).parent / "data" / "foury_maps"
TEST_HALL = DATA / "test-hall.yaml"
BUILTIN_MAPS = ["ancient-story", "slaughter", "santa", "strength", "kraken", "foury-blank", "foury-blank-plain"]


def _validate(*args):
    result = CliRunner().invoke(main, ["validate", *map(str, args)])
    return result.exit_code, result.output      # click mixes stderr into output


def _variant(tmp_path, name, old_new: list[tuple[str, str]], extra: str = "") -> Path:
    text = TEST_HALL.read_text()
    for old, new in old_new:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text + extra)
    return path


def test_playable_test_hall_passes_with_only_a_warning():
    code, out = _validate(TEST_HALL)
    assert code == 0, out
    assert "ok, map foury" in out
    # four entries only carry two rounds: each round closes its entry and its exit
    assert "warning:" in out and "4 rounds use 8 entries but the map has 4" in out
    assert "error:" not in out


# the built-in maps' walls that stand against rock (drawn over the rock edge, they change nothing):
# the lint says so; removing them from layouts/foury changes the pack's bytes, so they wait for
# the layouts' owner (this list then shrinks, and the test says when)
WALLS_ON_ROCK = {"ancient-story": set(), "strength": set(), "foury-blank": set(), "foury-blank-plain": set(),
                 "slaughter": {"H4:N"},
                 "santa": {"C2:E", "E8:S"}, "kraken": {"C2:E", "H2:S", "J5:N", "E9:E", "A6:E"}}


@pytest.mark.parametrize("name", BUILTIN_MAPS)
def test_every_builtin_map_validates_clean(name):
    code, out = _validate(name)
    assert code == 0, out
    warnings = [line for line in out.splitlines() if line.startswith("warning:")]
    assert "error" not in out.replace(f"({len(warnings)} warning", ""), out
    assert {line.split(": wall ")[1].split()[0] for line in warnings if "faces rock" in line} == WALLS_ON_ROCK[name]
    assert all("faces rock" in line for line in warnings), out


def test_builtin_maps_are_all_listed_and_checked():
    maps = {b.name for b in builtin_info() if (b.kind, b.ruleset) == ("map", "foury")}
    assert set(BUILTIN_MAPS) <= maps
    assert maps - set(BUILTIN_MAPS) == set(), "a new built-in map needs adding to BUILTIN_MAPS"


def test_disconnected_zone_exit_1_names_the_stray_cells():
    code, out = _validate(DATA / "lint-disconnected.yaml")
    assert code == 1
    assert "zone D is not one connected region: B5 is cut off from A2, A3, B3, A4" in out
    assert "zone C is not one connected region: A5 is cut off from" in out
    assert "not playable as designed (2 problems)" in out


def test_walled_centre_exit_1_names_the_walls_once():
    code, out = _validate(DATA / "lint-centre-walled.yaml")
    assert code == 1
    assert "cells: the Oracle's room C3 is closed in: no entry and no cell can reach it, " \
           "blocked by the walls B3:E, C2:S, D3:W, C4:N" in out
    # one problem, one finding: not one per entry, and no warning about the same cell
    assert "not playable as designed (1 problem)" in out
    assert "cannot reach the centre room" not in out and "unreachable from every entry" not in out


def test_an_oracle_walled_in_on_a_map_of_eight_entries_is_one_finding_naming_the_walls_as_written():
    # walls: [d3:s, C4:E, E4:W, D5:N]: two written from outside the room, two from inside
    code, out = _validate(DATA / "lint-oracle-closed.yaml")
    assert code == 1
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, out
    assert errors[0].endswith("lint-oracle-closed.yaml:14:9: cells: the Oracle's room D4 is closed in: no entry and "
                              "no cell can reach it, blocked by the walls D3:S, C4:E, E4:W, D5:N")
    assert "warning" not in out
    # the same room with one side open: playable
    open_side = _copy_with(DATA / "lint-oracle-closed.yaml", [("d3:s, ", "")])
    assert _validate(open_side)[0] == 0


def _copy_with(path: Path, old_new) -> Path:
    import tempfile
    text = path.read_text()
    for old, new in old_new:
        assert old in text, old
        text = text.replace(old, new)
    target = Path(tempfile.mkdtemp()) / path.name
    target.write_text(text)
    return target


def test_a_zone_cut_off_by_rock_is_one_error_naming_the_rock_and_its_entries():
    code, out = _validate(DATA / "lint-zone-cut-off.yaml")
    assert code == 1
    assert "zones.C: zone C (The Castle Cliff) cannot reach the Oracle's room C3: blocked by rock at A4, B4, C4, " \
           "D4, E4; its entries C5:S, A5:W cannot reach it either" in out
    assert "not playable as designed (1 problem)" in out
    # a zone without entries cut off by rock is an error too (it was a warning about its cells)
    no_arrows = _copy_with(DATA / "lint-zone-cut-off.yaml",
                           [("C5:S, A5:W, ", ""), ("    requirement: {levers: 2}\n", "")])
    code, out = _validate(no_arrows)
    assert code == 1 and "zone C (The Castle Cliff) cannot reach the Oracle's room C3: blocked by rock at A4" in out
    assert "unreachable from every entry" not in out


def test_two_centre_rooms_are_an_error():
    code, out = _validate(DATA / "lint-two-centres.yaml")
    assert code == 1
    assert "lint-two-centres.yaml:11:7: cells: the map has 2 centre rooms (O) at C3, C4: the Oracle's room is one " \
           "cell; keep one O" in out


def test_a_wall_against_rock_is_a_warning_naming_it_as_written():
    code, out = _validate(DATA / "lint-wall-rock.yaml")
    assert code == 0, out
    assert "walls[1]: wall A2:E faces rock at B2: rock is solid already, the wall changes nothing" in out
    assert "wall B3:E" not in out                                # the other wall stands between two rooms


def test_items_on_the_oracle_are_a_warning_but_the_kraken_belongs_there():
    code, out = _validate(DATA / "lint-item-oracle.yaml")
    assert code == 0, out
    assert "items.C3: chest and statue printed in the Oracle's room C3: the room is entered without a roll and " \
           "the sheet prints the Oracle there; put them in a zone cell" in out
    assert "printed in" not in _validate("kraken")[1]             # the Kraken map's kraken is its centre piece


def test_rock_and_walls_leave_an_entry_stuck(tmp_path):
    # rock across row 4 and two walls seal the bottom row off from the rest
    path = _variant(tmp_path, "stuck.yaml", [("  D C C C B", "  D # # # B"), ("walls: [B3:E]", "walls: [B3:E, A4:S, E5:N]"),
                                             ("  B4: stairs", "  B5: stairs"), ("  D4: lever", "  D5: lever")])
    code, out = _validate(path)
    assert code == 1
    assert "zone C (The Castle Cliff) cannot reach the Oracle's room C3: blocked by the walls A4:S, E5:N and rock " \
           "at B4, C4, D4; its entry C5:S cannot reach it either" in out


def test_unmeetable_requirements_exit_1_with_cells():
    code, out = _validate(DATA / "lint-requirement.yaml")
    assert code == 1
    assert "zones.A.requirement: zone A needs 3 statues but has 2 reachable in its cells: B1, B2" in out
    assert "zone C needs 2 levers reached by the stairs: no stairs in or reachable from zone C" in out


def test_requirement_counts_both_ways(tmp_path):
    # statues outside zone A do not count; a statue moved into A does
    outside = _variant(tmp_path, "outside.yaml", [("  E1: statue", "  E2: statue")])
    assert _validate(outside)[0] == 1
    inside = _variant(tmp_path, "inside.yaml", [("  E1: statue", "  D1: statue")])
    assert _validate(inside)[0] == 0
    # one lever is not enough for levers: 2
    one_lever = _variant(tmp_path, "lever.yaml", [("  A5: lever\n", "")])
    code, out = _validate(one_lever)
    assert code == 1 and "only 1 reachable lever: D4" in out
    # no cornucopia and no way to find one
    no_horn = _variant(tmp_path, "horn.yaml", [("  A4: cornucopia\n", "")])
    code, out = _validate(no_horn)
    assert code == 1 and "zone D needs 1 cornucopia but the map has 0 reachable" in out
    # ... but a bandit (who gives one when beaten) or a `find cornucopia` event will do
    bandit = _variant(tmp_path, "bandit.yaml", [("  A4: cornucopia", "  A4: bandit")])
    assert _validate(bandit)[0] == 0
    finds = _variant(tmp_path, "find.yaml", [("  A4: cornucopia\n", ""), ("6: chest}", "6: find cornucopia}")])
    assert _validate(finds)[0] == 0
    # kills: no monster events anywhere and too few printed enemies
    calm = _variant(tmp_path, "calm.yaml", [("1: monster,", "1: chest,"), ("collapse behind + monster", "collapse behind"),
                                            ("2: monster, 3", "2: chest, 3"), ("  D2: chest", "  D2: orc")])
    code, out = _validate(calm)
    assert code == 1 and "zone B needs 3 kills but the map has 1 reachable enemies: D2 and no monster events" in out


def test_entries_in_one_zone_only_cannot_exit_elsewhere(tmp_path):
    path = _variant(tmp_path, "one-zone.yaml", [("entries: [C1:N, E3:E, C5:S, A3:W]", "entries: [C1:N, D1:N]")])
    code, out = _validate(path)
    assert code == 1
    assert "the map needs entries in at least 2 zones (has A)" in out
    assert "zone B (The Palace Rooms) has a round but no entry arrow" in out


def test_unreachable_cells_are_a_warning_not_an_error(tmp_path):
    path = _variant(tmp_path, "pocket.yaml", [("walls: [B3:E]", "walls: [B3:E, A1:E, A1:S]")])
    code, out = _validate(path)
    assert code == 0, out
    assert "warning:" in out and "unreachable from every entry: A1" in out


def test_campaign_rules(tmp_path):
    # the slaughter has no exits and starts inside
    slaughter = _variant(tmp_path, "sl.yaml", [], "campaign: slaughter\n")
    code, out = _validate(slaughter)
    assert code == 1
    assert "has no exits" in out and "give `start:` a cell at the centre" in out
    # santa needs turns and a start open onto Santa's room (B3:E walls C3 off from B3)
    santa = _variant(tmp_path, "sa.yaml", [], "campaign: santa\nstart: B3\n")
    code, out = _validate(santa)
    assert code == 1
    assert "give `turns:`" in out and "start B3 is not an open space next to Santa's room C3" in out
    santa_ok = _variant(tmp_path, "sa2.yaml", [], "campaign: santa\nstart: C2\nturns: 30\n")
    code, out = _validate(santa_ok)
    assert code == 0, out
    # the kraken: no cave-ins, only floods
    kraken = _variant(tmp_path, "kr.yaml", [], "campaign: kraken\nturns: 30\nflooded: [C4]\n")
    code, out = _validate(kraken)
    assert code == 1 and "zone A event 2 collapses walls" in out and "no cave-ins" in out


def test_max_enemies_caps_the_printed_enemies(tmp_path):
    path = _variant(tmp_path, "max.yaml", [("  D2: chest", "  D2: [orc, goblin]")], "max_enemies: 1\n")
    code, out = _validate(path)
    assert code == 1 and "the map prints 2 enemies but max_enemies is 1" in out


def test_builtin_maps_follow_their_campaigns():
    slaughter = load_map("slaughter").board
    enemies = sum(1 for names in slaughter.items.values() for n in names
                  if n in {"goblin", "orc", "imp", "bandit", "troll", "minotaur"})
    assert (slaughter.campaign, slaughter.entries, slaughter.max_enemies, enemies) == ("slaughter", (), 48, 48)
    assert slaughter.start == (slaughter.columns // 2, slaughter.rows // 2)
    assert all(e.kind != "monster" for z in slaughter.zones.values() for evs in z.events.values() for e in evs)
    santa = load_map("santa").board
    counts = {}
    for names in santa.items.values():
        for n in names:
            counts[n] = counts.get(n, 0) + 1
    assert counts["reindeer"] >= 8 and counts["rudolph"] == 1 and counts["sleigh"] == 1
    assert counts["green package"] >= 16 and counts["blue package"] >= 16
    assert santa.turns and santa.safe_zone == "S" and santa.zones["S"].name == "XMas Safe Zone"
    kraken = load_map("kraken").board
    assert kraken.turns and kraken.flooded and kraken.items[kraken.centre_cells()[0]] == ("kraken",)
    strength = load_map("strength").board
    assert not strength.hero_extras
    assert {"yellow potion", "purple potion"} <= {n for v in strength.items.values() for n in v}
    ancient = load_map("ancient-story").board
    assert len(ancient.entries) == 8 and ancient.hero_extras
    assert sum(len(v) for v in strength.items.values()) < sum(len(v) for v in ancient.items.values())


def test_blank_map_resizes_and_stays_playable():
    blank = load_map("foury-blank")
    assert (blank.board.columns, blank.board.rows) == (7, 7) and blank.board.items == {}
    big = resize_blank(blank, 11, 11)
    assert (big.board.columns, big.board.rows) == (11, 11)
    assert big.board.centre_cells() == [parse_cell("F6")]
    assert not [f for f in lint(big) if f.severity == "error"]
    for cols, rows in [(5, 5), (9, 7), (8, 12), (26, 20)]:
        cells, entries = blank_layout(cols, rows)
        assert len(cells.split()) == cols * rows and len(entries) == 8
    with pytest.raises(InputError, match="only blank maps can change size"):
        resize_blank(load_map("ancient-story"), 11, 11)
    with pytest.raises(InputError, match="columns 40 is out of range"):
        resize_blank(blank, 40, 11)


def test_compose_refuses_to_resize_a_designed_map():
    from sheetgen.games.foury.formats.map import compose
    from sheetgen.draw.options import BuildOptions, game_options
    with pytest.raises(InputError, match="only blank maps can change size"):
        compose(load_map("ancient-story"), BuildOptions(game=game_options(columns=9, rows=9)))

"""Foury map definitions: the fixed core format, located errors, the Board built from it."""
from pathlib import Path

import pytest

from sheetgen.games.foury.formats.map import FouryMap, MapModel, load_map
from sheetgen.definitions.registry import Source
from sheetgen.definitions.yamlsource import parse_yaml
from sheetgen.errors import InputError
from sheetgen.games.foury.board import Board, Event, parse_cell, wall_key

DATA = Path(__file__).parent / "data" / "foury_maps"
TEST_HALL = DATA / "test-hall.yaml"


def _errors(name: str) -> list[str]:
    with pytest.raises(InputError) as info:
        load_map(DATA / name)
    return [p.format() for p in info.value.problems]


def _line_of(name: str, needle: str) -> int:
    """1-based line of the first line containing needle, or equal to it after '=' (tests follow the data)."""
    lines = (DATA / name).read_text().split("\n")
    if needle.startswith("="):
        return next(i for i, line in enumerate(lines, 1) if line == needle[1:])
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_test_hall_loads_as_written():
    fmap = load_map(TEST_HALL)
    assert isinstance(fmap, FouryMap) and isinstance(fmap.model, MapModel)
    assert fmap.source.path == TEST_HALL
    b = fmap.board
    assert isinstance(b, Board)
    assert (b.title, b.columns, b.rows, b.campaign) == ("Test Hall", 5, 5, "ancient")
    rows = ["AAAAA", "DAAAB", "DDOBB", "DCCCB", "CCCCC"]
    assert all(b.cells[(x, y)] == rows[y][x] for y in range(5) for x in range(5))
    assert b.centre_cells() == [(2, 2)]
    assert sorted(b.zones) == ["A", "B", "C", "D"]
    assert [(z.requirement_kind, z.requirement_count) for z in b.zones.values()] == [
        ("statues", 3), ("kills", 3), ("levers", 2), ("cornucopias", 1)]
    for zone in b.zones.values():
        assert sorted(zone.events) == [1, 2, 3, 4, 5, 6]
        assert all(isinstance(e, Event) for evs in zone.events.values() for e in evs)
    assert b.zones["B"].events[2] == (Event("collapse", ("behind",)), Event("monster"))
    assert b.zones["D"].events[1] == (Event("flood origin"),)
    assert b.zones["A"].events[6] == (Event("extra step"),)
    assert b.entries == ((parse_cell("C1"), "N"), (parse_cell("E3"), "E"), (parse_cell("C5"), "S"),
                         (parse_cell("A3"), "W"))
    assert [b.entry_zone(e) for e in b.entries] == ["A", "B", "C", "D"]
    # B3:E is stored canonically: the same key as C3:W
    assert b.walls == frozenset({wall_key(parse_cell("C3"), "W")})
    assert b.has_printed_wall(parse_cell("B3"), "E") and b.has_printed_wall(parse_cell("C3"), "W")
    assert b.has_printed_wall(parse_cell("A1"), "N")              # the edge is a wall
    assert not b.has_printed_wall(parse_cell("C1"), "N")          # except at an entry
    assert b.items[parse_cell("B1")] == ("statue",) and b.items[parse_cell("B4")] == ("stairs",)
    assert sum(len(v) for v in b.items.values()) == 8
    assert b.start is None and b.flooded == frozenset() and b.turns is None and b.hero_extras


def test_load_through_source_without_a_file_still_locates_cells():
    text = TEST_HALL.read_text().replace("  D D O B B", "  D D O B ?")
    data = parse_yaml(text, "inline.yaml")
    from sheetgen.games.foury.formats.map import load
    with pytest.raises(InputError) as info:
        load(data, Source(Path("inline.yaml"), data))
    [msg] = [p.format() for p in info.value.problems]
    assert msg.startswith("inline.yaml:9:11: cells: row 3, column 5 (cell E3): unknown symbol '?'")


def test_extensions_items_lists_start_flooded_turns():
    text = TEST_HALL.read_text().replace("  B2: statue", "  B2: [statue, potion]") + (
        "campaign: kraken\nturns: 40\nflooded: [D2, E2]\nstart: B2\nhero_extras: false\n")
    text = text.replace("1: flood origin", "1: flood origin + find yellow potion").replace(
        "2: monster, 3", "2: monster troll, 3")
    p = Path(__file__).parent / "data" / "foury_maps" / "test-hall.yaml"
    data = parse_yaml(text, str(p))
    from sheetgen.games.foury.formats.map import load
    b = load(data, Source(p, data)).board
    assert b.items[parse_cell("B2")] == ("statue", "potion")
    assert (b.campaign, b.turns, b.start, b.hero_extras) == ("kraken", 40, parse_cell("B2"), False)
    assert b.flooded == {parse_cell("D2"), parse_cell("E2")}
    assert b.zones["D"].events[1][1] == Event("find", item="yellow potion")
    assert b.zones["D"].events[2] == (Event("monster", enemy="troll"),)


def test_unknown_symbol_exact_line_and_column():
    line = _line_of("bad-symbol.yaml", "  D D O ? B")
    assert _errors("bad-symbol.yaml") == [
        f"{DATA / 'bad-symbol.yaml'}:{line}:9: cells: row 3, column 4 (cell D3): unknown symbol '?' "
        "(expected a zone letter (A, B, C, D), O for the centre room or # for rock)"]


def test_zone_used_but_undefined_and_defined_but_unused():
    [err] = _errors("bad-zone-undefined.yaml")
    assert f":{_line_of('bad-zone-undefined.yaml', '  D C E C B')}:7: cells: row 4, column 3 (cell C4)" in err
    assert "zone E is used in cells but not defined" in err
    [err] = _errors("bad-zone-unused.yaml")
    assert f":{_line_of('bad-zone-unused.yaml', '=  D:')}:3: zones.D: zone 'D' is defined but no cell uses it" in err


def test_wrong_rows_columns_and_grid():
    [err] = _errors("bad-rows.yaml")
    assert f":{_line_of('bad-rows.yaml', 'cells: |')}:" in err and "cells has 4 rows but grid 5x5 needs 5" in err
    [err] = _errors("bad-columns.yaml")
    assert f":{_line_of('bad-columns.yaml', '  D D O B')}:3: cells: row 3 has 4 cells but grid 5x5 needs 5" in err
    [err] = _errors("bad-grid.yaml")
    assert f":{_line_of('bad-grid.yaml', 'grid:')}:7: grid: '5 by 5' is not a grid size" in err


def test_cells_off_the_grid():
    errs = _errors("bad-off-grid.yaml")
    line_entries = _line_of("bad-off-grid.yaml", "entries:")
    assert any(f":{line_entries}:23: entries[2]: entry C6 is off the grid" in e for e in errs)
    assert any(f":{_line_of('bad-off-grid.yaml', 'walls:')}:15: walls[1]: wall E7 is off the grid" in e for e in errs)
    assert any(f":{_line_of('bad-off-grid.yaml', 'F1:')}:7: items.F1: item cell F1 is off the grid" in e
               for e in errs)
    assert len(errs) == 3


def test_zone_without_six_events_and_bad_event():
    [err] = _errors("bad-six-events.yaml")
    assert f":{_line_of('bad-six-events.yaml', '    events: {1: monster, 2: collapse left right')}:13: " \
           "zones.A.events: zone A needs exactly six events numbered 1-6 (missing 6)" in err
    [err] = _errors("bad-event.yaml")
    assert "zones.A.events[5]: unknown event 'colapse front'" in err and "did you mean 'collapse front'" in err


def test_entries_on_border_facing_out_not_on_rock():
    errs = _errors("bad-entry.yaml")
    line = _line_of("bad-entry.yaml", "entries:")
    assert errs[0].endswith(f":{line}:11: entries[0]: entry C2:N is not on the border of the map "
                            "(expected a cell in the first or last row or column)")
    assert errs[1].endswith(f":{line}:17: entries[1]: entry E3:N: side N does not face off the map (expected E3:E)")
    [err] = _errors("bad-entry-rock.yaml")
    assert "entries[3]: entry A2:W is on rock (#)" in err


def test_unknown_items_with_did_you_mean():
    errs = _errors("bad-item.yaml")
    assert any("items.B1: unknown item 'statu'; did you mean 'statue'?" in e for e in errs)
    assert any(f":{_line_of('bad-item.yaml', 'B4:')}:16: items.B4[1]: unknown item 'potoin'; did you mean 'potion'?"
               in e for e in errs)


def test_walls_duplicate_and_on_the_edge():
    errs = _errors("bad-walls.yaml")
    assert any("walls[1]: wall C3:W is the same wall as walls[0] (B3:E)" in e for e in errs)
    assert any("walls[2]: wall A1:N is on the map edge" in e for e in errs)


def test_requirements_positive_and_known():
    errs = _errors("bad-requirement.yaml")
    assert any("zones.A.requirement.statues: Input should be greater than 0" in e for e in errs)
    assert any("zones.B.requirement: unknown key 'kils'" in e and "did you mean 'kills'" in e for e in errs)


def test_two_requirement_kinds_in_one_zone_is_an_error(tmp_path):
    p = tmp_path / "two.yaml"
    p.write_text(TEST_HALL.read_text().replace("{statues: 3}", "{statues: 3, kills: 1}"))
    with pytest.raises(InputError, match=r"zones\.A\.requirement: a requirement names exactly one kind"):
        load_map(p)


def test_load_map_by_builtin_name_and_relative_path(tmp_path):
    assert load_map("test-hall.yaml", relative_to=DATA).title == "Test Hall"
    assert load_map("ancient-story").board.campaign == "ancient"
    with pytest.raises(InputError, match="no built-in definition named 'ancient-storey'"):
        load_map("ancient-storey")


def test_every_format_error_of_a_map_in_one_run_each_located():
    # bad-many.yaml: a bad grid, a key typo, an unknown event, a wall without a side, a die table with five
    # faces and an unknown effect, an unknown item, an item that is a number, an unknown top-level key
    errs = _errors("bad-many.yaml")
    line = lambda needle: _line_of("bad-many.yaml", needle)        # noqa: E731
    expected = [
        f":{line('grid: 5x ')}:7: grid: '5x' is not a grid size",
        f":{line('6: extra stp}')}:128: zones.A.events[6]: unknown event 'extra stp' (monster [ENEMY], collapse "
        "SIDES, collapse origin, flood origin, chest, extra step, find ITEM; join with +); did you mean 'extra step'?",
        f":{line('kils')}:19: zones.B.requirement: unknown key 'kils' (expected one of statues, kills, levers, "
        "cornucopias); did you mean 'kills'?",
        f":{line('walls:')}:15: walls[1]: 'B3' is not CELL:SIDE like B3:E",
        f":{line('die_table:')}:12: die_table: a die table has six faces numbered 1-6 (missing 6)",
        f":{line('die_table:')}:52: die_table[4]: unknown die-table effect 'win'",
        f":{line('B1: statu')}:7: items.B1: unknown item 'statu'; did you mean 'statue'?",
        f":{line('A5: 7')}:7: items.A5: input should be a valid string or a valid list, got 7",
        f":{line('colour: red')}:1: unknown key 'colour'",
    ]
    assert len(errs) == len(expected), "\n".join(errs)
    for want, got in zip(expected, errs):          # in the file's order
        assert want in got, (want, got)
    # what pydantic refused is not said twice by the board builder (the requirement without its
    # kind, the item cell given a number)
    assert not any("requirement names exactly one kind" in e or "unknown item '7'" in e for e in errs)


def test_without_a_usable_grid_the_names_are_still_checked(tmp_path):
    text = TEST_HALL.read_text().replace("grid: 5x5 ", "grid: 5 by 5 ").replace("walls: [B3:E]", "walls: [B3:E, B3:Q]")
    path = tmp_path / "no-grid.yaml"
    path.write_text(text.replace("  B1: statue", "  B1: [statue, potoin]"))
    errs = [p.format() for p in pytest.raises(InputError, load_map, path).value.problems]
    assert [e.split(": ", 2)[1] for e in errs] == ["grid", "walls[1]", "items.B1[1]"], errs
    assert not any("border" in e or "edge" in e for e in errs)     # no geometry without a grid

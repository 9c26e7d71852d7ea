"""A map's own die table (`die_table:`): loaded and linted, applied by the checker, rolled by the
simulator and printed by the sheet; without one, ours (tables.DIE_TABLE) everywhere."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.errors import InputError
from sheetgen.games.foury import tables
from sheetgen.games.foury.formats.map import load_map

DATA = Path(__file__).parent / "data" / "foury_maps"
DIE_MAP = DATA / "die-table.yaml"


def _run(*args):
    result = CliRunner().invoke(main, [*map(str, args)])
    return result.exit_code, result.output


def test_the_map_table_replaces_ours_face_by_face():
    board = load_map(DIE_MAP).board
    assert {f: (face.text, face.monster, face.gain) for f, face in board.die_table.items()} == {
        1: ("lose 2 life points", False, (("hearts", -2),)),
        2: ("gain 2 shovels", False, (("shovels", 2),)),
        3: ("gain 1 cornucopia, lose 1 shield", False, (("cornucopias", 1), ("shields", -1))),
        4: ("nothing happens", False, ()),
        5: ("a monster appears: fight it", True, ()),
        6: ("gain 3 chests", False, (("chests", 3),)),
    }
    assert load_map(DATA / "test-hall.yaml").board.die_table is tables.DIE_TABLE


def test_ours_is_written_in_the_same_words_a_map_uses():
    assert tables.DIE_TABLE == tables.die_table(tables.DIE_TABLE_EFFECTS)
    assert [f.text for f in tables.DIE_TABLE.values()] == [
        "a monster appears: fight it", "lose 1 life point", "gain 1 shovel", "gain 1 four-leaf clover",
        "gain 1 shield", "gain 1 chest"]


def test_the_checker_follows_the_map_table_legal_and_illegal_side_by_side():
    code, out = _run("check", DATA / "logs" / "legal-die-table.yaml")
    assert code == 0, out
    code, out = _run("check", DATA / "logs" / "illegal-die-table.yaml")
    assert code == 1
    assert "illegal-die-table.yaml:14: step 4: sheet shows hearts 3 but the rules give 4" in out
    assert "illegal-die-table.yaml:14: step 4: sheet shows shovels 2 but the rules give 4" in out


def test_the_sheet_prints_the_map_table():
    from sheetgen.draw.model import Text, walk
    from sheetgen.draw.options import BuildOptions
    from sheetgen.games.foury.sheets.map import compose_map

    def texts(fmap):
        doc = compose_map(fmap, BuildOptions())
        return {item.text for item, _ in walk(doc.pages[0].items) if isinstance(item, Text)}
    # ancient-story prints a die and keeps our table; test-hall has no die, so no table at all
    ancient = Path(__file__).parent.parent / "layouts" / "foury" / "ancient-story.yaml"
    ours, theirs, none = texts(load_map(ancient)), texts(load_map(DIE_MAP)), texts(load_map(DATA / "test-hall.yaml"))
    assert {"gain 2 shovels", "gain 1 cornucopia, lose 1 shield", "nothing happens", "gain 3 chests"} <= theirs
    assert "gain 1 four-leaf clover" in ours and "gain 1 four-leaf clover" not in theirs
    assert "DIE TABLE" in ours and "DIE TABLE" not in none


def test_the_simulator_rolls_the_map_table(tmp_path):
    from sheetgen.games.foury.sim import api, policies
    board = load_map(DIE_MAP).board
    assert [policies.die_item(board, roll).gain for roll in (2, 6)] == [(("shovels", 2),), (("chests", 3),)]
    # the greedy policy takes the die: a table of chests leaves more chests than one of lost hearts
    text = DIE_MAP.read_text()
    rich, poor = tmp_path / "rich.yaml", tmp_path / "poor.yaml"
    faces = "".join(f"  {f}: {{}}\n" for f in range(1, 7))
    start = text.index("die_table:")
    end = text.index("items:")
    rich.write_text(text[:start] + "die_table:\n" + faces.replace("{}", "gain 3 chests") + text[end:])
    poor.write_text(text[:start] + "die_table:\n" + faces.replace("{}", "lose 1 shield") + text[end:])
    got = {}
    for path in (rich, poor):
        rep, _ = api.run_one(str(path), 60, policy="greedy", seed=3)
        got[path.stem] = rep["resources_at_end"]
    assert got["rich"]["chests"] + got["rich"]["hearts"] > got["poor"]["chests"] + got["poor"]["hearts"]
    assert got["rich"]["shields"] > got["poor"]["shields"]


@pytest.mark.parametrize("table, message", [
    ("{1: monster, 2: nothing, 3: nothing, 4: nothing, 5: nothing}", "die_table: a die table has six faces numbered "
                                                                     "1-6 (missing 6)"),
    ("{1: monster, 2: nothing, 3: nothing, 4: nothing, 5: nothing, 6: nothing, 7: nothing}",
     "a die table has six faces numbered 1-6 (not a die face: 7)"),
    ("{1: monster, 2: nothing, 3: win gold, 4: nothing, 5: nothing, 6: nothing}",
     "die_table[3]: unknown die-table effect 'win gold'"),
    ("{1: monster + gain 1 chest, 2: nothing, 3: nothing, 4: nothing, 5: nothing, 6: nothing}",
     "die_table[1]: 'monster + gain 1 chest': a monster is a face of its own"),
    ("{1: gain 2 gold, 2: nothing, 3: nothing, 4: nothing, 5: nothing, 6: nothing}",
     "die_table[1]: 'gain 2 gold': gain takes a count and a resource (hearts, shields, weapon, clovers, shovels, "
     "chests, cornucopias)"),
])
def test_a_wrong_die_table_is_a_located_format_error(tmp_path, table, message):
    text = DIE_MAP.read_text()
    start, end = text.index("die_table:"), text.index("items:")
    path = tmp_path / "bad-die.yaml"
    path.write_text(text[:start] + f"die_table: {table}\n" + text[end:])
    with pytest.raises(InputError) as info:
        load_map(path)
    line = text[:start].count("\n") + 1                # the die_table line: each problem is located there
    formatted = [p.format() for p in info.value.problems]
    assert any(message in p and f"bad-die.yaml:{line}:" in p for p in formatted), formatted


def test_a_die_table_without_a_die_on_the_map_is_a_warning(tmp_path):
    path = tmp_path / "no-die.yaml"
    path.write_text(DIE_MAP.read_text().replace("  C2: die\n", ""))
    code, out = _run("validate", path)
    assert code == 0, out
    assert "warning:" in out and "die_table: the map prints no die item: its die table is never rolled" in out
    assert "never rolled" not in _run("validate", DIE_MAP)[1]

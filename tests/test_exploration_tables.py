"""d66 / entrance / contents tables: the built-ins are valid; every table error is located
at FILE:LINE:COLUMN (inside the ASCII picture where it can be); generated tables are valid."""
import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.exploration.formats import builtin_tables, table_yaml
from sheetgen.definitions.registry import load_file
from sheetgen.errors import InputError
from sheetgen.paths import layouts_dir
from sheetgen.games.dice import D66_VALUES
from sheetgen.games.exploration import shapes as sh
from sheetgen.games.exploration.generate import generate_d66

D66 = layouts_dir() / "exploration" / "exploration-d66.yaml"
CONTENTS = layouts_dir() / "exploration" / "exploration-contents.yaml"


def problems_of(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_file(path)
    return path, err.value.problems


def where(text, needle, after=None):
    """1-based (line, column) of needle in text (at or after the first line that differs from `after`)."""
    lines = text.split("\n")
    start = 0
    if after is not None:
        old = after.split("\n")
        start = next(i for i, (a, b) in enumerate(zip(lines, old)) if a != b)
    hits = [(i + 1, line.index(needle) + 1) for i, line in enumerate(lines) if needle in line and i >= start]
    return hits[0]


def test_builtin_tables_load_and_cover_the_categories():
    rooms, entrances, contents = builtin_tables()
    assert sorted(rooms.entries) == list(D66_VALUES)
    assert sorted(entrances.entries) == [1, 2, 3, 4, 5, 6]
    assert sorted(contents.rows) == list(range(2, 13))
    kinds = {e.kind for e in rooms.entries.values()}
    assert kinds == {"corridor", "room"}
    exits = {len(e.shape.exits) for e in rooms.entries.values()}
    assert exits == {1, 2, 3, 4}
    cats = {contents.results[r].category for row in contents.rows.values() for r in row}
    assert {"monsters", "traps", "treasure", "special", "empty", "events", "boss"} <= cats
    assert contents.result(11, "room").category == contents.result(11, "corridor").category == "boss"
    # corridors are often empty: the corridor column has more empties than the room column
    empties = [sum(contents.result(r, k).category == "empty" for r in range(2, 13)) for k in ("corridor", "room")]
    assert empties[0] > empties[1]
    for entry in list(rooms.entries.values()) + list(entrances.entries.values()):
        assert sh.kind_of(entry.shape.cells) == entry.kind
        assert not sh.shape_problems(entry.shape, entry.kind)


def test_validate_command_accepts_the_builtins():
    result = CliRunner().invoke(main, ["validate", "exploration-d66", "exploration-entrance", "exploration-contents",
                                       "exploration-tables", "exploration-sheet-20x28"])
    assert result.exit_code == 0, result.output


def test_picture_parsing_and_drawing_round_trip():
    pic = sh.parse_picture("+##+\n..+.\n")
    assert not pic.problems
    assert pic.shape.cells == {(0, 0), (1, 0)}
    assert set(pic.shape.exits) == {(0, 0, "W"), (1, 0, "E"), (1, 0, "S")}
    again = sh.parse_picture(sh.draw_picture(pic.shape))
    assert again.shape == pic.shape
    sec = sh.parse_picture(".S\n.#\n+#")
    assert sec.shape.secret == {(0, 0, "N")}


def _replace(text, old, new):
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_missing_and_extra_keys_are_located(tmp_path):
    text = D66.read_text()
    text = _replace(text, "  35:\n", "  37:\n")          # 35 missing, 37 is no d66 result
    path, problems = problems_of(tmp_path, text)
    msgs = {p.message: p for p in problems}
    extra = next(p for p in problems if "'37' is not a d66 result" in p.message)
    assert (extra.line, extra.column) == where(text, "37:")
    assert "never 0, never 7+" in extra.message
    missing = next(p for p in problems if "missing d66 entry 35" in p.message)
    assert missing.line == where(text, "entries:")[0]
    assert len(msgs) == 2


@pytest.mark.parametrize("key", ["0", "10", "70", "67"])
def test_keys_with_0_or_7_are_rejected(tmp_path, key):
    text = D66.read_text() + f"  {key}:\n    kind: room\n    shape: |\n      +##\n      .##\n"
    _, problems = problems_of(tmp_path, text)
    assert any(f"'{key}' is not a d66 result" in p.message and p.line == where(text, f"  {key}:")[0]
               for p in problems), problems


@pytest.mark.parametrize("old,new,needle,fragment", [
    # disconnected: the stray square is pointed at
    ("      +##+\n      ..+.\n", "      +##.#+\n      ....\n", ".#+", "not connected"),
    # an exit that touches no floor square
    ("Passage\n    kind: corridor\n    shape: |\n      +###+\n", "Passage\n    kind: corridor\n    shape: |\n      +###.+\n",
     ".+", "not on the outline"),
    # an exit touching two floor squares
    ("      +##.\n      ..#.\n      ..#+\n", "      +##.\n      .+#.\n      ..#+\n", ".+#", "more than one floor"),
    # unknown character
    ("Dead-end passage\n    kind: corridor\n    shape: |\n      +####\n",
     "Dead-end passage\n    kind: corridor\n    shape: |\n      +##x#\n", "x", "unknown character"),
    # a corridor two squares wide: the 2x2 block is pointed at
    ("Blind alley\n    kind: corridor\n    shape: |\n      +##\n",
     "Blind alley\n    kind: corridor\n    shape: |\n      +##+\n      .##.\n", "##+", "declared a corridor"),
    # too large: 9 squares long
    ("      +########+\n", "      +#########+\n", "#########", "fit within 8x8"),
])
def test_shape_errors_point_into_the_picture(tmp_path, old, new, needle, fragment):
    original = D66.read_text()
    text = _replace(original, old, new)
    path, problems = problems_of(tmp_path, text)
    p = next((p for p in problems if fragment in p.message), None)
    assert p is not None, problems
    assert p.file == str(path)
    line, col = where(text, needle, after=original)
    assert p.line == line
    assert col <= p.column <= col + len(needle)
    assert f"{path}:{p.line}:{p.column}:" in p.format()


def test_room_declared_but_one_wide_is_located_at_kind(tmp_path):
    text = _replace(D66.read_text(), "    name: Closet\n    kind: room\n    shape: |\n      +..\n      ##+\n      ##.\n",
                    "    name: Closet\n    kind: room\n    shape: |\n      +..\n      #.+\n      ##.\n")
    _, problems = problems_of(tmp_path, text)
    p = next(p for p in problems if "declared a room" in p.message)
    closet = where(text, "name: Closet")[0]
    assert p.line == closet + 1


def test_picture_as_a_list_of_strings_is_located_too(tmp_path):
    text = _replace(D66.read_text(), "    shape: |\n      +##\n", '    shape: ["+#x"]\n')
    _, problems = problems_of(tmp_path, text)
    p = next(p for p in problems if "unknown character" in p.message)
    assert (p.line, p.column) == where(text, 'x"]')


def test_contents_table_errors(tmp_path):
    original = text = CONTENTS.read_text()
    text = _replace(text, "  9:  {corridor: coins, room: brutes}", "  9:  {corridor: coin, room: brutes}")
    text = _replace(text, "  11: {corridor: boss, room: boss}", "  11: {corridor: boss, room: chest}")
    text = _replace(text, "  12: {corridor: draught, room: rumble}\n", "  13: {corridor: draught, room: rumble}\n")
    _, problems = problems_of(tmp_path, text)
    unknown = next(p for p in problems if "unknown result 'coin'" in p.message)
    assert unknown.suggestion == "coins" and unknown.line == where(text, "corridor: coin,")[0]
    boss = next(p for p in problems if "11 is the boss" in p.message)
    assert boss.line == where(text, "room: chest", after=original)[0]
    assert any("'13' is not a 2d6 result" in p.message and p.line == where(text, "  13:")[0] for p in problems)
    assert any("missing row 12" in p.message for p in problems)


def test_generated_tables_are_valid_for_200_seeds():
    for seed in range(200):
        table = generate_d66(seed)
        assert sorted(table) == list(D66_VALUES)
        for key, (kind, name, shape) in table.items():
            assert not sh.shape_problems(shape, kind), (seed, key)
            assert sh.kind_of(shape.cells) == kind
            again = sh.parse_picture(sh.draw_picture(shape))
            assert not again.problems and again.shape == shape, (seed, key)
        kinds = [k for k, _, _ in table.values()]
        assert kinds.count("corridor") >= 6 and kinds.count("room") >= 6
        assert {len(s.exits) for _, _, s in table.values()} >= {1, 2, 3, 4}
        sizes = [len(s.cells) for _, _, s in table.values()]
        assert min(sizes) <= 6 and max(sizes) >= 16      # small and large rooms


def test_generated_table_yaml_loads_and_is_reproducible(tmp_path):
    runner = CliRunner()
    for seed in (1, 77):
        out = tmp_path / f"t{seed}.yaml"
        first = runner.invoke(main, ["table", "d66", "--seed", str(seed), "-o", str(out)])
        assert first.exit_code == 0, first.output
        second = runner.invoke(main, ["table", "d66", "--seed", str(seed)])
        assert second.output == out.read_text()
        loaded = load_file(out)
        assert sorted(loaded.definition.rooms.entries) == list(D66_VALUES)
        assert runner.invoke(main, ["validate", str(out)]).exit_code == 0
    assert runner.invoke(main, ["table", "d66", "--seed", "2"]).output != runner.invoke(
        main, ["table", "d66", "--seed", "3"]).output


def test_table_yaml_writer_round_trips(tmp_path):
    rooms, _, _ = builtin_tables()
    text = table_yaml({k: (e.kind, e.name, e.shape) for k, e in rooms.entries.items()}, "copy")
    path = tmp_path / "copy.yaml"
    path.write_text(text)
    copy = load_file(path).definition.rooms
    assert all(copy.entries[k].shape == rooms.entries[k].shape for k in D66_VALUES)

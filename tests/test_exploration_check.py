"""`sheetgen check` on exploration logs: legal logs pass; each hand-made illegal log is
caught by the right rule at the line marked `# <- rule` in the file; unreadable logs exit 2."""
import difflib
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.exploration.formats import builtin_tables
from sheetgen.definitions.registry import load_file
from sheetgen.games.exploration.formats.playlog import dump_log
from sheetgen.games.exploration.mapmode import explore

DATA = Path(__file__).parent / "data" / "exploration"
ILLEGAL = sorted((DATA / "illegal").glob("*.yaml"))


def violations(path):
    loaded = load_file(path)
    return loaded.handler.check(loaded.definition).violations


def marked(path):
    """(line, rule) of every '# <- rule' marker in a data file."""
    out = []
    for i, line in enumerate(path.read_text().split("\n"), 1):
        if "# <- " in line:
            out.append((i, line.split("# <- ")[1].strip()))
    return out


@pytest.mark.parametrize("name", ["legal-example.yaml", "legal-extensions.yaml", "issue-example.yaml"])
def test_legal_logs_pass(name):
    assert violations(DATA / name) == []
    result = CliRunner().invoke(main, ["check", str(DATA / name)])
    assert result.exit_code == 0 and "legal" in result.output


def test_every_illegal_case_is_a_small_change_of_the_legal_log():
    legal = (DATA / "legal-example.yaml").read_text().split("\n")
    assert len(ILLEGAL) >= 15
    for path in ILLEGAL:
        lines = [line.split("  # <- ")[0] for line in path.read_text().split("\n")]
        changed = sum(1 for d in difflib.ndiff(legal, lines) if d[:2] in ("+ ", "- "))
        assert 1 <= changed <= 12, path.name


@pytest.mark.parametrize("path", ILLEGAL, ids=[p.stem for p in ILLEGAL])
def test_illegal_log_is_caught_at_the_marked_line(path):
    found = violations(path)
    assert found, path.name
    for line, rule in marked(path):
        assert any(v.line == line and v.rule == rule for v in found), \
            f"{path.name}: expected {rule} at line {line}, got {[(v.line, v.rule, v.message) for v in found]}"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    line, _ = marked(path)[0]
    assert f"{path}:{line}: " in result.output


@pytest.mark.parametrize("name,fragment", [
    ("unreadable-yaml.yaml", "malformed YAML"),
    ("unreadable-typo.yaml", "did you mean 'cells'"),
    ("unreadable-missing-cells.yaml", "missing required key 'cells'"),
])
def test_unreadable_logs_exit_2(name, fragment):
    result = CliRunner().invoke(main, ["check", str(DATA / name)])
    assert result.exit_code == 2 and fragment in result.output and "Traceback" not in result.output


def test_unknown_table_is_unreadable(tmp_path):
    text = (DATA / "legal-example.yaml").read_text().replace("table: builtin", "table: nowhere.yaml")
    path = tmp_path / "log.yaml"
    path.write_text(text)
    assert CliRunner().invoke(main, ["check", str(path)]).exit_code == 2


def test_log_with_its_own_table_file(tmp_path):
    runner = CliRunner()
    table = tmp_path / "tables" / "mine.yaml"
    table.parent.mkdir()
    assert runner.invoke(main, ["table", "d66", "--seed", "4", "-o", str(table)]).exit_code == 0
    out = tmp_path / "maps"
    assert runner.invoke(main, ["explore", "--seed", "8", "--table", str(table), "-o", str(out),
                                "--format", "none"]).exit_code == 0
    log = out / "explore-8.yaml"
    assert "table: \"../tables/mine.yaml\"" in log.read_text()
    assert runner.invoke(main, ["check", str(log)]).exit_code == 0
    # the same log read against the built-in table no longer matches its shapes
    text = log.read_text().replace('table: "../tables/mine.yaml"', "table: builtin")
    (out / "builtin.yaml").write_text(text)
    assert runner.invoke(main, ["check", str(out / "builtin.yaml")]).exit_code == 1


def test_written_logs_round_trip_through_yaml(tmp_path):
    rooms, entrances, contents = builtin_tables()
    for seed in range(12):
        ex = explore(rooms, entrances, contents, seed=seed, policy=("first", "random", "deepest")[seed % 3])
        path = tmp_path / f"log{seed}.yaml"
        path.write_text(dump_log(ex, seed=seed))
        assert violations(path) == [], seed


def test_moving_one_square_of_a_generated_map_is_caught(tmp_path):
    rooms, entrances, contents = builtin_tables()
    ex = explore(rooms, entrances, contents, seed=21)
    text = dump_log(ex, seed=21)
    lines = text.split("\n")
    # room 2's cells: shift its first square one column right, onto whatever is there
    i = next(k for k, line in enumerate(lines) if line.startswith("    cells:") and k > lines.index("  - id: 2"))
    first = lines[i].split('"')[1]
    x, y = map(int, first.split(","))
    lines[i] = lines[i].replace(f'"{first}"', f'"{x},{y + 40}"', 1)
    path = tmp_path / "moved.yaml"
    path.write_text("\n".join(lines))
    found = violations(path)
    assert any(v.rule == "cell.on-sheet" and v.line == i + 1 for v in found)

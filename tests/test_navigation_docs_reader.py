"""Play logs written from the documentation alone (docs/formats-cards.md, the rules text),
replayed through `sheetgen check`: a legal log exits 0; an illegal one exits 1 with a
violation on exactly the lines marked `# <- RULE`, each with that rule id."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main

DATA = Path(__file__).parent / "data"
MARK = re.compile(r"#\s*<-\s*([a-z]+\.[a-z-]+)")


def docs_reader_logs(ruleset: str) -> list[Path]:
    return sorted((DATA / ruleset / "docs_reader").glob("*.yaml"))


def marked_lines(path: Path) -> dict[int, str]:
    """{line: rule} for every line carrying '# <- RULE'."""
    return {n: m.group(1) for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if (m := MARK.search(text))}


def check_as_marked(path: Path) -> None:
    result = CliRunner().invoke(main, ["check", "--format", "json", str(path)])
    marks = marked_lines(path)
    legal = path.stem.endswith("-legal")
    assert legal != bool(marks), f"{path.name}: a -legal log has no marks, an -illegal one has some"
    assert result.exit_code == (0 if legal else 1), result.output
    found = {(v["line"], v["rule"]) for v in json.loads(result.output)["violations"]}
    assert found == set(marks.items()), f"{path.name}: reported {sorted(found)}, marked {sorted(marks.items())}"


def test_there_are_enough_logs_on_both_sides():
    logs = docs_reader_logs("navigation")
    legal = [p for p in logs if p.stem.endswith("-legal")]
    assert len(legal) >= 10 and len(logs) - len(legal) >= 10


@pytest.mark.parametrize("path", docs_reader_logs("navigation"), ids=lambda p: p.stem)
def test_docs_reader_log(path):
    check_as_marked(path)


@pytest.mark.parametrize("action, says", [
    ("move east, move west", "expected a direction"),
    ("{warp: [west-gate, east-gate]}", "expected a room id"),
    ("fly north", "unknown action 'fly'"),
])
def test_an_unreadable_action_exits_2_at_its_line(tmp_path, action, says):
    log = tmp_path / "log.yaml"
    log.write_text("sheetgen: 1\nkind: playlog\nruleset: navigation\ndungeon: nav-crypt\nplayers: [Ada]\n"
                   f"turns:\n  - player: Ada\n    actions:\n      - move north\n      - {action}\n")
    result = CliRunner().invoke(main, ["check", str(log)])
    assert result.exit_code == 2 and "log.yaml:10:" in result.output and says in result.output, result.output

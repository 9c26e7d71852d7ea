"""What the card-game tests share: reading a log's expectation and replaying it through
`sheetgen check` (navigation and Shuffle Dungeons use the same marking convention).

A log's first line is `# expect: legal` or `# expect: RULE`; an illegal log marks the
line that must be reported with `# <-`."""
import json
import re
from pathlib import Path

from click.testing import CliRunner

from sheetgen.cli import main


def expectation(path: Path) -> tuple[str, list[int]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    expect = lines[0].removeprefix("# expect: ").strip()
    marked = [i + 1 for i, line in enumerate(lines) if re.search(r"#\s*<-", line)]
    return expect, marked


def check_json(path: Path):
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    return result, json.loads(result.output)


def assert_case(path: Path) -> None:
    """A rule case: legal exits 0; illegal exits 1 with its rule, at the marked line if any."""
    expect, marked = expectation(path)
    result, report = check_json(path)
    if expect == "legal":
        assert result.exit_code == 0, report["violations"]
        assert report["legal"] is True
    else:
        assert result.exit_code == 1, result.output
        rules = [(v["rule"], v["line"]) for v in report["violations"]]
        assert any(rule == expect for rule, _ in rules), rules
        if marked:
            assert (expect, marked[0]) in rules, rules


def assert_audit_log(path: Path) -> None:
    """An audit log: legal exits 0; illegal exits 1 with exactly its rule at its one marked line."""
    expect, marked = expectation(path)
    result, report = check_json(path)
    found = [(v["rule"], v["line"]) for v in report["violations"]]
    if expect == "legal":
        assert result.exit_code == 0, found
    else:
        assert result.exit_code == 1, result.output
        assert len(marked) == 1, "an illegal audit log marks exactly one line"
        assert found == [(expect, marked[0])], found

"""What the card-game tests share: reading a log's expectation and replaying it through
`sheetgen check` (navigation and Shuffle Dungeons use the same marking convention);
the round trips of a game's notation.

A log's first line is `# expect: legal` or `# expect: RULE`; an illegal log marks the
line that must be reported with `# <-`."""
import json
import re
from pathlib import Path

import pytest
import yaml
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


def assert_round_trip(notation, action) -> None:
    """parse(serialize(a)) == a, also through YAML as a tracker export writes it, and with a note."""
    entry = notation.serialize(action)
    assert notation.parse(entry) == action, entry
    assert notation.parse(yaml.safe_load(yaml.safe_dump(entry, sort_keys=False))) == action, entry
    noted = notation.serialize(action, "a remark: #1")
    assert notation.parse(noted) == action and notation.note_of(noted) == "a remark: #1", noted


def assert_journal_round_trip(notation, action) -> None:
    """A tracker journal step (an action or a turn marker) reads back as itself."""
    assert notation.parse_step(notation.serialize_step(action)) == action


def assert_turn_start_is_no_log_action(notation, begin) -> None:
    """A log's turns are its turn entries: a turn marker is a journal step, never a log action."""
    with pytest.raises(ValueError, match="turn entry"):
        notation.serialize(begin)
    with pytest.raises(ValueError, match="exactly one verb"):
        notation.parse(notation.serialize_step(begin))


def documented_forms(docs: Path, header: str, columns: tuple[int, ...]) -> list[str]:
    """The backticked forms in the given columns (1-based) of the markdown table under header."""
    text = docs.read_text(encoding="utf-8")
    table = text[text.index(header):]
    table = table[:table.index("\n\n")]
    forms = []
    for row in table.splitlines()[2:]:
        cells = row.split("|")
        for c in columns:
            forms += re.findall(r"`([^`]+)`", cells[c])
    return forms

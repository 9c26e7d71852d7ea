"""Shuffle Dungeons play logs written from the documentation alone, replayed through
`sheetgen check` (see test_navigation_docs_reader for the marking convention)."""
import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from test_navigation_docs_reader import check_as_marked, docs_reader_logs


def test_there_are_enough_logs_on_both_sides():
    logs = docs_reader_logs("shuffle")
    legal = [p for p in logs if p.stem.endswith("-legal")]
    assert len(legal) >= 10 and len(logs) - len(legal) >= 10


@pytest.mark.parametrize("path", docs_reader_logs("shuffle"), ids=lambda p: p.stem)
def test_docs_reader_log(path):
    check_as_marked(path)


@pytest.mark.parametrize("action, says", [
    ("fight goblin", "writes down the dice rolled"),
    ("build bend", "give the open path"),
    ("build bend north 90 extra", "too many words"),
    ("twist bend", "give the new rotation"),
])
def test_an_unreadable_action_exits_2_at_its_line(tmp_path, action, says):
    log = tmp_path / "log.yaml"
    log.write_text("sheetgen: 1\nkind: playlog\nruleset: shuffle\ndeck: shuffle-core\nsetup:\n"
                   "  start: {room: gate-hall, at: [0, 0]}\n  heroes: [{name: Ada, hero: knight, hand: [bend]}]\n"
                   f"turns:\n  - hero: Ada\n    actions:\n      - {action}\n")
    result = CliRunner().invoke(main, ["check", str(log)])
    assert result.exit_code == 2 and "log.yaml:11:" in result.output and says in result.output, result.output

"""Dungeon Exploration rules fidelity (issue "Rules fidelity"): retracing is the path between
the two rooms, a door off the paper edge is a dead end, a secret door is used only after a
search revealed it, searching is once per room and only in an empty one, `end:` reasons are
the documented ones, an explored door needs no `to:` where the map shows the room beyond, map
mode rolls no contents for the entrance, and one slip reads as one violation, `LOG:LINE: step
N: ...`.  Logs side by side in tests/data/exploration/fidelity/ (see fidelity_helpers)."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fidelity_helpers import judgement, marks
from sheetgen.cli import main
from sheetgen.games.exploration import notation
from sheetgen.games.exploration.actions import Search
from sheetgen.games.exploration.formats import builtin_tables
from sheetgen.games.exploration.mapmode import actions_of, explore
from sheetgen.games.exploration.formats.playlog import dump_log
from sheetgen.games.exploration.rules import END_REASONS, check, norm_reason

HERE = Path(__file__).parent / "data" / "exploration" / "fidelity"





def test_an_unknown_end_reason_is_an_error_naming_the_allowed_ones():
    path = HERE / "unreadable-end-reason.yaml"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{path}:41:15: end.reason: 'got bored' is not a reason the dungeon ends" in result.output
    assert "final-boss, map-full, retreat, dead, rooms, stopped" in result.output


@pytest.mark.parametrize("written, reason", [
    ("final boss", "final-boss"), ("no-doors", "map-full"), ("out of room", "map-full"), ("Retreat", "retreat"),
    ("party died", "dead"), ("dead", "dead"), ("rooms", "rooms"), ("stopped", "stopped"), ("fled", "fled"),
])
def test_end_reasons_and_their_words(written, reason):
    assert norm_reason(written) == reason
    assert (reason in END_REASONS) == (written != "fled")


def test_violations_read_log_line_step_n():
    path = HERE / "illegal-retrace-too-few.yaml"
    result = CliRunner().invoke(main, ["check", str(path)])
    line = next(iter(marks(path, "VIOLATION")))[0]
    assert result.output.startswith(f"{path}:{line}: step 9: room 9 was opened from a door of room 4")
    report = json.loads(CliRunner().invoke(main, ["check", str(path), "--format", "json"]).output)
    assert [(v["line"], v["step"], v["rule"]) for v in report["violations"]] == [(line, 9, "retrace.path")]


def test_the_retired_reading_is_judged_without_it(tmp_path):
    text = (HERE / "legal-core-format-only.yaml").read_text()
    p = tmp_path / "declared.yaml"
    p.write_text(text.replace("table: builtin", "table: builtin\nreadings: [entrance-no-contents]"))
    verdict = judgement(p)
    assert verdict.legal and verdict.declared and verdict.reading_names() == []


@pytest.mark.parametrize("written, meant", [
    (True, Search(1)), (2, Search(2)), ({"found": ["4,22:W"]}, Search(1, ((4, 22, "W"),))),
    ([True, {"found": ["4,22:W"]}], Search(2, ((4, 22, "W"),))), (False, None),
])
def test_how_a_search_is_written(written, meant):
    assert notation.parse_search(written) == meant
    if meant is not None:
        assert notation.parse_search(notation.serialize_search(meant)) == meant


def test_map_mode_rolls_no_contents_for_the_entrance_and_its_logs_pass():
    rooms, entrances, contents = builtin_tables()
    searched = 0
    for seed in range(40):
        ex = explore(rooms, entrances, contents, seed=seed, policy=("first", "random", "deepest")[seed % 3])
        assert ex.rooms[0].contents_roll is None and all(r.contents_roll for r in ex.rooms[1:])
        text = dump_log(ex, seed=seed)
        entrance = text[text.index("  - id: 1\n"):text.index("  - id: 2\n")] if len(ex.rooms) > 1 else text
        assert "contents:" not in entrance
        searched += text.count("search: true")
        assert check(actions_of(ex), rooms, entrances, contents, ex.width, ex.height).violations == [], seed
    assert searched            # some of those games found a secret door by searching

"""The readings of the exploration rules are typed (ExplorationReading): each is a real
alternative (a log that follows it passes only under it), an unknown one is refused
(in code and as a located error in a log's readings: header), a declared one is honoured,
and `sheetgen check` says which reading it judged a log by.  Each case below is a small
change of tests/data/exploration/legal-example.yaml (or a map-mode log) that only one
reading accepts."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import find_game, load_file
from sheetgen.games.exploration.readings import ExplorationReading

DATA = Path(__file__).parent / "data" / "exploration"
LEGAL = (DATA / "legal-example.yaml").read_text()

# a truncated Hall, cut to one square wide by the paper edge, rolls 3 in the corridor column
# (empty; the room column would say pit): map mode's seed 12 on a 10x12 sheet
CUT_TO_A_CORRIDOR = """\
sheetgen: 1
kind: playlog
ruleset: exploration
sheet: 10x12
rooms:
  - id: 1
    roll: {entrance: 4}
    cells: ["5,11", "6,11", "5,12", "6,12"]
    doors: [{at: "5,11:N", state: explored, to: 2}]
    contents: {roll: 9, result: brutes}
  - id: 2
    roll: {d66: 56}
    transform: {rotate: 270, mirror: false, stretch: 0}
    cells: ["4,5", "5,5", "4,6", "5,6", "2,7", "3,7", "4,7", "5,7", "6,7", "7,7", "2,8", "3,8", "4,8", "5,8",
            "6,8", "7,8", "4,9", "5,9", "4,10", "5,10"]
    doors: [{at: "2,8:W", state: explored, to: 3}, {at: "7,7:E", state: unexplored}]
    contents: {roll: 5, result: vermin}
  - id: 3
    roll: {d66: 41}
    transform: {rotate: 90, mirror: false, stretch: 0}
    cells: ["1,8", "1,9", "1,10", "1,11"]
    truncated: true
    doors: []
    contents: {roll: 3, result: empty}
"""


def _edit(old: str, new: str, text: str = LEGAL) -> str:
    assert old in text
    return text.replace(old, new)


CASES = {
    # the plain d6 6+: the second boss's escalation without the table's +1
    "plain-escalation": _edit("escalation: {roll: 5, modifier: 1, total: 6, final: true}",
                              "escalation: {roll: 6, modifier: 0, total: 6, final: true}"),
    # room 4's passage stands north-south beside room 3: the door meets its middle square, and
    # both its exits are further doors
    "door-anywhere": _edit('cells: ["6,22", "7,22", "8,22"]\n    truncated: false\n    doors: [{at: "6,22:W", state: unexplored}]',
                           'cells: ["8,21", "8,22", "8,23"]\n    truncated: false\n'
                           '    doors: [{at: "8,21:N", state: unexplored}, {at: "8,23:S", state: unexplored}]',
                           _edit("transform: {rotate: 0, mirror: false, stretch: 0}\n    kind: corridor\n    cells: [\"6,22\"",
                                 "transform: {rotate: 90, mirror: false, stretch: 0}\n    kind: corridor\n    cells: [\"6,22\"")),
    # the square chamber stretched by 2 as one more row and one more column (4x4)
    "stretch-two-lines": _edit(
        '''    transform: {rotate: 0, mirror: false, stretch: 0}
    kind: room
    cells: ["9,21", "10,21", "11,21", "9,22", "10,22", "11,22", "9,23", "10,23", "11,23"]
    truncated: false
    doors:
      - {at: "10,21:N", state: unexplored}
      - {at: "9,22:W", state: explored, to: 4}
      - {at: "11,22:E", state: unexplored}''',
        '''    transform: {rotate: 0, mirror: false, stretch: 2}
    kind: room
    cells: ["9,20", "10,20", "11,20", "12,20", "9,21", "10,21", "11,21", "12,21", "9,22", "10,22", "11,22", "12,22",
            "9,23", "10,23", "11,23", "12,23"]
    truncated: false
    doors:
      - {at: "10,20:N", state: unexplored}
      - {at: "9,22:W", state: explored, to: 4}
      - {at: "12,21:E", state: unexplored}'''),
    "cut-kind": CUT_TO_A_CORRIDOR,
}


def _write(tmp_path, name: str, text: str, readings: str | None = None) -> Path:
    if readings is not None:
        text = text.replace("ruleset: exploration\n", f"ruleset: exploration\nreadings: {readings}\n", 1)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def _check(path, *extra):
    result = CliRunner().invoke(main, ["check", str(path), *extra])
    assert "Traceback" not in result.output
    return result


def test_the_game_declares_its_readings():
    assert find_game("exploration").reading_type() is ExplorationReading
    assert {r.value for r in ExplorationReading} == set(CASES)


def test_an_unknown_reading_is_refused():
    with pytest.raises(ValueError, match="did you mean 'plain-escalation'"):
        ExplorationReading.parse(["plain-escalaton"])
    assert ExplorationReading.parse(["cut-kind", ExplorationReading.DOOR_ANYWHERE]) == {
        ExplorationReading.CUT_KIND, ExplorationReading.DOOR_ANYWHERE}


@pytest.mark.parametrize("reading", sorted(CASES))
def test_each_reading_is_the_one_a_log_is_judged_by(tmp_path, reading):
    path = _write(tmp_path, reading, CASES[reading])
    result = _check(path, "--format", "json")
    report = json.loads(result.output)
    assert result.exit_code == 0 and report["legal"], report["violations"]
    assert report["readings"] == [reading] and report["readings_declared"] is False
    text = _check(path).output
    assert f"legal (exploration; readings: {reading})" in text
    # the same log declaring no reading breaks a rule: the reading is a real alternative
    plain = _write(tmp_path, reading + "-declared-none", CASES[reading], "[]")
    refused = _check(plain, "--format", "json")
    assert refused.exit_code == 1 and json.loads(refused.output)["readings_declared"] is True
    # declared, it is honoured
    declared = _write(tmp_path, reading + "-declared", CASES[reading], f"[{reading}]")
    honoured = json.loads(_check(declared, "--format", "json").output)
    assert honoured["legal"] and honoured["readings"] == [reading] and honoured["readings_declared"] is True


def test_the_legal_example_needs_no_reading():
    report = json.loads(_check(DATA / "legal-example.yaml", "--format", "json").output)
    assert report["legal"] and report["readings"] == []
    loaded = load_file(DATA / "legal-example.yaml")
    assert loaded.handler.check(loaded.definition).replays == 1


def test_an_unknown_reading_in_a_log_is_a_located_error(tmp_path):
    path = _write(tmp_path, "typo", LEGAL, "[plain-escalation, stretch-to-lines]")
    result = _check(path)
    assert result.exit_code == 2
    line = next(i for i, l in enumerate(path.read_text().split("\n"), 1) if l.startswith("readings:"))
    assert f"{path}:{line}:" in result.output
    assert "unknown reading 'stretch-to-lines'" in result.output and "did you mean 'stretch-two-lines'" in result.output


def test_an_illegal_log_is_replayed_only_under_the_readings_it_consulted():
    loaded = load_file(DATA / "illegal" / "overlap.yaml")
    judged = loaded.handler.check(loaded.definition)
    assert not judged.legal and judged.replays == 1 and not judged.readings

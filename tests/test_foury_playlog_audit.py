"""Hand-made Dungeon Foury play logs, written from the rules text and the issue's log format
(tests/data/foury_logs/audit/): legal ones must check clean; each illegal one marks with
`# VIOLATION` the line(s) that must be reported, and nothing else may be reported."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from foury_helpers import FOURY_LOGS, assert_checks_as_marked, assert_marked_set, check_json as _check
from sheetgen.cli import main

AUDIT = FOURY_LOGS / "audit"
LOGS = sorted(AUDIT.glob("*.yaml"))


def test_the_audit_set_has_legal_and_illegal_logs_side_by_side():
    names = [p.name for p in LOGS]
    assert sum(n.startswith("legal-") for n in names) >= 12
    assert sum(n.startswith("illegal-") for n in names) >= 25
    assert_marked_set(LOGS)


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_audit_log(path):
    assert_checks_as_marked(path, first_is_first_mark=True)


FORMS = """\
sheetgen: 1
kind: playlog
ruleset: foury
map: {hall}
hero:
  traits: {{hearts: 4, shields: 2, weapon: 2, clovers: 2, shovels: 2}}
rounds:
  - entry: C1:N
    steps:
      - {{move: C1, roll: 2}}
      - {{move: C2, roll: 4}}
      - {{move: D2, roll: 1}}
      - {{fight: {{hero: 1, weapon: 2, enemy: 4, name: orc, clover: {{die: player, roll: 3}}}}}}
      - {{collect: [chest]}}
      - {{move: D3, roll: 6}}
      - {{move: C3}}
      - {{move: D3}}
      - {{move: E3, roll: 4}}
      - {{exit: E3:E}}
  - entry: A3:W
    steps:
      - {{market: {{spend: {{chests: 1}}, gain: {{hearts: 1}}, trade: {{give: {{weapon: 1}}, gain: {{shovels: 1}}}}}}}}
      - sheet: {{hearts: 5, weapon: 0, shovels: 3, clovers: 1, chests: 0, round requirement progress: 0}}
"""


def test_other_ways_of_writing_steps_are_understood(tmp_path):
    """weapon: 2 (the value added), name: orc (the monster printed in D2), clover die: player, collect: [a list], trade gain:, a market written
    at the top of the next round, the sheet's own words for the requirement."""
    log = tmp_path / "forms.yaml"
    hall = tmp_path / "hall.yaml"            # a generic monster printed in D2: the one a log may name
    hall.write_text((AUDIT.parent / "test-hall.yaml").read_text().replace("  D2: chest\n", "  D2: [chest, monster]\n"))
    log.write_text(FORMS.format(hall=hall))
    code, report = _check(log)
    assert code == 0, report
    text = FORMS.format(hall=hall).replace("hearts: 5, weapon: 0", "hearts: 6, weapon: 0")
    log.write_text(text)
    sheet_line = next(i for i, line in enumerate(text.splitlines(), 1) if "sheet:" in line)
    code, report = _check(log)
    assert code == 1 and [v["line"] for v in report["violations"]] == [sheet_line]


def test_messages_name_the_step_over_the_log_and_within_its_round():
    code, report = _check(AUDIT / "illegal-kills-not-reset.yaml")
    v, = report["violations"]
    assert v["step"] == 29 and "round 2, step 1:" in v["message"]
    result = CliRunner().invoke(main, ["check", str(AUDIT / "illegal-kills-not-reset.yaml")])
    assert ":40: step 29: round 2, step 1: sheet shows kills 1" in result.output

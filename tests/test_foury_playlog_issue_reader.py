"""Foury play logs written as an outside author would, from the rules text and the issue only
(tests/data/foury_logs/issue_reader/): each legal log checks clean, each illegal log is reported
first at the line its author marked `# VIOLATION`."""
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgen.definitions.registry import load_file

LOGS = Path(__file__).parent / "data" / "foury_logs" / "issue_reader"
LEGAL = sorted(LOGS.glob("legal-*.yaml"))
ILLEGAL = sorted(LOGS.glob("illegal-*.yaml"))


def check(path):
    loaded = load_file(path)
    return loaded.handler.check(loaded.definition).violations


def marked_line(path: Path) -> int:
    lines = [n for n, text in enumerate(path.read_text().splitlines(), 1) if "# VIOLATION" in text]
    assert len(lines) == 1, f"{path.name}: mark exactly one line"
    return lines[0]


def test_both_sides_are_covered():
    assert len(LEGAL) >= 10 and len(ILLEGAL) >= 10


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: p.name)
def test_legal_log_checks_clean(path):
    assert [f"{v.line}: {v.message}" for v in check(path)] == []


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_illegal_log_reported_at_the_marked_line(path):
    violations = check(path)
    assert violations, path.name
    assert violations[0].line == marked_line(path), [f"{v.line}: {v.message}" for v in violations]


def test_delivered_cornucopia_is_spent(tmp_path):
    """Round D: the cornucopia carried to the Oracle is delivered; a sheet keeping it is wrong."""
    (tmp_path / "cross.yaml").write_text((LOGS / "cross.yaml").read_text())
    log = (LOGS / "legal-02-cross-two-rounds.yaml").read_text()
    for n, legal in ((0, True), (1, False)):
        p = tmp_path / f"corn{n}.yaml"
        p.write_text(log.replace("      - sheet: {chests: 1}\n", f"      - sheet: {{chests: 1, cornucopias: {n}}}\n", 1))
        assert (check(p) == []) == legal, n


@pytest.mark.parametrize("fight", [
    "{hero: 3, weapon: true, enemy: 4, enemy type: orc}",
    "{hero: 3, weapon: true, enemy: {orc: 4}}",
    "{hero: 3, weapon: true, enemy: 4, type: orc}",
])
def test_enemy_type_written_several_ways(tmp_path, fight):
    hall = (LOGS / "test-hall.yaml").read_text()
    (tmp_path / "test-hall.yaml").write_text(hall)
    p = tmp_path / "typed.yaml"
    p.write_text((LOGS / "legal-10-issue-plus.yaml").read_text().replace(
        "{fight: {hero: 3, weapon: true, enemy: 4}}", "{fight: " + fight + "}"))
    # D2's monster came from the roll: a plain monster, named nothing else (issue 28), in each form
    assert [v.rule for v in check(p)] == ["fight.enemy_type"]
    # printed in D2, a generic monster may be named: each form reads the type
    (tmp_path / "test-hall.yaml").write_text(hall.replace("  D2: chest\n", "  D2: [chest, monster]\n", 1))
    assert check(p) == []


@pytest.mark.parametrize("market, legal", [
    ("{trade: {give: {weapon: 1}, get: {shovels: 1}}}", True),
    ("{trade: {weapon: -1, shovels: 1}}", True),
    ("{trade: {weapon: 1, shovels: 1}}", True),          # read aloud: weapon for shovels
    ("{trade: {weapon: shovels}}", True),
    ("{trade: {weapon: 1, shovels: 2}}", False),         # one for one only
    ("{spend: {chests: 1}, gain: {shovels: 1}, trade: {weapon: shovels}}", False),   # the sheet misses the bought shovel
])
def test_market_trade_forms(tmp_path, market, legal):
    (tmp_path / "test-hall.yaml").write_text((LOGS / "test-hall.yaml").read_text())
    log = (LOGS / "legal-01-temple-full-round.yaml").read_text()
    head, _ = log.split("      - {market:")
    p = tmp_path / "market.yaml"
    p.write_text(head + "      - {market: " + market + "}\n      - sheet: {weapon: 0, shovels: 3}\n")
    assert (check(p) == []) == legal


@pytest.mark.parametrize("walls, legal", [
    ("[B3:W, E3:W]", True),          # the Oracle has no events: those of the zone entered (B5: front)
    ("[A3:W, B3:W, D3:W]", True),    # or those of the round's zone (D5: behind)
    ("[B3:W, D3:N]", False),         # neither
])
def test_roll_leaving_the_oracle_either_zone(tmp_path, walls, legal):
    (tmp_path / "cross.yaml").write_text((LOGS / "cross.yaml").read_text())
    log = (LOGS / "legal-02-cross-two-rounds.yaml").read_text().replace(
        "      - {move: D3, roll: 4}\n", f"      - {{move: D3, roll: 5}}\n      - sheet: {{walls: {walls}}}\n", 1)
    p = tmp_path / "oracle.yaml"
    p.write_text(log.split("      - {move: E3")[0])
    assert (check(p) == []) == legal


def test_cli_exit_codes():
    legal = subprocess.run([sys.executable, "-m", "sheetgen", "check", str(LEGAL[0])], capture_output=True, text=True)
    illegal = subprocess.run([sys.executable, "-m", "sheetgen", "check", str(ILLEGAL[0])], capture_output=True, text=True)
    assert (legal.returncode, illegal.returncode) == (0, 1), legal.stderr + illegal.stderr
    assert f"{ILLEGAL[0].name}:{marked_line(ILLEGAL[0])}: step" in illegal.stdout


@pytest.mark.parametrize("steps, legal", [
    ("      - {oracle: {words: x}}\n      - sheet: {chests: 1}\n", True),     # from B3, next to it: the move is implied
    ("      - {move: C3}\n      - {oracle: {words: x}}\n      - sheet: {chests: 1}\n", True),
    ("      - {move: C3, roll: 2}\n", False),                               # the Oracle's room is never rolled
])
def test_oracle_step_from_the_next_room(tmp_path, steps, legal):
    (tmp_path / "cross.yaml").write_text((LOGS / "cross.yaml").read_text())
    head = (LOGS / "legal-02-cross-two-rounds.yaml").read_text().split("      - sheet: {cornucopias: 1}\n")[0]
    p = tmp_path / "oracle.yaml"
    p.write_text(head + steps)
    assert (check(p) == []) == legal


@pytest.mark.parametrize("after, legal", [
    ("      - {move: E1}\n      - {fight: {hero: 6, enemy: 1}}\n", True),        # the extra step at once
    # the free move back to C1 was the extra step ("then move one additional space"): B1 needs its roll
    ("      - {move: C1}\n      - {move: B1}\n      - {fight: {hero: 6, enemy: 1}}\n", False),
    ("      - {move: C1}\n      - {move: B1}\n      - {fight: {hero: 6, enemy: 1}}\n      - {move: A1}\n", False),  # only one
])
def test_extra_step_is_the_very_next_move(tmp_path, after, legal):
    (tmp_path / "test-hall.yaml").write_text((LOGS / "test-hall.yaml").read_text())
    p = tmp_path / "extra.yaml"
    p.write_text("sheetgen: 1\nkind: playlog\nruleset: foury\nmap: test-hall.yaml\n"
                 "hero:\n  traits: {hearts: 5, shields: 2, weapon: 1, clovers: 2, shovels: 2}\n"
                 "rounds:\n  - entry: C1:N\n    steps:\n"
                 "      - {move: C1, roll: 5}\n      - {move: D1, roll: 6}\n" + after)
    assert (check(p) == []) == legal


@pytest.mark.parametrize("before, after, legal", [
    ("{cornucopias: 1, requirement: 1}", "{requirement: 1, cornucopias: 0}", True),   # marked when obtained
    ("{cornucopias: 1, requirement: 0}", "{requirement: 1, cornucopias: 0}", True),   # or when delivered
    ("{cornucopias: 1, requirement: 2}", "{requirement: 1}", False),
    ("{cornucopias: 1}", "{requirement: 0}", False),                                  # delivered: it counts
])
def test_round_d_requirement_marked_when_obtained_or_delivered(tmp_path, before, after, legal):
    (tmp_path / "cross.yaml").write_text((LOGS / "cross.yaml").read_text())
    head = (LOGS / "legal-02-cross-two-rounds.yaml").read_text().split("      - sheet: {cornucopias: 1}\n")[0]
    p = tmp_path / "d.yaml"
    p.write_text(head + f"      - sheet: {before}\n      - {{move: C3}}\n      - sheet: {after}\n")
    assert (check(p) == []) == legal


@pytest.mark.parametrize("levers, legal", [
    ("      - lever\n      - lever\n      - sheet: {levers: 2}\n", True),   # the bare word: nearest unpulled lever
    ("      - lever\n      - lever\n      - lever\n", False),                # only two on the map
])
def test_bare_lever_steps(tmp_path, levers, legal):
    (tmp_path / "test-hall.yaml").write_text((LOGS / "test-hall.yaml").read_text())
    head = (LOGS / "legal-05-castle-levers.yaml").read_text().split("      - {lever: D4}\n")[0]
    p = tmp_path / "levers.yaml"
    p.write_text(head + levers)
    assert (check(p) == []) == legal


@pytest.mark.parametrize("claim, legal", [("1/3", True), ("1", True), ("2/3", False)])
def test_requirement_penciled_as_boxes_of_total(tmp_path, claim, legal):
    (tmp_path / "test-hall.yaml").write_text((LOGS / "test-hall.yaml").read_text())
    head = (LOGS / "legal-01-temple-full-round.yaml").read_text().split("      - {move: B2, roll: 3}")[0]
    p = tmp_path / "req.yaml"
    p.write_text(head + f"      - sheet: {{requirement: '{claim}'}}\n")
    assert (check(p) == []) == legal

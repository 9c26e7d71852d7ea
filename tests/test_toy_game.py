"""A fifth game, registered from outside the package, is checked like the four built-in ones.

tests/toygame/ is a complete tiny game (rules, actions, notation, formats, GAME); nothing
in sheetgen names it.  These tests prove the game interface is real: `sheetgen check`
finds it through the registry (SHEETGEN_GAMES), replays its logs through its Rules, judges
its readings with base.judge, and reports like any game.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgen.games.base import Illegal

HERE = Path(__file__).resolve().parent
LOGS = HERE / "toygame" / "logs"
sys.path.insert(0, str(HERE))


def sheetgen(*args):
    env = dict(os.environ, SHEETGEN_GAMES="toygame",
               PYTHONPATH=os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "sheetgen", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=HERE.parent)


def test_check_finds_the_toy_game_and_accepts_a_legal_log():
    r = sheetgen("check", LOGS / "legal.yaml")
    assert r.returncode == 0, r.stderr
    assert "legal (ladder; the default readings)" in r.stdout


def test_check_reports_each_broken_rule_at_its_line():
    r = sheetgen("check", LOGS / "illegal.yaml", "--format", "json")
    assert r.returncode == 1
    report = json.loads(r.stdout)
    assert report["ruleset"] == "ladder" and report["legal"] is False
    first = report["violations"][0]
    assert (first["line"], first["step"], first["rule"]) == (7, 2, "move.count")
    assert "reaches square 7, not 8" in first["message"]


def test_a_log_legal_only_under_a_reading_is_judged_by_it():
    r = sheetgen("check", LOGS / "bounce.yaml", "--format", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout)
    assert report["readings"] == ["bounce"] and report["readings_declared"] is False


def test_an_unknown_declared_reading_is_a_located_error():
    r = sheetgen("check", LOGS / "bounce-declared-wrong.yaml")
    assert r.returncode == 2
    assert "bounce-declared-wrong.yaml:5" in r.stderr and "did you mean 'bounce'" in r.stderr
    assert "Traceback" not in r.stderr


def test_without_the_registration_the_game_is_unknown():
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    env.pop("SHEETGEN_GAMES", None)
    r = subprocess.run([sys.executable, "-m", "sheetgen", "check", str(LOGS / "legal.yaml")], capture_output=True,
                       text=True, env=env, cwd=HERE.parent)
    assert r.returncode == 2 and "ladder" in r.stderr and "Traceback" not in r.stderr


def test_the_rules_contract_in_process():
    from toygame.actions import Claim, Move
    from toygame.rules import RULES, LadderReading
    s = RULES.new_game(12)
    out = RULES.step(s, Move(4, 5))
    assert not out.legal and out.violations[0].rule == "move.count" and out.state.at == 5
    with pytest.raises(Illegal) as refused:
        RULES.apply(s, Claim())
    assert refused.value.rule == "claim.early" and refused.value.lenient is None
    assert Move(6, 6) in RULES.legal_actions(s)
    with pytest.raises(ValueError, match="known: bounce"):
        RULES.new_game(12, readings=("nonsense",))
    bouncing = RULES.new_game(12, readings=(LadderReading.BOUNCE,))
    assert RULES.apply(RULES.apply(bouncing, Move(6, 6)), Move(6, 12)).at == 12


def test_notation_round_trips_every_action():
    from toygame import notation
    from toygame.actions import Claim, Move
    for action in (Move(3, 7), Claim()):
        assert notation.parse(notation.serialize(action)) == action

"""A fifth game, registered from outside the package, is checked like the four built-in ones.

tests/toygame/ is a complete tiny game (rules, actions, notation, formats, tracker, web,
GAME); nothing in sheetgen names it.  These tests prove the game interface is real: `sheetgen
check` finds it through the registry (SHEETGEN_GAMES), replays its logs through its Rules,
judges its readings with base.judge, and reports like any game; `sheetgen track` plays it
through its TrackerAdapter (and its export passes check); the play page draws it and records
its steps through its GamePage.
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


# -- `sheetgen track` through the TrackerAdapter contract ---------------------------------------
def _track(tmp_path, *args):
    env_dirs = {"SHEETGEN_CONFIG_DIR": tmp_path / "config", "SHEETGEN_DATA_DIR": tmp_path / "data",
                "SHEETGEN_CACHE_DIR": tmp_path / "cache"}
    env = dict(os.environ, SHEETGEN_GAMES="toygame", **{k: str(v) for k, v in env_dirs.items()},
               PYTHONPATH=os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "sheetgen", "track", *map(str, args),
                           "--journal", str(tmp_path / "j.sqlite")],
                          capture_output=True, text=True, env=env, cwd=HERE.parent)


def test_track_plays_the_toy_game_and_its_export_is_a_legal_log(tmp_path):
    r = _track(tmp_path, "new", "--ruleset", "ladder", "--map", "8")
    assert r.returncode == 0, r.stderr
    assert "square 0 of 8" in r.stdout
    for step in ("{move: 5, to: 5}", "{move: 3, to: 8}", "win"):
        r = _track(tmp_path, "step", step)
        assert r.returncode == 0, r.stderr
    assert "you won" in r.stdout
    assert "square 8 of 8 (won)" in _track(tmp_path, "status").stdout
    log = tmp_path / "exported.yaml"
    assert _track(tmp_path, "export", "-o", log).returncode == 0
    checked = sheetgen("check", log, "--format", "json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["ruleset"] == "ladder"


def test_track_refuses_an_illegal_toy_step_and_records_nothing(tmp_path):
    assert _track(tmp_path, "new", "--ruleset", "ladder").returncode == 0
    r = _track(tmp_path, "step", "{move: 4, to: 6}")
    assert r.returncode == 1 and "reaches square 4, not 6" in r.stdout + r.stderr
    assert "square 0 of 12" in _track(tmp_path, "status").stdout
    bad = _track(tmp_path, "new", "--ruleset", "ladder", "--map", "long")
    assert bad.returncode == 2 and "a number" in bad.stderr and "Traceback" not in bad.stderr


# -- the page (`sheetgen play`) through the GamePage contract, in process --------------------------
@pytest.fixture
def ladder_game(monkeypatch, tmp_path):
    """The toy game registered for this test only, and a journal with a new ladder of 8."""
    from click.testing import CliRunner

    from sheetgen.cli import main
    from sheetgen.definitions.registry import games
    from toygame import GAME
    monkeypatch.setitem(games(), GAME.name, GAME)
    for name in ("CONFIG", "DATA", "CACHE"):
        monkeypatch.setenv(f"SHEETGEN_{name}_DIR", str(tmp_path / name.lower()))
    journal = tmp_path / "j.sqlite"
    r = CliRunner().invoke(main, ["track", "new", "--ruleset", "ladder", "--map", "8", "--journal", str(journal)])
    assert r.exit_code == 0, r.output
    return journal


def test_the_toy_page_follows_the_page_contract(ladder_game):
    from sheetgen.draw.model import Document
    from sheetgen.games.base import GamePage
    from sheetgen.web.play.app import game_page
    page = game_page("ladder")
    assert isinstance(page, GamePage)
    header = {"length": 8}
    sheet = page.sheet(header)
    view = page.view(header, [{"move": 5, "to": 5}], sheet)
    assert view["position"] == "square 5" and not view["over"]
    assert {"move": 3, "to": 8} in [a["step"] for a in view["actions"]]
    assert [i.id for i in view["overlay"].pages[0].items] == [f"reached-{n}" for n in range(6)]
    assert page.step_from_form("move", {"roll": "3", "to": "8"}) == {"move": 3, "to": 8}
    assert page.step_from_form("move", {"roll": "three"}) == "a move needs a roll and a square, both numbers"
    assert page.step_from_form("fight", {}) is None
    assert isinstance(page.pencil_document(header, []), Document)
    assert page.print_document(header, sheet) is sheet.doc          # the contract's default


def test_the_play_app_records_and_draws_a_toy_game(ladder_game):
    from sheetgen.tracker.journal import Journal
    from sheetgen.web.play.app import PlayApp
    app = PlayApp(ladder_game, form_key="k")
    assert app.record(1, {"move": 5, "to": 5}, {}) == ("recorded", 1)
    what, why = app.record(1, {"move": 2, "to": 9}, {})
    assert what == "refused" and "reaches square 7, not 9" in why
    with Journal(ladder_game) as j:
        assert j.steps(1) == [{"move": 5, "to": 5}]
    html = app.pages.page(1, {})
    assert "square 5 of 8" in html and "roll 3: to 8" in html

"""`sheetgen track`: live play recorded in the SQLite journal, checked step by step."""
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import load_file
from sheetgen.tracker.journal import Journal

HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"
EXAMPLE = [["enter", "C1:N"], ["move", "C1", "--roll", "2"], ["move", "C2", "--roll", "4"],
           ["move", "D2", "--roll", "1"], ["fight", "--hero", "3", "--weapon", "--enemy", "4"],
           ["collect", "chest"], ["move", "D1", "--roll", "5"], ["shovel", "D1:W"]]


def run(journal, *args):
    return CliRunner().invoke(main, ["track", *args, "--journal", str(journal)], catch_exceptions=False)


@pytest.fixture
def journal(tmp_path):
    path = tmp_path / "journal.sqlite"
    res = run(path, "new", "--map", str(HALL), "--traits", TRAITS)
    assert res.exit_code == 0, res.output
    return path


def steps_of(path):
    with Journal(path) as j:
        return j.steps(j.current().id)


def test_issue_example_played_live_exports_a_legal_log(journal, tmp_path):
    for args in EXAMPLE:
        res = run(journal, *args)
        assert res.exit_code == 0, (args, res.output)
    res = run(journal, "step", "{sheet: {hearts: 4, shields: 2, weapon: 1, clovers: 2, shovels: 1, chests: 1, kills: 1}}")
    assert res.exit_code == 0, res.output
    out = tmp_path / "sub" / "game.yaml"
    assert run(journal, "export", "-o", str(out)).exit_code == 0
    loaded = load_file(out)
    assert loaded.handler.check(loaded.definition).violations == []
    assert len(loaded.definition.entries) == 9           # the entry + 8 steps


def test_illegal_action_refused_with_reason_and_not_recorded(journal):
    for args in EXAMPLE[:-1]:
        assert run(journal, *args).exit_code == 0
    before = steps_of(journal)
    res = run(journal, "move", "C1")                     # through the collapsed wall
    assert res.exit_code == 1
    assert "wall" in res.output and "refused" in res.output
    assert steps_of(journal) == before
    assert run(journal, "move", "E5", "--roll", "3").exit_code == 1
    assert run(journal, "step", "{move: C1, fight: {hero: 1, enemy: 1}}").exit_code == 1
    assert steps_of(journal) == before


def test_roll_left_to_sheetgen_only_where_due(journal):
    run(journal, "enter", "C1:N")
    res = run(journal, "move", "C1", "--seed", "7")
    assert res.exit_code == 0
    assert 1 <= steps_of(journal)[-1]["roll"] <= 6
    # the seeded roll may have stranded the hero; go back to a known state
    run(journal, "undo")
    run(journal, "move", "C1", "--roll", "6")
    run(journal, "move", "D1")                           # extra step: no roll
    assert "roll" not in steps_of(journal)[-1]
    run(journal, "move", "C1")                           # explored: no roll
    assert steps_of(journal)[-1] == {"move": "C1"}


def test_fight_dice_rolled_when_left_out(journal):
    run(journal, "enter", "C1:N")
    run(journal, "move", "C1", "--roll", "1")            # zone A event 1: a monster
    res = run(journal, "fight", "--seed", "3")
    assert res.exit_code == 0, res.output
    f = steps_of(journal)[-1]["fight"]
    assert 1 <= f["hero"] <= 6 and 1 <= f["enemy"] <= 6


def test_undo_and_status(journal):
    run(journal, "enter", "C1:N")
    run(journal, "move", "C1", "--roll", "2")
    assert run(journal, "undo").exit_code == 0
    assert len(steps_of(journal)) == 1
    res = run(journal, "status")
    assert res.exit_code == 0
    assert "legal now: move C1 (roll)" in res.output and "hearts 4/" in res.output
    assert "statues 0/3" in res.output


def test_new_game_refuses_13_traits_and_unknown_map(tmp_path):
    path = tmp_path / "j.sqlite"
    res = run(path, "new", "--map", str(HALL), "--traits", "hearts=5,shields=2,weapon=2,clovers=2,shovels=2")
    assert res.exit_code == 1 and "13" in res.output
    res = run(path, "new", "--map", "no-such-map")
    assert res.exit_code == 2
    res = run(path, "status")
    assert res.exit_code == 2 and "no game" in res.output


def test_journal_is_wal_with_one_row_per_step(journal):
    run(journal, "enter", "C1:N")
    db = sqlite3.connect(journal)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT ruleset FROM games").fetchone()[0] == "foury"
    assert db.execute("SELECT seq, step FROM steps").fetchall() == [(1, '{"entry": "C1:N"}')]


def test_killed_mid_step_leaves_the_journal_intact(journal):
    for args in EXAMPLE[:3]:
        assert run(journal, *args).exit_code == 0
    acknowledged = steps_of(journal)
    env = dict(os.environ, SHEETGEN_TEST_PAUSE_BEFORE_COMMIT="30")
    proc = subprocess.Popen([sys.executable, "-m", "sheetgen", "track", "move", "D2", "--roll", "1",
                             "--journal", str(journal)], env=env, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()                    # printed inside the open transaction
        assert "pausing before commit" in line
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    with Journal(journal) as j:
        assert j.integrity() == "ok"
        assert j.steps(j.current().id) == acknowledged     # every acknowledged step, no half step
    # the journal is usable again: the same step can be recorded now
    assert run(journal, "move", "D2", "--roll", "1").exit_code == 0
    assert len(steps_of(journal)) == len(acknowledged) + 1


def test_render_draws_the_pencil_marks(journal, tmp_path):
    for args in EXAMPLE:
        assert run(journal, *args).exit_code == 0
    out = tmp_path / "out"
    res = run(journal, "render", "-o", str(out), "--format", "svg")
    assert res.exit_code == 0, res.output
    svg = next(out.glob("*.svg")).read_text()
    for mark in ("pencil-dot-C1", "pencil-dot-D2", "pencil-wall-C1-W", "pencil-wall-C3-N", "pencil-wall-D2-N",
                 "pencil-removed-D2-chest", "pencil-arrow-C1-N", "pencil-track-hearts-4",
                 "pencil-track-weapon-1", "pencil-track-chests-1", "pencil-track-kills-1", "pencil-chest-round"):
        assert f'id="{mark}"' in svg, mark
    assert 'id="pencil-track-weapon-2"' not in svg           # the weapon dropped to 1
    assert 'id="pencil-wall-C1-E"' not in svg and 'id="pencil-wall-D1-W"' not in svg   # erased by the shovel
    assert svg.count('class="pencil path"') == 5             # the arrow into C1, 3 moves and the shovel


def test_every_track_command_has_an_example_in_its_help():
    from sheetgen.commands.track import track
    runner = CliRunner()
    for name in track.commands:
        res = runner.invoke(main, ["track", name, "--help"])
        assert res.exit_code == 0 and "Example" in res.output, name


def test_market_between_rounds_through_track(journal):
    for args in [["enter", "C1:N"], ["move", "C1", "--roll", "6"], ["move", "C2"], ["move", "C3"],
                 ["move", "D3"], ["move", "E3", "--roll", "6"], ["exit", "E3:E"]]:
        res = run(journal, *args)
        assert res.exit_code == 0, (args, res.output)
    # E3 rolled zone B's 6: a chest; round 1 sells a chest for 1 resource
    assert run(journal, "market", "--spend", "1", "--gain", "hearts=2").exit_code == 1
    assert run(journal, "market", "--spend", "1", "--gain", "hearts=1", "--give", "weapon=1",
               "--get", "shovels=1").exit_code == 0
    assert run(journal, "step", "{sheet: {hearts: 5, weapon: 1, shovels: 3, chests: 0}}").exit_code == 0
    assert "enter C5:S" in run(journal, "status").output


def test_full_game_replayed_through_track_step_exports_the_same_legal_log(tmp_path):
    import json

    import yaml
    source = Path(__file__).parent / "data" / "foury_logs" / "legal-full-game.yaml"
    log = yaml.safe_load(source.read_text())
    path = tmp_path / "j.sqlite"
    assert run(path, "new", "--map", "ancient-story", "--traits", TRAITS).exit_code == 0
    count = 0
    for rnd in log["rounds"]:
        assert run(path, "enter", rnd["entry"]).exit_code == 0
        for step in rnd["steps"]:
            res = run(path, "step", json.dumps(step))
            assert res.exit_code == 0, (step, res.output)
            count += 1
    out = tmp_path / "again.yaml"
    assert run(path, "export", "-o", str(out)).exit_code == 0
    again = yaml.safe_load(out.read_text())
    assert again["map"] == "ancient-story"
    assert again["rounds"] == log["rounds"]
    loaded = load_file(out)
    assert loaded.handler.check(loaded.definition).violations == []

"""`sheetgen track` at the table, through the CLI: every action told in words (the roll's events,
the walls by side, fight totals and damage), never a silent roll, the journal remembered,
the interactive prompt, the Oracle question and words on the rendered sheet."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.tracker.journal import Journal

HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"


def run(*args, input=None):
    return CliRunner().invoke(main, ["track", *args], input=input, catch_exceptions=False)


@pytest.fixture
def journal(tmp_path):
    path = tmp_path / "game.sqlite"
    res = run("new", "--map", str(HALL), "--traits", TRAITS, "--journal", str(path))
    assert res.exit_code == 0, res.output
    return path


def steps(path):
    with Journal(path) as j:
        return j.steps(j.current().id)


def test_the_journal_of_the_last_game_is_remembered(journal):
    # no --journal, no $SHEETGEN_JOURNAL: the game just started goes on
    res = run("enter", "C1:N")
    assert res.exit_code == 0 and steps(journal) == [{"entry": "C1:N"}]
    assert str(journal) in run("games").output or "1  foury" in run("games").output


def test_a_move_says_the_event_and_the_walls_by_side(journal):
    run("enter", "C1:N")
    res = run("move", "C1", "--roll", "3")
    assert res.exit_code == 0
    assert "roll 3 on zone A (The Temple): the walls to the left and in front collapse" in res.output
    assert "draw walls: left (C1:E) and front (C1:S)" in res.output
    res = run("move", "B1", "--roll", "5")     # heading west: front is B1:W, behind is B1:E
    assert "draw walls: front (B1:W) and behind (B1:E)" in res.output
    assert "a statue is here (its die +0): you must face it" in res.output


def test_a_wall_already_there_is_not_drawn_again(journal):
    run("enter", "C1:N")
    assert "resolve the room, then move one more space" in run("move", "C1", "--roll", "6").output
    assert "an extra step: no roll" in run("move", "B1").output
    run("fight", "--hero", "6", "--enemy", "1")
    res = run("move", "A1", "--roll", "2")    # heading west: left is A1:S, right is A1:N (the map's edge)
    assert "the walls to the left and to the right collapse" in res.output
    assert "draw walls: left (A1:S)" in res.output
    assert "right (A1:N) is already a wall: nothing to draw" in res.output


def test_a_fight_says_the_totals_and_the_damage(journal):
    run("enter", "C1:N")
    run("move", "C1", "--roll", "6")
    run("move", "B1")
    res = run("fight", "--hero", "2", "--enemy", "6", "--weapon")
    assert res.exit_code == 0
    assert "you 2 + weapon 2 = 4 against the statue 6: you are hit, lose 2 heart(s)" in res.output
    assert "on your sheet: hearts 4 -> 2, weapon 2 -> 1" in res.output
    assert "requirement statues: cross off a space (1/3)" in res.output     # facing it is enough
    res = run("fight", "--hero", "5", "--enemy", "1")
    assert "you 5 against the statue 1: you win; erase the statue" in res.output


def test_no_silent_roll_off_a_terminal(journal):
    run("enter", "C1:N")
    res = CliRunner().invoke(main, ["track", "move", "C1"])
    assert res.exit_code == 2
    assert "a die is due: the d6 for entering C1 (--roll N)" in res.output and "--auto-roll" in res.output
    assert steps(journal) == [{"entry": "C1:N"}]                 # nothing recorded
    run("move", "C1", "--roll", "6")
    run("move", "B1")
    res = CliRunner().invoke(main, ["track", "fight", "--hero", "3"])
    assert res.exit_code == 2 and "the statue's die (--enemy N)" in res.output and "--hero N" not in res.output


def test_auto_roll_and_seed_let_sheetgen_roll(journal):
    run("enter", "C1:N")
    res = run("move", "C1", "--auto-roll")
    assert res.exit_code == 0 and 1 <= steps(journal)[-1]["roll"] <= 6
    run("undo")
    assert run("move", "C1", "--seed", "4").exit_code == 0      # a seed is for sheetgen's roll: it may roll
    run("undo")
    assert run("--auto-roll", "move", "C1").exit_code == 0
    run("undo")
    assert "sheetgen rolls" in run("dice", "auto").output          # the game's own setting
    assert run("move", "C1").exit_code == 0 and "roll" in steps(journal)[-1]


def test_on_a_terminal_the_die_is_asked(journal, monkeypatch):
    import sheetgen.commands.track as track
    monkeypatch.setattr(track, "_interactive", lambda: True)
    run("enter", "C1:N")
    res = run("move", "C1", input="9\n3\n")
    assert "the d6 for entering C1 (1-6, or r to let sheetgen roll)" in res.output
    assert "a die shows 1 to 6" in res.output                       # 9 is asked again
    assert steps(journal)[-1] == {"move": "C1", "roll": 3}
    assert "draw walls: left (C1:E) and front (C1:S)" in res.output


def test_the_interactive_prompt(journal):
    script = "\n".join(["help", "enter C1:N", "move C1", "6", "m B1", "fight --weapon", "5", "1",
                        "status", "undo", "bogus", "quit"]) + "\n"
    res = run("play", input=script)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "one action per line" in out
    assert "round 1: colour and black out the arrow C1:N" in out
    assert "the d6 for entering C1" in out and "resolve the room, then move one more space without rolling" in out
    assert "your fight die (1-6" in out and "the statue's die (1-6" in out
    assert "you 5 + weapon 2 = 7 against the statue 1: you win" in out
    assert "position B1" in out                                     # status
    assert "undid" in out and "unknown action 'bogus'" in out
    # the fight was undone: the journal holds what the prompt left
    assert [s if isinstance(s, str) else next(iter(s)) for s in steps(journal)] == ["entry", "move", "move"]


def test_the_prompt_goes_on_after_a_refusal(journal):
    res = run("play", input="move E5 --roll 2\nenter C1:N\nquit\n")
    assert res.exit_code == 0
    assert "refused" in res.output and steps(journal) == [{"entry": "C1:N"}]


def test_the_oracle_question_and_words_are_exported_and_drawn(journal, tmp_path):
    assert run("question", "Will the   river rise?").exit_code == 0
    for step in (["enter", "C1:N"], ["move", "C1", "--roll", "6"], ["move", "C2"], ["move", "C3"],
                 ["oracle", "--words", "silent river"]):
        assert run(*step).exit_code == 0, step
    log = run("export").output
    assert "question: Will the river rise?" in log and "words: silent river" in log
    exported = tmp_path / "log.yaml"
    exported.write_text(log)
    assert CliRunner().invoke(main, ["check", str(exported)]).exit_code == 0
    out = tmp_path / "out"
    assert run("render", "-o", str(out), "--format", "svg").exit_code == 0
    svg = next(out.glob("*.svg")).read_text()
    assert 'id="pencil-oracle-question"' in svg and "Will the river rise?" in svg
    assert 'id="pencil-oracle-words-1"' in svg and "silent river" in svg


def test_new_takes_the_question_and_the_dice_setting(tmp_path):
    path = tmp_path / "j.sqlite"
    res = run("new", "--map", str(HALL), "--traits", TRAITS, "--journal", str(path), "--question", "Why?",
              "--auto-roll")
    assert res.exit_code == 0
    with Journal(path) as j:
        assert j.current().header["question"] == "Why?" and j.current().header["dice"] == "auto"
    too_long = run("question", "x" * 301)
    assert too_long.exit_code == 2 and "too long" in too_long.output

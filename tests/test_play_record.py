"""PlayApp.record (what the play page's POST of a step does), called alone: no HTTP, no server."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.tracker.journal import Journal
from sheetgen.web.play.app import PlayApp

HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"


@pytest.fixture
def play(tmp_path):
    journal = tmp_path / "j.sqlite"
    result = CliRunner().invoke(main, ["track", "new", "--journal", str(journal), "--map", str(HALL),
                                       "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"])
    assert result.exit_code == 0, result.output
    return PlayApp(journal, form_key="k"), journal


def recorded(journal) -> list:
    with Journal(journal) as j:
        return j.steps(j.current().id)


def test_record_checks_asks_for_the_die_then_records(play):
    app, journal = play
    assert app.record(1, {"entry": "C1:N"}, {}) == ("recorded", 1)
    # the die of the room entered is the player's to give: asked for, nothing written
    assert app.record(1, {"move": "C1"}, {}) == ("die", {"move": "C1"})
    assert recorded(journal) == [{"entry": "C1:N"}]
    # the form's die fills it in
    assert app.record(1, {"move": "C1"}, {"roll": "6"}) == ("recorded", 2)
    assert recorded(journal) == [{"entry": "C1:N"}, {"move": "C1", "roll": 6}]


def test_record_refuses_an_illegal_step_and_writes_nothing(play):
    app, journal = play
    what, why = app.record(1, {"move": "E5", "roll": 3}, {})
    assert what == "refused" and why
    assert recorded(journal) == []


def test_record_rolls_the_die_in_a_game_whose_dice_are_auto(play):
    app, journal = play
    with Journal(journal) as j:
        j.update_header(1, {"dice": "auto"})
    assert app.record(1, {"entry": "C1:N"}, {})[0] == "recorded"
    assert app.record(1, {"move": "C1"}, {}) == ("recorded", 2)
    assert 1 <= recorded(journal)[-1]["roll"] <= 6

"""The written contracts between the core and the games (sheetgen/games/base.py, issue 26):
errors by one rule, the page and handler contracts, game commands mounted by the core."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import tracker_for
from sheetgen.errors import InputError


# -- errors by one rule: a name no game has is unusable input (exit 2) ----------------------------
def test_tracker_for_an_unknown_game_is_an_input_error():
    with pytest.raises(InputError) as caught:
        tracker_for("fourie")
    text = str(caught.value.problems[0].format())
    assert "no game called 'fourie'" in text and "foury" in text      # the known ones, did you mean


def test_tracker_for_a_game_without_a_tracker_is_an_input_error():
    from sheetgen.definitions.registry import games, register_game
    from sheetgen.games.base import Game
    register_game(Game(name="trackerless", title="No tracker"))
    try:
        with pytest.raises(InputError, match="has no tracker"):
            tracker_for("trackerless")
    finally:
        games().pop("trackerless")


@pytest.mark.parametrize("command", [["track", "new", "--map", "ancient-story", "--hero", "kael"],
                                     ["play", "--map", "ancient-story", "--hero", "kael"],
                                     ["simulate", "ancient-story", "--games", "1"]])
def test_an_unknown_ruleset_exits_2_in_every_command(command, tmp_path):
    journal = ["--journal", str(tmp_path / "j.sqlite")] if command[0] in ("track", "play") else []
    if command[0] == "track":
        command = command[:2] + journal + command[2:]
        journal = []
    result = CliRunner().invoke(main, command + journal + ["--ruleset", "nosuchgame"])
    assert result.exit_code == 2, result.output
    assert "nosuchgame" in result.output and "Traceback" not in result.output

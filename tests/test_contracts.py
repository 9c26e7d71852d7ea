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


# -- every game role is declared in a contract of sheetgen/games/base.py ----------------------------
def _games():
    from sheetgen.definitions.registry import games
    return games().values()


def test_every_tracker_is_a_tracker_adapter_and_every_page_a_game_page():
    from sheetgen.games.base import GamePage, TrackerAdapter
    pages = 0
    for game in _games():
        if game.tracker:
            assert isinstance(tracker_for(game.name), TrackerAdapter), game.name
        if game.web:
            assert isinstance(game.module("web").PAGE, GamePage), game.name
            pages += 1
    assert pages >= 2


def test_every_definition_kind_declares_its_handler():
    from sheetgen.definitions.registry import handler_for, handlers
    from sheetgen.games.base import Handler
    for kind, ruleset in handlers():
        handler = handler_for(kind, ruleset)
        assert isinstance(handler, Handler), (kind, ruleset)
        if kind == "playlog":
            assert handler.check is not None and handler.compose is None, ruleset


def test_tell_and_narrate_default_to_each_other():
    from sheetgen.games.base import Told, TrackerAdapter

    class Words(TrackerAdapter):
        start = replay = apply = status = export = lambda self, *a: None   # noqa: E731 - not used here

        def narrate(self, before, after, step):
            return ["a line"]
    Words.__abstractmethods__ = frozenset()
    told = Words().tell(None, None, {})
    assert told.lines == ["a line"] and told and not Told()
    assert Words().choices_due(None, {}) is None


def test_a_page_view_has_every_key_the_play_page_reads(tmp_path):
    """Foury's and map mode's views, drawn after a few steps, fill every required key of PageView."""
    from sheetgen.games.base import PageView, Told
    from sheetgen.tracker.journal import Journal
    journal = tmp_path / "j.sqlite"
    runner = CliRunner()
    for args in (["--map", "tests/data/foury_logs/test-hall.yaml", "--traits",
                  "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"], ["--ruleset", "exploration"]):
        assert runner.invoke(main, ["track", "new", "--journal", str(journal), *args]).exit_code == 0
    with Journal(journal) as j:
        played = [(g.ruleset, g.header) for g in j.games()]
    assert sorted(r for r, _ in played) == ["exploration", "foury"]
    from sheetgen.definitions.registry import find_game
    for ruleset, header in played:
        page = find_game(ruleset).module("web").PAGE
        view = page.view(header, [], page.sheet(header), Told())
        assert PageView.__required_keys__ <= set(view), ruleset
        assert set(view) <= PageView.__required_keys__ | PageView.__optional_keys__, ruleset
        assert page.title(header)
        assert page.print_document(header, page.sheet(header)).pages

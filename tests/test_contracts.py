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


# -- a game's own commands, mounted by the core ---------------------------------------------------
import click  # noqa: E402 - the commands below are this section's

HOPS: list = []


@click.command("hop", help="Hop (a step of a game registered by this test).\n\n\b\nExample:\n  sheetgen track hop 3")
@click.argument("count", type=int)
def hop(count):
    HOPS.append(count)


def test_the_core_mounts_a_game_s_track_commands():
    from sheetgen.definitions.registry import games, register_game
    from sheetgen.games.base import Command, Game
    register_game(Game(name="hopper", title="Hopper", track_commands=(
        Command("hop", __name__, "hop", "Hop."), Command("status", __name__, "hop", "Not mounted: the core's."))))
    try:
        runner = CliRunner()
        listed = runner.invoke(main, ["track", "--help"]).output
        assert "hop" in listed and "Hop (a step" in listed
        assert runner.invoke(main, ["track", "hop", "3"]).exit_code == 0 and HOPS == [3]
        assert "Resources, round" in runner.invoke(main, ["track", "status", "--help"]).output   # the core's
    finally:
        games().pop("hopper")


def test_every_game_s_track_command_runs_and_has_an_example():
    from sheetgen.commands.track import track
    ctx = click.Context(track)
    mounted = set(track.list_commands(ctx)) - set(track.commands)
    assert {"enter", "move", "fight", "flee", "exit", "market", "oracle"} <= mounted
    for name in sorted(mounted):
        res = CliRunner().invoke(main, ["track", name, "--help"])
        assert res.exit_code == 0 and "Example" in res.output, name


def test_game_options_reach_their_core_commands():
    """simulate --table is map mode's option (Game.simulate_options); --ruleset's default and its
    help come from the registry."""
    from sheetgen.definitions.registry import default_game
    out = CliRunner().invoke(main, ["simulate", "--help"]).output
    assert "--table" in out and f"[default: {default_game()}]" in out
    out = " ".join(CliRunner().invoke(main, ["track", "new", "--help"]).output.split())
    assert "a set-up play log" in out and "the d66 table" in out


def test_a_new_game_without_map_starts_only_where_the_game_allows_it(tmp_path):
    journal = str(tmp_path / "j.sqlite")
    r = CliRunner().invoke(main, ["track", "new", "--journal", journal, "--ruleset", "exploration"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["track", "new", "--journal", journal, "--hero", "kael"])
    assert r.exit_code == 2 and "give --map MAP" in r.output
    r = CliRunner().invoke(main, ["track", "new", "--journal", journal, "--map", "ancient-story"])
    assert r.exit_code == 2 and "give --hero NAME or --traits" in r.output

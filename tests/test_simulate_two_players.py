"""`sheetgen simulate MAP --players 2` (games/foury/sim/two.py): Dungeon Foury's 2 Players Mode played
by two of the simulate policies through the two-player rules engine.  The run is the same for a seed
whatever --jobs is, its counts add up, and every simulated game's log passes `sheetgen check` (with
the winner it declares)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import load_file


def simulate(*args):
    res = CliRunner().invoke(main, ["simulate", "ancient-story", "--players", "2", *args], catch_exceptions=False)
    return res


def report(*args) -> dict:
    res = simulate(*args, "--format", "json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_the_same_seed_gives_the_same_run_and_another_seed_another():
    a = report("--games", "30", "--seed", "4", "--opponent", "greedy")
    assert a == report("--games", "30", "--seed", "4", "--opponent", "greedy")
    assert a != report("--games", "30", "--seed", "5", "--opponent", "greedy")


def test_jobs_do_not_change_the_result():
    one = report("--games", "60", "--seed", "2")
    assert one == report("--games", "60", "--seed", "2", "--jobs", "2")


def test_who_wins_how_often_and_by_which_objective_adds_up():
    rep = report("--games", "80", "--seed", "3", "--opponent", "random:kael")
    n = rep["games"]
    first, second = rep["players"]
    assert (first["policy"], first["hero"], second["policy"], second["hero"]) == ("cautious", "free traits",
                                                                                  "random", "kael")
    endings = rep["endings"]
    assert first["wins"] + second["wins"] + endings["draw"] + endings["stuck"] + endings["lost"] == n
    for p in (first, second):
        assert sum(p["wins_by_objective"].values()) == p["wins"]
        assert sum(p["ends"].values()) == n
    assert endings["treasures"] == sum(p["wins_by_objective"]["treasures"] for p in (first, second))
    assert endings["survived"] == sum(p["wins_by_objective"]["survived"] for p in (first, second))
    # both objectives are reached at all in 80 games, and the players meet
    assert endings["treasures"] > 0 and endings["survived"] > 0 and rep["games_with_a_duel"] > 0
    text = simulate("--games", "80", "--seed", "3", "--opponent", "random:kael").output
    assert f"P1 (first, cautious, free traits): wins {first['wins']} " in text
    assert f"{first['wins_by_objective']['treasures']} by 5 treasures and out first" in text


@pytest.mark.parametrize("opponent", ["cautious", "greedy:melyra", "random"])
def test_every_simulated_game_log_passes_check(tmp_path, opponent):
    res = simulate("--games", "20", "--seed", "11", "--opponent", opponent, "--logs", str(tmp_path))
    assert res.exit_code == 0, res.output
    logs = sorted(tmp_path.glob("game-*.yaml"))
    assert len(logs) == 20
    winners = duels = 0
    for path in logs:
        loaded = load_file(path)
        judged = loaded.handler.check(loaded.definition)
        assert judged.legal and judged.violations == [], (path.name, [v.message for v in judged.violations])
        text = path.read_text(encoding="utf-8")
        assert "players:" in text
        winners += "\nwinner:" in text
        duels += "duel:" in text
    assert winners >= 5, winners       # a decided game declares its winner, and check agrees with it
    assert duels >= 1 or opponent == "random", duels


def test_a_wrong_winner_in_a_simulated_log_is_caught(tmp_path):
    simulate("--games", "10", "--seed", "11", "--logs", str(tmp_path))
    decided = [p for p in sorted(tmp_path.glob("game-*.yaml")) if "\nwinner: P" in p.read_text(encoding="utf-8")]
    assert decided
    text = decided[0].read_text(encoding="utf-8")
    wrong = "P2" if "\nwinner: P1" in text else "P1"
    path = tmp_path / "wrong.yaml"
    path.write_text(text.replace("\nwinner: P1", f"\nwinner: {wrong}").replace("\nwinner: P2", f"\nwinner: {wrong}"),
                    encoding="utf-8")
    loaded = load_file(path)
    assert not loaded.handler.check(loaded.definition).legal


@pytest.mark.parametrize("args, words", [
    (["--players", "3"], "1 or 2 players"),
    (["--opponent", "bold"], "unknown policy 'bold'"),
    (["--compare", "ancient-story"], "--compare is not available with --players 2"),
    (["--coin"], "--coin is not available"),
    (["--hero", "all"], "--hero all is not available"),
])
def test_what_the_two_player_run_does_not_do_is_refused(args, words):
    res = CliRunner().invoke(main, ["simulate", "ancient-story", "--players", "2", "--games", "2", *args])
    assert res.exit_code == 2 and words in res.output, res.output


def test_a_campaign_map_and_a_lone_opponent_are_refused():
    res = CliRunner().invoke(main, ["simulate", "slaughter", "--players", "2", "--games", "2"])
    assert res.exit_code == 2 and "map of The Ancient Story" in res.output
    res = CliRunner().invoke(main, ["simulate", "ancient-story", "--opponent", "greedy", "--games", "2"])
    assert res.exit_code == 2 and "--opponent is the second player of --players 2" in res.output

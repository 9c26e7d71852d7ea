"""The policies' choices, one at a time, on real game states (no dice involved)."""
import os
import subprocess
import sys

from foury_helpers import world
from sheetgen.games.foury import actions as A
from sheetgen.games.foury.rules import apply, new_game
from sheetgen.games.foury.sim.policies import Cautious, Greedy, entry_keeps_game_open, exit_keeps_game_open


def with_res(state, **res):
    s = state.copy()
    s.res = dict(s.res, **res)
    return s


def test_cautious_blocks_big_hits_and_deadly_ones_only():
    board, hero, nav = world()
    s = new_game(board, hero)
    p = Cautious(nav, None)
    assert not p.block(with_res(s, hearts=4, shields=2), "orc", 1)
    assert p.block(with_res(s, hearts=4, shields=2), "orc", 2)
    assert p.block(with_res(s, hearts=1, shields=1), "orc", 1)
    assert not p.block(with_res(s, hearts=1, shields=0), "orc", 3)
    g = Greedy(nav, None)
    assert not g.block(with_res(s, hearts=4, shields=2), "orc", 3)      # greedy only saves its life
    assert g.block(with_res(s, hearts=3, shields=2), "orc", 3)


def test_cautious_heals_with_a_spare_cornucopia_but_keeps_the_waterways_one():
    board, hero, nav = world()
    s = apply(new_game(board, hero), A.Enter(entry=((2, 0), "N")))
    p = Cautious(nav, None)
    assert p.heal(with_res(s, hearts=2, cornucopias=2)) == A.Redeem("hearts")
    assert p.heal(with_res(s, hearts=2, cornucopias=1)) is None          # kept for round D's Oracle
    assert p.heal(with_res(s, hearts=4, cornucopias=2)) is None


def test_cautious_starts_with_the_kill_round_while_monsters_are_weakest():
    board, hero, nav = world()
    s = new_game(board, hero)
    options = [A.Enter(entry=e) for e in board.entries]
    choice = Cautious(nav, None).entry(s, options)
    assert board.zones[board.zone_of(choice.entry[0])].requirement_kind == "kills"


def test_exits_keep_an_arrow_for_every_round_left():
    board, hero, nav = world()
    s = new_game(board, hero)
    # round 1 went in by C1:N (A) and out by K2:E (B); round 2 came in by J11:S (C):
    # leaving by K7:E would close zone B for good, leaving by H1:N keeps every round playable
    s.used_entries = frozenset({((2, 0), "N"), ((10, 1), "E"), ((9, 10), "S")})
    s.zones_done = frozenset({"A"})
    s.zone = "C"
    assert not exit_keeps_game_open(s, ((10, 6), "E"))
    assert exit_keeps_game_open(s, ((7, 0), "N"))
    assert entry_keeps_game_open(new_game(board, hero), ((2, 0), "N"))


def test_results_do_not_depend_on_the_hash_seed():
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        res = subprocess.run([sys.executable, "-m", "sheetgen", "simulate", "ancient-story", "--games", "40",
                              "--policy", "random", "--format", "json"], capture_output=True, text=True, env=env)
        assert res.returncode == 0, res.stderr
        outs.append(res.stdout)
    assert outs[0] == outs[1]

"""Shuffle Dungeons through the engine contract (sheetgen.games.base): RULES.step
returns an Outcome for legal and illegal actions alike, apply raises Illegal, the
legal actions are the ones step accepts; the readings are typed (an unknown one is
refused, a declared one honoured, the judged one reported); the tracker is an ADAPTER."""
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import load_file
from sheetgen.games.base import Illegal, Judgement, Outcome, Rules, TrackerAdapter, Violation
from sheetgen.games.shuffle.actions import (BeginTurn, Build, Burn, Draw, Eat, Effect, EndTurn, Equip, Fight,
                                            LevelUp, Loot, Move, PlaceMonster, Power, Shift, Shrine, Slide, Swap,
                                            Trade, Trap, Twist, Ward)
from sheetgen.games.shuffle.formats.playlog import check, initial_state
from sheetgen.games.shuffle.readings import ShuffleReading
from sheetgen.games.shuffle.rules import RULES

DATA = Path(__file__).parent / "data" / "shuffle"
AUDIT = DATA / "audit"


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _start(readings=()):
    """Ada's first turn in trade-legal's set-up: Ada (knight, hand: sword) and Bo (rogue, hand: bread)
    in hall [0, 0]; corr [1, 0] (e w), pit [-1, 0] (trap), shrine [0, 1], bend [1, 1] (n e)."""
    loaded = load_file(DATA / "cases" / "trade-legal.yaml").definition
    return RULES.apply(initial_state(loaded, readings), BeginTurn("Ada"))


# -- the engine contract --------------------------------------------------------------------
def test_rules_follow_the_contract():
    assert isinstance(RULES, Rules) and RULES.game == "shuffle"
    state = _start()
    out = RULES.step(state, Move(("E",)))
    assert isinstance(out, Outcome) and out.legal and out.state.heroes["Ada"].at == (1, 0)
    assert state.heroes["Ada"].at == (0, 0)                     # the state given is kept


def test_an_illegal_step_is_an_outcome_with_its_violations():
    state = _start()
    out = RULES.step(state, Move(("E", "E")))                   # nothing east of corr
    assert [v.rule for v in out.violations] == ["shuffle.move-path"]
    assert all(isinstance(v, Violation) and v.line is None for v in out.violations)
    assert out.state.heroes["Ada"].at == (1, 0)                 # the first step was made
    with pytest.raises(Illegal) as info:
        RULES.apply(state, Move(("E", "E")))
    assert info.value.rule == "shuffle.move-path" and info.value.exit_code == 1


def test_a_turn_begins_and_ends_by_actions():
    state = RULES.apply(_start(), Move(("E",)))
    assert state.heroes["Ada"].steps == 1
    bo = RULES.apply(RULES.apply(state, EndTurn()), BeginTurn("Bo"))
    assert bo.active == "Bo" and bo.heroes["Ada"].steps == 0
    assert [v.rule for v in RULES.step(state, BeginTurn("Zed")).violations] == ["shuffle.hero"]
    assert [v.rule for v in RULES.step(state, Move(("S",), by="Bo")).violations] == ["shuffle.off-turn"]


@pytest.mark.parametrize("action, rules", [
    (Move(("E",)), []), (Move(("N",)), ["shuffle.move-path"]),
    (Trap(4), ["shuffle.trap"]),
    (Draw(), []), (Draw(count=2), ["shuffle.draw-count"]),
    (PlaceMonster("rat", "N"), ["shuffle.place-monster"]),
    (Build("bend", path="N"), ["shuffle.hand"]),
    (Equip("sword"), []), (Equip("bread"), ["shuffle.hand"]),
    (Eat("bread", by="Bo"), []), (Eat("bread"), ["shuffle.hand"]),
    (Burn(("sword",)), []), (Burn(("axe",)), ["shuffle.hand"]),
    (Trade("Bo", ("sword",), ("bread",)), []), (Trade("Bo", agreed=False), ["shuffle.trade-agree"]),
    (Power("knight"), []), (Power("rogue"), ["shuffle.power"]),
    (Shrine(), ["shuffle.shrine"]), (Ward(), ["shuffle.ward"]),
    (Shift("pit", "S"), []), (Shift("hall", "E"), ["shuffle.shift"]),
    (Slide("S", hero="Ada", to=(0, 1)), []), (Slide("N", hero="Ada"), ["shuffle.slide"]),
    (Swap(("hall", "corr")), []), (Swap(("hall", "nowhere")), ["shuffle.no-room"]),
    (Twist("bend", 1), []), (Twist("bend", 0), ["shuffle.twist"]),
    (Fight("rat", hero_dice=(3,), monster_dice=(1,)), ["shuffle.fight"]),
    (LevelUp(), ["shuffle.level-up"]), (Loot(), []), (Effect(damage=1), []), (EndTurn(), []),
], ids=repr)
def test_every_action_kind_steps_to_an_outcome(action, rules):
    out = RULES.step(_start(), action)
    assert [v.rule for v in out.violations] == rules


def test_legal_actions_are_exactly_the_listed_actions_step_accepts():
    state = _start()
    listed = RULES.legal_actions(state)
    assert all(RULES.step(state, a).legal for a in listed)
    assert [a.dirs for a in listed if isinstance(a, Move)] == [("E",), ("S",), ("W",)]
    assert Equip("sword") in listed and Power("knight") in listed and Draw() in listed and EndTurn() in listed
    assert Shrine() not in listed                                   # hall is no Shrine
    in_trap = RULES.apply(state, Move(("W",)))                     # entered pit: the roll comes first
    assert not any(isinstance(a, (Move, Draw, EndTurn)) for a in RULES.legal_actions(in_trap))


# -- readings ---------------------------------------------------------------------------------
def _with_readings(tmp_path, name: str, readings: str) -> Path:
    """A copy of an audit log that declares readings (its deck still the audit deck)."""
    log = tmp_path / name
    text = (AUDIT / name).read_text().replace("deck: maps/", f"deck: {AUDIT}/maps/")
    log.write_text(text.replace("setup:", f"readings: {readings}\nsetup:", 1))
    return log


def test_an_unknown_reading_is_refused(tmp_path):
    with pytest.raises(ValueError, match="did you mean 'assist-own-dice'"):
        ShuffleReading.parse(["assist-own-die"])
    log = _with_readings(tmp_path, "monster-assist-own-dice-legal.yaml", "[draw-no-room-paths, asist-own-dice]")
    result = _run("check", log)
    assert result.exit_code == 2
    assert f"{log}:8:32: readings[1]: unknown reading 'asist-own-dice'" in result.output, result.output
    assert "did you mean 'assist-own-dice'?" in result.output


def test_a_declared_reading_is_honoured(tmp_path):
    # the ogre assisting the rat rolls its own 2 dice: legal under assist-own-dice only
    default = json.loads(_run("check", _with_readings(tmp_path, "monster-assist-own-dice-legal.yaml", "[]"),
                              "--format", "json").output)
    assert [v["rule"] for v in default["violations"]] == ["shuffle.dice"] and default["readings_declared"]
    declared = json.loads(_run("check", _with_readings(tmp_path, "monster-assist-own-dice-legal.yaml",
                                                      "[assist-own-dice]"), "--format", "json").output)
    assert declared["legal"] and declared["readings"] == ["assist-own-dice"] and declared["readings_declared"]


@pytest.mark.parametrize("name, reading", [
    ("audit/monster-assist-own-dice-legal.yaml", "assist-own-dice"),
    ("audit/draw-unbuilt-paths-legal.yaml", "draw-no-card-paths"),
    ("docs_reader/draw-beside-monster-legal.yaml", "draw-no-room-paths"),
    ("audit/slide-hero-into-trap-legal.yaml", "slide-enters-trap"),
])
def test_the_reading_a_log_was_judged_by_is_reported(name, reading):
    result = _run("check", DATA / name, "--format", "json")
    report = json.loads(result.output)
    assert result.exit_code == 0 and report["readings"] == [reading] and report["readings_declared"] is False


def test_a_replay_tries_only_the_readings_it_consulted():
    verdict = check(load_file(DATA / "cases" / "move-speed-illegal.yaml").definition)
    assert isinstance(verdict, Judgement) and verdict.replays == 1 and not verdict.legal
    verdict = check(load_file(AUDIT / "monster-assist-own-dice-legal.yaml").definition)
    assert verdict.replays == 2 and verdict.readings == {ShuffleReading.ASSIST_OWN_DICE}


def test_a_reading_changes_the_verdict_never_the_states():
    loaded = load_file(AUDIT / "slide-hero-into-trap-legal.yaml").definition
    finals = []
    for readings in ((), ("slide-enters-trap",)):
        state = initial_state(loaded, readings)
        for turn, actions in zip(loaded.log.turns, loaded.actions):
            state = RULES.step(state, BeginTurn(turn.hero)).state
            for action in actions:
                state = RULES.step(state, action).state
        finals.append((state.heroes["Bo"].hand, state.heroes["Bo"].damage, state.heroes["Bo"].at, state.pile))
    assert finals[0] == finals[1]


# -- the tracker ------------------------------------------------------------------------------
def test_the_tracker_is_an_adapter_found_by_the_registry():
    from sheetgen.games.shuffle import GAME, tracker
    from sheetgen.definitions.registry import tracker_for as adapter
    assert isinstance(tracker.ADAPTER, TrackerAdapter)
    assert adapter("shuffle") is tracker.ADAPTER and GAME.module("tracker") is tracker


def test_the_tracker_rolls_what_is_left_and_exports_in_notation(tmp_path):
    from sheetgen.games.shuffle import notation
    from sheetgen.games.shuffle.tracker import ADAPTER
    header = ADAPTER.start({"map": str(DATA / "cases" / "fight-win-legal.yaml")})
    state = ADAPTER.replay(header, [])
    step = ADAPTER.prepare(state, {"fight": {"monster": "rat"}}, random.Random(1))
    fight = notation.parse(step)
    assert isinstance(fight, Fight) and len(fight.hero_dice) == 1 and len(fight.monster_dice) == 1
    assert ADAPTER.prepare(state, {"fight": {"monster": "rat", "hero-dice": [6], "monster-dice": [1]}},
                           random.Random(1)) == {"fight": {"monster": "rat", "hero-dice": [6], "monster-dice": [1]}}
    assert ADAPTER.prepare(state, "draw", random.Random(1)) == "draw"
    steps = [{"fight": {"monster": "rat", "hero-dice": [6], "monster-dice": [1]}, "note": "first blood"},
             "halt"]
    for s in steps:
        state = ADAPTER.apply(state, s)
    out = tmp_path / "game.yaml"
    out.write_text(ADAPTER.export(header, steps, tmp_path))
    assert _run("check", out).exit_code == 0
    assert load_file(out).definition.actions == [[notation.parse(steps[0]), EndTurn()]]
    assert "first blood" in out.read_text()
    with pytest.raises(Illegal, match="fighting ended"):
        ADAPTER.apply(ADAPTER.replay(header, steps[:1]), "move west")

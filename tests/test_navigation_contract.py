"""Card-grid navigation through the engine contract (sheetgen.games.base): RULES.step
returns an Outcome for legal and illegal actions alike, apply raises Illegal, the
legal actions are the ones step accepts; the readings are typed (an unknown one is
refused, a declared one honoured, the judged one reported); the tracker is an ADAPTER."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import load_file
from sheetgen.games.base import Illegal, Judgement, Outcome, Rules, TrackerAdapter, Violation
from sheetgen.games.navigation.actions import (BeginTurn, EndTurn, Gain, Lose, Mirror, Move, MoveTo, Pay,
                                               PlaceToken, Resolve, Unresolve, Warp, Wrap)
from sheetgen.games.navigation.formats.playlog import initial_state
from sheetgen.games.navigation.readings import NavigationReading
from sheetgen.games.navigation.rules import RULES

DATA = Path(__file__).parent / "data" / "navigation"
AUDIT = DATA / "audit"


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _start(log: str = "door-key-illegal.yaml", player: str = "Ada", readings=()):
    """The state at the start of player's first turn in a case log's set-up (t-dungeon: Ada in hub)."""
    loaded = load_file(DATA / "cases" / log).definition
    return RULES.apply(initial_state(loaded, readings), BeginTurn(player))


# -- the engine contract --------------------------------------------------------------------
def test_rules_follow_the_contract():
    assert isinstance(RULES, Rules) and RULES.game == "navigation"
    state = _start()
    legal = RULES.step(state, Move("N"))
    assert isinstance(legal, Outcome) and legal.legal and legal.violations == ()
    assert legal.state.players["Ada"].room == "north" and legal.state.players["Ada"].moves == 1
    assert state.players["Ada"].room == "hub" and state.players["Ada"].moves == 0      # the state given is kept


def test_an_illegal_step_is_an_outcome_with_its_violations_and_the_state_followed_on():
    state = _start()                                     # Ada has no key; 'locked' east of hub has a west door
    out = RULES.step(state, Move("E"))
    assert not out.legal and [v.rule for v in out.violations] == ["nav.door-key"]
    assert all(isinstance(v, Violation) and v.line is None for v in out.violations)
    assert out.state.players["Ada"].room == "locked"    # the door passed without a key still moves her
    with pytest.raises(Illegal) as info:
        RULES.apply(state, Move("E"))
    assert info.value.rule == "nav.door-key" and info.value.exit_code == 1
    assert info.value.lenient.players["Ada"].room == "locked"


def test_a_turn_begins_and_ends_by_actions():
    state = _start()
    moved = RULES.apply(RULES.apply(state, Move("N")), Move("S"))
    assert moved.players["Ada"].moves == 2
    ended = RULES.apply(moved, EndTurn())
    assert ended.players["Ada"].moves == 0
    assert [v.rule for v in RULES.step(state, BeginTurn("Zed")).violations] == ["nav.player"]


def test_legal_actions_are_exactly_the_listed_actions_step_accepts():
    state = _start()
    listed = RULES.legal_actions(state)
    assert all(RULES.step(state, a).legal for a in listed)
    assert Move("N") in listed and Move("W") in listed and Move("E") not in listed    # no key for locked's door
    assert Pay("bomb") in listed and Pay("key") not in listed and EndTurn() in listed
    assert not any(isinstance(a, Warp) for a in listed)                               # hub is no warp room
    # after entering the hazard of 'trap' only resolving it is allowed (bookkeeping aside)
    hazard = RULES.apply(state, Move("S"))
    assert RULES.legal_actions(hazard) == [Resolve("disarm")]


# -- readings ---------------------------------------------------------------------------------
def test_an_unknown_reading_is_refused_with_a_suggestion():
    with pytest.raises(ValueError, match="did you mean 'pay-side-left'"):
        NavigationReading.parse(["pay-side-lft"])
    loaded = load_file(DATA / "cases" / "door-key-legal.yaml").definition
    with pytest.raises(ValueError, match="unknown reading 'nonsense'"):
        initial_state(loaded, ("nonsense",))


def _with_readings(tmp_path, name: str, readings: str) -> Path:
    """A copy of an audit log that declares readings (its dungeon still the audit map)."""
    log = tmp_path / name
    text = (AUDIT / name).read_text().replace("dungeon: maps/", f"dungeon: {AUDIT}/maps/")
    log.write_text(text.replace("players:", f"readings: {readings}\nplayers:"))
    return log


def test_an_unknown_reading_in_a_log_is_a_located_error(tmp_path):
    log = _with_readings(tmp_path, "own-door-inline-key-legal.yaml", "[pay-side-lefft]")
    result = _run("check", log)
    assert result.exit_code == 2
    assert f"{log}:8:12: readings[0]: unknown reading 'pay-side-lefft' (expected one of pay-side-left); " \
           "did you mean 'pay-side-left'?" in result.output, result.output


def test_a_declared_reading_is_honoured(tmp_path):
    # the key written with the move pays cell's own door: legal under pay-side-left only
    default = _with_readings(tmp_path, "own-door-inline-key-legal.yaml", "[]")
    result = _run("check", default, "--format", "json")
    report = json.loads(result.output)
    assert result.exit_code == 1 and [v["rule"] for v in report["violations"]] == ["nav.wrong-tool"]
    assert report["readings"] == [] and report["readings_declared"] is True
    assert "pay-side-left" in report["violations"][0]["message"]
    both = _with_readings(tmp_path, "own-door-key-not-wall-illegal.yaml", "[pay-side-left]")
    report = json.loads(_run("check", both, "--format", "json").output)
    assert [v["rule"] for v in report["violations"]] == ["nav.wall-bomb"]
    assert report["readings"] == ["pay-side-left"] and report["readings_declared"] is True


def test_the_reading_a_log_was_judged_by_is_reported():
    result = _run("check", AUDIT / "own-door-inline-key-legal.yaml", "--format", "json")
    report = json.loads(result.output)
    assert result.exit_code == 0 and report["readings"] == ["pay-side-left"] and report["readings_declared"] is False
    text = _run("check", AUDIT / "own-door-inline-key-legal.yaml").output
    assert "legal (navigation; readings: pay-side-left)" in text
    plain = json.loads(_run("check", DATA / "cases" / "door-key-legal.yaml", "--format", "json").output)
    assert plain["readings"] == []


def test_a_replay_tries_only_the_readings_it_consulted():
    from sheetgen.games.navigation.formats.playlog import check
    verdict = check(load_file(DATA / "cases" / "moves-4-illegal.yaml").definition)    # breaks no payment rule
    assert isinstance(verdict, Judgement) and verdict.replays == 1 and not verdict.legal
    verdict = check(load_file(AUDIT / "own-door-key-not-wall-illegal.yaml").definition)
    assert verdict.replays == 2 and verdict.readings == {NavigationReading.PAY_SIDE_LEFT}


def test_a_reading_changes_the_verdict_never_the_states():
    # both readings replay the same states: only the violations differ
    loaded = load_file(AUDIT / "own-door-inline-key-legal.yaml").definition
    finals = []
    for readings in ((), ("pay-side-left",)):
        state = RULES.apply(initial_state(loaded, readings), BeginTurn("Ada"))
        for action in loaded.actions[0]:
            state = RULES.step(state, action).state
        finals.append((state.players["Ada"], state.entered, state.tokens))
    assert finals[0] == finals[1]


# -- the tracker ------------------------------------------------------------------------------
def test_the_tracker_is_an_adapter_found_by_the_registry():
    from sheetgen.games.navigation import GAME, tracker
    from sheetgen.definitions.registry import tracker_for as adapter
    assert isinstance(tracker.ADAPTER, TrackerAdapter)
    assert adapter("navigation") is tracker.ADAPTER and GAME.module("tracker") is tracker


def test_the_tracker_exports_in_notation_what_it_recorded(tmp_path):
    from sheetgen.games.navigation import notation
    from sheetgen.games.navigation.tracker import ADAPTER
    header = ADAPTER.start({"map": str(DATA / "t-dungeon.yaml"), "hero": "Ada,Bo"})
    steps = ["go south", {"resolve": {"function": "disarm", "note": "the spikes"}}, {"turn": "Bo"},
             {"move": {"dir": "west", "use": "bomb"}}, "pass"]
    state = ADAPTER.replay(header, [])
    for step in steps:
        state = ADAPTER.apply(state, step)
    assert state.player == "Bo" and state.state.players["Bo"].bombs == 0
    out = tmp_path / "game.yaml"
    out.write_text(ADAPTER.export(header, steps, tmp_path))
    assert _run("check", out).exit_code == 0
    exported = load_file(out).definition
    assert exported.actions == [[notation.parse("move south"), Resolve("disarm", named="function")],
                                [Move("W", "bomb"), EndTurn()]]
    assert "the spikes" in out.read_text()
    with pytest.raises(Illegal, match="no player 'Zed'"):
        ADAPTER.apply(state, {"turn": "Zed"})


def test_the_tracker_cannot_draw_and_says_so(tmp_path):
    j = ["track", "--journal", tmp_path / "j.sqlite"]
    assert _run(*j, "new", "--ruleset", "navigation", "--map", DATA / "t-dungeon.yaml").exit_code == 0
    result = _run(*j, "render", "-o", tmp_path / "out")
    assert result.exit_code == 2 and "the navigation tracker cannot draw yet" in result.output


@pytest.mark.parametrize("action, rules", [
    (Move("N"), []), (Move("E"), ["nav.door-key"]),
    (MoveTo("north"), []), (MoveTo("hub"), ["nav.not-adjacent"]),
    (Wrap("N"), ["nav.wrap-edge"]), (Mirror("north"), ["nav.mirror"]), (Warp("warp-b"), ["nav.warp"]),
    (Pay("hp"), []), (Pay("bomb"), []), (Pay("key"), ["nav.door-key"]),
    (Resolve(), ["nav.resolve"]), (PlaceToken("elsewhere"), []), (Unresolve("north"), ["nav.unresolve-resolved"]),
    (Gain((("xp", 4), ("item", "magic-mirror"))), []), (Lose((("xp", 1),)), ["nav.resource"]), (EndTurn(), []),
], ids=repr)
def test_every_action_kind_steps_to_an_outcome(action, rules):
    # Ada in hub with no key and one bomb (t-dungeon)
    out = RULES.step(_start(), action)
    assert [v.rule for v in out.violations] == rules

"""A Foury journal's steps replayed without the play-log format's models (issue 25's first run):
a step already in the notation's own form is read by the notation alone.  That shortcut is
sound only if the notation reads back exactly what it writes, for every action a log can hold,
and if it never accepts a step the format refuses: both checked here over every step of every
Foury play log in tests/data (valid and invalid ones)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sheetgen.games.foury import notation
from sheetgen.games.foury.formats.playlog import step_action
from sheetgen.games.foury.tracker import journal_action

DATA = Path(__file__).resolve().parent / "data"


def _log_steps() -> list:
    steps = []
    for path in sorted(DATA.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "ruleset: foury" not in text or "kind: playlog" not in text:
            continue
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            continue                        # a deliberately broken file: no steps to take
        for rnd in (data or {}).get("rounds") or [] if isinstance(data, dict) else []:
            if isinstance(rnd, dict) and isinstance(rnd.get("steps"), list):
                steps.extend(rnd["steps"])
    return steps


STEPS = _log_steps()


def test_the_logs_hold_enough_steps_to_judge_by():
    assert len(STEPS) > 2000
    kinds = {next(iter(s)) if isinstance(s, dict) and s else s for s in STEPS if isinstance(s, (dict, str))}
    assert {"move", "fight", "collect", "exit", "market", "flee", "flood"} <= kinds


def _action(step):
    try:
        return step_action(step)
    except ValueError:
        return None


def test_every_action_written_by_the_notation_reads_back_the_same_through_both_paths():
    checked = 0
    for step in STEPS:
        action = _action(step)
        if action is None:
            continue
        written = notation.serialize(action)
        assert step_action(written) == action, written
        assert journal_action(written) == action, written
        checked += 1
    assert checked > 2000


def _mutations(value):
    """Small changes a hand (or a damaged journal) makes to a step: each leaf replaced by a
    wrong type or an out-of-range number, a key added or dropped."""
    if isinstance(value, dict):
        for key in value:
            for changed in _mutations(value[key]):
                yield {**value, key: changed}
            yield {k: v for k, v in value.items() if k != key}
        yield {**value, "extra": 1}
    elif isinstance(value, bool):
        yield "yes"
        yield not value
    elif isinstance(value, int):
        yield from (0, 7, -1, "3", 3.5)
    elif isinstance(value, str):
        yield from (value.lower(), value + "9", 4, "")
    elif isinstance(value, list):
        yield value[:1] * 2
        yield []


def _agree(step) -> str:
    action = _action(step)
    if action is None:
        with pytest.raises(ValueError):
            journal_action(step)
        return "refused"
    assert journal_action(step) == action, step
    return "read"


def test_the_shortcut_agrees_with_the_format_on_every_step():
    assert {_agree(step) for step in STEPS} == {"read"}


def test_the_shortcut_agrees_with_the_format_on_mutated_steps():
    seen: dict[str, int] = {}
    distinct = {repr(s): s for s in STEPS}.values()
    for step in distinct:
        written = notation.serialize(step_action(step))
        for changed in _mutations(written):
            verdict = _agree(changed)
            seen[verdict] = seen.get(verdict, 0) + 1
    assert seen.get("refused", 0) > 1000 and seen.get("read", 0) > 100


@pytest.mark.parametrize("step", [
    {"move": "C2", "roll": "four"},                     # a roll that is no number
    {"fight": {"hero": 3, "enemy": 4, "weapon": "maybe"}},
    {"move": "C2", "flee": True},                       # two actions in one step
    {"fight": {"hero": 3, "enemy": 4}, "enemy": "orc", "roll": 2},
    {"collect": ["chest", "chest"]},                    # several items: not one step here
])
def test_a_step_the_format_refuses_is_refused_by_the_replay_too(step):
    if _action(step) is not None:
        pytest.fail(f"the format accepts {step}: pick a step it refuses")
    with pytest.raises(ValueError):
        journal_action(step)

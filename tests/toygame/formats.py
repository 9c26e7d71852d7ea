"""The toy game's play log (`kind: playlog`, `ruleset: ladder`) and its check handler.

    sheetgen: 1
    kind: playlog
    ruleset: ladder
    length: 12
    readings: [bounce]          # optional: the readings this log follows
    steps: [{move: 4, to: 4}, {move: 6, to: 10}, {move: 2, to: 12}, win]
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from sheetgen.definitions.models import Strict, validate_model
from sheetgen.errors import InputError
from sheetgen.games.base import Handler, Judgement, Violation, judge

from . import notation
from .rules import RULES, LadderReading


class LadderLog(Strict):
    sheetgen: Literal[1]
    kind: Literal["playlog"]
    ruleset: Literal["ladder"]
    length: int = Field(ge=1, le=100)
    readings: list[str] | None = None
    steps: list[Any] = []


MODEL = LadderLog


class Loaded:
    def __init__(self, log, source, actions, lines, readings):
        self.log, self.source, self.actions, self.lines, self.readings = log, source, actions, lines, readings


def load(data, source) -> Loaded:
    log = validate_model(LadderLog, data, source.filename)
    problems, actions, lines = [], [], []
    readings = None
    if log.readings is not None:
        try:
            readings = LadderReading.parse(log.readings)
        except ValueError as exc:
            problems.append(source.problem(("readings",), str(exc)))
    for i, raw in enumerate(log.steps):
        try:
            actions.append(notation.parse(raw))
            lines.append(source.problem(("steps", i), "").line)
        except ValueError as exc:
            problems.append(source.problem(("steps", i), str(exc)))
    if problems:
        raise InputError(problems)
    return Loaded(log, source, actions, lines, readings)


def check(loaded: Loaded) -> Judgement:
    def replay(readings):
        state = RULES.new_game(loaded.log.length, readings)
        out = []
        for i, (action, line) in enumerate(zip(loaded.actions, loaded.lines)):
            outcome = RULES.step(state, action)
            out += [Violation(line, v.message, i + 1, v.rule) for v in outcome.violations]
            state = outcome.state
        if not state.won:
            out.append(Violation(loaded.lines[-1] if loaded.lines else None, "the log ends before the game is won",
                                 len(loaded.actions) or None, "game.unfinished"))
        return out, state.readings.consulted
    return judge(replay, loaded.readings)


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, check=check, models=lambda: MODEL)

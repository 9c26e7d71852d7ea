"""Play-log steps of the toy game <-> actions, both ways (`{move: 4, to: 9}`, `win`)."""
from __future__ import annotations

from .actions import Claim, Move


def parse(step) -> object:
    if step == "win":
        return Claim()
    if isinstance(step, dict) and set(step) == {"move", "to"} and all(type(v) is int for v in step.values()):
        return Move(step["move"], step["to"])
    raise ValueError("a step is {move: ROLL, to: SQUARE} or win")


def serialize(action) -> object:
    if isinstance(action, Claim):
        return "win"
    return {"move": action.roll, "to": action.to}

"""The toy game in the journal (`sheetgen track --ruleset ladder`): the TrackerAdapter contract."""
from __future__ import annotations

from sheetgen.errors import InputError
from sheetgen.games.base import Illegal, TrackerAdapter

from . import notation
from .rules import RULES

DEFAULT_LENGTH = 12


class LadderAdapter(TrackerAdapter):
    needs_map = False               # `track new --ruleset ladder` needs no map: --map is the length

    def start(self, params: dict) -> dict:
        length = params.get("map") or DEFAULT_LENGTH
        try:
            length = int(length)
        except ValueError:
            raise InputError(f"--map: the ladder's length is a number, not '{length}'") from None
        if not 1 <= length <= 100:
            raise InputError(f"--map: a ladder of {length} squares is not 1-100")
        return {"length": length}

    def replay(self, header: dict, steps: list):
        state = RULES.new_game(header["length"])
        for step in steps:
            state = RULES.apply(state, notation.parse(step))
        return state

    def apply(self, state, step: dict):
        try:
            action = notation.parse(step)
        except ValueError as exc:
            raise Illegal(str(exc)) from None
        return RULES.apply(state, action)

    def narrate(self, before, after, step: dict) -> list[str]:
        return ["you won"] if after.won else [f"square {before.at} -> square {after.at}"]

    def status(self, state) -> str:
        legal = sorted({str(notation.serialize(a)) for a in RULES.legal_actions(state)})
        return f"square {state.at} of {state.length}" + (" (won)" if state.won else "") + \
            "\nlegal now: " + (", ".join(legal) or "nothing")

    def export(self, header: dict, steps: list, relative_to=None) -> str:
        import yaml
        return yaml.safe_dump({"sheetgen": 1, "kind": "playlog", "ruleset": "ladder",
                               "length": header["length"], "steps": list(steps)}, sort_keys=False)


ADAPTER = LadderAdapter()

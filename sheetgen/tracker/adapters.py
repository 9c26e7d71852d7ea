"""The tracker adapter of a game, found through the registry (see sheetgen.games.base.TrackerAdapter)."""
from __future__ import annotations

from ..games.base import Illegal

StepRefused = Illegal       # the name the trackers and `sheetgen track` use for a refused step


def available() -> list[str]:
    from ..definitions.registry import games
    return sorted(name for name, game in games().items() if game.tracker)


def adapter(ruleset: str):
    """The journal adapter of the game called ruleset; StepRefused when it has none."""
    from ..definitions.registry import games
    game = games().get(ruleset)
    if game is None or not game.tracker:
        raise StepRefused(f"no tracker for ruleset '{ruleset}' (known: {', '.join(available())})")
    module = game.module("tracker")
    return getattr(module, "ADAPTER", module)      # a TrackerAdapter instance (or, still, a module of functions)

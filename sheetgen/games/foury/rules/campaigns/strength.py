"""The In and Out with Your Strength campaign's rules: caps at the full scale, the market between rounds."""
from __future__ import annotations


from ...tables import (STRENGTH)

from ..state import GameState, MARKET_EVERY_TURN
from ..steps import FouryRules


class Strength(FouryRules):
    """In and Out with Your Strength: the base game, but every track's full scale is open to
    every character (no beige hero extras): the caps are the full scale (`full_scale`)."""
    campaign = STRENGTH

    def market_open_inside(self, s: GameState) -> bool:
        # "At the end of each turn, you can always purchase additional resources at the market": by
        # default the base game's market between rounds (the texts call a round a turn: "treasures
        # are worth 4 in this final turn"); the reading 'market-every-turn' opens it after any turn
        return not s.engaged and s.readings.uses(MARKET_EVERY_TURN)



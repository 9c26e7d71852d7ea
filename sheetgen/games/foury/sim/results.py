"""What one simulated game gives: how it ended, its rounds, deaths, and a campaign's own figures.

The runner (four-round games) and the campaign games both return a GameResult;
stats.py folds them into integer counters.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sheetgen.errors import SheetgenError

# how a four-round game ends
WON, DIED, TRAPPED, LOST, NO_ENTRY = "won", "died", "trapped", "lost", "no entry"
OUTCOMES = (WON, DIED, TRAPPED, LOST, NO_ENTRY)
# how a campaign game ends (its goal reached is WON)
GOAL, FURIOUS, TIME_UP, SAFE, CLEARED = WON, "furious", "time up", "safe zone", "nothing left"
# why a round's requirement was not met (RoundRecord.why): the round ended first, or the policy
# stopped seeking it and went to the Oracle
DIED_FIRST, TRAPPED_FIRST, LOST_FIRST = "died first", "trapped first", "lost in the dungeon"
TOO_SLOW, CUT_OFF, NOTHING_LEFT, NOT_SOUGHT = "not reachable in time", "cut off", "nothing left to find", "not sought"
ORACLE_FIRST = "the Oracle on the way"
# why a hero was trapped (GameResult.trap): no arrow left to leave by, or collapses closed every way to one
NO_ARROW, WALLED_IN = "no exit arrow left", "collapses closed the way"


class SimulationError(SheetgenError):
    """The engine refused an action a policy chose (a policy bug): a clean message naming the
    game, so `sheetgen simulate --games 1 --seed S --logs DIR` can replay it, never a traceback."""
    exit_code = 2


@dataclass(slots=True)
class RoundRecord:
    zone: str | None
    round_no: int
    turns: int
    met: bool            # the requirement was met (the Oracle awakened)
    completed: bool
    why: str | None = None   # not met: why (DIED_FIRST ... NOT_SOUGHT)
    progress: int = 0        # not met: how far it got (statues faced, kills, levers, cornucopias)


@dataclass(slots=True)
class GameResult:
    outcome: str
    completed: int
    coin_used: bool
    death: tuple | None                  # (cause, zone, round, cell) of the last death or trap
    deaths: list = field(default_factory=list)   # every death (an INSERT COIN game may die twice)
    rounds: list = field(default_factory=list)
    explored: frozenset = frozenset()
    oracle_visits: int = 0
    resources: dict = field(default_factory=dict)
    actions: int = 0
    log: list | None = None              # the applied actions, when recorded
    figures: dict | None = None          # a campaign's own figures (kills, items, requirements ...)
    rolls: dict | None = None            # (zone, face) -> event rolls of that face on that zone's table
    trap: str | None = None              # trapped: why (NO_ARROW, WALLED_IN)

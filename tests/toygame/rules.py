"""The toy game's rules: pure, through the engine contract of sheetgen.games.base."""
from __future__ import annotations

from dataclasses import dataclass, replace

from sheetgen.games.base import Outcome, Reading, ReadingsInUse, Rules, broken

from .actions import Claim, Move


class LadderReading(Reading):
    BOUNCE = "bounce"           # an overshooting roll bounces back from the last square


@dataclass(frozen=True)
class State:
    length: int
    readings: ReadingsInUse
    at: int = 0
    won: bool = False


class LadderRules(Rules[State, object]):
    game = "ladder"

    def new_game(self, length: int, readings=()) -> State:
        return State(length=length, readings=ReadingsInUse(LadderReading.parse(readings)))

    def target(self, s: State, roll: int) -> int | None:
        end = s.at + roll
        if end <= s.length:
            return end
        if s.readings.uses(LadderReading.BOUNCE):
            return s.length - (end - s.length)
        return None                         # overshooting: the piece stays

    def step(self, s: State, a) -> Outcome[State]:
        if s.won:
            return Outcome(s, (broken("game.over", "the game is won: nothing more can happen"),), False)
        if isinstance(a, Claim):
            if s.at == s.length:
                return Outcome(replace(s, won=True))
            return Outcome(s, (broken("claim.early", f"the piece is on square {s.at}, not on the last "
                                                     f"square {s.length}"),), False)
        if not 1 <= a.roll <= 6:
            return Outcome(s, (broken("roll.d6", f"roll {a.roll} is not a d6 result (1-6)"),), False)
        end = self.target(s, a.roll)
        if end is None:
            if a.to == s.at:
                return Outcome(s)
            return Outcome(replace(s, at=a.to), (broken("move.overshoot", f"a roll of {a.roll} from square {s.at} "
                           f"overshoots square {s.length}: the piece stays on {s.at}"),))
        if a.to != end:
            return Outcome(replace(s, at=a.to), (broken("move.count", f"a roll of {a.roll} from square {s.at} "
                                                         f"reaches square {end}, not {a.to}"),))
        return Outcome(replace(s, at=end))

    def legal_actions(self, s: State):
        if s.won:
            return []
        moves = [Move(r, t) for r in range(1, 7) if (t := self.target(s, r)) is not None]
        moves += [Move(r, s.at) for r in range(1, 7) if self.target(s, r) is None]
        return moves + ([Claim()] if s.at == s.length else [])


RULES = LadderRules()

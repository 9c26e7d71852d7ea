"""Santa's campaign's rules: the hourglass, packages and candy canes."""
from __future__ import annotations


from ...board import DELTA, Coord, neighbour
from ...tables import (SANTA, SANTA_COUNTERS, SANTA_TURNS)

from ..state import GameState, StepContext, fmt_cell
from ..steps import FouryRules


class Santa(FouryRules):
    """Santa Crash'n Foury: one round from a start next to Santa's room, against the hourglass
    (the map's `turns:`, else 40); packages, reindeer, Rudolph and the sleigh are collected; a
    candy cane distracts the Yeti or the Grinch (removed, not a kill); the Grinch's hit destroys a
    green package, the Yeti's a blue one; a star gives 4 free steps "marking only 1 turn"."""
    campaign = SANTA
    paid_steps_mark_turn = False
    clock = True

    def setup(self, s: GameState) -> None:
        for k in SANTA_COUNTERS:
            s.res[k] = 0

    def turn_limit(self, s: GameState) -> int:
        return getattr(s.board, "turns", None) or SANTA_TURNS

    def check_start(self, s: GameState, start: Coord, ctx: StepContext) -> None:
        b = s.board
        if start not in (b.start,) and not any(
                b.is_centre(neighbour(start, side)) for side in DELTA) and not b.is_centre(start):
            ctx.soft("santa.start", f"Santa's start is a coloured space next to Santa's room, not {fmt_cell(start)}")

    def check_clock(self, s: GameState, ctx: StepContext) -> None:
        if s.turns > self.turn_limit(s):
            ctx.soft("santa.time", "every hourglass space is marked: time is up, the campaign is over")



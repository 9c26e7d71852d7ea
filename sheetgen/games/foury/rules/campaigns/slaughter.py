"""The Slaughter campaign's rules: Fury boxes instead of losses, strength +0, a cornucopia every third kill,
at most 48 enemies."""
from __future__ import annotations


from ...board import Coord
from ...tables import (FURY_BOXES, KILLS_PER_CORNUCOPIA,
                     RESOURCES, SLAUGHTER, SLAUGHTER_MAX)

from ..state import DEAD, GameState, HardBreak, INSIDE, START, StepContext, fmt_cell, gain_resource
from ..steps import FouryRules


# -- the campaigns ------------------------------------------------------------------------------
class Slaughter(FouryRules):
    """The Slaughter of Monsters: one endless round from the black triangle (no arrows: every
    entrance has collapsed); monsters fight at +0; a cornucopia every third kill; at most 48
    enemies.  Fury: each time the hero must give up resources, Fury boxes (5, at the end of the
    Life row) may be blacked out instead (a lethal hit, the weapon point); at the fifth the hero
    is Furious: every monster of the sector is erased and counted as a kill, and the game ends.
    In a log, `fight: {fury: N}` pays hearts first, then the weapon point; or (the issue's fight
    has no such key) a `sheet` showing N more Fury boxes and the resources kept settles it (a
    Bandit's theft may be paid too)."""
    campaign = SLAUGHTER

    def round_bonus(self, s: GameState) -> int:
        return 0

    def max_enemies(self, s: GameState) -> int:
        return getattr(s.board, "max_enemies", None) or SLAUGHTER_MAX

    def check_start(self, s: GameState, start: Coord, ctx: StepContext) -> None:
        if s.phase != START:
            raise HardBreak("round.one", "The Slaughter of Monsters is one endless round")
        # "The path starts at the center of the Map, where you find the Black Start triangle"
        b = s.board
        triangle = b.start if b.start is not None else None
        if triangle is not None and start != triangle:
            ctx.soft("slaughter.start", f"the path starts at the black start triangle in {fmt_cell(triangle)}, "
                     f"at the centre of the map, not in {fmt_cell(start)}")
        elif triangle is None and not b.is_centre(start) and b.centre_cells():
            ctx.soft("slaughter.start", f"the path starts at the centre of the map (the black start triangle), "
                     f"not in {fmt_cell(start)}")

    def monster_may_appear(self, s: GameState) -> bool:
        return s.kills_total < self.max_enemies(s)

    def before_fight(self, s: GameState) -> None:
        if s.kills_total >= self.max_enemies(s):
            raise HardBreak("slaughter.max", f"{self.max_enemies(s)} enemies have been met: the slaughter is over")

    def kill_cornucopias(self, s: GameState) -> int:
        return 1 if s.kills_total % KILLS_PER_CORNUCOPIA == 0 else 0

    def black_out_fury(self, s: GameState, n: int, ctx: StepContext) -> None:
        if n <= 0:
            return
        if s.fury + n > FURY_BOXES:
            ctx.soft("fury.full", f"only {FURY_BOXES - s.fury} Fury box(es) left to black out")
            n = FURY_BOXES - s.fury
        s.fury += n
        if s.fury >= FURY_BOXES:
            # Furious: roam the sector and erase every monster in it; they count as kills
            zone = s.board.zone_of(s.pos) if s.pos is not None else None
            gone = []
            for c in s.board.all_cells() if hasattr(s.board, "all_cells") else s.board.cells:
                if s.board.zone_of(c) != zone:
                    continue
                foe = s.enemy_at(c)
                if foe is not None and foe not in ("statue", "kraken"):
                    gone.append((c, foe))
            sp = dict(s.spawned)
            for c, foe in gone:
                if c in sp:
                    del sp[c]
                else:
                    s.removed = s.removed | {(c, foe)}
            s.spawned = sp
            s.kills += len(gone)
            s.kills_total += len(gone)
            s.phase = DEAD
            s.engaged = False

    def settle_claims(self, s: GameState, claims: dict, ctx: StepContext) -> None:
        """Fury boxes blacked out instead of losses the log's steps did not say (the issue's fight
        has no such key): the sheet shows more Fury boxes and the resources kept."""
        if "fury" not in claims:
            return
        claimed = claims.get("fury")
        if not isinstance(claimed, int) or isinstance(claimed, bool) or claimed <= s.fury:
            return
        n = claimed - s.fury
        if n > FURY_BOXES - s.fury:
            return
        kept = {}
        for k in RESOURCES:
            v = claims.get(k)
            if isinstance(v, int) and not isinstance(v, bool) and v > s.res.get(k, 0):
                kept[k] = v - s.res.get(k, 0)
        thefts = n - sum(kept.values())
        if thefts < 0:
            return
        if thefts > s.theft and s.phase != DEAD:
            return
        # (a blow that took the last heart may have been bigger than the hearts left: boxes pay it all)
        s.theft -= min(thefts, s.theft)
        for k, v in kept.items():
            gain_resource(s, k, v)
        if s.phase == DEAD and s.res.get("hearts", 0) > 0 and s.fury < FURY_BOXES:
            s.phase = INSIDE
            s.engaged = s.pos is not None and s.enemy_at(s.pos) is not None
        self.black_out_fury(s, n, ctx)



"""The Kraken campaign's rules: floods, swimming, the immortal Kraken, all four requirements in one round."""
from __future__ import annotations


from ...actions import (Circle, Flood, Move,
                      Shovel)
from ...board import DELTA, Coord, neighbour
from ...tables import (FLOOD_EVERY, KRAKEN, OPPOSITE_ZONE, REQUIREMENT_COUNT, SWIM_LIMIT)

from ..state import (BETWEEN, DEAD, GameState, HardBreak, INSIDE, START, StepContext, dict_with, fmt_cell,
                     require_inside, requirement_count)
from ..steps import FouryRules


def _match(left: list, edges: dict) -> int:
    """The size of a maximum matching of `left` (each to one of edges[item], none shared)."""
    owner: dict = {}

    def augment(item, seen):
        for r in edges.get(item, ()):
            if r not in seen:
                seen.add(r)
                if r not in owner or augment(owner[r], seen):
                    owner[r] = item
                    return True
        return False

    return sum(1 for item in left if augment(item, set()))


class Kraken(FouryRules):
    """Discovering the Kraken: the Kraken in the centre in place of the Oracle (strength +6,
    immortal: beating it may be counted as a kill or not; a fight with it in its water is
    accepted wherever the hero swims); swimming into water joined to it, or the water reaching
    the hero, means facing it.  One round through one arrow in which all four requirements count
    (anywhere); exit on the side opposite the zone where the last requirement was completed (A/C,
    B/D face each other; for a lever pulled last, the lever's zone or the stairs' zone where the
    hero stood).  The floods are `flood: [CELL, ...]` steps: one after turns 5, 10 ... (counted
    the fewer way), written before the next turn starts (else kraken.flood_due, once per flood;
    a flood with no free space to reach needs none); each flooded space connected to the Kraken
    floods one adjacent free space (two may pour into the same one): every space written is
    fed by a source of its own (kraken.flood_many) and no source with a free space beside it
    stays dry (kraken.flood_few).  While a written flood is overdue an unexplored cell next to
    the Kraken's water may be entered without a roll (the water got there).  At most 5 backtracking moves in a row; the 6th swim in a row is death.
    "No cave-ins": collapse events do nothing.  One market, at an exit's cell during the game or
    after the exit, at x(requirements done); `requirement: {statues: N}` (or a zone letter) is
    that kind's progress, `requirement: N` the entered zone's kind or the number done."""
    campaign = KRAKEN
    swim_free = True
    clock = True
    water = True
    oracle_in_centre = False
    market_once = True
    market_where = " (in Discovering the Kraken: at an exit's cell)"

    def setup(self, s: GameState) -> None:
        s.flooded = s.flooded | frozenset(s.board.centre_cells())

    def requirements_done(self, s: GameState) -> list[str]:
        """The requirement kinds done (all four count in the one round)."""
        return [k for k in REQUIREMENT_COUNT if s.kprogress.get(k, 0) >= requirement_count(s.board, k)]

    def water_of(self, s: GameState) -> frozenset:
        """The water joined to the Kraken's lair (the flood's sources)."""
        centre = s.board.centre_cells()
        seen = set(centre)
        todo = list(centre)
        while todo:
            c = todo.pop()
            for d in DELTA:
                n = neighbour(c, d)
                if n in s.flooded and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    def floods_due(self, s: GameState) -> int:
        """Floods due by now: every 5 turns, however the free moves were counted."""
        return max(s.turns, s.turns_hi) // FLOOD_EVERY

    def check_round_start(self, s: GameState, zone: str | None, ctx: StepContext) -> None:
        if s.phase != START:
            ctx.soft("kraken.one_round", "Discovering the Kraken is played in one go: one entry, one exit")

    def unwritten_flood(self, s: GameState, to: Coord) -> bool:
        if s.floods_done >= self.floods_due(s):
            return False
        water = self.water_of(s)
        return any(neighbour(to, d) in water for d in DELTA)

    def check_clock(self, s: GameState, ctx: StepContext) -> None:
        limit = getattr(s.board, "turns", None)
        if limit and s.turns > limit:
            ctx.soft("kraken.time", "every hourglass space is marked: the Kraken is out")
        # "Every 5 turns ... flood": the flood of turns 5, 10 ... is written (a `flood` step) before
        # the next turn starts, counting turns the fewer way (free moves one turn); a flood with no
        # space left to reach needs no step
        owed = (s.turns - 1) // FLOOD_EVERY
        while s.floods_done < owed and not self.flood_targets(s):
            s.floods_done += 1
        if s.floods_done < owed and s.floods_flagged < owed:
            missing = owed - max(s.floods_done, s.floods_flagged)
            s.floods_flagged = owed
            ctx.soft("kraken.flood_due", f"turn {s.turns} starts, yet {missing} flood(s) of the Kraken's water "
                     f"are not written (every 5 turns: a `flood: [CELL, ...]` step after turn "
                     f"{FLOOD_EVERY * owed})")

    def count_swim(self, s: GameState, to: Coord, free: bool, ctx: StepContext) -> None:
        # backtracking and swimming are limited to 5 spaces
        if to in s.flooded:
            s.swim += 1
            if s.swim > SWIM_LIMIT:
                s.phase = DEAD
                s.res = dict(s.res, hearts=0)
        else:
            s.swim = 0
        if free and to not in s.flooded:
            s.backtrack += 1
            if s.backtrack > SWIM_LIMIT:
                ctx.soft("kraken.backtrack", "backtracking is limited to 5 spaces in a row")
        else:
            s.backtrack = 0

    def swim_into_water(self, s: GameState, to: Coord) -> str | None:
        if to in s.flooded and s.origin not in s.flooded and to in self.water_of(s):
            s.spawned = dict_with(s.spawned, to, "kraken")     # swimming into its water: face the Kraken
            return "kraken"
        return None

    def foe_in_water(self, s: GameState, pos: Coord) -> str | None:
        if pos in s.flooded and pos in self.water_of(s):
            s.spawned = dict_with(s.spawned, pos, "kraken")   # "if you swim through flooded spaces, you'll face the Kraken"
            return "kraken"
        return None

    def count_requirement(self, s: GameState, kind: str, where: Coord | None = None) -> None:
        zone = s.board.zone_of(s.pos) if s.pos is not None else None
        kp = dict(s.kprogress)
        target = REQUIREMENT_COUNT[kind]
        for z in s.board.zones.values():
            if z.requirement_kind == kind and z.requirement_count:
                target = z.requirement_count
        if kp.get(kind, 0) < target:
            kp[kind] = kp.get(kind, 0) + 1
            if kp[kind] == target:
                s.last_req_zone = zone
                s.last_req_alt = s.board.zone_of(where) if where is not None else None
        s.kprogress = kp

    def cornucopia_obtained(self, s: GameState) -> None:
        self.count_requirement(s, "cornucopias")

    def exit_offered(self, s: GameState, cell: Coord) -> bool:
        return True

    def check_exit(self, s: GameState, zone: str | None, ctx: StepContext) -> None:
        b = s.board
        done = self.requirements_done(s)
        if len(done) < 4:
            ctx.soft("kraken.requirements", "the gates close only when all four requirements are done "
                     f"(done: {', '.join(done) or 'none'})")
        elif s.last_req_zone is not None:
            want = OPPOSITE_ZONE.get(s.last_req_zone)
            alt = OPPOSITE_ZONE.get(s.last_req_alt)     # a lever: opposite its own zone is accepted too
            if want in b.zones and zone != want and zone != alt:
                ctx.soft("kraken.exit_side", f"the last requirement was done in zone {s.last_req_zone}: exit on "
                         f"the opposite side, through zone {want}")
            elif want not in b.zones and zone == s.last_req_zone:
                ctx.soft("kraken.exit_side", f"exit on another side than zone {zone}, where the last requirement "
                         "was done")

    def end_round(self, s: GameState) -> None:
        s.phase = BETWEEN
        s.market_done = False

    def chest_value(self, s: GameState, next_rate: bool = False) -> int:
        return max(1, len(self.requirements_done(s)))

    def market_open_inside(self, s: GameState) -> bool:
        return s.pos is not None and any(c == s.pos for c, _ in s.board.entries)

    def flood_choice(self, s: GameState) -> tuple:
        """A flood as the rule wants it: one free space beside each source not yet fed."""
        chosen: list = []
        targets = self.flood_targets(s)
        for src in sorted(targets, key=lambda c: (c[1], c[0])):
            if not set(targets[src]) & set(chosen):
                chosen.append(min(targets[src], key=lambda c: (c[1], c[0])))
        return tuple(chosen)

    def legal_actions(self, s: GameState) -> list:
        out = super().legal_actions(s)
        if s.phase != INSIDE or s.engaged or s.floods_done >= self.floods_due(s) or not self.flood_targets(s):
            return out
        # a flood is due: offered, and the moves that would start a turn without it are not
        out = [a for a in out if not isinstance(a, (Move, Shovel, Circle))
               or not self._owes_flood(s, a)]
        return out + [Flood(self.flood_choice(s))]

    def _owes_flood(self, s: GameState, a) -> bool:
        ctx = StepContext()
        try:
            self._handlers[type(a)](s.copy(), a, ctx)
        except HardBreak:
            return False
        return any(rule == "kraken.flood_due" for rule, _ in ctx.problems or ())

    def flood_targets(self, s: GameState) -> dict:
        """Each flooded space connected to the Kraken -> the adjacent spaces free to flood (on the
        map, not rock, not water yet; walls do not hold the water back: the text names none)."""
        b = s.board
        out = {}
        for c in self.water_of(s):
            free = [n for n in (neighbour(c, d) for d in DELTA)
                    if b.on_board(n) and not b.is_rock(n) and n not in s.flooded]
            if free:
                out[c] = free
        return out

    def _flood(self, s: GameState, a: Flood, ctx: StepContext) -> None:
        require_inside(s, "flood")
        due = self.floods_due(s)
        early = s.floods_done >= due
        if early:
            ctx.soft("kraken.flood_early", f"the water spreads every 5 turns (turn {s.turns} now)")
        sources = self.water_of(s)
        targets = self.flood_targets(s)
        cells = list(dict.fromkeys(a.cells))
        far = False
        for c in cells:
            if c in s.flooded:
                far = True
                ctx.soft("kraken.flood_far", f"{fmt_cell(c)} is flooded already: the water spreads to a new space")
            elif not any(neighbour(c, d) in sources for d in DELTA) or not s.board.on_board(c) or s.board.is_rock(c):
                far = True
                ctx.soft("kraken.flood_far", f"{fmt_cell(c)} is not next to water connected to the Kraken")
        if not far and not early:
            # "starting from each flooded space connected to the Kraken, flood one adjacent space": every
            # space written is one source's flood (a source floods one space), and every source with a
            # free space beside it floods one (two sources may pour into the same space)
            fed = _match(cells, {c: [n for n in (neighbour(c, d) for d in DELTA) if n in targets] for c in cells})
            if fed < len(cells):
                ctx.soft("kraken.flood_many", f"{len(cells)} spaces flooded, but each flooded space connected to "
                         f"the Kraken floods one space: these have only {fed} such space(s) beside them")
            dry = sorted((c for c, free in targets.items() if not set(free) & set(cells)), key=lambda c: (c[1], c[0]))
            if dry:
                ctx.soft("kraken.flood_few", "each flooded space connected to the Kraken floods one adjacent space: "
                         + "; ".join(f"{fmt_cell(c)} floods none of {', '.join(fmt_cell(n) for n in targets[c])}"
                                     for c in dry))
        s.flooded = s.flooded | frozenset(a.cells)
        s.floods_done += 1
        if s.pos in a.cells:
            s.engaged = True      # the water reaches you: face the Kraken
            s.spawned = dict_with(s.spawned, s.pos, "kraken")

    def requirement_claim_ok(self, s: GameState, claimed) -> bool:
        # one round for all four: the entered zone's boxes, or how many requirements are done
        return claimed in (s.kprogress.get(s.kind, 0), len(self.requirements_done(s)))

    def zone_requirement(self, s: GameState, zone: str, kinds: dict) -> int:
        return s.kprogress.get(kinds.get(zone), 0)



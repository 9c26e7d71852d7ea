"""Dungeon Foury rules: FouryRules, the base game (The Ancient Story), one handler per step kind (enter, move,
fight, flee, collect, ...) and the hooks each campaign overrides (sheetgen.games.foury.rules.campaigns)."""
from __future__ import annotations

from typing import Any, Iterable

from ...base import Illegal, Outcome, ReadingsInUse, Rules, broken
from ..actions import (Candy, Circle, Climb, Coin, Collect, Enter, Exit, Fight, Flee, Flood, Lever, Market, Move,
                      Oracle, Redeem, Score, Sheet, Shovel)
from ..board import DELTA, ENEMIES, OPPOSITE, Board, Coord, direction, neighbour, relative_side, wall_key
from ..heroes import TRAITS, Hero, check_free_traits
from ..tables import (ANCIENT, COLLECT_GAIN, EXTRA_STEPS, RESOURCE_ITEMS, RESOURCES, ROUND_BONUS, CHEST_VALUE,
                     Campaign,
                     foe_strength)

from .state import (BETWEEN, COIN_RESET, DEAD, FOES, FouryReading, GameState, HardBreak, INSIDE, KAEL_ENEMIES,
                    MONSTER_TOO, ORACLE_EXIT_ROLLED, ORACLE_ROUND_ZONE, OVER, POTION_STEP_KEPT, START,
                    StepContext, WEAPON_ONCE, begin_round_state, check_death, dict_with, end_combat, fmt_cell,
                    gain_resource, leave_combat, may_flee, require_alive, require_inside, rob, spend_extra,
                    violations_of, visit_oracle)
from .sheet import (SHEET_KEYS, arrow_named, blank_walls, canon_walls, canonical, edge_named,
                    settle_cornucopias, settle_theft, sheet_value)


# -- the rules --------------------------------------------------------------------------
class FouryRules(Rules):
    """The base game, The Ancient Story: four rounds, each in through an arrow of its zone and out
    through another zone's arrow once the Oracle was visited.  Campaigns subclass it and override
    the hooks (the methods without a leading underscore) and the class flags below."""
    game = "foury"
    campaign: Campaign = ANCIENT
    # what a campaign changes in play, as class flags (quick to test on the hot path)
    swim_free = False               # entering a flooded cell is never rolled (else: optional)
    paid_steps_mark_turn = True     # an extra step marks the hourglass in the every-step reading
    clock = False                   # the hourglass limits the game: check_clock after each new turn
    water = False                   # the Kraken's water: swims and backtracks counted, the Kraken faced
    oracle_in_centre = True         # reaching the centre room is visiting the Oracle
    market_once = False             # one market in the whole game (and none after it)
    market_where = ""               # where else the market opens, for its message

    def __init__(self):
        self._handlers = {
            Enter: self._enter, Move: self._move, Fight: self._fight, Flee: self._flee, Collect: self._collect,
            Redeem: self._redeem, Shovel: self._shovel, Circle: self._circle, Climb: self._climb,
            Lever: self._lever, Oracle: self._oracle, Exit: self._exit, Market: self._market, Coin: self._coin,
            Flood: self._flood, Candy: self._candy, Sheet: self._sheet, Score: self._score,
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # -- the contract -------------------------------------------------------------
    def new_game(self, board: Board, hero: Hero, readings: Iterable[Any] | ReadingsInUse = ()) -> GameState:
        """A new game on board; readings: FouryReading members or their names (ValueError for
        an unknown one), or a ReadingsInUse that records what the game consults."""
        if not isinstance(readings, ReadingsInUse):
            readings = ReadingsInUse(FouryReading.parse(readings))
        s = GameState.__new__(GameState)
        s.rules = self
        s.readings = readings
        s.theft = 0                    # Bandit thefts the log did not name: resolved by the next sheet
        s.weapon_due = False           # weapon-once reading: the weapon point is paid when the combat ends
        s.lever_at = None              # the lever just pulled from the upper level (a next move may start there)
        s.kills_last = 0               # the kill counter of the round last completed (reset at its exit)
        s.board = board
        s.hero = hero
        s.res = {k: 0 for k in RESOURCES}
        s.res.update(dict(hero.traits))
        s.caps = dict(hero.caps)
        s.phase = START
        s.pos = None
        s.facing = None
        s.entry = None
        s.round_no = 1
        s.completed = 0
        s.zone = None
        s.kind = None
        s.progress = 0
        s.awakened = False
        s.visited = False
        s.oracle_chest = False
        s.explored = frozenset()
        s.walls = frozenset()          # collapsed walls (canonical keys)
        s.erased = frozenset()         # printed walls erased (never: shovels erase collapsed walls only)
        s.rooms = frozenset()          # collapsed rooms
        s.flooded = frozenset(c for c, items in board.items.items() if "flooded" in items) | frozenset(
            getattr(board, "flooded", ()) or ())
        s.removed = frozenset()        # (cell, item) collected, beaten or destroyed
        s.spawned = {}                 # cell -> enemy type put there by events
        s.engaged = False              # an active foe in the hero's cell must be faced
        s.fled = False
        s.last = None                  # last fight outcome in this cell: win | tie | blocked | hit
        s.faced = frozenset()          # statue cells faced this round (requirement A)
        s.extra = 0
        s.extra_may = 0
        s.kills = 0
        s.kills_total = 0
        s.used_entries = frozenset()
        s.zones_done = frozenset()
        s.coin_used = False
        s.turns = 0
        s.turns_hi = 0                 # turns if every move not paid by an extra step is a turn of its own
        s.turn_open = False
        s.upper = False
        s.levers = frozenset()
        s.trolls = frozenset()         # troll cells beaten this round: back at its end
        s.words = ()
        s.chest_here = None            # the cell where a chest event just gave its chest
        s.found_here = ()              # items a `find` event gave in this room: a `collect` of one is that one
        s.elydion_used = False
        s.fury = 0
        s.swim = 0
        s.backtrack = 0
        s.floods_done = 0
        s.floods_flagged = 0           # kraken: floods reported missing (each reported once)
        s.kprogress = {}               # kraken: requirement kind -> progress
        s.last_req_zone = None
        s.kraken_wins = 0              # the Kraken beaten: a kill on the counter, or not (immortal)
        s.last_req_alt = None          # kraken: the zone of the lever pulled last (it, or where the hero stood)
        s.market_done = False
        s.origin = None
        s.rounds_log = ()
        self.setup(s)
        return s

    def step(self, state: GameState, action) -> Outcome:
        """The state after action and every rule it breaks (never raises for a broken rule)."""
        handler = self._handlers.get(type(action))
        if handler is None:
            return Outcome(state, (broken("action.unknown", f"unknown action {action!r}"),), False)
        ctx = StepContext()
        s = state.copy()
        try:
            handler(s, action, ctx)
        except HardBreak as h:
            return Outcome(state, violations_of(ctx, h), False)
        if ctx.problems:
            return Outcome(s, violations_of(ctx), True)
        return Outcome(s)

    def apply(self, state: GameState, action) -> GameState:
        """The state after a legal action; base.Illegal (with .lenient where the step can be
        followed) for an illegal one.  (The same handlers as step, without an Outcome: the hot path.)"""
        handler = self._handlers.get(type(action))
        if handler is None:
            raise Illegal([broken("action.unknown", f"unknown action {action!r}")])
        ctx = StepContext()
        s = state.copy()
        try:
            handler(s, action, ctx)
        except HardBreak as h:
            raise Illegal(violations_of(ctx, h)) from None
        if ctx.problems:
            raise Illegal(violations_of(ctx), s)
        return s

    def is_legal(self, state: GameState, action) -> bool:
        """Whether action breaks no rule (cheaper than step: no violations are built)."""
        handler = self._handlers.get(type(action))
        if handler is None:
            return False
        ctx = StepContext()
        try:
            handler(state.copy(), action, ctx)
        except HardBreak:
            return False
        return not ctx.problems

    def legal_actions(self, s: GameState) -> list:
        """The actions open now (moves carry roll=None; use state.roll_due(to) to know if a roll is due)."""
        out: list = []
        b = s.board
        if s.phase == DEAD:
            return [Coin()] if not s.coin_used else []
        if s.phase == OVER:
            return [Market()] if not self.market_once else []
        if s.phase in (START, BETWEEN):
            if not self.campaign.exits:
                return [Enter(start=b.start)] if s.phase == START else []
            for cell, side in b.entries:
                if (cell, side) not in s.used_entries and b.zone_of(cell) not in s.zones_done:
                    out.append(Enter(entry=(cell, side)))
            if s.phase == BETWEEN:
                out.append(Market())
            return out
        pos = s.pos
        foe = s.enemy_at(pos) if pos is not None else None
        if s.engaged and foe is not None:
            out.append(Fight(0, 0))
            if may_flee(s):
                out.append(Flee())
            if foe in ("yeti", "grinch") and s.res.get("candy canes", 0):
                out.append(Candy())
            return out
        if pos is None:
            return [Move(s.entry[0])]
        for side in DELTA:
            n = neighbour(pos, side)
            if not b.on_board(n) or b.is_rock(n) or n in s.rooms:
                continue
            if not s.has_wall(pos, side):
                out.append(Move(n))
            elif wall_key(pos, side) in s.walls and s.res.get("shovels", 0) > 0:
                out.append(Shovel(pos, side))
        if foe is None:
            for item in s.items_at(pos):
                if item in COLLECT_GAIN or item in EXTRA_STEPS or item == "die":
                    out.append(Collect(item))
        if "stairs" in b.items.get(pos, ()):
            out.append(Climb())
        if s.upper:
            for c, items in b.items.items():
                if "lever" in items and c not in s.levers:
                    out.append(Lever(c))
        if "magic circle" in b.items.get(pos, ()):
            for c, items in b.items.items():
                if "magic circle" in items and c != pos:
                    out.append(Circle(c))
        if b.is_centre(pos):
            out.append(Oracle())
        for cell, side in b.entries:
            if cell == pos and (cell, side) not in s.used_entries and self.exit_offered(s, cell):
                out.append(Exit(cell, side))
        if s.res.get("cornucopias", 0):
            out.extend(Redeem(t) for t in TRAITS)
        return out

    # -- hooks: what a campaign may change -------------------------------------------------
    def setup(self, s: GameState) -> None:
        """A new game's campaign state (counters, water)."""

    def monster_types(self, s: GameState, pos: Coord | None) -> tuple[str, ...]:
        """The enemy types the monster in pos may be named as (a fight's `type`): a monster printed
        on the map may be named (the log says which picture it is); a monster an event or the die
        put there is a plain monster and is named nothing; the Yeti and the Grinch are Santa's,
        the Kraken only its own map's centre."""
        if pos is None or s.enemy_at(pos) != "monster" or pos in s.spawned:
            return ()
        return tuple(e for e in ENEMIES if e != "kraken" and (e not in ("yeti", "grinch") or self.campaign.collection))

    def full_scale(self, board: Board) -> bool:
        """Are the hero's caps the full scale of the tracks (no hero extras on this map's sheet)?"""
        return self.campaign.full_scale or not getattr(board, "hero_extras", True)

    def round_bonus(self, s: GameState) -> int:
        """What a monster adds to its die this round (+0 .. +3)."""
        return ROUND_BONUS[min(s.round_no, 4) - 1]

    def strength(self, s: GameState, foe: str) -> int:
        """What foe adds to its die (statues and the Goblin +0, the Kraken +6, the Minotaur twice the round's)."""
        return foe_strength(foe, self.round_bonus(s))

    def check_start(self, s: GameState, start: Coord, ctx: StepContext) -> None:
        """A campaign without exits: is start its start cell (and may a round start now)?"""

    def check_round_start(self, s: GameState, zone: str | None, ctx: StepContext) -> None:
        """A round entering through an arrow of zone: is that zone's round still to play?"""
        if zone in s.zones_done:
            ctx.soft("round.zone_done", f"the round of zone {zone} was already completed")

    def unwritten_flood(self, s: GameState, to: Coord) -> bool:
        """Could a flood the log did not write have reached the unexplored cell `to`?"""
        return False

    def check_clock(self, s: GameState, ctx: StepContext) -> None:
        """After a new turn (campaigns with a clock): is the hourglass full?"""

    def count_swim(self, s: GameState, to: Coord, free: bool, ctx: StepContext) -> None:
        """After a move (campaigns with water): spaces swum and backtracked in a row."""

    def monster_may_appear(self, s: GameState) -> bool:
        """May a monster event still put a monster on the map?"""
        return True

    def before_fight(self, s: GameState) -> None:
        """Raise HardBreak if no fight may happen now."""

    def foe_in_water(self, s: GameState, pos: Coord) -> str | None:
        """A foe met by swimming (the Kraken in its water), put in pos; None if none."""
        return None

    def black_out_fury(self, s: GameState, n: int, ctx: StepContext) -> None:
        """n Fury boxes blacked out instead of losses (only campaigns with Fury boxes get here)."""

    def kill_cornucopias(self, s: GameState) -> int:
        """Cornucopias a kill gives on top of a Bandit's."""
        return 0

    def cornucopia_obtained(self, s: GameState) -> None:
        """A cornucopia obtained (collected, or a kill's): campaigns where that counts for a requirement."""

    def count_requirement(self, s: GameState, kind: str, where: Coord | None = None) -> None:
        """One more of kind (statues, kills, levers) done: the round's requirement, if it is its kind."""
        if s.kind != kind or s.oracle_chest:
            return
        if s.progress < s.requirement_target():
            s.progress += 1
        if s.progress >= s.requirement_target():
            s.awakened = True

    def exit_offered(self, s: GameState, cell: Coord) -> bool:
        """Does legal_actions offer the exit arrows of cell (the Oracle visited, another zone)?"""
        return s.visited and s.board.zone_of(cell) != s.zone

    def check_exit(self, s: GameState, zone: str | None, ctx: StepContext) -> None:
        """Leaving through an arrow of zone: the round's conditions."""
        if zone == s.zone:
            ctx.soft("exit.zone", f"the round entered in zone {s.zone}: it exits through a door of a different zone")
        if not s.visited:
            ctx.soft("exit.oracle", "the Oracle has not been visited this round: reach it before exiting")

    def end_round(self, s: GameState) -> None:
        """After an exit: the next round, or the end of the game after the fourth."""
        if s.completed >= 4:
            s.phase = OVER
        else:
            s.phase = BETWEEN
            s.round_no = s.completed + 1

    def chest_value(self, s: GameState, next_rate: bool = False) -> int:
        """What one chest buys at the market now (x1..x4; Elydion's next round's value)."""
        base = s.completed if s.phase in (BETWEEN, OVER) else s.round_no
        base = max(base, 1)
        if next_rate:
            base += 1
        return CHEST_VALUE[min(base, len(CHEST_VALUE)) - 1]

    def market_open_inside(self, s: GameState) -> bool:
        """Is the market open while the hero is inside the dungeon (here)?"""
        return False

    def settle_claims(self, s: GameState, claims: dict, ctx: StepContext) -> None:
        """A `sheet` step's campaign values the steps did not say (Slaughter: Fury boxes)."""

    def requirement_claim_ok(self, s: GameState, claimed) -> bool:
        """A `requirement: N` the round's boxes do not give: does the campaign read it otherwise?"""
        return False

    def zone_requirement(self, s: GameState, zone: str, kinds: dict) -> int:
        """The requirement boxes crossed for zone: this round's, or a past round's as it left them."""
        if s.phase == INSIDE and s.zone == zone:
            return s.requirement_progress()
        for z, progress, _ in reversed(s.rounds_log):
            if z == zone:
                return progress
        return 0

    # -- entering, moving --------------------------------------------------------------
    def _enter(self, s: GameState, a: Enter, ctx: StepContext) -> None:
        if s.phase == DEAD:
            raise HardBreak("dead", "the hero is dead: INSERT COIN first")
        if s.phase == OVER:
            raise HardBreak("game.over", "the game is over: four rounds are complete")
        if s.phase == INSIDE:
            raise HardBreak("round.unfinished", "a round is still being played: exit (or die) before starting another")
        b = s.board
        if not self.campaign.exits:
            start = a.start or b.start or (b.centre_cells()[0] if b.centre_cells() else None)
            if a.entry is not None and a.start is None:
                ctx.soft("campaign.no_entries", "this campaign has no entries: start at its start cell")
                start = a.entry[0]
            if start is None or not b.on_board(start) or b.is_rock(start):
                raise HardBreak("round.start", f"{fmt_cell(start)} is not a start cell")
            self.check_start(s, start, ctx)
            s.phase = INSIDE
            s.pos = start
            s.entry = None
            s.explored = s.explored | {start}
            s.zone = b.zone_of(start)
            s.kind = None
            begin_round_state(s)
            self._arrive(s, start, ctx)
            return
        if a.entry is None:
            raise HardBreak("round.entry", "a round starts through an entry arrow, like C1:N")
        cell, side = a.entry
        if (cell, side) not in b.entries:
            ctx.soft("entry.unknown", f"{fmt_cell(cell)}:{side} is not an entry arrow of this map "
                     f"(entries: {', '.join(f'{fmt_cell(c)}:{d}' for c, d in b.entries)})")
        if (cell, side) in s.used_entries:
            ctx.soft("entry.used", f"the arrow {fmt_cell(cell)}:{side} was already used: it is closed for good")
        zone = b.zone_of(cell)
        if not b.on_board(cell) or b.is_rock(cell):
            raise HardBreak("entry.unknown", f"{fmt_cell(cell)} is not a cell of this map")
        self.check_round_start(s, zone, ctx)
        s.phase = INSIDE
        s.pos = None
        s.entry = (cell, side)
        s.facing = OPPOSITE[side]
        s.used_entries = s.used_entries | {(cell, side)}
        s.zone = zone
        zdef = b.zones.get(zone)
        s.kind = zdef.requirement_kind if zdef else None
        begin_round_state(s)

    def roll_rule(self, s: GameState, to: Coord) -> str:
        """Entering to: 'due', 'free' (no roll allowed), 'maybe' or 'optional' (a roll may be given), 'extra'."""
        b = s.board
        if to in s.explored or b.is_centre(to):
            return "free"
        if to in s.flooded:
            # swim freely; outside Kraken's map a player may still roll (the text says so for round D only)
            return "free" if self.swim_free or s.extra > 0 else "maybe"
        if s.extra > 0:
            return "extra"
        if s.hero.ability == "kael" and to not in s.spawned:
            foe = s.enemy_at(to)
            if foe in KAEL_ENEMIES:
                return "free"
            if foe == "statue":
                return "maybe"      # is a statue's trap an enemy? either reading is accepted
        if s.pos is not None and b.zone_of(s.pos) is None:
            # "PLACE YOURSELF outside the Oracle's room": no roll is due (one written is resolved);
            # the reading 'oracle-exit-rolled' makes it the ordinary rolled move
            if self.oracle_in_centre and b.is_centre(s.pos) and s.readings.uses(ORACLE_EXIT_ROLLED):
                return "due"
            return "optional"
        return "due"

    def _move(self, s: GameState, a: Move, ctx: StepContext) -> None:
        require_inside(s, "move")
        b = s.board
        to = a.to
        if not b.on_board(to):
            raise HardBreak("move.off_map", f"{fmt_cell(to)} is not on the map")
        leave_combat(s, ctx, "before moving on")
        frm = s.pos
        if s.lever_at is not None and frm is not None and s.upper and direction(frm, to) is None \
                and direction(s.lever_at, to) is not None:
            frm = s.pos = s.lever_at          # the hero walked the upper level to the lever and goes on from there
        s.upper = False
        s.lever_at = None
        if frm is None:
            cell, side = s.entry
            if to != cell:
                ctx.soft("move.entry", f"the first move of the round enters {fmt_cell(cell)} from its arrow "
                         f"{fmt_cell(cell)}:{side}")
            facing = OPPOSITE[side]
            event_zone = b.zone_of(cell)
            if wall_key(cell, side) in s.walls:
                ctx.soft("move.wall", f"a collapsed wall closes the arrow {fmt_cell(cell)}:{side}")
        else:
            facing = direction(frm, to)
            if to == frm:
                raise HardBreak("move.same", f"the hero is already in {fmt_cell(to)}")
            if facing is None:
                ctx.soft("move.adjacent", f"{fmt_cell(to)} is not next to {fmt_cell(frm)}: a move goes to an adjacent cell")
                dx, dy = to[0] - frm[0], to[1] - frm[1]
                facing = ("E" if dx > 0 else "W") if abs(dx) >= abs(dy) else ("S" if dy > 0 else "N")
            elif s.has_wall(frm, facing):
                ctx.soft("move.wall", f"a wall stands between {fmt_cell(frm)} and {fmt_cell(to)} "
                         f"({fmt_cell(frm)}:{facing}{' collapsed' if wall_key(frm, facing) in s.walls else ''})")
            event_zone = b.zone_of(frm)
        if b.is_rock(to):
            ctx.soft("move.rock", f"{fmt_cell(to)} is solid rock")
        if to in s.rooms:
            ctx.soft("move.collapsed_room", f"{fmt_cell(to)} is a collapsed room: no way in, not even with a shovel")
        rule = self.roll_rule(s, to)
        roll = a.roll
        use_events = False
        if rule == "due" and roll is None and self.unwritten_flood(s, to):
            # a flood the log did not write (the format has no flood step) reached this cell
            s.flooded = s.flooded | {to}
            rule = "free"
        # the reading 'potion-step-kept': a potion's (a "may") step is not spent by the step into the
        # Oracle's room, which needs no roll anyway
        kept = (rule == "free" and s.extra_may > 0 and self.oracle_in_centre and b.is_centre(to)
                and to not in s.explored and s.readings.uses(POTION_STEP_KEPT))
        paid = rule == "extra" or (rule == "free" and s.extra > 0 and not kept)   # this move is a pending extra step
        if rule == "due":
            if roll is None:
                ctx.soft("roll.missing", f"{fmt_cell(to)} is unexplored: a roll (1-6) is due on entering it")
            elif not 1 <= roll <= 6:
                ctx.soft("roll.range", f"roll {roll} is not a d6 result (1-6)")
            else:
                use_events = True
                if event_zone is None:      # out of the Oracle (reading 'oracle-exit-rolled'): as below
                    event_zone = s.zone if s.readings.uses(ORACLE_ROUND_ZONE) and s.zone else b.zone_of(to)
        elif rule == "optional":
            if roll is not None:
                if not 1 <= roll <= 6:
                    ctx.soft("roll.range", f"roll {roll} is not a d6 result (1-6)")
                else:
                    use_events = True
                    # the Oracle has no events of its own: the zone entered, or (that reading) the round's
                    event_zone = s.zone if s.readings.uses(ORACLE_ROUND_ZONE) and s.zone else b.zone_of(to)
        elif rule == "maybe":
            if roll is not None:
                if not 1 <= roll <= 6:
                    ctx.soft("roll.range", f"roll {roll} is not a d6 result (1-6)")
                else:
                    use_events = True
        elif rule == "extra":
            may = s.extra_may > 0
            spend_extra(s)
            if roll is not None and may:
                if not 1 <= roll <= 6:      # a potion's step "may" be taken without rolling: rolled all the same
                    ctx.soft("roll.range", f"roll {roll} is not a d6 result (1-6)")
                else:
                    use_events = True
            elif roll is not None:
                ctx.soft("roll.not_due", f"this is an extra step into {fmt_cell(to)}: it is taken without rolling")
        else:
            if roll is not None:
                why = ("the Oracle's room is entered without rolling" if b.is_centre(to) else
                       f"{fmt_cell(to)} is flooded: swim without rolling" if to in s.flooded and to not in s.explored else
                       "Kael rolls no event entering a space with an enemy" if to not in s.explored else
                       f"{fmt_cell(to)} is already explored: free movement, no roll")
                ctx.soft("roll.not_due", f"no roll is due: {why}")
            if s.extra > 0 and not kept:
                spend_extra(s)                  # the extra step is this move, though it needed no roll
        # turns (the hourglass): a new turn starts unless this continues free movement or is an extra
        # step; the other reading (every step marks the hourglass, but a star's, "marking only 1 turn")
        # is turns_hi
        if not paid or self.paid_steps_mark_turn:
            s.turns_hi += 1
        if not s.turn_open and not paid:
            s.turns += 1
            if self.clock:
                self.check_clock(s, ctx)
        free = rule == "free" and to in s.explored
        s.turn_open = free and not paid
        if self.water:
            self.count_swim(s, to, free, ctx)
        s.facing = facing
        s.pos = to
        s.origin = frm
        s.explored = s.explored | {to}
        s.chest_here = None
        s.found_here = ()
        s.engaged = False
        s.fled = False
        s.last = None
        if s.phase == DEAD:
            return
        if use_events:
            zone = b.zones.get(event_zone) if event_zone else None
            if zone is not None:
                self._resolve_events(s, zone.events.get(roll, ()), frm, to, facing, ctx)
        self._arrive(s, to, ctx)

    def _resolve_events(self, s: GameState, events, frm, to, facing, ctx) -> None:
        b = s.board
        cave_ins = self.campaign.cave_ins
        for ev in events:
            k = ev.kind
            if k == "collapse":
                if not cave_ins:
                    continue           # "no cave-ins, only floods"
                add = []
                for rel in ev.sides:
                    side = relative_side(facing, rel)
                    if s.has_wall(to, side):
                        continue       # walls already present stay as they are
                    add.append(wall_key(to, side))
                if add:
                    s.walls = s.walls | frozenset(add)
            elif k == "collapse origin":
                if frm is not None and not b.is_centre(frm) and cave_ins:
                    s.rooms = s.rooms | {frm}
            elif k == "flood origin":
                if frm is not None and not b.is_centre(frm):
                    s.flooded = s.flooded | {frm}
            elif k == "monster":
                if not self.monster_may_appear(s):
                    continue
                if s.enemy_at(to) is None or (to not in s.spawned and s.readings.uses(MONSTER_TOO)):
                    sp = dict(s.spawned)
                    sp[to] = ev.enemy or "monster"
                    s.spawned = sp
            elif k == "chest":
                gain_resource(s, "chests", 1)
                s.chest_here = to
            elif k == "extra step":
                s.extra += 1
            elif k == "find":
                item = ev.item
                if item in ENEMIES:
                    if s.enemy_at(to) is None:
                        sp = dict(s.spawned)
                        sp[to] = item
                        s.spawned = sp
                elif item in EXTRA_STEPS or item in COLLECT_GAIN:
                    self._take_item(s, item, None, ctx)
                    s.found_here = s.found_here + (item,)
                # other finds (a die, a circle ...) have no effect the rules can follow

    def _arrive(self, s: GameState, to: Coord, ctx: StepContext) -> None:
        """What happens on reaching a cell: the Imp's mischief, the Oracle, foes to face."""
        b = s.board
        foe = s.enemy_at(to)
        if foe == "imp":
            doomed = [(to, i) for i in b.items.get(to, ()) if i in RESOURCE_ITEMS and (to, i) not in s.removed]
            if doomed:
                s.removed = s.removed | frozenset(doomed)
        if self.oracle_in_centre and b.is_centre(to):
            visit_oracle(s)
        if foe is None and "star" in b.items.get(to, ()) and (to, "star") not in s.removed:
            s.removed = s.removed | {(to, "star")}      # "if you land on a star": 4 free steps
            s.extra += EXTRA_STEPS["star"]
            s.extra_may += EXTRA_STEPS["star"]
            s.chest_here = to                          # a `collect: star` right after it is this star
        if self.water and foe is None:
            foe = self.swim_into_water(s, to)
        if foe is not None:
            s.engaged = True
            s.fled = False

    def swim_into_water(self, s: GameState, to: Coord) -> str | None:
        """Arriving in to (campaigns with water): a foe faced by swimming there, or None."""
        return None

    # -- combat ------------------------------------------------------------------------
    def _fight(self, s: GameState, a: Fight, ctx: StepContext) -> None:
        require_inside(s, "fight")
        pos = s.pos
        foe = s.enemy_at(pos) if pos is not None else None
        if foe is None:
            foe = self.foe_in_water(s, pos)
        if foe is None:
            raise HardBreak("fight.no_enemy", f"there is no monster or statue to fight in {fmt_cell(pos)}")
        self.before_fight(s)
        if a.enemy_type is not None and a.enemy_type != foe:
            if foe == "monster" and pos in s.spawned:
                # "you encounter a monster": a plain monster with the round's strength, not a
                # printed enemy type (a goblin would drop the round's bonus, a bandit give a cornucopia)
                ctx.soft("fight.enemy_type", f"the monster an event put in {fmt_cell(pos)} is a plain monster "
                         f"(its die +{self.strength(s, 'monster')} this round), not a {a.enemy_type}")
            elif foe == "monster" and a.enemy_type in ENEMIES:     # a printed monster named (the page offers
                # monster_types; any type a log named before stays accepted)
                s.removed = s.removed | {(pos, "monster")}      # the printed picture is this named foe
                sp = dict(s.spawned)
                sp[pos] = a.enemy_type
                s.spawned = sp
                foe = a.enemy_type
                if foe == "imp" and s.last is None:
                    self._arrive(s, pos, ctx)        # the Imp named now destroys the resource in its room first
            else:
                ctx.soft("fight.enemy_type", f"the foe in {fmt_cell(pos)} is a {foe}, not a {a.enemy_type}")
        hero, enemy = a.hero, a.enemy
        for who, v in (("hero", hero), ("enemy", enemy)):
            if not 1 <= v <= 6:
                ctx.soft("roll.range", f"the {who} die shows {v}, not a d6 result (1-6)")
        if a.clover_die is not None:
            if s.res.get("clovers", 0) < 1:
                ctx.soft("clover.none", "no four-leaf clover left to reroll a die")
            else:
                gain_resource(s, "clovers", -1)
            r = a.clover_roll
            if r is None or not 1 <= r <= 6:
                ctx.soft("roll.range", f"the clover reroll {r} is not a d6 result (1-6)")
            elif a.clover_die == "hero":
                hero = r
            else:
                enemy = r
        weapon = s.res.get("weapon", 0) if a.weapon else 0
        mine = hero + weapon
        theirs = enemy + self.strength(s, foe)
        if foe == "statue" and pos not in s.faced:
            s.faced = s.faced | {pos}
            self.count_requirement(s, "statues")
        fury = a.fury
        if fury and not self.campaign.fury_boxes:
            ctx.soft("fury.campaign", "the Fury track belongs to The Slaughter of Monsters")
            fury = 0
        if mine > theirs:
            outcome = "win"
            if a.shield:
                ctx.soft("shield.no_hit", f"{mine} beats {theirs}: there is no hit for the shield to block")
            self._beaten(s, pos, foe)
        elif mine == theirs:
            outcome = "tie"
            if a.shield:
                ctx.soft("shield.no_hit", f"{mine} ties {theirs}: there is no hit for the shield to block")
        else:
            diff = theirs - mine
            if a.shield:
                if s.res.get("shields", 0) < 1:
                    ctx.soft("shield.none", "no shield left to block the hit")
                gain_resource(s, "shields", -1)
                outcome = "blocked"
            else:
                outcome = "hit"
                instead = min(fury, diff)          # Fury boxes blacked out instead of hearts
                fury -= instead
                if instead > 0:
                    self.black_out_fury(s, instead, ctx)
                gain_resource(s, "hearts", -(diff - instead))
                if foe == "bandit":
                    rob(s, a.stolen, ctx)
                elif foe == "grinch":
                    gain_resource(s, "green packages", -1)
                elif foe == "yeti":
                    gain_resource(s, "blue packages", -1)
        if a.stolen is not None and not (outcome == "hit" and foe == "bandit"):
            ctx.soft("bandit.steal", "only a Bandit's hit steals a resource")
        if a.weapon:
            if fury > 0:
                fury -= 1
                self.black_out_fury(s, 1, ctx)         # a Fury box instead of the weapon point
            elif s.readings.uses(WEAPON_ONCE):
                s.weapon_due = True                # paid once, when this combat ends
            else:
                gain_resource(s, "weapon", -1)
        if fury > 0:
            ctx.soft("fury.excess", f"{a.fury} Fury box(es) is more than the losses of this fight")
        s.last = None if outcome == "win" and s.engaged else outcome    # a second foe in the room: not yet faced
        check_death(s)
        if outcome == "win" or s.phase == DEAD:
            end_combat(s)

    def _beaten(self, s: GameState, pos: Coord, foe: str) -> None:
        if pos in s.spawned:
            sp = dict(s.spawned)
            del sp[pos]
            s.spawned = sp
            if foe == "troll":
                s.trolls = s.trolls | {pos}
        elif foe != "kraken":
            s.removed = s.removed | {(pos, foe)}
            if foe == "troll":
                s.trolls = s.trolls | {pos}
        # another foe in the room (a printed one) is faced next; the immortal Kraken stays but is beaten
        s.engaged = foe != "kraken" and s.enemy_at(pos) is not None
        if s.engaged:
            s.last = None
        if foe == "statue":
            return
        if foe == "kraken":
            s.kraken_wins += 1
        s.kills += 1
        s.kills_total += 1
        self.count_requirement(s, "kills")
        horns = 0
        if foe == "bandit":
            horns += 1
        horns += self.kill_cornucopias(s)
        if horns:
            if s.hero.ability == "thalindra":
                horns += 1
            gain_resource(s, "cornucopias", horns)
            s.found_here = s.found_here + ("cornucopia",) * horns     # a `collect: cornucopia` after it is this one
            self.cornucopia_obtained(s)

    def _flee(self, s: GameState, a: Flee, ctx: StepContext) -> None:
        require_inside(s, "flee")
        foe = s.enemy_at(s.pos) if s.pos is not None else None
        if foe is None or not s.engaged:
            raise HardBreak("flee.nothing", f"there is nothing to flee from in {fmt_cell(s.pos)}")
        if not may_flee(s):
            ctx.soft("flee.when", "face the foe first: fleeing comes after an exchange" if s.last is None else
                     "a statue is fled after a tie or a blocked hit; after its dart hits, the fight goes on")
        s.engaged = False
        s.fled = True
        end_combat(s)

    def _candy(self, s: GameState, a: Candy, ctx: StepContext) -> None:
        require_inside(s, "give a candy cane")
        foe = s.enemy_at(s.pos) if s.pos is not None else None
        if foe not in ("yeti", "grinch"):
            raise HardBreak("candy.who", "a candy cane distracts only a Yeti or a Grinch")
        if s.res.get("candy canes", 0) < 1:
            ctx.soft("candy.none", "no candy cane to give")
        gain_resource(s, "candy canes", -1)
        if s.pos in s.spawned:
            sp = dict(s.spawned)
            del sp[s.pos]
            s.spawned = sp
        else:
            s.removed = s.removed | {(s.pos, foe)}
        s.engaged = False

    # -- items -------------------------------------------------------------------------
    def _take_item(self, s: GameState, item: str, take: str | None, ctx: StepContext) -> None:
        if item == "cornucopia" and take is None:
            self.cornucopia_obtained(s)
        if item in EXTRA_STEPS:
            s.extra += EXTRA_STEPS[item]
            s.extra_may += EXTRA_STEPS[item]       # "you may" / "you can": rolling all the same is allowed
        if item in COLLECT_GAIN:
            key, n = COLLECT_GAIN[item]
            if item == "cornucopia" and take is not None:
                if take not in TRAITS:
                    ctx.soft("cornucopia.resource", f"a cornucopia gives one of {', '.join(TRAITS)}, not {take}")
                else:
                    gain_resource(s, take, 1)
                return
            gain_resource(s, key, n)

    def _collect(self, s: GameState, a: Collect, ctx: StepContext) -> None:
        require_inside(s, "collect")
        pos = s.pos
        if pos is None:
            raise HardBreak("collect.where", "enter the dungeon first")
        item = a.item
        foe = s.enemy_at(pos)
        if foe is not None:
            ctx.soft("collect.enemy", f"the {foe} in {fmt_cell(pos)} must be beaten before anything is collected")
        if item == "chest" and s.chest_here == pos and "chest" not in s.items_at(pos):
            s.chest_here = None        # the chest event's chest, already marked
            return
        if item in s.found_here and item not in s.items_at(pos):
            i = s.found_here.index(item)   # the item the event (or the kill) gave here: already marked
            s.found_here = s.found_here[:i] + s.found_here[i + 1:]
            if item == "cornucopia" and a.take is not None and s.res.get("cornucopias", 0) > 0:
                gain_resource(s, "cornucopias", -1)        # redeemed at once
                self._take_item(s, item, a.take, ctx)
            return
        if item == "star" and s.chest_here == pos and (pos, "star") in s.removed:
            s.chest_here = None        # the star landed on: its steps are already granted
            return
        if item in ("stairs", "lever", "magic circle", "statue", "flooded", "hourglass") or item in FOES:
            raise HardBreak("collect.not_item", f"a {item} is not collected (stairs: climb, lever: lever, "
                        "magic circle: circle, foes: fight)")
        if item not in s.items_at(pos):
            here = s.items_at(pos)
            raise HardBreak("collect.absent", f"there is no {item} in {fmt_cell(pos)}"
                        + (f" (there is: {', '.join(here)})" if here else ""))
        s.removed = s.removed | {(pos, item)}
        if item == "die":
            if a.roll is None:
                ctx.soft("roll.missing", "the die item is rolled: give its roll (collect: {item: die, roll: N})")
            elif not 1 <= a.roll <= 6:
                ctx.soft("roll.range", f"roll {a.roll} is not a d6 result (1-6)")
            else:
                face = s.board.die_table[a.roll]
                if face.monster:
                    s.spawned = dict_with(s.spawned, pos, "monster")
                    s.engaged, s.fled, s.last = True, False, None
                else:
                    for key, n in face.gain:
                        gain_resource(s, key, n)
                    check_death(s)
            return
        self._take_item(s, item, a.take, ctx)

    def _redeem(self, s: GameState, a: Redeem, ctx: StepContext) -> None:
        require_alive(s)
        if s.res.get("cornucopias", 0) < 1:
            raise HardBreak("cornucopia.none", "no cornucopia to redeem")
        if a.resource not in TRAITS:
            raise HardBreak("cornucopia.resource", f"a cornucopia gives one of {', '.join(TRAITS)}, not {a.resource}")
        gain_resource(s, "cornucopias", -1)
        gain_resource(s, a.resource, 1)

    def _shovel(self, s: GameState, a: Shovel, ctx: StepContext) -> None:
        require_inside(s, "use a shovel")
        if s.pos != a.cell:
            ctx.soft("shovel.where", f"the hero is in {fmt_cell(s.pos)}, not {fmt_cell(a.cell)}: a shovel clears a wall "
                     "of the hero's room")
        leave_combat(s, ctx)
        if s.res.get("shovels", 0) < 1:
            ctx.soft("shovel.none", "no shovel left")
        beyond = neighbour(a.cell, a.side)
        key = wall_key(a.cell, a.side)
        if not s.board.on_board(beyond):
            if (a.cell, a.side) in s.board.entries and key in s.walls:
                gain_resource(s, "shovels", -1)          # clears a collapsed exit arrow; the hero stays
                s.walls = s.walls - {key}
                return
            raise HardBreak("shovel.edge", f"{fmt_cell(a.cell)}:{a.side} is the map's edge, not a collapsed wall")
        if key not in s.walls:
            if key in s.board.walls:
                ctx.soft("shovel.printed", f"{fmt_cell(a.cell)}:{a.side} is a printed wall: a shovel erases only "
                         "collapsed walls")
            else:
                ctx.soft("shovel.no_wall", f"there is no collapsed wall at {fmt_cell(a.cell)}:{a.side}")
        if beyond in s.rooms:
            ctx.soft("move.collapsed_room", f"{fmt_cell(beyond)} is a collapsed room: the shovel does not cross it")
        if s.board.is_rock(beyond):
            ctx.soft("move.rock", f"{fmt_cell(beyond)} is solid rock")
        gain_resource(s, "shovels", -1)
        s.walls = s.walls - {key}
        if s.extra > 0:
            spend_extra(s)          # crossing the cleared wall is the next move: the extra step is spent
        s.upper = False
        s.origin = a.cell
        s.facing = a.side
        s.pos = beyond
        s.explored = s.explored | {beyond}
        s.engaged = s.fled = False
        s.last = None
        s.chest_here = None
        s.found_here = ()
        s.turn_open = False
        self._arrive(s, beyond, ctx)

    def _circle(self, s: GameState, a: Circle, ctx: StepContext) -> None:
        require_inside(s, "use a magic circle")
        b = s.board
        if s.pos is None or "magic circle" not in b.items.get(s.pos, ()):
            raise HardBreak("circle.here", f"there is no magic circle in {fmt_cell(s.pos)}")
        if a.to == s.pos or "magic circle" not in b.items.get(a.to, ()):
            raise HardBreak("circle.there", f"there is no other magic circle in {fmt_cell(a.to)}")
        leave_combat(s, ctx)
        if a.to in s.rooms:
            ctx.soft("move.collapsed_room", f"{fmt_cell(a.to)} is a collapsed room")
        if s.extra > 0:
            spend_extra(s)          # the circle's move is the next move: the extra step is spent
        s.upper = False
        s.origin = s.pos
        s.pos = a.to
        s.explored = s.explored | {a.to}
        s.engaged = s.fled = False
        s.last = None
        s.chest_here = None
        s.found_here = ()
        self._arrive(s, a.to, ctx)

    def _climb(self, s: GameState, a: Climb, ctx: StepContext) -> None:
        require_inside(s, "climb")
        if s.pos is None or "stairs" not in s.board.items.get(s.pos, ()):
            raise HardBreak("climb.stairs", f"there are no stairs in {fmt_cell(s.pos)}")
        if s.engaged or (s.enemy_at(s.pos) is not None):
            ctx.soft("collect.enemy", f"the {s.enemy_at(s.pos)} in {fmt_cell(s.pos)} must be beaten before climbing")
        s.upper = not s.upper
        s.lever_at = None
        s.extra_may = s.extra       # a pending extra step after a climb: it may be taken, or rolled

    def _lever(self, s: GameState, a: Lever, ctx: StepContext) -> None:
        require_inside(s, "pull a lever")
        b = s.board
        cell = a.cell
        if cell is None:
            candidates = [c for c, items in b.items.items() if "lever" in items and c not in s.levers]
            if s.pos in candidates:
                cell = s.pos
            elif candidates and s.pos is not None:
                # the issue writes a bare `lever`: the nearest lever not yet pulled (above, walls don't count)
                cell = min(candidates, key=lambda c: (abs(c[0] - s.pos[0]) + abs(c[1] - s.pos[1]), c[1], c[0]))
            elif len(candidates) == 1:
                cell = candidates[0]
            else:
                raise HardBreak("lever.which", "name the lever's cell, like lever: D4" if candidates
                            else "every lever of the map is already pulled")
        if "lever" not in b.items.get(cell, ()):
            raise HardBreak("lever.absent", f"there is no lever in {fmt_cell(cell)}")
        if not s.upper:
            ctx.soft("lever.stairs", "levers are reached from the upper level: climb the stairs first")
        if cell in s.levers:
            ctx.soft("lever.used", f"the lever in {fmt_cell(cell)} was already pulled")
            return
        s.levers = s.levers | {cell}
        s.lever_at = cell if s.upper else None
        self.count_requirement(s, "levers", cell)

    def _oracle(self, s: GameState, a: Oracle, ctx: StepContext) -> None:
        require_inside(s, "consult the Oracle")
        if s.pos is not None and not s.board.is_centre(s.pos):
            # written from the room next to it: the step into the Oracle's room (never rolled) comes first
            nxt = [c for c in s.board.centre_cells()
                   if direction(s.pos, c) is not None and not s.has_wall(s.pos, direction(s.pos, c))]
            if nxt:
                self._move(s, Move(nxt[0], None), ctx)
                if s.phase != INSIDE:
                    return
        if s.pos is None or not s.board.is_centre(s.pos):
            raise HardBreak("oracle.where", f"the Oracle is in the centre room, not in {fmt_cell(s.pos)}")
        visit_oracle(s)
        if a.words:
            s.words = s.words + (a.words,)

    # -- end of round ------------------------------------------------------------------
    def _exit(self, s: GameState, a: Exit, ctx: StepContext) -> None:
        require_inside(s, "exit")
        b = s.board
        name = f"{fmt_cell(a.cell)}:{a.side}"
        if not self.campaign.exits:
            raise HardBreak("campaign.no_exit", "this campaign has no exits")
        if s.pos != a.cell and s.pos is not None and direction(s.pos, a.cell) is not None:
            self._move(s, Move(a.cell, a.roll), ctx)           # step onto the exit cell first, rolling its events
            if s.phase != INSIDE:
                return
        elif a.roll is not None:
            ctx.soft("roll.not_due", f"the hero is already in {fmt_cell(a.cell)}: no roll to exit")
        if s.pos != a.cell:
            ctx.soft("exit.where", f"the hero is in {fmt_cell(s.pos)}, not at the exit cell {fmt_cell(a.cell)}")
        if (a.cell, a.side) not in b.entries:
            ctx.soft("exit.unknown", f"{name} is not an entry/exit arrow of this map")
        elif (a.cell, a.side) in s.used_entries:
            ctx.soft("exit.used", f"the arrow {name} was already used: it is closed for good")
        leave_combat(s, ctx)
        self.check_exit(s, b.zone_of(a.cell), ctx)
        s.used_entries = s.used_entries | {(a.cell, a.side)}   # the exit's arrow is used too
        s.completed += 1
        if s.zone is not None:
            s.zones_done = s.zones_done | {s.zone}
        s.kills_last = s.kills
        s.kills = 0
        if s.trolls:
            rem = s.removed - frozenset((c, "troll") for c in s.trolls)
            sp = dict(s.spawned)
            for c in s.trolls:
                if (c, "troll") not in s.removed and c not in sp:
                    sp[c] = "troll"
            s.removed = rem
            s.spawned = sp
            s.trolls = frozenset()
        s.pos = None
        s.entry = None
        s.engaged = False
        s.upper = False
        s.extra = 0
        s.extra_may = 0
        s.rounds_log = s.rounds_log + ((s.zone, s.progress, s.awakened),)
        self.end_round(s)

    def _market(self, s: GameState, a: Market, ctx: StepContext) -> None:
        if s.phase == DEAD:
            raise HardBreak("dead", "the hero is dead")
        elydion = s.hero.ability == "elydion"
        if s.phase == INSIDE and not self.market_open_inside(s):
            if not elydion:
                ctx.soft("market.when", "the market opens between rounds, after an exit" + self.market_where)
            elif s.elydion_used:
                ctx.soft("market.elydion", "Elydion trades at the next round's value once per round")
        elif s.phase == START:
            ctx.soft("market.when", "the market opens between rounds, after an exit")
        if self.market_once and s.market_done:
            ctx.soft("kraken.market", "in Discovering the Kraken the market is visited only once")
        next_rate = a.next_rate or (elydion and s.phase == INSIDE)
        if elydion and not next_rate and not s.elydion_used and a.spend_chests > 0:
            # Elydion buying at the next round's value says so by the price itself
            gained = sum(n for _, n in a.gain)
            if gained == a.spend_chests * self.chest_value(s, True) != a.spend_chests * self.chest_value(s):
                next_rate = True
        if a.next_rate and not elydion:
            ctx.soft("market.rate", "only Elydion trades at the next round's value")
        elif next_rate:
            if s.elydion_used and s.phase != INSIDE:
                ctx.soft("market.elydion", "Elydion trades at the next round's value once per round")
            s.elydion_used = True
        value = self.chest_value(s, next_rate)
        spend = a.spend_chests
        if spend < 0:
            ctx.soft("market.spend", "chests spent cannot be negative")
            spend = 0
        if spend > s.res.get("chests", 0):
            ctx.soft("market.chests", f"only {s.res.get('chests', 0)} chest(s) to spend, not {spend}")
        gained = sum(n for _, n in a.gain)
        if gained > spend * value or (gained and not spend):
            ctx.soft("market.price", f"{spend} chest(s) at x{value} buy {spend * value} resource(s), not {gained}")
        given = sum(n for _, n in a.give)
        got = sum(n for _, n in a.get)
        if given != got:
            ctx.soft("market.trade", f"resources trade one for one: {given} given for {got}")
        for key, n in a.give:
            if s.res.get(key, 0) < n:
                ctx.soft("market.trade", f"cannot trade {n} {key}: the hero has {s.res.get(key, 0)}")
        for key, _ in a.gain + a.get:
            if key not in TRAITS:
                ctx.soft("market.resource", f"the market sells {', '.join(TRAITS)}, not {key}")
        gain_resource(s, "chests", -spend)
        for key, n in a.give:
            gain_resource(s, key, -n)
        totals: dict[str, int] = {}
        for key, n in a.gain + a.get:
            totals[key] = totals.get(key, 0) + n
        for key, n in totals.items():
            cap = s.caps.get(key)
            if cap is not None and s.res.get(key, 0) + n > cap:
                ctx.soft("resource.cap", f"{key} cannot go above {cap} (the hero's cap)")
            gain_resource(s, key, n)
        if self.market_once:
            s.market_done = True

    def _coin(self, s: GameState, a: Coin, ctx: StepContext) -> None:
        if s.phase != DEAD:
            raise HardBreak("coin.alive", "INSERT COIN is only for a dead hero")
        if s.coin_used:
            raise HardBreak("coin.used", "the INSERT COIN box is already checked: it is the last chance, once")
        s.coin_used = True
        res = dict(s.res)
        if s.readings.uses(COIN_RESET):      # "starting again from point (1)": a fresh character sheet
            res["chests"] = res["cornucopias"] = 0
        traits = dict(a.traits) if a.traits else dict(s.hero.traits)
        if a.traits:                        # (the starting traits were judged at the start)
            self._check_coin_traits(s, traits, ctx)
        for k in TRAITS:
            res[k] = int(traits.get(k, 0))
        s.res = res
        s.fury = 0
        s.phase = START if s.completed == 0 else BETWEEN
        s.pos = None
        s.entry = None
        s.engaged = False
        s.kills = 0
        s.upper = False
        s.extra = 0
        s.extra_may = 0

    @staticmethod
    def _check_coin_traits(s: GameState, traits: dict, ctx: StepContext) -> None:
        """INSERT COIN starts again "from point (1)": 12 traits freely marked (within the sheet's
        boxes), or the hero's own sheet exactly."""
        unknown = [k for k in traits if k not in TRAITS]
        if unknown:
            ctx.soft("coin.traits", f"INSERT COIN: {', '.join(map(str, unknown))} is not a trait "
                     f"(traits are {', '.join(TRAITS)})")
        if s.hero.ability is not None or s.hero.name is not None:
            sheet = dict(s.hero.traits)
            if any(int(traits.get(k, 0)) != sheet.get(k, 0) for k in TRAITS):
                shown = ", ".join(f"{k} {sheet.get(k, 0)}" for k in TRAITS)
                ctx.soft("coin.traits", f"INSERT COIN starts again from point (1): {s.hero.name} is prepared "
                         f"again from the hero's sheet ({shown}), not "
                         + ", ".join(f"{k} {int(traits.get(k, 0))}" for k in TRAITS))
            return
        for message in check_free_traits({k: int(v) for k, v in traits.items() if k in TRAITS},
                                         caps=dict(s.caps)):
            ctx.soft("coin.traits", f"INSERT COIN starts again from point (1), freely marking 12 traits: {message}")

    def _flood(self, s: GameState, a: Flood, ctx: StepContext) -> None:
        require_inside(s, "flood")
        raise HardBreak("flood.campaign", "floods spread only in Discovering the Kraken")

    # -- what the pencil shows ---------------------------------------------------------------
    def _sheet(self, s: GameState, a: Sheet, ctx: StepContext) -> None:
        claims = {canonical(k): v for k, v in a.values}
        self.settle_claims(s, claims, ctx)
        if s.theft:
            settle_theft(s, claims, ctx)
        if s.res.get("cornucopias", 0):
            settle_cornucopias(s, claims)
        for key, claimed in a.values:
            key = canonical(key)
            if key == "score":
                self._score(s, Score(claimed if isinstance(claimed, int) else -1), ctx)
                continue
            if key == "packages" and isinstance(claimed, dict):      # {green: 3, blue: 2}
                for colour, v in claimed.items():
                    k = canonical(f"{str(colour).strip().lower()} packages")
                    if k not in ("green packages", "blue packages"):
                        raise HardBreak("sheet.key", f"packages are green or blue, not {colour}")
                    if v != s.res.get(k, 0):
                        ctx.soft("sheet.packages", f"sheet shows {v} {k} but the rules give {s.res.get(k, 0)}")
                continue
            if key in ("requirement", "progress", "statues", "kills", "levers") and isinstance(claimed, str) \
                    and claimed.partition("/")[0].strip().isdigit():
                claimed = int(claimed.partition("/")[0])     # "2/3": two of the three boxes crossed
            try:
                actual = sheet_value(s, key)
            except KeyError:
                raise HardBreak("sheet.key", f"'{key}' is not a value on the sheet ({', '.join(SHEET_KEYS)})") from None
            if key in ("requirement", "progress") and isinstance(claimed, dict):
                for k, v in claimed.items():
                    want = self._requirement_of(s, str(k))
                    if want is None:
                        raise HardBreak("sheet.key", f"'{k}' is not a round requirement (A-D, or statues, kills, "
                                    "levers, cornucopias)")
                    if v != want:
                        ctx.soft("sheet.requirement", f"sheet shows requirement {k} {v} but the rules give {want}")
                continue
            if key == "walls":
                if isinstance(claimed, int) and not isinstance(claimed, bool):
                    if claimed not in (len(actual), len([w for w in actual if not arrow_named(s, w)])):
                        ctx.soft("sheet.walls", f"sheet shows {claimed} collapsed walls but the rules give "
                                 f"{len(actual)}: {', '.join(actual) or 'none'}")
                    continue
                claimed_c = canon_walls(claimed if isinstance(claimed, (list, tuple)) else [claimed])
                if claimed_c is not None:
                    # a wall already on the blank map (printed, or the map's edge) may be listed too, and a
                    # wall fallen across an arrow (on the map's edge) may be listed or not
                    blank = blank_walls(s)
                    claimed_c = [w for w in claimed_c if w not in blank and not edge_named(s, w)
                                 and not arrow_named(s, w)]
                    actual = [w for w in actual if not arrow_named(s, w)]
                if claimed_c != actual:
                    ctx.soft("sheet.walls", f"sheet shows collapsed walls {', '.join(claimed_c or []) or 'none'} "
                             f"but the rules give {', '.join(actual) or 'none'}")
                continue
            if isinstance(actual, list):
                claimed_l = claimed if isinstance(claimed, (list, tuple)) else [claimed]
                if sorted(str(c).upper() for c in claimed_l) != actual:
                    ctx.soft(f"sheet.{key}", f"sheet shows {key} {', '.join(map(str, claimed_l)) or 'none'} "
                             f"but the rules give {', '.join(actual) or 'none'}")
                continue
            if isinstance(actual, str):
                ok = str(claimed).upper() == actual.upper()
            else:
                ok = claimed == actual
                if not ok and key in ("requirement", "progress"):
                    ok = self.requirement_claim_ok(s, claimed)
                if not ok and key in ("turns", "hourglass") and isinstance(claimed, int):
                    ok = s.turns <= claimed <= s.turns_hi     # free moves: one turn, or a turn each
                if not ok and key == "kills" and isinstance(claimed, int) and s.kraken_wins:
                    ok = s.kills - s.kraken_wins <= claimed < s.kills     # the immortal Kraken: no kill
                if not ok and key == "kills" and s.phase in (BETWEEN, OVER) and claimed == s.kills_last:
                    ok = True       # "reset when exiting" or "reset when starting a new round": between them, either
                if not ok and key == "cornucopias" and s.kind == "cornucopias" and not s.awakened \
                        and isinstance(claimed, int):
                    # round D: the kept cornucopia may be marked in the requirement space instead
                    ok = actual - s.requirement_progress() <= claimed <= actual
                if not ok and key in ("requirement", "progress") and s.kind == "cornucopias" and not s.awakened \
                        and isinstance(claimed, int):
                    # round D: the carried cornucopia is marked when obtained, or when delivered
                    ok = s.progress <= claimed <= actual
            if not ok:
                if key in ("turns", "hourglass") and s.turns_hi > s.turns:
                    actual = f"{s.turns} (or up to {s.turns_hi}, an hourglass box for every step)"
                ctx.soft(f"sheet.{key}", f"sheet shows {key} {claimed} but the rules give {actual}")

    def _requirement_of(self, s: GameState, name: str) -> int | None:
        """Requirement boxes crossed for a zone (A-D) or a kind (statues ...): this round's, or a past round's."""
        name = name.strip()
        kinds = {z: zd.requirement_kind for z, zd in s.board.zones.items()}
        if name.upper() in kinds:
            zone = name.upper()
        else:
            kind = canonical(name)
            kind = {"statue": "statues", "kill": "kills", "lever": "levers", "cornucopia": "cornucopias"}.get(kind,
                                                                                                              kind)
            zone = next((z for z, k in kinds.items() if k == kind), None)
            if zone is None:
                return None
        return self.zone_requirement(s, zone, kinds)

    def _score(self, s: GameState, a: Score, ctx: StepContext) -> None:
        if s.phase != OVER:
            ctx.soft("score.when", "the final score is counted after the fourth round")
        # the kill counter resets at each exit: count every monster defeated in the game
        r = s.res
        pts = (r.get("hearts", 0) + r.get("clovers", 0) + r.get("weapon", 0) + r.get("shields", 0)
               + 4 * r.get("chests", 0) + r.get("shovels", 0) + s.kills_total)
        # "Monsters defeated on the player board": the whole game's, the counter as the last round left
        # it, or the counter reset at that exit
        if a.points not in (pts, pts - s.kills_total + s.kills_last, pts - s.kills_total + s.kills):
            ctx.soft("score.count", f"the final score is {pts} (hearts + clovers + weapon + shields + 4 x chests "
                     f"+ shovels + monsters defeated), not {a.points}")



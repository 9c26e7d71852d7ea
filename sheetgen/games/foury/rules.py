"""The Dungeon Foury rules: a GameState and an action -> the new GameState and the rules it breaks.

The engine follows the contract of sheetgen.games.base (python-chess style):

    rules = rules_for(board)                    # the rules object of the map's campaign
    state = rules.new_game(board, hero)         # or new_game(board, hero): the same
    outcome = rules.step(state, action)         # Outcome(state, violations, followed)
    state = rules.apply(state, action)          # the strict form: raises base.Illegal
    rules.legal_actions(state)

`FouryRules` is the base game (The Ancient Story); each campaign is a subclass
that overrides its hooks: `Slaughter` (Fury boxes instead of losses, strength
+0, a cornucopia every third kill, at most 48 enemies), `Santa` (the hourglass,
packages, candy canes), `Strength` (caps at the full scale), `Kraken` (floods,
swimming, the immortal Kraken, all four requirements in one round).  A map's
`campaign:` picks its class through the one table CAMPAIGNS (`find_campaign`,
`rules_for`).  What a campaign prints (its title, Fury boxes, hourglass ...) is
its `campaign` description (sheetgen.games.foury.tables.Campaign).

States are never changed by a step (copy-on-write: sets are frozensets,
resources a small dict copied on change).  Where a broken step can still be
followed (a missing roll, a move through a wall, a wrong sheet value ...) the
outcome's state is as the player's claimed step leaves it (`followed`), so a
checker can go on and list every problem of a log in one run; `Illegal.lenient`
carries that state for `apply`.

Where the text allows two readings, `FouryReading` names the alternative ones;
a game runs under a set of them (`new_game(readings=...)`) and the engine asks
`state.readings.uses(reading)` where a rule depends on one, so a replay knows
which readings it consulted (sheetgen.games.base.ReadingsInUse, judge).

Readings we chose where the rules text is ambiguous (each one tested):
- The map persists between rounds (one sheet): explored cells, walls, rooms, water.
- A roll is due when entering an unexplored cell, except: the Oracle room (never
  rolled), a move paid by a pending extra step (extra step, yellow/purple potion,
  star), Kael entering a cell with a printed enemy.  Optional (a roll, if given,
  is resolved as usual): swimming into a flooded cell (the text says "swim freely"
  for round D only; in Discovering the Kraken it is never rolled) and Kael
  entering a statue's cell (is a trap an enemy?).  Leaving a zone-less room (the
  Oracle, a campaign start) into an unexplored cell is "placing yourself" there:
  the roll is optional and, if given, uses the events of the zone entered (the
  reading 'oracle-round-zone': those of the round's zone; the reading
  'oracle-exit-rolled': the step out of the Oracle is rolled, as any move).
- A pending extra step is spent by the very next move, whatever it enters: a `move`
  into an explored room, the Oracle or water that needed no roll anyway, a shovel's
  crossing, a magic circle ("Resolve the room, then move one additional space": the
  next space; walking explored rooms does not keep it for a later unexplored room,
  so the old reading 'extra-after-free' is retired: a log naming it is judged without
  it).  The potions' and the star's steps are a "may"/"can": a roll given on such a
  step is resolved as usual (the step is spent); the `extra step` event's step is
  never rolled.  (Reading 'potion-step-kept': a potion's or star's step is not spent
  by the step into the Oracle's room, which needs no roll anyway.)
- Landing on a printed star grants its 4 free steps at once (a `collect: star` after
  it is the same star).  An item a `find` event gave is marked at once; a `collect`
  of it right after, in that room, is the same item (like the chest event's chest);
  so is the cornucopia a kill gave (a Bandit's camp, Slaughter's every third kill).
- Entering the Oracle room is the visit: the chest comes then if awakened (once
  per round; a `collect: chest` written there is that chest); in round D a carried cornucopia is delivered there (spent; that
  awakens the Oracle).  An `oracle` step records the words.
- The round's requirement is the kind of the zone entered; it counts anywhere
  on the map.  A statue counts when first faced.  It stops counting once the
  awakened Oracle has been reached ("you do not collect requirements when
  exiting"); reaching it before awakening it gives nothing and the round goes on.
- Exiting needs a visit to the Oracle (awakened or not: unawakened it just gave
  no chest), through an arrow of another zone than the round's.  An arrow used
  to enter or to exit is closed for good (four rounds use eight arrows: our
  built-in maps have two per zone).  A zone's round is played once.  A wall that
  collapsed across the exit arrow does not stop the exit ("If you end your
  movement on an unused Entry/Exit space ... roll ... Have you survived?
  CONGRATULATIONS"); a `walls` sheet may list such a wall or not.
- Levers: `climb` at the stairs, then `lever: CELL` for any lever (the upper level
  passes over walls and fallen rooms).  An extra step pending when the hero climbs
  may be taken after, or given up (the next move rolled as usual).  The hero stays at the stairs, but a move
  right after a lever may also start from that lever's room (walked there above).
- `sheet: walls` lists the collapsed walls (each once, either name: B3:E = C3:W);
  walls already on the blank map (printed, the edge) may be listed too; a number
  is compared with how many there are.
- The exit cell's events are those of the move that enters it (a roll if it is
  unexplored); `exit` then leaves through the arrow.
- `weapon: true` costs 1 weapon after that fight step (each exchange: "at the end
  of the Combat decrease the Weapon value ... If the Monster is still alive, you can
  continue or flee").  The other reading, 1 weapon once the whole combat is over
  (won, fled or dead) and the full value on every exchange until then, is the
  reading 'weapon-once' (new_game(readings=...)); the checker replays a log under
  it too and judges the log by the reading it follows (fewer violations), or by the
  readings the log declares.
- Fleeing: a monster still alive after any exchange (a tie, a blocked hit or a hit)
  may be fled ("If the Monster is still alive, you can decide to continue the combat
  or flee"); a statue only after a tie or a blocked hit (its section: "Try again or
  flee", "continue the fight or flee"), after its dart's hit the fight goes on.  Not
  before the first exchange.  Fleeing lets the hero move on; the foe stays and still
  guards the room's items.  A move (shovel, circle, exit) straight after an exchange
  that allows fleeing is that flight: no `flee` step is needed.
- A shield used when there is no hit to block is an error (and not consumed).
- A monster event in a room with a printed foe (a statue, an orc ...): that foe is
  the encounter.  The other reading, the event's monster AND the printed foe,
  one after the other, is the reading 'monster-too', judged like 'weapon-once'.
- Generic monsters ('monster' events, printed 'monster') fight with the round's
  strength.  An event's (or the die table's) monster is a plain monster: naming it
  is fight.enemy_type (issue 28).  A printed one may be named (monster_types lists
  what the page offers); a named foe cannot be renamed.
  Kraken +6; statues +0; Goblin +0; Minotaur twice the round's bonus.
- Imp: every resource item printed in its cell is erased when the hero arrives
  (or when a generic event monster is named an imp at its first fight step).
- Troll: removed when beaten, back in its room at the end of the round.
- Bandit: a hit also steals one other resource.  The log may name it (`stolen`);
  if not (the issue's fight has no such key), the next `sheet` showing one fewer
  of a resource settles which; a sheet listing every resource the hero has with
  none missing is the violation.
- Cornucopias may be turned into resources at any time: by `collect: {item:
  cornucopia, take: X}`, a `redeem` step, or (the issue's log has no step for it)
  a `sheet` showing the resources gained and the cornucopias gone.  In round D the
  kept cornucopia may be penciled in the requirement space instead of the counter.
- Chest event: the chest is marked at once; a `collect: chest` right after it in
  that room is accepted as the same chest.
- Die item: the map's printed die table (Board.die_table: the map's `die_table:`, else
  tables.DIE_TABLE) applies to its roll.
- Collecting beyond a cap keeps the cap (the extra is lost); buying beyond a cap
  at the market is an error.
- Market chest value is the number of the round just completed (x1..x4); a chest
  buys at most that many resources (taking fewer is allowed); a market or coin
  written as the first steps of the next round counts as before its entry;
  Elydion may once per round trade at the next round's value (also inside the
  dungeon; `rate: next`, or simply a price that only that value explains).
- INSERT COIN (once, when dead): "starting again from point (1)": the character is
  prepared again, 12 traits freely marked (within the sheet's boxes, at least 1 heart)
  or, for a hero, the hero's sheet exactly (the starting traits when the coin names
  none); chests/cornucopias stay (the reading 'coin-reset': they go too), the hero is outside and starts the
  unfinished round again through an unused arrow (the died round's arrow stays
  blacked out: "you can no longer exit or enter through this space"; the coin is the
  alternative to a new sheet).
- Round D's cornucopia is delivered to the Oracle: spent there ("Deliver it to the
  Oracle"); keeping it for later would make the requirement free.
- Turns: a turn starts with a move after a room was resolved; consecutive free
  moves along explored cells and extra steps belong to the same turn; the move after
  an extra step (or the star's steps) starts a new one.  The other reading, an
  hourglass box for every move (but Santa's star steps, "marking only 1 turn"), is
  `turns_hi`: a `turns` sheet is accepted anywhere between the two.
- The kill counter resets at the exit ("when exiting the Dungeon"); the text also says
  "each time you start a new round: reset": between two rounds a sheet may show 0
  or the finished round's kills.
- Final score: hearts + clovers + weapon + shields + shovels + 4 x chests + every
  monster defeated in the game (or the kill counter as the last round left it, or
  as reset at that exit); a `score` step or `sheet: {score: N}`.
- `sheet: {requirement: N}` is this round's boxes; `requirement: {A: 3}` or
  `{statues: 3}` names a zone or kind (a past round's boxes as it left them).
- Campaigns: see the classes Slaughter, Santa, Strength and Kraken below (Strength's
  market "at the end of each turn" is between rounds; reading 'market-every-turn':
  also inside, after any turn).
"""
from __future__ import annotations

from typing import Any, Iterable

from ..base import Illegal, Outcome, Reading, ReadingsInUse, Rules, Violation, broken
from .actions import (Candy, Circle, Climb, Coin, Collect, Enter, Exit, Fight, Flee, Flood, Lever, Market, Move,
                      Oracle, Redeem, Score, Sheet, Shovel)
from .board import DELTA, ENEMIES, OPPOSITE, Board, Coord, cell_name, direction, neighbour, parse_cell_side, \
    relative_side, wall_key
from .heroes import TRAITS, Hero, check_free_traits
from .tables import (ANCIENT, COLLECT_GAIN, EXTRA_STEPS, FLOOD_EVERY, FURY_BOXES, KILLS_PER_CORNUCOPIA,
                     KRAKEN, OPPOSITE_ZONE, REQUIREMENT_COUNT, RESOURCE_ITEMS, RESOURCES, ROUND_BONUS, CHEST_VALUE,
                     SANTA, SANTA_COUNTERS, SANTA_TURNS, SLAUGHTER, SLAUGHTER_MAX, STRENGTH, SWIM_LIMIT, Campaign,
                     foe_strength)

FOES = frozenset(ENEMIES) | {"monster", "statue"}
KAEL_ENEMIES = frozenset(ENEMIES) | {"monster"}     # enemies, not the statues' traps

# phases
START, INSIDE, BETWEEN, DEAD, OVER = "start", "inside", "between", "dead", "over"


class FouryReading(Reading):
    """The alternative readings of the rules text a game (or a play log) may follow; the
    default reading of each is described in this module's docstring."""
    WEAPON_ONCE = "weapon-once"                 # the weapon point is paid once per combat, not per exchange
    MONSTER_TOO = "monster-too"                 # a monster event in a printed foe's room: both are fought
    COIN_RESET = "coin-reset"                   # INSERT COIN also clears the chests and cornucopias
    ORACLE_ROUND_ZONE = "oracle-round-zone"     # leaving the Oracle rolls on the round's zone's events
    ORACLE_EXIT_ROLLED = "oracle-exit-rolled"   # the step out of the Oracle into an unexplored space is rolled
    POTION_STEP_KEPT = "potion-step-kept"       # a potion's free step is not spent by the step into the Oracle
    MARKET_EVERY_TURN = "market-every-turn"     # In and Out with Your Strength: the market after every turn


(WEAPON_ONCE, MONSTER_TOO, COIN_RESET, ORACLE_ROUND_ZONE, ORACLE_EXIT_ROLLED, POTION_STEP_KEPT,
 MARKET_EVERY_TURN) = FouryReading
READINGS = tuple(r.value for r in FouryReading)     # their names, as a play log's `readings:` writes them
# readings once offered and dropped because the rules text does not support them: a log may
# still name one (it was documented), and is then judged without it (docs/readings.md)
RETIRED_READINGS = {
    "extra-after-free": "the extra step is the very next move (\"then move one additional space\"); "
                        "walking explored rooms does not keep it",
}


class _Hard(Exception):
    """A step that cannot be followed at all (the state stays as it was)."""

    def __init__(self, rule, message):
        self.rule, self.message = rule, message


class GameState:
    """Everything the pencil has put on the sheet and the map, plus the die's context;
    `rules` is the campaign's rules object, `readings` the ReadingsInUse of the game."""
    __slots__ = (
        "board", "hero", "res", "caps", "phase", "pos", "facing", "entry", "round_no", "completed",
        "zone", "kind", "progress", "awakened", "visited", "oracle_chest", "explored", "walls",
        "erased", "rooms", "flooded", "removed", "spawned", "engaged", "fled", "last", "faced",
        "extra", "kills", "kills_total", "used_entries", "zones_done", "coin_used", "turns",
        "turn_open", "upper", "levers", "trolls", "words", "chest_here", "elydion_used",
        "fury", "swim", "backtrack", "floods_done", "floods_flagged", "kprogress", "last_req_zone", "market_done",
        "origin", "rounds_log", "readings", "theft", "weapon_due", "lever_at", "kills_last", "turns_hi", "extra_may",
        "last_req_alt", "found_here", "kraken_wins", "rules",
    )

    def copy(self) -> "GameState":            # replaced below by an unrolled version (speed)
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    # -- read-only helpers -------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.phase != DEAD

    def has_wall(self, c: Coord, side: str) -> bool:
        """A printed wall, the map edge (but entries), or a collapsed wall not erased."""
        key = wall_key(c, side)
        if key in self.walls:
            return True
        if key in self.board.walls and key not in self.erased:
            return True
        n = neighbour(c, side)
        if not self.board.on_board(n):
            return (c, side) not in self.board.entries
        return False

    def enemy_at(self, c: Coord) -> str | None:
        """The active foe (enemy type or 'statue') in a cell, if any."""
        e = self.spawned.get(c)
        if e is not None:
            return e
        for item in self.board.items.get(c, ()):
            if item in FOES and (c, item) not in self.removed:
                return item
        return None

    def items_at(self, c: Coord) -> list[str]:
        return [i for i in self.board.items.get(c, ()) if (c, i) not in self.removed and i not in FOES]

    def requirement_target(self) -> int:
        if self.kind is None:
            return 0
        zone = self.board.zones.get(self.zone)
        if zone is not None and zone.requirement_kind == self.kind and zone.requirement_count:
            return zone.requirement_count
        return REQUIREMENT_COUNT.get(self.kind, 0)

    def requirement_progress(self) -> int:
        if self.kind == "cornucopias" and not self.awakened:
            return min(self.progress + self.res.get("cornucopias", 0), self.requirement_target())
        return self.progress

    def roll_due(self, to: Coord) -> bool:
        """Does entering `to` from here need a roll (assuming the move is legal)?"""
        return self.rules.roll_rule(self, to) == "due"

    def summary(self) -> dict:
        out = {k: self.res.get(k, 0) for k in RESOURCES}
        out["kills"] = self.kills
        out["round"] = self.round_no
        out["requirement"] = self.requirement_progress()
        return out


def _unrolled_copy():
    """GameState.copy as straight-line attribute copies: about twice as fast as a loop."""
    lines = ["def copy(self):", "    new = _new(GameState)"]
    lines += [f"    new.{n} = self.{n}" for n in GameState.__slots__]
    lines.append("    return new")
    scope = {"_new": object.__new__, "GameState": GameState}
    exec("\n".join(lines), scope)  # noqa: S102 - generated from our own slot names
    return scope["copy"]


GameState.copy = _unrolled_copy()


class _Ctx:
    """The rules one step breaks but can follow: (rule id, message) pairs."""
    __slots__ = ("problems",)

    def __init__(self):
        self.problems = None

    def soft(self, rule: str, message: str) -> None:
        if self.problems is None:
            self.problems = []
        self.problems.append((rule, message))


def _violations(ctx: _Ctx, hard: _Hard | None = None) -> tuple[Violation, ...]:
    problems = list(ctx.problems or ())
    if hard is not None:
        problems.append((hard.rule, hard.message))
    return tuple(broken(rule, message) for rule, message in problems)


# -- small helpers (no campaign in them) ------------------------------------------
def _alive(s: GameState) -> None:
    if s.phase == DEAD:
        raise _Hard("dead", "the hero is dead: nothing more can happen until an INSERT COIN")
    if s.phase == OVER:
        raise _Hard("game.over", "the game is over: four rounds are complete")


def _inside(s: GameState, what: str) -> None:
    _alive(s)
    if s.phase != INSIDE:
        raise _Hard("round.not_started", f"cannot {what} outside the dungeon: start a round through an entry first")


def _gain(s: GameState, key: str, n: int) -> int:
    """Add n (may be negative) within 0..cap; returns what was really added."""
    res = s.res
    old = res.get(key, 0)
    new = old + n
    cap = s.caps.get(key)
    if cap is not None and new > cap:
        new = cap
    if new < 0:
        new = 0
    if new != old:
        res = dict(res)
        res[key] = new
        s.res = res
    return new - old


def _fmt(c: Coord | None) -> str:
    return cell_name(c) if c is not None else "outside"


def _with(d, k, v):
    d = dict(d)
    d[k] = v
    return d


def _check_death(s: GameState) -> None:
    if s.res.get("hearts", 0) <= 0:
        s.phase = DEAD
        s.engaged = False


def _spend_extra(s: GameState) -> None:
    """A pending extra step taken: by the very next move, whatever it enters."""
    s.extra -= 1
    s.extra_may = max(0, min(s.extra_may - 1, s.extra))


def _end_combat(s: GameState) -> None:
    """weapon-once reading: the weapon point used in this combat is paid when it ends."""
    if s.weapon_due:
        s.weapon_due = False
        _gain(s, "weapon", -1)


def _begin_round_state(s: GameState) -> None:
    s.progress = 0
    s.awakened = False
    s.visited = False
    s.oracle_chest = False
    s.faced = frozenset()
    s.kills = 0
    s.engaged = False
    s.fled = False
    s.last = None
    s.extra = 0
    s.extra_may = 0
    s.upper = False
    s.elydion_used = False
    s.turn_open = False
    s.chest_here = None
    s.found_here = ()
    s.origin = None
    s.swim = 0
    s.backtrack = 0


def _visit_oracle(s: GameState) -> None:
    if s.kind == "cornucopias" and not s.awakened and s.res.get("cornucopias", 0) >= 1:
        _gain(s, "cornucopias", -1)          # delivered to the Oracle
        s.progress = 1
        s.awakened = True
    if s.awakened and not s.oracle_chest:
        _gain(s, "chests", 1)
        s.oracle_chest = True
        s.chest_here = s.pos          # a `collect: chest` in the Oracle's room is this chest
    s.visited = True


def _rob(s: GameState, stolen: str | None, ctx: _Ctx) -> None:
    others = [k for k in RESOURCES if k != "hearts" and s.res.get(k, 0) > 0]
    if not others:
        if stolen is not None:
            ctx.soft("bandit.steal", "there was nothing else for the Bandit to steal")
        return
    if stolen is None:
        s.theft += 1            # which one the player lost shows on the next sheet
        return
    if stolen not in others:
        ctx.soft("bandit.steal", f"the Bandit cannot steal {stolen}: the hero has none (one of {', '.join(others)})")
        return
    _gain(s, stolen, -1)


def may_flee(s: GameState) -> bool:
    """May the hero flee the foe in this room now?  A monster still alive after any exchange ("If
    the Monster is still alive, you can decide to continue the combat or flee"); a statue only
    after a tie or a blocked hit (its section gives the choice there, not after a dart's hit)."""
    if s.last in ("tie", "blocked"):
        return True
    return s.last == "hit" and s.enemy_at(s.pos) != "statue"


def _leave_combat(s: GameState, ctx: _Ctx, why: str = "first") -> None:
    """Moving on from a foe's room: allowed where fleeing is (the move is the flight)."""
    if s.engaged:
        if may_flee(s):
            s.engaged = False
            s.fled = True
        else:
            ctx.soft("fight.pending", f"the {s.enemy_at(s.pos)} in {_fmt(s.pos)} must be faced {why}"
                     + ("" if s.last is None else ": after a statue's unblocked hit the fight goes on"))
    _end_combat(s)


def requirement_count(board: Board, kind: str) -> int:
    """The count of a requirement kind on this map (a zone's, else the base game's)."""
    for z in board.zones.values():
        if z.requirement_kind == kind and z.requirement_count:
            return z.requirement_count
    return REQUIREMENT_COUNT[kind]


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
        ctx = _Ctx()
        s = state.copy()
        try:
            handler(s, action, ctx)
        except _Hard as h:
            return Outcome(state, _violations(ctx, h), False)
        if ctx.problems:
            return Outcome(s, _violations(ctx), True)
        return Outcome(s)

    def apply(self, state: GameState, action) -> GameState:
        """The state after a legal action; base.Illegal (with .lenient where the step can be
        followed) for an illegal one.  (The same handlers as step, without an Outcome: the hot path.)"""
        handler = self._handlers.get(type(action))
        if handler is None:
            raise Illegal([broken("action.unknown", f"unknown action {action!r}")])
        ctx = _Ctx()
        s = state.copy()
        try:
            handler(s, action, ctx)
        except _Hard as h:
            raise Illegal(_violations(ctx, h)) from None
        if ctx.problems:
            raise Illegal(_violations(ctx), s)
        return s

    def is_legal(self, state: GameState, action) -> bool:
        """Whether action breaks no rule (cheaper than step: no violations are built)."""
        handler = self._handlers.get(type(action))
        if handler is None:
            return False
        ctx = _Ctx()
        try:
            handler(state.copy(), action, ctx)
        except _Hard:
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

    def check_start(self, s: GameState, start: Coord, ctx: _Ctx) -> None:
        """A campaign without exits: is start its start cell (and may a round start now)?"""

    def check_round_start(self, s: GameState, zone: str | None, ctx: _Ctx) -> None:
        """A round entering through an arrow of zone: is that zone's round still to play?"""
        if zone in s.zones_done:
            ctx.soft("round.zone_done", f"the round of zone {zone} was already completed")

    def unwritten_flood(self, s: GameState, to: Coord) -> bool:
        """Could a flood the log did not write have reached the unexplored cell `to`?"""
        return False

    def check_clock(self, s: GameState, ctx: _Ctx) -> None:
        """After a new turn (campaigns with a clock): is the hourglass full?"""

    def count_swim(self, s: GameState, to: Coord, free: bool, ctx: _Ctx) -> None:
        """After a move (campaigns with water): spaces swum and backtracked in a row."""

    def monster_may_appear(self, s: GameState) -> bool:
        """May a monster event still put a monster on the map?"""
        return True

    def before_fight(self, s: GameState) -> None:
        """Raise _Hard if no fight may happen now."""

    def foe_in_water(self, s: GameState, pos: Coord) -> str | None:
        """A foe met by swimming (the Kraken in its water), put in pos; None if none."""
        return None

    def black_out_fury(self, s: GameState, n: int, ctx: _Ctx) -> None:
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

    def check_exit(self, s: GameState, zone: str | None, ctx: _Ctx) -> None:
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

    def settle_claims(self, s: GameState, claims: dict, ctx: _Ctx) -> None:
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
    def _enter(self, s: GameState, a: Enter, ctx: _Ctx) -> None:
        if s.phase == DEAD:
            raise _Hard("dead", "the hero is dead: INSERT COIN first")
        if s.phase == OVER:
            raise _Hard("game.over", "the game is over: four rounds are complete")
        if s.phase == INSIDE:
            raise _Hard("round.unfinished", "a round is still being played: exit (or die) before starting another")
        b = s.board
        if not self.campaign.exits:
            start = a.start or b.start or (b.centre_cells()[0] if b.centre_cells() else None)
            if a.entry is not None and a.start is None:
                ctx.soft("campaign.no_entries", "this campaign has no entries: start at its start cell")
                start = a.entry[0]
            if start is None or not b.on_board(start) or b.is_rock(start):
                raise _Hard("round.start", f"{_fmt(start)} is not a start cell")
            self.check_start(s, start, ctx)
            s.phase = INSIDE
            s.pos = start
            s.entry = None
            s.explored = s.explored | {start}
            s.zone = b.zone_of(start)
            s.kind = None
            _begin_round_state(s)
            self._arrive(s, start, ctx)
            return
        if a.entry is None:
            raise _Hard("round.entry", "a round starts through an entry arrow, like C1:N")
        cell, side = a.entry
        if (cell, side) not in b.entries:
            ctx.soft("entry.unknown", f"{_fmt(cell)}:{side} is not an entry arrow of this map "
                     f"(entries: {', '.join(f'{_fmt(c)}:{d}' for c, d in b.entries)})")
        if (cell, side) in s.used_entries:
            ctx.soft("entry.used", f"the arrow {_fmt(cell)}:{side} was already used: it is closed for good")
        zone = b.zone_of(cell)
        if not b.on_board(cell) or b.is_rock(cell):
            raise _Hard("entry.unknown", f"{_fmt(cell)} is not a cell of this map")
        self.check_round_start(s, zone, ctx)
        s.phase = INSIDE
        s.pos = None
        s.entry = (cell, side)
        s.facing = OPPOSITE[side]
        s.used_entries = s.used_entries | {(cell, side)}
        s.zone = zone
        zdef = b.zones.get(zone)
        s.kind = zdef.requirement_kind if zdef else None
        _begin_round_state(s)

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

    def _move(self, s: GameState, a: Move, ctx: _Ctx) -> None:
        _inside(s, "move")
        b = s.board
        to = a.to
        if not b.on_board(to):
            raise _Hard("move.off_map", f"{_fmt(to)} is not on the map")
        _leave_combat(s, ctx, "before moving on")
        frm = s.pos
        if s.lever_at is not None and frm is not None and s.upper and direction(frm, to) is None \
                and direction(s.lever_at, to) is not None:
            frm = s.pos = s.lever_at          # the hero walked the upper level to the lever and goes on from there
        s.upper = False
        s.lever_at = None
        if frm is None:
            cell, side = s.entry
            if to != cell:
                ctx.soft("move.entry", f"the first move of the round enters {_fmt(cell)} from its arrow "
                         f"{_fmt(cell)}:{side}")
            facing = OPPOSITE[side]
            event_zone = b.zone_of(cell)
            if wall_key(cell, side) in s.walls:
                ctx.soft("move.wall", f"a collapsed wall closes the arrow {_fmt(cell)}:{side}")
        else:
            facing = direction(frm, to)
            if to == frm:
                raise _Hard("move.same", f"the hero is already in {_fmt(to)}")
            if facing is None:
                ctx.soft("move.adjacent", f"{_fmt(to)} is not next to {_fmt(frm)}: a move goes to an adjacent cell")
                dx, dy = to[0] - frm[0], to[1] - frm[1]
                facing = ("E" if dx > 0 else "W") if abs(dx) >= abs(dy) else ("S" if dy > 0 else "N")
            elif s.has_wall(frm, facing):
                ctx.soft("move.wall", f"a wall stands between {_fmt(frm)} and {_fmt(to)} "
                         f"({_fmt(frm)}:{facing}{' collapsed' if wall_key(frm, facing) in s.walls else ''})")
            event_zone = b.zone_of(frm)
        if b.is_rock(to):
            ctx.soft("move.rock", f"{_fmt(to)} is solid rock")
        if to in s.rooms:
            ctx.soft("move.collapsed_room", f"{_fmt(to)} is a collapsed room: no way in, not even with a shovel")
        rule = self.roll_rule(s, to)
        roll = a.roll
        use_events = False
        if rule == "due" and roll is None and self.unwritten_flood(s, to):
            # a flood the log did not write (the issue's format has no flood step) reached this cell
            s.flooded = s.flooded | {to}
            rule = "free"
        # the reading 'potion-step-kept': a potion's (a "may") step is not spent by the step into the
        # Oracle's room, which needs no roll anyway
        kept = (rule == "free" and s.extra_may > 0 and self.oracle_in_centre and b.is_centre(to)
                and to not in s.explored and s.readings.uses(POTION_STEP_KEPT))
        paid = rule == "extra" or (rule == "free" and s.extra > 0 and not kept)   # this move is a pending extra step
        if rule == "due":
            if roll is None:
                ctx.soft("roll.missing", f"{_fmt(to)} is unexplored: a roll (1-6) is due on entering it")
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
            _spend_extra(s)
            if roll is not None and may:
                if not 1 <= roll <= 6:      # a potion's step "may" be taken without rolling: rolled all the same
                    ctx.soft("roll.range", f"roll {roll} is not a d6 result (1-6)")
                else:
                    use_events = True
            elif roll is not None:
                ctx.soft("roll.not_due", f"this is an extra step into {_fmt(to)}: it is taken without rolling")
        else:
            if roll is not None:
                why = ("the Oracle's room is entered without rolling" if b.is_centre(to) else
                       f"{_fmt(to)} is flooded: swim without rolling" if to in s.flooded and to not in s.explored else
                       "Kael rolls no event entering a space with an enemy" if to not in s.explored else
                       f"{_fmt(to)} is already explored: free movement, no roll")
                ctx.soft("roll.not_due", f"no roll is due: {why}")
            if s.extra > 0 and not kept:
                _spend_extra(s)                  # the extra step is this move, though it needed no roll
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
                _gain(s, "chests", 1)
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

    def _arrive(self, s: GameState, to: Coord, ctx: _Ctx) -> None:
        """What happens on reaching a cell: the Imp's mischief, the Oracle, foes to face."""
        b = s.board
        foe = s.enemy_at(to)
        if foe == "imp":
            doomed = [(to, i) for i in b.items.get(to, ()) if i in RESOURCE_ITEMS and (to, i) not in s.removed]
            if doomed:
                s.removed = s.removed | frozenset(doomed)
        if self.oracle_in_centre and b.is_centre(to):
            _visit_oracle(s)
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
    def _fight(self, s: GameState, a: Fight, ctx: _Ctx) -> None:
        _inside(s, "fight")
        pos = s.pos
        foe = s.enemy_at(pos) if pos is not None else None
        if foe is None:
            foe = self.foe_in_water(s, pos)
        if foe is None:
            raise _Hard("fight.no_enemy", f"there is no monster or statue to fight in {_fmt(pos)}")
        self.before_fight(s)
        if a.enemy_type is not None and a.enemy_type != foe:
            if foe == "monster" and pos in s.spawned:
                # "you encounter a monster": a plain monster with the round's strength, not a
                # printed enemy type (a goblin would drop the round's bonus, a bandit give a cornucopia)
                ctx.soft("fight.enemy_type", f"the monster an event put in {_fmt(pos)} is a plain monster "
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
                ctx.soft("fight.enemy_type", f"the foe in {_fmt(pos)} is a {foe}, not a {a.enemy_type}")
        hero, enemy = a.hero, a.enemy
        for who, v in (("hero", hero), ("enemy", enemy)):
            if not 1 <= v <= 6:
                ctx.soft("roll.range", f"the {who} die shows {v}, not a d6 result (1-6)")
        if a.clover_die is not None:
            if s.res.get("clovers", 0) < 1:
                ctx.soft("clover.none", "no four-leaf clover left to reroll a die")
            else:
                _gain(s, "clovers", -1)
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
                _gain(s, "shields", -1)
                outcome = "blocked"
            else:
                outcome = "hit"
                instead = min(fury, diff)          # Fury boxes blacked out instead of hearts
                fury -= instead
                if instead > 0:
                    self.black_out_fury(s, instead, ctx)
                _gain(s, "hearts", -(diff - instead))
                if foe == "bandit":
                    _rob(s, a.stolen, ctx)
                elif foe == "grinch":
                    _gain(s, "green packages", -1)
                elif foe == "yeti":
                    _gain(s, "blue packages", -1)
        if a.stolen is not None and not (outcome == "hit" and foe == "bandit"):
            ctx.soft("bandit.steal", "only a Bandit's hit steals a resource")
        if a.weapon:
            if fury > 0:
                fury -= 1
                self.black_out_fury(s, 1, ctx)         # a Fury box instead of the weapon point
            elif s.readings.uses(WEAPON_ONCE):
                s.weapon_due = True                # paid once, when this combat ends
            else:
                _gain(s, "weapon", -1)
        if fury > 0:
            ctx.soft("fury.excess", f"{a.fury} Fury box(es) is more than the losses of this fight")
        s.last = None if outcome == "win" and s.engaged else outcome    # a second foe in the room: not yet faced
        _check_death(s)
        if outcome == "win" or s.phase == DEAD:
            _end_combat(s)

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
            _gain(s, "cornucopias", horns)
            s.found_here = s.found_here + ("cornucopia",) * horns     # a `collect: cornucopia` after it is this one
            self.cornucopia_obtained(s)

    def _flee(self, s: GameState, a: Flee, ctx: _Ctx) -> None:
        _inside(s, "flee")
        foe = s.enemy_at(s.pos) if s.pos is not None else None
        if foe is None or not s.engaged:
            raise _Hard("flee.nothing", f"there is nothing to flee from in {_fmt(s.pos)}")
        if not may_flee(s):
            ctx.soft("flee.when", "face the foe first: fleeing comes after an exchange" if s.last is None else
                     "a statue is fled after a tie or a blocked hit; after its dart hits, the fight goes on")
        s.engaged = False
        s.fled = True
        _end_combat(s)

    def _candy(self, s: GameState, a: Candy, ctx: _Ctx) -> None:
        _inside(s, "give a candy cane")
        foe = s.enemy_at(s.pos) if s.pos is not None else None
        if foe not in ("yeti", "grinch"):
            raise _Hard("candy.who", "a candy cane distracts only a Yeti or a Grinch")
        if s.res.get("candy canes", 0) < 1:
            ctx.soft("candy.none", "no candy cane to give")
        _gain(s, "candy canes", -1)
        if s.pos in s.spawned:
            sp = dict(s.spawned)
            del sp[s.pos]
            s.spawned = sp
        else:
            s.removed = s.removed | {(s.pos, foe)}
        s.engaged = False

    # -- items -------------------------------------------------------------------------
    def _take_item(self, s: GameState, item: str, take: str | None, ctx: _Ctx) -> None:
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
                    _gain(s, take, 1)
                return
            _gain(s, key, n)

    def _collect(self, s: GameState, a: Collect, ctx: _Ctx) -> None:
        _inside(s, "collect")
        pos = s.pos
        if pos is None:
            raise _Hard("collect.where", "enter the dungeon first")
        item = a.item
        foe = s.enemy_at(pos)
        if foe is not None:
            ctx.soft("collect.enemy", f"the {foe} in {_fmt(pos)} must be beaten before anything is collected")
        if item == "chest" and s.chest_here == pos and "chest" not in s.items_at(pos):
            s.chest_here = None        # the chest event's chest, already marked
            return
        if item in s.found_here and item not in s.items_at(pos):
            i = s.found_here.index(item)   # the item the event (or the kill) gave here: already marked
            s.found_here = s.found_here[:i] + s.found_here[i + 1:]
            if item == "cornucopia" and a.take is not None and s.res.get("cornucopias", 0) > 0:
                _gain(s, "cornucopias", -1)        # redeemed at once
                self._take_item(s, item, a.take, ctx)
            return
        if item == "star" and s.chest_here == pos and (pos, "star") in s.removed:
            s.chest_here = None        # the star landed on: its steps are already granted
            return
        if item in ("stairs", "lever", "magic circle", "statue", "flooded", "hourglass") or item in FOES:
            raise _Hard("collect.not_item", f"a {item} is not collected (stairs: climb, lever: lever, "
                        "magic circle: circle, foes: fight)")
        if item not in s.items_at(pos):
            here = s.items_at(pos)
            raise _Hard("collect.absent", f"there is no {item} in {_fmt(pos)}"
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
                    s.spawned = _with(s.spawned, pos, "monster")
                    s.engaged, s.fled, s.last = True, False, None
                else:
                    for key, n in face.gain:
                        _gain(s, key, n)
                    _check_death(s)
            return
        self._take_item(s, item, a.take, ctx)

    def _redeem(self, s: GameState, a: Redeem, ctx: _Ctx) -> None:
        _alive(s)
        if s.res.get("cornucopias", 0) < 1:
            raise _Hard("cornucopia.none", "no cornucopia to redeem")
        if a.resource not in TRAITS:
            raise _Hard("cornucopia.resource", f"a cornucopia gives one of {', '.join(TRAITS)}, not {a.resource}")
        _gain(s, "cornucopias", -1)
        _gain(s, a.resource, 1)

    def _shovel(self, s: GameState, a: Shovel, ctx: _Ctx) -> None:
        _inside(s, "use a shovel")
        if s.pos != a.cell:
            ctx.soft("shovel.where", f"the hero is in {_fmt(s.pos)}, not {_fmt(a.cell)}: a shovel clears a wall "
                     "of the hero's room")
        _leave_combat(s, ctx)
        if s.res.get("shovels", 0) < 1:
            ctx.soft("shovel.none", "no shovel left")
        beyond = neighbour(a.cell, a.side)
        key = wall_key(a.cell, a.side)
        if not s.board.on_board(beyond):
            if (a.cell, a.side) in s.board.entries and key in s.walls:
                _gain(s, "shovels", -1)          # clears a collapsed exit arrow; the hero stays
                s.walls = s.walls - {key}
                return
            raise _Hard("shovel.edge", f"{_fmt(a.cell)}:{a.side} is the map's edge, not a collapsed wall")
        if key not in s.walls:
            if key in s.board.walls:
                ctx.soft("shovel.printed", f"{_fmt(a.cell)}:{a.side} is a printed wall: a shovel erases only "
                         "collapsed walls")
            else:
                ctx.soft("shovel.no_wall", f"there is no collapsed wall at {_fmt(a.cell)}:{a.side}")
        if beyond in s.rooms:
            ctx.soft("move.collapsed_room", f"{_fmt(beyond)} is a collapsed room: the shovel does not cross it")
        if s.board.is_rock(beyond):
            ctx.soft("move.rock", f"{_fmt(beyond)} is solid rock")
        _gain(s, "shovels", -1)
        s.walls = s.walls - {key}
        if s.extra > 0:
            _spend_extra(s)          # crossing the cleared wall is the next move: the extra step is spent
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

    def _circle(self, s: GameState, a: Circle, ctx: _Ctx) -> None:
        _inside(s, "use a magic circle")
        b = s.board
        if s.pos is None or "magic circle" not in b.items.get(s.pos, ()):
            raise _Hard("circle.here", f"there is no magic circle in {_fmt(s.pos)}")
        if a.to == s.pos or "magic circle" not in b.items.get(a.to, ()):
            raise _Hard("circle.there", f"there is no other magic circle in {_fmt(a.to)}")
        _leave_combat(s, ctx)
        if a.to in s.rooms:
            ctx.soft("move.collapsed_room", f"{_fmt(a.to)} is a collapsed room")
        if s.extra > 0:
            _spend_extra(s)          # the circle's move is the next move: the extra step is spent
        s.upper = False
        s.origin = s.pos
        s.pos = a.to
        s.explored = s.explored | {a.to}
        s.engaged = s.fled = False
        s.last = None
        s.chest_here = None
        s.found_here = ()
        self._arrive(s, a.to, ctx)

    def _climb(self, s: GameState, a: Climb, ctx: _Ctx) -> None:
        _inside(s, "climb")
        if s.pos is None or "stairs" not in s.board.items.get(s.pos, ()):
            raise _Hard("climb.stairs", f"there are no stairs in {_fmt(s.pos)}")
        if s.engaged or (s.enemy_at(s.pos) is not None):
            ctx.soft("collect.enemy", f"the {s.enemy_at(s.pos)} in {_fmt(s.pos)} must be beaten before climbing")
        s.upper = not s.upper
        s.lever_at = None
        s.extra_may = s.extra       # a pending extra step after a climb: it may be taken, or rolled

    def _lever(self, s: GameState, a: Lever, ctx: _Ctx) -> None:
        _inside(s, "pull a lever")
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
                raise _Hard("lever.which", "name the lever's cell, like lever: D4" if candidates
                            else "every lever of the map is already pulled")
        if "lever" not in b.items.get(cell, ()):
            raise _Hard("lever.absent", f"there is no lever in {_fmt(cell)}")
        if not s.upper:
            ctx.soft("lever.stairs", "levers are reached from the upper level: climb the stairs first")
        if cell in s.levers:
            ctx.soft("lever.used", f"the lever in {_fmt(cell)} was already pulled")
            return
        s.levers = s.levers | {cell}
        s.lever_at = cell if s.upper else None
        self.count_requirement(s, "levers", cell)

    def _oracle(self, s: GameState, a: Oracle, ctx: _Ctx) -> None:
        _inside(s, "consult the Oracle")
        if s.pos is not None and not s.board.is_centre(s.pos):
            # written from the room next to it: the step into the Oracle's room (never rolled) comes first
            nxt = [c for c in s.board.centre_cells()
                   if direction(s.pos, c) is not None and not s.has_wall(s.pos, direction(s.pos, c))]
            if nxt:
                self._move(s, Move(nxt[0], None), ctx)
                if s.phase != INSIDE:
                    return
        if s.pos is None or not s.board.is_centre(s.pos):
            raise _Hard("oracle.where", f"the Oracle is in the centre room, not in {_fmt(s.pos)}")
        _visit_oracle(s)
        if a.words:
            s.words = s.words + (a.words,)

    # -- end of round ------------------------------------------------------------------
    def _exit(self, s: GameState, a: Exit, ctx: _Ctx) -> None:
        _inside(s, "exit")
        b = s.board
        name = f"{_fmt(a.cell)}:{a.side}"
        if not self.campaign.exits:
            raise _Hard("campaign.no_exit", "this campaign has no exits")
        if s.pos != a.cell and s.pos is not None and direction(s.pos, a.cell) is not None:
            self._move(s, Move(a.cell, a.roll), ctx)           # step onto the exit cell first, rolling its events
            if s.phase != INSIDE:
                return
        elif a.roll is not None:
            ctx.soft("roll.not_due", f"the hero is already in {_fmt(a.cell)}: no roll to exit")
        if s.pos != a.cell:
            ctx.soft("exit.where", f"the hero is in {_fmt(s.pos)}, not at the exit cell {_fmt(a.cell)}")
        if (a.cell, a.side) not in b.entries:
            ctx.soft("exit.unknown", f"{name} is not an entry/exit arrow of this map")
        elif (a.cell, a.side) in s.used_entries:
            ctx.soft("exit.used", f"the arrow {name} was already used: it is closed for good")
        _leave_combat(s, ctx)
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

    def _market(self, s: GameState, a: Market, ctx: _Ctx) -> None:
        if s.phase == DEAD:
            raise _Hard("dead", "the hero is dead")
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
        _gain(s, "chests", -spend)
        for key, n in a.give:
            _gain(s, key, -n)
        totals: dict[str, int] = {}
        for key, n in a.gain + a.get:
            totals[key] = totals.get(key, 0) + n
        for key, n in totals.items():
            cap = s.caps.get(key)
            if cap is not None and s.res.get(key, 0) + n > cap:
                ctx.soft("resource.cap", f"{key} cannot go above {cap} (the hero's cap)")
            _gain(s, key, n)
        if self.market_once:
            s.market_done = True

    def _coin(self, s: GameState, a: Coin, ctx: _Ctx) -> None:
        if s.phase != DEAD:
            raise _Hard("coin.alive", "INSERT COIN is only for a dead hero")
        if s.coin_used:
            raise _Hard("coin.used", "the INSERT COIN box is already checked: it is the last chance, once")
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
    def _check_coin_traits(s: GameState, traits: dict, ctx: _Ctx) -> None:
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

    def _flood(self, s: GameState, a: Flood, ctx: _Ctx) -> None:
        _inside(s, "flood")
        raise _Hard("flood.campaign", "floods spread only in Discovering the Kraken")

    # -- what the pencil shows ---------------------------------------------------------------
    def _sheet(self, s: GameState, a: Sheet, ctx: _Ctx) -> None:
        claims = {canonical(k): v for k, v in a.values}
        self.settle_claims(s, claims, ctx)
        if s.theft:
            _settle_theft(s, claims, ctx)
        if s.res.get("cornucopias", 0):
            _settle_cornucopias(s, claims)
        for key, claimed in a.values:
            key = canonical(key)
            if key == "score":
                self._score(s, Score(claimed if isinstance(claimed, int) else -1), ctx)
                continue
            if key == "packages" and isinstance(claimed, dict):      # {green: 3, blue: 2}
                for colour, v in claimed.items():
                    k = canonical(f"{str(colour).strip().lower()} packages")
                    if k not in ("green packages", "blue packages"):
                        raise _Hard("sheet.key", f"packages are green or blue, not {colour}")
                    if v != s.res.get(k, 0):
                        ctx.soft("sheet.packages", f"sheet shows {v} {k} but the rules give {s.res.get(k, 0)}")
                continue
            if key in ("requirement", "progress", "statues", "kills", "levers") and isinstance(claimed, str) \
                    and claimed.partition("/")[0].strip().isdigit():
                claimed = int(claimed.partition("/")[0])     # "2/3": two of the three boxes crossed
            try:
                actual = sheet_value(s, key)
            except KeyError:
                raise _Hard("sheet.key", f"'{key}' is not a value on the sheet ({', '.join(SHEET_KEYS)})") from None
            if key in ("requirement", "progress") and isinstance(claimed, dict):
                for k, v in claimed.items():
                    want = self._requirement_of(s, str(k))
                    if want is None:
                        raise _Hard("sheet.key", f"'{k}' is not a round requirement (A-D, or statues, kills, "
                                    "levers, cornucopias)")
                    if v != want:
                        ctx.soft("sheet.requirement", f"sheet shows requirement {k} {v} but the rules give {want}")
                continue
            if key == "walls":
                if isinstance(claimed, int) and not isinstance(claimed, bool):
                    if claimed not in (len(actual), len([w for w in actual if not _arrow_name(s, w)])):
                        ctx.soft("sheet.walls", f"sheet shows {claimed} collapsed walls but the rules give "
                                 f"{len(actual)}: {', '.join(actual) or 'none'}")
                    continue
                claimed_c = _canon_walls(claimed if isinstance(claimed, (list, tuple)) else [claimed])
                if claimed_c is not None:
                    # a wall already on the blank map (printed, or the map's edge) may be listed too, and a
                    # wall fallen across an arrow (on the map's edge) may be listed or not
                    blank = _blank_walls(s)
                    claimed_c = [w for w in claimed_c if w not in blank and not _edge_name(s, w)
                                 and not _arrow_name(s, w)]
                    actual = [w for w in actual if not _arrow_name(s, w)]
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

    def _score(self, s: GameState, a: Score, ctx: _Ctx) -> None:
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

    def check_start(self, s: GameState, start: Coord, ctx: _Ctx) -> None:
        if s.phase != START:
            raise _Hard("round.one", "The Slaughter of Monsters is one endless round")
        # "The path starts at the center of the Map, where you find the Black Start triangle"
        b = s.board
        triangle = b.start if b.start is not None else None
        if triangle is not None and start != triangle:
            ctx.soft("slaughter.start", f"the path starts at the black start triangle in {_fmt(triangle)}, "
                     f"at the centre of the map, not in {_fmt(start)}")
        elif triangle is None and not b.is_centre(start) and b.centre_cells():
            ctx.soft("slaughter.start", f"the path starts at the centre of the map (the black start triangle), "
                     f"not in {_fmt(start)}")

    def monster_may_appear(self, s: GameState) -> bool:
        return s.kills_total < self.max_enemies(s)

    def before_fight(self, s: GameState) -> None:
        if s.kills_total >= self.max_enemies(s):
            raise _Hard("slaughter.max", f"{self.max_enemies(s)} enemies have been met: the slaughter is over")

    def kill_cornucopias(self, s: GameState) -> int:
        return 1 if s.kills_total % KILLS_PER_CORNUCOPIA == 0 else 0

    def black_out_fury(self, s: GameState, n: int, ctx: _Ctx) -> None:
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

    def settle_claims(self, s: GameState, claims: dict, ctx: _Ctx) -> None:
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
            _gain(s, k, v)
        if s.phase == DEAD and s.res.get("hearts", 0) > 0 and s.fury < FURY_BOXES:
            s.phase = INSIDE
            s.engaged = s.pos is not None and s.enemy_at(s.pos) is not None
        self.black_out_fury(s, n, ctx)


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

    def check_start(self, s: GameState, start: Coord, ctx: _Ctx) -> None:
        b = s.board
        if start not in (b.start,) and not any(
                b.is_centre(neighbour(start, side)) for side in DELTA) and not b.is_centre(start):
            ctx.soft("santa.start", f"Santa's start is a coloured space next to Santa's room, not {_fmt(start)}")

    def check_clock(self, s: GameState, ctx: _Ctx) -> None:
        if s.turns > self.turn_limit(s):
            ctx.soft("santa.time", "every hourglass space is marked: time is up, the campaign is over")


class Strength(FouryRules):
    """In and Out with Your Strength: the base game, but every track's full scale is open to
    every character (no beige hero extras): the caps are the full scale (`full_scale`)."""
    campaign = STRENGTH

    def market_open_inside(self, s: GameState) -> bool:
        # "At the end of each turn, you can always purchase additional resources at the market": by
        # default the base game's market between rounds (the texts call a round a turn: "treasures
        # are worth 4 in this final turn"); the reading 'market-every-turn' opens it after any turn
        return not s.engaged and s.readings.uses(MARKET_EVERY_TURN)


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

    def check_round_start(self, s: GameState, zone: str | None, ctx: _Ctx) -> None:
        if s.phase != START:
            ctx.soft("kraken.one_round", "Discovering the Kraken is played in one go: one entry, one exit")

    def unwritten_flood(self, s: GameState, to: Coord) -> bool:
        if s.floods_done >= self.floods_due(s):
            return False
        water = self.water_of(s)
        return any(neighbour(to, d) in water for d in DELTA)

    def check_clock(self, s: GameState, ctx: _Ctx) -> None:
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

    def count_swim(self, s: GameState, to: Coord, free: bool, ctx: _Ctx) -> None:
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
            s.spawned = _with(s.spawned, to, "kraken")     # swimming into its water: face the Kraken
            return "kraken"
        return None

    def foe_in_water(self, s: GameState, pos: Coord) -> str | None:
        if pos in s.flooded and pos in self.water_of(s):
            s.spawned = _with(s.spawned, pos, "kraken")   # "if you swim through flooded spaces, you'll face the Kraken"
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

    def check_exit(self, s: GameState, zone: str | None, ctx: _Ctx) -> None:
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
        ctx = _Ctx()
        try:
            self._handlers[type(a)](s.copy(), a, ctx)
        except _Hard:
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

    def _flood(self, s: GameState, a: Flood, ctx: _Ctx) -> None:
        _inside(s, "flood")
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
                ctx.soft("kraken.flood_far", f"{_fmt(c)} is flooded already: the water spreads to a new space")
            elif not any(neighbour(c, d) in sources for d in DELTA) or not s.board.on_board(c) or s.board.is_rock(c):
                far = True
                ctx.soft("kraken.flood_far", f"{_fmt(c)} is not next to water connected to the Kraken")
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
                         + "; ".join(f"{_fmt(c)} floods none of {', '.join(_fmt(n) for n in targets[c])}"
                                     for c in dry))
        s.flooded = s.flooded | frozenset(a.cells)
        s.floods_done += 1
        if s.pos in a.cells:
            s.engaged = True      # the water reaches you: face the Kraken
            s.spawned = _with(s.spawned, s.pos, "kraken")

    def requirement_claim_ok(self, s: GameState, claimed) -> bool:
        # one round for all four: the entered zone's boxes, or how many requirements are done
        return claimed in (s.kprogress.get(s.kind, 0), len(self.requirements_done(s)))

    def zone_requirement(self, s: GameState, zone: str, kinds: dict) -> int:
        return s.kprogress.get(kinds.get(zone), 0)


# the one table: a map's `campaign:` -> its rules class (python-chess finds its variants by name)
CAMPAIGNS: dict[str, type[FouryRules]] = {cls.campaign.name: cls for cls in (FouryRules, Slaughter, Santa,
                                                                             Strength, Kraken)}
_SHARED: dict[str, FouryRules] = {}


def find_campaign(name: str) -> type[FouryRules]:
    """The rules class of a campaign by its name (a map's `campaign:`); ValueError naming the known ones."""
    cls = CAMPAIGNS.get(name)
    if cls is None:
        raise ValueError(f"unknown campaign '{name}' (known: {', '.join(CAMPAIGNS)})")
    return cls


def rules_for(board_or_name: Board | str) -> FouryRules:
    """The rules object of a board's campaign (or of a campaign by name): one shared instance each."""
    name = board_or_name if isinstance(board_or_name, str) else board_or_name.campaign
    rules = _SHARED.get(name)
    if rules is None:
        rules = _SHARED[name] = find_campaign(name)()
    return rules


# -- module-level conveniences (thin wrappers over the game's rules object) ----------------------
def new_game(board: Board, hero: Hero, readings: Iterable[Any] | ReadingsInUse = ()) -> GameState:
    """A new game under the rules of the board's campaign (see FouryRules.new_game)."""
    return rules_for(board).new_game(board, hero, readings)


def step(state: GameState, action) -> Outcome:
    return state.rules.step(state, action)


def apply(state: GameState, action) -> GameState:
    return state.rules.apply(state, action)


def legal_actions(state: GameState) -> list:
    return state.rules.legal_actions(state)


def chest_value(state: GameState, next_rate: bool = False) -> int:
    return state.rules.chest_value(state, next_rate)


def final_score(s: GameState) -> int:
    """Every remaining element on the board; chests are worth 4 in this final turn."""
    r = s.res
    return (r.get("hearts", 0) + r.get("clovers", 0) + r.get("weapon", 0) + r.get("shields", 0)
            + 4 * r.get("chests", 0) + r.get("shovels", 0) + s.kills)


# -- assertions -----------------------------------------------------------------------
# what players may call things on their sheet -> our names
ALIASES = {
    "heart": "hearts", "life": "hearts", "lives": "hearts", "life points": "hearts", "hp": "hearts",
    "shield": "shields", "weapons": "weapon", "sword": "weapon", "swords": "weapon",
    "clover": "clovers", "four-leaf clover": "clovers", "four-leaf clovers": "clovers", "luck": "clovers",
    "shovel": "shovels", "chest": "chests", "treasure": "chests", "treasures": "chests",
    "cornucopia": "cornucopias", "kill": "kills", "monsters": "kills", "monsters defeated": "kills",
    "requirements": "requirement", "statue": "statues", "lever": "levers", "wall": "walls",
    "green package": "green packages", "blue package": "blue packages", "candy cane": "candy canes",
    "turn": "turns", "insert coin": "coin",
    "round requirement": "requirement", "requirement progress": "requirement",
    "round requirement progress": "requirement", "requirement boxes": "requirement",
    "final score": "score", "points": "score", "fury boxes": "fury", "fury box": "fury", "skulls": "fury",
    "hourglasses": "turns", "hourglass boxes": "turns",
    "reindeers": "reindeer", "candy": "candy canes", "candies": "candy canes", "sleighs": "sleigh",
    "green presents": "green packages", "blue presents": "blue packages",
}


def canonical(key: str) -> str:
    k = str(key).strip().lower().replace("_", " ")
    return ALIASES.get(k, k)


def sheet_value(s: GameState, key: str):
    if key in s.res:
        return s.res[key]
    if key == "kills":
        return s.kills
    if key in ("requirement", "progress"):
        return s.requirement_progress()
    if key == "round":
        return s.round_no
    if key == "walls":
        return sorted(f"{_fmt(c)}:{side}" for c, side in s.walls)
    if key in ("statues", "levers"):
        return s.requirement_progress() if s.kind == key else 0
    if key == "flooded":
        return sorted(_fmt(c) for c in s.flooded)
    if key in ("rooms", "collapsed rooms"):
        return sorted(_fmt(c) for c in s.rooms)
    if key == "explored":
        return sorted(_fmt(c) for c in s.explored)
    if key in ("turns", "hourglass"):
        return s.turns
    if key == "fury":
        return s.fury
    if key in ("position", "cell"):
        return _fmt(s.pos)
    if key == "awakened":
        return s.awakened
    if key == "coin":
        return s.coin_used
    if key == "kills_total":
        return s.kills_total
    if key in ("packages",):
        return s.res.get("green packages", 0) + s.res.get("blue packages", 0)
    if key in SANTA_COUNTERS or key in RESOURCES:
        return 0
    raise KeyError(key)


SHEET_KEYS = RESOURCES + SANTA_COUNTERS + ("kills", "requirement", "progress", "statues", "levers", "round", "walls",
                                           "flooded", "rooms", "explored", "turns",
                                           "hourglass", "fury", "position", "cell", "awakened", "kills_total", "coin",
                                           "score", "packages")


def _edge_name(s: GameState, name: str) -> bool:
    """Is the canonical wall name on the map's edge (and not an arrow)?"""
    c, side = parse_cell_side(name)
    for cell, sd in ((c, side), (neighbour(c, side), OPPOSITE[side])):
        if s.board.on_board(cell) and not s.board.on_board(neighbour(cell, sd)):
            return (cell, sd) not in s.board.entries
    return False


def _arrow_name(s: GameState, name: str) -> bool:
    """Is the canonical wall name the side of an entry arrow?"""
    c, side = parse_cell_side(name)
    return (c, side) in s.board.entries or (neighbour(c, side), OPPOSITE[side]) in s.board.entries


def _canon_walls(value) -> list[str] | None:
    try:
        out = set()
        for w in value:
            c, side = parse_cell_side(str(w))
            k = wall_key(c, side)
            out.add(f"{_fmt(k[0])}:{k[1]}")
        return sorted(out)
    except (TypeError, ValueError):
        return None


def _settle_theft(s: GameState, claims: dict, ctx: _Ctx) -> None:
    """A Bandit's theft the log did not name: the resource the sheet shows one fewer of."""
    while s.theft > 0:
        others = [k for k in RESOURCES if k != "hearts" and s.res.get(k, 0) > 0]
        if not others:
            s.theft = 0
            return
        lower = [k for k in others if isinstance(claims.get(k), int) and claims[k] == s.res[k] - 1]
        if not lower:
            if all(k in claims for k in others):
                s.theft = 0
                ctx.soft("bandit.steal", "the Bandit's hit also stole one other resource: the sheet should "
                         f"show one fewer of {', '.join(others)}")
            return              # not shown yet
        _gain(s, lower[0], -1)
        s.theft -= 1


def _blank_walls(s: GameState) -> set:
    """Walls on the blank map (printed, or the edge beside no arrow), as canonical names."""
    out = {f"{_fmt(k[0])}:{k[1]}" for k in s.board.walls if k not in s.erased}
    return out


def _settle_cornucopias(s: GameState, claims: dict) -> None:
    """Cornucopias used for resources without a step of their own (the issue's log has no
    redeem step): the sheet shows the resources gained and, if listed, the cornucopias gone."""
    have = s.res.get("cornucopias", 0)
    if have < 1:
        return
    gains = {}
    for k in TRAITS:
        v = claims.get(k)
        if isinstance(v, int) and not isinstance(v, bool) and v > s.res.get(k, 0):
            gains[k] = v - s.res.get(k, 0)
    used = sum(gains.values())
    if not used or used > have:
        return
    claimed = claims.get("cornucopias")
    if claimed is not None and claimed != have - used:
        return
    if any(s.caps.get(k) is not None and s.res.get(k, 0) + n > s.caps[k] for k, n in gains.items()):
        return
    _gain(s, "cornucopias", -used)
    for k, n in gains.items():
        _gain(s, k, n)

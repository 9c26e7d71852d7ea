"""The Dungeon Foury rules: a GameState and an action -> the new GameState and the rules it breaks.

Where things are: rules/state.py (GameState, the readings, shared helpers), rules/steps.py
(FouryRules: the base game, one handler per step kind), rules/campaigns/<campaign>.py (one class
each: slaughter, santa, strength, kraken), rules/sheet.py (what a `sheet:` step asserts), rules/two_players.py (the 2 Players Mode: two
single-player states on one map, turns alternating, the duel and the winner), and
here the one table of campaigns (find_campaign, rules_for) and module-level conveniences.

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
- Campaigns: see the classes Slaughter, Santa, Strength and Kraken (rules/campaigns/) (Strength's
  market "at the end of each turn" is between rounds; reading 'market-every-turn':
  also inside, after any turn).
"""
# The package re-exports every name the single module `rules` had, so `from .rules import X` keeps working.
# ruff: noqa: F401
from __future__ import annotations

from typing import Any, Iterable

from ...base import Illegal, Outcome, Reading, ReadingsInUse, Rules, Violation, broken
from ..actions import (Candy, Circle, Climb, Coin, Collect, Enter, Exit, Fight, Flee, Flood, Lever, Market, Move,
                      Oracle, Redeem, Score, Sheet, Shovel)
from ..board import DELTA, ENEMIES, OPPOSITE, Board, Coord, cell_name, direction, neighbour, parse_cell_side, \
    relative_side, wall_key
from ..heroes import TRAITS, Hero, check_free_traits
from ..tables import (ANCIENT, COLLECT_GAIN, EXTRA_STEPS, FLOOD_EVERY, FURY_BOXES, KILLS_PER_CORNUCOPIA,
                     KRAKEN, OPPOSITE_ZONE, REQUIREMENT_COUNT, RESOURCE_ITEMS, RESOURCES, ROUND_BONUS, CHEST_VALUE,
                     SANTA, SANTA_COUNTERS, SANTA_TURNS, SLAUGHTER, SLAUGHTER_MAX, STRENGTH, SWIM_LIMIT, Campaign,
                     foe_strength)

from .state import (BETWEEN, COIN_RESET, DEAD, FOES, FouryReading, GameState, HardBreak, INSIDE, KAEL_ENEMIES,
                    MARKET_EVERY_TURN, MONSTER_TOO, ORACLE_EXIT_ROLLED, ORACLE_ROUND_ZONE, OVER,
                    POTION_STEP_KEPT, READINGS, RETIRED_READINGS, START, StepContext, WEAPON_ONCE,
                    begin_round_state, check_death, dict_with, end_combat, fmt_cell, gain_resource,
                    leave_combat, may_flee, require_alive, require_inside, requirement_count, rob, spend_extra,
                    violations_of, visit_oracle)
from .sheet import (ALIASES, SHEET_KEYS, arrow_named, blank_walls, canon_walls, canonical, edge_named,
                    settle_cornucopias, settle_theft, sheet_value)
from .steps import FouryRules
from .campaigns.slaughter import Slaughter
from .campaigns.santa import Santa
from .campaigns.strength import Strength
from .campaigns.kraken import Kraken


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



"""Policies: how a simulated player decides (pure; dice come from the runner).

A policy answers the questions a player answers at the table:
  entry(state, options)            which entry arrow starts the round
  act(state)                       the next action inside the dungeon (not a fight)
  use_weapon / reroll / block / flee / stolen   the choices of one fight exchange
  market(state)                    what to buy between rounds
The runner rolls the dice and applies every action through the rules engine, so
a policy can never cheat: anything it proposes that the rules forbid is a bug
the runner reports.

cautious  heals before fights, blocks big hits, heads for the round's
          requirement, then the Oracle, then the nearest exit of another zone
greedy    chases chests and kills on the way, spends the weapon freely
random    any legal action, coin-flip fight choices
"""
from __future__ import annotations

from .. import actions as A
from ..board import ENEMIES, wall_key
from ..heroes import TRAITS
from .navigate import Navigator
from .results import CUT_OFF, NOTHING_LEFT, ORACLE_FIRST, TOO_SLOW

KEEPSAKES = ("chest", "cornucopia", "yellow potion", "purple potion")
GAIN_OF = {"potion": "hearts", "yellow potion": "hearts", "purple potion": "hearts", "shovel": "shovels",
           "weapon": "weapon", "shield": "shields", "clover": "clovers"}
STEAL_ORDER = ("clovers", "shovels", "chests", "weapon", "shields", "cornucopias")
GIVE_UP_AFTER = 60       # actions spent seeking a requirement before heading for the Oracle anyway


def die_item(board, roll: int) -> A.Collect:
    """The die item collected with its roll, and what the map's printed die table gives for it."""
    return A.Collect("die", roll=roll, gain=board.die_table[roll].gain)


def foe_strength(state, foe: str) -> int:
    """The bonus the rules add to a foe's die (the engine's own rule: FouryRules.strength)."""
    return state.rules.strength(state, foe)


def fight_exchange(d6, policy, state, foe: str, fury: bool = False) -> A.Fight:
    """One exchange as the policy plays it: hero die, weapon choice, enemy die, clover, shield,
    (with `fury`, the Slaughter's Fury boxes) and what a Bandit steals; `d6` rolls the game's dice."""
    hero = d6()
    weapon = policy.use_weapon(state, foe, hero)
    enemy = d6()
    bonus = foe_strength(state, foe)
    wv = state.res.get("weapon", 0) if weapon else 0
    mine, theirs = hero + wv, enemy + bonus
    clover_die = clover_roll = None
    if mine < theirs:
        clover_die = policy.reroll(state, foe, hero, enemy, mine, theirs)
        if clover_die is not None:
            clover_roll = policy.choose_clover(clover_die) if state.hero.ability == "melyra" else d6()
            if clover_die == "hero":
                mine = clover_roll + wv
            else:
                theirs = clover_roll + bonus
    shield = mine < theirs and policy.block(state, foe, theirs - mine)
    stolen = None
    boxes = 0
    if mine < theirs and not shield:
        if fury:
            boxes = policy.fury(state, theirs - mine)
        if foe == "bandit":
            # what the Bandit can take: the clover is already spent, the weapon point only after the fight
            res = dict(state.res)
            if clover_die is not None:
                res["clovers"] = res.get("clovers", 0) - 1
            choices = [k for k in ("shields", "weapon", "clovers", "shovels", "chests", "cornucopias")
                       if res.get(k, 0) > 0]
            if choices:
                stolen = policy.stolen(state, choices)
    return A.Fight(hero, enemy, weapon, clover_die, clover_roll, shield, None, stolen, boxes)


def cornucopia_round_ahead(state) -> bool:
    """Will a round still need one unused cornucopia delivered to the Oracle?"""
    for letter, zone in state.board.zones.items():
        if zone.requirement_kind == "cornucopias" and letter not in state.zones_done:
            return True
    return False


def _playable(zone_of: dict, unused: frozenset, zones: frozenset, memo: dict) -> bool:
    """Can every zone in zones still be entered by an unused arrow and left by another
    zone's unused arrow, one round after the other?  (zone_of: arrow -> its zone)"""
    if not zones:
        return True
    key = (unused, zones)
    if key in memo:
        return memo[key]
    ok = any(zone_of[a] in zones and any(
        e != a and zone_of[e] != zone_of[a] and _playable(zone_of, unused - {a, e}, zones - {zone_of[a]}, memo)
        for e in unused) for a in unused)
    memo[key] = ok
    return ok


def _arrow_zones(board) -> dict:
    return {e: board.zone_of(e[0]) for e in board.entries}


def _unused(state) -> frozenset:
    """Arrows still open: not used, and not closed by a collapsed wall (nobody enters through
    one; leaving through one needs a shovel, which the plan does not count on)."""
    walls = state.walls
    return frozenset(e for e in state.board.entries if e not in state.used_entries and wall_key(*e) not in walls)


def _zones_left(state, zone_of: dict) -> frozenset:
    return frozenset(z for z in zone_of.values() if z is not None and z not in state.zones_done)


def entry_keeps_game_open(state, arrow) -> bool:
    zone_of = _arrow_zones(state.board)
    z = zone_of[arrow]
    unused = _unused(state) - {arrow}
    rest = _zones_left(state, zone_of) - {z}
    memo: dict = {}
    return any(zone_of[e] != z and _playable(zone_of, unused - {e}, rest, memo) for e in unused)


def exit_keeps_game_open(state, arrow) -> bool:
    zone_of = _arrow_zones(state.board)
    return _playable(zone_of, _unused(state) - {arrow}, _zones_left(state, zone_of) - {state.zone}, {})


class Policy:
    """Shared machinery: a navigator, a planned path, and the round's bookkeeping."""
    name = "policy"
    avoid_foes = True        # route around known foes that are not the target
    collect_die = False
    # the order of the rounds, and why (said in the report)
    order_reason = ("each round through the first arrow, in the map's order, that keeps an arrow in and one of "
                    "another zone out for every round still to play")

    def __init__(self, nav: Navigator, rng):
        self.nav = nav
        self.rng = rng
        self.path: list | None = None
        self.goal = None
        self.avoid: set = set()
        self.round_actions = 0

    # -- the round ---------------------------------------------------------------
    def entry(self, state, options: list) -> A.Enter:
        """The first arrow (in the map's order) that keeps every later round playable."""
        good = [a for a in options if entry_keeps_game_open(state, a.entry)]
        return (good or options)[0]

    def new_round(self) -> None:
        self.path = None
        self.goal = None
        self.avoid = set()
        self.round_actions = 0
        self._exits = None
        self._any_exit = None
        self.gave_up = None      # why the policy stopped seeking the requirement (TOO_SLOW, CUT_OFF, NOTHING_LEFT)

    def act(self, state):
        """The next action inside the dungeon when no fight is pending, or None when stuck."""
        self.round_actions += 1
        pos = state.pos
        if pos is None:
            return A.Move(state.entry[0])
        here = self.cell_action(state)
        if here is not None:
            return here
        goal, targets = self.targets(state)
        if goal == "exit" and pos in targets:
            return self.exit_here(state)
        return self.walk(state, goal, targets)

    # -- in the cell ----------------------------------------------------------------
    def cell_action(self, state):
        pos = state.pos
        foes = state.enemy_at(pos)
        if foes is None:
            for item in state.items_at(pos):
                if self.wants(state, item):
                    if item == "die":
                        return A.Collect("die", roll=0)      # the runner rolls the die
                    return A.Collect(item)
        if state.kind == "levers" and not state.visited and not state.awakened:
            board = state.board
            if state.upper:
                for c, items in board.items.items():
                    if "lever" in items and c not in state.levers:
                        return A.Lever(c)
            elif "stairs" in board.items.get(pos, ()) and foes is None and self._levers_left(state):
                return A.Climb()
        return self.heal(state)

    def wants(self, state, item: str) -> bool:
        if item in KEEPSAKES:
            return True
        if item == "die":
            return self.collect_die and state.res.get("hearts", 0) >= 3
        key = GAIN_OF.get(item)
        return key is not None and state.res.get(key, 0) < (state.caps.get(key) or 99)

    def spare_cornucopias(self, state) -> int:
        keep = 1 if cornucopia_round_ahead(state) else 0
        return state.res.get("cornucopias", 0) - keep

    def heal(self, state):
        if state.res.get("hearts", 0) <= 2 and self.spare_cornucopias(state) > 0:
            return A.Redeem("hearts")
        return None

    @staticmethod
    def _levers_left(state) -> int:
        return sum(1 for items in state.board.items.values() if "lever" in items) - len(state.levers)

    # -- where to go --------------------------------------------------------------
    def targets(self, state):
        """(goal name, set of target cells)."""
        if state.visited:
            if not state.awakened and self.gave_up is None:
                self.gave_up = ORACLE_FIRST     # the way to the requirement went through the Oracle's room
            return "exit", self.exit_cells(state)
        if not state.awakened and self.round_actions < GIVE_UP_AFTER:
            cells = self.requirement_cells(state)
            if cells:
                return "requirement", cells
            if not self._requirement_hopeless(state):
                frontier = self.unexplored(state)
                if frontier:
                    return "explore", frontier
            if self.gave_up is None:
                self.gave_up = NOTHING_LEFT
        elif not state.awakened and self.gave_up is None:
            self.gave_up = TOO_SLOW
        return "oracle", self.nav.centre

    def requirement_cells(self, state) -> set:
        kind = state.kind
        nav = self.nav
        if kind == "statues":
            return {c for c, f in nav.active_foes(state).items() if f == "statue" and c not in state.faced}
        if kind == "kills":
            return {c for c, f in nav.active_foes(state).items() if f in ENEMIES and f != "kraken"}
        if kind == "levers":
            if self._levers_left(state) <= 0:
                return set()
            return {c for c, items in state.board.items.items() if "stairs" in items}
        if kind == "cornucopias":
            if state.res.get("cornucopias", 0) >= 1:
                return set(nav.centre)
            cells = {c for c, items in state.board.items.items()
                     if "cornucopia" in items and (c, "cornucopia") not in state.removed}
            cells |= {c for c, f in nav.active_foes(state).items() if f == "bandit"}
            return cells
        return set()

    @staticmethod
    def _requirement_hopeless(state) -> bool:
        # only kills (monster events) and cornucopias (bandit events) can appear by exploring
        return state.kind not in ("kills",)

    def unexplored(self, state) -> set:
        explored, rooms = state.explored, state.rooms
        return {c for c in self.nav.cells if c not in explored and c not in rooms and c not in self.nav.centre}

    def exit_arrows(self, state) -> list:
        """Arrows this round may leave by, best first: those that keep later rounds playable
        (each needs an arrow in and one of another zone out; exits close arrows too)."""
        if self._exits is None:
            b = state.board
            ok = [(cell, side) for cell, side in b.entries
                  if (cell, side) not in state.used_entries and b.zone_of(cell) != state.zone]
            keep = [e for e in ok if exit_keeps_game_open(state, e)]
            self._exits = keep or ok
            self._any_exit = ok
        return self._exits

    def exit_cells(self, state) -> set:
        dig = state.res.get("shovels", 0) > 0
        return {cell for cell, side in self.exit_arrows(state)
                if dig or wall_key(cell, side) not in state.walls}

    def exit_here(self, state):
        """Leave through an arrow of this cell; a collapsed arrow is dug open first."""
        pos = state.pos
        arrows = self.exit_arrows(state)
        for side in self.nav.entries_at.get(pos, ()):
            if (pos, side) in arrows:
                if wall_key(pos, side) not in state.walls:
                    return A.Exit(pos, side)
                if state.res.get("shovels", 0) > 0:
                    return A.Shovel(pos, side)
        return None

    def walk(self, state, goal, targets):
        pos = state.pos
        if pos in targets or (self.avoid and targets & self.avoid):
            targets = targets - self.avoid - {pos}      # a foe fled from is no target any more
        path = self.path
        if path and self.goal == goal and path[-1] in targets:
            step = self.nav.step_kind(state, pos, path[0])
            if step is not None and step[0] != "shovel":
                return self._step(state, step, path.pop(0))
        avoid = self._avoid(state, targets)
        path = self.nav.path_to(state, pos, targets, avoid)
        if path is None and avoid:
            path = self.nav.path_to(state, pos, targets)
        if path is None and state.res.get("shovels", 0) > 0:
            path = self.nav.path_to(state, pos, targets, dig=True)
        if path is None and goal == "exit" and self._exits != self._any_exit:
            # no way to an exit that keeps every later round open: finishing this round still beats being trapped
            self._exits = self._any_exit
            return self.walk(state, goal, self.exit_cells(state))
        if path is None and goal in ("requirement", "explore"):
            # no way to what is left: go and see the Oracle
            self.round_actions = GIVE_UP_AFTER
            if self.gave_up is None:
                self.gave_up = CUT_OFF
            return self.walk(state, "oracle", self.nav.centre) if pos not in self.nav.centre else None
        if not path:
            self.path = None
            return None
        self.path, self.goal = path, goal
        step = self.nav.step_kind(state, pos, path[0])
        if step is None:
            self.path = None
            return None
        return self._step(state, step, path.pop(0))

    def _avoid(self, state, targets):
        if not self.avoid_foes:
            return self.avoid
        foes = {c for c in self.nav.active_foes(state) if c not in targets}
        return foes | self.avoid if self.avoid else foes

    def _step(self, state, step, to):
        kind, side = step
        if kind == "shovel":
            self.path = None          # the dig changes the map: plan again afterwards
            return A.Shovel(state.pos, side)
        if kind == "circle":
            return A.Circle(to)
        return A.Move(to)

    # -- fights ------------------------------------------------------------------------
    def use_weapon(self, state, foe, hero_roll) -> bool:
        return False

    def reroll(self, state, foe, hero_roll, enemy_roll, mine, theirs):
        """'hero', 'enemy' or None: which die a four-leaf clover rerolls when losing."""
        return None

    def choose_clover(self, die: str) -> int:
        """Melyra picks the clover's result: the best face for the die rerolled."""
        return 6 if die == "hero" else 1

    def block(self, state, foe, diff) -> bool:
        return False

    def flee(self, state, foe) -> bool:
        return False

    def stolen(self, state, choices: list[str]) -> str:
        for k in STEAL_ORDER:
            if k in choices:
                return k
        return choices[0]

    def fled(self, state) -> None:
        """Remember a cell fled from: do not walk back into it this round."""
        self.avoid.add(state.pos)
        self.path = None

    # -- the market -----------------------------------------------------------------------
    market_wants = (("hearts", 5), ("shields", 3), ("weapon", 3), ("clovers", 2), ("shovels", 2))

    def market(self, state, value: int):
        """A Market action spending chests at `value` each, or None to buy nothing."""
        chests = state.res.get("chests", 0)
        if chests <= 0 or not self.spend_now(state):
            return None
        res, caps = dict(state.res), state.caps
        gain: dict[str, int] = {}
        spent = 0
        for _ in range(chests):
            room = sum(max(0, (caps.get(k) or 99) - res.get(k, 0) - gain.get(k, 0)) for k in TRAITS)
            if room < value:
                break
            for _unit in range(value):
                key = self._next_buy(res, gain, caps)
                gain[key] = gain.get(key, 0) + 1
            spent += 1
        if not spent:
            return None
        return A.Market(spent, tuple(sorted(gain.items())))

    def spend_now(self, state) -> bool:
        return True

    def _next_buy(self, res, gain, caps):
        def have(k):
            return res.get(k, 0) + gain.get(k, 0)
        for key, target in self.market_wants:
            if have(key) < min(target, caps.get(key) or 99):
                return key
        for key in ("hearts", "shields", "weapon", "shovels", "clovers"):
            if have(key) < (caps.get(key) or 99):
                return key
        raise AssertionError("no room to buy")   # guarded by the room check


class Cautious(Policy):
    """Plays as a careful person would."""
    name = "cautious"
    # the kill round first, while monsters are weakest (+0 in round 1); the cornucopia last
    round_order = ("kills", "statues", "levers", "cornucopias")
    order_reason = ("the kill round first, while monsters are weakest (+0 in round 1), then statues and levers; "
                    "the cornucopia round last (a cornucopia found on the way is kept for it); each through an "
                    "arrow that keeps an arrow in and one of another zone out for every round still to play")

    def entry(self, state, options):
        good = [a for a in options if entry_keeps_game_open(state, a.entry)] or options
        b = state.board

        def rank(a):
            zone = b.zones.get(b.zone_of(a.entry[0]))
            kind = zone.requirement_kind if zone else None
            return self.round_order.index(kind) if kind in self.round_order else len(self.round_order)
        return min(good, key=rank)     # min keeps the map's order among equals

    def use_weapon(self, state, foe, hero_roll) -> bool:
        if state.res.get("weapon", 0) <= 0:
            return False
        # worth a weapon point when the bare die would probably lose
        return hero_roll <= 3 + foe_strength(state, foe) or state.res.get("hearts", 0) <= 2

    def reroll(self, state, foe, hero_roll, enemy_roll, mine, theirs):
        if state.res.get("clovers", 0) <= 0:
            return None
        diff = theirs - mine
        if diff < 2 and diff < state.res.get("hearts", 0):
            return None
        return "hero" if hero_roll <= 7 - enemy_roll else "enemy"

    def block(self, state, foe, diff) -> bool:
        return state.res.get("shields", 0) > 0 and (diff >= 2 or diff >= state.res.get("hearts", 0))

    def flee(self, state, foe) -> bool:
        if foe == "statue" and state.pos in state.faced:
            return True              # the statue counted when faced: no need to beat it
        if state.kind == "kills" and foe != "minotaur" and state.res.get("hearts", 0) > 2:
            return False
        return state.res.get("hearts", 0) <= 2 or foe_strength(state, foe) >= 3

    def heal(self, state):
        nxt = self.path[0] if self.path else None
        hearts = state.res.get("hearts", 0)
        foe_ahead = nxt is not None and state.enemy_at(nxt) is not None
        if (hearts <= 2 or (foe_ahead and hearts <= 3)) and self.spare_cornucopias(state) > 0:
            return A.Redeem("hearts")
        return None


class Greedy(Policy):
    """Chases chests and kills; spends the weapon freely, keeps chests for a better rate."""
    name = "greedy"
    avoid_foes = False
    collect_die = True
    market_wants = (("weapon", 4), ("hearts", 4), ("shields", 2), ("shovels", 2), ("clovers", 1))

    def targets(self, state):
        if not state.visited and self.round_actions < GIVE_UP_AFTER and state.res.get("hearts", 0) >= 3:
            loot = {c for c, items in state.board.items.items()
                    if "chest" in items and (c, "chest") not in state.removed}
            loot |= {c for c, f in self.nav.active_foes(state).items() if f in ENEMIES and f != "kraken"}
            if not state.awakened:
                loot |= self.requirement_cells(state)
            loot -= self.avoid
            if loot:
                return "loot", loot
        return super().targets(state)

    def use_weapon(self, state, foe, hero_roll) -> bool:
        return state.res.get("weapon", 0) > 0 and hero_roll < 6

    def reroll(self, state, foe, hero_roll, enemy_roll, mine, theirs):
        if state.res.get("clovers", 0) > 0 and theirs - mine >= state.res.get("hearts", 0):
            return "hero" if hero_roll <= 7 - enemy_roll else "enemy"
        return None

    def block(self, state, foe, diff) -> bool:
        return state.res.get("shields", 0) > 0 and diff >= state.res.get("hearts", 0)

    def spend_now(self, state) -> bool:
        # chests rise in value: keep them until the third market unless hurt
        return state.completed >= 3 or state.res.get("hearts", 0) <= 2


class RandomPolicy(Policy):
    """Any legal action, uniformly; coin flips for the fight choices."""
    name = "random"
    order_reason = "any arrow left, at random"

    def entry(self, state, options):
        return self.rng.choice(options)

    def act(self, state):
        self.round_actions += 1
        options = [a for a in playable_actions(state)
                   if not (isinstance(a, A.Collect) and a.item == "die" and state.res.get("hearts", 0) < 2)]
        if not options:
            return None
        return self.rng.choice(options)

    def use_weapon(self, state, foe, hero_roll) -> bool:
        return state.res.get("weapon", 0) > 0 and self.rng.random() < 0.5

    def reroll(self, state, foe, hero_roll, enemy_roll, mine, theirs):
        if state.res.get("clovers", 0) > 0 and self.rng.random() < 0.5:
            return self.rng.choice(("hero", "enemy"))
        return None

    def choose_clover(self, die: str) -> int:
        return self.rng.randint(1, 6)

    def block(self, state, foe, diff) -> bool:
        return state.res.get("shields", 0) > 0 and self.rng.random() < 0.5

    def flee(self, state, foe) -> bool:
        return self.rng.random() < 0.5

    def stolen(self, state, choices):
        return self.rng.choice(choices)

    def spend_now(self, state) -> bool:
        return self.rng.random() < 0.5

    def _next_buy(self, res, gain, caps):
        room = [k for k in TRAITS if res.get(k, 0) + gain.get(k, 0) < (caps.get(k) or 99)]
        return self.rng.choice(room)


def playable_actions(state) -> list:
    """The engine's legal_actions inside the dungeon, each confirmed by the engine itself
    (legal_actions is a quick list: e.g. it offers an exit whose arrow has collapsed)."""
    out = []
    rules = state.rules
    for a in rules.legal_actions(state):
        if isinstance(a, (A.Market, A.Enter, A.Fight, A.Oracle)):
            continue
        if isinstance(a, A.Exit) and wall_key(a.cell, a.side) in state.walls:
            if state.res.get("shovels", 0) <= 0:
                continue
            a = A.Shovel(a.cell, a.side)
        if isinstance(a, A.Collect) and a.item == "die":
            a = A.Collect("die", roll=0)
            probe = A.Collect("die", roll=1)
        elif isinstance(a, A.Move) and state.roll_due(a.to):
            probe = A.Move(a.to, 1)
        else:
            probe = a
        if rules.is_legal(state, probe):
            out.append(a)
    return out


POLICIES = {"cautious": Cautious, "greedy": Greedy, "random": RandomPolicy}

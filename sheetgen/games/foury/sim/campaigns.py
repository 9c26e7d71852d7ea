"""Playing the campaign maps: The Slaughter of Monsters, Santa Crash'n Foury, Discovering the Kraken.

Each campaign has its own end and goal (rules text, "Stretch Goal" sections):
  slaughter  one endless round from the black triangle: kill as many monsters as
             possible before dying; the score is the kills.  The Fury boxes take a
             lethal hit instead of hearts; the fifth makes the hero Furious: every
             monster of the sector is erased and counted, and the game ends.
             Goal: every enemy of the map met (max_enemies, 48).
  santa      from the start next to Santa's room, within the hourglass turns:
             collect 6 reindeer (Rudolph counts), 1 sleigh, 10 green and 10 blue
             packages, or reach the XMas Safe Zone.  Goal: either.
  kraken     one round through one arrow: the four requirements (3 statues, 3
             kills, 2 levers, 1 cornucopia) anywhere, then out through the zone
             opposite the last requirement's zone, before the hourglass runs out
             or the hero dies.  Water spreads every 5 turns (a `flood` step).

The campaign policies keep the chosen policy's fight choices (cautious, greedy,
random) and add the campaign's targets.  Every action goes through the rules
engine; an action it refuses that the policy believed legal is not fatal here:
the game records the rule (reported as `refused`) and goes on with an action
the engine accepts (try apply, keep what it accepts).
"""
from __future__ import annotations

from .. import actions as A
from ..board import DELTA, ENEMIES, neighbour
from ..rules import (DEAD, FLOOD_EVERY, FURY_BOXES, INSIDE, OPPOSITE_ZONE, REQ_OF_KIND, SANTA_TURNS, SLAUGHTER_MAX, SWIM_LIMIT, Forbidden, apply, new_game)
from .navigate import Navigator
from .policies import DIE_GAIN, POLICIES, RandomPolicy, fight_exchange, legal_actions

CAMPAIGNS = ("slaughter", "santa", "kraken")
GOAL, DIED, FURIOUS, TRAPPED, LOST, TIME_UP, SAFE, CLEARED = (
    "won", "died", "furious", "trapped", "lost", "time up", "safe zone", "nothing left")
CAMPAIGN_OUTCOMES = {
    "slaughter": (GOAL, FURIOUS, DIED, CLEARED, TRAPPED, LOST),
    "santa": (SAFE, TIME_UP, DIED, TRAPPED, LOST),
    "kraken": (GOAL, TIME_UP, DIED, TRAPPED, LOST),
}
ACTION_LIMIT = 1500                # a whole campaign game is one long round
SANTA_GOAL = {"reindeer": 6, "sleigh": 1, "green packages": 10, "blue packages": 10}
SANTA_GRID = {"reindeer": 8, "rudolph": 1, "green packages": 16, "blue packages": 16}
SANTA_ITEMS = ("reindeer", "rudolph", "sleigh", "green packages", "blue packages", "candy canes")
SAFE_MARGIN = 3                    # turns kept in hand for the way to the Safe Zone
TIME_RULES = ("santa.time", "kraken.time")
KRAKEN_REQS = ("statues", "kills", "levers", "cornucopias")
FORGET_FLIGHT = 4                  # turns a fled-from foe's room is avoided
WANDER_LIMIT = 60                  # steps wandered at random when the policy sees no way before giving up


def santa_reindeer(res) -> int:
    return res.get("reindeer", 0) + res.get("rudolph", 0)


def santa_collection_done(res) -> bool:
    return (santa_reindeer(res) >= SANTA_GOAL["reindeer"] and res.get("sleigh", 0) >= SANTA_GOAL["sleigh"]
            and res.get("green packages", 0) >= SANTA_GOAL["green packages"]
            and res.get("blue packages", 0) >= SANTA_GOAL["blue packages"])


def santa_grid_full(res) -> bool:
    return all(res.get(k, 0) >= n for k, n in SANTA_GRID.items()) and res.get("sleigh", 0) >= 1


def kraken_target(board, kind: str) -> int:
    for z in board.zones.values():
        if z.requirement_kind == kind and z.requirement_count:
            return z.requirement_count
    return REQ_OF_KIND[kind]


def kraken_done(state) -> list[str]:
    return [k for k in KRAKEN_REQS if state.kprogress.get(k, 0) >= kraken_target(state.board, k)]


def kraken_water(state) -> set:
    """Water joined to the Kraken's lair (as the engine counts the flood sources)."""
    seen = set(state.board.centre_cells())
    todo = list(seen)
    flooded = state.flooded
    while todo:
        c = todo.pop()
        for d in DELTA:
            n = neighbour(c, d)
            if n in flooded and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


class CampaignMixin:
    """Campaign targets on top of a base policy's fight and market choices."""
    campaign = "campaign"

    def entry(self, state, options):
        return options[0]

    def new_round(self):
        super().new_round()
        self.fled_at = {}

    def fled(self, state):
        # one long round: a foe fled from is avoided for a few turns, not for the rest of the game
        self.fled_at[state.pos] = state.turns
        self.path = None

    def act(self, state):
        if isinstance(self, RandomPolicy):
            return RandomPolicy.act(self, state)
        self.avoid = {c for c, t in self.fled_at.items() if state.turns - t < FORGET_FLIGHT}
        return super().act(state)       # Policy.act; with no targets left, walk below answers None

    def walk(self, state, goal, targets):
        pos = state.pos
        targets = set(targets) - self.avoid - {pos}
        if not targets:
            return None
        avoid = self._avoid(state, targets)
        path = self.nav.path_to(state, pos, targets, avoid)
        if path is None and avoid:
            path = self.nav.path_to(state, pos, targets, self.hard_avoid(state) - targets)
        if path is None and state.res.get("shovels", 0) > 0:
            path = self.nav.path_to(state, pos, targets, self.hard_avoid(state) - targets, dig=True)
        if not path:
            self.path = None
            return None
        self.path, self.goal = path, goal
        step = self.nav.step_kind(state, pos, path[0])
        if step is None:
            return None
        return self._step(state, step, path[0])

    def hard_avoid(self, state) -> set:
        return set()

    def _avoid(self, state, targets):
        foes = {c for c in self.nav.active_foes(state) if c not in targets} if self.avoid_foes else set()
        return foes | self.avoid | self.hard_avoid(state)

    def cell_action(self, state):
        pos = state.pos
        if state.enemy_at(pos) is None:
            for item in state.items_at(pos):
                if self.wants(state, item):
                    if item == "die":
                        return A.Collect("die", roll=0)
                    return A.Collect(item)
        return self.heal(state)

    def heal(self, state):
        if state.res.get("hearts", 0) <= 2 and state.res.get("cornucopias", 0) > 0:
            return A.Redeem("hearts")
        return None

    # -- campaign fight choices -----------------------------------------------------
    def fury(self, state, diff: int) -> int:
        return 0

    def candy(self, state, foe) -> bool:
        return False

    def flood_cells(self, state) -> tuple:
        """Where the due flood goes: one new cell next to each joined flooded cell, far from the hero."""
        sources = sorted(kraken_water(state), key=lambda c: (c[1], c[0]))
        board, chosen = state.board, []
        pos = state.pos
        for c in sources:
            cands = [n for n in (neighbour(c, d) for d in DELTA)
                     if board.on_board(n) and not board.is_rock(n) and n not in state.flooded and n not in chosen]
            if not cands:
                continue
            if isinstance(self, RandomPolicy):
                chosen.append(self.rng.choice(cands))
            else:
                far = (lambda n: -(abs(n[0] - pos[0]) + abs(n[1] - pos[1]))) if pos else (lambda n: 0)
                chosen.append(min(cands, key=lambda n: (far(n), n[1], n[0])))
        return tuple(chosen)


class SlaughterMixin(CampaignMixin):
    campaign = "slaughter"
    avoid_foes = False

    def targets(self, state):
        hearts = state.res.get("hearts", 0)
        if hearts <= 2:
            cures = self._cures(state)
            if cures:
                return "heal", cures
        foes = {c for c, f in self.nav.active_foes(state).items() if f != "statue"}
        if foes:
            return "kill", foes
        return "heal", self._cures(state)

    def heal(self, state):
        # a cornucopia comes every 3 kills: spend it at once on what keeps the slaughter going
        if state.res.get("cornucopias", 0) <= 0 or isinstance(self, RandomPolicy):
            return None
        res, caps = state.res, state.caps
        for key, want in (("hearts", 4), ("weapon", 2), ("shields", 2), ("hearts", 99), ("clovers", 99),
                          ("weapon", 99), ("shields", 99)):
            if res.get(key, 0) < min(want, caps.get(key) or 99):
                return A.Redeem(key)
        return None

    def _cures(self, state) -> set:
        return {c for c, items in state.board.items.items()
                for i in items if i in ("potion", "yellow potion", "purple potion", "cornucopia")
                and (c, i) not in state.removed and state.enemy_at(c) is None}

    def fury(self, state, diff):
        # the Fury takes a hit that would kill; when it fills up the hero goes Furious (kills the sector)
        if diff >= state.res.get("hearts", 0):
            return min(diff, FURY_BOXES - state.fury)
        return 0

    def flee(self, state, foe):
        if isinstance(self, RandomPolicy):
            return RandomPolicy.flee(self, state, foe)
        return state.res.get("hearts", 0) <= 1 and state.fury >= FURY_BOXES - 1


class SantaMixin(CampaignMixin):
    campaign = "santa"

    def _time_left(self, state) -> int:
        return (state.board.turns or SANTA_TURNS) - state.turns

    def new_round(self):
        super().new_round()
        self.to_safe = False

    def targets(self, state):
        safe = self._safe_cells(state)
        if self.to_safe:
            return "safe", safe           # decided once: no dithering between loot and the way home
        if safe:
            way = self.nav.path_to(state, state.pos, safe, dig=state.res.get("shovels", 0) > 0)
            need = (len(way) if way is not None else 0) + SAFE_MARGIN
            if way is not None and (self._time_left(state) <= need or santa_collection_done(state.res)):
                self.to_safe = True
                return "safe", safe
        loot = {c for c, items in state.board.items.items()
                for i in items if i in self.santa_wants and (c, i) not in state.removed}
        loot -= self.avoid
        if loot:
            return "loot", loot
        return "safe", safe

    santa_wants = frozenset(("reindeer", "rudolph", "sleigh", "green package", "blue package", "candy cane",
                             "star", "potion", "shield", "weapon", "clover", "shovel", "chest", "cornucopia"))

    def _safe_cells(self, state) -> set:
        z = state.board.safe_zone
        return set(state.board.zone_cells(z)) if z else set()

    def wants(self, state, item):
        return item in self.santa_wants or super().wants(state, item)

    def candy(self, state, foe):
        return foe in ("yeti", "grinch") and state.res.get("candy canes", 0) > 0


class KrakenMixin(CampaignMixin):
    campaign = "kraken"

    def entry(self, state, options):
        if isinstance(self, RandomPolicy):
            return self.rng.choice(options)
        return options[0]

    def new_round(self):
        super().new_round()
        self.swim_ok = False

    def hard_avoid(self, state):
        # swimming past 5 spaces kills and the lair's water is the Kraken: dry land while there is a way
        return set() if self.swim_ok else set(state.flooded)

    def act(self, state):
        action = super().act(state)
        if action is None and not isinstance(self, RandomPolicy) and not self.swim_ok:
            self.swim_ok = True           # no dry way left: swim (and face the Kraken) rather than wait
            action = super().act(state)
            self.swim_ok = False
        return action

    def cell_action(self, state):
        pos = state.pos
        board = state.board
        if "levers" not in kraken_done(state) and state.enemy_at(pos) is None:
            if state.upper:
                for c, items in sorted(board.items.items(), key=lambda kv: (kv[0][1], kv[0][0])):
                    if "lever" in items and c not in state.levers:
                        return A.Lever(c)
            elif "stairs" in board.items.get(pos, ()):
                return A.Climb()
        return super().cell_action(state)

    def wants(self, state, item):
        if item == "cornucopia":
            return True
        return super().wants(state, item)

    def targets(self, state):
        done = kraken_done(state)
        nav, board = self.nav, state.board
        if len(done) < len(KRAKEN_REQS):
            cells = set()
            foes = nav.active_foes(state)
            if "statues" not in done:
                cells |= {c for c, f in foes.items() if f == "statue" and c not in state.faced}
            if "kills" not in done:
                cells |= {c for c, f in foes.items() if f in ENEMIES and f not in ("kraken", "minotaur")
                          or f == "monster"}
            if "levers" not in done:
                cells |= {c for c, items in board.items.items() if "stairs" in items}
            if "cornucopias" not in done:
                cells |= {c for c, items in board.items.items()
                          if "cornucopia" in items and (c, "cornucopia") not in state.removed}
                cells |= {c for c, f in foes.items() if f == "bandit"}
            cells -= self.avoid
            if cells and (self.swim_ok or self.nav.path_to(state, state.pos, cells, self._avoid(state, cells)
                                                          | self.hard_avoid(state)) is not None):
                return "requirement", cells
            return "explore", {c for c in nav.cells if c not in state.explored and c not in state.flooded
                               and c not in state.rooms} - self.avoid
        return "exit", self.exit_cells(state)

    def exit_arrows(self, state):
        b = state.board
        want = OPPOSITE_ZONE.get(state.last_req_zone)
        ok = [e for e in b.entries if e not in state.used_entries]
        if want in b.zones:
            ok = [e for e in ok if b.zone_of(e[0]) == want]
        elif state.last_req_zone is not None:
            ok = [e for e in ok if b.zone_of(e[0]) != state.last_req_zone]
        return ok

    def exit_cells(self, state):
        return {cell for cell, _ in self.exit_arrows(state)}

    def exit_here(self, state):
        for cell, side in self.exit_arrows(state):
            if cell == state.pos:
                return A.Exit(cell, side)
        return None

    def _step(self, state, step, to):
        if to in state.flooded:
            run = 0
            for c in self.path or (to,):
                if c not in state.flooded:
                    break
                run += 1
            if state.swim + run > SWIM_LIMIT:
                return None               # a 6th space swum in a row drowns the hero: not that way
        # backtracking is limited to 5 spaces in a row: when the planned way would go further over
        # explored dry rooms, step into a new room now (a roll resets the count)
        if step[0] == "move" and to in state.explored and to not in state.flooded:
            run = 0
            for c in self.path or (to,):
                if c not in state.explored or c in state.flooded:
                    break
                run += 1
            if state.backtrack + run > SWIM_LIMIT:
                fresh = [n for n, key, _s in self.nav.adj.get(state.pos, ())
                         if n not in state.explored and n not in state.flooded and n not in state.rooms
                         and key not in state.walls]
                if fresh:
                    self.path = None
                    return A.Move(min(fresh, key=lambda n: (n[1], n[0])))
                if state.backtrack >= SWIM_LIMIT:
                    return None           # a 6th space back is forbidden: no planned way from here
        return super()._step(state, step, to)


MIXINS = {"slaughter": SlaughterMixin, "santa": SantaMixin, "kraken": KrakenMixin}
_CLASSES: dict = {}


def campaign_policy(campaign: str, policy: str):
    key = (campaign, policy)
    cls = _CLASSES.get(key)
    if cls is None:
        base = POLICIES[policy]
        cls = _CLASSES[key] = type(f"{campaign.title()}{base.__name__}", (MIXINS[campaign], base), {})
    return cls


class CampaignGame:
    """One campaign game: like runner.Game, with the campaign's start, end and extra steps."""

    def __init__(self, board, hero, policy_name: str, rng, record: bool = False, nav: Navigator | None = None):
        self.board = board
        self.nav = nav or Navigator(board)
        self.policy = campaign_policy(board.campaign, policy_name)(self.nav, rng)
        self.rng = rng
        self.state = new_game(board, hero)
        self.log = [] if record else None
        self.actions = 0
        self.refused: list[str] = []
        self.safe = False

    def d6(self) -> int:
        return int(self.rng.random() * 6) + 1

    def try_do(self, action) -> str | None:
        """Apply; on refusal return the first rule broken (the state is unchanged)."""
        try:
            self.state = apply(self.state, action)
        except Forbidden as exc:
            return exc.rule
        self.actions += 1
        if self.log is not None:
            self.log.append(action)
        return None

    def play(self):
        from .runner import GameResult, RoundRecord
        b = self.board
        s = self.state
        if b.campaign == "kraken":
            options = [A.Enter(entry=e) for e in b.entries]
            self.try_do(self.policy.entry(s, options))
        else:
            self.try_do(A.Enter(start=b.start))
        self.policy.new_round()
        outcome, death = self.play_round()
        st = self.state
        goal = self.goal(outcome)
        rounds = [RoundRecord(None, 1, st.turns, goal, True)]
        deaths = [death] if death else []
        res = dict(st.res)
        figures = self.figures(outcome, goal)
        return GameResult(outcome, 0, False, death, deaths, rounds, st.explored, 0, res, self.actions, self.log,
                          figures)

    def goal(self, outcome) -> bool:
        st, camp = self.state, self.board.campaign
        if camp == "slaughter":
            return st.kills_total >= (self.board.max_enemies or SLAUGHTER_MAX)
        if camp == "santa":
            return self.safe or santa_collection_done(st.res)
        return outcome == GOAL

    def figures(self, outcome, goal) -> dict:
        st, camp = self.state, self.board.campaign
        f = {"goal": goal, "turns": st.turns, "refused": tuple(self.refused)}
        if camp == "slaughter":
            f["kills"] = st.kills_total
            f["furious"] = st.fury >= FURY_BOXES
            f["fury"] = st.fury
        elif camp == "santa":
            f["safe"] = self.safe
            f["collection"] = santa_collection_done(st.res)
            f["grid"] = santa_grid_full(st.res)
            f["items"] = {k: st.res.get(k, 0) for k in SANTA_ITEMS}
        else:
            f["requirements"] = tuple(kraken_done(st))
            f["floods"] = st.floods_done
            f["water"] = len(st.flooded)
        return f

    def play_round(self):
        policy = self.policy
        b = self.board
        camp = b.campaign
        safe_zone = b.safe_zone
        wander = 0
        while True:
            s = self.state
            if s.phase == DEAD:
                cause = ("fury" if s.fury >= FURY_BOXES else "drowned" if camp == "kraken" and s.swim > SWIM_LIMIT
                         else (s.enemy_at(s.pos) if s.pos is not None else None))
                death = (cause or "unknown", b.zone_of(s.pos) or "O", 1, s.pos)
                return (FURIOUS if cause == "fury" else DIED), death
            if s.phase != INSIDE:
                return GOAL, None                       # the Kraken's gates closed behind the hero
            if camp == "santa" and not self.safe and s.pos is not None and b.zone_of(s.pos) == safe_zone \
                    and safe_zone is not None and not s.engaged:
                self.safe = True
                return SAFE, None                       # safe: the hero waits out the hourglass here
            if camp == "slaughter" and s.kills_total >= (b.max_enemies or SLAUGHTER_MAX):
                return GOAL, None
            if self.actions > ACTION_LIMIT:
                return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)
            if s.engaged:
                if not self.fight():
                    return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)
                continue
            if camp == "kraken" and s.floods_done < s.turns // FLOOD_EVERY and not s.turn_open:
                rule = self.try_do(A.Flood(policy.flood_cells(s)))
                if rule is not None:
                    self.refused.append(rule)
                    return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)
                continue
            if self.time_up(s):
                return TIME_UP, None
            action = policy.act(s)
            if action is None:
                if camp == "slaughter" and not policy.nav.active_foes(s):
                    return CLEARED, None            # no monster left anywhere
                moves = [a for a in legal_actions(s) if isinstance(a, (A.Move, A.Shovel, A.Circle))
                         and not (isinstance(a, A.Move) and a.to in s.flooded and s.swim >= SWIM_LIMIT)]
                wander += 1
                if not moves or wander > WANDER_LIMIT:
                    return TRAPPED, ("trapped", b.zone_of(s.pos) or "O", 1, s.pos)
                action = policy.rng.choice(moves)   # no way the policy sees: look around
            rule = self.perform(action)
            if rule in TIME_RULES:
                return TIME_UP, None
            if rule is None:
                if isinstance(action, A.Flee):
                    policy.fled(self.state)
                continue
            # the engine refused what the policy believed legal: record it, take an action it accepts
            self.refused.append(rule)
            options = legal_actions(self.state)
            if not options:
                return TRAPPED, ("trapped", b.zone_of(s.pos) or "O", 1, s.pos)
            moves = [a for a in options if isinstance(a, (A.Move, A.Shovel, A.Circle))]
            rule = self.perform(policy.rng.choice(moves or options))
            if rule in TIME_RULES:
                return TIME_UP, None
            if rule is not None:                    # legal_actions probed it: should not happen
                self.refused.append(rule)
                return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)

    def time_up(self, s) -> bool:
        limit = self.board.turns or (SANTA_TURNS if self.board.campaign == "santa" else None)
        return limit is not None and s.turns >= limit and not s.turn_open

    def perform(self, action) -> str | None:
        """Roll what the rules need rolled, then apply."""
        s = self.state
        if isinstance(action, A.Move) and action.roll is None and s.roll_due(action.to):
            action = A.Move(action.to, self.d6())
        elif isinstance(action, A.Collect) and action.item == "die":
            roll = self.d6()
            action = A.Collect("die", roll=roll, gain=DIE_GAIN[roll])
        return self.try_do(action)

    def fight(self) -> bool:
        """One exchange (as runner.Game.fight) plus the campaign's candy cane and Fury boxes."""
        s = self.state
        policy = self.policy
        foe = s.enemy_at(s.pos)
        if policy.candy(s, foe) and self.try_do(A.Candy()) is None:
            return True
        if s.last in ("tie", "blocked") and policy.flee(s, foe):
            if self.try_do(A.Flee()) is None:
                policy.fled(self.state)
                return True
        action = fight_exchange(self.d6, policy, s, foe, fury=True)
        rule = self.try_do(action)
        if rule is not None:
            # refused (a policy/engine disagreement): record it, fight plainly with the same dice
            self.refused.append(rule)
            plain = A.Fight(action.hero, action.enemy, False, None, None, False, None, action.stolen)
            if self.try_do(plain) is not None and self.try_do(A.Fight(action.hero, action.enemy)) is not None:
                return False
        return True

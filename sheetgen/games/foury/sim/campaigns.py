"""Playing the campaign maps: The Slaughter of Monsters, Santa Crash'n Foury, Discovering the Kraken.

Each campaign has its own end and goal (rules text, "Stretch Goal" sections), and its
own play here: a CampaignPlay (SlaughterPlay, SantaPlay, KrakenPlay), found by the
map's rules class (CAMPAIGN_PLAYS), that says how a game starts, when it stops, what
counts as the goal, which figures it reports, and which policy mixin adds its targets:
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

from sheetgen.games.base import Illegal
from .. import actions as A
from ..board import DELTA, ENEMIES, neighbour
from ..rules import DEAD, INSIDE, Kraken, Santa, Slaughter, rules_for
from ..tables import FLOOD_EVERY, FURY_BOXES, OPPOSITE_ZONE, REQUIREMENT_COUNT, SANTA_GOAL, SANTA_GRID, SWIM_LIMIT
from .navigate import Navigator
from .policies import POLICIES, RandomPolicy, die_item, fight_exchange, playable_actions
from .results import CLEARED, DIED, FURIOUS, GOAL, LOST, SAFE, TIME_UP, TRAPPED, GameResult, RoundRecord
from .stats import hist, rate, rounded, spread

ACTION_LIMIT = 1500                # a whole campaign game is one long round
SANTA_ITEMS = ("reindeer", "rudolph", "sleigh", "green packages", "blue packages", "candy canes")
SAFE_MARGIN = 3                    # turns kept in hand for the way to the Safe Zone
TIME_RULES = ("santa.time", "kraken.time")
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


class CampaignMixin:
    """Campaign targets on top of a base policy's fight and market choices."""

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


class SlaughterMixin(CampaignMixin):
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
    def _time_left(self, state) -> int:
        return state.rules.turn_limit(state) - state.turns

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
        if "levers" not in state.rules.requirements_done(state) and state.enemy_at(pos) is None:
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
        done = state.rules.requirements_done(state)
        nav, board = self.nav, state.board
        if len(done) < len(REQUIREMENT_COUNT):
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

    def flood_cells(self, state) -> tuple:
        """Where the due flood goes: one new cell next to each joined flooded cell, far from the hero."""
        sources = sorted(state.rules.water_of(state), key=lambda c: (c[1], c[0]))
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


# -- what each campaign's game changes ----------------------------------------------------------
class CampaignPlay:
    """A campaign's game in the simulation: its start, its stops, its goal and its figures
    (the rules class changes the rules; this changes how a simulated game is run and reported)."""
    mixin: type = CampaignMixin
    outcomes: tuple = ()
    goal_text = ""                  # the goal, in the report
    headline = ""                   # what the goal rate counts, on the report's first page

    def start(self, game, state):
        return A.Enter(start=game.board.start)

    def death_cause(self, state) -> str | None:
        return state.enemy_at(state.pos) if state.pos is not None else None

    def stop(self, game, state) -> tuple | None:
        """(outcome, death) when the game ends here before the next action, else None."""
        return None

    def due_step(self, game, state):
        """A step the campaign's rules make due now (the Kraken's flood), else None."""
        return None

    def turn_limit(self, board) -> int | None:
        return board.turns

    def cleared(self, game, state) -> bool:
        """Nothing left to do (no target anywhere)?"""
        return False

    def goal(self, game, outcome) -> bool:
        return outcome == GOAL

    def figures(self, game, state) -> dict:
        return {}

    def report(self, fig: dict, stats, board, n: int, goals: int) -> None:
        """The campaign's own figures in the report."""


class SlaughterPlay(CampaignPlay):
    mixin = SlaughterMixin
    outcomes = (GOAL, FURIOUS, DIED, CLEARED, TRAPPED, LOST)
    goal_text = "kill as many monsters as possible before dying (score = kills); goal: every enemy of the map met"
    headline = "games that met every enemy of the map"

    def death_cause(self, state):
        return "fury" if state.fury >= FURY_BOXES else super().death_cause(state)

    def stop(self, game, state):
        if state.kills_total >= state.rules.max_enemies(state):
            return GOAL, None
        return None

    def cleared(self, game, state):
        return not game.policy.nav.active_foes(state)            # no monster left anywhere

    def goal(self, game, outcome):
        return game.state.kills_total >= game.state.rules.max_enemies(game.state)

    def figures(self, game, st):
        return {"kills": st.kills_total, "furious": st.fury >= FURY_BOXES, "fury": st.fury}

    def report(self, fig, stats, board, n, goals):
        kills = hist(stats, "kills")
        fig["kills"] = spread(kills, n)
        fig["kills_distribution"] = {str(k): kills[k] for k in sorted(kills)}
        fig["furious"] = rate(stats.camp[("furious",)], n)
        fig["max_enemies"] = board.max_enemies or Slaughter.campaign.max_enemies


class SantaPlay(CampaignPlay):
    mixin = SantaMixin
    outcomes = (SAFE, TIME_UP, DIED, TRAPPED, LOST)
    goal_text = ("within the hourglass: 6 reindeer, 1 sleigh, 10 green and 10 blue packages, or reach the XMas "
                 "Safe Zone")
    headline = "games that saved Christmas"

    def stop(self, game, state):
        safe_zone = game.board.safe_zone
        if not game.safe and state.pos is not None and game.board.zone_of(state.pos) == safe_zone \
                and safe_zone is not None and not state.engaged:
            game.safe = True
            return SAFE, None                       # safe: the hero waits out the hourglass here
        return None

    def turn_limit(self, board):
        return board.turns or Santa.campaign.turns

    def goal(self, game, outcome):
        return game.safe or santa_collection_done(game.state.res)

    def figures(self, game, st):
        return {"safe": game.safe, "collection": santa_collection_done(st.res), "grid": santa_grid_full(st.res),
                "items": {k: st.res.get(k, 0) for k in SANTA_ITEMS}}

    def report(self, fig, stats, board, n, goals):
        fig["safe_zone"] = rate(stats.camp[("safe",)], n)
        fig["collection"] = rate(stats.camp[("collection",)], n)
        fig["full_grid"] = rate(stats.camp[("grid",)], n)
        fig["items_mean"] = {k: rounded(stats.camp[("item", k)] / n, 2) if n else 0.0 for k in SANTA_ITEMS}
        fig["items_needed"] = dict(SANTA_GOAL)
        fig["items_collected"] = spread(hist(stats, "items"), n)
        fig["hourglass"] = self.turn_limit(board)


class KrakenPlay(CampaignPlay):
    mixin = KrakenMixin
    outcomes = (GOAL, TIME_UP, DIED, TRAPPED, LOST)
    goal_text = "the four requirements in one go, then out opposite the last requirement's zone, before dying"
    headline = "games that sealed the Kraken in"

    def start(self, game, state):
        return game.policy.entry(state, [A.Enter(entry=e) for e in game.board.entries])

    def death_cause(self, state):
        return "drowned" if state.swim > SWIM_LIMIT else super().death_cause(state)

    def due_step(self, game, state):
        if state.floods_done < state.turns // FLOOD_EVERY and not state.turn_open:
            return A.Flood(game.policy.flood_cells(state))
        return None

    def figures(self, game, st):
        return {"requirements": tuple(st.rules.requirements_done(st)), "floods": st.floods_done,
                "water": len(st.flooded)}

    def report(self, fig, stats, board, n, goals):
        reqs = hist(stats, "requirements")
        fig["requirements_completed"] = {str(k): reqs.get(k, 0) for k in range(5)}
        fig["requirements_mean"] = rounded(sum(k * v for k, v in reqs.items()) / n, 3) if n else 0.0
        fig["requirement_rate"] = {k: rate(stats.camp[("requirement", k)], n) for k in REQUIREMENT_COUNT}
        wins = hist(stats, "win turns")
        fig["turns_to_win"] = spread(wins, goals) if goals else None
        fig["hourglass"] = board.turns
        fig["floods_mean"] = rounded(stats.camp[("floods",)] / n, 2) if n else 0.0
        fig["water_cells_mean"] = rounded(stats.camp[("water",)] / n, 2) if n else 0.0


# the campaigns played here, by their rules class (the others are the four-round game: runner.Game)
CAMPAIGN_PLAYS: dict[type, CampaignPlay] = {Slaughter: SlaughterPlay(), Santa: SantaPlay(), Kraken: KrakenPlay()}


def campaign_play(board_or_name) -> CampaignPlay | None:
    """How the simulation plays a map's campaign (None: the four-round game)."""
    return CAMPAIGN_PLAYS.get(type(rules_for(board_or_name)))


_CLASSES: dict = {}


def campaign_policy(campaign: str, policy: str):
    """The policy class for a campaign (by name) and a base policy: the campaign's mixin over it."""
    key = (campaign, policy)
    cls = _CLASSES.get(key)
    if cls is None:
        base = POLICIES[policy]
        cls = _CLASSES[key] = type(f"{campaign.title()}{base.__name__}", (campaign_play(campaign).mixin, base), {})
    return cls


class CampaignGame:
    """One campaign game: like runner.Game, with the campaign's start, end and extra steps."""

    def __init__(self, board, hero, policy_name: str, rng, record: bool = False, nav: Navigator | None = None):
        self.board = board
        self.rules = rules_for(board)
        self.play_as = campaign_play(board)
        self.nav = nav or Navigator(board)
        self.policy = campaign_policy(board.campaign, policy_name)(self.nav, rng)
        self.rng = rng
        self.state = self.rules.new_game(board, hero)
        self.log = [] if record else None
        self.actions = 0
        self.refused: list[str] = []
        self.safe = False
        self.rolls: dict = {}              # (zone, face) -> event rolls (as runner.Game)

    def d6(self) -> int:
        return int(self.rng.random() * 6) + 1

    def try_do(self, action) -> str | None:
        """Apply; on refusal return the first rule broken (the state is unchanged)."""
        try:
            self.state = self.rules.apply(self.state, action)
        except Illegal as exc:
            return exc.rule
        self.actions += 1
        if self.log is not None:
            self.log.append(action)
        return None

    def play(self):
        s = self.state
        self.try_do(self.play_as.start(self, s))
        self.policy.new_round()
        outcome, death = self.play_round()
        st = self.state
        goal = self.play_as.goal(self, outcome)
        rounds = [RoundRecord(None, 1, st.turns, goal, True)]
        deaths = [death] if death else []
        res = dict(st.res)
        figures = self.figures(outcome, goal)
        return GameResult(outcome, 0, False, death, deaths, rounds, st.explored, 0, res, self.actions, self.log,
                          figures, self.rolls)

    def figures(self, outcome, goal) -> dict:
        st = self.state
        f = {"goal": goal, "turns": st.turns, "refused": tuple(self.refused)}
        f.update(self.play_as.figures(self, st))
        return f

    def play_round(self):
        policy = self.policy
        b = self.board
        play = self.play_as
        wander = 0
        while True:
            s = self.state
            if s.phase == DEAD:
                cause = play.death_cause(s)
                death = (cause or "unknown", b.zone_of(s.pos) or "O", 1, s.pos)
                return (FURIOUS if cause == "fury" else DIED), death
            if s.phase != INSIDE:
                return GOAL, None                       # the Kraken's gates closed behind the hero
            stop = play.stop(self, s)
            if stop is not None:
                return stop
            if self.actions > ACTION_LIMIT:
                return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)
            if s.engaged:
                if not self.fight():
                    return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)
                continue
            due = play.due_step(self, s)
            if due is not None:
                rule = self.try_do(due)
                if rule is not None:
                    self.refused.append(rule)
                    return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)
                continue
            if self.time_up(s):
                return TIME_UP, None
            action = policy.act(s)
            if action is None:
                if play.cleared(self, s):
                    return CLEARED, None            # no monster left anywhere
                moves = [a for a in playable_actions(s) if isinstance(a, (A.Move, A.Shovel, A.Circle))
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
            options = playable_actions(self.state)
            if not options:
                return TRAPPED, ("trapped", b.zone_of(s.pos) or "O", 1, s.pos)
            moves = [a for a in options if isinstance(a, (A.Move, A.Shovel, A.Circle))]
            rule = self.perform(policy.rng.choice(moves or options))
            if rule in TIME_RULES:
                return TIME_UP, None
            if rule is not None:                    # playable_actions probed it: should not happen
                self.refused.append(rule)
                return LOST, ("lost", b.zone_of(s.pos) or "O", 1, s.pos)

    def time_up(self, s) -> bool:
        limit = self.play_as.turn_limit(self.board)
        return limit is not None and s.turns >= limit and not s.turn_open

    def perform(self, action) -> str | None:
        """Roll what the rules need rolled, then apply."""
        s = self.state
        key = None
        if isinstance(action, A.Move) and action.roll is None and s.roll_due(action.to):
            action = A.Move(action.to, self.d6())
            b = s.board     # the table of the zone moved from (from a zone-less start: the one entered)
            key = (b.zone_of(s.pos) or b.zone_of(action.to), action.roll)
        elif isinstance(action, A.Collect) and action.item == "die":
            action = die_item(s.board, self.d6())
        rule = self.try_do(action)
        if key is not None and rule is None:
            self.rolls[key] = self.rolls.get(key, 0) + 1
        return rule

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

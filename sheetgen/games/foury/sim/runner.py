"""Playing one complete game: the policy decides, seeded dice roll, the rules engine judges.

Every action goes through sheetgen.games.foury.rules.apply, the function
`sheetgen check` replays logs with; an action the engine refuses is a bug in a
policy and raises SimulationError (never silently skipped).

A game ends when four rounds are complete (won), when the hero dies (and
INSERT COIN is off or used), when the hero is trapped (no way on, no shovel:
"If you get stuck... uh, you're dead"), when no unused entry is left for the
remaining rounds, or after ACTION_LIMIT actions in one round (lost in the
dungeon: only the random policy gets there).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from sheetgen.errors import SheetgenError
from .. import actions as A
from ..board import wall_key
from ..rules import BETWEEN, DEAD, INSIDE, OVER, START, Forbidden, apply, chest_value, new_game
from .navigate import Navigator
from .policies import DIE_GAIN, POLICIES, fight_exchange

ACTION_LIMIT = 400
WON, DIED, TRAPPED, LOST, NO_ENTRY = "won", "died", "trapped", "lost", "no entry"
OUTCOMES = (WON, DIED, TRAPPED, LOST, NO_ENTRY)
SUPPORTED_CAMPAIGNS = ("ancient", "strength", "slaughter", "santa", "kraken")
CAMPAIGN_MAPS = ("slaughter", "santa", "kraken")     # played by sim.campaigns: their own start, end and goal


class SimulationError(SheetgenError):
    """The engine refused an action a policy chose (a policy bug): a clean message naming the
    game, so `sheetgen simulate --games 1 --seed S --logs DIR` can replay it, never a traceback."""
    exit_code = 2


def game_rng(seed: int, index: int) -> random.Random:
    """The dice of game `index`: depends only on the run's seed and the index (not on --jobs)."""
    return random.Random(f"sheetgen-simulate/{seed}/{index}")


@dataclass(slots=True)
class RoundRecord:
    zone: str | None
    round_no: int
    turns: int
    met: bool            # the requirement was met (the Oracle awakened)
    completed: bool


@dataclass(slots=True)
class GameResult:
    outcome: str
    completed: int
    coin_used: bool
    death: tuple | None                  # (cause, zone, round, cell) of the last death or trap
    deaths: list = field(default_factory=list)   # every death (an INSERT COIN game may die twice)
    rounds: list = field(default_factory=list)
    explored: frozenset = frozenset()
    oracle_visits: int = 0
    resources: dict = field(default_factory=dict)
    actions: int = 0
    log: list | None = None              # the applied actions, when recorded
    figures: dict | None = None          # a campaign's own figures (kills, items, requirements ...)


class Game:
    """One game in progress: state, policy, dice and (optionally) the record of actions."""

    def __init__(self, board, hero, policy_name: str, rng: random.Random, coin: bool = False,
                 record: bool = False, nav: Navigator | None = None):
        self.nav = nav or Navigator(board)
        self.policy = POLICIES[policy_name](self.nav, rng)
        self.rng = rng
        self.coin = coin
        self.state = new_game(board, hero)
        self.log = [] if record else None
        self.actions = 0
        self.rounds: list[RoundRecord] = []
        self.deaths: list[tuple] = []
        self.oracle_visits = 0

    def d6(self) -> int:
        return int(self.rng.random() * 6) + 1

    def do(self, action):
        try:
            self.state = apply(self.state, action)
        except Forbidden as exc:
            raise SimulationError(f"the {self.policy.name} policy chose {action!r}, which the rules forbid: "
                                  f"{exc.message}") from None
        self.actions += 1
        if self.log is not None:
            self.log.append(action)

    # -- the game ---------------------------------------------------------------------
    def play(self) -> GameResult:
        outcome = None
        death = None
        while outcome is None:
            s = self.state
            if s.phase == OVER:
                outcome = WON
            elif s.phase in (START, BETWEEN):
                if s.phase == BETWEEN:
                    market = self.policy.market(s, chest_value(s))
                    if market is not None:
                        self.do(market)
                b = s.board
                st = self.state
                options = [A.Enter(entry=e) for e in b.entries
                           if e not in st.used_entries and b.zone_of(e[0]) not in st.zones_done
                           and e[0] not in st.rooms and wall_key(*e) not in st.walls]
                if not options:
                    outcome = NO_ENTRY
                    break
                self.do(self.policy.entry(self.state, options))
                outcome, death = self.play_round()
            elif s.phase == DEAD:
                outcome = DIED
        st = self.state
        return GameResult(outcome, st.completed, st.coin_used, death, self.deaths, self.rounds, st.explored,
                          self.oracle_visits, dict(st.res), self.actions, self.log)

    def play_round(self):
        """Play from the entry to the exit (None), or to the end of the game (outcome, death)."""
        policy = self.policy
        policy.new_round()
        start_turns = self.state.turns
        round_no = self.state.round_no
        zone = self.state.zone
        actions = 0
        while True:
            s = self.state
            if s.phase == DEAD:
                self._round_over(zone, round_no, start_turns, False)
                foe = s.enemy_at(s.pos) if s.pos is not None else None
                death = (foe or "unknown", s.board.zone_of(s.pos) or "O", round_no, s.pos)
                # the foe that killed is still in the cell: enemy_at finds it (a win would have removed it)
                self.deaths.append(death)
                if self.coin and not s.coin_used:
                    self.do(A.Coin())
                    return None, None
                return DIED, death
            if s.phase != INSIDE:
                self._round_over(zone, round_no, start_turns, True)
                if self.log is not None:
                    self.log.append(_sheet(self.state))
                return None, None
            actions += 1
            if actions > ACTION_LIMIT:
                self._round_over(zone, round_no, start_turns, False)
                return LOST, ("lost", s.board.zone_of(s.pos) or "O", round_no, s.pos)
            if s.engaged:
                self.fight()
                continue
            action = policy.act(s)
            if action is None:
                self._round_over(zone, round_no, start_turns, False)
                death = ("trapped", s.board.zone_of(s.pos) or "O", round_no, s.pos)
                self.deaths.append(death)
                return TRAPPED, death
            if isinstance(action, A.Move):
                if s.roll_due(action.to):
                    action = A.Move(action.to, self.d6())
            elif isinstance(action, A.Collect) and action.item == "die":
                roll = self.d6()
                self.do(A.Collect("die", roll=roll, gain=DIE_GAIN[roll]))
                continue
            elif isinstance(action, A.Flee):
                self.do(action)
                policy.fled(self.state)
                continue
            visited = s.visited
            self.do(action)
            if not visited and self.state.visited:
                self.oracle_visits += 1

    def _round_over(self, zone, round_no, start_turns, completed):
        s = self.state
        met = bool(s.rounds_log[-1][2]) if completed and s.rounds_log else bool(s.awakened)
        self.rounds.append(RoundRecord(zone, round_no, s.turns - start_turns, met, completed))

    def fight(self):
        """One exchange: hero die, weapon choice, enemy die, clover, shield; then maybe flee."""
        s = self.state
        policy = self.policy
        foe = s.enemy_at(s.pos)
        if s.last in ("tie", "blocked") and policy.flee(s, foe):
            self.do(A.Flee())
            policy.fled(self.state)
            return
        self.do(fight_exchange(self.d6, policy, s, foe))


def _sheet(s) -> A.Sheet:
    """What the player pencils at the end of a round (checked again by `sheetgen check`)."""
    keys = ("hearts", "shields", "weapon", "clovers", "shovels", "chests", "cornucopias")
    return A.Sheet(tuple((k, s.res.get(k, 0)) for k in keys))


def play_game(board, hero, policy: str, seed: int, index: int, coin: bool = False, record: bool = False,
              nav: Navigator | None = None) -> GameResult:
    """Game `index` of a run seeded `seed`: the same result in any process."""
    try:
        if board.campaign in CAMPAIGN_MAPS:
            from .campaigns import CampaignGame
            return CampaignGame(board, hero, policy, game_rng(seed, index), record, nav).play()
        return Game(board, hero, policy, game_rng(seed, index), coin, record, nav).play()
    except SimulationError as exc:
        raise SimulationError(f"game {index + 1} (seed {seed}): {exc.problems[0].message}") from None

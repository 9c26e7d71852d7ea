"""Playing one complete game: the policy decides, seeded dice roll, the rules engine judges.

Every action goes through the map's rules object (sheetgen.games.foury.rules,
FouryRules.apply), the rules `sheetgen check` replays logs with; an action the
engine refuses is a bug in a policy and raises SimulationError (never silently
skipped).  The campaign maps with their own end and goal are played by
sim/campaigns.py; results.py holds what a game gives.

A game ends when four rounds are complete (won), when the hero dies (and
INSERT COIN is off or used), when the hero is trapped (no way on, no shovel:
"If you get stuck... uh, you're dead"), when no unused entry is left for the
remaining rounds, or after ACTION_LIMIT actions in one round (lost in the
dungeon: only the random policy gets there).
"""
from __future__ import annotations

import random

from sheetgen.games.base import Illegal
from .. import actions as A
from ..board import wall_key
from ..rules import BETWEEN, DEAD, INSIDE, OVER, START, rules_for
from .campaigns import CampaignGame, campaign_play
from .navigate import Navigator
from .policies import POLICIES, die_item, fight_exchange
from .results import (DIED, DIED_FIRST, LOST, LOST_FIRST, NO_ARROW, NO_ENTRY, NOT_SOUGHT, TRAPPED, TRAPPED_FIRST,
                      WALLED_IN, WON, GameResult, RoundRecord, SimulationError)

ACTION_LIMIT = 400


def game_rng(seed: int, index: int) -> random.Random:
    """The dice of game `index`: depends only on the run's seed and the index (not on --jobs)."""
    return random.Random(f"sheetgen-simulate/{seed}/{index}")


class Game:
    """One game in progress: state, policy, dice and (optionally) the record of actions."""

    def __init__(self, board, hero, policy_name: str, rng: random.Random, coin: bool = False,
                 record: bool = False, nav: Navigator | None = None):
        self.nav = nav or Navigator(board)
        self.policy = POLICIES[policy_name](self.nav, rng)
        self.rng = rng
        self.coin = coin
        self.rules = rules_for(board)
        self.state = self.rules.new_game(board, hero)
        self.log = [] if record else None
        self.actions = 0
        self.rounds: list[RoundRecord] = []
        self.deaths: list[tuple] = []
        self.oracle_visits = 0
        self.rolls: dict = {}              # (zone, face) -> event rolls: what each face of each table did
        self.trap = None
        self.last_action = None

    def d6(self) -> int:
        return int(self.rng.random() * 6) + 1

    def do(self, action):
        try:
            self.state = self.rules.apply(self.state, action)
        except Illegal as exc:
            raise SimulationError(f"the {self.policy.name} policy chose {action!r}, which the rules forbid: "
                                  f"{exc.message}") from None
        self.actions += 1
        self.last_action = action
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
                    market = self.policy.market(s, self.rules.chest_value(s))
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
                          self.oracle_visits, dict(st.res), self.actions, self.log, None, self.rolls, self.trap)

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
                self._round_over(zone, round_no, start_turns, False, DIED_FIRST)
                foe = s.enemy_at(s.pos) if s.pos is not None else None
                if foe is None and isinstance(self.last_action, A.Collect):
                    foe = "die table"          # the map's die table took the last life point
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
                self._round_over(zone, round_no, start_turns, False, LOST_FIRST)
                return LOST, ("lost", s.board.zone_of(s.pos) or "O", round_no, s.pos)
            if s.engaged:
                self.fight()
                continue
            action = policy.act(s)
            if action is None:
                self._round_over(zone, round_no, start_turns, False, TRAPPED_FIRST)
                death = ("trapped", s.board.zone_of(s.pos) or "O", round_no, s.pos)
                self.deaths.append(death)
                # after the Oracle the hero seeks an exit: is there an arrow left to leave by at all?
                self.trap = NO_ARROW if s.visited and not policy.exit_arrows(s) else WALLED_IN
                return TRAPPED, death
            if isinstance(action, A.Move):
                if s.roll_due(action.to):
                    roll = self.d6()
                    action = A.Move(action.to, roll)
                    b = s.board     # the table of the zone moved from (from the Oracle: the one entered)
                    key = (b.zone_of(s.pos) or b.zone_of(action.to), roll)
                    self.rolls[key] = self.rolls.get(key, 0) + 1
            elif isinstance(action, A.Collect) and action.item == "die":
                self.do(die_item(s.board, self.d6()))
                continue
            elif isinstance(action, A.Flee):
                self.do(action)
                policy.fled(self.state)
                continue
            visited = s.visited
            self.do(action)
            if not visited and self.state.visited:
                self.oracle_visits += 1

    def _round_over(self, zone, round_no, start_turns, completed, why=None):
        s = self.state
        met = bool(s.rounds_log[-1][2]) if completed and s.rounds_log else bool(s.awakened)
        record = RoundRecord(zone, round_no, s.turns - start_turns, met, completed)
        if not met:
            record.why = why or self.policy.gave_up or NOT_SOUGHT
            record.progress = s.rounds_log[-1][1] if completed and s.rounds_log else s.requirement_progress()
        self.rounds.append(record)

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


def simulated(board) -> bool:
    """Can this map's campaign be simulated: the four-round game, or a campaign with its own play?"""
    return campaign_play(board) is not None or rules_for(board).campaign.rounds == 4


def play_game(board, hero, policy: str, seed: int, index: int, coin: bool = False, record: bool = False,
              nav: Navigator | None = None) -> GameResult:
    """Game `index` of a run seeded `seed`: the same result in any process."""
    try:
        if campaign_play(board) is not None:
            return CampaignGame(board, hero, policy, game_rng(seed, index), record, nav).play()
        return Game(board, hero, policy, game_rng(seed, index), coin, record, nav).play()
    except SimulationError as exc:
        raise SimulationError(f"game {index + 1} (seed {seed}): {exc.problems[0].message}") from None

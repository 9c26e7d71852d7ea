"""`sheetgen simulate MAP --players 2`: Dungeon Foury's 2 Players Mode played by two policies.

Each player is one of the simulate policies (sim/policies.py: they play the standard game, as the
rules text says the mode does: "nothing changes compared to the standard game"); every step goes
through the two-player rules engine (rules/two_players.py), the one `sheetgen check` replays
two-player logs with, and a step it refuses is a bug (SimulationError), never skipped.

How a game is played:
- the first player enters through the arrow their policy picks, the second through one of
  another zone (each starts from a different side);
- turns alternate, the first player first: a player plays their turn (the move that marks the
  hourglass, the fights, collects, free moves and extra steps that go with it) until their next
  step would start another turn; then the opponent plays theirs.  A player who is out or dead takes
  no more turns and the other plays on alone;
- a move that reaches the opponent is followed by the duel (rules/two_players.py's reading): both
  roll, each adds their weapon when their policy would in a fight, the loser blocks with a shield
  when their policy would;
- the game ends when the engine's result is decided (the objective met and settled, a death,
  both out), or when a player is stuck: no legal way on (the rules text: "If you get stuck... you're
  dead"; the engine has no step for it, so the log ends undecided), or lost (ACTION_LIMIT steps).

Game i rolls the dice of its own generator (seed, i), so a run's result for a seed is the same in
any process and with any --jobs.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from sheetgen.errors import InputError, Problem
from .. import actions as A
from ..board import wall_key
from ..rules import two_players as T
from ..rules.state import DEAD, OVER
from .navigate import Navigator
from .policies import POLICIES, die_item, fight_exchange
from .results import SimulationError

ACTION_LIMIT = 600          # steps of one player: a policy walking in circles is lost
NAMES = ("P1", "P2")        # the players' names in the logs
# how a game ended, by the engine's result (what `sheetgen check` says of its log) or the simulation
TREASURES = "treasures"     # out with 5+ treasures in fewer turns (or as the other was done)
SURVIVED = "survived"       # the opponent died (or both did, the opponent first)
DRAW = "draw"
STUCK = "stuck"             # a player had no legal way on (dead by the rules text; the log leaves it open)
LOST = "lost"               # a player took ACTION_LIMIT steps without ending


def two_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"sheetgen-simulate-2/{seed}/{index}")


@dataclass
class TwoResult:
    ending: str                         # TREASURES, SURVIVED, DRAW, STUCK, LOST
    winner: int | None                  # 0 or 1 when the engine decided a winner
    why: str
    ends: tuple[str, str]               # each player: "out", "out with 5+", "dead", "stuck", "lost", "inside"
    turns: tuple[int, int]
    chests: tuple[int, int]
    duels: int
    steps: list = field(default_factory=list)     # (player, action) when recorded
    refused: int = 0                    # policy steps the two-player rules refused (a move taken instead)


class TwoGame:
    """One game of the 2 Players Mode in progress."""

    def __init__(self, board, heroes, policies: tuple[str, str], rng: random.Random, record: bool = False,
                 nav: Navigator | None = None):
        nav = nav or Navigator(board)
        self.board = board
        self.rng = rng
        self.policies = [POLICIES[p](nav, rng) for p in policies]
        self.g = T.new_game(board, tuple(heroes), NAMES)
        self.record = record
        self.steps: list = []
        self.count = [0, 0]
        self.stuck: list[str | None] = [None, None]
        self.duels = 0
        self.refused = 0                # policy steps the two-player rules refused (a move taken instead)

    def d6(self) -> int:
        return int(self.rng.random() * 6) + 1

    def do(self, i: int, action) -> None:
        out = T.step(self.g, i, action)
        if out.violations:
            raise SimulationError(f"{NAMES[i]}'s {self.policies[i].name} policy chose {action!r}, which the "
                                  f"two-player rules forbid: {out.violations[0].message}")
        self.g = out.state
        self.count[i] += 1
        if self.record:
            self.steps.append((i, action))

    # -- the game -----------------------------------------------------------------------------
    def play(self) -> TwoResult:
        b = self.board
        for i in (0, 1):
            st, other = self.g.states[i], self.g.states[1 - i]
            options = [A.Enter(entry=e) for e in b.entries
                       if (other.zone is None or b.zone_of(e[0]) != other.zone) and wall_key(*e) not in st.walls
                       and e[0] not in st.rooms]
            if not options:
                self.stuck[i] = STUCK
                return self.result()
            self.do(i, self.policies[i].entry(st, options))
            self.policies[i].new_round()
        p = 0
        while not T.result(self.g).decided:
            live = [i for i in (0, 1) if not self.g.done(i)]
            if not live:
                break
            if p not in live:
                p = live[0]
            if not self.turn(p, alone=len(live) == 1):
                break                   # stuck or lost: the game cannot go on legally
            p = 1 - p
        return self.result()

    def turn(self, p: int, alone: bool) -> bool:
        """Player p's turn (alone: the rest of their game); False when they are stuck or lost."""
        policy = self.policies[p]
        # the arrows a policy may leave by, kept for its round, change with the opponent's (an arrow
        # they entered or left by is closed for both): computed afresh each turn
        policy._exits = None
        started = False
        while True:
            g = self.g
            st = g.states[p]
            if g.done(p) or (T.result(g).decided and started):
                return True
            if self.count[p] > ACTION_LIMIT:
                self.stuck[p] = LOST
                return False
            if g.duel_due == p:
                self.duel(p)
                continue
            if st.engaged:
                self.fight(p)
                continue
            action = policy.act(st)
            if action is None:
                self.stuck[p] = STUCK
                return False
            tried = T.step(g, p, _probe(st, action))
            if started and not alone and tried.state.states[p].turns > st.turns:
                return True             # the next step starts another turn: the opponent's go first
            if tried.violations:
                # a step of the policy's single-player plan that the two-player rules refuse here (most
                # often a step left from its turn, which the opponent's turn closed): a move instead
                self.refused += 1
                action = self.fallback(p)
                if action is None:
                    self.stuck[p] = STUCK
                    return False
                tried = T.step(g, p, _probe(st, action))
            opens = tried.state.states[p].turns > st.turns
            if isinstance(action, A.Move) and st.roll_due(action.to):
                action = A.Move(action.to, self.d6())
            elif isinstance(action, A.Collect) and action.item == "die":
                action = die_item(st.board, self.d6())
            self.do(p, action)
            started = started or opens
            if isinstance(action, A.Flee):
                policy.fled(self.g.states[p])

    def fallback(self, p: int):
        """A move the two-player rules accept from player p now (the policy's dice), or None."""
        g = self.g
        st = g.states[p]
        moves = [a for a in st.rules.legal_actions(st) if isinstance(a, (A.Move, A.Shovel, A.Circle, A.Exit))
                 and not T.step(g, p, _probe(st, a)).violations]
        return self.policies[p].rng.choice(moves) if moves else None

    def fight(self, p: int) -> None:
        st = self.g.states[p]
        policy = self.policies[p]
        foe = st.enemy_at(st.pos)
        if st.last in ("tie", "blocked") and policy.flee(st, foe):
            self.do(p, A.Flee())
            policy.fled(self.g.states[p])
            return
        self.do(p, fight_exchange(self.d6, policy, st, foe))

    def duel(self, p: int) -> None:
        """The mover's duel: each player's own policy decides their weapon and shield, as in a fight."""
        o = 1 - p
        me, opp = self.g.states[p], self.g.states[o]
        hero = self.d6()
        weapon = me.res.get("weapon", 0) > 0 and self.policies[p].use_weapon(me, "monster", hero)
        opponent = self.d6()
        opp_weapon = opp.res.get("weapon", 0) > 0 and self.policies[o].use_weapon(opp, "monster", opponent)
        mine = hero + (me.res.get("weapon", 0) if weapon else 0)
        theirs = opponent + (opp.res.get("weapon", 0) if opp_weapon else 0)
        shield = opp_shield = False
        if mine < theirs and me.res.get("shields", 0) > 0:
            shield = self.policies[p].block(me, "monster", theirs - mine)
        elif theirs < mine and opp.res.get("shields", 0) > 0:
            opp_shield = self.policies[o].block(opp, "monster", mine - theirs)
        self.do(p, T.Duel(hero, opponent, weapon, opp_weapon, shield, opp_shield))
        self.duels += 1

    def result(self) -> TwoResult:
        g = self.g
        res = T.result(g)

        def end(i: int) -> str:
            st = g.states[i]
            if self.stuck[i]:
                return self.stuck[i] or STUCK
            if st.phase == DEAD:
                return "dead"
            if st.phase == OVER:
                return "out with 5+" if st.res.get("chests", 0) >= T.TREASURES_TO_WIN else "out"
            return "inside"
        ends = (end(0), end(1))
        if res.decided:
            if res.winner is None:
                ending = DRAW
            else:
                ending = TREASURES if ends[res.winner] == "out with 5+" else SURVIVED
        else:
            ending = LOST if LOST in ends else STUCK
        return TwoResult(ending, res.winner if res.decided else None, res.why, ends,
                         (g.states[0].turns, g.states[1].turns),
                         (g.states[0].res.get("chests", 0), g.states[1].res.get("chests", 0)), self.duels,
                         self.steps, self.refused)


def _probe(st, action):
    """ACTION with its dice filled in by any face: whose turn a step opens does not hang on the die."""
    if isinstance(action, A.Move) and action.roll is None and st.roll_due(action.to):
        return A.Move(action.to, 1)
    if isinstance(action, A.Collect) and action.item == "die":
        return die_item(st.board, 1)
    return action


def play_two(board, heroes, policies: tuple[str, str], seed: int, index: int, record: bool = False,
             nav: Navigator | None = None) -> TwoResult:
    try:
        return TwoGame(board, heroes, policies, two_rng(seed, index), record, nav).play()
    except SimulationError as exc:
        raise SimulationError(f"2 players, game {index + 1} (seed {seed}): {exc.problems[0].message}") from None


# -- a run: counts ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TwoSpec:
    map_ref: str
    policies: tuple[str, str]
    heroes: tuple[str | None, str | None]
    seed: int = 1


def _world(spec: TwoSpec):
    from .batch import load_board, make_hero
    board = load_board(spec.map_ref).board
    return board, tuple(make_hero(board, h) for h in spec.heroes), Navigator(board)


def _add(counts: dict, key: str, n: int = 1) -> None:
    counts[key] = counts.get(key, 0) + n


def run_chunk(spec: TwoSpec, start: int, stop: int, world=None) -> dict:
    board, heroes, nav = world or _world(spec)
    c: dict = {}
    for i in range(start, stop):
        r = play_two(board, heroes, spec.policies, spec.seed, i, nav=nav)
        _add(c, "games")
        _add(c, f"ending {r.ending}")
        if r.winner is not None:
            _add(c, f"win {r.winner} {r.ending}")
        for j in (0, 1):
            _add(c, f"end {j} {r.ends[j]}")
            _add(c, f"turns {j}", r.turns[j])
            _add(c, f"chests {j}", r.chests[j])
        _add(c, "duels", r.duels)
        _add(c, "games with a duel", 1 if r.duels else 0)
        _add(c, "refused", r.refused)
    return c


def _chunk(args) -> dict:
    return run_chunk(*args)


def run(spec: TwoSpec, games: int, jobs: int = 1) -> dict:
    """The counts of GAMES games (integer sums: the same whatever JOBS is)."""
    world = _world(spec)                # a bad map or hero fails here, before any process
    if world[0].campaign != "ancient":
        raise InputError(Problem(f"the 2 Players Mode is played on a map of The Ancient Story, not the "
                                 f"'{world[0].campaign}' campaign", path="MAP"))
    if jobs <= 1 or games < 50:
        return run_chunk(spec, 0, games, world)
    from sheetgen.games.workers import worker_pool
    from .batch import chunks
    total: dict = {}
    with worker_pool(jobs) as pool:
        for part in pool.imap_unordered(_chunk, [(spec, a, b) for a, b in chunks(games, jobs)]):
            for k, v in part.items():
                _add(total, k, v)
    return total


def report(spec: TwoSpec, counts: dict) -> dict:
    from sheetgen.stats import wilson
    n = counts.get("games", 0)
    players = []
    for j in (0, 1):
        wins = {e: counts.get(f"win {j} {e}", 0) for e in (TREASURES, SURVIVED)}
        won = sum(wins.values())
        lo, hi = wilson(won, n)
        players.append({
            "player": NAMES[j], "seat": ("first", "second")[j], "policy": spec.policies[j],
            "hero": spec.heroes[j] or "free traits", "wins": won, "win_rate": round(won / n, 4) if n else 0.0,
            "win_rate_ci95": [round(lo, 4), round(hi, 4)], "wins_by_objective": wins,
            "ends": {e: counts.get(f"end {j} {e}", 0) for e in ("out with 5+", "out", "dead", STUCK, LOST, "inside")
                     if counts.get(f"end {j} {e}", 0)},
            "mean_turns": round(counts.get(f"turns {j}", 0) / n, 2) if n else 0.0,
            "mean_treasures": round(counts.get(f"chests {j}", 0) / n, 2) if n else 0.0,
        })
    return {"mode": "2 players", "map": spec.map_ref, "seed": spec.seed, "games": n, "players": players,
            "endings": {e: counts.get(f"ending {e}", 0) for e in (TREASURES, SURVIVED, DRAW, STUCK, LOST)},
            "games_with_a_duel": counts.get("games with a duel", 0),
            "mean_duels": round(counts.get("duels", 0) / n, 3) if n else 0.0,
            "refused_steps": counts.get("refused", 0),
            "meanings": {TREASURES: "won by the objective: out with 5+ treasures in fewer turns",
                         SURVIVED: "won by surviving longer: the opponent died",
                         DRAW: "a draw (equal turns, equal deaths, or both out without 5 treasures)",
                         STUCK: "a player had no legal way on (dead by the rules text; the log leaves it "
                                "undecided): not counted as a win",
                         LOST: f"a player took {ACTION_LIMIT} steps without ending: not counted as a win"}}


def text(rep: dict) -> str:
    n = rep["games"]

    def pct(k: int) -> str:
        return f"{100 * k / n:.1f}%" if n else "-"
    lines = [f"2 Players Mode on {rep['map']}: {n} games (seed {rep['seed']})"]
    for p in rep["players"]:
        lo, hi = p["win_rate_ci95"]
        by = p["wins_by_objective"]
        lines.append(f"{p['player']} ({p['seat']}, {p['policy']}, {p['hero']}): wins {p['wins']} = "
                     f"{pct(p['wins'])} (95% CI {100 * lo:.1f}-{100 * hi:.1f}%): {by[TREASURES]} by 5 treasures "
                     f"and out first, {by[SURVIVED]} by surviving longer")
        lines.append("   ends: " + ", ".join(f"{k} {v}" for k, v in p["ends"].items())
                     + f"; mean turns {p['mean_turns']}, mean treasures {p['mean_treasures']}")
    e = rep["endings"]
    lines.append(f"draws {e[DRAW]} ({pct(e[DRAW])}); not decided: {e[STUCK]} with a player stuck, {e[LOST]} lost")
    lines.append(f"duels: in {rep['games_with_a_duel']} games ({pct(rep['games_with_a_duel'])}), "
                 f"{rep['mean_duels']} a game")
    lines.append("stuck: " + rep["meanings"][STUCK])
    if rep["refused_steps"]:
        lines.append(f"{rep['refused_steps']} steps of the policies' one-player plans were refused by the two-player "
                     "rules (a step of a turn the opponent's turn had closed): a legal move was taken instead")
    return "\n".join(lines)


# -- logs --------------------------------------------------------------------------------------------
def playlog(result: TwoResult, map_ref: str, heroes, title: str | None = None) -> dict:
    """The two-player play log (formats/playlog_two.py) of a recorded game; `winner:` when decided."""
    from ..notation import serialize
    players: list[dict] = []
    steps: list = []
    for j, h in enumerate(heroes):
        spec = {"name": h.name, "traits": dict(h.traits), "caps": dict(h.caps)} if h.name \
            else {"traits": dict(h.traits)}
        players.append({"name": NAMES[j], "hero": spec})
    for i, a in result.steps:
        if isinstance(a, A.Enter):
            players[i]["entry"] = serialize(a)["entry"]
            continue
        if isinstance(a, T.Duel):
            d = {"hero": a.hero, "opponent": a.opponent}
            for k in ("weapon", "opponent_weapon", "shield", "opponent_shield"):
                if getattr(a, k):
                    d[k] = True
            steps.append({"player": NAMES[i], "duel": d})
            continue
        s = serialize(a)
        steps.append({"player": NAMES[i], **(s if isinstance(s, dict) else {s: True})})
    log: dict = {"sheetgen": 1, "kind": "playlog", "ruleset": "foury", "map": map_ref}
    if title:
        log["title"] = title
    log["players"] = players
    log["steps"] = steps
    if result.ending in (TREASURES, SURVIVED, DRAW):
        log["winner"] = "draw" if result.winner is None else NAMES[result.winner]
    return log


def write_logs(spec: TwoSpec, folder, count: int) -> list[Path]:
    from sheetgen.atomic import write_text
    from .export import dump, map_ref_for_log
    board, heroes, nav = _world(spec)
    folder = Path(folder)
    ref = map_ref_for_log(spec.map_ref, folder)
    written = []
    for i in range(count):
        r = play_two(board, heroes, spec.policies, spec.seed, i, record=True, nav=nav)
        target = folder / f"game-{i + 1:04d}.yaml"
        title = f"simulated 2-player game {i + 1} ({' against '.join(spec.policies)}, seed {spec.seed})"
        write_text(target, dump(playlog(r, ref, heroes, title)))
        written.append(target)
    return written

"""Streaming statistics of many games: fixed-size integer counters, merged by addition.

Nothing per game is kept, so memory stays flat however many games are played,
and since every figure is an integer sum, merging chunks in any order (any
--jobs) gives exactly the same totals.  Rates and means are computed at the end.
"""
from __future__ import annotations

from collections import Counter

from sheetgen.stats import wilson
from .results import DIED, OUTCOMES, TRAPPED, WON

RESOURCE_KEYS = ("hearts", "shields", "weapon", "clovers", "shovels", "chests", "cornucopias")


class Stats:
    __slots__ = ("games", "outcomes", "rounds_completed", "coins", "deaths", "turns", "turn_rounds",
                 "req_rounds", "req_met", "resources", "visits", "death_cells", "oracle_games", "actions",
                 "camp")

    def __init__(self):
        self.games = 0
        self.outcomes = Counter()            # won | died | trapped | lost | no entry
        self.rounds_completed = Counter()    # 0..4 -> games
        self.coins = 0                       # games that used INSERT COIN
        self.deaths = Counter()              # (cause, zone, round) -> deaths (trapped included)
        self.turns = Counter()               # round number -> turns summed over completed rounds
        self.turn_rounds = Counter()         # round number -> completed rounds counted
        self.req_rounds = Counter()          # zone -> rounds played there (to the exit or death)
        self.req_met = Counter()             # zone -> rounds whose requirement was met
        self.resources = Counter()           # resource -> summed at the end of each game
        self.visits = Counter()              # cell -> games that entered it
        self.death_cells = Counter()         # cell -> deaths there
        self.oracle_games = 0                # games that reached the Oracle at least once
        self.actions = 0
        self.camp = Counter()                # campaign figures: (name, value) -> games, or (name,) -> sum

    def add(self, g) -> None:
        """Fold one GameResult in (then the game can be forgotten)."""
        self.games += 1
        self.outcomes[g.outcome] += 1
        self.rounds_completed[g.completed] += 1
        self.coins += bool(g.coin_used)
        for cause, zone, rnd, cell in g.deaths:
            self.deaths[(cause, zone, rnd)] += 1
            if cell is not None:
                self.death_cells[cell] += 1
        for r in g.rounds:
            if r.completed:
                self.turns[r.round_no] += r.turns
                self.turn_rounds[r.round_no] += 1
            if r.zone is not None:
                self.req_rounds[r.zone] += 1
                self.req_met[r.zone] += bool(r.met)
        for k in RESOURCE_KEYS:
            self.resources[k] += g.resources.get(k, 0)
        self.visits.update(g.explored)
        self.oracle_games += g.oracle_visits > 0
        self.actions += g.actions
        if g.figures is not None:
            self.add_campaign(g.figures)

    def add_campaign(self, f: dict) -> None:
        """A campaign game's own figures, as integer counters (histograms and sums)."""
        camp = self.camp
        camp[("goal",)] += bool(f["goal"])
        camp[("turns", f["turns"])] += 1
        for rule in f["refused"]:
            camp[("refused", rule)] += 1
        if "kills" in f:
            camp[("kills", f["kills"])] += 1
            camp[("furious",)] += bool(f["furious"])
        if "items" in f:
            camp[("safe",)] += bool(f["safe"])
            camp[("collection",)] += bool(f["collection"])
            camp[("grid",)] += bool(f["grid"])
            for k, v in f["items"].items():
                camp[("item", k)] += v
            camp[("items", sum(v for k, v in f["items"].items() if k != "candy canes"))] += 1
        if "requirements" in f:
            camp[("requirements", len(f["requirements"]))] += 1
            for k in f["requirements"]:
                camp[("requirement", k)] += 1
            camp[("floods",)] += f["floods"]
            camp[("water",)] += f["water"]
            if f["goal"]:
                camp[("win turns", f["turns"])] += 1

    def merge(self, other: "Stats") -> "Stats":
        self.games += other.games
        self.coins += other.coins
        self.oracle_games += other.oracle_games
        self.actions += other.actions
        for name in ("outcomes", "rounds_completed", "deaths", "turns", "turn_rounds", "req_rounds", "req_met",
                     "resources", "visits", "death_cells", "camp"):
            getattr(self, name).update(getattr(other, name))
        return self

    @property
    def wins(self) -> int:
        return self.outcomes[WON]

    @property
    def died(self) -> int:
        return self.outcomes[DIED] + self.outcomes[TRAPPED]

    def outcome_counts(self) -> dict[str, int]:
        return {k: self.outcomes[k] for k in OUTCOMES}


# -- figures from the counters (every one rounded the same way, so reports are byte-identical) ------
def rounded(x: float, nd: int = 4) -> float:
    return round(x, nd)


def hist(stats: Stats, name: str) -> dict[int, int]:
    """A campaign figure's histogram: value -> games."""
    return {k[1]: v for k, v in stats.camp.items() if k[0] == name and len(k) == 2 and v}


def quantile(h: dict[int, int], q: float):
    n = sum(h.values())
    if not n:
        return None
    want, seen = q * (n - 1), 0
    for k in sorted(h):
        seen += h[k]
        if seen > want:
            return k
    return max(h)


def rate(k: int, n: int) -> dict:
    """k of n games, with its 95% (Wilson) interval."""
    lo, hi = wilson(k, n)
    return {"games": k, "rate": rounded(k / n) if n else 0.0, "ci95": [rounded(lo), rounded(hi)]}


def spread(h: dict[int, int], n: int) -> dict:
    """Mean, median, 10%-90% and range of a histogram over n games."""
    total = sum(k * v for k, v in h.items())
    return {"mean": rounded(total / n, 2) if n else 0.0, "median": quantile(h, 0.5),
            "p10": quantile(h, 0.1), "p90": quantile(h, 0.9),
            "min": min(h) if h else None, "max": max(h) if h else None}

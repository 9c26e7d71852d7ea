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
FACES = (1, 2, 3, 4, 5, 6)


class Stats:
    __slots__ = ("games", "outcomes", "rounds_completed", "coins", "deaths", "turns", "turn_rounds",
                 "req_rounds", "req_met", "resources", "visits", "death_cells", "oracle_games", "actions",
                 "camp", "req_why", "req_progress", "round_zone", "orders", "face_games", "face_wins", "face_rolls",
                 "trap_why")
    COUNTERS = ("outcomes", "rounds_completed", "deaths", "turns", "turn_rounds", "req_rounds", "req_met",
                "resources", "visits", "death_cells", "camp", "req_why", "req_progress", "round_zone", "orders",
                "face_games", "face_wins", "face_rolls", "trap_why")

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
        # what a designer asks next
        self.req_why = Counter()             # (zone, why) -> rounds whose requirement was not met, by why
        self.req_progress = Counter()        # (zone, progress) -> those rounds, by how far they got
        self.round_zone = Counter()          # (round number, zone) -> rounds played
        self.orders = Counter()              # the zones of a game's rounds in order ("BACD") -> games
        self.face_games = Counter()          # (zone, face, +1 often / 0 / -1 rarely) -> games with rolls there
        self.face_wins = Counter()           # the same -> games won
        self.face_rolls = Counter()          # (zone, face) -> rolls
        self.trap_why = Counter()            # (zone, why) -> heroes trapped there

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
        order = ""
        for r in g.rounds:
            if r.completed:
                self.turns[r.round_no] += r.turns
                self.turn_rounds[r.round_no] += 1
            if r.zone is not None:
                self.req_rounds[r.zone] += 1
                self.req_met[r.zone] += bool(r.met)
                self.round_zone[(r.round_no, r.zone)] += 1
                order += r.zone
                if not r.met:
                    self.req_why[(r.zone, r.why)] += 1
                    self.req_progress[(r.zone, r.progress)] += 1
        if order:
            self.orders[order] += 1
        if g.trap is not None and g.death is not None:
            self.trap_why[(g.death[1], g.trap)] += 1
        if g.rolls:
            self.add_rolls(g.rolls, g.outcome == WON)
        for k in RESOURCE_KEYS:
            self.resources[k] += g.resources.get(k, 0)
        self.visits.update(g.explored)
        self.oracle_games += g.oracle_visits > 0
        self.actions += g.actions
        if g.figures is not None:
            self.add_campaign(g.figures)

    def add_rolls(self, rolls: dict, won: bool) -> None:
        """A game's event rolls: for each face of each zone's table rolled in the game, did it come
        up more often than its fair sixth (+1), less (-1) or just so (0), and was the game won."""
        totals: dict = {}
        for (zone, face), k in rolls.items():
            totals[zone] = totals.get(zone, 0) + k
            self.face_rolls[(zone, face)] += k
        games, wins = self.face_games, self.face_wins
        for zone, total in totals.items():
            for face in FACES:
                share = 6 * rolls.get((zone, face), 0) - total
                key = (zone, face, (share > 0) - (share < 0))
                games[key] += 1
                if won:
                    wins[key] += 1

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
        for name in self.COUNTERS:
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

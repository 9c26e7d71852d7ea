"""`sheetgen generate map`: a Foury map built to a target win rate (constructive start, then search).

1. Construct: the starter map of `sheetgen new map` (four wedge zones, the base game's
   requirements, items that meet them), or the designer's partial map (--from): a map the lint
   accepts with no finding.
2. Improve by simulation: hill climbing with racing.  A step changes one thing the designer did
   not keep (an event face, an item, a requirement count, a wall), pointed the way the target
   lies (harder when the map plays too easy) and is refused at once unless the lint accepts the
   changed map with no finding.  Every candidate plays the same games as the current map (common
   random numbers: the same seeds, so a difference is the map's, not the dice's); its estimate is
   the current map's plus that difference.  It first plays a short heat and is dropped there when
   it is clearly further from the target than the map it would replace (racing), else it plays
   the full evaluation and replaces the map when it is closer.
3. Verify, aiming inside the tolerance: a map whose estimate lies within the band plays fresh
   games on seeds the search never used, a chunk at a time; it is the answer when the
   verification's estimate lies within the band of its size (Target.band): the band that keeps
   the 95% interval of a later fresh check of Target.fresh_games() games within the tolerance
   but for a chance of at most SAFETY_TAIL per look (the binomial numbers: docs/designing.md).

Everything is seeded from --seed (the search's choices and the games), and the games' wins
are sums, so the same seed gives the same map with any --cluster or none.
"""
from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from sheetgen.errors import InputError, Problem
from sheetgen.stats import wilson
from .. import board as fb
from ..formats import starter
from ..heroes import HEROES
from .batch import make_hero
from .checks import Checks, Finding, findings as check_findings, play_checked, summary_lines
from .navigate import Navigator
from .results import WON
from .runner import play_game

KEEPABLE = ("zones", "walls", "items")
# event faces from easy to hard: a step moves a face along this ladder
EVENT_LADDER = ("chest", "extra step", "find potion", "collapse front", "collapse left right", "monster",
                "collapse behind + monster")
RESOURCE_ITEMS = ("potion", "shield", "weapon", "clover", "shovel", "chest")
FOES = ("goblin", "orc", "troll")
VERIFY_OFFSET = 1_000_003           # the verification's seed: seed + this (the search never plays it)
HEAT = 120                          # the racing heat: games before a hopeless candidate is dropped
FULL = 400                          # the least games of a candidate's full evaluation
Z95 = 1.959963984540054
FRESH_SHARE = 5                     # a fresh check's 95% half-width is a fifth of the tolerance
SAFETY_Z = 3.3                      # standard errors kept between the verified estimate and a fresh miss
# ... so that the chance, per look, that a map is accepted and a fresh check still misses is at most
# this, for any true win rate: the exact binomial sums say so (tests/test_foury_generate.py computes
# them; 6e-5 to 1e-4 at 20%-45% +- 5%, where the normal tail of SAFETY_Z, 5e-4, would be looser)
SAFETY_TAIL = 1e-4
LOOKS = 4                           # a verification plays fresh_games() in this many chunks at most


@dataclass
class Target:
    win_rate: float
    tolerance: float

    def within(self, lo: float, hi: float) -> bool:
        return self.win_rate - self.tolerance <= lo and hi <= self.win_rate + self.tolerance

    def variance(self) -> float:
        """The most p(1-p) of a win rate within the tolerance (a binomial game's variance, at worst)."""
        lo, hi = max(0.0, self.win_rate - self.tolerance), min(1.0, self.win_rate + self.tolerance)
        x = 0.5 if lo <= 0.5 <= hi else (hi if hi < 0.5 else lo)
        return x * (1 - x)

    def fresh_games(self) -> int:
        """The fresh check the promise is sized for: the games whose 95% half-width is tolerance/5
        (9,604 at 45% +- 5%), also the most games one verification plays."""
        return math.ceil((FRESH_SHARE * Z95) ** 2 * self.variance() / self.tolerance ** 2)

    def band(self, games: int) -> float:
        """How far from the target a verification's estimate over `games` games may lie for the map to
        be the answer: a fresh check of fresh_games() games then misses the tolerance (its 95% interval
        reaching outside) only when the two estimates differ by SAFETY_Z standard errors of their
        difference: at most SAFETY_TAIL.  Negative: too few games to promise anything."""
        if games <= 0:
            return -1.0
        q, f = self.variance(), self.fresh_games()
        s_fresh, s_verify = math.sqrt(q / f), math.sqrt(q / games)
        # room for the fresh estimate: the tolerance less its own 95% half-width (and 1/f for Wilson's
        # small shift of the centre)
        room = self.tolerance - Z95 * s_fresh - 1 / f
        return room - SAFETY_Z * math.sqrt(s_fresh ** 2 + s_verify ** 2)


@dataclass
class Outcome:
    text: str | None            # the map file (the budget ran out first: None, see best_text)
    met: bool
    win_rate: float
    interval: tuple[float, float]
    verify_games: int
    games: int                  # every game played, search and verification
    candidates: int
    changes: list[str] = field(default_factory=list)
    best_text: str | None = None
    checks: Checks | None = None        # the verification's checks (sim/checks.py)
    board: object = None                # the answer's board (for the checks' lines)
    reported: list = field(default_factory=list)    # checks failed that the search cannot change
    rejected: int = 0                   # maps within the target that failed a check the search can change
    band: float = 0.0                   # the band the verified estimate lay within (Target.band)
    looks: int = 0                      # verification looks in the search (each may accept: SAFETY_TAIL)
    verified: bool = False              # best_text (budget ran out) was verified: win_rate/interval are its


def check_target(win_rate: float, tolerance: float, budget: int, heroes: int, budget_check: bool = True) -> None:
    """Exit 2 for a target no search can meet: outside (0, 1), or an interval the budget cannot narrow
    (budget_check=False: the workbench's Suggest, which offers the closest map of a short search)."""
    problems = []
    if not 0.0 < win_rate < 1.0:
        problems.append(Problem(f"--win-rate {win_rate:g} cannot be met: a 95% interval of a finite run never "
                                f"lies at 0 or 1", path="--win-rate", expected="a share between 0 and 1, like 0.25"))
    if not 0.0 < tolerance < 0.5:
        problems.append(Problem(f"--tolerance {tolerance:g} is not a usable margin", path="--tolerance",
                                expected="between 0 and 0.5, like 0.05"))
    if problems:
        raise InputError(problems)
    if not budget_check:
        return
    # the most games a verification plays (Target.fresh_games), and the search about as many again
    need = Target(win_rate, tolerance).fresh_games()
    if need * 2 > budget * heroes:
        raise InputError(Problem(f"--budget {budget} games cannot verify {win_rate:g} ± {tolerance:g}: the "
                                 f"verification alone may play {need} games, the search as many again",
                                 path="--budget", expected=f"at least {need * 2 // heroes + 1} games, or a wider "
                                 f"--tolerance"))


def start_values(columns: int, rows: int, campaign: str, source=None) -> dict:
    values = starter.values_of(source) if source is not None else starter.fresh_map(columns, rows)
    values["campaign"] = campaign if source is None or campaign else values["campaign"]
    if values["campaign"] == "strength":
        values["hero_extras"] = False            # the Strength sheet has no hero extra boxes
    values["die_table_shown"] = True
    return values


def render(title: str, values: dict) -> str:
    return starter.map_text(title, values).replace("(written by `sheetgen new map`)", "(written by `sheetgen generate map`)", 1)


def load_text(text: str, name: str = "generated.yaml"):
    """(map, findings) of a map text, as `sheetgen validate` sees it; (None, problems) when it does not load."""
    from sheetgen.definitions.registry import Source, read_header
    from sheetgen.definitions.yamlsource import parse_yaml
    from ..formats import map as fm
    data = parse_yaml(text, name)
    read_header(data, name)
    try:
        fmap = fm.load(data, Source(path=Path(name), data=data))
    except InputError as exc:
        return None, exc.problems
    return fmap, fm.lint(fmap)


# -- playing ----------------------------------------------------------------------------------------
_WORLDS: dict = {}


def play_world(text: str, hero: str | None):
    key = (text, hero)
    got = _WORLDS.get(key)
    if got is None:
        fmap, _ = load_text(text)
        if fmap is None:
            raise InputError(Problem("the generated map does not load"))
        got = (fmap.board, make_hero(fmap.board, hero), Navigator(fmap.board))
        if len(_WORLDS) > 8:
            _WORLDS.clear()
        _WORLDS[key] = got
    return got


def wins_chunk(text: str, hero: str | None, policy: str, seed: int, start: int, stop: int) -> int:
    """Games start..stop of the map text: how many were won (a cluster worker runs this too)."""
    board, h, nav = play_world(text, hero)
    return sum(play_game(board, h, policy, seed, i, nav=nav).outcome == WON for i in range(start, stop))


def checks_chunk(text: str, hero: str | None, policy: str, seed: int, start: int, stop: int) -> Checks:
    """The same games as wins_chunk, checked (sim/checks.py): wins, requirements met, faces that mattered."""
    board, h, nav = play_world(text, hero)
    return play_checked(board, h, policy, seed, start, stop, nav)


class Player:
    """Plays n games of a map text for each hero, here or on a cluster; returns (wins, games)."""

    def __init__(self, heroes: list, policy: str, cluster: str | None = None, progress=None):
        self.heroes, self.policy, self.cluster, self.progress = heroes, policy, cluster, progress
        self.played = 0

    def _tasks(self, text: str, seed: int, start: int, stop: int) -> list:
        tasks = []
        for h in self.heroes:
            size = 100
            tasks += [(text, h, self.policy, seed, a, min(a + size, stop)) for a in range(start, stop, size)]
        return tasks

    def _run(self, fn, tasks: list, games: int) -> list:
        if self.cluster:
            from sheetgen.games.cluster import map_batches
            out = map_batches(self.cluster, fn, tasks)
        else:
            out = [fn(*t) for t in tasks]
        self.played += games
        if self.progress is not None:
            self.progress(games)
        return out

    def wins(self, text: str, seed: int, start: int, stop: int) -> tuple[int, int]:
        games = (stop - start) * len(self.heroes)
        return sum(self._run(wins_chunk, self._tasks(text, seed, start, stop), games)), games

    def checks(self, text: str, seed: int, start: int, stop: int) -> Checks:
        """The games of wins(), checked (sums: any order of the batches gives the same figures)."""
        games = (stop - start) * len(self.heroes)
        total = Checks()
        for part in self._run(checks_chunk, self._tasks(text, seed, start, stop), games):
            total = total + part
        return total


# -- changing ---------------------------------------------------------------------------------------
def _cells(values: dict) -> dict:
    return {(x, y): sym for y, row in enumerate(values["rows"]) for x, sym in enumerate(row.split())}


def _needed(values: dict) -> set[str]:
    """Cells whose item a requirement or the first meeting of one counts on (never removed)."""
    kinds = {z["letter"]: z["requirement"][0] for z in values["zones"] if z["requirement"]}
    out = set()
    for cell, names in values["items"].items():
        names = names if isinstance(names, list) else [names]
        zone = _cells(values).get(fb.parse_cell(cell))
        kind = kinds.get(zone)
        if {"statues": "statue", "levers": "lever", "cornucopias": "cornucopia"}.get(kind) in names \
                or "stairs" in names or "die" in names:
            out.add(cell)
    return out


def mutate(values: dict, rng: random.Random, harder: bool, keep: set[str]) -> tuple[dict, str] | None:
    """One change, pointed harder or easier; None when the chosen kind has nothing to change."""
    v = copy.deepcopy(values)
    kinds = [k for k, part in (("event", "zones"), ("requirement", "zones"), ("item", "items"), ("wall", "walls"))
             if part not in keep]
    if not kinds:
        return None
    kind = rng.choice(kinds + ["event"] * ("event" in kinds))      # events: the finest knob, twice as often
    cells = _cells(v)
    if kind == "event":
        z = rng.choice(v["zones"])
        face = rng.randint(1, 6)
        old = z["events"][face]
        rung = EVENT_LADDER.index(old) if old in EVENT_LADDER else (len(EVENT_LADDER) // 2)
        new_rung = rung + (1 if harder else -1)
        if not 0 <= new_rung < len(EVENT_LADDER) or EVENT_LADDER[new_rung] == old:
            return None
        z["events"][face] = EVENT_LADDER[new_rung]
        return v, f"zone {z['letter']} event {face}: {old} -> {EVENT_LADDER[new_rung]}"
    if kind == "requirement":
        z = rng.choice([z for z in v["zones"] if z["requirement"]])
        k, n = z["requirement"]
        n2 = n + (1 if harder else -1)
        if n2 < 1 or n2 > 6:
            return None
        z["requirement"] = (k, n2)
        return v, f"zone {z['letter']} requirement: {k} {n} -> {n2}"
    if kind == "item":
        needed = _needed(v)
        empty = sorted(fb.cell_name(c) for c, s in cells.items()
                       if s not in (fb.CENTRE, fb.ROCK) and fb.cell_name(c) not in v["items"])
        removable = sorted(c for c in v["items"] if c not in needed)
        add_foe = rng.random() < 0.5
        if add_foe == harder and empty:          # harder: a foe more, or a resource less
            cell = rng.choice(empty)
            name = rng.choice(FOES if harder else RESOURCE_ITEMS)
            v["items"][cell] = name
            v["items"] = dict(sorted(v["items"].items(), key=starter.reading_order))
            return v, f"{cell}: {name} added"
        wanted = [c for c in removable if (v["items"][c] in RESOURCE_ITEMS) == harder]
        if not wanted:
            return None
        cell = rng.choice(wanted)
        name = v["items"].pop(cell)
        return v, f"{cell}: {name} removed"
    # a wall: harder adds one between two cells of a zone, easier takes one away
    if not harder:
        if not v["walls"]:
            return None
        wall = rng.choice(sorted(v["walls"]))
        v["walls"].remove(wall)
        return v, f"wall {wall} removed"
    c = rng.choice(sorted(c for c, s in cells.items() if s not in (fb.CENTRE, fb.ROCK)))
    side = rng.choice(fb.SIDES)
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[side]
    other = cells.get((c[0] + dx, c[1] + dy))
    wall = f"{fb.cell_name(c)}:{side}"
    if other in (None, fb.ROCK, fb.CENTRE) or wall in v["walls"]:
        return None
    v["walls"].append(wall)
    return v, f"wall {wall} added"


def repair(values: dict, finding: Finding, harder: bool) -> tuple[dict, str] | None:
    """The change that mends a failed check: a requirement met too rarely one count lower; an event
    face that changes (almost) nothing one rung along the ladder, the way the target lies if it can."""
    v = copy.deepcopy(values)
    zone = next((z for z in v["zones"] if z["letter"] == finding.zone), None)
    if zone is None:
        return None
    if finding.kind == "requirement":
        if not zone["requirement"] or zone["requirement"][1] <= 1:
            return None
        k, n = zone["requirement"]
        zone["requirement"] = (k, n - 1)
        return v, f"zone {zone['letter']} requirement: {k} {n} -> {n - 1} (met too rarely)"
    if finding.kind == "event" and finding.face is not None:
        old = zone["events"][finding.face]
        rung = EVENT_LADDER.index(old) if old in EVENT_LADDER else len(EVENT_LADDER) // 2
        for step in ((1, -1) if harder else (-1, 1)):
            new = rung + step
            if 0 <= new < len(EVENT_LADDER) and EVENT_LADDER[new] != old:
                zone["events"][finding.face] = EVENT_LADDER[new]
                return v, f"zone {zone['letter']} event {finding.face}: {old} -> {EVENT_LADDER[new]} (the face changed nothing)"
    return None


# -- the search ---------------------------------------------------------------------------------------
def generate(values: dict, title: str, target: Target, player: Player, seed: int, budget: int,
             keep: set[str], from_file: bool = False, keep_best: bool = False, log=None) -> Outcome:
    rng = random.Random(f"sheetgen-generate/{seed}")
    heroes = len(player.heroes)
    p = target.win_rate
    # the search's evaluation: a 95% half-width of the tolerance (the candidates share their seeds, so
    # their differences are measured far closer than that; never under FULL: on fewer shared seeds the
    # search fits the map to those dice, not to the game)
    full = max(FULL, min(2000, math.ceil(Z95 ** 2 * p * (1 - p) / target.tolerance ** 2)))
    fresh = target.fresh_games()
    chunk = math.ceil(fresh / LOOKS / heroes)   # per hero: the heroes' games pool
    widest = target.band(chunk * LOOKS * heroes)    # the band of a whole verification
    text = render(title, values)
    fmap, findings = load_text(text)
    if fmap is None or findings:
        what = "; ".join(getattr(f, "message", None) or f.problem.message for f in findings)
        raise InputError(Problem(f"the map to start from is not clean ({what}): `sheetgen validate` it first",
                                 path="--from" if from_file else "--campaign"))
    # the candidates' common seeds come in three stretches: the heat, the full evaluation, and the fine
    # one a candidate near the target plays before it may replace the current map (at 400 shared games
    # the search's pick is often 2 or 3 points luckier than the map; the verification would pay for it)
    # the fine evaluation: a standard error of two thirds of the widest band (none at a wide tolerance)
    fine = max(full, 100 * math.ceil(1.5 ** 2 * target.variance() / widest ** 2 / 100))
    stretches = ((0, HEAT), (HEAT, full), (full, fine))
    played: dict = {}

    def wins_to(map_text: str, stop: int) -> int:
        """Wins over the common seeds 0..stop (stop: the end of a stretch), each stretch played once."""
        total = 0
        for a, b in stretches:
            if a >= stop:
                break
            if (map_text, a) not in played:
                played[(map_text, a)] = player.wins(map_text, seed, a, b)[0]
            total += played[(map_text, a)]
        return total

    rate = wins_to(text, full) / (full * heroes)    # the current map's estimate (search and fresh games pooled)
    weight = full * heroes                          # ... and the games behind it
    changes: list[str] = []
    candidates = 1
    # the closest map: (distance, verified?, text, rate, interval, games); a verified one beats any other
    best = (abs(rate - p), False, text, rate, (float("nan"), float("nan")), 0)
    verifications = 0
    looks = 0
    tried_verify: set[str] = set()
    repairs: list[Finding] = []                 # checks the current map failed, to mend one at a time
    rejected = 0

    def room(games: int) -> bool:
        return player.played + games <= budget * heroes

    while player.played < budget * heroes:
        if abs(rate - p) <= widest and text not in tried_verify and room(chunk * heroes):
            tried_verify.add(text)
            # fresh games, a chunk at a time, on the verification's own seed; each verification its own
            # block of games, so no two candidates are judged on the same dice
            first = verifications * chunk * LOOKS
            verifications += 1
            chk = Checks()
            accepted = False
            while room(chunk * heroes) and chk.games < chunk * LOOKS * heroes:
                start = first + chk.games // heroes
                chk = chk + player.checks(text, seed + VERIFY_OFFSET, start, start + chunk)
                v = chk.wins / chk.games
                band = target.band(chk.games)
                if band > 0:
                    looks += 1
                if band > 0 and abs(v - p) <= band:
                    accepted = True
                    break
                # futility: were the map's rate what it played so far, the whole verification would end
                # within the widest band in under 2.5% of runs: stop (a map really inside the band is
                # stopped so about 5% of the time; the search goes on, nothing worse)
                rest = chunk * LOOKS * heroes - chk.games
                if abs(v - p) - widest > Z95 * math.sqrt(target.variance() * rest) / (chk.games + rest):
                    break
            vw, vn = chk.wins, chk.games
            if vn == 0:
                continue
            lo, hi = wilson(vw, vn)
            if log:
                log(f"verify: {vw / vn:.1%} (95% {lo:.1%}-{hi:.1%}) over {vn} fresh games"
                    + (f", within {p:.0%} ± {target.band(vn) * 100:.1f} points" if accepted else ""))
            if (False, abs(vw / vn - p)) < (not best[1], best[0]):        # verified beats unverified
                best = (abs(vw / vn - p), True, text, vw / vn, (lo, hi), vn)
            if accepted:
                board = load_text(text)[0].board
                failed = check_findings(chk, board, "zones" not in keep, "zones" not in keep)
                fixable = [f for f in failed if f.fixable]
                if not fixable:
                    return Outcome(text, True, vw / vn, (lo, hi), vn, player.played, candidates, changes,
                                   checks=chk, board=board, reported=failed, rejected=rejected,
                                   band=target.band(vn), looks=looks)
                # within the target but a check fails that a change can mend: not the answer
                rejected += 1
                repairs = fixable
                if log:
                    log("rejected: " + "; ".join(f.text for f in fixable))
            # the fresh games join the estimate, so the search's own seeds do not keep it on a map that
            # only those dice favour
            rate = (rate * weight + vw) / (weight + vn)
            weight += vn
        if not room(HEAT * heroes):
            break
        if repairs:
            step = repair(values, repairs.pop(0), rate > p)
            mending = True
        else:
            step = mutate(values, rng, rate > p, keep)
            mending = False
        if step is None:
            continue
        cand_values, what = step
        cand_text = render(title, cand_values)
        cmap, cfind = load_text(cand_text)
        if cmap is None or cfind:
            continue                                   # only maps the lint accepts with no finding
        candidates += 1
        hn = HEAT * heroes
        # the candidate's estimate: the current map's, moved by their difference on the same games
        heat_rate = rate + (wins_to(cand_text, HEAT) - wins_to(text, HEAT)) / hn
        # racing: the candidate's rate over the full evaluation would be within about this much of the heat's
        margin = Z95 * math.sqrt(max(heat_rate * (1 - heat_rate), 0.05) / hn)
        # (a repair only has to stay near the target: it is dropped when clearly outside the band)
        bar = max(abs(rate - p), widest) if mending else abs(rate - p)
        if abs(heat_rate - p) - margin > bar:
            continue
        if not room((full - HEAT) * heroes):
            break
        n = full
        cand_rate = rate + (wins_to(cand_text, n) - wins_to(text, n)) / (n * heroes)
        if fine > full and room(2 * (fine - full) * heroes) \
                and abs(cand_rate - p) <= widest + Z95 * math.sqrt(target.variance() / (full * heroes)) \
                and (abs(cand_rate - p) < abs(rate - p) or mending):
            # near the target: the fine evaluation decides (the current map plays those seeds too, once)
            n = fine
            cand_rate = rate + (wins_to(cand_text, n) - wins_to(text, n)) / (n * heroes)
        if abs(cand_rate - p) < abs(rate - p) or (mending and abs(cand_rate - p) <= widest):
            values, text, rate = cand_values, cand_text, cand_rate
            weight = n * heroes
            changes.append(f"{what} (win rate {cand_rate:.1%})")
            if log:
                log(f"{what}: win rate {cand_rate:.1%}")
            if not best[1] and abs(rate - p) < best[0]:
                best = (abs(rate - p), False, text, rate, (float("nan"), float("nan")), 0)
        else:
            for a, _ in stretches:                  # a refused candidate's games are not needed again
                played.pop((cand_text, a), None)
    _, verified, best_text, best_rate, best_interval, best_games = best
    return Outcome(best_text if keep_best else None, False, best_rate, best_interval, best_games,
                   player.played, candidates, changes, best_text=best_text, looks=looks, verified=verified)


def heroes_for(hero: str | None) -> list:
    if hero is not None and hero.strip().lower() == "all":
        return [None, *HEROES]
    return [hero]


def header_lines(outcome: Outcome, target: Target, policy: str, hero: str | None, seed: int, command: str) -> list[str]:
    lo, hi = outcome.interval
    lines = [f"Generated by `{command}`.",
             f"Target: a {policy} player wins {target.win_rate:.0%} ± {target.tolerance:.0%}"
             f"{' (every hero, free traits and the four, pooled)' if hero == 'all' else ''}.",
             f"Result: wins {outcome.win_rate:.1%} (95% interval {lo:.1%} to {hi:.1%}) over {outcome.verify_games} "
             f"fresh games on seeds the search never played (seed {seed} + {VERIFY_OFFSET}).",
             f"Aimed inside the tolerance: the estimate lies within {target.win_rate:.0%} ± "
             f"{outcome.band * 100:.1f} points, so a fresh check of {target.fresh_games():,} more games puts its 95% "
             f"interval within ± {target.tolerance:.0%} but for a chance under 1 in {round(1 / SAFETY_TAIL):,} "
             f"(per look; {outcome.looks} look(s) in this search).",
             f"Search: {outcome.candidates} candidate maps, {outcome.games} games in all (hill climbing, each step "
             f"raced over {HEAT} games first)."]
    if outcome.changes:
        lines.append("What it changed from the starting map, in order: " + "; ".join(outcome.changes) + ".")
    else:
        lines.append("The starting map met the target as it was: nothing changed.")
    if outcome.checks is not None:
        lines += summary_lines(outcome.checks, outcome.board, policy)
        if outcome.rejected:
            lines.append(f"Checks: {outcome.rejected} map(s) within the target failed a check the search mends "
                         f"(a requirement met too rarely, an event face that changed nothing) and were changed.")
        for f in outcome.reported:
            lines.append(f"Reported, not changed (the search does not change this part): {f.text}.")
    return lines

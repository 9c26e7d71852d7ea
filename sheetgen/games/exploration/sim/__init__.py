"""`sheetgen simulate --ruleset exploration`: map mode of the exploration rules, many times.

Each run is sheetgen.games.exploration.mapmode.explore (the engine map mode uses)
with a seed derived from --seed and the run's index.  Statistics stream into
integer counters (flat memory, the same totals whatever --jobs is): rooms before
the Final Boss, how each dungeon ended (the Final Boss, or no door left: the sheet
filled up or sealed itself), dead ends per map, and how often each square of the
sheet was occupied.
"""
from __future__ import annotations

from collections import Counter

from sheetgen.games.base import Simulation, SimulationRequest
from sheetgen.games.workers import worker_pool
from sheetgen.stats import wilson

ENDINGS = {"final-boss": "the Final Boss", "no-doors": "no door left",
           "rooms": "room limit"}
MAX_ROOMS = 400


class ExplorationStats:
    __slots__ = ("runs", "endings", "rooms_to_boss", "boss_runs", "rooms", "dead_ends", "occupied",
                 "squares", "width", "height", "rooms_hist", "cramped")

    def __init__(self, width: int, height: int):
        self.runs = 0
        self.endings = Counter()
        self.rooms_to_boss = 0          # summed rooms of the runs that met the Final Boss
        self.boss_runs = 0
        self.rooms = 0
        self.dead_ends = 0
        self.occupied = 0               # occupied squares summed over runs
        self.squares = Counter()        # square index -> runs that occupied it
        self.width, self.height = width, height
        self.rooms_hist = Counter()     # rooms in a run, in bands of 10
        self.cramped = 0                # runs where a room was cut short by the sheet's edge or other rooms

    def add(self, ex) -> None:
        self.runs += 1
        self.endings[ex.ended or "unknown"] += 1
        n = len(ex.rooms)
        self.rooms += n
        self.rooms_hist[min(n // 10, 10)] += 1
        if ex.ended == "final-boss":
            self.boss_runs += 1
            self.rooms_to_boss += n
        self.cramped += any(r.truncated for r in ex.rooms)
        self.dead_ends += sum(1 for r in ex.rooms if r.id > 1 and (r.truncated or not r.doors))
        occ = [i for i, o in enumerate(ex.owner) if o]
        self.occupied += len(occ)
        self.squares.update(occ)

    def merge(self, other: "ExplorationStats") -> "ExplorationStats":
        for name in ("runs", "rooms_to_boss", "boss_runs", "rooms", "dead_ends", "occupied", "cramped"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("endings", "squares", "rooms_hist"):
            getattr(self, name).update(getattr(other, name))
        return self


def _tables(table: str | None):
    from ..formats import builtin_tables, load_table
    from sheetgen.errors import InputError, Problem
    rooms, entrances, contents = builtin_tables()
    if table:
        t = load_table(table)
        if t.rooms is None or t.model.table != "d66":
            raise InputError(Problem(f"--table {table}: give a d66 room table (table: d66)", path="--table"))
        rooms = t.rooms
    return rooms, entrances, contents


def run_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def _chunk(args) -> ExplorationStats:
    table, seed, start, stop, width, height = args
    from ..mapmode import explore
    rooms, entrances, contents = _tables(table)
    st = ExplorationStats(width, height)
    for i in range(start, stop):
        st.add(explore(rooms, entrances, contents, seed=run_seed(seed, i), width=width, height=height,
                       policy="random", max_rooms=MAX_ROOMS))
    return st


def run(games: int, seed: int = 1, table: str | None = None, jobs: int = 1, width: int = 20,
        height: int = 28) -> ExplorationStats:
    _tables(table)                     # a bad table fails here, before any process starts
    size = max(10, min(200, games // max(1, jobs * 8) or 1))
    parts = [(table, seed, a, min(a + size, games), width, height) for a in range(0, games, size)]
    total = ExplorationStats(width, height)
    if jobs <= 1:
        for p in parts:
            total.merge(_chunk(p))
        return total
    with worker_pool(jobs) as pool:
        for st in pool.imap_unordered(_chunk, parts):
            total.merge(st)
    return total


def report(st: ExplorationStats, seed: int, table: str | None) -> dict:
    n = max(1, st.runs)
    lo, hi = wilson(st.endings["final-boss"], st.runs)
    area = st.width * st.height
    busiest = sorted(st.squares.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    rep = {
        "ruleset": "exploration", "table": table or "built-in d66", "seed": seed, "runs": st.runs,
        "sheet": f"{st.width}x{st.height}",
        "final_boss_rate": round(st.endings["final-boss"] / n, 4), "final_boss_ci95": [round(lo, 4), round(hi, 4)],
        "endings": {ENDINGS.get(k, k): v for k, v in sorted(st.endings.items())},
        "no_door_left_rate": round(st.endings["no-doors"] / n, 4),
        "sheet_full_rate": round(st.cramped / n, 4),
        "mean_rooms_before_final_boss": round(st.rooms_to_boss / st.boss_runs, 2) if st.boss_runs else None,
        "mean_rooms": round(st.rooms / n, 2),
        "mean_dead_ends": round(st.dead_ends / n, 2),
        "mean_occupied_share": round(st.occupied / (n * area), 4),
        "rooms_histogram": {f"{10 * k}-{10 * k + 9}" if k < 10 else "100+": v for k, v in sorted(st.rooms_hist.items())},
        "occupied": {f"{i % st.width + 1},{i // st.width + 1}": v for i, v in sorted(st.squares.items())},
        "busiest_squares": [{"square": f"{i % st.width + 1},{i // st.width + 1}", "runs": v} for i, v in busiest],
    }
    rep["text"] = text(rep)
    return rep


def text(rep: dict) -> str:
    L = [f"exploration map mode ({rep['table']}, sheet {rep['sheet']}): {rep['runs']} dungeons, seed {rep['seed']}"]
    lo, hi = rep["final_boss_ci95"]
    L.append(f"Final Boss reached in {100 * rep['final_boss_rate']:.1f}% (95% CI {100 * lo:.1f}% to {100 * hi:.1f}%)")
    mb = rep["mean_rooms_before_final_boss"]
    L.append(f"rooms before the Final Boss: {'-' if mb is None else f'{mb:.1f}'} on average "
             f"(all dungeons: {rep['mean_rooms']:.1f} rooms)")
    L.append(f"sheet filled up (a room cut short by the sheet's edge or other rooms): "
             f"{100 * rep['sheet_full_rate']:.1f}% of dungeons")
    L.append(f"ended with no door left to open: {100 * rep['no_door_left_rate']:.1f}%")
    L.append("endings: " + ", ".join(f"{k} {v}" for k, v in rep["endings"].items()))
    L.append(f"dead ends per map: {rep['mean_dead_ends']:.2f}")
    L.append(f"squares occupied: {100 * rep['mean_occupied_share']:.1f}% of the sheet on average")
    L.append("busiest squares (x,y): " + ", ".join(f"{b['square']} {b['runs']}" for b in rep["busiest_squares"]))
    return "\n".join(L)


def simulate_exploration(games: int, seed: int = 1, table: str | None = None, jobs: int = 1) -> dict:
    return report(run(games, seed, table, jobs), seed, table)


def write_report(rep: dict, output, paper: str = "a4", grayscale: bool = False, seed: int = 1) -> list:
    """The report of a map-mode run as a PDF (-o report.pdf) or PDF + SVG + PNG pages (-o FOLDER)."""
    from sheetgen.draw.options import BuildOptions
    from sheetgen.render import write_report_document
    from .report import compose_exploration_report
    return write_report_document(compose_exploration_report(rep, BuildOptions(paper=paper, grayscale=grayscale,
                                                                                seed=seed)), output, grayscale)


class ExplorationSimulation(Simulation):
    """`sheetgen simulate --ruleset exploration`: map mode run many times."""

    def __init__(self, request: SimulationRequest):
        self.request = request
        self.report = simulate_exploration(request.games, request.seed, request.table, request.jobs)

    def text(self) -> str:
        return self.report["text"]

    def public(self) -> dict:
        return self.report

    def write_report(self, output, paper: str = "a4", grayscale: bool = False) -> list:
        return write_report(self.report, output, paper=paper, grayscale=grayscale, seed=self.request.seed)


def simulate(request: SimulationRequest) -> ExplorationSimulation:
    return ExplorationSimulation(request)

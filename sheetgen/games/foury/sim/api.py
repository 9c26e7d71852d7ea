"""What `sheetgen simulate` does, callable from Python: run, write logs, write the report."""
from __future__ import annotations

from pathlib import Path

from sheetgen.games.base import Simulation, SimulationRequest

from . import report as R
from ..heroes import HEROES
from .batch import SimSpec, load_board, make_hero, run as run_batch
from .navigate import Navigator


def _lint(fmap) -> list[str]:
    from ..formats.map import lint
    out = []
    for f in lint(fmap):
        if f.severity == "error":
            out.append(f.problem.message)
    return out


ALL_HEROES = "all"          # --hero all: free traits and every hero, side by side on the same seeds


def run_one(map_ref: str, games: int, policy: str = "cautious", hero: str | None = None, seed: int = 1,
            jobs: int = 1, coin: bool = False, cluster: str | None = None, progress=None) -> tuple[dict, object]:
    fmap = load_board(map_ref)
    every = hero is not None and hero.strip().lower() == ALL_HEROES
    heroes = [None, *HEROES] if every else [hero]
    worlds = [(h, make_hero(fmap.board, h)) for h in heroes]     # a bad --hero fails here, before any process
    lint = _lint(fmap)
    reports = []
    nav = Navigator(fmap.board)
    for name, h in worlds:
        spec = SimSpec(str(map_ref), policy, name, seed, coin)
        stats = run_batch(spec, games, jobs, world=(fmap.board, h, nav), cluster=cluster, progress=progress)
        reports.append(R.report(stats, fmap, spec, lint))
    rep = reports[0]
    if every:
        R.add_heroes(rep, [(name, _difficulty(name), r) for name, r in zip(heroes, reports)])
    return rep, fmap


def _difficulty(hero: str | None) -> str | None:
    """The difficulty a hero's sheet prints (easy, intermediate, difficult); None for free traits."""
    if hero is None:
        return None
    from ..formats.sheet import hero_traits
    return hero_traits(hero)["difficulty"]


def run(map_ref: str, games: int = 1000, policy: str = "cautious", hero: str | None = None, seed: int = 1,
        jobs: int = 1, coin: bool = False, compare_ref: str | None = None, cluster: str | None = None,
        progress=None) -> dict:
    rep, fmap = run_one(map_ref, games, policy, hero, seed, jobs, coin, cluster, progress)
    result = {"report": rep, "fmap": fmap}
    if compare_ref:
        rep2, fmap2 = run_one(compare_ref, games, policy, hero, seed, jobs, coin, cluster, progress)
        result["compare"] = {"report": rep2, "fmap": fmap2, "comparison": R.compare(rep, rep2)}
    return result


def public(result: dict) -> dict:
    """The JSON form (no map objects)."""
    out = dict(result["report"])
    if "compare" in result:
        out = {"map_1": out, "map_2": result["compare"]["report"], "comparison": result["compare"]["comparison"]}
    return out


def as_text(result: dict) -> str:
    text = R.text(result["report"])
    if "compare" in result:
        text += "\n\n" + R.text(result["compare"]["report"]) + "\n\n" + result["compare"]["comparison"]["verdict"]
    return text


def write_logs(map_ref: str, folder, count: int, policy: str = "cautious", hero: str | None = None, seed: int = 1,
               coin: bool = False) -> list[Path]:
    """The first `count` games of the run as play logs (game-0001.yaml ...), checkable by `sheetgen check`."""
    from sheetgen.atomic import write_text
    from .export import dump, map_ref_for_log, playlog
    from .runner import play_game
    fmap = load_board(map_ref)
    if hero is not None and hero.strip().lower() == ALL_HEROES:
        hero = None                            # --hero all: the logs of the free-traits run
    h = make_hero(fmap.board, hero)
    nav = Navigator(fmap.board)
    folder = Path(folder)
    ref = map_ref_for_log(str(map_ref), folder)
    written = []
    for i in range(count):
        g = play_game(fmap.board, h, policy, seed, i, coin, record=True, nav=nav)
        target = folder / f"game-{i + 1:04d}.yaml"
        write_text(target, dump(playlog(g.log, ref, h, title=f"simulated game {i + 1} ({policy}, seed {seed})")))
        written.append(target)
    return written


def write_report(result: dict, output, paper: str = "a4", grayscale: bool = False, seed: int = 1) -> list[Path]:
    """-o report.pdf: the PDF; -o FOLDER: PDF + SVG + PNG pages in it."""
    from sheetgen.draw.options import BuildOptions
    from sheetgen.render import write_report_document
    from .pages import compose_report
    return write_report_document(compose_report(result, BuildOptions(paper=paper, grayscale=grayscale, seed=seed)), output, grayscale)


class FourySimulation(Simulation):
    """`sheetgen simulate MAP`: the result of api.run, with its report writers."""

    def __init__(self, request: SimulationRequest):
        if request.ref is None:
            from sheetgen.errors import InputError, Problem
            raise InputError(Problem("give the map to simulate (a file or a built-in name like ancient-story)",
                                     path="MAP"))
        self.request = request
        self.two = _two_spec(request)
        if self.two is not None:
            from .two import report, run as run_two
            self.result = {"two": report(self.two, run_two(self.two, request.games, request.jobs))}
            return
        self.result = run(request.ref, games=request.games, policy=request.policy, hero=request.hero,
                          seed=request.seed, jobs=request.jobs, coin=request.coin, compare_ref=request.compare_ref,
                          cluster=request.cluster, progress=request.progress)

    def text(self) -> str:
        if self.two is not None:
            from .two import text
            return text(self.result["two"])
        return as_text(self.result)

    def public(self) -> dict:
        return self.result["two"] if self.two is not None else public(self.result)

    def write_report(self, output, paper: str = "a4", grayscale: bool = False) -> list:
        if self.two is not None:
            from sheetgen.errors import InputError, Problem
            raise InputError(Problem("the 2 Players Mode's report is text or JSON (--format): no PDF report yet",
                                     path="-o"))
        return write_report(self.result, output, paper=paper, grayscale=grayscale, seed=self.request.seed)

    def write_logs(self, folder, count: int) -> list:
        r = self.request
        if self.two is not None:
            from .two import write_logs as write_two
            return write_two(self.two, folder, min(r.games, count))
        return write_logs(r.ref, folder, min(r.games, count), policy=r.policy, hero=r.hero, seed=r.seed, coin=r.coin)


def _two_spec(request: SimulationRequest):
    """The 2 Players Mode's run (--players 2), or None; what it does not do is refused before any game."""
    from sheetgen.errors import InputError, Problem
    players = request.options.get("players")
    opponent = request.options.get("opponent")
    if players not in (None, 1, 2):
        raise InputError(Problem(f"--players {players}: Dungeon Foury is played by 1 or 2 players", path="--players",
                                 expected="1 or 2"))
    if players in (None, 1):
        if opponent is not None:
            raise InputError(Problem("--opponent is the second player of --players 2", path="--opponent"))
        return None
    from .policies import POLICIES
    from .two import TwoSpec
    for what, given in (("--compare", request.compare_ref), ("--coin", request.coin or None),
                        ("--cluster", request.cluster), ("--hero all", (request.hero or "").strip().lower() == ALL_HEROES
                                                         or None)):
        if given:
            raise InputError(Problem(f"{what} is not available with --players 2 (a death ends that player's game; "
                                     "one map, one pair of players)", path="--players"))
    policy2, _, hero2 = (opponent or request.policy).partition(":")
    policy2 = policy2.strip().lower()
    if policy2 not in POLICIES:
        raise InputError(Problem(f"--opponent: unknown policy '{policy2}'", path="--opponent",
                                 expected=", ".join(POLICIES)))
    return TwoSpec(str(request.ref), (request.policy, policy2),
                   (request.hero, hero2.strip() or request.hero),
                   request.seed)


def simulate(request: SimulationRequest) -> FourySimulation:
    return FourySimulation(request)

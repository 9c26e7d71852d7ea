"""Games per second of `sheetgen simulate` on the base map (ancient-story), cautious policy,
one process and two; ratios to the targets (>= 500 games/s per core; two processes
>= 1.7x one).  Run: python3 bench/bench_simulate.py [GAMES] [--profile]"""
from __future__ import annotations

import sys
import time

from sheetgen.sim.batch import SimSpec, run

TARGET_PER_CORE = 500.0
TARGET_SPEEDUP = 1.7


def rate(games: int, jobs: int) -> float:
    spec = SimSpec("ancient-story", "cautious", None, 1, False)
    run(spec, 50, 1)                          # warm up: load the map once
    t = time.perf_counter()
    stats = run(spec, games, jobs)
    dt = time.perf_counter() - t
    assert stats.games == games
    return games / dt


def profile(games: int) -> None:
    import cProfile
    import pstats
    spec = SimSpec("ancient-story", "cautious", None, 1, False)
    run(spec, 20, 1)
    prof = cProfile.Profile()
    prof.enable()
    run(spec, games, 1)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(18)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 3000
    if "--profile" in sys.argv:
        profile(min(games, 1000))
        return
    one = rate(games, 1)
    two = rate(games, 2)
    print(f"one process:  {one:8.0f} games/s  ({one / TARGET_PER_CORE:.2f}x the {TARGET_PER_CORE:.0f}/s per core target)")
    print(f"two processes:{two:8.0f} games/s  (speed-up {two / one:.2f}x; {two / one / TARGET_SPEEDUP:.2f}x the "
          f"{TARGET_SPEEDUP}x target)")


if __name__ == "__main__":
    main()

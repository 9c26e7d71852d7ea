"""Games per second of `sheetgen simulate` on the base map (ancient-story), cautious policy,
one process and two; ratios to the targets (>= 500 games/s per core; two processes
>= 1.7x one); and a Dask LocalCluster of two worker processes (`--cluster`, the extra
sheetgen[cluster]) against one local process: games/s, the ratio, the overhead per batch and the
batch size where the cluster breaks even.  Run: python3 bench/bench_simulate.py [GAMES] [--profile]"""
from __future__ import annotations

import sys
import time

from sheetgen.games.foury.sim.batch import SimSpec, run

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


def _timed(args):
    from sheetgen.games.foury.sim.batch import run_chunk
    t = time.process_time()
    stats = run_chunk(*args)
    return stats.games, time.process_time() - t


def cpu_rate(games: int, jobs: int) -> tuple[float, float]:
    """(games per wall second, games per CPU second of the workers): the second figure does not
    depend on what else the machine runs, so it tells whether J processes could scale."""
    import multiprocessing
    from sheetgen.games.foury.sim.batch import chunks
    spec = SimSpec("ancient-story", "cautious", None, 1, False)
    ctx = multiprocessing.get_context("fork")
    t = time.perf_counter()
    with ctx.Pool(jobs) as pool:
        parts = pool.map(_timed, [(spec, a, b) for a, b in chunks(games, jobs)])
    wall = time.perf_counter() - t
    return games / wall, sum(g for g, _ in parts) / sum(c for _, c in parts)


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
    import os
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    one = rate(games, 1)
    two = rate(games, 2)
    print(f"machine: {os.cpu_count()} cores, load average {load:.2f} before the run (other work slows the figures)")
    print(f"one process:  {one:8.0f} games/s  ({one / TARGET_PER_CORE:.2f}x the {TARGET_PER_CORE:.0f}/s per core target)")
    print(f"two processes:{two:8.0f} games/s  (speed-up {two / one:.2f}x; {two / one / TARGET_SPEEDUP:.2f}x the "
          f"{TARGET_SPEEDUP}x target)")
    wall2, per_cpu2 = cpu_rate(games, 2)
    print(f"two workers:  {per_cpu2:8.0f} games per worker CPU-second (vs {one:.0f}/s in one process): "
          f"{2 * per_cpu2 / one:.2f}x possible on two free cores")
    cluster_line(games, one)
    for campaign in ("slaughter", "santa", "kraken"):          # the campaign maps: whole games, one process
        spec = SimSpec(campaign, "cautious", None, 1, False)
        run(spec, 10, 1)
        t = time.perf_counter()
        run(spec, 300, 1)
        print(f"{campaign:10s}    {300 / (time.perf_counter() - t):8.0f} games/s (one process)")


def cluster_line(games: int, one: float) -> None:
    """Two local Dask workers (processes, one thread each) against one local process."""
    try:
        import distributed
    except ImportError:
        print("cluster:       (not measured: pip install 'sheetgen[cluster]')")
        return
    from sheetgen.games.cluster import close_all, map_batches
    from sheetgen.games.foury.sim.batch import cluster_chunk
    spec = SimSpec("ancient-story", "cautious", None, 1, False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as lc:
        address = lc.scheduler_address
        run(spec, 50, 1, cluster=address)     # warm up: each worker loads the map once
        t = time.perf_counter()
        stats = run(spec, games, 1, cluster=address)
        dt = time.perf_counter() - t
        assert stats.games == games
        tiny = 40                              # batches of one game: nearly all of their time is overhead
        t = time.perf_counter()
        map_batches(address, cluster_chunk, [(spec, None, i, i + 1) for i in range(tiny)])
        per_batch = (time.perf_counter() - t) / tiny - 1 / one
        close_all()
    rate2 = games / dt
    print(f"cluster (2 local Dask workers): {rate2:8.0f} games/s ({rate2 / one:.2f}x one local process); "
          f"overhead {per_batch * 1000:.1f} ms a batch, as long as {max(1, per_batch * one):.0f} games take to "
          f"play: batches of many times that keep the overhead small")


if __name__ == "__main__":
    main()

"""The 100-map check of `sheetgen generate map` (issue 31): N maps for targets across the range
(20%, 30%, 45%, tolerance 5%, in turn), each on its own seed, then each map played again on
fresh seeds neither the search nor its verification played (Target.fresh_games() games: 7,203 at
20%, 8,740 at 30%, 9,604 at 45%, the games whose 95% half-width is a fifth of the tolerance, the
check generate's promise is sized for; checked: sim/checks.py) and counted:

- within: the 95% interval of the fresh games lies within target +- tolerance;
- clean: `sheetgen validate` (the same lint) finds nothing in the written file;
- checks: every zone's requirement met in at least 10% of its rounds (the 95% interval not wholly
  under), every event face changing something in at least 1% of the games, on the fresh games;
- time per map (the search and its verification, one process each).

    python bench/bench_generate.py [--maps N] [--quick] [--jobs J] [--size 9x9] [--campaign ancient]
                                   [--results FILE.jsonl] [--from K]
  --from K: only maps K to N-1, their rows added to the results file (a run cut short, resumed)

`--cluster-figures` instead measures what the search's game batches cost on a two-worker local
Dask cluster (the extra sheetgen[cluster]) against one local process: games/s, the overhead per
batch, the batch size where a worker breaks even, and the cost of a 100-map catalogue at 10^6
games a map on N workers (docs/designing.md).

Each map's row is appended to FILE.jsonl (default bench-generate-results.jsonl) as soon as it is
done, so a long run's partial figures are usable; `--summary FILE.jsonl` prints the figures of
such a file (a run still going, or one cut short).

N is 100 by default (--quick: 10); J processes play the maps side by side (default 1), each map
in one process, so the time per map is one core's.  Not a timed test: the counts are the result.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time

TARGETS = (0.20, 0.30, 0.45)
TOLERANCE = 0.05
FRESH_SEED = 7_000_000          # + the map's index: seeds neither the search nor its verification played
BUDGET = 100_000


def one_map(args: tuple) -> dict:
    index, columns, rows, campaign = args
    from sheetgen.games.foury.sim import checks as C
    from sheetgen.games.foury.sim import generate as G
    target = G.Target(TARGETS[index % len(TARGETS)], TOLERANCE)
    seed = 1000 + index
    t, cpu = time.perf_counter(), time.process_time()
    values = G.start_values(columns, rows, campaign)
    player = G.Player([None], "cautious")
    out = G.generate(values, "Bench Map", target, player, seed, BUDGET, set())
    took, took_cpu = time.perf_counter() - t, time.process_time() - cpu
    row = {"index": index, "target": target.win_rate, "seed": seed, "met": out.met, "seconds": took, "cpu_seconds": took_cpu,
           "games": out.games, "candidates": out.candidates, "looks": out.looks, "verify_games": out.verify_games,
           "verified": out.win_rate, "band": out.band}
    if not out.met or out.text is None:
        return row
    lines = G.header_lines(out, target, "cautious", None, seed, f"bench map {index}")
    text = "".join(f"# {line}\n" for line in lines) + out.text
    fmap, lint = G.load_text(text)
    row["clean"] = fmap is not None and not lint
    board, hero, nav = G.play_world(out.text, None)
    fresh = target.fresh_games()
    t = time.perf_counter()
    chk = C.play_checked(board, hero, "cautious", FRESH_SEED + index, 0, fresh, nav)
    row["fresh_seconds"] = time.perf_counter() - t
    from sheetgen.stats import wilson
    lo, hi = wilson(chk.wins, chk.games)
    row.update(fresh=chk.wins / chk.games, fresh_games=chk.games, lo=lo, hi=hi, within=target.within(lo, hi),
               failed=[f.text for f in C.findings(chk, board)],
               search_failed=[f.text for f in out.reported], rejected=out.rejected,
               min_req=min((chk.met[z] / chk.rounds[z] for z in chk.rounds if chk.rounds[z]), default=None),
               min_face=min((chk.mattered[(z, f)] / chk.games for z in board.zones for f in C.FACES
                             if board.zones[z].events.get(f)), default=None))
    return row


def summary(results: list[dict], maps: int, head: str) -> None:
    """The figures of the rows so far (a finished run, or a results file of one still going)."""
    from sheetgen.games.foury.sim.generate import SAFETY_TAIL
    results = sorted(results, key=lambda r: r["index"])
    print(head)
    for p in TARGETS:
        rows_p = [r for r in results if r["target"] == p]
        made = [r for r in rows_p if r["met"]]
        if not rows_p:
            continue
        fresh = sorted({r["fresh_games"] for r in made})
        print(f"  target {p:.0%}: {len(made)} of {len(rows_p)} maps written within the target; fresh "
              f"{'/'.join(f'{n:,}' for n in fresh)} games: {sum(r['within'] for r in made)} within the tolerance, "
              f"{sum(r['clean'] for r in made)} lint-clean, {sum(not r['failed'] for r in made)} pass every "
              f"requirement/face check")
    made = [r for r in results if r["met"]]
    print(f"  all: {len(results)} of {maps} maps done; {len(made)} written within the target, "
          f"{sum(r['within'] for r in made)} within on the fresh games, {sum(r['clean'] for r in made)} clean, "
          f"{sum(not r['failed'] for r in made)} pass the checks; "
          f"{sum(r['rejected'] for r in made)} candidate(s) within the target rejected by a check and mended")
    looks = sum(r.get("looks", 0) for r in results)
    print(f"  verification looks in all: {looks} (per map: max {max((r.get('looks', 0) for r in results), default=0)});"
          f" the chance of any fresh miss is at most {looks} x {SAFETY_TAIL:.1e} = {looks * SAFETY_TAIL:.3f}")
    if made:
        print(f"  least share of a zone's rounds with the requirement met: {min(r['min_req'] for r in made):.1%}; "
              f"least share of games where an event face changed something: {min(r['min_face'] for r in made):.1%}")
        dist = [abs(r["fresh"] - r["target"]) for r in made]
        print(f"  fresh estimate's distance from the target: median {statistics.median(dist) * 100:.2f} points, "
              f"max {max(dist) * 100:.2f} (room: tolerance less the fresh 95% half-width)")
    secs = [r["seconds"] for r in results]
    if secs:
        cpu = [r.get("cpu_seconds", 0) for r in results]
        print(f"  CPU time per map (search and verification; one core's, whatever the load): median "
              f"{statistics.median(cpu):.1f} s, mean {statistics.mean(cpu):.1f} s, max {max(cpu):.1f} s")
        print(f"  wall time per map (search and verification): median {statistics.median(secs):.1f} s, mean "
              f"{statistics.mean(secs):.1f} s, max {max(secs):.1f} s (games per map: median "
              f"{statistics.median(r['games'] for r in results):,.0f}); the fresh check: median "
              f"{statistics.median(r.get('fresh_seconds', 0) for r in made) if made else 0:.1f} s a map")
    for r in results:
        if not r["met"]:
            print(f"  map {r['index']} (target {r['target']:.0%}, seed {r['seed']}): the budget ran out")
        elif not (r["within"] and r["clean"]) or r["failed"]:
            print(f"  map {r['index']} (target {r['target']:.0%}, seed {r['seed']}): fresh {r['fresh']:.1%} "
                  f"({r['lo']:.1%}-{r['hi']:.1%}){'' if r['clean'] else ', lint findings'}"
                  + ("; " + "; ".join(r["failed"]) if r["failed"] else ""))


def cluster_figures(games: int = 3000) -> None:
    """generate's batches (wins_chunk, 100 games each) on two local Dask workers against one process."""
    import distributed

    from sheetgen.games.cluster import close_all, map_batches
    from sheetgen.games.foury.sim import generate as G
    text = G.render("Bench Map", G.start_values(9, 9, "ancient"))
    tasks = [(text, None, "cautious", 1, a, a + 100) for a in range(0, games, 100)]
    tiny = [(text, None, "cautious", 2, i, i + 1) for i in range(200)]     # one game a batch: mostly overhead
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    G.wins_chunk(*tasks[0])                             # warm: the map loaded once
    t = time.perf_counter()
    local = sum(G.wins_chunk(*task) for task in tasks)
    one = games / (time.perf_counter() - t)
    t = time.perf_counter()
    for task in tiny:
        G.wins_chunk(*task)
    local_tiny = (time.perf_counter() - t) / len(tiny)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as lc:
        address = lc.scheduler_address
        map_batches(address, G.wins_chunk, tasks[:4])   # warm: each worker loads the map once
        t = time.perf_counter()
        remote = sum(map_batches(address, G.wins_chunk, tasks))
        two = games / (time.perf_counter() - t)
        t = time.perf_counter()
        map_batches(address, G.wins_chunk, tiny)
        cluster_tiny = (time.perf_counter() - t) / len(tiny)
        close_all()
    assert local == remote, (local, remote)             # the same wins, byte for byte the same figures
    # two workers play the tiny batches side by side: a worker spends 2 x cluster_tiny on each, of which
    # local_tiny is the game itself
    per_batch = max(0.0, 2 * cluster_tiny - local_tiny)
    in_games = per_batch * one
    print(f"cluster figures: {os.cpu_count()} cores, load average {load:.2f} before the run")
    print(f"  one local process: {one:.0f} games/s; two local Dask workers (batches of 100): {two:.0f} games/s "
          f"= {two / one:.2f}x one process")
    print(f"  overhead per batch and worker {per_batch * 1000:.1f} ms (one-game batches: {cluster_tiny * 1000:.1f} ms "
          f"each on the cluster, {local_tiny * 1000:.1f} ms here), as long as {in_games:.1f} games take to play")
    print(f"  break-even against one local process, every worker on a core of its own: W workers beat it from "
          f"batches of {in_games:.1f} / (W - 1) games ({in_games:.1f} for two); a worker keeps 90% of its speed from "
          f"batches of {9 * in_games:.0f} games")
    total = 100 * 10 ** 6
    for batch in (100, 10_000):
        hours = [total / (n * one * batch / (batch + in_games)) / 3600 for n in (1, 8, 32, 128)]
        print(f"  100-map catalogue at 10^6 games a map, batches of {batch:,}, workers of this speed: "
              + ", ".join(f"{n} worker(s) {h:,.1f} h" for n, h in zip((1, 8, 32, 128), hours)))


def main(argv: list[str]) -> int:
    if "--cluster-figures" in argv:
        cluster_figures()
        return 0
    if "--summary" in argv:
        path = argv[argv.index("--summary") + 1]
        with open(path, encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
        print(f"(from {path}, written as each map ended)")
        maps = int(argv[argv.index("--maps") + 1]) if "--maps" in argv else 100
        summary(rows, maps, f"generate map: {len(rows)} maps in {path}")
        return 0 if rows else 1
    maps = 10 if "--quick" in argv else 100
    if "--maps" in argv:
        maps = int(argv[argv.index("--maps") + 1])
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else 1
    size = argv[argv.index("--size") + 1] if "--size" in argv else "9x9"
    campaign = argv[argv.index("--campaign") + 1] if "--campaign" in argv else "ancient"
    out_path = argv[argv.index("--results") + 1] if "--results" in argv else "bench-generate-results.jsonl"
    columns, rows = (int(n) for n in size.lower().split("x"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    start = int(argv[argv.index("--from") + 1]) if "--from" in argv else 0
    tasks = [(i, columns, rows, campaign) for i in range(start, maps)]
    import sheetgen.games.foury.sim.generate  # noqa: F401  (loaded before the workers fork: one code for all)
    t = time.perf_counter()
    results = []
    sink = open(out_path, "a" if start else "w", encoding="utf-8")      # one JSON line a map, as each ends

    def done(row: dict) -> None:        # a line as each map ends (stderr), so a long run shows its way
        results.append(row)
        sink.write(json.dumps(row) + "\n")
        sink.flush()
        print(f"  [{len(results)}/{maps}] map {row['index']} target {row['target']:.0%}: "
              + (f"fresh {row['fresh']:.1%}, within {row['within']}, clean {row['clean']}, checks failed "
                 f"{len(row['failed'])}" if row["met"] else "budget ran out") + f", {row['seconds']:.0f} s",
              file=sys.stderr, flush=True)

    interrupted = False
    try:
        if jobs > 1:
            import multiprocessing
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                for row in pool.imap_unordered(one_map, tasks):
                    done(row)
        else:
            for task in tasks:
                done(one_map(task))
    except KeyboardInterrupt:           # Ctrl-C: the figures of the maps finished so far
        interrupted = True
    sink.close()
    if not results:
        return 1
    wall = time.perf_counter() - t
    summary(results, maps, f"generate map, {maps} maps ({size}, {campaign}, cautious, targets "
            f"{'/'.join(f'{p:.0%}' for p in TARGETS)} +- {TOLERANCE:.0%} in turn, seeds 1000-{999 + maps}, budget "
            f"{BUDGET:,}); {jobs} process(es) on {os.cpu_count()} cores, load average {load:.2f} before the run; "
            f"wall {wall:.0f} s; rows in {out_path}" + (f"; INTERRUPTED: {len(results)} maps finished" if interrupted else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The 100-map check of `sheetgen generate map` (issue 31): N maps for targets across the range
(20%, 30%, 45%, tolerance 5%, in turn), each on its own seed, then each map played again on
fresh seeds the search never saw (2,000 games, checked: sim/checks.py) and counted:

- within: the 95% interval of the fresh games lies within target +- tolerance;
- clean: `sheetgen validate` (the same lint) finds nothing in the written file;
- checks: every zone's requirement met in at least 10% of its rounds (the 95% interval not wholly
  under), every event face changing something in at least 1% of the games, on the fresh games;
- time per map (the search and its verification, one process each).

    python bench/bench_generate.py [--maps N] [--quick] [--jobs J] [--size 9x9] [--campaign ancient]

N is 100 by default (--quick: 10); J processes play the maps side by side (default 1), each map
in one process, so the time per map is one core's.  Not a timed test: the counts are the result.
"""
from __future__ import annotations

import os
import statistics
import sys
import time

TARGETS = (0.20, 0.30, 0.45)
TOLERANCE = 0.05
FRESH = 2000
FRESH_SEED = 7_000_000          # + the map's index: seeds neither the search nor its verification played
BUDGET = 40_000


def one_map(args: tuple) -> dict:
    index, columns, rows, campaign = args
    from sheetgen.games.foury.sim import checks as C
    from sheetgen.games.foury.sim import generate as G
    target = G.Target(TARGETS[index % len(TARGETS)], TOLERANCE)
    seed = 1000 + index
    t = time.perf_counter()
    values = G.start_values(columns, rows, campaign)
    player = G.Player([None], "cautious")
    out = G.generate(values, "Bench Map", target, player, seed, BUDGET, set())
    took = time.perf_counter() - t
    row = {"index": index, "target": target.win_rate, "seed": seed, "met": out.met, "seconds": took,
           "games": out.games, "candidates": out.candidates}
    if not out.met or out.text is None:
        return row
    lines = G.header_lines(out, target, "cautious", None, seed, f"bench map {index}")
    text = "".join(f"# {line}\n" for line in lines) + out.text
    fmap, lint = G.load_text(text)
    row["clean"] = fmap is not None and not lint
    board, hero, nav = G.play_world(out.text, None)
    chk = C.play_checked(board, hero, "cautious", FRESH_SEED + index, 0, FRESH, nav)
    from sheetgen.stats import wilson
    lo, hi = wilson(chk.wins, chk.games)
    row.update(fresh=chk.wins / chk.games, lo=lo, hi=hi, within=target.within(lo, hi),
               failed=[f.text for f in C.findings(chk, board)],
               search_failed=[f.text for f in out.reported], rejected=out.rejected,
               min_req=min((chk.met[z] / chk.rounds[z] for z in chk.rounds if chk.rounds[z]), default=None),
               min_face=min((chk.mattered[(z, f)] / chk.games for z in board.zones for f in C.FACES
                             if board.zones[z].events.get(f)), default=None))
    return row


def main(argv: list[str]) -> int:
    maps = 10 if "--quick" in argv else 100
    if "--maps" in argv:
        maps = int(argv[argv.index("--maps") + 1])
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else 1
    size = argv[argv.index("--size") + 1] if "--size" in argv else "9x9"
    campaign = argv[argv.index("--campaign") + 1] if "--campaign" in argv else "ancient"
    columns, rows = (int(n) for n in size.lower().split("x"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    tasks = [(i, columns, rows, campaign) for i in range(maps)]
    t = time.perf_counter()
    results = []

    def done(row: dict) -> None:        # a line as each map ends (stderr), so a long run shows its way
        results.append(row)
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
    if not results:
        return 1
    wall = time.perf_counter() - t
    results.sort(key=lambda r: r["index"])
    print(f"generate map, {maps} maps ({size}, {campaign}, cautious, targets "
          f"{'/'.join(f'{p:.0%}' for p in TARGETS)} +- {TOLERANCE:.0%} in turn, seeds 1000-{999 + maps}, budget "
          f"{BUDGET:,}); {jobs} process(es) on {os.cpu_count()} cores, load average {load:.2f} before the run"
          + (f"; INTERRUPTED: {len(results)} maps finished" if interrupted else ""))
    for p in TARGETS:
        rows_p = [r for r in results if r["target"] == p]
        made = [r for r in rows_p if r["met"]]
        print(f"  target {p:.0%}: {len(made)} of {len(rows_p)} maps written; fresh {FRESH} games: "
              f"{sum(r['within'] for r in made)} within the tolerance, {sum(r['clean'] for r in made)} lint-clean, "
              f"{sum(not r['failed'] for r in made)} pass every requirement/face check")
    made = [r for r in results if r["met"]]
    print(f"  all: {len(made)} of {maps} written, {sum(r['within'] for r in made)} within, "
          f"{sum(r['clean'] for r in made)} clean, {sum(not r['failed'] for r in made)} pass the checks; "
          f"{sum(r['rejected'] for r in made)} candidate(s) within the target rejected by a check and mended")
    if made:
        print(f"  least share of a zone's rounds with the requirement met: {min(r['min_req'] for r in made):.1%}; "
              f"least share of games where an event face changed something: {min(r['min_face'] for r in made):.1%}")
    secs = [r["seconds"] for r in results]
    print(f"  time per map: median {statistics.median(secs):.1f} s, max {max(secs):.1f} s "
          f"(games per map: median {statistics.median(r['games'] for r in results):,.0f}); wall {wall:.0f} s")
    for r in results:
        if not r["met"]:
            print(f"  map {r['index']} (target {r['target']:.0%}, seed {r['seed']}): the budget ran out")
        elif not (r["within"] and r["clean"]) or r["failed"]:
            print(f"  map {r['index']} (target {r['target']:.0%}, seed {r['seed']}): fresh {r['fresh']:.1%} "
                  f"({r['lo']:.1%}-{r['hi']:.1%}){'' if r['clean'] else ', lint findings'}"
                  + ("; " + "; ".join(r["failed"]) if r["failed"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

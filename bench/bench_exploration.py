"""Exploration map-mode benchmark: complete seeded maps on the 20x28 sheet.

Figures: 1,000 maps to completion with their play logs (YAML text, no rendering),
as rooms/s and seconds, against the target of 1,000 complete maps in 10 s; the
checker on those logs; the placement cost on an empty vs a nearly full sheet (it
must not grow as the sheet fills); and a few maps rendered to PDF+PNG.

Usage: python bench/bench_exploration.py [--maps N] [--quick]
"""
from __future__ import annotations

import sys
import tempfile
import time

TARGET_SECONDS = 10.0          # for 1,000 complete maps without rendering


def main(argv: list[str]) -> int:
    maps = 1000
    if "--maps" in argv:
        maps = int(argv[argv.index("--maps") + 1])
    quick = "--quick" in argv
    from sheetgen.games.exploration.formats import builtin_tables
    from sheetgen.games.exploration.formats.playlog import dump_log
    from sheetgen.games.exploration.rules import check
    from sheetgen.games.exploration.mapmode import actions_of, explore

    rooms, entrances, contents = builtin_tables()
    policies = ("first", "random", "deepest")
    t0 = time.perf_counter()
    n_rooms = 0
    size = 0
    games = []
    for seed in range(maps):
        ex = explore(rooms, entrances, contents, seed=seed, policy=policies[seed % 3])
        size += len(dump_log(ex, seed=seed))
        n_rooms += len(ex.rooms)
        games.append(ex)
    elapsed = time.perf_counter() - t0
    per_1000 = elapsed * 1000 / maps
    print(f"exploration map mode: {maps} maps with logs in {elapsed:.2f} s ({n_rooms / elapsed:,.0f} rooms/s, "
          f"{n_rooms / maps:.1f} rooms a map, {size / maps / 1024:.1f} KiB of log a map); "
          f"1,000 maps take {per_1000:.2f} s = {TARGET_SECONDS / per_1000:.1f}x the target "
          f"(1,000 in {TARGET_SECONDS:.0f} s)", flush=True)

    t0 = time.perf_counter()
    bad = sum(1 for ex in games if check(actions_of(ex), rooms, entrances, contents, ex.width, ex.height).violations)
    elapsed = time.perf_counter() - t0
    print(f"exploration check: {maps} map logs checked in {elapsed:.2f} s ({n_rooms / elapsed:,.0f} rooms/s), "
          f"{bad} with violations (expected 0)", flush=True)

    # placement must not slow as the sheet fills: the same fits() on an empty 60x80 sheet and on
    # one that is 92% full (a free 20x20 window left where we place), so both check every square
    from sheetgen.games.dice import RandomDice
    from sheetgen.games.exploration.mapmode import Explorer
    variant = rooms[51].variants(0)[0]
    empty = Explorer(rooms, entrances, contents, RandomDice(1), 60, 80)
    full = Explorer(rooms, entrances, contents, RandomDice(1), 60, 80)
    for y in range(1, 81):
        for x in range(1, 61):
            if not (x <= 20 and y <= 20):
                full.owner[(y - 1) * 60 + x - 1] = 1
    reps = 20000 if quick else 100000
    timings = []
    for ex in (empty, full):
        t0 = time.perf_counter()
        for k in range(reps):
            assert ex.fits(variant.cells, 1 + k % 12, 1 + k % 13)
        timings.append(time.perf_counter() - t0)
    print(f"exploration placement: {timings[1] / timings[0]:.2f}x the time on a 92% full sheet as on an empty one "
          f"({reps / timings[0]:,.0f} vs {reps / timings[1]:,.0f} fits/s; grid lookups, no pairwise shape checks)",
          flush=True)

    from sheetgen.games.exploration.sheets import map_document
    from sheetgen.draw.options import BuildOptions
    from sheetgen.render import render_document
    few = 2 if quick else 5
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for ex in games[:few]:
            doc = map_document(ex, BuildOptions(seed=1))
            render_document(doc, tmp, formats=("pdf", "png"))
    elapsed = time.perf_counter() - t0
    print(f"exploration render: {few} maps to PDF+PNG (150 dpi) in {elapsed:.2f} s ({elapsed / few:.2f} s a map; "
          f"1,000 maps with rendering would take {elapsed / few * 1000 + per_1000:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Dungeon Foury rules benchmark: replayed actions per second.

A purposeful random player (sheetgen.games.foury.randomplay) plays games on the
built-in Ancient Story map until the generated log holds at least N actions;
we then time replaying it through the pure engine (the map's rules object:
rules.apply on every action, from a new game at each game start), best of a few runs, and the full `sheetgen
check` path (YAML load + replay) on the longest single game.
Target: 100,000 actions/s, so the simulation can play thousands of games a second.

Usage: python bench/bench_foury.py [--actions N]
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

TARGET = 100_000


def main(argv: list[str]) -> int:
    total = 200_000
    if "--actions" in argv:
        total = int(argv[argv.index("--actions") + 1])
    from sheetgen.games.foury.formats.map import load_map
    from sheetgen.games.foury import rules as E
    from sheetgen.games.foury.heroes import free_hero
    from sheetgen.games.foury.randomplay import random_game

    fmap = load_map("ancient-story")
    board = fmap.board
    traits = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}
    hero = free_hero(traits)
    games = []
    n = 0
    seed = 0
    t0 = time.perf_counter()
    while n < total:
        actions = random_game(board, hero, seed, max_actions=5000)
        games.append(actions)
        n += len(actions)
        seed += 1
    gen = time.perf_counter() - t0

    rules = E.rules_for(board)           # the campaign's rules object: apply is its strict step
    apply = rules.apply
    new_game = rules.new_game

    def replay_all():
        for actions in games:
            s = new_game(board, hero)
            for a in actions:
                s = apply(s, a)

    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        replay_all()
        best = min(best, time.perf_counter() - t)
    rate = n / best
    print(f"foury rules: {rate:,.0f} replayed actions/s = {rate / TARGET:.2f}x the {TARGET:,} actions/s target "
          f"({n:,} actions in {len(games)} generated games, best of 3: {best:.2f} s; generation {gen:.1f} s)")

    # the whole check path on the longest single game, written as a play log
    from sheetgen.definitions.registry import load_file
    from sheetgen.games.foury.formats.playlog import log_text
    longest = max(games, key=len)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.yaml"
        path.write_text(log_text(str(fmap.source.path), {"traits": traits}, longest))
        t = time.perf_counter()
        loaded = load_file(path)
        violations = loaded.handler.check(loaded.definition).violations
        dt = time.perf_counter() - t
    print(f"foury check (YAML load + replay): {len(longest) / dt:,.0f} actions/s on a {len(longest)}-action log, "
          f"{len(violations)} violation(s)")
    return 0 if not violations else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

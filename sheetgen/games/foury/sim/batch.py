"""Running N games, in one process or J: chunks of game indices, statistics merged.

Game i always rolls the dice of game_rng(seed, i) and every statistic is an
integer sum, so the merged result is the same whatever J and the chunking are.
Workers load the map and hero themselves (once per process) from the spec.
"""
from __future__ import annotations

from sheetgen.games.workers import worker_pool
from dataclasses import dataclass

from sheetgen.errors import InputError, Problem
from ..heroes import HEROES, TRAITS, check_free_traits, free_hero, named_hero
from ..rules import rules_for
from .navigate import Navigator
from .runner import play_game, simulated
from .stats import Stats

DEFAULT_TRAITS = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}


@dataclass(frozen=True)
class SimSpec:
    map_ref: str                 # a built-in map name or a path
    policy: str = "cautious"
    hero: str | None = None      # kael | melyra | thalindra | elydion | "hearts=4,shields=2,..." | None
    seed: int = 1
    coin: bool = False


def load_board(map_ref: str):
    from ..formats.map import load_map
    fmap = load_map(map_ref)
    if not simulated(fmap.board):
        raise InputError(Problem(
            f"simulate plays the four-round game (The Ancient Story, In and Out with Your Strength and custom "
            f"maps); the '{fmap.board.campaign}' campaign has its own end and is not simulated yet",
            fmap.source.filename, 1, 1, path="campaign"))
    return fmap


def make_hero(board, hero: str | None):
    """The hero exactly as `sheetgen check` would build it from a play log."""
    from ..formats.hero_numbers import free_caps    # the campaign sheet's boxes, exactly as check reads them
    full = rules_for(board).full_scale(board)
    caps = free_caps(board.campaign)
    if hero is None:
        return free_hero(DEFAULT_TRAITS, full_scale=full, caps=caps)
    key = hero.strip().lower()
    if key in HEROES:
        from ..formats.hero_numbers import sheet_hero   # the sheet definitions' numbers, as check uses them
        traits, caps = sheet_hero(key)
        return named_hero(key, traits or None, caps or None, full_scale=full)
    traits: dict[str, int] = {}
    for part in key.replace(" ", "").split(","):
        name, _, value = part.partition("=")
        if name not in TRAITS or not value.lstrip("-").isdigit():
            raise InputError(Problem(f"--hero '{hero}': give a hero name ({', '.join(HEROES)}) or 12 traits "
                                     f"like hearts=4,shields=2,weapon=2,clovers=2,shovels=2",
                                     path="--hero"))
        traits[name] = int(value)
    problems = check_free_traits(traits, full_scale=full, caps=caps)
    if problems:
        raise InputError([Problem(f"--hero: {p}", path="--hero") for p in problems])
    return free_hero(traits, full_scale=full, caps=caps)


_WORLD: dict = {}


def play_world(spec: SimSpec):
    """(board, hero, navigator) for a spec, built once per process."""
    key = (spec.map_ref, spec.hero)
    got = _WORLD.get(key)
    if got is None:
        board = load_board(spec.map_ref).board
        got = (board, make_hero(board, spec.hero), Navigator(board))
        _WORLD.clear()
        _WORLD[key] = got
    return got


def run_chunk(spec: SimSpec, start: int, stop: int) -> Stats:
    board, hero, nav = play_world(spec)
    stats = Stats()
    for i in range(start, stop):
        stats.add(play_game(board, hero, spec.policy, spec.seed, i, spec.coin, nav=nav))
    return stats


def _chunk(args) -> Stats:
    return run_chunk(*args)


def chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    size = max(25, min(500, games // max(1, jobs * 8) or 1))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def cluster_chunk(spec: SimSpec, text: str | None, start: int, stop: int) -> Stats:
    """run_chunk on a cluster worker: the map travels as its text (a worker may not see the file)."""
    if text is None:
        return run_chunk(spec, start, stop)
    from .generate import play_world as text_world
    board, hero, nav = text_world(text, spec.hero)
    stats = Stats()
    for i in range(start, stop):
        stats.add(play_game(board, hero, spec.policy, spec.seed, i, spec.coin, nav=nav))
    return stats


def _map_text(map_ref: str) -> str | None:
    """The file's text for a path; None for a built-in name (every worker has those)."""
    from pathlib import Path
    from sheetgen.definitions.registry import resolve
    path, builtin = resolve(map_ref)
    return None if builtin else Path(path).read_text(encoding="utf-8")


def run(spec: SimSpec, games: int, jobs: int = 1, world=None, cluster: str | None = None,
        progress=None) -> Stats:
    """N games of spec, merged statistics; cluster: on a Dask scheduler's workers (the same totals)."""
    if cluster:
        from sheetgen.games.cluster import map_batches
        text = _map_text(spec.map_ref)
        total = Stats()
        for part in map_batches(cluster, cluster_chunk, [(spec, text, a, b) for a, b in chunks(games, 8)],
                                progress):
            total.merge(part)
        return total
    if jobs <= 1 or games < 50:
        if world is not None:
            _WORLD.clear()
            _WORLD[(spec.map_ref, spec.hero)] = world
        return run_chunk(spec, 0, games)
    total = Stats()
    with worker_pool(jobs) as pool:
        for part in pool.imap_unordered(_chunk, [(spec, a, b) for a, b in chunks(games, jobs)]):
            total.merge(part)
    return total

"""Ruleset adapters: what `sheetgen track` needs from each ruleset.

The journal stores, per game, a JSON header and a list of steps, each step a
play-log step dict of that ruleset.  An adapter is a module (registered below
by ruleset name) that provides:

    start(params: dict) -> dict
        A header for a new game from the command's options (e.g. {"map": ...,
        "hero": {...}}).  Raises StepRefused for unusable parameters.
    replay(header: dict, steps: list) -> state
        The live state after the recorded steps (they were legal when recorded).
    prepare(state, step: dict, rng: random.Random) -> dict          (optional)
        Fill in dice the player left to sheetgen (a missing roll that is due).
    apply(state, step: dict) -> state
        The state after one more step, or raise StepRefused(reason) if the step
        is illegal: the command then records nothing and exits 1.
    status(state) -> str
        Resources, round, requirement progress and the legal moves from here.
    export(header: dict, steps: list, relative_to: Path | None) -> str
        The play log as YAML text that `sheetgen check` accepts.
    render(header, steps, outdir, formats, paper=None, grayscale=False) -> list[Path]   (optional)
        The sheet as the player's pencil would have it.

Navigation and shuffle adapters plug in with a line in ADAPTERS (a module that is
not there yet is simply not offered).
"""
from __future__ import annotations

import importlib

ADAPTERS = {
    "foury": "sheetgen.games.foury.tracker",
    "shuffle": "sheetgen.games.shuffle.tracker",
    "navigation": "sheetgen.games.navigation.tracker",
}


class StepRefused(Exception):
    """An illegal step or unusable parameters: the reason is the message."""


def available() -> list[str]:
    import importlib.util
    return [name for name, module in ADAPTERS.items() if importlib.util.find_spec(module) is not None]


def adapter(ruleset: str):
    if ruleset not in available():
        raise StepRefused(f"no tracker for ruleset '{ruleset}' (known: {', '.join(available())})")
    return importlib.import_module(ADAPTERS[ruleset])


def relative_ref(ref, relative_to):
    """A map/dungeon/deck reference as an exported log should name it: an absolute
    path becomes relative to the folder the log is written into (where it can be);
    built-in names and inline definitions pass through unchanged."""
    if not isinstance(ref, str) or relative_to is None:
        return ref
    import os
    from pathlib import Path
    p = Path(ref)
    if not p.is_absolute():
        return ref
    try:
        return os.path.relpath(p, Path(relative_to).resolve())
    except ValueError:          # another drive on Windows
        return str(p)


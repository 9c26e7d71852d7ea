"""A simulated game as a play log (kind: playlog, ruleset: foury) that `sheetgen check` replays.

The steps are written by the notation (sheetgen.games.foury.notation.serialize), the one
writer of play-log steps; this module only lays the rounds out and names the map and hero.
"""
from __future__ import annotations

from pathlib import Path

from .. import actions as A
from ..notation import serialize


def playlog(actions, map_ref: str, hero, title: str | None = None) -> dict:
    """The play log of a recorded game (the runner's Game.log)."""
    if hero.name:
        hero_spec = {"name": hero.name, "traits": dict(hero.traits), "caps": dict(hero.caps)}
    else:
        hero_spec = {"traits": dict(hero.traits)}
    rounds: list[dict] = []
    pending: list = []          # steps before the first entry (none in practice)
    for a in actions:
        if isinstance(a, A.Enter):
            rnd = dict(serialize(a))             # {entry: C1:N} or {start: F6}: the round's head
            rnd["steps"] = []
            rounds.append(rnd)
            continue
        (rounds[-1]["steps"] if rounds else pending).append(serialize(a))
    log = {"sheetgen": 1, "kind": "playlog", "ruleset": "foury", "map": map_ref}
    if title:
        log["title"] = title
    log["hero"] = hero_spec
    log["rounds"] = rounds
    return log


def dump(log: dict) -> str:
    import yaml
    return yaml.safe_dump(log, sort_keys=False, default_flow_style=None, width=120)


def map_ref_for_log(map_ref: str, log_dir: Path) -> str:
    """How a log written into log_dir names the map: a built-in name as is, a file by absolute path."""
    p = Path(map_ref)
    if p.suffix.lower() in (".yaml", ".yml") or p.exists():
        return str(p.resolve())
    return map_ref

"""A simulated game as a play log (kind: playlog, ruleset: foury), in the step syntax
sheetgen.games.foury.formats.playlog reads, so `sheetgen check` can replay it."""
from __future__ import annotations

from pathlib import Path

from .. import actions as A
from ..board import cell_name


def _cs(cell, side) -> str:
    return f"{cell_name(cell)}:{side}"


def step(action):
    """One engine action as a play-log step (Enter is handled by the caller)."""
    if isinstance(action, A.Move):
        out = {"move": cell_name(action.to)}
        if action.roll is not None:
            out["roll"] = action.roll
        return out
    if isinstance(action, A.Fight):
        f = {"hero": action.hero, "enemy": action.enemy}
        if action.weapon:
            f["weapon"] = True
        if action.clover_die is not None:
            f["clover"] = {"die": action.clover_die, "roll": action.clover_roll}
        if action.shield:
            f["shield"] = True
        if action.enemy_type is not None:
            f["type"] = action.enemy_type
        if action.stolen is not None:
            f["stolen"] = action.stolen
        if action.fury:
            f["fury"] = action.fury
        return {"fight": f}
    if isinstance(action, A.Flee):
        return "flee"
    if isinstance(action, A.Collect):
        if action.item == "die":
            return {"collect": {"item": "die", "roll": action.roll, "gain": dict(action.gain)}}
        if action.take is not None:
            return {"collect": {"item": action.item, "take": action.take}}
        return {"collect": action.item}
    if isinstance(action, A.Redeem):
        return {"redeem": action.resource}
    if isinstance(action, A.Shovel):
        return {"shovel": _cs(action.cell, action.side)}
    if isinstance(action, A.Circle):
        return {"circle": cell_name(action.to)}
    if isinstance(action, A.Climb):
        return "climb"
    if isinstance(action, A.Lever):
        return {"lever": cell_name(action.cell)} if action.cell is not None else "lever"
    if isinstance(action, A.Oracle):
        return {"oracle": {"words": action.words}} if action.words else "oracle"
    if isinstance(action, A.Exit):
        return {"exit": _cs(action.cell, action.side)}
    if isinstance(action, A.Market):
        m: dict = {"spend": {"chests": action.spend_chests}, "gain": dict(action.gain)}
        if action.give or action.get:
            m["trade"] = {"give": dict(action.give), "get": dict(action.get)}
        if action.next_rate:
            m["rate"] = "next"
        return {"market": m}
    if isinstance(action, A.Coin):
        return {"coin": {"traits": dict(action.traits)}} if action.traits else "coin"
    if isinstance(action, A.Candy):
        return "candy"
    if isinstance(action, A.Flood):
        return {"flood": [cell_name(c) for c in action.cells]}
    if isinstance(action, A.Sheet):
        return {"sheet": dict(action.values)}
    raise ValueError(f"no play-log step for {action!r}")


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
            rnd = {"entry": _cs(*a.entry)} if a.entry else ({"start": cell_name(a.start)} if a.start else {})
            rnd["steps"] = []
            rounds.append(rnd)
            continue
        (rounds[-1]["steps"] if rounds else pending).append(step(a))
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

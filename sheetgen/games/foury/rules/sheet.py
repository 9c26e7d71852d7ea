"""Dungeon Foury rules: what a `sheet:` step asserts (the values penciled on the sheet) read against the state:
the sheet keys and their aliases, and settling what the steps did not say (a theft, a cornucopia)."""
from __future__ import annotations


from ..board import OPPOSITE, neighbour, parse_cell_side, \
    wall_key
from ..heroes import TRAITS
from ..tables import (RESOURCES, SANTA_COUNTERS)

from .state import GameState, StepContext, fmt_cell, gain_resource


# -- assertions -----------------------------------------------------------------------
# what players may call things on their sheet -> our names
ALIASES = {
    "heart": "hearts", "life": "hearts", "lives": "hearts", "life points": "hearts", "hp": "hearts",
    "shield": "shields", "weapons": "weapon", "sword": "weapon", "swords": "weapon",
    "clover": "clovers", "four-leaf clover": "clovers", "four-leaf clovers": "clovers", "luck": "clovers",
    "shovel": "shovels", "chest": "chests", "treasure": "chests", "treasures": "chests",
    "cornucopia": "cornucopias", "kill": "kills", "monsters": "kills", "monsters defeated": "kills",
    "requirements": "requirement", "statue": "statues", "lever": "levers", "wall": "walls",
    "green package": "green packages", "blue package": "blue packages", "candy cane": "candy canes",
    "turn": "turns", "insert coin": "coin",
    "round requirement": "requirement", "requirement progress": "requirement",
    "round requirement progress": "requirement", "requirement boxes": "requirement",
    "final score": "score", "points": "score", "fury boxes": "fury", "fury box": "fury", "skulls": "fury",
    "hourglasses": "turns", "hourglass boxes": "turns",
    "reindeers": "reindeer", "candy": "candy canes", "candies": "candy canes", "sleighs": "sleigh",
    "green presents": "green packages", "blue presents": "blue packages",
}


def canonical(key: str) -> str:
    k = str(key).strip().lower().replace("_", " ")
    return ALIASES.get(k, k)


def sheet_value(s: GameState, key: str):
    if key in s.res:
        return s.res[key]
    if key == "kills":
        return s.kills
    if key in ("requirement", "progress"):
        return s.requirement_progress()
    if key == "round":
        return s.round_no
    if key == "walls":
        return sorted(f"{fmt_cell(c)}:{side}" for c, side in s.walls)
    if key in ("statues", "levers"):
        return s.requirement_progress() if s.kind == key else 0
    if key == "flooded":
        return sorted(fmt_cell(c) for c in s.flooded)
    if key in ("rooms", "collapsed rooms"):
        return sorted(fmt_cell(c) for c in s.rooms)
    if key == "explored":
        return sorted(fmt_cell(c) for c in s.explored)
    if key in ("turns", "hourglass"):
        return s.turns
    if key == "fury":
        return s.fury
    if key in ("position", "cell"):
        return fmt_cell(s.pos)
    if key == "awakened":
        return s.awakened
    if key == "coin":
        return s.coin_used
    if key == "kills_total":
        return s.kills_total
    if key in ("packages",):
        return s.res.get("green packages", 0) + s.res.get("blue packages", 0)
    if key in SANTA_COUNTERS or key in RESOURCES:
        return 0
    raise KeyError(key)


SHEET_KEYS = RESOURCES + SANTA_COUNTERS + ("kills", "requirement", "progress", "statues", "levers", "round", "walls",
                                           "flooded", "rooms", "explored", "turns",
                                           "hourglass", "fury", "position", "cell", "awakened", "kills_total", "coin",
                                           "score", "packages")


def edge_named(s: GameState, name: str) -> bool:
    """Is the canonical wall name on the map's edge (and not an arrow)?"""
    c, side = parse_cell_side(name)
    for cell, sd in ((c, side), (neighbour(c, side), OPPOSITE[side])):
        if s.board.on_board(cell) and not s.board.on_board(neighbour(cell, sd)):
            return (cell, sd) not in s.board.entries
    return False


def arrow_named(s: GameState, name: str) -> bool:
    """Is the canonical wall name the side of an entry arrow?"""
    c, side = parse_cell_side(name)
    return (c, side) in s.board.entries or (neighbour(c, side), OPPOSITE[side]) in s.board.entries


def canon_walls(value) -> list[str] | None:
    try:
        out = set()
        for w in value:
            c, side = parse_cell_side(str(w))
            k = wall_key(c, side)
            out.add(f"{fmt_cell(k[0])}:{k[1]}")
        return sorted(out)
    except (TypeError, ValueError):
        return None


def settle_theft(s: GameState, claims: dict, ctx: StepContext) -> None:
    """A Bandit's theft the log did not name: the resource the sheet shows one fewer of."""
    while s.theft > 0:
        others = [k for k in RESOURCES if k != "hearts" and s.res.get(k, 0) > 0]
        if not others:
            s.theft = 0
            return
        lower = [k for k in others if isinstance(claims.get(k), int) and claims[k] == s.res[k] - 1]
        if not lower:
            if all(k in claims for k in others):
                s.theft = 0
                ctx.soft("bandit.steal", "the Bandit's hit also stole one other resource: the sheet should "
                         f"show one fewer of {', '.join(others)}")
            return              # not shown yet
        gain_resource(s, lower[0], -1)
        s.theft -= 1


def blank_walls(s: GameState) -> set:
    """Walls on the blank map (printed, or the edge beside no arrow), as canonical names."""
    out = {f"{fmt_cell(k[0])}:{k[1]}" for k in s.board.walls if k not in s.erased}
    return out


def settle_cornucopias(s: GameState, claims: dict) -> None:
    """Cornucopias used for resources without a step of their own (the issue's log has no
    redeem step): the sheet shows the resources gained and, if listed, the cornucopias gone."""
    have = s.res.get("cornucopias", 0)
    if have < 1:
        return
    gains = {}
    for k in TRAITS:
        v = claims.get(k)
        if isinstance(v, int) and not isinstance(v, bool) and v > s.res.get(k, 0):
            gains[k] = v - s.res.get(k, 0)
    used = sum(gains.values())
    if not used or used > have:
        return
    claimed = claims.get("cornucopias")
    if claimed is not None and claimed != have - used:
        return
    if any(s.caps.get(k) is not None and s.res.get(k, 0) + n > s.caps[k] for k, n in gains.items()):
        return
    gain_resource(s, "cornucopias", -used)
    for k, n in gains.items():
        gain_resource(s, k, n)

"""A random (but always legal) Dungeon Foury player: for benchmarks, tests and simulation.

Pure: the only source of chance is the random.Random it is given.
"""
from __future__ import annotations

import random

from . import rules as E
from .actions import Coin, Collect, Enter, Fight, Market, Move, Oracle
from .board import Board
from .heroes import Hero
from .tables import RESOURCES


_WORTH = {"extra step": 3, "chest": 2, "find": 2, "monster": -1, "collapse origin": -3, "flood origin": 0}


def _lucky_roll(s: E.GameState, to, rng: random.Random) -> int:
    """The kindest face of the die for this move (a 'lucky' player, for complete test games)."""
    b = s.board
    frm = s.pos if s.pos is not None else s.entry[0]
    zone = b.zones.get(b.zone_of(frm)) or b.zones.get(b.zone_of(to))
    if zone is None:
        return rng.randint(1, 6)
    best, best_score = [], None
    for face, events in zone.events.items():
        score = sum(_WORTH.get(ev.kind, 0) - (len(ev.sides) if ev.kind == "collapse" else 0) for ev in events)
        if best_score is None or score > best_score:
            best, best_score = [face], score
        elif score == best_score:
            best.append(face)
    return rng.choice(best)


def _dice(s: E.GameState, a, rng: random.Random, lucky: bool = False):
    if isinstance(a, Move):
        rule = s.rules.roll_rule(s, a.to)
        if rule == "due" or (rule == "optional" and rng.random() < 0.5):
            return Move(a.to, _lucky_roll(s, a.to, rng) if lucky else rng.randint(1, 6))
        return a
    if isinstance(a, Fight):
        if lucky:
            return Fight(rng.randint(5, 6), 1)
        return Fight(rng.randint(1, 6), rng.randint(1, 6), weapon=rng.random() < 0.3,
                     shield=s.res.get("shields", 0) > 0 and rng.random() < 0.3)
    if isinstance(a, Oracle):
        return Oracle("random words")
    if isinstance(a, Collect) and a.item == "die":
        return Collect("die", roll=rng.randint(2, 6) if lucky else rng.randint(1, 6))
    return a


def random_game(board: Board, hero: Hero, seed: int = 0, max_actions: int = 5000,
                avoid_market: bool = True, lucky: bool = False) -> list:
    """The actions of one random legal game (stops at its end or after max_actions)."""
    rng = random.Random(seed)
    rules = E.rules_for(board)
    s = rules.new_game(board, hero)
    out: list = []
    stuck = 0
    _AIMLESS[0] = 0
    while len(out) < max_actions and stuck < 50 and _AIMLESS[0] < 200:
        options = rules.legal_actions(s)
        if avoid_market:
            options = [o for o in options if not isinstance(o, Market)] or options
        if not options:
            break
        pick = _choose(s, options, rng)
        action = _dice(s, pick, rng, lucky)
        outcome = rules.step(s, action)
        if outcome.violations:
            fixed = _repair(s, action, outcome.violations, rng)
            if fixed is None:
                stuck += 1
                continue
            action, s = fixed
        else:
            s = outcome.state
        stuck = 0
        out.append(action)
        if isinstance(action, Market) or (s.phase == E.OVER):
            if s.phase == E.OVER:
                break
    return out


_AIMLESS = [0]          # moves made with nowhere left to go (walled in: "uh, you're dead")


def _choose(s: E.GameState, options: list, rng: random.Random):
    """A purposeful pick most of the time: fight, collect, pull levers, explore towards the
    Oracle once awakened, then towards an exit; now and then a random one."""
    from .actions import Climb, Collect, Exit, Flee, Lever, Redeem
    if rng.random() < 0.15:
        return rng.choice(options)
    by = {}
    for o in options:
        by.setdefault(type(o), []).append(o)
    if Exit in by:
        return rng.choice(by[Exit])
    if Fight in by:
        if Flee in by and rng.random() < 0.3:
            return by[Flee][0]
        return by[Fight][0]
    if Collect in by:
        return rng.choice(by[Collect])
    if Lever in by and s.kind == "levers":
        return rng.choice(by[Lever])
    if Climb in by and s.kind == "levers" and not s.upper and s.requirement_progress() < s.requirement_target():
        return by[Climb][0]
    if Redeem in by and s.kind != "cornucopias" and s.res.get("hearts", 0) < 3:
        return next((r for r in by[Redeem] if r.resource == "hearts"), by[Redeem][0])
    moves = by.get(Move, [])
    if moves and s.pos is not None:
        goal = _goal(s)
        step = _first_step(s, goal) if goal else None
        if step is None and goal is not None:
            step = _first_step(s, lambda c: c not in s.explored)
        if step is None:
            from .actions import Shovel
            if Shovel in by:
                return rng.choice(by[Shovel])
        if step is not None:
            for m in moves:
                if m.to == step:
                    return m
        _AIMLESS[0] += 1
        return rng.choice(moves)
    return rng.choice(options)


def _goal(s: E.GameState):
    b = s.board
    if s.visited and (s.awakened or s.oracle_chest):
        exits = {cell for cell, side in b.entries if (cell, side) not in s.used_entries and b.zone_of(cell) != s.zone}
        return exits.__contains__
    if s.awakened or s.kind is None:
        return b.is_centre
    wanted = {"statues": ("statue",), "kills": E.ENEMIES, "levers": ("stairs",), "cornucopias": ("cornucopia",)}
    names = wanted.get(s.kind, ())
    targets = {c for c, items in b.items.items() for i in items
               if i in names and (c, i) not in s.removed and c not in s.faced}
    if s.kind == "cornucopias" and s.res.get("cornucopias", 0) > 0:
        return b.is_centre
    if targets:
        return targets.__contains__
    return lambda c: c not in s.explored


def _first_step(s: E.GameState, goal):
    """First cell on a shortest open path from the hero to a cell meeting goal."""
    from .board import DELTA, neighbour
    start = s.pos
    prev = {start: None}
    frontier = [start]
    b = s.board
    while frontier:
        nxt = []
        for c in frontier:
            if c != start and goal(c):
                while prev[c] != start:
                    c = prev[c]
                return c
            for side in DELTA:
                n = neighbour(c, side)
                if n in prev or not b.on_board(n) or b.is_rock(n) or n in s.rooms or s.has_wall(c, side):
                    continue
                prev[n] = c
                nxt.append(n)
        frontier = nxt
    return None


def _repair(s, action, violations, rng):
    """Retry a random choice the rules refused for a reason a player would avoid."""
    rules = {v.rule for v in violations}
    if isinstance(action, Fight):
        variants = [Fight(action.hero, action.enemy, action.weapon)]
        if "bandit.steal" in rules:
            others = [k for k in RESOURCES if k != "hearts" and s.res.get(k, 0) > 0]
            variants = [Fight(action.hero, action.enemy, action.weapon, stolen=rng.choice(others))] if others else variants
        for v in variants:
            outcome = s.rules.step(s, v)
            if not outcome.violations:
                return v, outcome.state
    if isinstance(action, Enter) or isinstance(action, Coin):
        return None
    return None


def replay(board: Board, hero: Hero, actions) -> E.GameState:
    rules = E.rules_for(board)
    s = rules.new_game(board, hero)
    apply = rules.apply
    for a in actions:
        s = apply(s, a)
    return s

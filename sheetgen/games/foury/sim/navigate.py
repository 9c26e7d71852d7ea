"""Finding the way on a Foury map as it stands in a game (pure, no I/O).

The printed map never changes, so its passages are worked out once per board
(`Navigator`); a search then only checks what the pencil added: collapsed walls
(state.walls) and collapsed rooms (state.rooms).  Magic circles join every
circle cell to every other one.  Searches are breadth-first (fewest steps);
a second search that may dig through collapsed walls is used only when the
first finds nothing (shovels are scarce).
"""
from __future__ import annotations

import heapq

from ..board import SIDES, Board, Coord, neighbour, wall_key
from ..rules import FOES

SHOVEL_COST = 6          # a dig costs as much as a detour of this many steps


class Navigator:
    __slots__ = ("board", "adj", "circles", "circle_set", "centre", "foe_cells", "cells", "entries_at")

    def __init__(self, board: Board):
        self.board = board
        adj: dict[Coord, tuple] = {}
        for c in board.all_cells():
            if board.is_rock(c):
                continue
            adj[c] = tuple((neighbour(c, side), wall_key(c, side), side)
                           for side in SIDES if board.open_on_blank_map(c, side))
        self.adj = adj
        self.cells = tuple(adj)
        self.circles = tuple(c for c, items in sorted(board.items.items(), key=lambda kv: (kv[0][1], kv[0][0]))
                             if "magic circle" in items and c in adj)
        self.circle_set = frozenset(self.circles)
        self.centre = frozenset(board.centre_cells())
        # printed foes: (cell, foe) pairs, checked against state.removed when needed
        self.foe_cells = tuple((c, i) for c, items in board.items.items() for i in items if i in FOES)
        entries_at: dict[Coord, list] = {}
        for cell, side in board.entries:
            entries_at.setdefault(cell, []).append(side)
        self.entries_at = {c: tuple(v) for c, v in entries_at.items()}

    # -- what is where now --------------------------------------------------
    def active_foes(self, state) -> dict[Coord, str]:
        """Cells holding an active foe (printed and not beaten, or put there by an event)."""
        removed = state.removed
        out = {c: f for c, f in self.foe_cells if (c, f) not in removed}
        if state.spawned:
            out.update(state.spawned)
        return out

    # -- searches -------------------------------------------------------------
    def path_to(self, state, start: Coord, targets, avoid=frozenset(), dig: bool = False):
        """The cells after start on a shortest way to the nearest target, or None."""
        if start in targets:
            return []
        # breadth first, stopping at the first target reached
        walls, adj = state.walls, self.adj
        parent = {start: None}
        order = [start]
        push = order.append
        circles = self.circle_set
        blocked = state.rooms | avoid if avoid else state.rooms
        for c in order:
            if c in targets:
                return _unwind(parent, c)
            for n, key, _side in adj.get(c, ()):
                if n in parent or n in blocked or key in walls:
                    continue
                parent[n] = c
                push(n)
            if c in circles:
                for n in self.circles:
                    if n not in parent and n not in blocked:
                        parent[n] = c
                        push(n)
        if dig:
            return self._dig_path(state, start, targets, avoid)
        return None

    def _dig_path(self, state, start, targets, avoid):
        """Cheapest way when collapsed walls may be dug through (each dig costs SHOVEL_COST)."""
        walls, rooms, adj = state.walls, state.rooms, self.adj
        dist = {start: 0}
        parent = {start: None}
        heap = [(0, 0, start)]
        tick = 0
        while heap:
            d, _, c = heapq.heappop(heap)
            if d > dist.get(c, 1 << 30):
                continue
            if c in targets:
                return _unwind(parent, c)
            steps = [(n, SHOVEL_COST if key in walls else 1) for n, key, _s in adj.get(c, ())]
            if c in self.circle_set:
                steps += [(n, 1) for n in self.circles if n != c]
            for n, w in steps:
                if n in rooms or n in avoid:
                    continue
                nd = d + w
                if nd < dist.get(n, 1 << 30):
                    dist[n] = nd
                    parent[n] = c
                    tick += 1
                    heapq.heappush(heap, (nd, tick, n))
        return None

    def step_kind(self, state, frm: Coord, to: Coord):
        """How to go from frm to the adjacent (or circle) cell to: ('move'|'shovel'|'circle', side) or None."""
        for n, key, side in self.adj.get(frm, ()):
            if n == to:
                if to in state.rooms:
                    return None
                return ("shovel", side) if key in state.walls else ("move", side)
        if frm in self.circle_set and to in self.circle_set and to not in state.rooms:
            return ("circle", None)
        return None


def _unwind(parent, c):
    path = []
    while parent[c] is not None:
        path.append(c)
        c = parent[c]
    path.reverse()
    return path

"""Dungeon Exploration's scan side (SCANNER): the graph sheet's penciled grid edges, the
rooms they enclose and their doors, and the checks."""
from __future__ import annotations

from sheetgen.scan.contract import GameScanner


class ExplorationScanner(GameScanner):
    game = "exploration"

    def playable(self, loaded) -> bool:
        return loaded.kind == "sheet" and loaded.definition.model.sheet == "graph"

    def regions(self, sheet):
        raise NotImplementedError

    def interpret(self, sheet, readings):
        raise NotImplementedError

    def check(self, sheet, view):
        raise NotImplementedError


SCANNER = ExplorationScanner()

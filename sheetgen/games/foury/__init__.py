"""Dungeon Foury rules: the board (board.py), heroes (heroes.py), actions (actions.py)
and the engine (engine.py): `apply(state, action)` -> new state or `Forbidden`.

    from sheetgen.games.foury import new_game, apply, legal_moves, actions as A
    state = new_game(board, free_hero({...}))
    state = apply(state, A.Enter(entry=((2, 0), "N")))
"""
from . import actions
from .rules import Forbidden, GameState, apply, apply_lenient, legal_moves, new_game

__all__ = ["actions", "Forbidden", "GameState", "apply", "apply_lenient", "legal_moves", "new_game"]

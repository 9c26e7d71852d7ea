"""Ladder: a toy game that exists to prove the game interface is real.

A corridor of squares 0..length.  Each turn the player rolls a d6 and moves that many
squares forward; landing exactly on the last square wins.  The rules text (ours) is
silent on a roll that overshoots the end: by default such a move is not allowed (the
player stays); the reading 'bounce' lets the piece bounce back from the end instead.

The package has what every game has, in miniature: rules (pure), actions, notation,
formats (the play-log model and its check handler), tracker (the journal adapter of
`sheetgen track`), web (the page of `sheetgen play`), and this declaration.  It is
registered like any game: SHEETGEN_GAMES=toygame (with tests/ on PYTHONPATH), or
`register_game(GAME)` in-process; `sheetgen check` then checks its play logs.
"""
from sheetgen.games.base import Game

GAME = Game(
    name="ladder",
    title="Ladder (a toy game)",
    kinds={"playlog": "toygame.formats"},
    readings="toygame.rules:LadderReading",
    tracker="toygame.tracker",
    web="toygame.web",
    option_help={"track new --map": "the ladder's length, default 12"},
)

"""Shuffle Dungeons (rules text: shared/seeds/002): room tiles that shift, slide, swap and twist.

    rules.py      the engine: state + action -> Outcome;  actions.py: the play-log action syntax
    formats.py    decks and sheets;  playlog.py: the play-log format
    sheets.py     room, monster, item and hero cards, the reference sheet
    tracker.py    the journal adapter of `sheetgen track --ruleset shuffle`
"""
from ..base import Game

GAME = Game(
    name="shuffle",
    title="Shuffle Dungeons",
    rules_text="002",
    kinds={"deck": "sheetgen.games.shuffle.formats",
           "sheet": "sheetgen.games.shuffle.formats",
           "playlog": "sheetgen.games.shuffle.playlog"},
    tracker="sheetgen.games.shuffle.tracker",
)

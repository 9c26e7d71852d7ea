"""Card-grid dungeon navigation (rules text: shared/seeds/000): room cards laid in a grid.

    rules.py      the engine: state + action -> Outcome;  actions.py: the play-log action syntax
    formats.py    decks, dungeons, sheets;  playlog.py: the play-log format
    sheets.py     room cards, dungeon grids, player and token sheets
    tracker.py    the journal adapter of `sheetgen track --ruleset navigation`
"""
from ..base import Game

GAME = Game(
    name="navigation",
    title="Card-grid navigation",
    rules_text="000",
    kinds={"deck": "sheetgen.games.navigation.formats",
           "dungeon": "sheetgen.games.navigation.formats",
           "sheet": "sheetgen.games.navigation.formats",
           "playlog": "sheetgen.games.navigation.playlog"},
    tracker="sheetgen.games.navigation.tracker",
)

"""The table companion page of `sheetgen play`: a game of the journal, played beside the paper sheet.

    app.py        the routes (make_play_app): the page of a game, the actions (POSTs), undo,
                  the exports (play log, pencil PNG/PDF, the print sheet)
    templates/    the server-rendered page (jinja2)
    static/       its CSS and its little JavaScript (local files only)

The page knows no game: it finds a game's page adapter through the registry
(`find_game(ruleset).module('web').PAGE`, its Game.web) and records steps
with the game's tracker adapter in the same SQLite journal as `sheetgen track`, so a game
goes on in either.
"""
from .app import make_play_app

__all__ = ["make_play_app"]

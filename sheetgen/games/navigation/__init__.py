"""Card-grid dungeon navigation (rules text: shared/seeds/000): room cards laid in a grid.

    rules.py      the engine (NavigationRules, RULES): state + action -> Outcome
    actions.py    the typed actions (Move, Wrap, Pay, Resolve, ..., BeginTurn, EndTurn)
    notation.py   play-log entries <-> actions, both ways (parse, serialize)
    readings.py   NavigationReading: the rules' alternative readings a log may follow
    tables.py     the fixed data: side costs, move limits, starting stock, items, room types
    formats/      the YAML formats: __init__.py (the models of decks, dungeons, sheets and play logs; the
                  definitions' handler), playlog.py (the play-log handler: load, judge by replay)
    sheets.py     room cards, dungeon grids, player and token sheets
    tracker.py    the journal adapter of `sheetgen track --ruleset navigation` (ADAPTER)
    web.py        the companion page's adapter (`sheetgen play --ruleset navigation`: PAGE)
"""
from ..base import Game

GAME = Game(
    name="navigation",
    title="Card-grid navigation",
    rules_text="000",
    kinds={"deck": "sheetgen.games.navigation.formats",
           "dungeon": "sheetgen.games.navigation.formats",
           "sheet": "sheetgen.games.navigation.formats",
           "playlog": "sheetgen.games.navigation.formats.playlog"},
    tracker="sheetgen.games.navigation.tracker",
    web="sheetgen.games.navigation.web",
    option_help={"play --ruleset": "--map a dungeon, --hero the players' names"},
    readings="sheetgen.games.navigation.readings:NavigationReading",
)

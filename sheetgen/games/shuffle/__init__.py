"""Shuffle Dungeons (rules text: shared/seeds/002): room tiles that shift, slide, swap and twist.

    rules.py      the engine (ShuffleRules, RULES): state + action -> Outcome; its readings
    actions.py    the typed actions (Move, Draw, Build, Fight, Shift, ..., BeginTurn, EndTurn)
    notation.py   play-log entries <-> actions, both ways (parse, serialize)
    tables.py     the fixed data: hand size, knock-out burn, slots, the d6, default areas
    formats.py    the models of decks, sheets and play logs; the definitions' handler
    playlog.py    the play-log handler: load, and judge by replay (sheetgen check)
    sheets.py     room, monster, item and hero cards, the reference sheet
    web.py        the companion page's adapter (`sheetgen play --ruleset shuffle`: PAGE)
    tracker.py    the journal adapter of `sheetgen track --ruleset shuffle` (ADAPTER)
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
    option_help={"track new --map": "a set-up play log", "play --ruleset": "--map a set-up play log"},
    web="sheetgen.games.shuffle.web",
    readings="sheetgen.games.shuffle.rules:ShuffleReading",
)

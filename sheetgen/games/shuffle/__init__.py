"""Shuffle Dungeons (rules text: shared/seeds/002): room tiles that shift, slide, swap and twist.

    rules.py      the engine (ShuffleRules, RULES): state + action -> Outcome
    actions.py    the typed actions (Move, Draw, Build, Fight, Shift, ..., BeginTurn, EndTurn)
    notation.py   play-log entries <-> actions, both ways (parse, serialize)
    readings.py   ShuffleReading: the rules' alternative readings a log may follow
    tables.py     the fixed data: hand size, knock-out burn, slots, the d6, default areas
    formats/      the YAML formats: __init__.py (the models of decks, sheets and play logs; the
                  definitions' handler), playlog.py (the play-log handler: load, judge by replay)
    sheets.py     room, monster, item and hero cards, the reference sheet
    tracker.py    the journal adapter of `sheetgen track --ruleset shuffle` (ADAPTER)
    web.py        the companion page's adapter (`sheetgen play --ruleset shuffle`: PAGE)
"""
from ..base import Game

GAME = Game(
    name="shuffle",
    title="Shuffle Dungeons",
    rules_text="002",
    kinds={"deck": "sheetgen.games.shuffle.formats",
           "sheet": "sheetgen.games.shuffle.formats",
           "playlog": "sheetgen.games.shuffle.formats.playlog"},
    tracker="sheetgen.games.shuffle.tracker",
    option_help={"track new --map": "a set-up play log", "play --ruleset": "--map a set-up play log"},
    web="sheetgen.games.shuffle.web",
    readings="sheetgen.games.shuffle.readings:ShuffleReading",
)

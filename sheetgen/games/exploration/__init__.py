"""Dungeon Exploration (rules text: shared/seeds/004): a 20x28 graph sheet filled room by room.

    rules.py      the play-log checker: rooms, doors, contents, retracing, time
    shapes.py     room shapes (ASCII pictures), rotations, mirrors, stretches
    tables.py     d66 room, entrance and contents tables;  readings.py: the shape readings
    mapmode.py    map mode (`sheetgen explore`);  generate.py: fresh d66 tables
    formats.py    the YAML formats: tables and sheets;  playlog.py: the play-log format
    sheets.py     composers: graph sheet, table pages, drawn maps
    sim.py, report.py   `sheetgen simulate --ruleset exploration`
"""
from ..base import Game

GAME = Game(
    name="exploration",
    title="Dungeon Exploration",
    rules_text="004",
    kinds={"table": "sheetgen.games.exploration.formats",
           "sheet": "sheetgen.games.exploration.formats",
           "playlog": "sheetgen.games.exploration.playlog"},
    simulator="sheetgen.games.exploration.sim",
)

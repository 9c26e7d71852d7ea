"""Dungeon Exploration (rules text: shared/seeds/004): a 20x28 graph sheet filled room by room.

    rules.py      the engine: ExplorationRules.step(state, action) -> Outcome; the sheet
                  (Sheet) and the placement rules map mode shares; the checker is its replay
    actions.py    the typed actions: Place, Contents, Retrace, Time, End
    notation.py   play-log room dicts <-> actions, both ways (the one place)
    readings.py   ExplorationReading (the rules' alternative readings) and the shape
                  candidates a logged transform may stand for
    tables.py     the game's data: d66 room, d6 entrance and 2d6 contents tables
    shapes.py     room shapes (ASCII pictures), rotations, mirrors, stretches
    mapmode.py    map mode (`sheetgen explore`): Explorer;  generate.py: fresh d66 tables
    formats/      the YAML formats: __init__.py (the models of tables, sheets and the play log,
                  table loading, and the tables' and sheets' handler: load, lint, compose),
                  playlog.py (the play-log handler: load, check by replay, dump_log)
    sheets.py     composers: graph sheet, table pages, drawn maps
    tracker.py    map mode played by a person in the journal (`sheetgen track`, `sheetgen play`): ADAPTER
    web.py        map mode on the companion page (`sheetgen play --ruleset exploration`): PAGE
    sim/          `sheetgen simulate --ruleset exploration`: __init__.py (the runs), report.py (its pages)
    cli.py        the game's commands: `sheetgen explore`, `sheetgen table`
    scan.py       the scanner's side of `sheetgen scan` (SCANNER)
"""
from ..base import BuildOption, Command, Game

GAME = Game(
    name="exploration",
    title="Dungeon Exploration",
    rules_text="004",
    kinds={"table": "sheetgen.games.exploration.formats",
           "sheet": "sheetgen.games.exploration.formats",
           "playlog": "sheetgen.games.exploration.formats.playlog"},
    simulator="sheetgen.games.exploration.sim",
    tracker="sheetgen.games.exploration.tracker",
    web="sheetgen.games.exploration.web",
    readings="sheetgen.games.exploration.readings:ExplorationReading",
    scanner="sheetgen.games.exploration.scan",
    simulate_options=(BuildOption("table", "str", "With --ruleset exploration: the room table to use."),),
    option_help={"track new --map": "the d66 table, default the built-in one",
                 "play --ruleset": "map mode; --map names its d66 table, default the built-in one",
                 "simulate --ruleset": "runs map mode of the exploration rules instead of a Foury map"},
    commands=(Command("table", "sheetgen.games.exploration.cli", "table", "Generate fresh d66 room tables."),
              Command("explore", "sheetgen.games.exploration.cli", "explore",
                      "Map mode: generate a dungeon on a graph sheet.")),
)

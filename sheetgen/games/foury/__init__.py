"""Dungeon Foury (rules text: shared/seeds/003): the roll-and-write of four rounds on a zone map.

    rules.py      the engine: GameState + action -> Outcome (campaigns as rules classes)
    actions.py    the typed actions;  notation.py: play-log steps <-> actions, both ways
    board.py      map geometry and the event vocabulary;  heroes.py: traits and the heroes
    tables.py     the game's data in one place (die table, strengths, caps)
    formats/      the YAML formats: map (and its lint), sheet, playlog
    sheets/       composers into the drawing model: map, character half, pictograms, pencil
    tracker.py    the journal adapter of `sheetgen track`;  sim/: `sheetgen simulate`

Only this small declaration is imported to find the game; the rest when used.
"""
from ..base import BuildOption, Game

GAME = Game(
    name="foury",
    title="Dungeon Foury",
    rules_text="003",
    kinds={"map": "sheetgen.games.foury.formats.map",
           "sheet": "sheetgen.games.foury.formats.sheet",
           "playlog": "sheetgen.games.foury.formats.playlog"},
    tracker="sheetgen.games.foury.tracker",
    simulator="sheetgen.games.foury.sim.api",
    build_options=(
        BuildOption("columns", "int", "Blank maps: number of columns.", 3, 26),
        BuildOption("rows", "int", "Blank maps: number of rows.", 3, 26),
        BuildOption("hero", "str", "Foury maps: pre-fill the character sheet for this hero (kael, melyra, ...)."),
    ),
)

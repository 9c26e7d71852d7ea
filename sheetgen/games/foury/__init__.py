"""Dungeon Foury (rules text: shared/seeds/003): the roll-and-write of four rounds on a zone map.

The rules side (pure: the standard library and sheetgen.games.base only):
    rules.py      the engine: GameState, FouryRules (the base game, The Ancient Story) and one
                  subclass per campaign: Slaughter (its Fury boxes, +0 monsters, a cornucopia
                  every third kill), Santa (the hourglass, packages, candy canes), Strength (caps
                  at the full scale), Kraken (floods, swimming, the immortal Kraken); the table
                  CAMPAIGNS picks one by a map's `campaign:` (rules_for); FouryReading: the
                  alternative readings of the rules text a log may follow
    actions.py    the typed actions, one per play-log step
    notation.py   play-log steps <-> actions, both ways (parse / serialize), the players' words
    tables.py     the game's data in one place: the die table, foe strengths, tracks and caps,
                  requirement counts, the campaigns' numbers and what each campaign prints
    board.py      map geometry and the event vocabulary;  heroes.py: traits and the heroes
    vocabulary.py every word a map may use with one line of meaning (`sheetgen list items` ...)
The rest:
    formats/      the YAML formats: map.py (the map, its Board and lint), sheet.py (spare sheets,
                  heroes), playlog.py (the play log and `sheetgen check`)
    sheets/       composers into the drawing model: map.py (map page), character.py (character
                  sheet), pictograms.py (event icons), pencil.py (a played game over the map)
    tracker.py    the journal adapter of `sheetgen track` (ADAPTER), the words of every step
    web.py        the companion page's adapter (`sheetgen play`: PAGE)
    cli.py        the game's own commands: `sheetgen new map NAME`
    mapgen.py     `sheetgen generate map`: a map built to a target win rate (the search: sim/generate.py)
    randomplay.py a random legal player (benchmarks, tests)
    design.py     the map workbench's model (`sheetgen design`): editing operations on a map file,
                  written back with its comments, checked, drawn and played
    scan.py       the scanner's side of `sheetgen scan` (SCANNER): the regions of its sheets by their ids,
                  what the pencil there means, the rules a finished sheet is held to
    sim/          `sheetgen simulate`: policies, runner (four rounds), campaigns (the campaign
                  maps' own games), results, stats, report, pages, export (play logs)

Only this small declaration is imported to find the game; the rest when used.
"""
from ..base import BuildOption, Command, Game

GAME = Game(
    name="foury",
    title="Dungeon Foury",
    rules_text="003",
    kinds={"map": "sheetgen.games.foury.formats.map",
           "sheet": "sheetgen.games.foury.formats.sheet",
           "playlog": "sheetgen.games.foury.formats.playlog"},
    tracker="sheetgen.games.foury.tracker",
    web="sheetgen.games.foury.web",
    simulator="sheetgen.games.foury.sim.api",
    readings="sheetgen.games.foury.rules:FouryReading",
    designer="sheetgen.games.foury.design",
    scanner="sheetgen.games.foury.scan",
    commands=(Command("new", "sheetgen.games.foury.cli", "new",
                      "Write a map to start from: `new map NAME`."),
              Command("generate", "sheetgen.games.foury.mapgen", "generate",
                      "Generate a map to a target win rate: `generate map --win-rate 0.3`."),),
    vocabularies={word: f"sheetgen.games.foury.vocabulary:{attr}" for word, attr in (
        ("items", "items"), ("events", "events"), ("enemies", "enemies"), ("campaigns", "campaigns"),
        ("requirements", "requirements"), ("die-effects", "die_effects"), ("sides", "sides"))},
    build_options=(
        BuildOption("columns", "int", "Blank maps: number of columns.", 3, 26),
        BuildOption("rows", "int", "Blank maps: number of rows.", 3, 26),
        BuildOption("hero", "str", "Foury maps: pre-fill the character sheet for this hero (kael, melyra, ...)."),
    ),
)

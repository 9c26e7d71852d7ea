"""Dungeon Foury (rules text: shared/seeds/003): the roll-and-write of four rounds on a zone map.

The rules side (pure: the standard library and sheetgen.games.base only):
    rules/        the engine: state.py (GameState, FouryReading: the alternative readings of
                  the rules text a log may follow, helpers), steps.py (FouryRules: the base game,
                  The Ancient Story, one handler per step), campaigns/ (one module per campaign:
                  slaughter.py (its Fury boxes, +0 monsters, a cornucopia every third kill),
                  santa.py (the hourglass, packages, candy canes), strength.py (caps at the full
                  scale), kraken.py (floods, swimming, the immortal Kraken)), sheet.py (what a
                  `sheet:` step asserts); __init__.py: the table CAMPAIGNS (rules_for)
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
    cli.py        the game's own commands: `sheetgen new map NAME` and the steps of `sheetgen track`
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
    track_commands=tuple(Command(name, "sheetgen.games.foury.cli", attribute, words) for name, attribute, words in (
        ("enter", "enter", "Start a round through an entry arrow CELL:SIDE."),
        ("move", "move", "Move to an adjacent cell."),
        ("fight", "fight", "Face the monster or statue in your cell."),
        ("flee", "flee", "Flee a foe still alive after an exchange."),
        ("climb", "climb", "Climb the stairs to the upper level (or back down)."),
        ("coin", "coin", "INSERT COIN: once, after death."),
        ("candy", "candy", "Give a candy cane to the Yeti or Grinch here."),
        ("collect", "collect", "Collect an item in your cell."),
        ("shovel", "shovel", "Erase a collapsed wall CELL:SIDE and move through it."),
        ("exit", "exit_", "Leave through an unused entry arrow CELL:SIDE."),
        ("circle", "circle", "Go from this magic circle to another."),
        ("lever", "lever", "Pull a lever from the upper level."),
        ("redeem", "redeem", "Spend a cornucopia on a resource."),
        ("oracle", "oracle", "Consult the Oracle in the centre room."),
        ("market", "market", "Trade at the market between rounds."))),
    track_prompt=("move C2 [--roll 4]      fight [--weapon] [--hero 3 --enemy 4]     enter C1:N     collect potion",
                  'flee  climb  lever D4  shovel D1:W  circle E5  exit E3:E  oracle --words "two words"  market ...'),
    track_shortcuts={"m": "move", "f": "fight", "e": "enter"},
    # the option of a track command that gives each die a step may leave out
    dice_options={("roll",): "--roll N", ("fight", "hero"): "--hero N", ("fight", "enemy"): "--enemy N",
                  ("fight", "clover", "roll"): "--clover-roll N",
                  ("collect", "roll"): "track step '{collect: {item: die, roll: N}}'"},
    vocabularies={word: f"sheetgen.games.foury.vocabulary:{attr}" for word, attr in (
        ("items", "items"), ("events", "events"), ("enemies", "enemies"), ("campaigns", "campaigns"),
        ("requirements", "requirements"), ("die-effects", "die_effects"), ("sides", "sides"))},
    simulate_options=(
        BuildOption("players", "int", "Foury: 2 plays the 2 Players Mode (two policies on one map of The Ancient "
                    "Story; who wins how often, by which objective).", 1, 2),
        BuildOption("opponent", "str", "With --players 2: the second player's policy, and hero after a colon "
                    "(greedy, random:kael, cautious:hearts=5,...); default: the first player's."),
    ),
    build_options=(
        BuildOption("columns", "int", "Blank maps: number of columns.", 3, 26),
        BuildOption("rows", "int", "Blank maps: number of rows.", 3, 26),
        BuildOption("hero", "str", "Foury maps: pre-fill the character sheet for this hero (kael, melyra, ...)."),
    ),
)

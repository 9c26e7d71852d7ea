"""The games, one package each (foury, exploration, navigation, shuffle), and what they share.

base.py   the contract every game follows (Rules, Outcome, Violation, Reading, Game, TrackerAdapter)
dice.py   dice notation and seeded dice;  grid.py: compass directions on a grid of cards
The registry (sheetgen.definitions.registry) finds a game by name; the core never imports a game.
"""

# the games that ship with sheetgen (module names: a plugin list, not imports); the first is the
# default of the commands' --ruleset
BUILTIN = ("sheetgen.games.foury", "sheetgen.games.exploration", "sheetgen.games.navigation",
           "sheetgen.games.shuffle")

"""The fixed data of Shuffle Dungeons (seed 002): the numbers the engine knows
(hand size, the cards a knock-out burns, equipment slots, the d6, the default
areas), read by the engine, the formats and the sheets alike.

Pure: the standard library only.
"""
from __future__ import annotations

ORDER = ("N", "E", "S", "W")            # clockwise: a quarter turn moves a path one step on
HAND_SIZE = 3                           # "Max hand size = 3"
KO_BURN = 5                             # "If Hero knocked out: ... Burn top 5 dungeon cards."
SLOTS = ("weapon", "armor", "spell")    # "Can have 1 weapon, 1 armor, and 1 spell."
DIE_FACES = range(1, 7)                 # every roll is a d6
DEFAULT_DICE = 1                        # a hero or monster card that prints no dice rolls one
NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0))   # a monster's (and a Ward's) area unless its card says
ROTATIONS = (0, 90, 180, 270)           # degrees clockwise a card may be laid at

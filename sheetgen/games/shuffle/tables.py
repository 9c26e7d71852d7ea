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

# -- what a monster's power (or the Boss's flip power) does, for the checker ----------------------
# A power is card text; the checker can hold a log to it only where it knows what it does:
# a deck's `effect:` / `flip_effect:` says so, else the printed text is read for these phrases
# (the built-in deck's wording).  (kind, n): ('none', 0), ('loot', n) into the monster's loot
# pile, ('burn', n) top cards of the dungeon pile, ('shift', 1) the hero's room one space,
# ('damage', n) to the hero (a Boss's flip power: to every hero).  None: not known.
POWER_KINDS = ("none", "loot", "burn", "shift", "damage")
_POWER_PHRASES = (
    (r"^\s*(none|no power|-)\s*\.?\s*$", "none", None),
    (r"\bloot (\d+|a|one) cards? into its (loot )?pile", "loot", 1),
    (r"\bburn the top (?:(\d+|one|two|three) )?cards? of the (dungeon|pile)", "burn", 1),
    (r"\bshift the hero'?s room\b", "shift", None),
    (r"\bevery hero takes (\d+|one|two|three) damage", "damage", 1),
    (r"\bthe hero takes (\d+|one|two|three) damage", "damage", 1),
)
_NUMBER_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3}


def power_from_text(text: str) -> tuple[str, int] | None:
    """What a printed power does, where the text says it in the words above; else None."""
    import re
    for pattern, kind, group in _POWER_PHRASES:
        m = re.search(pattern, str(text or ""), re.IGNORECASE)
        if m:
            if group is None or m.group(group) is None:
                return kind, 0 if kind == "none" else 1
            word = m.group(group).lower()
            return kind, int(word) if word.isdigit() else _NUMBER_WORDS[word]
    return None

"""Dungeon Foury's vocabulary for map designers: every word a map may use, with one line of meaning.

    items()          what `items:` may print in a cell (and `find ITEM` may give)
    events()         the phrases of a zone's six `events:`
    enemies()        the enemies (`monster ENEMY`, printed foes) and their strength by round
    campaigns()      the `campaign:` values
    requirements()   the kinds of a zone's `requirement:`
    die_effects()    the effects of a `die_table:` face
    sides()          the sides of `entries:` and `walls:` (and the relative sides of a collapse)

Each function returns (name, meaning) rows, read by `sheetgen list WORD` (GAME.vocabularies),
by the docs' vocabulary tables (docs/formats/foury-vocabulary.md) (markdown(), checked by a test so the two cannot drift), by the
JSON Schema of maps and by `sheetgen new map`'s comments.  The names come from board.py and
tables.py (what the loader accepts); the meanings are said here once.  Pure: the standard
library and the game's rules side only.
"""
from __future__ import annotations

from .board import ENEMIES, ITEMS, RELATIVE, REQUIREMENT_KINDS, SIDES
from .rules import CAMPAIGNS
from .tables import DIE_EFFECTS, DIE_RESOURCES, EXTRA_STEPS, FIXED_STRENGTH, ROUND_BONUS, foe_strength

Rows = list[tuple[str, str]]

ITEM_MEANINGS = {
    "chest": "+1 chest; spent at the market between rounds (worth 1 to 4 resources, by round)",
    "potion": "+1 life point",
    "yellow potion": "+2 life points and 1 step without rolling (Cicisbeo Juice)",
    "purple potion": "+3 life points and 1 step without rolling (Dragon's Blood)",
    "shovel": "+1 shovel: erase a collapsed wall and pass through it",
    "weapon": "+1 weapon: its value may be added to a fight roll, then it drops by 1",
    "shield": "+1 shield: blocks one hit",
    "clover": "+1 four-leaf clover: reroll any one die",
    "cornucopia": "+1 cornucopia: turn it into any trait, or deliver it to the Oracle (cornucopias requirement)",
    "die": "roll a d6 on the map's die table (`die_table:`, else ours: `sheetgen list die-effects`)",
    "magic circle": "move to any other magic circle of the map (it stays)",
    "stairs": "climb to the upper level, which reaches every lever (levers requirement)",
    "lever": "pulled from the upper level after climbing the stairs (levers requirement)",
    "statue": "a foe of strength +0 that counts for the statues requirement when first faced",
    "monster": "a generic enemy with the round's strength",
    "star": f"{EXTRA_STEPS['star']} free steps when landed on (Santa: one hourglass turn for all of them)",
    "hourglass": "a printed hourglass: a picture only, nothing to collect",
    "green package": "Santa: +1 green package for the collection (a Grinch's hit destroys one)",
    "blue package": "Santa: +1 blue package for the collection (a Yeti's hit destroys one)",
    "reindeer": "Santa: +1 reindeer for the collection",
    "rudolph": "Santa: Rudolph, the red reindeer (counts as a reindeer)",
    "sleigh": "Santa: the sleigh for the collection",
    "candy cane": "Santa: +1 candy cane, given to a Yeti or a Grinch to send it away",
    "flooded": "water printed in the cell (the Kraken's water; swim through it)",
}

ENEMY_MEANINGS = {
    "goblin": "small and sneaky: no round bonus",
    "orc": "the round's strength, nothing special",
    "imp": "erases the resource items of its room when the hero arrives, then fights",
    "bandit": "a hit also steals one other resource; beaten, its camp gives a cornucopia",
    "troll": "beaten, it is back in its room at the end of the round",
    "minotaur": "twice the round's bonus",
    "yeti": "Santa: its hit also destroys a blue package; a candy cane sends it away",
    "grinch": "Santa: its hit also destroys a green package; a candy cane sends it away",
    "kraken": "Discovering the Kraken: in the centre room, immortal (beaten, it stays)",
}

EVENT_MEANINGS = (
    ("monster", "a monster with the round's strength appears in the room: fight it"),
    ("monster ENEMY", "that enemy appears in the room (`sheetgen list enemies`): fight it"),
    ("collapse SIDES", "the room's walls on those sides collapse: SIDES among front, behind, left, right, "
                       "seen along the move that entered it"),
    ("collapse origin", "the room the hero came from collapses (no going back through it)"),
    ("flood origin", "the room the hero came from floods (swim through it without rolling)"),
    ("chest", "gain a chest at once"),
    ("extra step", "move one more space without rolling"),
    ("find ITEM", "the item (`sheetgen list items`) is in the room, taken at once (an enemy: fight it)"),
    ("EVENT + EVENT", "both events, in that order (e.g. collapse behind + monster)"),
)

CAMPAIGN_MEANINGS = {
    "ancient": "four rounds, one per zone: meet the zone's requirement, reach the Oracle, leave through "
               "another zone's arrow",
    "slaughter": "no exits: start at `start:` and kill as many enemies as you can before you fall (the Fury boxes)",
    "santa": "one round from `start:` (next to Santa's room) against the hourglass (`turns:`): collect reindeer, "
             "the sleigh and packages, or reach the `safe_zone:`",
    "strength": "the base game with every track at its full scale (no hero extras), and potions",
    "kraken": "one round against the hourglass (`turns:`) and the rising water (`flooded:`): all four "
              "requirements, then out opposite the last one's zone",
}

REQUIREMENT_MEANINGS = {
    "statues": "face N statues (each counts when first faced)",
    "kills": "beat N enemies (printed ones or monster events)",
    "levers": "climb the stairs and pull N levers from the upper level",
    "cornucopias": "carry N unused cornucopias to the Oracle (delivered there)",
}

DIE_EFFECT_MEANINGS = {
    "monster": "a monster with the round's strength appears in the room: fight it (a face of its own)",
    "gain N RESOURCE": "gain N of a resource: " + ", ".join(DIE_RESOURCES),
    "lose N RESOURCE": "lose N of a resource (never below 0; the last life point lost is death)",
    "nothing": "nothing happens",
}

SIDE_MEANINGS = {
    "N": "north: the top side of a cell", "E": "east: the right side", "S": "south: the bottom side",
    "W": "west: the left side",
}


def _strength(foe: str) -> str:
    if foe in FIXED_STRENGTH:
        return f"strength +{FIXED_STRENGTH[foe]}"
    return "strength " + "/".join(f"+{foe_strength(foe, b)}" for b in ROUND_BONUS) + " in rounds 1-4"


def items() -> Rows:
    rows = []
    for name in ITEMS:
        if name in ENEMIES:
            rows.append((name, f"an enemy, {_strength(name)}: {ENEMY_MEANINGS[name]}"))
        else:
            rows.append((name, ITEM_MEANINGS[name]))
    return rows


def enemies() -> Rows:
    return [(name, f"{_strength(name)}: {ENEMY_MEANINGS[name]}") for name in ENEMIES]


def events() -> Rows:
    return list(EVENT_MEANINGS)


def campaigns() -> Rows:
    return [(name, f"{rules.campaign.title}: {CAMPAIGN_MEANINGS[name]}") for name, rules in CAMPAIGNS.items()]


def requirements() -> Rows:
    return [(kind, REQUIREMENT_MEANINGS[kind]) for kind in REQUIREMENT_KINDS]


def die_effects() -> Rows:
    return [(effect, DIE_EFFECT_MEANINGS[effect]) for effect in DIE_EFFECTS]


def sides() -> Rows:
    return [(side, SIDE_MEANINGS[side]) for side in SIDES] + [
        (rel, "a collapse's side, seen along the move that entered the room") for rel in RELATIVE]


# `sheetgen list WORD` -> function (GAME.vocabularies names them as "module:function")
VOCABULARIES = {"items": items, "events": events, "enemies": enemies, "campaigns": campaigns,
                "requirements": requirements, "die-effects": die_effects, "sides": sides}


def markdown(word: str) -> str:
    """The docs' table of one vocabulary (the same rows as `sheetgen list WORD`)."""
    lines = ["| name | meaning |", "|---|---|"]
    lines += [f"| `{name}` | {meaning.replace('|', '/')} |" for name, meaning in VOCABULARIES[word]()]
    return "\n".join(lines)


if __name__ == "__main__":          # python -m sheetgen.games.foury.vocabulary: the docs' tables
    for word in VOCABULARIES:
        print(f"`sheetgen list {word}`:\n\n{markdown(word)}\n")

"""The enemy reference: what each Dungeon Foury foe does, in a few words, for the legend
beside a map and the spare columns of the character-sheet pages.

Strengths come from the rules tables (tables.foe_strength over the rounds a campaign
plays); the effects are the rules text's Enemies, the campaigns' new foes and the
map summary, as the engine applies them (rules/).
"""
from __future__ import annotations

from sheetgen.draw.icons import icon
from sheetgen.draw.model import Text
from sheetgen.fonts import text_width, wrap
from ..tables import ROUND_BONUS, foe_strength

INK = "#1a1a1a"
GREY = "#6b6b6b"
NAME_PT = 6.8
EFFECT_PT = 6.2
LINE = 2.4                      # mm between the lines of one foe

# in the order a reader meets them: the base game's generic monster and its six enemies,
# then the campaigns' (Santa's Yeti and Grinch, the Kraken)
FOES = ("monster", "goblin", "orc", "imp", "bandit", "troll", "minotaur", "yeti", "grinch", "kraken")
BASE_FOES = FOES[:7]
NAMES = {"monster": "Monster"}
EFFECTS = {
    "monster": "an event's monster",
    "goblin": "no round bonus, ever",
    "orc": "no special ability",
    "imp": "first erases the room's resources",
    "bandit": "a hit also steals 1 more resource; beaten: +1 cornucopia",
    "troll": "back at the end of the round",
    "minotaur": "twice the round's bonus",
    "yeti": "a hit also destroys a blue package; a candy cane sends it off",
    "grinch": "a hit also destroys a green package; a candy cane sends it off",
    "kraken": "immortal; it lives in the water",
}


def strength(foe: str, rounds: int = 4) -> str:
    """What the foe adds to its d6 over the rounds played: '+0', '+0..+3', '+6'."""
    values = sorted({foe_strength(foe, bonus) for bonus in ROUND_BONUS[:max(1, rounds)]})
    return f"+{values[0]}" if len(values) == 1 else f"+{values[0]}..+{values[-1]}"


def _rows(foes, w: float, size: float, rounds: int):
    """For each foe: (foe, name, strength, effect lines after the name's line, the effect's first
    words on the name's line) at width w with icons of size."""
    room = w - size - 1.2
    out = []
    for foe in foes:
        name = NAMES.get(foe, foe.capitalize())
        power = strength(foe, rounds)
        head = text_width(name, "condensed-bold", NAME_PT) + 1.2 + text_width(power, "condensed-bold", EFFECT_PT) + 1.5
        effect = EFFECTS[foe]
        if head + text_width(effect, "condensed", EFFECT_PT) <= room:
            out.append((foe, name, power, [], effect))
        else:
            out.append((foe, name, power, wrap(effect, "condensed", EFFECT_PT, room), ""))
    return out


def _pitch(lines, size: float) -> float:
    return max(size, (1 + len(lines)) * LINE) + 0.6


def reference_height(foes, w: float, size: float, rounds: int = 4) -> float:
    """How tall enemy_reference(...) draws these foes."""
    return sum(_pitch(row[3], size) for row in _rows(foes, w, size, rounds))


def enemy_reference(foes, x: float, y: float, w: float, *, size: float = 4.4, rounds: int = 4,
                    colour: bool = True, id_prefix: str = "foe") -> list:
    """One row per foe from the top-left (x, y): its icon, name and strength, what it does."""
    items: list = []
    cy = y
    for foe, name, power, lines, same_line in _rows(foes, w, size, rounds):
        pitch = _pitch(lines, size)
        items.append(icon(foe, x, cy + (pitch - 0.6 - size) / 2, size, colour=colour, id=f"{id_prefix}-{foe}"))
        tx = x + size + 1.2
        base = cy + (pitch - 0.6 - (1 + len(lines)) * LINE) / 2 + LINE - 0.35
        items.append(Text(tx, base, name, size=NAME_PT, font="condensed-bold", fill=INK))
        px = tx + text_width(name, "condensed-bold", NAME_PT) + 1.2
        items.append(Text(px, base, power, size=EFFECT_PT, font="condensed-bold", fill=GREY))
        if same_line:
            items.append(Text(px + text_width(power, "condensed-bold", EFFECT_PT) + 1.5, base, same_line,
                              size=EFFECT_PT, font="condensed", fill=INK))
        for k, line in enumerate(lines):
            items.append(Text(tx, base + (k + 1) * LINE, line, size=EFFECT_PT, font="condensed", fill=INK))
        cy += pitch
    return items

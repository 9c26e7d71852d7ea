"""Heroes and free characters: starting traits, caps and specific actions.

The rulebook's hero sheets are pictures we do not have, so the numbers here are
our own, matching each hero's difficulty (Kael easy ... Elydion difficult).
The playlog layer prefers the sheet definitions' `hero_traits(name)` where that
exists; this table is the pure fallback the rules use on their own.
"""
from __future__ import annotations

from dataclasses import dataclass

from .tables import FREE_TRAIT_TOTAL, TRACK_BOXES

TRAITS = tuple(TRACK_BOXES)         # hearts, shields, weapon, clovers, shovels
# Boxes on each track of the character sheet (the full scale, In and Out with Your
# Strength) and the boxes a free character may fill (the beige hero extras excluded),
# as the sheets sheetgen prints them (tables.TRACK_BOXES).
SCALE = {k: base + extra for k, (base, extra) in TRACK_BOXES.items()}
FREE_CAPS = {k: base for k, (base, _) in TRACK_BOXES.items()}
ABILITIES = ("kael", "melyra", "thalindra", "elydion")


@dataclass(frozen=True)
class Hero:
    name: str | None                      # kael | melyra | thalindra | elydion | None (free traits)
    traits: tuple[tuple[str, int], ...]   # starting values
    caps: tuple[tuple[str, int], ...]     # the most each resource may reach

    @property
    def ability(self) -> str | None:
        return self.name if self.name in ABILITIES else None

    def trait(self, key: str) -> int:
        return dict(self.traits).get(key, 0)

    def cap(self, key: str) -> int | None:
        return dict(self.caps).get(key)


HEROES = {
    # name: (starting traits, caps: the squares not blacked out in red), as on our hero sheets
    "kael": ({"hearts": 5, "shields": 3, "weapon": 2, "clovers": 1, "shovels": 1},
             {"hearts": 14, "shields": 10, "weapon": 8, "clovers": 6, "shovels": 6}),
    "melyra": ({"hearts": 4, "shields": 2, "weapon": 1, "clovers": 4, "shovels": 1},
               {"hearts": 10, "shields": 6, "weapon": 6, "clovers": 8, "shovels": 6}),
    "thalindra": ({"hearts": 5, "shields": 1, "weapon": 4, "clovers": 1, "shovels": 1},
                  {"hearts": 12, "shields": 5, "weapon": 10, "clovers": 4, "shovels": 6}),
    "elydion": ({"hearts": 3, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 3},
                {"hearts": 8, "shields": 5, "weapon": 5, "clovers": 5, "shovels": 8}),
}


def free_hero(traits: dict[str, int], full_scale: bool = False, caps: dict[str, int] | None = None) -> Hero:
    caps = caps or (SCALE if full_scale else FREE_CAPS)
    return Hero(None, tuple((k, int(traits.get(k, 0))) for k in TRAITS), tuple(caps.items()))


def named_hero(name: str, traits: dict[str, int] | None = None, caps: dict[str, int] | None = None,
               full_scale: bool = False) -> Hero:
    """A pre-filled hero; traits/caps override the built-in table (e.g. from the sheet definitions)."""
    key = name.strip().lower()
    base_traits, base_caps = HEROES[key]
    t = dict(base_traits, **(traits or {}))
    c = dict(SCALE) if full_scale else dict(base_caps, **(caps or {}))
    return Hero(key, tuple((k, int(t.get(k, 0))) for k in TRAITS), tuple(c.items()))


def check_free_traits(traits: dict[str, int], full_scale: bool = False,
                      caps: dict[str, int] | None = None) -> list[str]:
    """What is wrong with a free distribution of 12 traits (empty if fine)."""
    problems = []
    unknown = [k for k in traits if k not in TRAITS]
    if unknown:
        problems.append(f"unknown trait {', '.join(unknown)} (traits are {', '.join(TRAITS)})")
    total = sum(int(v) for k, v in traits.items() if k in TRAITS)
    if total != FREE_TRAIT_TOTAL:
        problems.append(f"the traits add up to {total}, but a character marks exactly {FREE_TRAIT_TOTAL}")
    caps = caps or (SCALE if full_scale else FREE_CAPS)
    for k, v in traits.items():
        if k in TRAITS and int(v) < 0:
            problems.append(f"{k} {v} is below zero")
        elif k in TRAITS and int(v) > caps[k]:
            problems.append(f"{k} {v} is above the sheet's {caps[k]} boxes")
    if int(traits.get("hearts", 0)) < 1:
        problems.append("a character starts with at least 1 heart")
    return problems

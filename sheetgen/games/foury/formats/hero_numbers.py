"""The numbers a printed hero sheet gives the rules: a built-in hero's starting traits and
caps (the sheet definitions in layouts/, `sheet-heroes`), and the boxes a free character may
fill in a campaign.

Replaying a game needs these numbers, but not the sheet definitions' models (building those
costs more than replaying a whole game): the built-in heroes' numbers ship with sheetgen
(sheetgen/prebuilt/, named by the heroes file's bytes and this game's code) and are kept in
the user cache otherwise, so a first `track status` does not load them.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ..heroes import TRAITS
from ..tables import track_boxes

HEROES_FILE = "sheet-heroes"        # the built-in sheet definitions of the heroes

#: key -> (starting traits, caps); also the heroes' names -> their key
HeroNumbers = dict[str, tuple[dict[str, int], dict[str, int]]]


def free_caps(campaign: str) -> dict[str, int] | None:
    """The boxes a free character may fill on the printed sheet of this campaign (beige hero
    extras excluded, except where the campaign uses the full scale)."""
    from ..rules import rules_for
    return {k: a for k, (a, _) in track_boxes(rules_for(campaign).campaign).items() if k in TRAITS} or None


def sheet_hero(name: str) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    """Traits and caps of the built-in hero NAME (its key or its printed name) as the sheet
    definitions give them; (None, None) for a hero the sheets do not offer."""
    numbers, names = hero_numbers()
    key = str(name).strip().lower()
    key = key if key in numbers else names.get(key, key)
    if key not in numbers:
        return None, None
    traits, caps = numbers[key]
    return dict(traits) or None, dict(caps) or None


def heroes_path() -> Path:
    from sheetgen.definitions.builtins import find_builtin
    return find_builtin(HEROES_FILE)


@lru_cache(maxsize=1)
def code() -> str:
    """A fingerprint of the code that makes these numbers: the definitions core and this game."""
    from sheetgen.definitions.snapshot import source_fingerprint
    h = hashlib.sha256(source_fingerprint().encode())
    game = Path(__file__).resolve().parent.parent
    for path in sorted(game.rglob("*.py")):
        h.update(path.relative_to(game).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


@lru_cache(maxsize=1)
def hero_numbers() -> tuple[HeroNumbers, dict[str, str]]:
    """(key -> (traits, caps), printed name -> key) of every built-in hero: shipped, cached, or
    read from the sheet definitions."""
    from sheetgen import usercache
    path = heroes_path()
    shipped = usercache.prebuilt("foury-heroes", path, code())
    if shipped is not None:
        return shipped
    key = hashlib.sha256(f"{path.resolve()}\0{code()}\0".encode() + path.read_bytes()).hexdigest()[:40]
    return usercache.cached("foury-heroes", key, read_heroes)


def read_heroes() -> tuple[HeroNumbers, dict[str, str]]:
    """The numbers from the sheet definitions themselves (validated with their models)."""
    from .sheet import builtin_heroes
    numbers: HeroNumbers = {}
    names: dict[str, str] = {}
    for key, hero in builtin_heroes().items():
        traits = {k: int(v) for k, v in hero.traits.model_dump().items() if k in TRAITS}
        caps = {k: int(v) for k, v in hero.caps.model_dump().items() if k in TRAITS}
        numbers[key] = (traits, caps)
        names[hero.name.lower()] = key
    return numbers, names

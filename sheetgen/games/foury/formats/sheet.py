"""Dungeon Foury printed sheets without a map (`kind: sheet`, `ruleset: foury`).

    sheetgen: 1
    kind: sheet
    ruleset: foury
    title: Spare character sheets
    sheet: character          # character | players | heroes | icons
    campaign: ancient         # which campaign's sheet (ancient, slaughter, santa, strength, kraken)
    copies: 3                 # character: sheets per landscape page (1-3)
    hero: kael                # character: pre-fill every copy with a hero from sheet-heroes
    players: 2                # players: character sheets on the 2-player page (2 or 3)
    heroes:                   # heroes: the heroes' data (read by the rules engine too)
      kael:
        name: Kael
        epithet: The Guardian of Virtues
        difficulty: easy      # easy | intermediate | difficult
        traits: {hearts: 5, shields: 3, weapon: 2, clovers: 1, shovels: 1}   # 12 in all
        caps: {hearts: 14, shields: 10, weapon: 8, clovers: 6, shovels: 6}  # boxes past a cap are blacked out
        action: When he enters a space with an enemy, he does not roll the die to determine the room.
    icon_size: 14mm           # icons: the big tiles

The heroes' starting traits and caps are our own (the rulebook shows them only
as pictures); `hero_traits(name)` gives them to other code, `hero_object(name)` the
hero as a sheet draws it.  The sheets (sheetgen.games.foury.sheets) are imported by
`compose` and `hero_object` only: loading and checking never draw.
"""
from __future__ import annotations

from sheetgen.games.base import Handler
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import Field, NonNegativeInt

from sheetgen.errors import InputError, Problem, did_you_mean
from sheetgen.definitions.models import Length, Strict, validate_model
from sheetgen.definitions.registry import Source
from ..heroes import TRAITS as TRAIT_KEYS
from ..rules import CAMPAIGNS, rules_for
from ..tables import ANCIENT, FREE_TRAIT_TOTAL as STARTING_TRAITS, track_boxes
from .hero_numbers import HEROES_FILE


class Traits(Strict):
    hearts: NonNegativeInt
    shields: NonNegativeInt
    weapon: NonNegativeInt
    clovers: NonNegativeInt
    shovels: NonNegativeInt


class HeroModel(Strict):
    name: str
    epithet: str = ""
    difficulty: Literal["easy", "intermediate", "difficult"]
    traits: Traits = Field(description="starting traits: 12 in all")
    caps: Traits = Field(description="the most each track can hold for this hero")
    action: str = Field(description="the hero's specific action, printed on the sheet")


class SheetModel(Strict):
    sheetgen: Literal[1]
    kind: Literal["sheet"]
    ruleset: Literal["foury"]
    title: str
    description: str = ""
    sheet: Literal["character", "players", "heroes", "icons"]
    campaign: Literal[tuple(CAMPAIGNS)] = "ancient"
    paper: Literal["a4", "letter"] | None = None
    copies: int = Field(3, ge=1, le=3, description="character: sheets per page")
    players: int = Field(2, ge=2, le=3, description="players: sheets on the 2-player page")
    hero: str | None = Field(None, description="character: pre-fill with this hero (from sheet-heroes)")
    heroes: dict[str, HeroModel] = {}
    only: list[str] = Field([], description="heroes: print only these (default all)")
    turns: int | None = Field(None, ge=1, le=120, description="hourglass boxes on each sheet")
    icon_size: Length = Field(14.0, ge=8.0, le=30.0)


MODEL = SheetModel


@dataclass
class FourySheet:
    model: SheetModel
    source: Source
    heroes: dict = field(default_factory=dict)      # key -> HeroModel

    @property
    def title(self) -> str:
        return self.model.title


def _card(key: str, h: HeroModel):
    """The hero as a sheet draws it (sheetgen.games.foury.sheets.character.Hero)."""
    from ..sheets.character import Hero
    return Hero(key, h.name, h.epithet, h.difficulty, h.traits.model_dump(), h.caps.model_dump(), h.action)


def load(data, source: Source) -> FourySheet:
    model: SheetModel = validate_model(SheetModel, data, source.filename)
    problems: list[Problem] = []
    totals = {k: a + b for k, (a, b) in track_boxes(ANCIENT).items()}
    heroes = {}
    for key, h in model.heroes.items():
        loc = ("heroes", key)
        traits, caps = h.traits.model_dump(), h.caps.model_dump()
        total = sum(traits.values())
        if total != STARTING_TRAITS:
            problems.append(source.problem(loc + ("traits",), f"hero {h.name} starts with {total} traits "
                                           f"but every character starts with {STARTING_TRAITS}"))
        for k in TRAIT_KEYS:
            if traits[k] > caps[k]:
                problems.append(source.problem(loc + ("traits", k), f"{k}: {traits[k]} is above the cap {caps[k]}"))
            if caps[k] > totals[k]:
                problems.append(source.problem(loc + ("caps", k), f"{k}: cap {caps[k]} is longer than the track "
                                               f"({totals[k]} boxes)"))
        heroes[key] = h
    if model.sheet == "heroes" and not model.heroes:
        problems.append(source.problem((), "a heroes sheet needs `heroes:` (name, difficulty, traits, caps, action)"))
    for i, key in enumerate(model.only):
        if key not in model.heroes:
            problems.append(source.problem(("only", i), f"no hero '{key}' under heroes",
                                           suggestion=did_you_mean(key, model.heroes)))
    if model.hero is not None:
        if model.sheet != "character":
            problems.append(source.problem(("hero",), "hero: pre-fills a `sheet: character` page only"))
        elif model.hero.lower() in heroes:
            pass
        else:
            known = builtin_heroes()
            if model.hero.lower() not in known:
                problems.append(source.problem(("hero",), f"unknown hero '{model.hero}'",
                                               expected="one of " + ", ".join(known),
                                               suggestion=did_you_mean(model.hero.lower(), known)))
    if problems:
        raise InputError(problems)
    return FourySheet(model, source, heroes)


# -- the heroes as data -----------------------------------------------------------
@lru_cache(maxsize=1)
def builtin_heroes() -> dict:
    """key -> HeroModel from layouts/foury/sheet-heroes.yaml."""
    from sheetgen.definitions.registry import load as load_definition
    loaded = load_definition(HEROES_FILE)
    return dict(loaded.definition.heroes)


def _builtin_hero(name: str) -> tuple[str, HeroModel]:
    """(key, data) of a built-in hero by key or name; InputError naming the known ones."""
    key = str(name).strip().lower()
    heroes = builtin_heroes()
    if key not in heroes:
        by_name = {h.name.lower(): k for k, h in heroes.items()}
        if key in by_name:
            return by_name[key], heroes[by_name[key]]
        raise InputError(Problem(f"unknown hero '{name}'", expected="one of " + ", ".join(heroes),
                                 suggestion=did_you_mean(key, heroes)))
    return key, heroes[key]


def hero_object(name: str):
    """A built-in hero as a sheet draws it (sheets.character.Hero)."""
    return _card(*_builtin_hero(name))


def hero_traits(name: str) -> dict:
    """A hero's starting traits and caps: {hearts, shields, weapon, clovers, shovels,
    caps: {...}, action, difficulty, name}."""
    _, h = _builtin_hero(name)
    out = h.traits.model_dump()
    out.update(caps=h.caps.model_dump(), action=h.action, difficulty=h.difficulty, name=h.name)
    return out


def track_limits(campaign: str = "ancient", hero: str | None = None) -> dict[str, int]:
    """The most each resource track holds: the hero's caps, else the boxes a plain
    character may fill (beige hero extras excluded, except In and Out with Your Strength)."""
    if hero:
        return _builtin_hero(hero)[1].caps.model_dump()
    return {k: a for k, (a, b) in track_boxes(rules_for(campaign).campaign).items()}


# -- build -----------------------------------------------------------------------
def options_taken(sheet: FourySheet) -> set[str]:
    """The build options these sheets read: none (a sheet's hero and campaign are in its file)."""
    return set()


def _spec(m: SheetModel, hero=None, player=None):
    from ..sheets.map import DEFAULT_ZONES
    from ..sheets.character import CharacterSpec
    camp = rules_for(m.campaign).campaign
    turns = m.turns if m.turns is not None else camp.turns
    return CharacterSpec(campaign=m.campaign, hero_extras=not camp.full_scale, turns=turns,
                         zones=list(DEFAULT_ZONES), hero=hero, player=player, title=camp.title)


TWO_PLAYERS = (
    ("2-player mode", "Each player needs a character sheet, 1d6, a pencil and an eraser; share one map of "
     "The Ancient Story.\nGoal: collect at least 5 chests, then exit the Dungeon in fewer turns than your "
     "opponent, or outlive them."),
    ("How a turn changes", "Each player starts from a different side of the map; the youngest chooses "
     "first.\nAt the end of each turn, cross one box of your hourglass.\nWhere your path meets your "
     "opponent's line you may move freely along it and try to reach them to fight.\nStatues and monsters "
     "on the way are faced as usual.\nYou may still meet the requirement of your round and visit the Oracle "
     "for an extra chest.\nExit through one of the 3 other zones."),
    ("@icon hourglass,chest,oracle", ""),
    ("@enemies base", "Enemies\nEach rolls d6 + its strength against your d6 (+ your weapon); monsters grow "
     "stronger each round (+0 in the first, +3 in the fourth)."),
)


def compose(sheet: FourySheet, options):
    from ..sheets.map import character_pages, icon_page
    m = sheet.model
    if m.paper and options.paper is None:
        from dataclasses import replace
        options = replace(options, paper=m.paper)
    if m.sheet == "icons":
        return icon_page(options, m.title, size=m.icon_size)
    name = _doc_name(sheet)
    if m.sheet == "character":
        hero = None
        if m.hero:
            key = m.hero.lower()
            hero = _card(key, sheet.heroes[key]) if key in sheet.heroes else hero_object(m.hero)
        specs = [_spec(m, hero) for _ in range(m.copies)]
        return character_pages(specs, options, m.title, name, per_page=3)
    if m.sheet == "players":
        specs = [_spec(m.model_copy(update={"turns": m.turns or 40}), player=f"Player {i + 1}")
                 for i in range(m.players)]
        side = list(TWO_PLAYERS) if m.players == 2 else None
        return character_pages(specs, options, m.title, name, side_text=side, per_page=3)
    # heroes: two per page and a column of all heroes at a glance
    keys = m.only or list(sheet.heroes)
    specs = [_spec(m, _card(k, sheet.heroes[k])) for k in keys]
    return character_pages(specs, options, m.title, name, side_text=_heroes_column(sheet), per_page=3)


def _heroes_column(sheet: FourySheet):
    blocks = [("The heroes", "Copy your hero's sheet: the grey crosses are the starting traits; the dark "
               "squares are caps, never filled. Beige boxes are the heroes' extras.")]
    for h in (_card(k, h) for k, h in sheet.heroes.items()):
        t = h.traits
        blocks.append((f"{h.name} · {h.difficulty.upper()}",
                       f"{h.epithet}.\nStarts with {t['hearts']} life, {t['shields']} shield, {t['weapon']} weapon, "
                       f"{t['clovers']} clover, {t['shovels']} shovel.\nAction: {h.action}"))
    return blocks + list(HEROES_AFTER)


# after the heroes, what ends a hero's game; the second page's column: what a hero meets
# and the market between rounds
HEROES_AFTER = (
    ("Insert coin", "Dead? Do a good deed for someone and tick INSERT COIN: the five traits start again and "
     "the round is played again from an unused arrow."),
    ("Final score (optional)", "After the fourth round: every life point, clover, weapon, shield and shovel "
     "left, 4 for each chest, and every monster defeated."),
    ("@page", ""),
    ("@enemies all", "Enemies\nEach rolls d6 + its strength against your d6 (+ your weapon); monsters grow "
     "stronger each round (+0 in the first, +3 in the fourth). The Yeti and the Grinch are Santa's; the "
     "Kraken is met in its own campaign."),
    ("The market", "After each round, spend chests on any resources: a chest is worth the round just played "
     "(x1 after the first, x4 after the fourth). Or trade resources for others, one for one. Elydion may "
     "trade at the next round's value once per round."),
)


def _doc_name(sheet: FourySheet) -> str:
    stem = sheet.source.path.stem if sheet.source and sheet.source.path else "foury-sheet"
    return stem


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, compose=compose, options_taken=options_taken, models=lambda: MODEL)

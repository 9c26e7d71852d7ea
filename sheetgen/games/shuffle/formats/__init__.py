"""Shuffle Dungeons formats (seed 002): the pydantic models of its files, and the
handler of its definitions (load, lint, compose).

    kind: deck     ruleset: shuffle   rooms, monsters, items, heroes and the boss room
    kind: sheet    ruleset: shuffle   sheet: reference (sequence of play + terminology)
    kind: playlog  ruleset: shuffle   the play-log model (ShuffleLog); formats/playlog.py checks it

The play log, for the checker and the tracker (whose games start from its setup:):

    sheetgen: 1
    kind: playlog
    ruleset: shuffle
    deck: shuffle-core                 # a built-in name or a path relative to this file
    readings: [assist-own-dice]        # optional: the readings this log follows
    setup:
      start: {room: gate-hall, at: [0, 0]}
      boss: {at: [3, 0]}
      pile: [goblin, short-sword, ...]    # optional: the dungeon pile, top first
      heroes: [{name: Ada, hero: knight, at: [0, 0]}]
    turns:
      - hero: Ada
        actions: [move east, draw, {fight: {monster: goblin, hero-dice: [5], monster-dice: [2]}}]
"""
from __future__ import annotations

from ...base import Handler
from typing import Any, Literal, Union

from pydantic import Field, field_validator, model_validator

from sheetgen.errors import InputError, Problem
from sheetgen.definitions.models import Strict, validate_model
from sheetgen.definitions.turnlog import renamed
from ..rules import RULES, Catalog, Hero as HeroState, HeroSpec, ItemSpec, MonsterSpec, RoomSpec, Tile
from ..tables import DEFAULT_DICE, NEIGHBOURS, power_from_text

Dir = Literal["n", "e", "s", "w"]
_DIRS = ("n", "e", "s", "w")


def _paths(v):
    if isinstance(v, str):
        v = v.replace(",", " ").split()
    if not isinstance(v, (list, tuple)):
        return v            # pydantic then says it expected a list of directions
    return [str(p).strip().lower()[:1] if str(p).lower() in ("north", "east", "south", "west") else p for p in v]


class Room(Strict):
    id: str
    name: str | None = None
    type: Literal["room", "start", "trap", "shrine", "ward"] = "room"
    paths: list[Dir] = Field(min_length=1)
    challenge: int = Field(default=0, ge=0, le=20)       # trap: d6 + speed must reach it
    reward: str = ""
    reward_loot: int = Field(default=0, ge=0)
    penalty: str = ""
    penalty_damage: int = Field(default=0, ge=0)
    power: str = ""
    area: list[list[int]] | None = None                  # ward area offsets [dx, dy]
    copies: int = Field(default=1, ge=1, le=20)

    _norm = field_validator("paths", mode="before")(classmethod(lambda cls, v: _paths(v)))

    @property
    def title(self) -> str:
        return self.name or self.id.replace("-", " ").title()


class Wounds(Strict):
    # a wound icon is drawn per point: a card has room for a handful
    black: int = Field(default=0, ge=0, le=20)
    red: int = Field(default=0, ge=0, le=20)


class PowerEffect(Strict):
    """What a power does, for the checker (one key): LOOT n cards into the monster's loot pile,
    burn the top n cards of the dungeon pile, SHIFT the hero's room one space, n damage."""
    loot: int | None = Field(default=None, ge=1)
    burn: int | None = Field(default=None, ge=1)
    shift: Literal["hero-room"] | None = None
    damage: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _one(self):
        given = [k for k in ("loot", "burn", "shift", "damage") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an effect does one thing: loot: N, burn: N, shift: hero-room or damage: N"
                             + (f" (this one has {', '.join(given)})" if given else ""))
        return self

    def as_power(self) -> tuple[str, int]:
        if self.shift is not None:
            return "shift", 1
        return next((k, getattr(self, k)) for k in ("loot", "burn", "damage") if getattr(self, k) is not None)


Effect = Union[PowerEffect, Literal["none"]]


def _power(effect, text: str):
    """A card's power as the engine knows it: its effect key, else its printed text (tables)."""
    if effect == "none":
        return "none", 0
    if isinstance(effect, PowerEffect):
        return effect.as_power()
    return power_from_text(text)


class Monster(Strict):
    id: str
    name: str | None = None
    attack: int = Field(ge=0)
    dice: int = Field(default=DEFAULT_DICE, ge=1, le=6)
    hp: int = Field(ge=1)
    wounds: Wounds = Wounds()
    loot: int = Field(default=0, ge=0)
    power: str = ""
    # what the power does, for the checker (else read from power:); not printed, so not part of
    # the sheet's identity (excluded from the dump the sheet id is made of)
    effect: Effect | None = Field(default=None, exclude=True)
    area: list[list[int]] | None = None                  # minimap offsets [dx, dy]; default the 4 neighbours
    room_paths: list[Dir] = Field(default_factory=lambda: list(_DIRS))   # the room side, once slain
    copies: int = Field(default=1, ge=1, le=20)

    _norm = field_validator("room_paths", mode="before")(classmethod(lambda cls, v: _paths(v)))

    @field_validator("area")
    @classmethod
    def _offsets(cls, v):
        if v is not None:
            for o in v:
                if len(o) != 2:
                    raise ValueError(f"an area offset is [dx, dy], got {o}")
        return v

    @property
    def title(self) -> str:
        return self.name or self.id.replace("-", " ").title()


class Upgrade(Strict):
    requires: Literal["leveled", "weapon", "armor", "spell"]
    attack: int = 0
    speed: int = 0
    text: str = ""


class Item(Strict):
    id: str
    name: str | None = None
    type: Literal["weapon", "armor", "spell", "snack"]
    attack: int = 0
    speed: int = 0
    hp: int = Field(default=0, ge=0)          # armour
    heal: int = Field(default=0, ge=0)        # snack
    power: str = ""
    upgrade: Upgrade | None = None
    copies: int = Field(default=1, ge=1, le=20)

    @property
    def title(self) -> str:
        return self.name or self.id.replace("-", " ").title()


class HeroSide(Strict):
    speed: int = Field(ge=0)
    attack: int = Field(ge=0)
    hp: int = Field(ge=1)
    dice: int = Field(default=DEFAULT_DICE, ge=1, le=6)
    power: str = ""


class Hero(Strict):
    id: str
    name: str | None = None
    speed: int = Field(ge=0)
    attack: int = Field(ge=0)
    hp: int = Field(ge=1)
    dice: int = Field(default=DEFAULT_DICE, ge=1, le=6)
    power: str = ""
    leveled: HeroSide

    @property
    def title(self) -> str:
        return self.name or self.id.replace("-", " ").title()


class Boss(Strict):
    id: str
    name: str | None = None
    paths: list[Dir] = Field(min_length=1)
    flip_power: str = ""
    flip_effect: Effect | None = Field(default=None, exclude=True)   # the flip power on every hero (as effect:)
    attack: int = 0
    hp: int = 0

    _norm = field_validator("paths", mode="before")(classmethod(lambda cls, v: _paths(v)))

    @property
    def title(self) -> str:
        return self.name or self.id.replace("-", " ").title()


class Deck(Strict):
    sheetgen: Literal[1]
    kind: Literal["deck"]
    ruleset: Literal["shuffle"]
    title: str = "Shuffle Dungeons cards"
    paper: Literal["a4", "letter"] = "a4"
    bleed: float = Field(default=0.0, ge=0, le=5)
    rooms: list[Room] = []
    monsters: list[Monster] = []
    items: list[Item] = []
    heroes: list[Hero] = []
    boss: Boss | None = None


class SheetDef(Strict):
    sheetgen: Literal[1]
    kind: Literal["sheet"]
    ruleset: Literal["shuffle"]
    sheet: Literal["reference"]
    title: str = "Shuffle Dungeons: sequence of play"
    paper: Literal["a4", "letter"] = "a4"


Rotation = Literal[0, 90, 180, 270]


class Placed(Strict):
    room: str | None = None
    monster: str | None = None
    at: tuple[int, int]
    rotation: Rotation = 0
    damage: int = Field(default=0, ge=0)


class BossPlace(Strict):
    at: tuple[int, int]
    rotation: Rotation = 0
    face_up: bool = False


class HeroSetup(Strict):
    name: str
    hero: str
    at: tuple[int, int] | None = None
    hand: list[str] = []
    equipped: list[str] = []
    leveled: bool = False
    damage: int = Field(default=0, ge=0)


class Setup(Strict):
    start: Placed
    rooms: list[Placed] = []
    monsters: list[Placed] = []
    boss: BossPlace | None = None
    pile: list[str] | None = None
    heroes: list[HeroSetup] = Field(min_length=1)


class Turn(Strict):
    hero: str
    actions: list[Any] = []
    note: str | None = None

    _player_is_hero = model_validator(mode="before")(renamed("player", "hero"))   # the navigation log's word


class ShuffleLog(Strict):
    sheetgen: Literal[1]
    kind: Literal["playlog"]
    ruleset: Literal["shuffle"]
    title: str | None = None
    deck: str | dict                    # a deck file / built-in name, or the deck inline
    readings: list[str] | None = None   # the readings the log follows (ShuffleReading names)
    setup: Setup
    turns: list[Turn] = []


MODEL = Union[Deck, SheetDef]


class LoadedDeck:
    def __init__(self, deck: Deck, source):
        self.deck = deck
        self.source = source

    def catalog(self):
        """The rules engine's view of the cards."""
        up = lambda s: frozenset(p.upper() for p in s)   # noqa: E731
        d = self.deck
        rooms = {r.id: RoomSpec(r.id, up(r.paths), r.type, r.challenge, r.reward_loot, r.penalty_damage,
                                tuple(tuple(o) for o in r.area) if r.area else NEIGHBOURS)
                 for r in d.rooms}
        monsters = {}
        for m in d.monsters:
            kw = {"area": tuple(tuple(o) for o in m.area)} if m.area is not None else {}
            monsters[m.id] = MonsterSpec(m.id, m.attack, m.hp, m.dice, m.wounds.black, m.wounds.red, m.loot,
                                         room_paths=up(m.room_paths), power=_power(m.effect, m.power), **kw)
        items = {i.id: ItemSpec(i.id, i.type, i.attack, i.speed, i.hp, i.heal,
                                i.upgrade.requires if i.upgrade else None,
                                i.upgrade.attack if i.upgrade else 0, i.upgrade.speed if i.upgrade else 0)
                 for i in d.items}
        heroes = {h.id: HeroSpec(h.id, h.speed, h.attack, h.hp, h.dice,
                                 (h.leveled.speed, h.leveled.attack, h.leveled.hp, h.leveled.dice)) for h in d.heroes}
        boss = RoomSpec(d.boss.id, up(d.boss.paths), "boss") if d.boss else None
        flip = _power(d.boss.flip_effect, d.boss.flip_power) if d.boss else None
        return Catalog(rooms, monsters, items, heroes, boss, flip)

    def card(self, cid: str):
        for group in (self.deck.rooms, self.deck.monsters, self.deck.items, self.deck.heroes):
            for c in group:
                if c.id == cid:
                    return c
        if self.deck.boss and self.deck.boss.id == cid:
            return self.deck.boss
        return None


class LoadedSheet:
    def __init__(self, defn: SheetDef, source):
        self.defn = defn
        self.source = source


def load(data, source):
    if data.get("kind") == "sheet":
        return LoadedSheet(validate_model(SheetDef, data, source.filename), source)
    deck = validate_model(Deck, data, source.filename)
    problems: list[Problem] = []
    seen: dict[str, tuple] = {}
    for group in ("rooms", "monsters", "items", "heroes"):
        for i, card in enumerate(getattr(deck, group)):
            if card.id in seen:
                g, j = seen[card.id]
                problems.append(source.problem((group, i, "id"), f"card id '{card.id}' is used twice "
                                                                 f"(first in {g}, card {j + 1})"))
            seen.setdefault(card.id, (group, i))
    if deck.boss and deck.boss.id in seen:
        problems.append(source.problem(("boss", "id"), f"card id '{deck.boss.id}' is used twice"))
    if problems:
        raise InputError(problems)
    return LoadedDeck(deck, source)


def load_reference(name, source, key: str = "deck"):
    """A shuffle deck by path (relative to source) or built-in name, or written inline under key."""
    from pathlib import Path

    from sheetgen.definitions.registry import load_file, resolve
    if isinstance(name, dict):
        from sheetgen.definitions.registry import inline_source
        inline = inline_source(source, key, "deck", "shuffle")
        return load(inline.data, inline)
    rel = Path(source.folder) / name
    loaded = load_file(rel) if rel.exists() else load_file(*resolve(name))
    if loaded.kind != "deck" or loaded.ruleset != "shuffle":
        raise InputError(Problem(f"'{name}' is a {loaded.kind} ({loaded.ruleset}), not a shuffle deck",
                                 loaded.source.filename))
    return loaded.definition


def initial_state(deck: LoadedDeck, s: Setup, readings=()):
    """The engine state for a loaded deck and a validated setup, under readings."""
    cat = deck.catalog()
    tiles = {}
    for p in [s.start, *s.rooms]:
        tiles[tuple(p.at)] = Tile(p.room, "room", p.rotation // 90)
    for p in s.monsters:
        tiles[tuple(p.at)] = Tile(p.monster, "monster", p.rotation // 90, damage=p.damage)
    if s.boss and cat.boss:
        tiles[tuple(s.boss.at)] = Tile(cat.boss.id, "boss", s.boss.rotation // 90, face_up=s.boss.face_up)
    heroes = []
    for h in s.heroes:
        equipped = {cat.items[c].type: c for c in h.equipped}
        heroes.append(HeroState(h.name, cat.heroes[h.hero], tuple(h.at or s.start.at), h.leveled, h.damage,
                                list(h.hand), equipped))
    return RULES.new_game(cat, tiles, heroes, list(s.pile) if s.pile is not None else None, readings)


def compose(defn, options):
    from .. import sheets as drawing
    if isinstance(defn, LoadedSheet):
        return drawing.reference_document(defn.defn, options)
    return drawing.deck_document(defn, options)


def lint(defn) -> list:
    """Playability warnings: a deck needs a start room, heroes and a boss; traps need a challenge."""
    from sheetgen.definitions.registry import Finding
    if not isinstance(defn, LoadedDeck):
        return []
    d, src, out = defn.deck, defn.source, []
    if not any(r.type == "start" for r in d.rooms):
        out.append(Finding(src.problem(("rooms",), "no room of type start: where do the heroes begin?"), "warning"))
    if not d.heroes:
        out.append(Finding(src.problem(("heroes",), "no hero cards"), "warning"))
    if d.boss is None:
        out.append(Finding(src.problem(("rooms",), "no boss room"), "warning"))
    for i, r in enumerate(d.rooms):
        if r.type == "trap" and r.challenge == 0:
            out.append(Finding(src.problem(("rooms", i, "type"), f"trap '{r.id}' has no challenge number: "
                                                                 f"every roll succeeds"), "warning"))
    return out


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, lint=lint, compose=compose, models=lambda: MODEL)

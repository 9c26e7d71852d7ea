"""Play logs of Shuffle Dungeons (seed 002): load, and check by replay.

    sheetgen: 1
    kind: playlog
    ruleset: shuffle
    deck: shuffle-core                 # a built-in name or a path relative to this file
    setup:
      start: {room: gate-hall, at: [0, 0]}
      boss: {at: [3, 0]}
      pile: [goblin, short-sword, ...]    # optional: the dungeon pile, top first
      heroes: [{name: Ada, hero: knight, at: [0, 0]}]
    turns:
      - hero: Ada
        actions: [move east, draw, {fight: {monster: goblin, hero-dice: [5], monster-dice: [2]}}]

A violation's step is the 1-based index of the action within its turn.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from sheetgen.definitions.models import Strict, validate_model
from sheetgen.errors import InputError, Problem, did_you_mean
from ..base import Violation
from sheetgen.definitions.turnlog import LoadedTurns, parse_turns, renamed, replay

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
    setup: Setup
    turns: list[Turn] = []


MODEL = ShuffleLog


class LoadedLog(LoadedTurns):
    def __init__(self, log, source, deck, actions, lines, turn_lines):
        super().__init__(log, source, actions, lines, turn_lines)
        self.deck = deck                # definitions.shuffle.LoadedDeck


def load(data, source):
    from .formats import load_reference
    from .actions import parse_action
    log = validate_model(ShuffleLog, data, source.filename)
    try:
        deck = load_reference(log.deck, source)
    except InputError as exc:
        if isinstance(log.deck, dict):
            raise
        raise InputError([source.problem(("deck",), f"cannot use deck '{log.deck}'")] + exc.problems) from None
    cat = deck.catalog()
    problems: list[Problem] = []

    def known(cid, loc, kinds):
        k = cat.kind(cid)
        if k not in kinds:
            pool = [c for c in (*cat.rooms, *cat.monsters, *cat.items, *cat.heroes)]
            problems.append(source.problem(loc, f"'{cid}' is not a {' or '.join(kinds)} card of the deck"
                                           if k is None else f"'{cid}' is a {k} card, not a {' or '.join(kinds)}",
                                           suggestion=did_you_mean(cid, pool) if k is None else None))

    s = log.setup
    for key, items in (("rooms", [s.start] + list(s.rooms)), ("monsters", s.monsters)):
        for i, p in enumerate(items):
            loc = ("setup", "start") if key == "rooms" and i == 0 else ("setup", key, i - (key == "rooms"))
            cid = p.room if key == "rooms" else p.monster
            if cid is None:
                problems.append(source.problem(loc, f"name the {'room' if key == 'rooms' else 'monster'} card"))
                continue
            known(cid, loc, ("room",) if key == "rooms" else ("monster",))
    if s.boss and cat.boss is None:
        problems.append(source.problem(("setup", "boss"), "the deck has no boss room"))
    cells = [p.at for p in [s.start, *s.rooms, *s.monsters]] + ([s.boss.at] if s.boss else [])
    if len(set(cells)) != len(cells):
        problems.append(source.problem(("setup",), "two cards are set up on the same cell"))
    names = [h.name for h in s.heroes]
    for i, h in enumerate(s.heroes):
        if h.hero not in cat.heroes:
            problems.append(source.problem(("setup", "heroes", i, "hero"), f"no hero card '{h.hero}' in the deck",
                                           suggestion=did_you_mean(h.hero, cat.heroes)))
        if names.index(h.name) != i:
            problems.append(source.problem(("setup", "heroes", i, "name"), f"hero '{h.name}' is listed twice"))
        for j, c in enumerate(h.hand):
            if cat.kind(c) is None:
                problems.append(source.problem(("setup", "heroes", i, "hand", j), f"no card '{c}' in the deck"))
        for j, c in enumerate(h.equipped):
            if c not in cat.items or cat.items[c].type == "snack":
                problems.append(source.problem(("setup", "heroes", i, "equipped", j), f"'{c}' is not equipment"))
    actions, lines, turn_lines, bad = parse_turns(log.turns, source, parse_action, "hero", names, "setup")
    problems += bad
    if problems:
        raise InputError(problems)
    return LoadedLog(log, source, deck, actions, lines, turn_lines)


def initial_state(loaded: LoadedLog):
    return initial_state_from(loaded.deck, loaded.log.setup)


def initial_state_from(deck, s: Setup):
    """The engine state for a loaded deck and a validated setup."""
    from .rules import Hero, Tile, new_state
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
        heroes.append(Hero(h.name, cat.heroes[h.hero], tuple(h.at or s.start.at), h.leveled, h.damage,
                           list(h.hand), equipped))
    return new_state(cat, tiles, heroes, list(s.pile) if s.pile is not None else None)


def check(loaded: LoadedLog) -> list[Violation]:
    from .rules import Action, begin_turn, step
    # snacks may be eaten by anyone at any time, so 'eat' is fine after 'end turn'
    return replay(loaded, "hero", initial_state(loaded), begin_turn, lambda st, who, a: step(st, a),
                  Action("end-turn"), "shuffle", after_end_ok=("eat",))

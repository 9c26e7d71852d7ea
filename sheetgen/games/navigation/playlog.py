"""Play logs of card-grid dungeon navigation (seed 000): load, and check by replay.

    sheetgen: 1
    kind: playlog
    ruleset: navigation
    dungeon: nav-crypt          # a built-in name or a path relative to this file
    players:
      - {name: Ada, items: [Speed Boots]}     # hp 10, keys 1, bombs 1, xp 0 unless given
    turns:
      - player: Ada
        actions: [move east, resolve, key, move south]

A violation's step is the 1-based index of the action within its turn.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from sheetgen.definitions.models import Strict, validate_model
from sheetgen.errors import InputError, Problem, did_you_mean
from ..base import Violation
from sheetgen.definitions.turnlog import LoadedTurns, parse_turns, renamed, replay


class PlayerSetup(Strict):
    name: str
    hp: int = Field(default=10, ge=0)
    keys: int = Field(default=1, ge=0)
    bombs: int = Field(default=1, ge=0)
    xp: int = Field(default=0, ge=0)
    items: list[str] = []
    start: str | None = None


class Turn(Strict):
    player: str
    actions: list[Any] = []
    note: str | None = None

    _hero_is_player = model_validator(mode="before")(renamed("hero", "player"))   # the shuffle log's word


class NavigationLog(Strict):
    sheetgen: Literal[1]
    kind: Literal["playlog"]
    ruleset: Literal["navigation"]
    title: str | None = None
    dungeon: str | dict                 # a dungeon file / built-in name, or the dungeon inline
    players: list[PlayerSetup] = Field(min_length=1)
    turns: list[Turn] = []

    @field_validator("players", mode="before")
    @classmethod
    def _names_alone(cls, v):
        if isinstance(v, list):                 # players: [Ada, Bo] is fine too
            return [{"name": p} if isinstance(p, str) else p for p in v]
        return v


MODEL = NavigationLog


class LoadedLog(LoadedTurns):
    def __init__(self, log, source, dungeon, actions, lines, turn_lines):
        super().__init__(log, source, actions, lines, turn_lines)
        self.dungeon = dungeon          # definitions.navigation.LoadedDungeon


def load(data, source):
    from .formats import load_reference
    from .actions import parse_action
    log = validate_model(NavigationLog, data, source.filename)
    problems: list[Problem] = []
    try:
        dungeon = load_reference(log.dungeon, source, "dungeon", key="dungeon")
    except InputError as exc:
        if isinstance(log.dungeon, dict):
            raise
        raise InputError([source.problem(("dungeon",), f"cannot use dungeon '{log.dungeon}'")] + exc.problems) from None
    names = [p.name for p in log.players]
    for i, p in enumerate(log.players):
        if names.index(p.name) != i:
            problems.append(source.problem(("players", i, "name"), f"player '{p.name}' is listed twice"))
        if p.start is not None and p.start not in dungeon.pos:
            problems.append(source.problem(("players", i, "start"), f"no room '{p.start}' in the dungeon",
                                           suggestion=did_you_mean(p.start, dungeon.pos)))
    actions, lines, turn_lines, bad = parse_turns(log.turns, source, parse_action, "player", names, "players")
    problems += bad
    if problems:
        raise InputError(problems)
    return LoadedLog(log, source, dungeon, actions, lines, turn_lines)


def initial_state(loaded: LoadedLog):
    from .formats import to_engine_dungeon
    from .rules import Player, item_key, new_state
    dungeon = to_engine_dungeon(loaded.dungeon)
    players = [Player(name=p.name, room=p.start or dungeon.start, hp=p.hp, keys=p.keys, bombs=p.bombs, xp=p.xp,
                      items=frozenset(item_key(i) for i in p.items)) for p in loaded.log.players]
    return new_state(dungeon, players)


def check(loaded: LoadedLog) -> list[Violation]:
    from .rules import Action, begin_turn, step
    return replay(loaded, "player", initial_state(loaded), begin_turn, step, Action("end-turn"), "nav")

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

from ..definitions.models import Strict, validate_model
from ..errors import InputError, Problem, did_you_mean
from .base import Violation


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

    @model_validator(mode="before")
    @classmethod
    def _hero_is_player(cls, v):
        if isinstance(v, dict) and "hero" in v and "player" not in v:    # the shuffle log's word
            v = dict(v)
            v["player"] = v.pop("hero")
        return v


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


class LoadedLog:
    def __init__(self, log, source, dungeon, actions, lines, turn_lines):
        self.log = log
        self.source = source
        self.dungeon = dungeon          # definitions.navigation.LoadedDungeon
        self.actions = actions          # per turn: list of engine Actions
        self.lines = lines              # per turn: list of YAML lines
        self.turn_lines = turn_lines


def _line(source, loc) -> int | None:
    return source.problem(loc, "").line


def load(data, source):
    from ..definitions.navigation import load_reference, to_engine_dungeon  # noqa: F401
    from ..rules.navigation.actions import parse_action
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
    actions, lines, turn_lines = [], [], []
    for t, turn in enumerate(log.turns):
        turn_lines.append(_line(source, ("turns", t)))
        if turn.player not in names:
            problems.append(source.problem(("turns", t, "player"), f"no player '{turn.player}' in players",
                                           suggestion=did_you_mean(turn.player, names)))
        these, their_lines = [], []
        for a, raw in enumerate(turn.actions):
            loc = ("turns", t, "actions", a)
            try:
                these.append(parse_action(raw))
            except ValueError as exc:
                problems.append(source.problem(loc, str(exc)))
                continue
            their_lines.append(_line(source, loc))
        actions.append(these)
        lines.append(their_lines)
    if problems:
        raise InputError(problems)
    return LoadedLog(log, source, dungeon, actions, lines, turn_lines)


def initial_state(loaded: LoadedLog):
    from ..definitions.navigation import to_engine_dungeon
    from ..rules.navigation.engine import Player, item_key, new_state
    dungeon = to_engine_dungeon(loaded.dungeon)
    players = [Player(name=p.name, room=p.start or dungeon.start, hp=p.hp, keys=p.keys, bombs=p.bombs, xp=p.xp,
                      items=frozenset(item_key(i) for i in p.items)) for p in loaded.log.players]
    return new_state(dungeon, players)


def check(loaded: LoadedLog) -> list[Violation]:
    from ..rules.navigation.engine import Action, begin_turn, step
    state = initial_state(loaded)
    out: list[Violation] = []
    for t, turn in enumerate(loaded.log.turns):
        who = turn.player
        state = begin_turn(state, who)
        ended = False
        last_line = loaded.turn_lines[t]
        for i, (action, line) in enumerate(zip(loaded.actions[t], loaded.lines[t])):
            if ended:
                out.append(Violation(line, f"turn {t + 1} ({who}): action after 'end turn'", i + 1, "nav.turn-over"))
            state, broken = step(state, who, action)
            for f in broken:
                out.append(Violation(line, f"turn {t + 1} ({who}): {f.message}", i + 1, f.rule))
            ended = ended or action.verb == "end-turn"
            last_line = line
        if not ended:
            state, broken = step(state, who, Action("end-turn"))
            for f in broken:
                out.append(Violation(last_line, f"turn {t + 1} ({who}): {f.message}",
                                     len(loaded.actions[t]) or None, f.rule))
    return out

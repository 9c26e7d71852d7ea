"""Dungeon Foury play logs of the 2 Players Mode (an extension of the play-log format).

A log with `players:` (two of them) instead of `hero:` and `rounds:`:

    players:
      - {name: Ada, hero: {traits: {...}}, entry: C1:N}     # the first player (the youngest) plays first
      - {name: Ben, hero: kael, entry: E3:E}
    steps:
      - {player: Ada, move: C1, roll: 2}                   # every step of play-log format, tagged with its player
      - {player: Ben, move: E3, roll: 6}
      - {player: Ada, duel: {hero: 4, opponent: 2, weapon: true, opponent_shield: false}}
    winner: Ada                                            # optional: a name, or draw; checked

`player:` is a name of `players:` or 1/2.  The rules are sheetgen.games.foury.rules.two_players;
`readings:` works as in single-player logs (duel-treasure is the 2-player one).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Union

from pydantic import ValidationError

from sheetgen.definitions.models import Strict, validate_model
from sheetgen.errors import InputError, Problem, did_you_mean
from sheetgen.games.base import Judgement, ReadingsInUse, Violation, judge
from .. import notation
from ..rules import two_players as T
from ..rules import rules_for
from .playlog import HeroSpec, Step, declared_readings, hero_of, line_of, read_step


class DuelSpec(Strict):
    hero: int
    opponent: int
    weapon: bool = False
    opponent_weapon: bool = False
    shield: bool = False
    opponent_shield: bool = False


class PlayerSpec(Strict):
    name: str
    hero: HeroSpec
    entry: str


class TwoPlayLogModel(Strict):
    sheetgen: Literal[1]
    kind: Literal["playlog"]
    ruleset: Literal["foury"]
    map: str
    title: str | None = None
    date: str | None = None
    note: str | None = None
    readings: list[str] | None = None
    players: list[PlayerSpec]
    steps: list[dict[str, Any]] = []
    winner: Union[str, int, None] = None


@dataclass
class TwoEntry:
    player: int
    action: Any
    line: int | None
    step: int | None


@dataclass
class TwoPlayerLog:
    model: TwoPlayLogModel
    source: Any
    board: Any
    heroes: tuple
    names: tuple[str, str]
    hero_problems: list[tuple[str, int | None]] = field(default_factory=list)
    entries: list[TwoEntry] = field(default_factory=list)
    readings: frozenset | None = None
    winner: int | None | str = "unset"      # a player's index, None for a draw, "unset" when not written


def load(data, source) -> TwoPlayerLog:
    from .playlog import load_board
    model: TwoPlayLogModel = validate_model(TwoPlayLogModel, data, source.filename)
    problems: list[Problem] = []
    if len(model.players) != 2:
        problems.append(source.problem(("players",), f"the 2 Players Mode has two players, not {len(model.players)}"))
    readings = declared_readings(model, source, problems)   # type: ignore[arg-type]
    board = load_board(model.map, source, problems)
    if board is not None and problems == [] and rules_for(board).campaign.name != "ancient":
        problems.append(source.problem(("map",), "the 2 Players Mode is played on a map of The Ancient Story, "
                                       f"not of the campaign '{board.campaign}'"))
    if problems:
        raise InputError(problems)
    names = tuple(p.name for p in model.players)
    if names[0] == names[1]:
        raise InputError([source.problem(("players", 1, "name"), "the two players need different names")])
    heroes, hero_problems, entries = [], [], []
    for i, p in enumerate(model.players):
        hero, hp = hero_of(p.hero, board, source, ("players", i, "hero"), problems)
        heroes.append(hero)
        hero_problems += hp
        try:
            entries.append(TwoEntry(i, notation.parse({"entry": p.entry}, board),
                                    line_of(source, ("players", i, "entry")), None))
        except ValueError as exc:
            problems.append(source.problem(("players", i, "entry"), str(exc)))
    keys = {n.lower(): i for i, n in enumerate(names)}
    for si, raw in enumerate(model.steps):
        loc = ("steps", si)
        raw = dict(raw)
        who = raw.pop("player", None)
        if who is None:
            problems.append(source.problem(loc, "a step of a two-player log names its player (player: "
                                           f"{names[0]} or {names[1]})"))
            continue
        if isinstance(who, int) and who in (1, 2):
            pi = who - 1
        elif str(who).lower() in keys:
            pi = keys[str(who).lower()]
        else:
            problems.append(source.problem(loc + ("player",), f"unknown player '{who}'",
                                           expected=f"{names[0]}, {names[1]}, 1 or 2",
                                           suggestion=did_you_mean(str(who), list(names))))
            continue
        line = line_of(source, loc)
        if "duel" in raw:
            if len(raw) != 1:
                problems.append(source.problem(loc, "a duel step holds the duel only (and its player)"))
                continue
            try:
                d = DuelSpec.model_validate(raw["duel"])
            except ValidationError as exc:    # pydantic's message, located at the step
                from sheetgen.definitions.models import validation_messages
                problems.append(source.problem(loc + ("duel",), "a duel is {hero: D6, opponent: D6, weapon, "
                                               "opponent_weapon, shield, opponent_shield}: "
                                               + "; ".join(validation_messages(exc, DuelSpec))))
                continue
            entries.append(TwoEntry(pi, T.Duel(**d.model_dump()), line, si + 1))
            continue
        try:
            step = Step.model_validate(raw)
        except ValidationError as exc:
            from sheetgen.definitions.models import validation_messages
            problems.append(source.problem(loc, "; ".join(validation_messages(exc, Step))))
            continue
        try:
            action = read_step(step.model_dump(exclude_none=True), loc, source, problems, board)
        except ValueError as exc:
            problems.append(source.problem(loc, str(exc)))
            continue
        for act in (action if isinstance(action, list) else [action] if action is not None else []):
            entries.append(TwoEntry(pi, act, line, si + 1))
    winner: int | None | str = "unset"
    if model.winner is not None:
        w = model.winner
        if str(w).lower() == "draw":
            winner = None
        elif isinstance(w, int) and w in (1, 2):
            winner = w - 1
        elif str(w).lower() in keys:
            winner = keys[str(w).lower()]
        else:
            problems.append(source.problem(("winner",), f"unknown winner '{w}'",
                                           expected=f"{names[0]}, {names[1]} or draw",
                                           suggestion=did_you_mean(str(w), list(names) + ["draw"])))
    if problems:
        raise InputError(problems)
    return TwoPlayerLog(model, source, board, tuple(heroes), names, hero_problems, entries, readings, winner)


def replay(log: TwoPlayerLog, readings=()):
    """(final TwoPlayerGame, violations)."""
    violations = [Violation(line, msg, None, "hero.traits") for msg, line in log.hero_problems]
    game = T.new_game(log.board, log.heroes, log.names, readings)
    refused = False
    for e in log.entries:
        out = T.step(game, e.player, e.action)
        game = out.state
        who = log.names[e.player]
        for v in out.violations:
            violations.append(Violation(e.line, f"{who}: {v.message}", e.step, v.rule, consequence=refused))
        refused = (refused and bool(out.violations)) or not out.followed
    if game.duel_due is not None:
        violations.append(Violation(log.entries[-1].line if log.entries else None,
                                    f"{log.names[game.duel_due]} reached the opponent: the duel is missing",
                                    None, "two.face"))
    if log.winner != "unset":
        res = T.result(game)
        line = line_of(log.source, ("winner",))
        said = "a draw" if log.winner is None else log.names[log.winner]      # type: ignore[index]
        if not res.decided:
            violations.append(Violation(line, f"the log names {said} but the game is not decided yet", None,
                                        "two.winner"))
        elif res.winner != log.winner:
            actual = "a draw" if res.winner is None else log.names[res.winner]
            violations.append(Violation(line, f"the log names {said}, but the result is {actual} ({res.why})",
                                        None, "two.winner"))
    return game, violations


def check(log: TwoPlayerLog) -> Judgement:
    def run(chosen: frozenset):
        in_use = ReadingsInUse(chosen)
        _, violations = replay(log, in_use)
        return violations, in_use.consulted
    return judge(run, log.readings)

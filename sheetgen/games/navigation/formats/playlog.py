"""The check handler of card-grid navigation play logs (seed 000): load a log (its model
is formats.NavigationLog, its actions read by notation) and judge it by replay
through the rules, under the readings it declares or the ones its replay consulted.

A violation's step is the 1-based index of the action within its turn.
"""
from __future__ import annotations

from sheetgen.definitions.models import validate_model
from sheetgen.definitions.turnlog import LoadedTurns, declared_readings, parse_turns, replay
from sheetgen.errors import InputError, did_you_mean
from ...base import Handler, Judgement, judge
from .. import notation
from ..actions import BeginTurn, EndTurn, PlaceToken, Resolve
from . import NavigationLog, load_reference, to_engine_dungeon
from ..readings import NavigationReading
from ..rules import RULES, Player, ambiguous_name
from ..tables import item_key

MODEL = NavigationLog


class LoadedLog(LoadedTurns):
    def __init__(self, log, source, dungeon, actions, lines, turn_lines, readings=None):
        super().__init__(log, source, actions, lines, turn_lines, readings)
        self.dungeon = dungeon          # formats.LoadedDungeon


def load(data, source):
    log = validate_model(NavigationLog, data, source.filename)
    try:
        dungeon = load_reference(log.dungeon, source, "dungeon", key="dungeon")
    except InputError as exc:
        if isinstance(log.dungeon, dict):
            raise
        raise InputError([source.problem(("dungeon",), f"cannot use dungeon '{log.dungeon}'")] + exc.problems) from None
    readings, problems = declared_readings(log.readings, source, NavigationReading)
    names = [p.name for p in log.players]
    for i, p in enumerate(log.players):
        if names.index(p.name) != i:
            problems.append(source.problem(("players", i, "name"), f"player '{p.name}' is listed twice"))
        if p.start is not None and p.start not in dungeon.pos:
            problems.append(source.problem(("players", i, "start"), f"no room '{p.start}' in the dungeon",
                                           suggestion=did_you_mean(p.start, dungeon.pos)))
    actions, lines, turn_lines, bad = parse_turns(log.turns, source, notation.parse, "player", names, "players")
    problems += bad
    problems += _ambiguous_resolves(log, source, dungeon)
    if problems:
        raise InputError(problems)
    return LoadedLog(log, source, dungeon, actions, lines, turn_lines, readings)


def _ambiguous_resolves(log, source, dungeon) -> list:
    """A bare `resolve X` where X is both a card of the dungeon and a function cannot be read:
    the log must say which ({resolve: {function: X}} or {resolve: {room: X}})."""
    engine = to_engine_dungeon(dungeon)
    out = []
    for t, turn in enumerate(log.turns):
        for a, raw in enumerate(turn.actions):
            try:
                action = notation.parse(raw)
            except ValueError:
                continue                # (reported by parse_turns)
            if isinstance(action, (Resolve, PlaceToken)) and action.named is None \
                    and ambiguous_name(engine, action.function):
                x = action.function
                out.append(source.problem(("turns", t, "actions", a),
                                          f"'{x}' is both a card of the dungeon and a function: which one? (a bare "
                                          "name is never guessed, even where both meanings would give the same "
                                          "result)",
                                          expected=f"{{{action.verb}: {{function: {x}}}}} for the function or "
                                                   f"{{{action.verb}: {{room: {x}}}}} for the card"))
    return out


def initial_state(loaded: LoadedLog, readings=()):
    """The state before the log's first turn, under readings."""
    dungeon = to_engine_dungeon(loaded.dungeon)
    players = [Player(name=p.name, room=p.start or dungeon.start, hp=p.hp, keys=p.keys, bombs=p.bombs, xp=p.xp,
                      items=frozenset(item_key(i) for i in p.items)) for p in loaded.log.players]
    return RULES.new_game(dungeon, players, readings)


def check(loaded: LoadedLog) -> Judgement:
    def replay_under(readings):
        state = initial_state(loaded, readings)
        return replay(loaded, "player", state, RULES, BeginTurn, EndTurn(), "nav"), state.readings.consulted
    return judge(replay_under, loaded.readings)


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, check=check, models=lambda: MODEL)

"""The check handler of Shuffle Dungeons play logs (seed 002): load a log (its model is
formats.ShuffleLog, its actions read by notation) and judge it by replay through
the rules, under the readings it declares or the ones its replay consulted.

A violation's step is the 1-based index of the action within its turn.
"""
from __future__ import annotations

from sheetgen.definitions.models import validate_model
from sheetgen.definitions.turnlog import LoadedTurns, declared_readings, parse_turns, replay
from sheetgen.errors import InputError, did_you_mean
from ...base import Handler, Judgement, judge
from .. import notation
from ..actions import BeginTurn, EndTurn
from . import ShuffleLog, initial_state as setup_state, load_reference
from ..readings import ShuffleReading
from ..rules import RULES

MODEL = ShuffleLog


class LoadedLog(LoadedTurns):
    def __init__(self, log, source, deck, actions, lines, turn_lines, readings=None):
        super().__init__(log, source, actions, lines, turn_lines, readings)
        self.deck = deck                # formats.LoadedDeck


def load(data, source):
    log = validate_model(ShuffleLog, data, source.filename)
    try:
        deck = load_reference(log.deck, source)
    except InputError as exc:
        if isinstance(log.deck, dict):
            raise
        raise InputError([source.problem(("deck",), f"cannot use deck '{log.deck}'")] + exc.problems) from None
    cat = deck.catalog()
    readings, problems = declared_readings(log.readings, source, ShuffleReading)

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
    actions, lines, turn_lines, bad = parse_turns(log.turns, source, notation.parse, "hero", names, "setup")
    problems += bad
    if problems:
        raise InputError(problems)
    return LoadedLog(log, source, deck, actions, lines, turn_lines, readings)


def initial_state(loaded: LoadedLog, readings=()):
    """The state before the log's first turn, under readings."""
    return setup_state(loaded.deck, loaded.log.setup, readings)


def check(loaded: LoadedLog) -> Judgement:
    def replay_under(readings):
        state = initial_state(loaded, readings)
        # snacks may be eaten by anyone at any time, so 'eat' is fine after 'end turn'
        return (replay(loaded, "hero", state, RULES, BeginTurn, EndTurn(), "shuffle", after_end_ok=("eat",)),
                state.readings.consulted)
    return judge(replay_under, loaded.readings)


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, check=check, models=lambda: MODEL)

"""Dungeon Foury play logs: what a player penciled, replayed through the rules.

A log (`kind: playlog`, `ruleset: foury`) names a map (a path relative to the
log, or a built-in map name), the hero (`traits: {...}` freely marked, 12 in
all, or `name: kael` for a pre-filled hero, optionally with `caps:`), and the
rounds, each with its `entry: CELL:SIDE` (or `start: CELL` in campaigns
without entries) and its `steps`:

    {move: C2, roll: 4}          roll due on unexplored cells only
    {fight: {hero: 3, weapon: true, enemy: 4, clover: {die: enemy, roll: 1}, shield: true,
             type: orc, stolen: shovels, fury: 2}}
                                 the foe's type may also be written enemy: {roll: 4, type: orc},
                                 enemy: orc 4, or beside the fight: {fight: {...}, enemy: orc}
    {collect: {item: die, roll: 3}}   the die item uses the die table printed beside the map
    flee | climb | coin | candy  (bare words, or {flee: true} ...; a candy cane may also be written
                                 `candy cane`, {candy: yeti}, {give: candy cane})
    {entry: A3:W}                a round starting within the steps (after an INSERT COIN, say)
    {collect: chest}             or {collect: {item: cornucopia, take: hearts}}
    {redeem: hearts}             spend a carried cornucopia on a resource (extension)
    {shovel: D1:W}   {circle: E5}   {lever: D4}   {oracle: {words: "..."}}
    {exit: E3:E}                 from E3; from a cell next to E3 the move comes first: {exit: E3:E, roll: 4}
    {market: {spend: {chests: 1}, gain: {hearts: 2}, trade: {give: {weapon: 2}, get: {shovels: 2}},
              rate: next}}      (trade may also be signed: {weapon: -2, shovels: 2}, read aloud:
                                 {weapon: 2, shovels: 2} gives the first, or {weapon: shovels} one
                                 for one; spend: {cornucopias: N} takes N of the gains from cornucopias)
    lever                        bare, as the issue writes it: the nearest lever not yet pulled
    {oracle: {...}}              from the room next to the Oracle: the step in is implied
    clover: {die: hero, choose: 6}   Melyra's chosen result (choose/value/result = roll)
    {flood: [C2, D3]}            Kraken: where the water spreads, after turns 5, 10 ... before the next turn
                                 starts: one space beside each flooded space joined to the Kraken
    {score: 31}                  the optional final score (extension; or sheet: {score: 31})
    {sheet: {hearts: 4, weapon: 1, walls: [C1:E], requirement: 1, ...}}   what is penciled
                                 (Santa: packages: {green: 3, blue: 2}; Slaughter: fury: N,
                                 more boxes than the steps said settle losses not written down)

The header may name the alternative readings of the rules text the log follows,
`readings: [weapon-once]` (the names of sheetgen.games.foury.rules.FouryReading); the
log is then judged by exactly those (`readings: []`: by the default readings).
Without it, the log is replayed under the default readings and, only if that breaks
a rule, under the readings that replay consulted; it is judged by the set it follows
best, and `sheetgen check` says which.

A log with `players:` (two heroes, their entries) and `steps:` tagged with `player:`
instead of `hero:` and `rounds:` is a game of the 2 Players Mode: formats/playlog_two.py
reads and checks it (an extension: logs with `hero:` are read as before).

Steps become actions through sheetgen.games.foury.notation (parse), which also
normalises the other words players use (the validators below call it).

A round may end with `exit: CELL:SIDE` and `market: {...}` beside its steps (the
same as exit and market steps at the end of its steps); `round:`, `zone:`, `name:`
and `note:` labels on a round are ignored.
Resource names accept the sheet's words too (heart, life, shield, sword, luck,
clover, shovel, chest, treasure, cornucopia ...); `hero: kael` is short for
`hero: {name: kael}`.

Violations are located at the line of the step in the YAML; `step` is the step's
1-based index counted over the whole log (all rounds), so it names one step
unambiguously; from the second round on the message also names the round and
the step within it (`step 23: round 2, step 3: ...`).  A round's entry is
reported with its line and no step number.
After a violation the replay follows the player's claimed step where it can
(see sheetgen.games.foury.rules), so one check lists every problem.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union

from pydantic import BeforeValidator, model_validator

from sheetgen.definitions.models import Strict, validate_model
from sheetgen.errors import InputError, Problem, did_you_mean
from sheetgen.games.base import Handler, Judgement, ReadingsInUse, Violation, judge
from .. import actions as A
from .. import notation
from ..notation import (STEP_KEYS, bare_words, clover_die, clover_words, enemy_text, fight_words, trade_forms,
                        trade_words, weapon_used)
from ..rules import READINGS, RETIRED_READINGS, FouryReading, canonical, rules_for
from ..heroes import HEROES, TRAITS, Hero, check_free_traits, free_hero, named_hero
from .hero_numbers import free_caps, sheet_hero


class CloverSpec(Strict):
    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, value):
        return clover_words(value)

    die: Annotated[Literal["hero", "enemy"], BeforeValidator(clover_die)]
    roll: int


class EnemySpec(Strict):
    roll: int
    type: str | None = None


class FightSpec(Strict):
    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, value):
        return fight_words(value)

    hero: int
    enemy: Annotated[Union[int, EnemySpec], BeforeValidator(enemy_text)]
    weapon: Annotated[bool, BeforeValidator(weapon_used)] = False
    clover: CloverSpec | None = None
    shield: bool = False
    type: str | None = None
    stolen: str | None = None
    fury: int = 0


class CollectSpec(Strict):
    item: str
    take: str | None = None
    roll: int | None = None
    gain: dict[str, int] = {}


class OracleSpec(Strict):
    words: str = ""


class TradeSpec(Strict):
    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, value):
        return trade_words(value)

    give: dict[str, int] = {}
    get: dict[str, int] = {}


class MarketSpec(Strict):
    spend: dict[str, int] = {}
    gain: dict[str, int] = {}
    trade: Annotated[Union[TradeSpec, dict[str, int], None], BeforeValidator(trade_forms)] = None
    rate: Literal["this", "next"] = "this"


class CoinSpec(Strict):
    traits: dict[str, int] = {}


class Step(Strict):
    """One penciled action: exactly one of the step keys (roll goes with move)."""
    entry: str | None = None                # start a round here (e.g. again after an INSERT COIN)
    move: str | None = None
    roll: int | None = None
    fight: FightSpec | None = None
    enemy: str | None = None                # the foe's type, beside a fight
    flee: bool | None = None
    collect: Union[str, CollectSpec, list[Union[str, CollectSpec]], None] = None   # a list: several items
    redeem: str | None = None
    shovel: str | None = None
    circle: str | None = None
    climb: bool | None = None
    lever: Union[str, bool, None] = None
    oracle: Union[OracleSpec, str, bool, None] = None
    exit: str | None = None
    market: MarketSpec | None = None
    coin: Union[CoinSpec, bool, None] = None
    candy: Union[bool, str, None] = None     # true, or whom it is given to (yeti, grinch, a cell)
    flood: list[str] | None = None
    sheet: dict[str, Any] | None = None
    score: int | None = None
    note: str | None = None                 # free text, ignored by the rules

    @model_validator(mode="before")
    @classmethod
    def _words(cls, value):
        return bare_words(value)

    @model_validator(mode="after")
    def _one_action(self):
        given = [k for k in STEP_KEYS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a step holds exactly one of " + ", ".join(STEP_KEYS)
                             + (f" (this one has {', '.join(given)})" if given else ""))
        if self.roll is not None and given[0] not in ("move", "exit"):
            raise ValueError("roll goes with a move step (or an exit from the cell next to it)")
        if self.enemy is not None and given[0] != "fight":
            raise ValueError("enemy (the foe's type) goes with a fight step")
        return self


class HeroSpec(Strict):
    @model_validator(mode="before")
    @classmethod
    def _just_a_name(cls, value):
        return {"name": value} if isinstance(value, str) else value

    name: str | None = None
    traits: dict[str, int] | None = None
    caps: dict[str, int] | None = None

    @model_validator(mode="after")
    def _one(self):
        if self.name is None and self.traits is None:
            raise ValueError("give the hero's traits (12 freely marked) or a hero name (kael, melyra, thalindra, elydion)")
        return self


class RoundSpec(Strict):
    entry: str | None = None
    start: str | None = None
    steps: list[Step] = []
    exit: str | None = None                 # the round's exit arrow, after its steps (same as an exit step)
    market: MarketSpec | None = None        # the round's market, after its steps (same as a market step)
    # labels a log may carry for its reader; not checked (the zone is the entry's)
    round: int | None = None
    name: str | None = None
    zone: str | None = None
    note: str | None = None


class PlayLogModel(Strict):
    sheetgen: Literal[1]
    kind: Literal["playlog"]
    ruleset: Literal["foury"]
    map: str
    title: str | None = None
    player: str | None = None
    date: str | None = None
    question: str | None = None
    note: str | None = None
    readings: list[str] | None = None       # the alternative readings the log follows (FouryReading names)
    hero: HeroSpec
    rounds: list[RoundSpec] = []


MODEL = PlayLogModel


@dataclass
class Entry:
    """One replayable line of the log."""
    action: Any
    line: int | None
    step: int | None                 # 1-based over the whole log; None for a round's entry
    round: int                       # 1-based
    round_step: int | None = None    # 1-based within its round's steps


@dataclass
class FouryLog:
    model: PlayLogModel
    source: Any
    board: Any
    hero: Hero
    hero_problems: list[tuple[str, int | None]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    map_name: str = ""
    readings: frozenset | None = None         # declared in the header (FouryReading members), else None


# -- loading ----------------------------------------------------------------------
def _load_board(name: str, source, problems: list[Problem]):
    try:
        from .map import load_map
    except ImportError:  # pragma: no cover - the map handler ships with sheetgen
        problems.append(source.problem(("map",), "the Foury map format is not available"))
        return None
    try:
        return load_map(name, relative_to=source.folder).board
    except InputError as exc:
        for p in exc.problems:
            problems.append(p)
        problems.append(source.problem(("map",), f"the map '{name}' cannot be used (see above)"))
        return None


def _declared_readings(model: PlayLogModel, source, problems: list[Problem]) -> frozenset | None:
    """The readings the header names (None when it names none); an unknown name is a located problem."""
    if model.readings is None:
        return None
    out = set()
    for i, name in enumerate(model.readings):
        if str(name) in RETIRED_READINGS:
            continue                # dropped (docs/readings.md): the log is judged without it
        try:
            out |= FouryReading.parse([name])
        except ValueError:
            problems.append(source.problem(("readings", i), f"unknown reading '{name}'",
                                           expected="one of " + ", ".join(READINGS),
                                           suggestion=did_you_mean(name, READINGS)))
    return frozenset(out)


def _hero(h: HeroSpec, board, source, loc: tuple, problems: list[Problem]) -> tuple[Any, list]:
    """The hero a HeroSpec at loc describes, and the problems of its traits (message, line)."""
    rules = rules_for(board) if board is not None else None
    hero_problems: list[tuple[str, int | None]] = []
    full = rules is not None and rules.full_scale(board)
    hero = None
    if h.name is not None:
        key = h.name.strip().lower()
        if key not in HEROES:
            problems.append(source.problem(loc + ("name",), f"unknown hero '{h.name}'",
                                           expected="one of " + ", ".join(HEROES),
                                           suggestion=did_you_mean(key, HEROES)))
        else:
            st, sc = sheet_hero(key)
            traits = dict(st or {}, **{canonical(k): v for k, v in (h.traits or {}).items()})
            caps = dict(sc or {}, **{canonical(k): v for k, v in (h.caps or {}).items()})
            hero = named_hero(key, traits or None, caps or None, full_scale=full)
    else:
        traits = {canonical(k): v for k, v in (h.traits or {}).items()}
        bad = [k for k in traits if k not in TRAITS]
        for k in bad:
            problems.append(source.problem(loc + ("traits", k), f"unknown trait '{k}'",
                                           expected="one of " + ", ".join(TRAITS), suggestion=did_you_mean(k, TRAITS)))
        line = _line(source, loc + ("traits",))
        caps = free_caps(board.campaign) if board is not None else None
        for msg in check_free_traits({k: v for k, v in traits.items() if k in TRAITS}, full_scale=full, caps=caps):
            hero_problems.append((msg, line))
        hero = free_hero(traits, full_scale=full, caps=caps)
        if h.caps:
            hero = Hero(None, hero.traits, tuple(dict(dict(hero.caps), **h.caps).items()))
    return hero, hero_problems


def load(data, source) -> FouryLog:
    if isinstance(data, dict) and "players" in data and "hero" not in data:
        # the 2 Players Mode (an extension: a log with a hero is read exactly as before)
        from .playlog_two import load as load_two
        return load_two(data, source)  # type: ignore[return-value]
    model: PlayLogModel = validate_model(PlayLogModel, data, source.filename)
    problems: list[Problem] = []
    readings = _declared_readings(model, source, problems)
    fmap = _load_board(model.map, source, problems)
    board = fmap
    rules = rules_for(board) if board is not None else None
    # the hero
    hero, hero_problems = _hero(model.hero, board, source, ("hero",), problems)
    # the rounds and steps
    entries: list[Entry] = []
    n = 0
    for ri, rnd in enumerate(model.rounds):
        rloc = ("rounds", ri)
        head_step = ({"entry": rnd.entry} if rnd.entry is not None else
                     {"start": rnd.start} if rnd.start is not None else None)
        if head_step is not None:
            key = next(iter(head_step))
            try:
                entries.append(Entry(notation.parse(head_step, board), _line(source, rloc + (key,)), None, ri + 1))
            except ValueError as exc:
                problems.append(source.problem(rloc + (key,), str(exc)))
        elif rules is not None and not rules.campaign.exits:
            entries.append(Entry(A.Enter(), _line(source, rloc), None, ri + 1))
        else:
            problems.append(source.problem(rloc, "a round starts with its entry arrow, like entry: C1:N"))
        head = len(entries) - 1 if entries and entries[-1].step is None and entries[-1].round == ri + 1 else None
        for si, step in enumerate(rnd.steps):
            n += 1
            loc = rloc + ("steps", si)
            try:
                action = _read_step(step.model_dump(exclude_none=True), loc, source, problems, board)
            except ValueError as exc:
                problems.append(source.problem(loc, str(exc)))
                continue
            for act in (action if isinstance(action, list) else [action] if action is not None else []):
                entry = Entry(act, _line(source, loc), n, ri + 1, si + 1)
                if head is not None and isinstance(act, (A.Coin, A.Market)):
                    # INSERT COIN or the market written at the top of the next round: they come before its entry
                    entries.insert(head, entry)
                    head += 1
                else:
                    head = None
                    entries.append(entry)
        if rnd.exit is not None:
            n += 1
            try:
                entries.append(Entry(notation.parse({"exit": rnd.exit}, board), _line(source, rloc + ("exit",)), n,
                                     ri + 1, len(rnd.steps) + 1))
            except ValueError as exc:
                problems.append(source.problem(rloc + ("exit",), str(exc)))
        if rnd.market is not None:
            n += 1
            loc = rloc + ("market",)
            action = _read_step({"market": rnd.market.model_dump(exclude_none=True)}, rloc, source, problems, board)
            entries.append(Entry(action, _line(source, loc), n, ri + 1, len(rnd.steps) + 1 + (rnd.exit is not None)))
    if problems:
        raise InputError(problems)
    return FouryLog(model, source, board, hero, hero_problems, entries, model.map, readings)


def _line(source, loc) -> int | None:
    from sheetgen.definitions.yamlsource import locate
    mark = locate(source.data, loc)
    return mark[0] if mark else None


def _read_step(step: dict, loc, source, problems, board=None):
    """A validated step (as a dict) -> its action through the notation; its notes become
    problems located inside the step (before the ValueError of a step that cannot be read)."""
    notes: list = []
    try:
        return notation.parse(step, board, notes)
    finally:
        problems.extend(source.problem(loc + note.path, note.message, expected=note.expected,
                                       suggestion=note.suggestion) for note in notes)


def step_action(step: dict | str):
    """One play-log step as a player writes it (a dict, or a bare word) -> a rules action:
    the format's validation, then the notation; ValueError says what is wrong."""
    from pydantic import ValidationError
    if isinstance(step, dict) and set(step) == {"start"}:
        return notation.parse(step)
    try:
        model = Step.model_validate(step)
    except ValidationError as exc:
        from sheetgen.definitions.models import validation_messages
        raise ValueError("; ".join(validation_messages(exc, Step))) from None
    action = notation.parse(model.model_dump(exclude_none=True))
    if isinstance(action, list):
        if len(action) != 1:
            raise ValueError("collect one item per step here")
        action = action[0]
    return action


def log_text(map_ref: str, hero: dict, actions) -> str:
    """A play log (YAML text) for a list of rules actions."""
    return dump_log(map_ref, hero, [notation.serialize(a) for a in actions])


def dump_log(ref: str, hero: dict, steps: list, question: str | None = None) -> str:
    """A play log as YAML text: steps are play-log step dicts, a round starting at each
    {entry: ...} / {start: ...} step; one flow mapping per step, as a player writes them
    (the Oracle question, when one was written down, in the header's `question:`)."""
    out = ["sheetgen: 1", "kind: playlog", "ruleset: foury", f"map: {_scalar(ref)}"]
    if question:
        out.append(f"question: {_scalar(question)}")
    out.append("hero:")
    if hero.get("name"):
        out.append(f"  name: {hero['name']}")
    else:
        out.append("  traits: " + _flow(hero.get("traits", {})))
    rounds: list[tuple[dict, list]] = []
    for step in steps:
        if isinstance(step, dict) and set(step) <= {"entry", "start"} and step:
            rounds.append((step, []))
        elif rounds:
            rounds[-1][1].append(step)
        else:
            rounds.append(({}, [step]))
    out.append("rounds:" + ("" if rounds else " []"))
    for head, body in rounds:
        if head:
            key, value = next(iter(head.items()))
            out.append(f"  - {key}: {value if value is not None else 'null'}")
            out.append("    steps:" + ("" if body else " []"))
        else:
            out.append("  - steps:" + ("" if body else " []"))
        for step in body:
            out.append("      - " + (_flow(step) if isinstance(step, dict) else str(step)))
    return "\n".join(out) + "\n"


def _scalar(value) -> str:
    import yaml
    return yaml.safe_dump(value, default_flow_style=True, width=10 ** 6).strip().removesuffix("...").strip()


def _flow(value) -> str:
    import yaml
    return yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10 ** 6).strip()


# the helpers the two-player format (playlog_two.py) shares, by public names
declared_readings, load_board, line_of, read_step, hero_of, scalar = (_declared_readings, _load_board, _line,
                                                                     _read_step, _hero, _scalar)


# -- checking ---------------------------------------------------------------------
def replay(log: FouryLog, readings=()):
    """(final state, violations): the log replayed, following claimed steps where possible;
    readings: FouryReading members or names, or a ReadingsInUse (which then records the
    readings the replay consulted)."""
    violations = [Violation(line, msg, None, "hero.traits") for msg, line in log.hero_problems]
    rules = rules_for(log.board)
    state = rules.new_game(log.board, log.hero, readings)
    step = rules.step
    refused = False             # the step before was refused (not carried out): what follows may only echo it
    for e in log.entries:
        out = step(state, e.action)
        state = out.state
        for v in out.violations:
            message = v.message
            if e.step is None:
                message = f"round {e.round} entry: {message}"
            elif e.round > 1 and e.round_step is not None:
                # step N counts over the whole log; a reader counting within the round finds it here
                message = f"round {e.round}, step {e.round_step}: {message}"
            violations.append(Violation(e.line, message, e.step, v.rule, consequence=refused))
        # a refused step leaves the state as it was, so the steps that build on it break again:
        # those reports are consequences, until a step goes through cleanly
        refused = (refused and bool(out.violations)) or not out.followed
    return state, violations


def check(log: FouryLog) -> Judgement:
    """The log's verdict: under the readings its header declares; else under our reading of
    the rules and, only if that breaks a rule, under the alternative readings (FouryReading)
    the replay consulted, alone and together: the log is judged by the one it follows best.
    A two-player log (formats/playlog_two.py) is judged the same way by its own replay."""
    def run(chosen: frozenset):
        in_use = ReadingsInUse(chosen)
        _, violations = replay(log, in_use)
        return violations, in_use.consulted
    if not isinstance(log, FouryLog):
        from .playlog_two import check as check_two
        return check_two(log)
    return judge(run, log.readings)


# what the core calls for this kind (sheetgen.games.base.Handler)
def _models():
    from .playlog_two import TwoPlayLogModel
    return (MODEL, TwoPlayLogModel)


HANDLER = Handler(load=load, check=check, models=_models)

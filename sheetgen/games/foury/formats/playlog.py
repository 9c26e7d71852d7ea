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
    {flood: [C2, D3]}            Kraken: where the water spreads when a flood is due (optional extension)
    {score: 31}                  the optional final score (extension; or sheet: {score: 31})
    {sheet: {hearts: 4, weapon: 1, walls: [C1:E], requirement: 1, ...}}   what is penciled
                                 (Santa: packages: {green: 3, blue: 2}; Slaughter: fury: N,
                                 more boxes than the steps said settle losses not written down)

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
from .. import actions as A
from ..board import parse_cell, parse_cell_side
from ..rules import READINGS, RESOURCES, SANTA_COUNTERS, SHEET_KEYS, apply_lenient, canonical, new_game
from ..heroes import HEROES, TRAITS, Hero, check_free_traits, free_hero, named_hero
from sheetgen.games.base import Violation

STEP_KEYS = ("entry", "move", "fight", "flee", "collect", "redeem", "shovel", "circle", "climb", "lever", "oracle",
             "exit", "market", "coin", "candy", "flood", "sheet", "score")
BARE_STEPS = ("flee", "climb", "coin", "candy", "oracle", "lever")
RESOURCE_NAMES = RESOURCES + SANTA_COUNTERS


CLOVER_DIE = {"monster": "enemy", "statue": "enemy", "foe": "enemy", "opponent": "enemy", "trap": "enemy",
              "player": "hero", "me": "hero", "mine": "hero", "own": "hero"}


class CloverSpec(Strict):
    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, value):
        """Melyra chooses the result: {die: hero, choose: 6}; also value/result/new/reroll for roll."""
        words = ("choose", "chosen", "value", "result", "new", "reroll", "rerolled", "new roll", "to")
        if isinstance(value, dict) and "roll" not in value:
            found = [k for k in value if k in words]
            if len(found) == 1:
                return {("roll" if k == found[0] else k): v for k, v in value.items()}
        return value

    die: Annotated[Literal["hero", "enemy"],
                   BeforeValidator(lambda v: CLOVER_DIE.get(v.strip().lower(), v.strip().lower())
                                   if isinstance(v, str) else v)]
    roll: int


class EnemySpec(Strict):
    roll: int
    type: str | None = None


def _enemy_text(value):
    """'goblin 4' or '4 goblin' -> {'roll': 4, 'type': 'goblin'}."""
    if isinstance(value, str):
        words = value.replace(",", " ").split()
        nums = [w for w in words if w.lstrip("-").isdigit()]
        names = [w for w in words if not w.lstrip("-").isdigit()]
        if len(nums) == 1:
            return {"roll": int(nums[0]), "type": " ".join(names) or None}
    if isinstance(value, dict) and len(value) == 1:     # {orc: 4}
        (name, roll), = value.items()
        if isinstance(name, str) and name not in ("roll", "type") and isinstance(roll, int) \
                and not isinstance(roll, bool):
            return {"roll": roll, "type": name}
    return value


FIGHT_ALIASES = {"steal": "stolen", "steals": "stolen", "robbed": "stolen", "lose": "stolen", "loses": "stolen",
                 "lost": "stolen", "foe": "type", "monster": "type", "kind": "type", "enemy_type": "type",
                 "name": "type", "enemy_name": "type", "opponent": "type", "against": "type",
                 "shields": "shield", "weapons": "weapon", "sword": "weapon", "four-leaf clover": "clover",
                 "reroll": "clover", "enemy type": "type", "enemy-type": "type", "enemy kind": "type",
                 "enemy name": "type", "foe type": "type", "monster type": "type"}


def _used(value):
    """weapon: 2 (the value added) means the weapon was used, like weapon: true."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value > 0
    return value


class FightSpec(Strict):
    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, value):
        """Other words players use: steal/robbed/lose -> stolen, foe/monster/kind -> type."""
        if isinstance(value, dict) and any(k in FIGHT_ALIASES for k in value):
            return {(FIGHT_ALIASES[k] if k in FIGHT_ALIASES and FIGHT_ALIASES[k] not in value else k): v
                    for k, v in value.items()}
        return value

    hero: int
    enemy: Annotated[Union[int, EnemySpec], BeforeValidator(_enemy_text)]
    weapon: Annotated[bool, BeforeValidator(_used)] = False
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
        """gain/receive/for/take are other words for get; pay/spend for give."""
        words = {"gain": "get", "receive": "get", "for": "get", "take": "get", "pay": "give", "spend": "give",
                 "buy": "get", "to": "get", "in": "get", "sell": "give", "from": "give", "out": "give",
                 "lose": "give", "swap": "give"}
        if isinstance(value, dict) and ("give" in value or "get" in value or any(k in words for k in value)) \
                and all(k in words or k in ("give", "get") for k in value):
            return {words.get(k, k): v for k, v in value.items()}
        return value

    give: dict[str, int] = {}
    get: dict[str, int] = {}


def _trade_forms(value):
    """Other ways to write a one-for-one trade: {weapon: shovels} (one for one), and
    {weapon: 2, shovels: 2} (two counts, no signs: the first is given, as read aloud)."""
    if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
        if all(isinstance(v, str) for v in value.values()):
            give: dict = {}
            get: dict = {}
            for k, v in value.items():
                give[k] = give.get(k, 0) + 1
                get[v] = get.get(v, 0) + 1
            return {"give": give, "get": get}
        if len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                   for v in value.values()):
            (k1, v1), (k2, v2) = value.items()
            return {"give": {k1: v1}, "get": {k2: v2}}
    return value


class MarketSpec(Strict):
    spend: dict[str, int] = {}
    gain: dict[str, int] = {}
    trade: Annotated[Union[TradeSpec, dict[str, int], None], BeforeValidator(_trade_forms)] = None
    rate: Literal["this", "next"] = "this"


class CoinSpec(Strict):
    traits: dict[str, int] = {}


CANDY_WORDS = ("candy cane", "candy_cane", "candycane", "candy canes")


def _bare(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() in BARE_STEPS + CANDY_WORDS:
        word = value.strip().lower()
        return {"candy" if word in CANDY_WORDS else word: True}
    if isinstance(value, dict):
        # Santa: other ways to write "give a candy cane": {candy cane: yeti}, {give: candy cane}
        keys = {k: k for k in value if isinstance(k, str)}
        for k in keys:
            v = value[k]
            if k.strip().lower() in CANDY_WORDS or (k.strip().lower() in ("give", "use") and isinstance(v, str)
                                                    and v.strip().lower() in CANDY_WORDS):
                out = {kk: vv for kk, vv in value.items() if kk != k}
                out["candy"] = True
                return out
    return value


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
        return _bare(value)

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


def _sheet_hero(name: str) -> tuple[dict | None, dict | None]:
    """Traits and caps from the sheet definitions (what the printed hero sheet shows), if offered."""
    try:
        from .sheet import hero_traits  # type: ignore
        got = hero_traits(name)
        traits = {k: int(got[k]) for k in TRAITS if k in got}
        caps = {k: int(v) for k, v in dict(got.get("caps") or {}).items() if k in TRAITS}
    except Exception:  # noqa: BLE001 - fall back to the rules' own table
        return None, None
    return traits or None, caps or None


def free_caps(campaign: str) -> dict | None:
    """The boxes a free character may fill on the printed sheet of this campaign."""
    try:
        from .sheet import track_limits  # type: ignore
        return {k: int(v) for k, v in track_limits(campaign).items() if k in TRAITS} or None
    except Exception:  # noqa: BLE001 - fall back to the rules' own table
        return None


def _pairs(d: dict[str, int], loc, source, problems, allowed=RESOURCE_NAMES) -> tuple[tuple[str, int], ...]:
    out = []
    for k, v in d.items():
        k = canonical(k)
        if k not in allowed:
            problems.append(source.problem(loc, f"unknown resource '{k}'", expected="one of " + ", ".join(allowed),
                                           suggestion=did_you_mean(k, allowed)))
        out.append((k, int(v)))
    return tuple(out)


def load(data, source) -> FouryLog:
    model: PlayLogModel = validate_model(PlayLogModel, data, source.filename)
    problems: list[Problem] = []
    fmap = _load_board(model.map, source, problems)
    board = fmap
    # the hero
    hero_problems: list[tuple[str, int | None]] = []
    h = model.hero
    full = board is not None and (board.campaign == "strength" or not getattr(board, "hero_extras", True))
    hero = None
    if h.name is not None:
        key = h.name.strip().lower()
        if key not in HEROES:
            problems.append(source.problem(("hero", "name"), f"unknown hero '{h.name}'",
                                           expected="one of " + ", ".join(HEROES),
                                           suggestion=did_you_mean(key, HEROES)))
        else:
            st, sc = _sheet_hero(key)
            traits = dict(st or {}, **{canonical(k): v for k, v in (h.traits or {}).items()})
            caps = dict(sc or {}, **{canonical(k): v for k, v in (h.caps or {}).items()})
            hero = named_hero(key, traits or None, caps or None, full_scale=full)
    else:
        traits = {canonical(k): v for k, v in (h.traits or {}).items()}
        bad = [k for k in traits if k not in TRAITS]
        for k in bad:
            problems.append(source.problem(("hero", "traits", k), f"unknown trait '{k}'",
                                           expected="one of " + ", ".join(TRAITS), suggestion=did_you_mean(k, TRAITS)))
        line = _line(source, ("hero", "traits"))
        caps = free_caps(board.campaign) if board is not None else None
        for msg in check_free_traits({k: v for k, v in traits.items() if k in TRAITS}, full_scale=full, caps=caps):
            hero_problems.append((msg, line))
        hero = free_hero(traits, full_scale=full, caps=caps)
        if h.caps:
            hero = Hero(None, hero.traits, tuple(dict(dict(hero.caps), **h.caps).items()))
    # the rounds and steps
    entries: list[Entry] = []
    n = 0
    for ri, rnd in enumerate(model.rounds):
        rloc = ("rounds", ri)
        if rnd.entry is not None:
            try:
                cell, side = _arrow(rnd.entry, board)
                entries.append(Entry(A.Enter(entry=(cell, side)), _line(source, rloc + ("entry",)), None, ri + 1))
            except ValueError as exc:
                problems.append(source.problem(rloc + ("entry",), str(exc)))
        elif rnd.start is not None:
            try:
                entries.append(Entry(A.Enter(start=parse_cell(rnd.start)), _line(source, rloc + ("start",)),
                                     None, ri + 1))
            except ValueError as exc:
                problems.append(source.problem(rloc + ("start",), str(exc)))
        elif board is not None and board.campaign in ("slaughter", "santa"):
            entries.append(Entry(A.Enter(), _line(source, rloc), None, ri + 1))
        else:
            problems.append(source.problem(rloc, "a round starts with its entry arrow, like entry: C1:N"))
        head = len(entries) - 1 if entries and entries[-1].step is None and entries[-1].round == ri + 1 else None
        for si, step in enumerate(rnd.steps):
            n += 1
            loc = rloc + ("steps", si)
            try:
                action = _action(step, loc, source, problems, board)
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
                cell, side = _arrow(rnd.exit, board)
                entries.append(Entry(A.Exit(cell, side), _line(source, rloc + ("exit",)), n, ri + 1,
                                     len(rnd.steps) + 1))
            except ValueError as exc:
                problems.append(source.problem(rloc + ("exit",), str(exc)))
        if rnd.market is not None:
            n += 1
            loc = rloc + ("market",)
            action = _action(Step(market=rnd.market), rloc, source, problems, board)
            entries.append(Entry(action, _line(source, loc), n, ri + 1, len(rnd.steps) + 1 + (rnd.exit is not None)))
    if problems:
        raise InputError(problems)
    return FouryLog(model, source, board, hero, hero_problems, entries, model.map)


def _arrow(text: str, board):
    """'C1:N', or just 'C1' when the map has exactly one arrow on that cell."""
    if ":" not in str(text) and board is not None:
        cell = parse_cell(text)
        sides = [side for c, side in board.entries if c == cell]
        if len(sides) == 1:
            return cell, sides[0]
        raise ValueError(f"'{text}': name the arrow as CELL:SIDE"
                         + (f" ({', '.join(f'{text}:{s}' for s in sides)})" if sides else
                            f" (there is no arrow on {text})"))
    return parse_cell_side(text)


def _line(source, loc) -> int | None:
    from sheetgen.definitions.yamlsource import locate
    mark = locate(source.data, loc)
    return mark[0] if mark else None


def _action(step: Step, loc, source, problems, board=None):
    if step.entry is not None:
        return A.Enter(entry=_arrow(step.entry, board))
    if step.move is not None:
        return A.Move(parse_cell(step.move), step.roll)
    if step.fight is not None:
        f = step.fight
        enemy, etype = (f.enemy, None) if isinstance(f.enemy, int) else (f.enemy.roll, f.enemy.type)
        etype = etype or f.type or step.enemy
        etype = etype.strip().lower() if etype else None
        from ..board import ENEMIES
        if etype is not None and etype not in ENEMIES and etype != "statue":
            problems.append(source.problem(loc + ("fight",), f"unknown enemy '{etype}'",
                                           expected="one of " + ", ".join(ENEMIES),
                                           suggestion=did_you_mean(etype, ENEMIES)))
        stolen = canonical(f.stolen) if f.stolen is not None else None
        if stolen is not None and stolen not in RESOURCES:
            problems.append(source.problem(loc + ("fight", "stolen"), f"unknown resource '{f.stolen}'",
                                           suggestion=did_you_mean(f.stolen, RESOURCES)))
        return A.Fight(f.hero, enemy, f.weapon, f.clover.die if f.clover else None,
                       f.clover.roll if f.clover else None, f.shield, etype, stolen, f.fury)
    if step.flee:
        return A.Flee()
    if isinstance(step.collect, list):
        return [_action(Step(collect=c), loc, source, problems, board) for c in step.collect]
    if step.collect is not None:
        c = step.collect
        if isinstance(c, str):
            return A.Collect(c.strip().lower())
        take = canonical(c.take) if c.take is not None else None
        if take is not None and take not in TRAITS:
            problems.append(source.problem(loc + ("collect", "take"), f"a cornucopia gives one of {', '.join(TRAITS)}",
                                           suggestion=did_you_mean(c.take, TRAITS)))
        return A.Collect(c.item.strip().lower(), take, c.roll, _pairs(c.gain, loc + ("collect",), source, problems))
    if step.redeem is not None:
        resource = canonical(step.redeem)
        if resource not in TRAITS:
            raise ValueError(f"a cornucopia gives one of {', '.join(TRAITS)}, not '{step.redeem}'")
        return A.Redeem(resource)
    if step.shovel is not None:
        cell, side = parse_cell_side(step.shovel)
        return A.Shovel(cell, side)
    if step.circle is not None:
        return A.Circle(parse_cell(step.circle))
    if step.climb:
        return A.Climb()
    if step.lever is not None:
        return A.Lever(parse_cell(step.lever) if isinstance(step.lever, str) else None)
    if step.oracle is not None:
        o = step.oracle
        words = o.words if isinstance(o, OracleSpec) else (o if isinstance(o, str) else "")
        return A.Oracle(words)
    if step.exit is not None:
        cell, side = _arrow(step.exit, board)
        return A.Exit(cell, side, step.roll)
    if step.market is not None:
        m = step.market
        spend = {canonical(k): v for k, v in m.spend.items()}
        bad = [k for k in spend if k not in ("chests", "cornucopias")]
        if bad:
            problems.append(source.problem(loc + ("market", "spend"), "the market spends chests: spend: {chests: N}"))
        give: tuple = ()
        get: tuple = ()
        if isinstance(m.trade, TradeSpec):
            give = _pairs(m.trade.give, loc + ("market", "trade"), source, problems)
            get = _pairs(m.trade.get, loc + ("market", "trade"), source, problems)
        elif isinstance(m.trade, dict):
            pairs = _pairs(m.trade, loc + ("market", "trade"), source, problems)
            give = tuple((k, -v) for k, v in pairs if v < 0)
            get = tuple((k, v) for k, v in pairs if v > 0)
        gain = _pairs(m.gain, loc + ("market", "gain"), source, problems)
        horns = spend.get("cornucopias", 0)
        if horns > 0:
            # cornucopias spent at the market: each is one resource of choice, taken from the gains
            # (a one-for-one trade of the cornucopia; the chests buy the rest)
            rest, took = [], []
            for k, v in gain:
                n = min(v, horns - sum(t for _, t in took))
                if n > 0:
                    took.append((k, n))
                if v - n > 0:
                    rest.append((k, v - n))
            give = give + (("cornucopias", horns),)
            get = get + tuple(took)
            gain = tuple(rest)
        return A.Market(int(spend.get("chests", 0)), gain, give, get, m.rate == "next")
    if step.coin is not None:
        traits = step.coin.traits if isinstance(step.coin, CoinSpec) else {}
        return A.Coin(tuple((canonical(k), v) for k, v in traits.items()))
    if step.candy:
        return A.Candy()
    if step.flood is not None:
        return A.Flood(tuple(parse_cell(c) for c in step.flood))
    if step.sheet is not None:
        for k in step.sheet:
            if canonical(k) not in SHEET_KEYS:
                problems.append(source.problem(loc + ("sheet", k), f"'{k}' is not a value on the sheet",
                                               expected="one of " + ", ".join(SHEET_KEYS),
                                               suggestion=did_you_mean(k, SHEET_KEYS)))
        return A.Sheet(tuple((canonical(k), v) for k, v in step.sheet.items()))
    if step.score is not None:
        return A.Score(step.score)
    return None


class _Collector:
    """Stands in for a Source when steps come from elsewhere (the tracker): collects messages."""

    def __init__(self):
        self.messages: list[str] = []

    def problem(self, loc, message, **kw):
        hint = kw.get("suggestion")
        self.messages.append(message + (f"; did you mean '{hint}'?" if hint else ""))
        return self.messages[-1]


def step_action(step: dict):
    """One play-log step (a dict, or a bare word) -> a rules action; ValueError says what is wrong."""
    from pydantic import ValidationError
    if isinstance(step, dict) and set(step) == {"start"}:
        return A.Enter(start=parse_cell(str(step["start"])))
    try:
        model = Step.model_validate(step)
    except ValidationError as exc:
        msgs = []
        for err in exc.errors(include_url=False):
            where = ".".join(str(p) for p in err["loc"])
            msgs.append((f"{where}: " if where else "") + err["msg"].removeprefix("Value error, "))
        raise ValueError("; ".join(msgs)) from None
    collector = _Collector()
    problems: list = []
    action = _action(model, (), collector, problems)
    if isinstance(action, list):
        if len(action) != 1:
            raise ValueError("collect one item per step here")
        action = action[0]
    if collector.messages:
        raise ValueError("; ".join(collector.messages))
    return action


def action_step(action) -> dict | str:
    """A rules action -> its play-log step (the inverse of step_action)."""
    from ..board import cell_name as cn
    t = type(action)
    if t is A.Enter:
        if action.entry is not None:
            return {"entry": f"{cn(action.entry[0])}:{action.entry[1]}"}
        return {"start": cn(action.start)} if action.start else {"start": None}
    if t is A.Move:
        return {"move": cn(action.to), "roll": action.roll} if action.roll is not None else {"move": cn(action.to)}
    if t is A.Fight:
        f: dict = {"hero": action.hero, "enemy": action.enemy}
        if action.weapon:
            f["weapon"] = True
        if action.clover_die:
            f["clover"] = {"die": action.clover_die, "roll": action.clover_roll}
        if action.shield:
            f["shield"] = True
        if action.enemy_type:
            f["type"] = action.enemy_type
        if action.stolen:
            f["stolen"] = action.stolen
        if action.fury:
            f["fury"] = action.fury
        return {"fight": f}
    if t is A.Collect:
        if action.take or action.roll is not None or action.gain:
            c: dict = {"item": action.item}
            if action.take:
                c["take"] = action.take
            if action.roll is not None:
                c["roll"] = action.roll
            if action.gain:
                c["gain"] = dict(action.gain)
            return {"collect": c}
        return {"collect": action.item}
    if t is A.Redeem:
        return {"redeem": action.resource}
    if t is A.Shovel:
        return {"shovel": f"{cn(action.cell)}:{action.side}"}
    if t is A.Circle:
        return {"circle": cn(action.to)}
    if t is A.Lever:
        return {"lever": cn(action.cell)} if action.cell else "lever"
    if t is A.Oracle:
        return {"oracle": {"words": action.words}} if action.words else "oracle"
    if t is A.Exit:
        out = {"exit": f"{cn(action.cell)}:{action.side}"}
        if action.roll is not None:
            out["roll"] = action.roll
        return out
    if t is A.Market:
        m: dict = {}
        if action.spend_chests:
            m["spend"] = {"chests": action.spend_chests}
        if action.gain:
            m["gain"] = dict(action.gain)
        if action.give or action.get:
            m["trade"] = {"give": dict(action.give), "get": dict(action.get)}
        if action.next_rate:
            m["rate"] = "next"
        return {"market": m}
    if t is A.Coin:
        return {"coin": {"traits": dict(action.traits)}} if action.traits else "coin"
    if t is A.Flood:
        return {"flood": [cn(c) for c in action.cells]}
    if t is A.Sheet:
        return {"sheet": dict(action.values)}
    if t is A.Score:
        return {"score": action.points}
    return {A.Flee: "flee", A.Climb: "climb", A.Candy: "candy"}[t]


def log_text(map_ref: str, hero: dict, actions) -> str:
    """A play log (YAML text) for a list of rules actions."""
    return dump_log(map_ref, hero, [action_step(a) for a in actions])


def dump_log(ref: str, hero: dict, steps: list) -> str:
    """A play log as YAML text: steps are play-log step dicts, a round starting at each
    {entry: ...} / {start: ...} step; one flow mapping per step, as a player writes them."""
    out = ["sheetgen: 1", "kind: playlog", "ruleset: foury", f"map: {_scalar(ref)}", "hero:"]
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
            out.append(f"  - {key}: {value}")
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


# -- checking ---------------------------------------------------------------------
def replay(log: FouryLog, readings: tuple[str, ...] = ()):
    """(final state, violations): the log replayed, following claimed steps where possible."""
    violations = [Violation(line, msg, None, "hero.traits") for msg, line in log.hero_problems]
    state = new_game(log.board, log.hero, readings)
    for e in log.entries:
        state, problems = apply_lenient(state, e.action)
        for rule, message in problems:
            if e.step is None:
                message = f"round {e.round} entry: {message}"
            elif e.round > 1 and e.round_step is not None:
                # step N counts over the whole log; a reader counting within the round finds it here
                message = f"round {e.round}, step {e.round_step}: {message}"
            violations.append(Violation(e.line, message, e.step, rule))
    return state, violations


def check(log: FouryLog) -> list[Violation]:
    """The violations under our reading of the rules; where the text allows another reading
    (READINGS: e.g. the weapon point paid once per combat rather than per exchange) and the
    log follows it, the log is judged under that reading instead."""
    from itertools import combinations
    best = replay(log)[1]
    for size in range(1, len(READINGS) + 1):
        for readings in combinations(READINGS, size):
            if not best:
                return best
            other = replay(log, readings)[1]
            if len(other) < len(best):
                best = other
    return best

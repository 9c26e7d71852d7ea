"""Dungeon Foury's notation: play-log steps <-> rules actions, both ways (python-chess's parse_san / san).

    parse(step, board=None, notes=None) -> action     a step dict (or bare word) -> an action
    serialize(action) -> dict | str                   an action -> its step, as a player writes it
    describe(action) -> str                           a short text ("move C4") for status listings

The one place where steps and actions meet: the checker (formats/playlog.py), the
tracker's journal and export, and the simulator's play logs all go through it, so
parse(serialize(action)) == action for every action.  The step forms are those of
the play-log format (its docstring lists them); the words players use for the same
thing (`enemy: orc 4`, `clover: {die: monster, choose: 6}`, `{candy: yeti}`,
`trade: {weapon: shovels}` ...) are normalised by the functions below, which the
play-log format's validators call too.

Problems that leave the step usable (an unknown enemy name, an unknown resource, a
sheet key that is not on the sheet) are StepNotes, located by a key path inside the
step; with no `notes` list given they are a ValueError, like a step that cannot be
read at all (a bad cell name).  Pure: the standard library and the rules-side modules.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..base import did_you_mean
from . import actions as A
from .board import ENEMIES, cell_name, parse_cell, parse_cell_side
from .heroes import TRAITS
from .rules import SHEET_KEYS, canonical
from .tables import RESOURCES, SANTA_COUNTERS

STEP_KEYS = ("entry", "move", "fight", "flee", "collect", "redeem", "shovel", "circle", "climb", "lever", "oracle",
             "exit", "market", "coin", "candy", "flood", "sheet", "score")
BARE_STEPS = ("flee", "climb", "coin", "candy", "oracle", "lever")
RESOURCE_NAMES = RESOURCES + SANTA_COUNTERS
CANDY_WORDS = ("candy cane", "candy_cane", "candycane", "candy canes")
_ACTION_KEYS = frozenset(STEP_KEYS)
_STEP_FIELDS = _ACTION_KEYS | {"roll", "enemy", "note", "start"}       # the keys of a validated step


@dataclass(frozen=True)
class StepNote:
    """A problem in one step that leaves it usable; path is the key path inside the step."""
    path: tuple
    message: str
    expected: str | None = None
    suggestion: str | None = None

    def text(self) -> str:
        return self.message + (f"; did you mean '{self.suggestion}'?" if self.suggestion else "")


# -- the words players use: normalised before a step is read --------------------------------
def bare_words(value):
    """'flee' -> {'flee': True}; Santa's other ways to write "give a candy cane":
    `candy cane`, {candy cane: yeti}, {give: candy cane}."""
    if isinstance(value, str) and value.strip().lower() in BARE_STEPS + CANDY_WORDS:
        word = value.strip().lower()
        return {"candy" if word in CANDY_WORDS else word: True}
    if isinstance(value, dict):
        keys = {k: k for k in value if isinstance(k, str)}
        for k in keys:
            v = value[k]
            if k.strip().lower() in CANDY_WORDS or (k.strip().lower() in ("give", "use") and isinstance(v, str)
                                                    and v.strip().lower() in CANDY_WORDS):
                out = {kk: vv for kk, vv in value.items() if kk != k}
                out["candy"] = True
                return out
    return value


CLOVER_DIE = {"monster": "enemy", "statue": "enemy", "foe": "enemy", "opponent": "enemy", "trap": "enemy",
              "player": "hero", "me": "hero", "mine": "hero", "own": "hero"}
CLOVER_ROLL_WORDS = ("choose", "chosen", "value", "result", "new", "reroll", "rerolled", "new roll", "to")


def clover_words(value):
    """Melyra chooses the result: {die: hero, choose: 6}; also value/result/new/reroll for roll."""
    if isinstance(value, dict) and "roll" not in value:
        found = [k for k in value if k in CLOVER_ROLL_WORDS]
        if len(found) == 1:
            return {("roll" if k == found[0] else k): v for k, v in value.items()}
    return value


def clover_die(value):
    """The die a clover rerolls: hero or enemy (monster, statue, foe ... are the enemy's)."""
    return CLOVER_DIE.get(value.strip().lower(), value.strip().lower()) if isinstance(value, str) else value


def enemy_text(value):
    """'goblin 4' or '4 goblin' -> {'roll': 4, 'type': 'goblin'}; {orc: 4} too."""
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


def fight_words(value):
    """Other words players use in a fight: steal/robbed/lose -> stolen, foe/monster/kind -> type."""
    if isinstance(value, dict) and any(k in FIGHT_ALIASES for k in value):
        return {(FIGHT_ALIASES[k] if k in FIGHT_ALIASES and FIGHT_ALIASES[k] not in value else k): v
                for k, v in value.items()}
    return value


def weapon_used(value):
    """weapon: 2 (the value added) means the weapon was used, like weapon: true."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value > 0
    return value


TRADE_WORDS = {"gain": "get", "receive": "get", "for": "get", "take": "get", "pay": "give", "spend": "give",
               "buy": "get", "to": "get", "in": "get", "sell": "give", "from": "give", "out": "give",
               "lose": "give", "swap": "give"}


def trade_words(value):
    """gain/receive/for/take are other words for get; pay/spend for give."""
    if isinstance(value, dict) and ("give" in value or "get" in value or any(k in TRADE_WORDS for k in value)) \
            and all(k in TRADE_WORDS or k in ("give", "get") for k in value):
        return {TRADE_WORDS.get(k, k): v for k, v in value.items()}
    return value


def trade_forms(value):
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


# -- step -> action ----------------------------------------------------------------------------
def arrow(text: str, board=None):
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


def parse(step, board=None, notes: list | None = None):
    """One play-log step -> its action (a list of actions for `collect: [..]`; None for a
    step that does nothing, like `flee: false`).  board lets an arrow be named by its cell
    alone.  Problems that leave the step usable go to notes (StepNote); without notes they,
    like a step that cannot be read, raise ValueError."""
    own = notes is None
    found: list = [] if own else notes
    if not (isinstance(step, dict) and step.keys() <= _STEP_FIELDS):       # (a validated step needs no words)
        step = bare_words(step)
    action = _parse(step, board, found)
    if own and found:
        raise ValueError("; ".join(n.text() for n in found))
    return action


def _parse(step, board, notes: list):
    if not isinstance(step, dict):
        raise ValueError(f"a step is a mapping like {{move: C2, roll: 4}} or one of {', '.join(BARE_STEPS)}, "
                         f"not {step!r}")
    if set(step) == {"start"}:
        start = step["start"]
        return A.Enter(start=parse_cell(str(start))) if start is not None else A.Enter()
    given = [k for k in step if k in _ACTION_KEYS and step[k] is not None]
    if len(given) != 1:
        given = [k for k in STEP_KEYS if step.get(k) is not None]     # in the format's order, for the message
        raise ValueError("a step holds exactly one of " + ", ".join(STEP_KEYS)
                         + (f" (this one has {', '.join(given)})" if given else ""))
    key = given[0]
    value = step[key]
    if key == "entry":
        return A.Enter(entry=arrow(value, board))
    if key == "move":
        return A.Move(parse_cell(value), step.get("roll"))
    if key == "fight":
        return _fight(fight_words(value), step.get("enemy"), notes)
    if key == "flee":
        return A.Flee() if value else None
    if key == "collect":
        if isinstance(value, list):
            return [_parse({"collect": c}, board, notes) for c in value]
        if isinstance(value, str):
            return A.Collect(value.strip().lower())
        take = canonical(value["take"]) if value.get("take") is not None else None
        if take is not None and take not in TRAITS:
            notes.append(StepNote(("collect", "take"), f"a cornucopia gives one of {', '.join(TRAITS)}",
                                  suggestion=did_you_mean(value["take"], TRAITS)))
        return A.Collect(value["item"].strip().lower(), take, value.get("roll"),
                         _pairs(value.get("gain") or {}, ("collect",), notes))
    if key == "redeem":
        resource = canonical(value)
        if resource not in TRAITS:
            raise ValueError(f"a cornucopia gives one of {', '.join(TRAITS)}, not '{value}'")
        return A.Redeem(resource)
    if key == "shovel":
        cell, side = parse_cell_side(value)
        return A.Shovel(cell, side)
    if key == "circle":
        return A.Circle(parse_cell(value))
    if key == "climb":
        return A.Climb() if value else None
    if key == "lever":
        return A.Lever(parse_cell(value) if isinstance(value, str) else None)
    if key == "oracle":
        words = value.get("words", "") if isinstance(value, dict) else (value if isinstance(value, str) else "")
        return A.Oracle(words)
    if key == "exit":
        cell, side = arrow(value, board)
        return A.Exit(cell, side, step.get("roll"))
    if key == "market":
        return _market(value, notes)
    if key == "coin":
        traits = value.get("traits") or {} if isinstance(value, dict) else {}
        return A.Coin(tuple((canonical(k), v) for k, v in traits.items()))
    if key == "candy":
        return A.Candy() if value else None
    if key == "flood":
        return A.Flood(tuple(parse_cell(c) for c in value))
    if key == "sheet":
        for k in value:
            if canonical(k) not in SHEET_KEYS:
                notes.append(StepNote(("sheet", k), f"'{k}' is not a value on the sheet",
                                      expected="one of " + ", ".join(SHEET_KEYS),
                                      suggestion=did_you_mean(k, SHEET_KEYS)))
        return A.Sheet(tuple((canonical(k), v) for k, v in value.items()))
    return A.Score(value)            # score


def _fight(f: dict, beside: str | None, notes: list) -> A.Fight:
    enemy = enemy_text(f["enemy"])
    enemy, etype = (enemy["roll"], enemy.get("type")) if isinstance(enemy, dict) else (enemy, None)
    etype = etype or f.get("type") or beside
    etype = etype.strip().lower() if etype else None
    if etype is not None and etype not in ENEMIES and etype != "statue":
        notes.append(StepNote(("fight",), f"unknown enemy '{etype}'", expected="one of " + ", ".join(ENEMIES),
                              suggestion=did_you_mean(etype, ENEMIES)))
    stolen = canonical(f["stolen"]) if f.get("stolen") is not None else None
    if stolen is not None and stolen not in RESOURCES:
        notes.append(StepNote(("fight", "stolen"), f"unknown resource '{f['stolen']}'",
                              suggestion=did_you_mean(f["stolen"], RESOURCES)))
    clover = clover_words(f.get("clover"))
    return A.Fight(f["hero"], enemy, bool(weapon_used(f.get("weapon", False))),
                   clover_die(clover["die"]) if clover else None, clover.get("roll") if clover else None,
                   bool(f.get("shield", False)), etype, stolen, f.get("fury", 0))


def _market(m: dict, notes: list) -> A.Market:
    spend = {canonical(k): v for k, v in (m.get("spend") or {}).items()}
    bad = [k for k in spend if k not in ("chests", "cornucopias")]
    if bad:
        notes.append(StepNote(("market", "spend"), "the market spends chests: spend: {chests: N}"))
    give: tuple = ()
    get: tuple = ()
    trade = trade_words(trade_forms(m.get("trade")))
    if isinstance(trade, dict) and trade and set(trade) <= {"give", "get"}:
        give = _pairs(trade.get("give") or {}, ("market", "trade"), notes)
        get = _pairs(trade.get("get") or {}, ("market", "trade"), notes)
    elif isinstance(trade, dict):
        pairs = _pairs(trade, ("market", "trade"), notes)          # signed: {weapon: -2, shovels: 2}
        give = tuple((k, -v) for k, v in pairs if v < 0)
        get = tuple((k, v) for k, v in pairs if v > 0)
    gain = _pairs(m.get("gain") or {}, ("market", "gain"), notes)
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
    return A.Market(int(spend.get("chests", 0)), gain, give, get, m.get("rate") == "next")


def _pairs(d: dict, path: tuple, notes: list, allowed=RESOURCE_NAMES) -> tuple[tuple[str, int], ...]:
    out = []
    for k, v in d.items():
        k = canonical(k)
        if k not in allowed:
            notes.append(StepNote(path, f"unknown resource '{k}'", expected="one of " + ", ".join(allowed),
                                  suggestion=did_you_mean(k, allowed)))
        out.append((k, int(v)))
    return tuple(out)


# -- action -> step ----------------------------------------------------------------------------
def serialize(action) -> dict | str:
    """A rules action -> its play-log step (the inverse of parse): a bare word where the step
    is one (flee, climb, candy, coin, oracle, lever), else a mapping."""
    t = type(action)
    if t is A.Enter:
        if action.entry is not None:
            return {"entry": _arrow_name(*action.entry)}
        return {"start": cell_name(action.start) if action.start is not None else None}
    if t is A.Move:
        return {"move": cell_name(action.to), "roll": action.roll} if action.roll is not None else \
            {"move": cell_name(action.to)}
    if t is A.Fight:
        f: dict = {"hero": action.hero, "enemy": action.enemy}
        if action.weapon:
            f["weapon"] = True
        if action.clover_die is not None:
            f["clover"] = {"die": action.clover_die, "roll": action.clover_roll}
        if action.shield:
            f["shield"] = True
        if action.enemy_type is not None:
            f["type"] = action.enemy_type
        if action.stolen is not None:
            f["stolen"] = action.stolen
        if action.fury:
            f["fury"] = action.fury
        return {"fight": f}
    if t is A.Collect:
        if action.take is not None or action.roll is not None or action.gain:
            c: dict = {"item": action.item}
            if action.take is not None:
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
        return {"shovel": _arrow_name(action.cell, action.side)}
    if t is A.Circle:
        return {"circle": cell_name(action.to)}
    if t is A.Lever:
        return {"lever": cell_name(action.cell)} if action.cell is not None else "lever"
    if t is A.Oracle:
        return {"oracle": {"words": action.words}} if action.words else "oracle"
    if t is A.Exit:
        out = {"exit": _arrow_name(action.cell, action.side)}
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
        return {"flood": [cell_name(c) for c in action.cells]}
    if t is A.Sheet:
        return {"sheet": dict(action.values)}
    if t is A.Score:
        return {"score": action.points}
    if t is A.Flee:
        return "flee"
    if t is A.Climb:
        return "climb"
    if t is A.Candy:
        return "candy"
    raise ValueError(f"no play-log step for {action!r}")


def _arrow_name(cell, side) -> str:
    return f"{cell_name(cell)}:{side}"


def describe(action) -> str:
    """A short human text for an action (status listings)."""
    if isinstance(action, A.Move):
        return f"move {cell_name(action.to)}"
    if isinstance(action, A.Enter):
        if action.entry:
            return f"enter {_arrow_name(*action.entry)}"
        return "enter" + (f" {cell_name(action.start)}" if action.start else "")
    if isinstance(action, A.Shovel):
        return f"shovel {_arrow_name(action.cell, action.side)}"
    if isinstance(action, A.Exit):
        return f"exit {_arrow_name(action.cell, action.side)}"
    if isinstance(action, A.Collect):
        return f"collect {action.item}"
    if isinstance(action, A.Lever):
        return f"lever {cell_name(action.cell)}" if action.cell else "lever"
    if isinstance(action, A.Circle):
        return f"circle {cell_name(action.to)}"
    if isinstance(action, A.Redeem):
        return f"redeem {action.resource}"
    return type(action).__name__.lower()

"""Shuffle Dungeons play-log notation, both ways: the one place where a written action
becomes a typed action (`parse`) and an action becomes a log entry again
(`serialize`), as python-chess has parse_san / san.

Short strings ("move east east", "draw", "shrine", "end turn") or one-verb
mappings ({fight: {monster: goblin, hero-dice: [5, 2], monster-dice: [4]}});
docs/formats-cards.md lists every form.  parse raises ValueError with a readable
message.  serialize writes a documented form, so parse(serialize(a)) == a for
every action.

The tracker's journal adds turn markers ({turn: NAME}, also {hero: NAME}):
parse_step / serialize_step read and write those as BeginTurn too; rolls_left and
with_rolls find and fill the dice a tracker step leaves to sheetgen.
"""
from __future__ import annotations

from ..grid import DIR_NAMES, parse_dir, turn_marker
from .actions import (Action, BeginTurn, Build, Burn, Draw, Eat, Effect, EndTurn, Equip, Fight, LevelUp, Loot, Move,
                      PlaceMonster, Power, Shift, Shrine, Slide, Swap, Trade, Trap, Twist, Ward)
from .tables import ROTATIONS

_VERBS = {
    "move": "move", "go": "move", "trap": "trap", "roll-trap": "trap", "draw": "draw",
    "place-monster": "place-monster", "play-monster": "place-monster", "monster": "place-monster",
    "build": "build", "equip": "equip", "eat": "eat", "snack": "eat", "burn": "burn", "discard": "burn",
    "trade": "trade", "power": "power", "use-power": "power", "shrine": "shrine", "ward": "ward",
    "shift": "shift", "slide": "slide", "swap": "swap", "twist": "twist", "fight": "fight",
    "level-up": "level-up", "loot": "loot", "effect": "gain", "gain": "gain",
    "end-turn": "end-turn", "end": "end-turn", "halt": "end-turn", "pass": "end-turn",
}
_OPTION_WORDS = {"monster"}      # verb aliases that are also option keys
HELP = ("move, trap, draw, place-monster, build, equip, eat, burn, trade, power, shrine, ward, "
        "shift, slide, swap, twist, fight, loot, effect, end turn")
TURN_KEYS = ("turn", "hero")     # a journal's turn marker: {turn: NAME}


def _norm(word) -> str:
    return "-".join(str(word).strip().lower().replace("_", " ").split())


# -- reading ----------------------------------------------------------------------------------
def _dir(v, what):
    d = parse_dir(v)
    if d is None:
        raise ValueError(f"{what}: expected a direction (north, east, south, west), got {v!r}")
    return d


def _int(v, what, lo=None, hi=None):
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{what}: expected a whole number, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ValueError(f"{what}: expected {lo}..{hi}, got {v}")
    return v


def _cell(v, what):
    if isinstance(v, list) and len(v) == 2 and all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        return (v[0], v[1])
    raise ValueError(f"{what}: expected a cell [x, y], got {v!r}")


def _ref(v, what):
    """A room on the table: its card id, or [x, y]."""
    if isinstance(v, list):
        return _cell(v, what)
    if isinstance(v, str) and v:
        return v
    raise ValueError(f"{what}: expected a card id or a cell [x, y], got {v!r}")


def _cards(v, what):
    if isinstance(v, str):
        return (v,)
    if isinstance(v, list) and all(isinstance(c, str) for c in v):
        return tuple(v)
    raise ValueError(f"{what}: expected a card id or a list of card ids, got {v!r}")


def _turns(opts, what):
    if "rotation" in opts:
        r = opts.pop("rotation")
        if r not in ROTATIONS:
            raise ValueError(f"{what}: rotation is 0, 90, 180 or 270 (degrees clockwise), got {r!r}")
        return r // 90
    if "turns" in opts:
        return _int(opts.pop("turns"), f"{what}: turns", 0, 3)
    return None


def parse(raw) -> Action:
    """The written action -> a typed action; ValueError says what is wrong."""
    by = None
    if isinstance(raw, str):
        words = raw.split()
        if not words:
            raise ValueError("empty action")
        head, rest = _norm(words[0]), words[1:]
        if head in ("end", "level", "place", "play", "use") and rest:
            joined = _norm(f"{words[0]} {rest[0]}")
            if joined in _VERBS:
                head, rest = joined, rest[1:]
        rest = [int(w) if w.isdigit() else w for w in rest]     # 'draw 4', 'trap 5'
        arg = (rest[0] if len(rest) == 1 else rest) if rest else None
        if head in ("move", "go") and rest:
            arg = rest
    elif isinstance(raw, dict) and raw:
        verbs = [k for k in raw if _norm(k) in _VERBS]
        if len(verbs) > 1:      # {loot: 1, monster: orc}: 'monster' is the option there, not place-monster
            verbs = [k for k in verbs if _norm(k) not in _OPTION_WORDS] or verbs
        if len(verbs) != 1:
            raise ValueError(f"an action mapping needs exactly one verb ({HELP})")
        head = _norm(verbs[0])
        arg = raw[verbs[0]]
        extra = {_norm(k): v for k, v in raw.items() if k != verbs[0]}
        by = extra.pop("by", None)
        extra.pop("note", None)
        if extra:
            if isinstance(arg, dict):
                arg = {**arg, **extra}
            elif arg is None:
                arg = extra
            else:
                key = {"move": "dirs", "draw": "cards", "equip": "item", "eat": "snack", "burn": "cards",
                       "power": "card", "trap": "roll", "loot": "cards"}.get(_VERBS.get(head, ""), "value")
                arg = {key: arg, **extra}
    else:
        raise ValueError("an action is a string such as 'move east' or a mapping such as {move: east}")
    verb = _VERBS.get(head)
    if verb is None:
        from difflib import get_close_matches
        near = get_close_matches(head, list(_VERBS), n=1)
        raise ValueError(f"unknown action '{head}'" + (f"; did you mean '{near[0]}'?" if near else "")
                         + f" (actions: {HELP})")
    if isinstance(raw, str) and verb in _POSITIONAL and arg is not None:
        arg = _positional(verb, arg)
    opts = {_ALIASES.get(_norm(k).replace("-", "_"), _norm(k).replace("-", "_")): v
            for k, v in arg.items()} if isinstance(arg, dict) else {}
    if isinstance(arg, dict) and "by" in opts:
        by = opts.pop("by")
    kind, args = _ARGS[verb](arg, opts)
    if opts:
        raise ValueError(f"{verb}: unknown option(s) {', '.join(sorted(opts))}")
    return kind(**args, by=by if by is None else str(by))


# String forms of the mapping-only actions: 'build bend north 90' = {build: {room: bend, path: north, rotation: 90}}
_POSITIONAL = {"build": ("room", "path", "rotation"), "place-monster": ("monster", "path"),
               "twist": ("room", "rotation"), "shift": ("room", "dir"), "slide": ("room", "dir"),
               "swap": ("rooms", "rooms"), "fight": ("monster",)}


def _positional(verb, arg):
    words = arg if isinstance(arg, list) else [arg]
    keys = _POSITIONAL[verb]
    if len(words) > len(keys):
        raise ValueError(f"{verb}: too many words; write {verb} " + " ".join(k.upper() for k in keys)
                         + " or the mapping form")
    if verb == "swap":
        return {"rooms": [str(w) for w in words]}
    return dict(zip(keys, words))


_ALIASES = {"hero_roll": "hero_dice", "hero_rolls": "hero_dice", "monster_roll": "monster_dice",
            "monster_rolls": "monster_dice", "direction": "dir", "assistants": "assist", "helpers": "assist",
            "hero_powers": "hero_bonus", "monster_powers": "monster_bonus", "levelup": "level_up",
            "level": "level_up", "rotate": "rotation"}


def _pick(arg, opts, key):
    """The main argument: given plainly, or under key in the mapping."""
    if isinstance(arg, dict):
        return opts.pop(key, None)
    return arg


def _a_move(arg, opts):
    v = _pick(arg, opts, "dirs")
    if v is None and isinstance(arg, dict):
        v = opts.pop("path", None) or opts.pop("dir", None)
    if isinstance(v, str):
        v = v.replace(",", " ").split()
    if not isinstance(v, list) or not v:
        raise ValueError(f"move: expected a direction or a list of directions, got {v!r}")
    out = {"dirs": tuple(_dir(d, "move") for d in v)}
    if "roll" in opts:
        out["roll"] = _int(opts.pop("roll"), "move: roll", 1, 6)
    for k in ("result",):
        if k in opts:
            out[k] = _result(opts.pop(k))
    if "armor" in opts:
        out["armor"] = _int(opts.pop("armor"), "move: armor", 0)
    return Move, out


def _result(v):
    r = _norm(v)
    if r not in ("reward", "penalty"):
        raise ValueError(f"trap result: expected reward or penalty, got {v!r}")
    return r


def _a_trap(arg, opts):
    roll = _pick(arg, opts, "roll")
    out = {"roll": _int(roll, "trap: roll", 1, 6)}
    if "result" in opts:
        out["result"] = _result(opts.pop("result"))
    if "armor" in opts:
        out["armor"] = _int(opts.pop("armor"), "trap: armor", 0)
    if "loot" in opts:
        out["loot"] = _cards(opts.pop("loot"), "trap: loot")
    return Trap, out


def _a_draw(arg, opts):
    v = _pick(arg, opts, "cards")
    if isinstance(arg, dict) and v is None and "count" in opts:
        v = opts.pop("count")
    if v is None:
        return Draw, {}
    if isinstance(v, int) and not isinstance(v, bool):
        return Draw, {"count": _int(v, "draw", 0)}
    return Draw, {"cards": _cards(v, "draw")}


def _a_place_monster(arg, opts):
    if not isinstance(arg, dict):
        raise ValueError("place-monster: expected {monster: ID, path: DIR}")
    return PlaceMonster, {"monster": str(opts.pop("monster", None)),
                          "path": _dir(opts.pop("path", opts.pop("dir", None)), "place-monster: path")}


def _a_build(arg, opts):
    if not isinstance(arg, dict):
        raise ValueError("build: expected {room: ID, path: DIR} or {room: ID, at: [x, y]} (rotation optional)")
    out = {"room": str(opts.pop("room", None))}
    if "at" in opts:
        out["at"] = _cell(opts.pop("at"), "build: at")
    elif "path" in opts or "dir" in opts:
        out["path"] = _dir(opts.pop("path", None) or opts.pop("dir", None), "build: path")
    else:
        raise ValueError("build: give the open path (path: DIR) or the cell (at: [x, y])")
    t = _turns(opts, "build")
    out["turns"] = t or 0
    return Build, out


def _a_one(kind, key):
    def parse_one(arg, opts):
        v = _pick(arg, opts, key)
        if not isinstance(v, str) or not v:
            raise ValueError(f"expected a card id for {key}, got {v!r}")
        out = {key: v}
        if key == "snack" and "target" in opts:
            out["target"] = str(opts.pop("target"))
        return kind, out
    return parse_one


def _a_burn(arg, opts):
    if isinstance(arg, dict) and "top" in opts:
        # {burn: {top: 1}}: the top card(s) of the dungeon pile (a monster's power: monster: ID)
        out = {"top": _int(opts.pop("top"), "burn: top", 1)}
        if "monster" in opts:
            out["monster"] = str(opts.pop("monster"))
        return Burn, out
    return Burn, {"cards": _cards(_pick(arg, opts, "cards"), "burn")}


def _a_trade(arg, opts):
    if not isinstance(arg, dict):
        raise ValueError("trade: expected {with: HERO, give: [...], take: [...]}")
    out = {"partner": str(opts.pop("with", None)), "give": _cards(opts.pop("give", []), "trade: give"),
           "take": _cards(opts.pop("take", []), "trade: take")}
    if "agreed" in opts:
        out["agreed"] = bool(opts.pop("agreed"))
    return Trade, out


def _a_none(kind):
    return lambda arg, opts: (kind, {})


def _room_op(verb):
    kind = {"shift": Shift, "slide": Slide, "swap": Swap, "twist": Twist}[verb]

    def parse_op(arg, opts):
        if not isinstance(arg, dict):
            raise ValueError(f"{verb}: expected a mapping, e.g. {{room: ID, dir: east}}")
        out = {}
        if "via" in opts:
            out["via"] = str(opts.pop("via"))
        if "empty" in opts:
            out["empty"] = bool(opts.pop("empty"))      # the power needs EMPTY ROOMs
        if verb == "swap":
            rooms = opts.pop("rooms", None)
            if not isinstance(rooms, list) or len(rooms) != 2:
                raise ValueError("swap: expected rooms: [A, B] (card ids or cells)")
            out["rooms"] = tuple(_ref(r, "swap") for r in rooms)
            return kind, out
        if verb == "slide" and "hero" in opts:
            out["hero"] = str(opts.pop("hero"))
        else:
            out["room"] = _ref(opts.pop("room", None), verb)
        if verb == "twist":
            t = _turns(opts, "twist")
            if t is None:
                raise ValueError("twist: give the new rotation (0, 90, 180, 270)")
            out["turns"] = t
            return kind, out
        out["dir"] = _dir(opts.pop("dir", None), f"{verb}: dir")
        if "to" in opts:
            out["to"] = _cell(opts.pop("to"), f"{verb}: to")
        return kind, out
    return parse_op


def _a_fight(arg, opts):
    out = {}
    if isinstance(arg, str):
        raise ValueError("fight: expected {monster: ID, hero-dice: [..], monster-dice: [..]}")
    if "monster" in opts:
        out["monster"] = str(opts.pop("monster"))
    if "at" in opts:
        out["at"] = _cell(opts.pop("at"), "fight: at")
    if not out:
        raise ValueError("fight: name the monster (monster: ID) or its cell (at: [x, y])")
    for key in ("hero_dice", "monster_dice"):
        v = opts.pop(key, None)
        if v is None:
            raise ValueError(f"fight: a play log writes down the dice rolled: {{fight: {{monster: "
                             f"{out.get('monster', 'ID')}, hero-dice: [5, 2], monster-dice: [4]}}}} "
                             f"({key.replace('_', '-')} is missing)")
        if not isinstance(v, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
            raise ValueError(f"fight: {key.replace('_', '-')}: expected the dice rolled, e.g. [5, 2], got {v!r}")
        out[key] = tuple(v)
    for key in ("hero_bonus", "monster_bonus", "extra_damage", "damage", "hero_attack", "monster_attack"):
        if key in opts:
            out[key] = _int(opts.pop(key), f"fight: {key.replace('_', '-')}")
    if "winner" in opts or "result" in opts:
        raw = opts.pop("winner", None) or opts.pop("result", None)
        w = {"win": "hero", "won": "hero", "hero": "hero", "loss": "monster", "lose": "monster", "lost": "monster",
             "monster": "monster"}.get(_norm(raw))
        if w is None:
            raise ValueError(f"fight: winner is hero or monster, got {raw!r}")
        out["winner"] = w
    if "level_up" in opts:
        out["level_up"] = str(opts.pop("level_up"))
    if "assist" in opts:
        v = opts.pop("assist")
        out["assist"] = tuple(sorted(str(x) for x in (v if isinstance(v, list) else [v])))
    if "loot" in opts:
        out["loot"] = _cards(opts.pop("loot"), "fight: loot")
    for key in ("red", "armor"):
        if key in opts:
            v = opts.pop(key)
            if not isinstance(v, dict):
                raise ValueError(f"fight: {key}: expected {{HERO: amount}}, got {v!r}")
            out[key] = tuple(sorted((str(k), _int(n, f"fight: {key}", 0)) for k, n in v.items()))
    return Fight, out


def _a_loot(arg, opts):
    out = {}
    if isinstance(arg, dict) and "monster" in opts:
        out["monster"] = str(opts.pop("monster"))     # a monster loots into its loot pile
    v = _pick(arg, opts, "cards")
    if v is None and isinstance(arg, dict):
        v = opts.pop("count", None)
    if v is None:
        out["count"] = 1
    elif isinstance(v, int) and not isinstance(v, bool):
        out["count"] = v
    else:
        out["cards"] = _cards(v, "loot")
    return Loot, out


def _a_level_up(arg, opts):
    v = _pick(arg, opts, "hero")
    if v is None:
        return LevelUp, {}
    if not isinstance(v, str) or not v:
        raise ValueError(f"level-up: expected a hero's name, got {v!r}")
    return LevelUp, {"hero": v}


def _a_effect(arg, opts):
    out = {}
    for key in ("damage", "heal", "armor"):
        if key in opts:
            out[key] = _int(opts.pop(key), f"effect: {key}", 0)
    for key in ("target", "hero", "heroes", "targets"):      # a card effect on other heroes (a Boss's flip power)
        if key in opts:
            v = opts.pop(key)
            out["targets"] = tuple(str(x) for x in (v if isinstance(v, list) else [v]))
    return Effect, out


_ARGS = {
    "move": _a_move, "trap": _a_trap, "draw": _a_draw, "place-monster": _a_place_monster, "build": _a_build,
    "equip": _a_one(Equip, "item"), "eat": _a_one(Eat, "snack"), "burn": _a_burn, "trade": _a_trade,
    "power": _a_one(Power, "card"), "shrine": _a_none(Shrine), "ward": _a_none(Ward), "shift": _room_op("shift"),
    "slide": _room_op("slide"), "swap": _room_op("swap"), "twist": _room_op("twist"), "fight": _a_fight,
    "level-up": _a_level_up, "loot": _a_loot, "gain": _a_effect, "end-turn": _a_none(EndTurn),
}


def parse_step(step) -> Action:
    """A tracker journal step: a turn marker (BeginTurn) or an action."""
    who = turn_marker(step, TURN_KEYS)
    return BeginTurn(who) if who is not None else parse(step)


def note_of(raw) -> str | None:
    """The remark written with an action ({draw: 2, note: ...}), if any."""
    return raw.get("note") if isinstance(raw, dict) else None


# -- dice a tracker step leaves to sheetgen -----------------------------------------------------
def rolls_left(step) -> tuple[str, object] | None:
    """What a tracker step leaves sheetgen to roll: ('fight', the monster: card id or cell)
    when it names no dice, ('trap', None) for a trap without its roll, else None."""
    if not isinstance(step, dict) or len(step) != 1:
        return None
    verb, arg = next(iter(step.items()))
    if verb == "fight" and isinstance(arg, dict):
        return "fight", arg.get("monster") if arg.get("at") is None else tuple(arg["at"])
    if verb == "trap" and (arg is None or (isinstance(arg, dict) and arg.get("roll") is None)):
        return "trap", None
    return None


def with_rolls(step, hero_dice=None, monster_dice=None, roll=None) -> dict:
    """The step of rolls_left with the dice filled in: hero_dice() and monster_dice() give
    a fight's dice and are called only for the dice the step leaves out; roll is a trap's."""
    verb, arg = next(iter(step.items()))
    if verb == "fight":
        arg = dict(arg)
        if arg.get("hero-dice") is None:
            arg["hero-dice"] = hero_dice()
        if arg.get("monster-dice") is None:
            arg["monster-dice"] = monster_dice()
        return {"fight": arg}
    return {"trap": dict(arg or {}, roll=roll)}


# -- writing ----------------------------------------------------------------------------------
def _dir_name(d: str) -> str:
    return DIR_NAMES[d]


def _ref_entry(ref):
    return list(ref) if isinstance(ref, tuple) else ref


def _options(a, *names, defaults=None) -> dict:
    """The written options of a for the fields names (dashed), leaving out defaults."""
    out = {}
    for name in names:
        value = getattr(a, name)
        if value is None or (defaults and name in defaults and value == defaults[name]):
            continue
        out[name.replace("_", "-")] = value
    return out


def serialize(action: Action, note: str | None = None):
    """The log entry for action: a string for the simple forms, else a one-verb mapping
    (by: and note: make it a mapping)."""
    entry = _entry(action)
    extra = {}
    if getattr(action, "by", None) is not None:
        extra["by"] = action.by
    if note is not None:
        extra["note"] = note
    if not extra:
        return entry
    if isinstance(entry, str):
        entry = _as_mapping(action, entry)
    return {**entry, **extra}


def _as_mapping(a: Action, entry: str) -> dict:
    if isinstance(a, Move):
        return {"move": [DIR_NAMES[d] for d in a.dirs]}
    return {{"end turn": "end-turn"}.get(entry, entry): None}


def _entry(a: Action):
    if isinstance(a, Move):
        options = _options(a, "roll", "result", "armor", defaults={"armor": 0})
        dirs = [_dir_name(d) for d in a.dirs]
        return {"move": dirs, **options} if options else "move " + " ".join(dirs)
    if isinstance(a, Trap):
        options = _options(a, "roll", "result", "armor", defaults={"armor": 0})
        if a.loot is not None:
            options["loot"] = list(a.loot)
        return {"trap": options}
    if isinstance(a, Draw):
        if a.cards is not None:
            return {"draw": list(a.cards)}
        return "draw" if a.count is None else {"draw": a.count}
    if isinstance(a, PlaceMonster):
        return {"place-monster": {"monster": a.monster, "path": _dir_name(a.path)}}
    if isinstance(a, Build):
        where = {"at": list(a.at)} if a.at is not None else {"path": _dir_name(a.path)}
        return {"build": {"room": a.room, **where, **({"rotation": a.turns * 90} if a.turns else {})}}
    if isinstance(a, Equip):
        return {"equip": a.item}
    if isinstance(a, Eat):
        return {"eat": a.snack} if a.target is None else {"eat": a.snack, "target": a.target}
    if isinstance(a, Burn):
        if a.top:
            return {"burn": {"top": a.top, **({"monster": a.monster} if a.monster is not None else {})}}
        return {"burn": list(a.cards)}
    if isinstance(a, Trade):
        out = {"with": a.partner, "give": list(a.give), "take": list(a.take)}
        return {"trade": out if a.agreed else {**out, "agreed": False}}
    if isinstance(a, Power):
        return {"power": a.card}
    if isinstance(a, (Shrine, Ward)):
        return a.verb
    if isinstance(a, (Shift, Slide, Swap, Twist)):
        return {a.verb: _room_op_entry(a)}
    if isinstance(a, Fight):
        return {"fight": _fight_entry(a)}
    if isinstance(a, LevelUp):
        return "level-up" if a.hero is None else {"level-up": a.hero}
    if isinstance(a, Loot):
        what = list(a.cards) if a.cards is not None else a.count
        return {"loot": what} if a.monster is None else {"loot": what, "monster": a.monster}
    if isinstance(a, Effect):
        out = _options(a, "damage", "heal", "armor", defaults={"damage": 0, "heal": 0, "armor": 0})
        if a.targets is not None:
            out["target"] = list(a.targets)
        return {"effect": out}
    if isinstance(a, EndTurn):
        return "end turn"
    if isinstance(a, BeginTurn):
        raise ValueError("a turn's start is the log's turn entry (hero: NAME), not an action: use serialize_step")
    raise TypeError(f"not a Shuffle Dungeons action: {a!r}")


def _room_op_entry(a) -> dict:
    out: dict = {}
    if isinstance(a, Swap):
        out["rooms"] = [_ref_entry(r) for r in a.rooms]
    elif isinstance(a, Slide) and a.hero is not None:
        out["hero"] = a.hero
    else:
        out["room"] = _ref_entry(a.room)
    if isinstance(a, Twist):
        out["rotation"] = a.turns * 90
    elif isinstance(a, (Shift, Slide)):
        out["dir"] = _dir_name(a.dir)
        if a.to is not None:
            out["to"] = list(a.to)
    if a.via is not None:
        out["via"] = a.via
    if a.empty:
        out["empty"] = True
    return out


def _fight_entry(a: Fight) -> dict:
    out: dict = {}
    if a.monster is not None:
        out["monster"] = a.monster
    if a.at is not None:
        out["at"] = list(a.at)
    out["hero-dice"], out["monster-dice"] = list(a.hero_dice), list(a.monster_dice)
    out.update(_options(a, "hero_bonus", "monster_bonus", "extra_damage", "damage", "hero_attack",
                        "monster_attack", "winner", "level_up",
                        defaults={"hero_bonus": 0, "monster_bonus": 0, "extra_damage": 0}))
    if a.assist is not None:
        out["assist"] = list(a.assist)
    if a.loot is not None:
        out["loot"] = list(a.loot)
    if a.red:
        out["red"] = dict(a.red)
    if a.armor:
        out["armor"] = dict(a.armor)
    return out


def serialize_step(action: Action, note: str | None = None):
    """A tracker journal step: a turn marker for BeginTurn, else the log entry."""
    if isinstance(action, BeginTurn):
        return {"turn": action.hero}
    return serialize(action, note)

"""Shuffle Dungeons play-log actions in their written form -> engine Actions.

Short strings ("move east east", "draw", "shrine", "end turn") or one-verb
mappings ({fight: {monster: goblin, hero-dice: [5, 2], monster-dice: [4]}}).
parse_action raises ValueError with a readable message.
"""
from __future__ import annotations

from .rules import Action, parse_dir

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


def _norm(word) -> str:
    return "-".join(str(word).strip().lower().replace("_", " ").split())


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
        if r not in (0, 90, 180, 270):
            raise ValueError(f"{what}: rotation is 0, 90, 180 or 270 (degrees clockwise), got {r!r}")
        return r // 90
    if "turns" in opts:
        return _int(opts.pop("turns"), f"{what}: turns", 0, 3)
    return None


def parse_action(raw) -> Action:
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
    args = _ARGS[verb](arg, opts)
    if opts:
        raise ValueError(f"{verb}: unknown option(s) {', '.join(sorted(opts))}")
    return Action(verb, tuple(sorted(args.items())), by)


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
    return out


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
    return out


def _a_draw(arg, opts):
    v = _pick(arg, opts, "cards")
    if isinstance(arg, dict) and v is None and "count" in opts:
        v = opts.pop("count")
    if v is None:
        return {}
    if isinstance(v, int) and not isinstance(v, bool):
        return {"count": _int(v, "draw", 0)}
    return {"cards": _cards(v, "draw")}


def _a_place_monster(arg, opts):
    if not isinstance(arg, dict):
        raise ValueError("place-monster: expected {monster: ID, path: DIR}")
    return {"monster": str(opts.pop("monster", None)), "path": _dir(opts.pop("path", opts.pop("dir", None)),
                                                                     "place-monster: path")}


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
    return out


def _a_one(key):
    def parse(arg, opts):
        v = _pick(arg, opts, key)
        if not isinstance(v, str) or not v:
            raise ValueError(f"expected a card id for {key}, got {v!r}")
        out = {key: v}
        if key == "snack" and "target" in opts:
            out["target"] = str(opts.pop("target"))
        return out
    return parse


def _a_burn(arg, opts):
    return {"cards": _cards(_pick(arg, opts, "cards"), "burn")}


def _a_trade(arg, opts):
    if not isinstance(arg, dict):
        raise ValueError("trade: expected {with: HERO, give: [...], take: [...]}")
    out = {"with": str(opts.pop("with", None)), "give": _cards(opts.pop("give", []), "trade: give"),
           "take": _cards(opts.pop("take", []), "trade: take")}
    if "agreed" in opts:
        out["agreed"] = bool(opts.pop("agreed"))
    return out


def _a_none(arg, opts):
    return {}


def _room_op(verb):
    def parse(arg, opts):
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
            return out
        if verb == "slide" and "hero" in opts:
            out["hero"] = str(opts.pop("hero"))
        else:
            out["room"] = _ref(opts.pop("room", None), verb)
        if verb == "twist":
            t = _turns(opts, "twist")
            if t is None:
                raise ValueError("twist: give the new rotation (0, 90, 180, 270)")
            out["turns"] = t
            return out
        out["dir"] = _dir(opts.pop("dir", None), f"{verb}: dir")
        if "to" in opts:
            out["to"] = _cell(opts.pop("to"), f"{verb}: to")
        return out
    return parse


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
    for key, name in (("red", "red"), ("armor", "armor_by")):
        if key in opts:
            v = opts.pop(key)
            if not isinstance(v, dict):
                raise ValueError(f"fight: {key}: expected {{HERO: amount}}, got {v!r}")
            out[name] = tuple(sorted((str(k), _int(n, f"fight: {key}", 0)) for k, n in v.items()))
    return out


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
    return out


def _a_level_up(arg, opts):
    v = _pick(arg, opts, "hero")
    if v is None:
        return {}
    if not isinstance(v, str) or not v:
        raise ValueError(f"level-up: expected a hero's name, got {v!r}")
    return {"hero": v}


def _a_gain(arg, opts):
    out = {}
    for key in ("damage", "heal", "armor"):
        if key in opts:
            out[key] = _int(opts.pop(key), f"effect: {key}", 0)
    for key in ("target", "hero", "heroes", "targets"):      # a card effect on other heroes (a Boss's flip power)
        if key in opts:
            v = opts.pop(key)
            out["targets"] = tuple(str(x) for x in (v if isinstance(v, list) else [v]))
    return out


_ARGS = {
    "move": _a_move, "trap": _a_trap, "draw": _a_draw, "place-monster": _a_place_monster, "build": _a_build,
    "equip": _a_one("item"), "eat": _a_one("snack"), "burn": _a_burn, "trade": _a_trade,
    "power": _a_one("card"), "shrine": _a_none, "ward": _a_none, "shift": _room_op("shift"),
    "slide": _room_op("slide"), "swap": _room_op("swap"), "twist": _room_op("twist"), "fight": _a_fight,
    "level-up": _a_level_up, "loot": _a_loot, "gain": _a_gain, "end-turn": _a_none,
}

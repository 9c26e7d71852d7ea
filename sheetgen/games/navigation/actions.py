"""Play-log actions in their written form -> engine Actions.

An action is a short string ("move east", "key", "resolve", "end turn") or a
one-verb mapping with options ({move: east, use: key}, {resolve: {function: forge, xp: 2}}).
parse_action raises ValueError with a readable message for anything else.
"""
from __future__ import annotations

from .rules import Action, item_key, parse_dir

_VERB_ALIASES = {
    "move": "move", "go": "move", "step": "move",
    "move-to": "move-to", "moveto": "move-to", "enter": "move-to",
    "wrap": "wrap", "wrap-travel": "wrap", "travel": "wrap",
    "mirror": "mirror", "magic-mirror": "mirror", "teleport": "mirror",
    "warp": "warp",
    "key": "key", "use-key": "key", "bomb": "bomb", "use-bomb": "bomb",
    "sacrifice": "sacrifice", "sacrifice-hp": "sacrifice",
    "resolve": "resolve", "place-token": "place-token", "token": "place-token",
    "unresolve": "unresolve",
    "gain": "gain", "lose": "lose",
    "end-turn": "end-turn", "end": "end-turn", "pass": "end-turn",
}
_OPTION_KEYS = {"use", "xp", "gain", "lose", "function", "dir", "room", "to", "note"}
_RESOURCE_ALIASES = {"hp": "hp", "health": "hp", "key": "keys", "keys": "keys", "bomb": "bombs",
                     "bombs": "bombs", "xp": "xp", "item": "item", "items": "item"}
VERBS_HELP = ("move DIR, move-to ROOM, wrap DIR, mirror ROOM, warp ROOM, key, bomb, sacrifice: hp, "
              "resolve [FUNCTION], place-token [FUNCTION|elsewhere], unresolve ROOM, gain {...}, lose {...}, end turn")


def _norm(word) -> str:
    return "-".join(str(word).strip().lower().replace("_", " ").split())


def _gains(spec, sign: int) -> list[tuple[str, object]]:
    if spec is None:
        return []
    if not isinstance(spec, dict):
        raise ValueError(f"expected a mapping such as {{keys: 1, xp: 2, item: Speed Boots}}, got {spec!r}")
    out: list[tuple[str, object]] = []
    for key, value in spec.items():
        name = _RESOURCE_ALIASES.get(_norm(key))
        if name is None:
            raise ValueError(f"unknown resource '{key}' (hp, keys, bombs, xp, item)")
        if name == "item":
            values = value if isinstance(value, list) else [value]
            out.extend(("item" if sign > 0 else "lose-item", item_key(v)) for v in values)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{key}: expected a whole number, got {value!r}")
            out.append((name, sign * value))
    return out


def parse_action(raw) -> Action:
    """The written action -> Action; ValueError says what is wrong."""
    options: dict = {}
    if isinstance(raw, str):
        words = raw.strip().split(None, 1)
        if not words:
            raise ValueError("empty action")
        head = _norm(words[0])
        arg = words[1].strip() if len(words) > 1 else None
        if head in ("end", "place", "use", "sacrifice", "wrap", "magic") and arg:
            joined = _norm(f"{words[0]} {arg.split()[0]}")
            if joined in _VERB_ALIASES:
                head = joined
                rest = arg.split(None, 1)
                arg = rest[1] if len(rest) > 1 else None
    elif isinstance(raw, dict) and raw:
        verbs = [k for k in raw if _norm(k) in _VERB_ALIASES]
        if len(verbs) != 1:
            raise ValueError("an action mapping needs exactly one verb (" + VERBS_HELP + ")")
        head = _norm(verbs[0])
        arg = raw[verbs[0]]
        for k, v in raw.items():
            if k == verbs[0]:
                continue
            if _norm(k) not in _OPTION_KEYS:
                raise ValueError(f"unknown option '{k}' (options: {', '.join(sorted(_OPTION_KEYS))})")
            options[_norm(k)] = v
        if isinstance(arg, dict):
            if head in ("gain", "lose"):
                pass
            else:
                for k, v in arg.items():
                    if _norm(k) not in _OPTION_KEYS:
                        raise ValueError(f"unknown option '{k}' (options: {', '.join(sorted(_OPTION_KEYS))})")
                    options[_norm(k)] = v
                if head in ("move", "go", "step") and "dir" not in options and ("to" in options or "room" in options):
                    head = "move-to"                    # {move: {to: ROOM}} names the room
                arg = options.pop("dir", None) or options.pop("room", None) or options.pop("to", None) \
                    or options.pop("function", None)
    else:
        raise ValueError("an action is a string such as 'move east' or a mapping such as {move: east}")
    if head in ("move", "go") and isinstance(arg, str) and arg.lower().startswith("to "):
        head, arg = "move-to", arg[3:].strip()          # 'move to ROOM'
    verb = _VERB_ALIASES.get(head)
    if verb is None:
        from difflib import get_close_matches
        near = get_close_matches(head, list(_VERB_ALIASES), n=1)
        raise ValueError(f"unknown action '{head}'" + (f"; did you mean '{near[0]}'?" if near else "")
                         + f" (actions: {VERBS_HELP})")
    return _build(verb, arg, options)


def _build(verb: str, arg, options: dict) -> Action:
    use = options.get("use")
    if use is not None:
        use = {"key": "key", "bomb": "bomb", "hp": "hp", "health": "hp", "sacrifice": "hp"}.get(_norm(use))
        if use is None:
            raise ValueError(f"use: expected key, bomb or hp, got {options['use']!r}")
    xp = options.get("xp")
    if xp is not None and (isinstance(xp, bool) or not isinstance(xp, int)):
        raise ValueError(f"xp: expected a whole number, got {xp!r}")
    gains = _gains(options.get("gain"), 1) + _gains(options.get("lose"), -1)
    if verb in ("move", "wrap"):
        d = parse_dir(arg) if arg is not None else None
        if d is None:
            raise ValueError(f"{verb}: expected a direction (north, east, south, west), got {arg!r}")
        return Action(verb, d, use=use)
    if verb in ("move-to", "mirror", "warp", "unresolve"):
        if arg is None or isinstance(arg, (dict, list)):
            raise ValueError(f"{verb}: expected a room id, got {arg!r}")
        return Action(verb, str(arg), use=use)
    if verb == "sacrifice":
        if arg is not None and _norm(arg) not in ("hp", "1-hp", "health", "1"):
            raise ValueError(f"sacrifice: only HP can be sacrificed (sacrifice: hp), got {arg!r}")
        return Action("sacrifice")
    if verb in ("key", "bomb", "end-turn"):
        return Action(verb)
    if verb in ("resolve", "place-token"):
        return Action(verb, None if arg is None else str(arg), xp=xp, gains=tuple(gains))
    # gain / lose
    return Action(verb, gains=tuple(_gains(arg, 1 if verb == "gain" else -1)))

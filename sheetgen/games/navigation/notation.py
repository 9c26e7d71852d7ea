"""Card-grid navigation play-log notation, both ways: the one place where a written
action becomes a typed action (`parse`) and an action becomes a log entry again
(`serialize`), as python-chess has parse_san / san.

An action is a short string ("move east", "key", "resolve", "end turn") or a
one-verb mapping with options ({move: east, use: key}, {resolve: {function: forge, xp: 2}});
docs/formats-cards.md lists every form.  parse raises ValueError with a readable
message for anything else.  serialize writes the shortest documented form, so
parse(serialize(a)) == a for every action.

The tracker's journal adds turn markers ({turn: NAME}, also {player: NAME}):
parse_step / serialize_step read and write those as BeginTurn too.
"""
from __future__ import annotations

from ..grid import DIR_NAMES, parse_dir, turn_marker
from .actions import (Action, BeginTurn, EndTurn, Gain, Lose, Mirror, Move, MoveTo, Pay, PlaceToken, Resolve,
                      Unresolve, Warp, Wrap)
from .tables import item_key

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
TURN_KEYS = ("turn", "player")          # a journal's turn marker: {turn: NAME}


def _norm(word) -> str:
    return "-".join(str(word).strip().lower().replace("_", " ").split())


# -- reading ----------------------------------------------------------------------------------
def _changes(spec) -> tuple:
    """{keys: 1, xp: 2, item: Speed Boots} -> (('keys', 1), ('xp', 2), ('item', 'speed-boots'))."""
    if spec is None:
        return ()
    if not isinstance(spec, dict):
        raise ValueError(f"expected a mapping such as {{keys: 1, xp: 2, item: Speed Boots}}, got {spec!r}")
    out: list[tuple[str, object]] = []
    for key, value in spec.items():
        name = _RESOURCE_ALIASES.get(_norm(key))
        if name is None:
            raise ValueError(f"unknown resource '{key}' (hp, keys, bombs, xp, item)")
        if name == "item":
            values = value if isinstance(value, list) else [value]
            out.extend(("item", item_key(v)) for v in values)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{key}: expected a whole number, got {value!r}")
            out.append((name, value))
    return tuple(out)


def parse(raw) -> Action:
    """The written action -> a typed action; ValueError says what is wrong."""
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
        if len(verbs) > 1:
            # {resolve: rat, lose: {hp: 1}}: gain/lose beside another verb are its options
            others = [k for k in verbs if not (_norm(k) in ("gain", "lose") and isinstance(raw[k], dict))]
            if len(others) == 1:
                verbs = others
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
                if _VERB_ALIASES.get(head) in ("resolve", "place-token"):
                    # {resolve: {function: X}} always names the function, {resolve: {room: X}} the card
                    given = [k for k in arg if _norm(k) in ("function", "room") and arg[k] is not None]
                    if len(given) > 1:
                        raise ValueError(f"{head}: name the function or the room, not both")
                    if given:
                        options["named"] = _norm(given[0])
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
    gain, lose = _changes(options.get("gain")), _changes(options.get("lose"))
    if verb in ("move", "wrap"):
        d = parse_dir(arg) if arg is not None else None
        if d is None:
            raise ValueError(f"{verb}: expected a direction (north, east, south, west), got {arg!r}")
        return Move(d, use) if verb == "move" else Wrap(d, use)
    if verb in ("move-to", "mirror", "warp", "unresolve"):
        if arg is None or isinstance(arg, (dict, list)):
            raise ValueError(f"{verb}: expected a room id, got {arg!r}")
        room = str(arg)
        return MoveTo(room, use) if verb == "move-to" else {"mirror": Mirror, "warp": Warp,
                                                            "unresolve": Unresolve}[verb](room)
    if verb == "sacrifice":
        if arg is not None and _norm(arg) not in ("hp", "1-hp", "health", "1"):
            raise ValueError(f"sacrifice: only HP can be sacrificed (sacrifice: hp), got {arg!r}")
        return Pay("hp")
    if verb in ("key", "bomb"):
        return Pay(verb)
    if verb == "end-turn":
        return EndTurn()
    if verb in ("resolve", "place-token"):
        kind = Resolve if verb == "resolve" else PlaceToken
        return kind(None if arg is None else str(arg), xp, gain, lose, options.get("named"))
    if verb == "gain":
        return Gain(_changes(arg))
    return Lose(_changes(arg))


def parse_step(step) -> Action:
    """A tracker journal step: a turn marker (BeginTurn) or an action."""
    who = turn_marker(step, TURN_KEYS)
    return BeginTurn(who) if who is not None else parse(step)


def note_of(raw) -> str | None:
    """The remark written with an action ({move: east, note: ...} or inside its mapping), if any."""
    if not isinstance(raw, dict):
        return None
    if "note" in raw:
        return raw["note"]
    inner = next((v for k, v in raw.items() if _norm(k) in _VERB_ALIASES), None)
    return inner.get("note") if isinstance(inner, dict) else None


# -- writing ----------------------------------------------------------------------------------
def _written_changes(changes) -> dict:
    """(('keys', 1), ('item', 'speed-boots'), ('item', 'lantern')) -> {keys: 1, item: [speed-boots, lantern]}."""
    out: dict = {}
    for name, value in changes:
        if name == "item":
            had = out.get("item")
            out["item"] = value if had is None else (had if isinstance(had, list) else [had]) + [value]
        else:
            out[name] = value
    return out


def serialize(action: Action, note: str | None = None):
    """The log entry for action: a string where the docs give one, else a one-verb mapping
    (note: a remark kept with it, which makes it a mapping)."""
    entry = _entry(action)
    if note is None:
        return entry
    if isinstance(entry, str):                  # 'move east' -> {move: east}, 'end turn' -> {end-turn: null}
        verb, _, arg = entry.partition(" ")
        entry = {action.verb: arg or None}
    return {**entry, "note": note}


def _entry(a: Action):
    if isinstance(a, (Move, Wrap)):
        if a.use is None:
            return f"{a.verb} {DIR_NAMES[a.dir]}"
        return {a.verb: DIR_NAMES[a.dir], "use": a.use}
    if isinstance(a, MoveTo):
        return {"move-to": a.room} if a.use is None else {"move-to": a.room, "use": a.use}
    if isinstance(a, (Mirror, Warp, Unresolve)):
        return {a.verb: a.room}
    if isinstance(a, Pay):
        return {"sacrifice": "hp"} if a.tool == "hp" else a.tool
    if isinstance(a, (Resolve, PlaceToken)):
        options: dict = {}
        if a.function is not None and a.named is not None:
            options[a.named] = a.function           # named in the mapping: always that one
        if a.xp is not None:
            options["xp"] = a.xp
        if a.gain:
            options["gain"] = _written_changes(a.gain)
        if a.lose:
            options["lose"] = _written_changes(a.lose)
        if a.named is None:
            # a bare name (what `resolve X` writes): beside the verb, the options next to it
            if a.function is None:
                return {a.verb: options} if options else a.verb
            return {a.verb: a.function, **options}
        return {a.verb: options}
    if isinstance(a, (Gain, Lose)):
        return {a.verb: _written_changes(a.changes)}
    if isinstance(a, EndTurn):
        return "end turn"
    if isinstance(a, BeginTurn):
        raise ValueError("a turn's start is the log's turn entry (player: NAME), not an action: use serialize_step")
    raise TypeError(f"not a navigation action: {a!r}")


def serialize_step(action: Action, note: str | None = None):
    """A tracker journal step: a turn marker for BeginTurn, else the log entry."""
    if isinstance(action, BeginTurn):
        return {"turn": action.player}
    return serialize(action, note)

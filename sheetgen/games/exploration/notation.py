"""The exploration play-log notation: room dicts become actions, and actions become room dicts.

The one place where the log's written forms are read and written, both ways:

    log_actions(doc, lines) -> [Retrace, Place, Contents, Time, ..., Retrace, End]
    log_dict(actions)       -> {"rooms": [...], "retrace": [...], "end": {...}}
    parse(kind, value)      /  serialize(action)        one action and its written value

parse(type(a), serialize(a)) == a for every action (and log_actions(log_dict(l)) == l).
`doc` is plain data (the validated log as dicts); `lines` (optional) says on which line of
the file each key is, so that the engine can name the line of a slip.

Accepted notations (every one of them is always accepted: they write the same play):
  roll: {entrance: 4} | {d6: 4} | {d66: 35} | {d66: [3, 5]} | {d66: "3-5"} | 35 (the first
  room's bare roll is the entrance d6); cells as "x,y" or [x, y]; kind and door states in
  any case, "dead end" for dead-end; door sides spelt out ("10,27:north"); rotate: "90 ccw"
  or -90 (counter-clockwise is negative); mirror: true or an axis name (horizontal, x ...);
  contents: 7 (the roll only); escalation: 5 (the d6 only); retrace: [4, 1] (rolls only) or
  one mapping; search: true, 2 (twice: a slip), {found: ["4,22:W"]}; time: "20 min",
  "1h 20m", "1:20"; end: retreat (a reason only); a total
  time: / minutes: beside the rooms or in end; a retrace list beside the rooms.
"""
from __future__ import annotations

import re
from typing import Iterable, Mapping

from .actions import (D66, ENTRANCE, Action, Contents, DoorMark, End, Escalation, Place, Retrace, RetraceRoll,
                      Search, Time, Transform, Unreadable)
from .shapes import SIDES

SIDE_NAMES = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}


class NoLines:
    """Where the keys of plain data are: nowhere (data that did not come from a file)."""

    def value(self, path) -> int | None:           # the line of the value at path
        return None

    def key(self, path) -> int | None:             # the line of the key at path (else its mapping's)
        return None

    def own(self, path) -> int | None:             # the value's line only if that very key is written
        return None

    def items(self, path) -> list | None:          # the line of each item of the list at path
        return None


NO_LINES = NoLines()


# -- values ----------------------------------------------------------------------------------
def parse_cell(text) -> tuple[int, int] | Unreadable:
    """ "10,27" (spaces allowed) or [10, 27] -> (10, 27); anything else is Unreadable."""
    if isinstance(text, (list, tuple)):
        text = ",".join(str(v) for v in text)
    try:
        x, y = (int(p) for p in str(text).replace(" ", "").split(","))
    except ValueError:
        return Unreadable(str(text))
    return x, y


def parse_edge(text) -> tuple[int, int, str] | Unreadable:
    """ "10,27:N" (or ":north") -> (10, 27, 'N'): the N side of square 10,27."""
    try:
        cell, side = str(text).replace(" ", "").split(":")
    except ValueError:
        return Unreadable(str(text))
    c = parse_cell(cell)
    side = SIDE_NAMES.get(side.upper(), side.upper())
    if isinstance(c, Unreadable) or side not in SIDES:
        return Unreadable(str(text))
    return c[0], c[1], side


def d66(value):
    """35, "35", [3, 5] or "3-5" / "3,5" / "3 5" -> 35; anything else as it is (then out of range)."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return value[0] * 10 + value[1]
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+)\s*(?:[-,/ ]\s*(\d+))?\s*", value)
        if m and m.group(2) is not None and len(m.group(1)) == 1 and len(m.group(2)) == 1:
            return int(m.group(1)) * 10 + int(m.group(2))
        if m and m.group(2) is None:
            return int(m.group(1))
    return value


def minutes(value) -> int | None:
    """Minutes from 40, "40", "40 min", "40 minutes", "1h 20m" or "1:20"; None when unreadable."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    m = re.fullmatch(r"(\d+):(\d\d)", text)
    if m:
        return int(m.group(1)) * 60 + int(m.group(2))
    m = re.fullmatch(r"(?:(\d+)\s*(?:h|hr|hrs|hours?))?\s*(?:(\d+)\s*(?:m|min|mins|minutes?)?)?\.?", text)
    if m and (m.group(1) or m.group(2)):
        return int(m.group(1) or 0) * 60 + int(m.group(2) or 0)
    return None


def rotation(value) -> int | None:
    """A quarter-turn count in degrees from 90, "90", "90 cw", "-90", "90 ccw" (ccw is negative)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = re.fullmatch(r"\s*(-?\d+)\s*(?:°|deg|degrees?)?\s*(cw|ccw|acw|clockwise|anti-?clockwise|"
                     r"counter-?clockwise)?\s*", str(value).lower())
    if not m:
        return None
    turn = int(m.group(1))
    return -turn if m.group(2) and m.group(2) not in ("cw", "clockwise") else turn


def mirrored(value) -> bool:
    """mirror: true/false, or an axis name (horizontal, vertical, x, y ...), which means mirrored."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() not in ("", "no", "none", "false", "off", "0", "n")


def door_state(value) -> str:
    """A door state as written -> its word: 'Dead End', 'dead_end' -> 'dead-end'."""
    return "-".join(str(value).strip().lower().replace("_", " ").replace("-", " ").split())


# -- one action ---------------------------------------------------------------------------------
def parse_place(room: Mapping, index: int = 0, lines=NO_LINES, base: tuple = ()) -> Place:
    """A room mapping (its roll, transform, kind, cells, truncated, doors) -> Place.
    index is its place in the rooms list: the first room's bare roll is the entrance d6."""
    item = lines.items(base[:-1]) if base else None
    line = item[base[-1]] if item and isinstance(base[-1], int) and base[-1] < len(item) else None
    roll = room.get("roll")
    die, value = None, None
    if isinstance(roll, int) and not isinstance(roll, bool):
        die, value = (ENTRANCE if index == 0 else D66), roll
    elif isinstance(roll, Mapping):
        entrance = roll.get("entrance") if roll.get("entrance") is not None else roll.get("d6")
        if (entrance is None) != (roll.get("d66") is None):
            die = ENTRANCE if entrance is not None else D66
            value = entrance if die == ENTRANCE else d66(roll.get("d66"))
    cells = tuple(parse_cell(c) for c in room.get("cells") or ())
    transform = None
    t = room.get("transform")
    if t is not None:
        rot = rotation(t.get("rotate", 0))
        transform = Transform(t.get("rotate", 0) if rot is None else rot, mirrored(t.get("mirror", False)),
                              t.get("stretch", 0))
    doors = []
    for j, d in enumerate(room.get("doors") or ()):
        at = base + ("doors", j)
        doors.append(DoorMark(parse_edge(d.get("at")), door_state(d.get("state")), d.get("to"),
                              bool(d.get("secret", False)),
                              where={"line": lines.value(at), "state": lines.own(at + ("state",)),
                                     "to": lines.own(at + ("to",))}))
    kind = room.get("kind")
    cell_lines = lines.items(base + ("cells",))
    where = {
        "line": line,
        "roll": _roll_line(lines, base) or line,
        "kind": lines.key(base + ("kind",)) or line,
        "transform": lines.key(base + ("transform",)) or line,
        "rotate": lines.own(base + ("transform", "rotate")),
        "mirror": lines.own(base + ("transform", "mirror")),
        "stretch": lines.own(base + ("transform", "stretch")),
        "cells": lines.key(base + ("cells",)) or line,
        "cell_lines": list(cell_lines) if cell_lines is not None else [None] * len(cells),
        "truncated": lines.key(base + ("truncated",)),
        "doors": lines.key(base + ("doors",)) or line,
    }
    return Place(room.get("id"), die, value, cells, room.get("from"), transform,
                 kind.strip().lower() if kind is not None else None, room.get("name"), room.get("truncated"),
                 tuple(doors), room.get("doors") is not None, where)


def _roll_line(lines, base) -> int | None:
    """The line of the die's number (roll: {d66: 35} on one line, or d66: 35 below roll:)."""
    for die in ("d66", "entrance", "d6"):
        found = lines.own(base + ("roll", die))
        if found is not None:
            return found
    return lines.key(base + ("roll",))


def serialize_place(a: Place) -> dict:
    out: dict = {"id": a.id}
    if a.parent is not None:
        out["from"] = a.parent
    if a.die is not None:
        out["roll"] = {a.die: a.roll}
    else:
        out["roll"] = {}
    if a.transform is not None:
        out["transform"] = {"rotate": a.transform.rotate, "mirror": a.transform.mirror,
                            "stretch": a.transform.stretch}
    if a.name is not None:
        out["name"] = a.name
    if a.kind is not None:
        out["kind"] = a.kind
    out["cells"] = [c.text if c.__class__ is Unreadable else f"{c[0]},{c[1]}" for c in a.cells]
    if a.truncated is not None:
        out["truncated"] = a.truncated
    if a.doors_listed:
        out["doors"] = [serialize_door(d) for d in a.doors]
    return out


def serialize_door(d: DoorMark) -> dict:
    at = d.at
    out: dict = {"at": at.text if at.__class__ is Unreadable else "%d,%d:%s" % at, "state": d.state}
    if d.to is not None:
        out["to"] = d.to
    if d.secret:
        out["secret"] = True
    return out


def parse_contents(value, lines=NO_LINES, base: tuple = (), room_line: int | None = None) -> Contents:
    """contents: {roll, result, escalation} or a bare roll (7) -> Contents; None: no roll written."""
    where = {"line": room_line}
    if value is None:
        return Contents(where=where)
    where["contents"] = lines.key(base + ("contents",))
    if not isinstance(value, Mapping):                     # contents: 7 (the roll only)
        return Contents(value, where=where)
    at = base + ("contents",)
    where.update(roll=lines.own(at + ("roll",)), result=lines.own(at + ("result",)),
                 escalation=lines.key(at + ("escalation",)) if lines.own(at + ("escalation",)) is not None
                 else None)
    esc = value.get("escalation")
    if isinstance(esc, Mapping):
        esc = Escalation(esc.get("roll"), esc.get("modifier"), esc.get("total"), esc.get("final"))
    elif esc is not None:
        esc = Escalation(esc)                              # escalation: 5 (the d6 only)
    result = value.get("result")
    return Contents(value.get("roll"), None if result is None else str(result), esc, where)


def serialize_contents(a: Contents):
    if a.roll is None and a.result is None and a.escalation is None:
        return None
    out: dict = {"roll": a.roll}
    if a.result is not None:
        out["result"] = a.result
    if a.escalation is not None:
        e = a.escalation
        esc = {"roll": e.roll}
        for key in ("modifier", "total", "final"):
            if getattr(e, key) is not None:
                esc[key] = getattr(e, key)
        out["escalation"] = esc
    return out


def parse_search(value, line: int | None = None) -> Search | None:
    """search: true (once), 2 (twice), {found: [DOOR, ...], times: N} or a list of searches
    -> Search; None for no search (false, or not written)."""
    if value is None or value is False:
        return None
    if value is True:
        return Search(1, (), {"line": line})
    if isinstance(value, int):
        return Search(value, (), {"line": line})
    items = value if isinstance(value, list) else [value]
    times, found = 0, []
    for item in items:
        if item is False:
            continue
        if isinstance(item, Mapping):
            times += item.get("times", 1) if isinstance(item.get("times", 1), int) else 1
            found += [parse_edge(d) for d in item.get("found") or ()]
        else:
            times += 1
    return Search(times, tuple(found), {"line": line}) if times else None


def serialize_search(a: Search):
    door = [d.text if d.__class__ is Unreadable else "%d,%d:%s" % d for d in a.found]
    if not door:
        return True if a.times == 1 else a.times
    return {"found": door} if a.times == 1 else {"found": door, "times": a.times}


def parse_retrace_roll(item, toward: int | None = None, line: int | None = None) -> RetraceRoll | None:
    """{room: 2, roll: 4, wandering: false} or a bare roll (4) -> RetraceRoll; None for anything else
    (a list kept beside the rooms may be someone else's extension)."""
    if isinstance(item, int) and not isinstance(item, bool):
        return RetraceRoll(None, item, None, {"line": line})
    if isinstance(item, Mapping) and (toward is not None or isinstance(item.get("roll"), int)):
        room, wandering = item.get("room"), item.get("wandering")
        if toward is None:          # beside the rooms: only what reads as a retrace is one
            room = room if isinstance(room, int) else None
            wandering = wandering if isinstance(wandering, bool) else None
        return RetraceRoll(room, item.get("roll"), wandering, {"line": line})
    return None


def parse_retrace(value, toward: int | None = None, lines=NO_LINES, base: tuple = ()) -> Retrace | None:
    """retrace: a list of rolls (or one roll, or one mapping) -> Retrace; None when there is none.
    base: the path of the retrace key (for the lines of its rolls)."""
    items = value if isinstance(value, list) else [] if value is None else [value]
    rolls = []
    for j, item in enumerate(items):
        line = lines.value(base + (j,)) if isinstance(value, list) else lines.key(base)
        found = parse_retrace_roll(item, toward, line)
        if found is not None:
            rolls.append(found)
    return Retrace(tuple(rolls), toward) if rolls else None


def serialize_retrace(a: Retrace) -> list:
    out = []
    for r in a.rolls:
        item: dict = {}
        if r.room is not None:
            item["room"] = r.room
        item["roll"] = r.roll
        if r.wandering is not None:
            item["wandering"] = r.wandering
        out.append(item)
    return out


def parse_end(value, lines=NO_LINES, total=None, total_line: int | None = None) -> End:
    """end: {reason, rooms, minutes} or a bare reason ("retreat"), and the total time written
    beside the rooms (time: / minutes:) when end gives none -> End."""
    where: dict = {"line": lines.key(("end",)) if value is not None else None}
    reason = rooms = wandering = spent = None
    if isinstance(value, Mapping):
        reason, rooms, wandering = value.get("reason"), value.get("rooms"), value.get("wandering")
        for key in ("minutes", "time"):
            if minutes(value.get(key)) is not None:
                spent, where["minutes"] = minutes(value.get(key)), lines.value(("end", key))
    elif value is not None:
        reason = str(value)
    if spent is None and total is not None:
        spent, where["minutes"] = total, total_line
    return End(reason, rooms, spent, wandering, where)


def serialize_end(a: End) -> dict | None:
    out = {key: getattr(a, key) for key in ("reason", "rooms", "minutes", "wandering") if getattr(a, key) is not None}
    return out or None


_PARSERS = {Place: lambda v: parse_place(v), Contents: lambda v: parse_contents(v), Search: lambda v: parse_search(v),
            Retrace: lambda v: parse_retrace(v), Time: lambda v: Time(minutes(v)), End: lambda v: parse_end(v)}


def parse(kind: type, value) -> Action:
    """One action from its written value (the room mapping, the contents, a retrace item, the
    time, the end); a retrace listed with a room gets its toward from parse_room."""
    return _PARSERS[kind](value)


def serialize(action: Action):
    """One action as the log writes it (the inverse of parse)."""
    if isinstance(action, Place):
        return serialize_place(action)
    if isinstance(action, Contents):
        return serialize_contents(action)
    if isinstance(action, Retrace):
        return serialize_retrace(action)
    if isinstance(action, Search):
        return serialize_search(action)
    if isinstance(action, Time):
        return action.minutes
    if isinstance(action, End):
        return serialize_end(action)
    raise TypeError(f"not an exploration action: {action!r}")


# -- a room, a log -------------------------------------------------------------------------------
def parse_room(room: Mapping, index: int = 0, lines=NO_LINES) -> list[Action]:
    """One entry of rooms: -> its actions in the order of play: the retrace rolls made walking
    back to the door, the room placed, its contents roll, its time (if written)."""
    base = ("rooms", index)
    place = parse_place(room, index, lines, base)
    line = place.where.get("line")
    out: list[Action] = []
    retrace = parse_retrace(room.get("retrace"), place.id, lines, base + ("retrace",))
    if retrace is not None:
        out.append(retrace)
    out.append(place)
    out.append(parse_contents(room.get("contents"), lines, base, line))
    search = parse_search(room.get("search"), lines.key(base + ("search",)) or line)
    if search is not None:
        out.append(search)
    key = "time" if room.get("time") is not None else "minutes"
    spent = minutes(room.get(key))
    if spent is not None:
        out.append(Time(spent, {"line": lines.key(base + (key,)) or line}))
    return out


def room_dict(actions: Iterable[Action]) -> dict:
    """The actions of one room (as parse_room gives them) -> its entry of rooms:."""
    return log_dict(actions)["rooms"][0]


def log_actions(doc: Mapping, lines=NO_LINES) -> list[Action]:
    """A whole log's rooms:, retrace: beside them, time:/minutes: and end: -> its actions."""
    out: list[Action] = []
    for i, room in enumerate(doc.get("rooms") or ()):
        out += parse_room(room, i, lines)
    retrace = doc.get("retrace")
    if isinstance(retrace, list):
        found = parse_retrace(retrace, None, lines, ("retrace",))
        if found is not None:
            out.append(found)
    total, total_line = None, None
    for key in ("minutes", "time"):
        if total is None and minutes(doc.get(key)) is not None:
            total, total_line = minutes(doc.get(key)), lines.key((key,))
    out.append(parse_end(doc.get("end"), lines, total, total_line))
    return out


def log_dict(actions: Iterable[Action]) -> dict:
    """A log's actions -> {"rooms": [...], "retrace": [...], "end": {...}} (the inverse of log_actions)."""
    rooms: list[dict] = []
    room: dict = {}
    pending: list = []              # retrace rolls walked before the next room
    beside: list = []
    end = None
    for a in actions:
        if isinstance(a, Place):
            room = serialize_place(a)
            if pending:
                room["retrace"], pending = pending, []
            rooms.append(room)
        elif isinstance(a, Contents):
            value = serialize_contents(a)
            if value is not None:
                room["contents"] = value
        elif isinstance(a, Search):
            room["search"] = serialize_search(a)
        elif isinstance(a, Time):
            room["time"] = a.minutes
        elif isinstance(a, Retrace):
            (pending if a.toward is not None else beside).extend(serialize_retrace(a))
        elif isinstance(a, End):
            end = serialize_end(a)
    out: dict = {"rooms": rooms}
    if beside:
        out["retrace"] = beside
    if end is not None:
        out["end"] = end
    return out

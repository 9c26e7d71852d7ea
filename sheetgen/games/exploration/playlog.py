"""The exploration play log: read it (load), check it (check), write it (dump_log).

The core format is fixed by the issue; sheetgen adds optional keys (marked +):

    sheetgen: 1
    kind: playlog
    ruleset: exploration
    sheet: 20x28                 # squares; x 1..20 left to right, y 1..28 top to bottom
    table: builtin               # or a path to a d66 table (relative to this file)
    entrance_table: builtin      # + or a path to a d6 entrance table
    contents_table: builtin      # + or a path to a 2d6 contents table
    seed: 7                      # + map mode's seed and policy
    policy: first
    rooms:
      - id: 2
        from: 1                  # + the room it was opened from
        roll: {d66: 35}
        transform: {rotate: 90, mirror: false, stretch: 0}
        kind: corridor
        cells: ["10,26", "10,25", "10,24"]
        truncated: false
        doors: [{at: "10,24:N", state: unexplored}]     # + secret: true on a found secret door
        contents: {roll: 11, result: boss, escalation: {roll: 3, modifier: 0, total: 3, final: false}}
        retrace: [{room: 1, roll: 4}]                    # + d6 per room moved back through (1 = wandering monsters)
        time: 20                 # + minutes of game time after this room (10 per room)
    end: {reason: final-boss, rooms: 12, minutes: 120}  # +

Keys sheetgen does not know are ignored (other tools may extend the log too), unless
they look like a misspelling of a known key, which is an error.

Hand-written logs may also say: roll: {d6: 4} or a bare roll: 35 (the first room's is the
entrance d6); numbers as strings ("35"); cells as [x, y]; kind and door states in any
case; state: dead-end; rotate: "90 ccw" or -90; mirror: horizontal; contents: 7 (the
roll only); escalation: 5 (the d6 only); retrace: [4, 1] (rolls only); time: "20 min";
a top-level time:/minutes: total; end: retreat (a reason only); sheet: {width, height};
d66: [3, 5] or "3-5"; door sides spelt out ("10,27:north"); a top-level retrace: list
([{room: 2, roll: 4}]); no doors: key at all (the room's doors are then not checked).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from sheetgen.errors import InputError, Problem
from sheetgen.definitions.models import validate_model
from sheetgen.definitions.registry import Source
from sheetgen.definitions.yamlsource import MarkedDict, MarkedList, locate
from .rules import Log, LogDoor, LogRoom, check_log
from ..base import Violation


class Open(BaseModel):
    """Log models accept extension keys (typos are caught separately, see _typos)."""
    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)


Num = Union[int, str]               # a number, or a string such as "35" or "20 min" (read leniently)


class LogDoorModel(Open):
    at: str
    state: str = Field(description="unexplored, explored or secret (dead-end for a door off the edge)")
    to: int | None = None
    secret: bool = False


class LogRollModel(Open):
    entrance: int | None = None
    d6: int | None = Field(None, description="the same as entrance")
    d66: Union[int, str, list[int], None] = Field(None, description='tens then units: 35, or [3, 5], or "3-5"')


class LogTransformModel(Open):
    rotate: Num = 0
    mirror: Union[bool, str] = False
    stretch: int = 0


class LogEscalationModel(Open):
    roll: int
    modifier: int | None = None
    total: int | None = None
    final: bool | None = None


class LogContentsModel(Open):
    roll: int
    result: Union[str, int, None] = None
    escalation: Union[LogEscalationModel, int, None] = None


class LogRetraceModel(Open):
    room: int | None = None
    roll: int
    wandering: bool | None = None


class LogRoomModel(Open):
    id: int
    from_: int | None = Field(None, alias="from")
    roll: Union[LogRollModel, int]
    transform: LogTransformModel | None = None
    kind: str | None = None
    name: str | None = None
    cells: list[Union[str, list[int]]]
    truncated: bool | None = None
    doors: list[LogDoorModel] | None = []
    contents: Union[LogContentsModel, int, None] = None
    retrace: Union[list[Union[LogRetraceModel, int]], LogRetraceModel, int, None] = []
    time: Num | None = None
    minutes: Num | None = None


class LogEndModel(Open):
    reason: str | None = None
    rooms: int | None = None
    minutes: Num | None = None
    time: Num | None = None
    wandering: int | None = None


class SheetSizeModel(Open):
    width: int
    height: int


class ExplorationLog(Open):
    """An exploration play log: the map as drawn, room by room."""
    sheetgen: Literal[1]
    kind: Literal["playlog"]
    ruleset: Literal["exploration"]
    sheet: Union[str, SheetSizeModel] = "20x28"
    table: str = "builtin"
    entrance_table: str = "builtin"
    contents_table: str = "builtin"
    seed: int | None = None
    policy: str | None = None
    title: str | None = None
    rooms: list[LogRoomModel]
    time: Num | None = None
    minutes: Num | None = None
    end: Union[LogEndModel, str, None] = None


MODEL = ExplorationLog


@dataclass
class PlayLog:
    model: ExplorationLog
    source: Source
    log: Log
    tables: tuple                  # (RoomTable, entrance RoomTable, ContentsTable)


# -- load ----------------------------------------------------------------------------
def load(data: MarkedDict, source: Source) -> PlayLog:
    model = validate_model(ExplorationLog, data, source.filename)
    problems = _typos(model, data, source, ())
    from .formats import parse_size
    sheet = model.sheet
    if isinstance(sheet, SheetSizeModel):
        sheet = f"{sheet.width}x{sheet.height}"
    size = parse_size(str(sheet).replace("\u00d7", "x").replace(" ", ""))
    if size is None:
        problems.append(source.problem(("sheet",), f"'{model.sheet}' is not a sheet size",
                                       expected="WIDTHxHEIGHT in squares, such as 20x28"))
    tables = []
    for key, builtin, want in (("table", "exploration-d66", "d66"), ("entrance_table", "exploration-entrance", "entrance"),
                               ("contents_table", "exploration-contents", "contents")):
        try:
            tables.append(_table(getattr(model, key), builtin, want, source, key))
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    log = _log(model, data, size)
    return PlayLog(model, source, log, tuple(tables))


def _table(name: str, builtin: str, want: str, source: Source, key: str):
    from .formats import load_table
    try:
        table = load_table(builtin if name in ("builtin", "built-in", "default") else name, source.folder)
    except InputError as exc:
        if any(p.line is not None for p in exc.problems):
            raise                              # a problem inside the table file: it says where
        raise InputError(source.problem((key,), f"cannot use table '{name}': {exc.problems[0].message}",
                                        expected="builtin or a path to a table file (relative to this log)")) from None
    if table.model.table != want:
        raise InputError(source.problem((key,), f"'{name}' is a {table.model.table} table",
                                        expected=f"a {want} table"))
    return table.rooms if want != "contents" else table.contents


def _typos(model: BaseModel, data, source: Source, loc: tuple) -> list[Problem]:
    """Unknown keys that look like misspelt known keys are errors; others are extensions."""
    out: list[Problem] = []
    known = [f.alias or name for name, f in type(model).model_fields.items()]
    for key in (model.model_extra or {}):
        hint = _misspelt(key, known)
        if hint:
            mark = locate(data, loc + (key,), key_itself=True)
            out.append(Problem(f"unknown key '{key}'", source.filename, *(mark or (None, None)),
                               path=".".join(str(p) for p in loc) or None, suggestion=hint))
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        key = field.alias or name
        if isinstance(value, BaseModel):
            out += _typos(value, data, source, loc + (key,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    out += _typos(item, data, source, loc + (key, i))
    return out


def _misspelt(key: str, known: list[str]) -> str | None:
    """A known key this one is a near miss of (one or two letters off), else None."""
    import difflib
    best = None
    for name in known:
        ratio = difflib.SequenceMatcher(None, str(key), name).ratio()
        if abs(len(str(key)) - len(name)) <= 2 and ratio >= 0.75 and (best is None or ratio > best[0]):
            best = (ratio, name)
    return best[1] if best else None


def _line(data, loc) -> int | None:
    mark = locate(data, loc)
    return mark[0] if mark else None


def _own_line(data, loc) -> int | None:
    """The line of the value at loc only if that very key is written (locate falls back to the
    enclosing mapping, which would blame the wrong line)."""
    node = data
    for part in loc:
        if isinstance(node, MarkedDict) and part in node:
            node = node[part]
        elif isinstance(node, MarkedList) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return _line(data, loc)


def _d66(value):
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


def _roll_line(data, base) -> int | None:
    """The line of the die's number (roll: {d66: 35} on one line, or d66: 35 below roll:)."""
    for die in ("d66", "entrance", "d6"):
        if _own_line(data, base + ("roll", die)) is not None:
            return _own_line(data, base + ("roll", die))
    return _key_line(data, base + ("roll",))


def _key_line(data, loc) -> int | None:
    mark = locate(data, loc, key_itself=True)
    return mark[0] if mark else None


def _minutes(value) -> int | None:
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


def _rotate(value) -> int | None:
    """A quarter-turn count in degrees from 90, "90", "90 cw", "-90", "90 ccw" (ccw is negative)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = re.fullmatch(r"\s*(-?\d+)\s*(?:°|deg|degrees?)?\s*(cw|ccw|acw|clockwise|anti-?clockwise|"
                     r"counter-?clockwise)?\s*", str(value).lower())
    if not m:
        return None
    turn = int(m.group(1))
    return -turn if m.group(2) and m.group(2) not in ("cw", "clockwise") else turn


def _mirrored(value) -> bool:
    """mirror: true/false, or an axis name (horizontal, vertical, x, y ...), which means mirrored."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() not in ("", "no", "none", "false", "off", "0", "n")


def _log(model: ExplorationLog, data: MarkedDict, size) -> Log:
    log = Log(size[0], size[1], [])
    end = model.end
    if isinstance(end, str):
        log.end_reason, log.end_line = end, _key_line(data, ("end",))
    elif end is not None:
        log.end_line = _key_line(data, ("end",))
        log.end_reason, log.end_rooms = end.reason, end.rooms
        for key in ("minutes", "time"):
            if _minutes(getattr(end, key)) is not None:
                log.minutes = _minutes(getattr(end, key))
                log.minutes_line = _line(data, ("end", key))
    for key in ("minutes", "time"):
        if log.minutes is None and _minutes(getattr(model, key)) is not None:
            log.minutes, log.minutes_line = _minutes(getattr(model, key)), _key_line(data, (key,))
    rooms_node = data.get("rooms")
    first_room = 0
    for i, rm in enumerate(model.rooms):
        base = ("rooms", i)
        node = rooms_node[i] if isinstance(rooms_node, MarkedList) else None
        line = rooms_node.item_marks[i][0] if isinstance(rooms_node, MarkedList) else None
        die, roll = None, None
        if isinstance(rm.roll, int):                  # roll: 35 (the first room's is the entrance d6)
            die, roll = ("entrance" if i == first_room else "d66"), rm.roll
        else:
            entrance = rm.roll.entrance if rm.roll.entrance is not None else rm.roll.d6
            if (entrance is None) != (rm.roll.d66 is None):
                die = "entrance" if entrance is not None else "d66"
                roll = entrance if die == "entrance" else _d66(rm.roll.d66)
        cells = [c if isinstance(c, str) else ",".join(str(v) for v in c) for c in rm.cells]
        cells_node = node.get("cells") if isinstance(node, MarkedDict) else None
        cell_lines = ([m[0] for m in cells_node.item_marks] if isinstance(cells_node, MarkedList)
                      else [None] * len(cells))
        transform = None
        if rm.transform is not None:
            rot = _rotate(rm.transform.rotate)
            transform = (rm.transform.rotate if rot is None else rot, _mirrored(rm.transform.mirror),
                         rm.transform.stretch)
        time_key = "time" if rm.time is not None else "minutes"
        room = LogRoom(
            rm.id, line=line, die=die, roll=roll, roll_line=_roll_line(data, base) or line,
            kind=rm.kind.strip().lower() if rm.kind is not None else None,
            kind_line=_key_line(data, base + ("kind",)) or line,
            transform=transform, transform_line=_key_line(data, base + ("transform",)) or line,
            cells=cells, cell_lines=cell_lines, cells_line=_key_line(data, base + ("cells",)) or line,
            truncated=rm.truncated, truncated_line=_key_line(data, base + ("truncated",)),
            doors_line=_key_line(data, base + ("doors",)) or line,
            doors_listed=not isinstance(node, MarkedDict) or node.get("doors") is not None,
            rotate_line=_own_line(data, base + ("transform", "rotate")),
            stretch_line=_own_line(data, base + ("transform", "stretch")),
            mirror_line=_own_line(data, base + ("transform", "mirror")),
            parent=rm.from_, time=_minutes(getattr(rm, time_key)),
            time_line=_key_line(data, base + (time_key,)) or line)
        for j, d in enumerate(rm.doors or ()):
            state = "-".join(str(d.state).strip().lower().replace("_", " ").replace("-", " ").split())
            where = base + ("doors", j)
            room.doors.append(LogDoor(d.at, state, d.to, d.secret, _line(data, where),
                                      _own_line(data, where + ("state",)), _own_line(data, where + ("to",))))
        if isinstance(rm.contents, int):                 # contents: 7 (the roll only)
            room.contents_roll, room.contents_line = rm.contents, _key_line(data, base + ("contents",))
        elif rm.contents is not None:
            room.contents_roll = rm.contents.roll
            room.contents_roll_line = _own_line(data, base + ("contents", "roll"))
            room.result_line = _own_line(data, base + ("contents", "result"))
            room.escalation_line = (_key_line(data, base + ("contents", "escalation"))
                                    if _own_line(data, base + ("contents", "escalation")) is not None else None)
            room.contents_result = None if rm.contents.result is None else str(rm.contents.result)
            room.contents_line = _key_line(data, base + ("contents",))
            esc = rm.contents.escalation
            if isinstance(esc, int):
                room.escalation = {"roll": esc}
            elif esc is not None:
                room.escalation = esc.model_dump(exclude_none=True)
        retrace = rm.retrace if isinstance(rm.retrace, list) else [] if rm.retrace is None else [rm.retrace]
        for j, r in enumerate(retrace):
            where = _line(data, base + ("retrace", j)) if isinstance(rm.retrace, list) else \
                _key_line(data, base + ("retrace",))
            if isinstance(r, int):
                room.retrace.append((None, r, None, where))
            else:
                room.retrace.append((r.room, r.roll, r.wandering, where))
        log.rooms.append(room)
    log.retrace = _top_retrace(data)
    return log


def _top_retrace(data: MarkedDict) -> list:
    """retrace: kept beside rooms: [{room: 2, roll: 4}, ...] or bare rolls; anything else is
    someone else's extension and is left alone."""
    node = data.get("retrace")
    if not isinstance(node, MarkedList):
        return []
    out = []
    for j, item in enumerate(node):
        where = _line(data, ("retrace", j))
        if isinstance(item, int) and not isinstance(item, bool):
            out.append((None, item, None, where))
        elif isinstance(item, dict) and isinstance(item.get("roll"), int):
            rid = item.get("room")
            wandering = item.get("wandering")
            out.append((rid if isinstance(rid, int) else None, item["roll"],
                        wandering if isinstance(wandering, bool) else None, where))
    return out


# -- check ----------------------------------------------------------------------------
def check(defn: PlayLog) -> list[Violation]:
    rooms, entrances, contents = defn.tables
    return [Violation(line=b.line, message=b.message, rule=b.rule)
            for b in check_log(defn.log, rooms, entrances, contents)]


# -- write ------------------------------------------------------------------------------
def _s(text) -> str:
    import json
    return json.dumps(str(text), ensure_ascii=False)


def dump_log(ex, seed: int | None = None, policy: str | None = None, table: str = "builtin",
             title: str | None = None) -> str:
    """A map-mode game (rules.exploration.mapmode.Explorer) as play-log YAML text.

    Written by hand, not by yaml.dump: it is quicker, and keeps one room per block
    with flow-style cells and doors as in the issue's example."""
    out = ["sheetgen: 1", "kind: playlog", "ruleset: exploration"]
    if title:
        out.append(f"title: {_s(title)}")
    out.append(f"sheet: {ex.width}x{ex.height}            # squares; x 1..{ex.width} left to right, "
               f"y 1..{ex.height} top to bottom")
    out.append(f"table: {table if table == 'builtin' else _s(table)}")
    if seed is not None:
        out.append(f"seed: {seed}")
    if policy:
        out.append(f"policy: {policy}")
    out.append("rooms:")
    final_at = ex.contents.escalation.final_at
    for r in ex.rooms:
        out.append(f"  - id: {r.id}")
        if r.parent is not None:
            out.append(f"    from: {r.parent}")
        if r.die == "entrance":
            out.append(f"    roll: {{entrance: {r.roll}}}")
        else:
            out.append(f"    roll: {{d66: {r.roll}}}")
            out.append(f"    transform: {{rotate: {r.rotate}, mirror: {str(r.mirror).lower()}, "
                       f"stretch: {r.stretch}}}")
        out.append(f"    name: {_s(r.entry.name)}")
        out.append(f"    kind: {r.kind}")
        out.append("    cells: [" + ", ".join(f'"{x},{y}"' for x, y in r.cells) + "]")
        if r.die != "entrance":
            out.append(f"    truncated: {str(r.truncated).lower()}")
        doors = []
        for d in r.doors:
            extra = f", to: {d.to}" if d.to is not None else ""
            extra += ", secret: true" if d.secret and d.state != "secret" else ""
            doors.append(f'{{at: "{d.at}", state: {d.state}{extra}}}')
        out.append("    doors: [" + ", ".join(doors) + "]")
        esc = ""
        if r.escalation:
            roll, mod, total = r.escalation
            esc = (f", escalation: {{roll: {roll}, modifier: {mod}, total: {total}, "
                   f"final: {str(total >= final_at).lower()}}}")
        out.append(f"    contents: {{roll: {r.contents_roll}, result: {r.result.id}{esc}}}")
        if r.retrace:
            out.append("    retrace: [" + ", ".join(
                f"{{room: {rid}, roll: {roll}{', wandering: true' if roll == 1 else ''}}}"
                for rid, roll in r.retrace) + "]")
        out.append(f"    time: {r.minutes}")
    out.append(f"end: {{reason: {ex.ended or 'stopped'}, rooms: {len(ex.rooms)}, minutes: {ex.minutes}, "
               f"wandering: {ex.wandering()}}}")
    return "\n".join(out) + "\n"

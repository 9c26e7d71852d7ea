"""The exploration play log's handler: read it (load), check it (check), write it (dump_log).

The format's models are in formats/__init__.py, its notation (room dicts <-> actions) in
notation.py, the rules that judge it in rules.py.  The core format is fixed by the
issue; sheetgen adds optional keys (marked +):

    sheetgen: 1
    kind: playlog
    ruleset: exploration
    sheet: 20x28                 # squares; x 1..20 left to right, y 1..28 top to bottom
    table: builtin               # or a path to a d66 table (relative to this file)
    entrance_table: builtin      # + or a path to a d6 entrance table
    contents_table: builtin      # + or a path to a 2d6 contents table
    seed: 7                      # + map mode's seed and policy
    policy: first
    readings: [plain-escalation] # + the readings of the rules it follows (readings.py); else found
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

import json
from dataclasses import dataclass

from pydantic import BaseModel

from sheetgen.errors import InputError, Problem, did_you_mean
from sheetgen.definitions.models import validate_model
from sheetgen.definitions.registry import Source
from sheetgen.definitions.yamlsource import MarkedDict, MarkedList, locate
from ...base import Handler, Judgement
from .. import notation, rules
from . import ExplorationLog, SheetSizeModel, load_table, parse_size
from ..mapmode import actions_of
from ..readings import RETIRED_READINGS, ExplorationReading

MODEL = ExplorationLog


@dataclass
class PlayLog:
    model: ExplorationLog
    source: Source
    actions: list                  # notation.log_actions: what the log says happened, in order
    tables: tuple                  # (RoomTable, entrance RoomTable, ContentsTable)
    width: int = 20
    height: int = 28
    readings: frozenset | None = None      # the readings the log declares (None: not declared)


class MarkedLines:
    """notation's line finder over marked YAML (where each key and value of the file is)."""

    def __init__(self, data: MarkedDict):
        self.data = data

    def value(self, path) -> int | None:
        mark = locate(self.data, path)
        return mark[0] if mark else None

    def key(self, path) -> int | None:
        mark = locate(self.data, path, key_itself=True)
        return mark[0] if mark else None

    def own(self, path) -> int | None:
        """The line of the value at path only if that very key is written (locate falls back to
        the enclosing mapping, which would blame the wrong line)."""
        return self.value(path) if self._node(path) is not _ABSENT else None

    def items(self, path) -> list | None:
        node = self._node(path)
        return [m[0] for m in node.item_marks] if isinstance(node, MarkedList) else None

    def _node(self, path):
        node = self.data
        for part in path:
            if isinstance(node, MarkedDict) and part in node:
                node = node[part]
            elif isinstance(node, MarkedList) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                return _ABSENT
        return node


_ABSENT = object()


# -- load ----------------------------------------------------------------------------
def load(data: MarkedDict, source: Source) -> PlayLog:
    model = validate_model(ExplorationLog, data, source.filename)
    problems = _typos(model, data, source, ())
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
    readings = _readings(model, source, problems)
    problems += _end_reason(model, source)
    if problems:
        raise InputError(problems)
    actions = notation.log_actions(model.model_dump(by_alias=True, exclude_unset=True), MarkedLines(data))
    return PlayLog(model, source, actions, tuple(tables), size[0], size[1], readings)


def _readings(model: ExplorationLog, source: Source, problems: list) -> frozenset | None:
    """The readings: header key -> Reading members; an unknown name is a located problem."""
    if model.readings is None:
        return None
    known = [r.value for r in ExplorationReading]
    found = set()
    for i, name in enumerate(model.readings):
        if str(name) in RETIRED_READINGS:
            continue                # dropped (docs/readings.md): the log is judged without it
        try:
            found |= ExplorationReading.parse([name])
        except ValueError:
            problems.append(source.problem(("readings", i), f"unknown reading '{name}'",
                                           expected="one of " + ", ".join(known),
                                           suggestion=did_you_mean(name, known)))
    return frozenset(found)


def _end_reason(model: ExplorationLog, source: Source) -> list[Problem]:
    """`end:` gives one of the documented reasons ("The dungeon ends when: ..."), else it is an
    error naming them."""
    end = model.end
    reason = end if isinstance(end, str) else getattr(end, "reason", None)
    if reason is None or rules.norm_reason(reason) in rules.END_REASONS:
        return []
    loc = ("end",) if isinstance(end, str) else ("end", "reason")
    known = list(rules.END_REASONS)
    return [source.problem(loc, f"'{reason}' is not a reason the dungeon ends",
                           expected="one of " + ", ".join(known) + " (final-boss: the Final Boss; map-full: the map "
                                    "ran out of room or doors; retreat: out the entrance; dead: the party died; "
                                    "rooms, stopped: map mode's room limit, or stopped before the end)",
                           suggestion=did_you_mean(str(reason), [w for words in rules.END_REASONS.values()
                                                                 for w in words]))]


def _table(name: str, builtin: str, want: str, source: Source, key: str):
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


# -- check ----------------------------------------------------------------------------
def check(defn: PlayLog) -> Judgement:
    """The log replayed through the rules (rules.check): by the readings it declares, else by the
    default readings and (if it breaks a rule) those the replay consulted."""
    return rules.check(defn.actions, *defn.tables, defn.width, defn.height, defn.readings)


# -- write ------------------------------------------------------------------------------
def _s(text) -> str:
    """text as a YAML (JSON) double-quoted string."""
    text = str(text)
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'                  # (what json.dumps gives for it, quicker)
    return json.dumps(text, ensure_ascii=False)


def _flow(value) -> str:
    """A plain value in YAML flow style: mappings and lists inline, bare words and numbers."""
    if value is True or value is False:
        return "true" if value else "false"
    if value.__class__ is dict:
        return "{" + ", ".join([f"{k}: {v if v.__class__ is int or v.__class__ is str else _flow(v)}"
                                for k, v in value.items()]) + "}"
    if value.__class__ is list:
        return "[" + ", ".join([_flow(v) for v in value]) + "]"
    return str(value)


def _room_text(room: dict) -> str:
    """One room of notation.log_dict as the issue's example writes it: a block per room,
    flow-style values, squares and door positions quoted."""
    get = room.get
    out = [f"  - id: {room['id']}\n"]
    if "from" in room:
        out.append(f"    from: {room['from']}\n")
    out.append(f"    roll: {_flow(room['roll'])}\n")
    t = get("transform")
    if t is not None:
        out.append(f"    transform: {{rotate: {t['rotate']}, mirror: {'true' if t['mirror'] else 'false'}, "
                   f"stretch: {t['stretch']}}}\n")
    if "name" in room:
        out.append(f"    name: {_s(room['name'])}\n")
    if "kind" in room:
        out.append(f"    kind: {room['kind']}\n")
    cells = room["cells"]
    out.append('    cells: ["' + '", "'.join(cells) + '"]\n' if cells else "    cells: []\n")
    if "truncated" in room:
        out.append(f"    truncated: {_flow(room['truncated'])}\n")
    doors = get("doors")
    if doors is not None:
        shown = []
        for d in doors:
            door = f'{{at: "{d["at"]}", state: {d["state"]}'
            if "to" in d:
                door += f", to: {d['to']}"
            if "secret" in d:
                door += f", secret: {_flow(d['secret'])}"
            shown.append(door + "}")
        out.append("    doors: [" + ", ".join(shown) + "]\n")
    c = get("contents")
    if c is not None:
        if c.__class__ is dict and "escalation" not in c:
            out.append(f"    contents: {{roll: {c['roll']}, result: {c['result']}}}\n" if "result" in c
                       else f"    contents: {{roll: {c['roll']}}}\n")
        else:
            out.append(f"    contents: {_flow(c)}\n")
    if "search" in room:
        out.append(f"    search: {_flow(room['search'])}\n")
    if "retrace" in room:
        out.append(f"    retrace: {_flow(room['retrace'])}\n")
    if "time" in room:
        out.append(f"    time: {room['time']}\n")
    return "".join(out)


def dump_log(ex, seed: int | None = None, policy: str | None = None, table: str = "builtin",
             title: str | None = None) -> str:
    """A map-mode game (mapmode.Explorer) as play-log YAML text: its actions (mapmode.actions_of)
    through the notation (notation.log_dict), written out.

    Written by hand, not by yaml.dump: it is quicker, and keeps one room per block
    with flow-style cells and doors as in the issue's example."""
    doc = notation.log_dict(actions_of(ex))
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
    text = "\n".join(out) + "\n" + "".join([_room_text(room) for room in doc["rooms"]])
    if "retrace" in doc:                    # the walk out of the entrance (a retreat), beside the rooms
        text += f"retrace: {_flow(doc['retrace'])}\n"
    if "end" in doc:
        text += f"end: {_flow(doc['end'])}\n"
    return text


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, check=check, models=lambda: MODEL)

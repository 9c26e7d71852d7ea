"""Dungeon exploration formats: d66 room tables, d6 entrance tables, 2d6 contents tables
(kind: table), the printable exploration sheets (kind: sheet) and the play log (kind:
playlog, read by formats/playlog.py): their pydantic models, the loading of tables and sheets,
and their handler (compose draws through sheets.py, which never sees these models).

A room table entry is an ASCII picture ('#' floor, '.' nothing, '+' door, 'S' secret
door) with a kind (corridor: everywhere 1 wide; room: 2+ wide).  Problems inside a
picture are reported at the picture's own line and column in the file.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from sheetgen.errors import InputError, Problem, did_you_mean
from ...base import Handler
from ...dice import D66_VALUES
from .. import shapes as sh
from ..tables import (BOSS_ROLL, CATEGORIES, CONTENTS_ROLLS, TREASURE_ROLLS, ContentsTable, Escalation, Result,
                     RoomEntry, RoomTable, TreasureEntry, TreasureTable)
from sheetgen.definitions.models import Strict, validate_model
from sheetgen.definitions.registry import Finding, Source
from sheetgen.definitions.yamlsource import MarkedDict, MarkedList, locate

TABLE_KINDS = ("d66", "entrance", "contents", "treasure")
SHEET_KINDS = ("tables", "graph")
BUILTIN_ROOMS = "exploration-d66"
BUILTIN_ENTRANCES = "exploration-entrance"
BUILTIN_CONTENTS = "exploration-contents"
BUILTIN_TREASURE = "exploration-treasure"


# -- models ----------------------------------------------------------------------
class ExplorationShape(Strict):
    name: str = ""
    kind: Literal["corridor", "room"]
    shape: Union[str, list[str]] = Field(description="ASCII picture: '#' floor, '.' nothing, '+' door, 'S' secret door")


class ContentsResult(Strict):
    category: Literal["monsters", "traps", "treasure", "special", "empty", "events", "boss"]
    title: str = ""
    text: str = ""


class ContentsRow(Strict):
    corridor: str
    room: str


class TreasureRow(Strict):
    title: str
    text: str = ""


class BossEscalation(Strict):
    final_at: int = Field(6, ge=1, le=12)
    per_prior_boss: int = Field(1, ge=0, le=6)
    rule: str = ""


class ExplorationTable(Strict):
    """A d66 room table, a d6 entrance table, a 2d6 contents table or a d6 treasure table."""
    sheetgen: Literal[1]
    kind: Literal["table"]
    ruleset: Literal["exploration"]
    table: Literal["d66", "entrance", "contents", "treasure"]
    title: str = ""
    notes: str = ""
    entries: dict[Union[int, str], ExplorationShape] | None = None
    results: dict[str, ContentsResult] | None = None
    rows: dict[Union[int, str], ContentsRow] | None = None
    escalation: BossEscalation | None = None
    treasure: dict[Union[int, str], TreasureRow] | None = Field(
        None, description="a treasure table's finds, keyed by the d6 roll 1-6")


class ExplorationSheet(Strict):
    """A printable exploration sheet: the tables, or the blank graph sheet."""
    sheetgen: Literal[1]
    kind: Literal["sheet"]
    ruleset: Literal["exploration"]
    sheet: Literal["tables", "graph"]
    title: str = ""
    paper: Literal["a4", "letter"] = "a4"
    size: str = "20x28"
    rooms: str = BUILTIN_ROOMS
    entrances: str = BUILTIN_ENTRANCES
    contents: str = BUILTIN_CONTENTS
    treasure: str | None = Field(BUILTIN_TREASURE, description="the treasure table printed with the contents "
                                                               "(a built-in name or a path; null: none)")


# -- the play log (the fixed format plus optional keys; see formats/playlog.py) ---------------
class Open(BaseModel):
    """Log models accept extension keys (typos are caught separately, see playlog._typos)."""
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


class LogSearchModel(Open):
    found: list[str] = Field([], description="the doors the search revealed, as at: is written")
    times: int = Field(1, description="how many times the room was searched (once per room)")


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
    search: Union[bool, int, LogSearchModel, list[Union[bool, LogSearchModel]], None] = Field(
        None, description="the room was searched (true), once per room; {found: [DOOR, ...]} names what it revealed")
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
    readings: list[str] | None = Field(None, description="the readings of the rules the log follows "
                                                         "(e.g. [plain-escalation]); the checker finds them if left out")
    rooms: list[LogRoomModel]
    time: Num | None = None
    minutes: Num | None = None
    end: Union[LogEndModel, str, None] = None


MODEL = ExplorationTable                      # `sheetgen schema`: tables; sheets use ExplorationSheet
MODELS = {"table": ExplorationTable, "sheet": ExplorationSheet}     # (logs: playlog.MODEL)


@dataclass
class Table:
    model: ExplorationTable
    source: Source
    rooms: RoomTable | None = None          # d66 or entrance
    contents: ContentsTable | None = None
    treasure: TreasureTable | None = None

    @property
    def title(self) -> str:
        return self.model.title or {"d66": "Room shapes (d66)", "entrance": "Entrance rooms (d6)",
                                    "contents": "Room contents (2d6)", "treasure": "Treasure (d6)"}[self.model.table]


@dataclass
class Sheet:
    model: ExplorationSheet
    source: Source
    width: int
    height: int
    rooms: Table | None = None
    entrances: Table | None = None
    contents: Table | None = None
    treasure: Table | None = None


# -- loading -----------------------------------------------------------------------
def load(data: MarkedDict, source: Source):
    kind = data.get("kind")
    if kind == "sheet":
        return _load_sheet(validate_model(ExplorationSheet, data, source.filename), source)
    return _load_table(validate_model(ExplorationTable, data, source.filename), source)


def parse_size(text: str) -> tuple[int, int] | None:
    try:
        w, h = (int(p) for p in str(text).lower().split("x"))
    except ValueError:
        return None
    return (w, h) if 4 <= w <= 60 and 4 <= h <= 80 else None


def _load_sheet(model: ExplorationSheet, source: Source) -> Sheet:
    size = parse_size(model.size)
    if size is None:
        raise InputError(source.problem(("size",), f"'{model.size}' is not a sheet size",
                                        expected="WIDTHxHEIGHT in squares, 4x4 to 60x80, such as 20x28"))
    sheet = Sheet(model, source, *size)
    if model.sheet == "tables":
        problems = []
        for key, want in (("rooms", "d66"), ("entrances", "entrance"), ("contents", "contents"),
                          ("treasure", "treasure")):
            if getattr(model, key) is None:         # treasure: null leaves the treasure table out
                continue
            try:
                table = load_table(getattr(model, key), source.folder)
            except InputError as exc:
                problems += exc.problems
                continue
            if table.model.table != want:
                problems.append(source.problem((key,), f"this names a {table.model.table} table",
                                               expected=f"a {want} table"))
            setattr(sheet, key, table)
        if problems:
            raise InputError(problems)
    return sheet


def _load_table(model: ExplorationTable, source: Source) -> Table:
    problems: list[Problem] = []
    table = Table(model, source)
    if model.treasure is not None and model.table != "treasure":
        problems.append(source.problem(("treasure",), f"'treasure' belongs in a treasure table, not a "
                                                      f"{model.table} table"))
    if model.table in ("d66", "entrance"):
        for key in ("results", "rows", "escalation"):
            if getattr(model, key) is not None:
                problems.append(source.problem((key,), f"'{key}' belongs in a contents table, not a "
                                                       f"{model.table} table"))
        table.rooms = _room_table(model, source, problems)
    elif model.table == "treasure":
        for key in ("entries", "results", "rows", "escalation"):
            if getattr(model, key) is not None:
                problems.append(source.problem((key,), f"'{key}' does not belong in a treasure table; "
                                                       "it has 'treasure' (the finds for d6 1-6)"))
        table.treasure = _treasure_table(model, source, problems)
    else:
        if model.entries is not None:
            problems.append(source.problem(("entries",), "'entries' belongs in a d66 or entrance table; "
                                                         "a contents table has 'results' and 'rows'"))
        table.contents = _contents_table(model, source, problems)
    if problems:
        raise InputError(problems)
    return table


def _room_table(model: ExplorationTable, source: Source, problems: list) -> RoomTable | None:
    die = model.table
    wanted = D66_VALUES if die == "d66" else tuple(range(1, 7))
    if model.entries is None:
        problems.append(source.problem((), f"missing required key 'entries' (the {len(wanted)} shapes)"))
        return None
    entries: dict[int, RoomEntry] = {}
    text_lines = _file_lines(source)
    for raw_key, entry in model.entries.items():
        key = _int_key(raw_key)
        if key not in wanted:
            if die == "d66":
                why = ("a d66 key has two digits, tens die then units die, each 1-6 "
                       "(11-16, 21-26, ... 61-66; never 0, never 7+)")
            else:
                why = "an entrance key is a d6 roll, 1-6"
            hint = did_you_mean(str(raw_key), [str(k) for k in wanted if k not in _int_keys(model.entries)])
            problems.append(_key_problem(source, ("entries", raw_key), f"'{raw_key}' is not a {die} result: {why}",
                                         suggestion=hint))
            continue
        picture = sh.parse_picture(entry.shape)
        for pp in picture.problems:
            problems.append(_picture_problem(source, text_lines, raw_key, entry.shape, pp.row, pp.col, pp.message))
        if picture.shape is None:
            continue
        ox, oy = picture.origin
        for cell, message in sh.shape_problems(picture.shape, entry.kind):
            if cell is None:
                problems.append(source.problem(("entries", raw_key, "kind" if "declared" in message else "shape"),
                                               message))
            else:
                problems.append(_picture_problem(source, text_lines, raw_key, entry.shape,
                                                 cell[1] + oy, cell[0] + ox, message))
        entries[key] = RoomEntry(key, entry.kind, entry.name or f"{die} {key}", picture.shape)
    missing = [k for k in wanted if k not in _int_keys(model.entries)]
    if missing:
        problems.append(_key_problem(source, ("entries",),
                                     f"missing {die} entr{'y' if len(missing) == 1 else 'ies'} "
                                     f"{', '.join(map(str, missing))} (a {die} table needs every key "
                                     f"{wanted[0]}-{wanted[-1]}{', tens then units, digits 1-6' if die == 'd66' else ''})"))
    if problems:
        return None
    return RoomTable(entries, model.title, str(source.path), die)


def _contents_table(model: ExplorationTable, source: Source, problems: list) -> ContentsTable | None:
    if model.results is None or model.rows is None:
        for key in ("results", "rows"):
            if getattr(model, key) is None:
                problems.append(source.problem((), f"missing required key '{key}'"))
        return None
    results = {rid: Result(rid, r.category, r.text, r.title) for rid, r in model.results.items()}
    rows: dict[int, tuple[str, str]] = {}
    for raw_key, row in model.rows.items():
        key = _int_key(raw_key)
        if key not in CONTENTS_ROLLS:
            problems.append(_key_problem(source, ("rows", raw_key),
                                         f"'{raw_key}' is not a 2d6 result (rows are 2 to 12)"))
            continue
        for col in ("corridor", "room"):
            rid = getattr(row, col)
            if rid not in results:
                problems.append(source.problem(("rows", raw_key, col), f"unknown result '{rid}'",
                                               expected="one of the ids under 'results'",
                                               suggestion=did_you_mean(rid, results)))
            elif key == BOSS_ROLL and results[rid].category != "boss":
                problems.append(source.problem(("rows", raw_key, col),
                                               "11 is the boss result: it must name a result of category boss"))
        rows[key] = (row.corridor, row.room)
    missing = [k for k in CONTENTS_ROLLS if k not in rows and k not in {_int_key(r) for r in model.rows}]
    if missing:
        problems.append(_key_problem(source, ("rows",), f"missing row{'s' if len(missing) > 1 else ''} "
                                                        f"{', '.join(map(str, missing))} (a 2d6 table needs 2-12)"))
    if problems:
        return None
    esc = model.escalation or BossEscalation()
    return ContentsTable(rows, results, Escalation(esc.final_at, esc.per_prior_boss, esc.rule), model.title)


def _treasure_table(model: ExplorationTable, source: Source, problems: list) -> TreasureTable | None:
    if model.treasure is None:
        problems.append(source.problem((), "missing required key 'treasure' (the finds for d6 1-6)"))
        return None
    entries: dict[int, TreasureEntry] = {}
    for raw_key, row in model.treasure.items():
        key = _int_key(raw_key)
        if key not in TREASURE_ROLLS:
            problems.append(_key_problem(source, ("treasure", raw_key),
                                         f"'{raw_key}' is not a d6 result (a treasure table is rolled on d6: 1-6)"))
            continue
        entries[key] = TreasureEntry(key, row.title, row.text)
    missing = [k for k in TREASURE_ROLLS if k not in entries and k not in _int_keys(model.treasure)]
    if missing:
        problems.append(_key_problem(source, ("treasure",), f"missing treasure row{'s' if len(missing) > 1 else ''} "
                                                            f"{', '.join(map(str, missing))} (a d6 table needs 1-6)"))
    if problems:
        return None
    return TreasureTable(entries, model.title, " ".join(model.notes.split()))


def _int_key(key) -> int | None:
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    try:
        return int(str(key).strip())
    except ValueError:
        return None


def _int_keys(entries) -> set:
    return {_int_key(k) for k in entries}


def _key_problem(source: Source, loc: tuple, message: str, **kw) -> Problem:
    """A problem at a mapping key itself (for wrong or missing keys)."""
    mark = locate(source.data, loc, key_itself=True)
    return Problem(message, source.filename, *(mark or (None, None)),
                   path=".".join(str(p) for p in loc), **kw)


def _file_lines(source: Source) -> list[str]:
    try:
        return source.path.read_text(encoding="utf-8").split("\n")
    except OSError:
        return []


def _picture_problem(source: Source, lines: list[str], key, shape, row: int, col: int, message: str) -> Problem:
    """A problem at a character of a shape picture: its own FILE:LINE:COLUMN."""
    path = f"entries.{key}.shape"
    node = _entry_node(source.data, key)
    rows = sh.picture_lines(shape)
    row_text = rows[row] if 0 <= row < len(rows) else ""
    if isinstance(node, MarkedDict) and isinstance(node.get("shape"), MarkedList):
        items = node["shape"]
        if 0 <= row < len(items.item_marks):
            line, c0 = items.item_marks[row]
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            quote = 1 if c0 - 1 < len(text) and text[c0 - 1] in "'\"" else 0
            return Problem(message, source.filename, line, c0 + quote + col, path=f"{path}[{row}]")
    mark = locate(source.data, ("entries", key, "shape"))
    if mark is None:
        return Problem(message, source.filename, path=path)
    line, c0 = mark
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if text[c0 - 1:c0] in ("|", ">"):
        target = line + 1 + row
        file_row = lines[target - 1] if 0 < target <= len(lines) else ""
        if row_text and file_row.rstrip().endswith(row_text.rstrip()):
            start = len(file_row.rstrip()) - len(row_text.rstrip())
            return Problem(message, source.filename, target, start + col + 1, path=path)
        return Problem(message, source.filename, target, None, path=path)
    quote = 1 if text[c0 - 1:c0] in ("'", '"') else 0
    return Problem(message, source.filename, line, c0 + quote + col, path=path)


def _entry_node(data, key):
    entries = data.get("entries") if isinstance(data, MarkedDict) else None
    if not isinstance(entries, MarkedDict):
        return None
    for k in entries:
        if str(k) == str(key):
            return entries[k]
    return None


# -- finding tables ----------------------------------------------------------------------
def load_table(name_or_path: str | Path, relative_to: Path | None = None) -> Table:
    """A table by built-in name or path (relative to a file's folder when given)."""
    from sheetgen.definitions.registry import load_file, resolve
    p = Path(name_or_path)
    if relative_to is not None and not p.is_absolute() and (p.suffix in (".yaml", ".yml") or "/" in str(p)):
        candidate = relative_to / p
        if candidate.exists():
            p = candidate
    path, builtin = resolve(p if p.exists() else name_or_path)
    if builtin:
        return _builtin_table(str(path))
    loaded = load_file(path)
    if loaded.kind != "table" or loaded.ruleset != "exploration":
        raise InputError(Problem(f"this is a {loaded.kind}, not an exploration table", str(path), 1, 1))
    return loaded.definition


@lru_cache(maxsize=8)
def _builtin_table(path: str) -> Table:
    from sheetgen.definitions.registry import load_file
    return load_file(path, builtin=True).definition


def builtin_tables() -> tuple[RoomTable, RoomTable, ContentsTable]:
    """The built-in d66 room table, d6 entrance table and 2d6 contents table."""
    return (load_table(BUILTIN_ROOMS).rooms, load_table(BUILTIN_ENTRANCES).rooms,
            load_table(BUILTIN_CONTENTS).contents)


def map_mode_tables(rooms: str = "builtin", contents: str = "builtin") -> tuple[RoomTable, RoomTable, ContentsTable]:
    """The tables `sheetgen explore --table ROOMS --contents CONTENTS` rolls on ('builtin' or a
    path each; the entrance table is the built-in one); InputError for a table of another kind."""
    rooms_t = load_table(BUILTIN_ROOMS if rooms in ("builtin", "default") else rooms)
    if rooms_t.model.table != "d66":
        raise InputError(Problem(f"--table {rooms} is a {rooms_t.model.table} table, not a d66 table"))
    contents_t = load_table(BUILTIN_CONTENTS if contents in ("builtin", "default") else contents)
    if contents_t.model.table != "contents":
        raise InputError(Problem(f"--contents {contents} is a {contents_t.model.table} table, not a contents table"))
    return rooms_t.rooms, load_table(BUILTIN_ENTRANCES).rooms, contents_t.contents


# -- lint -------------------------------------------------------------------
def lint(defn) -> list[Finding]:
    out: list[Finding] = []
    if isinstance(defn, Table) and defn.rooms is not None and defn.model.table == "d66":
        kinds = {e.kind for e in defn.rooms.entries.values()}
        for kind in ("corridor", "room"):
            if kind not in kinds:
                out.append(Finding(defn.source.problem(("entries",), f"no {kind} in the table: "
                                                       "a table usually mixes corridors and rooms"), "warning"))
        if not any(len(e.shape.exits) == 1 for e in defn.rooms.entries.values()):
            out.append(Finding(defn.source.problem(("entries",), "no dead end (a shape with one exit): "
                                                   "every map will run to the paper edge"), "warning"))
    if isinstance(defn, Table) and defn.contents is not None:
        used = {defn.contents.results[r].category for row in defn.contents.rows.values() for r in row}
        for cat in CATEGORIES:
            if cat not in used and cat != "boss":
                out.append(Finding(defn.source.problem(("rows",), f"no row gives a result of category {cat}"),
                                   "warning"))
    return out


# -- writing ------------------------------------------------------------------------
def table_yaml(entries: dict[int, tuple[str, str, Any]], title: str, notes: str = "") -> str:
    """A d66 (or entrance) table as YAML text, shapes as block pictures."""
    die = "d66" if len(entries) == 36 else "entrance"
    out = ["sheetgen: 1", "kind: table", "ruleset: exploration", f"table: {die}", f"title: {_q(title)}"]
    if notes:
        out.append(f"notes: {_q(notes)}")
    out.append("entries:")
    for key in sorted(entries):
        kind, name, shape = entries[key]
        out += [f"  {key}:", f"    name: {_q(name)}", f"    kind: {kind}", "    shape: |"]
        out += [f"      {row}" for row in sh.draw_picture(shape).rstrip("\n").split("\n")]
    return "\n".join(out) + "\n"


def _q(text: str) -> str:
    import json
    return json.dumps(text, ensure_ascii=False)


# -- the handler of kind: table and kind: sheet ---------------------------------------
def compose(defn, options):
    """The pages of a table or sheet; the drawing (sheets.py) never sees these models: this
    passes it what it draws."""
    from .. import sheets as draw            # (the drawing is imported only to build)
    if isinstance(defn, Sheet):
        if defn.model.sheet == "graph":
            return draw.graph_document(defn.width, defn.height, options, title=defn.model.title,
                                       paper=options.paper or defn.model.paper)
        return draw.tables_document(defn.rooms, defn.entrances, defn.contents, options,
                                    title=defn.model.title, paper=options.paper or defn.model.paper,
                                    name=defn.source.path.stem, treasure=defn.treasure)
    return draw.tables_document(defn if defn.model.table == "d66" else None,
                                defn if defn.model.table == "entrance" else None,
                                defn if defn.model.table == "contents" else None, options,
                                title=defn.title, paper=options.paper or "a4", name=defn.source.path.stem,
                                treasure=defn if defn.model.table == "treasure" else None)


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, lint=lint, compose=compose, models=lambda: (MODEL, MODELS))

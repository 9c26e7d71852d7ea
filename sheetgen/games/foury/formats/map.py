"""Dungeon Foury maps (`kind: map`, `ruleset: foury`): the format, its lint, the Board.

The core format is fixed by the Foury sheets issue (see tests/data/foury_maps/test-hall.yaml)::

    sheetgen: 1
    kind: map
    ruleset: foury
    title: Test Hall
    grid: 5x5                 # columns x rows; cells A1 (top left) .. E5
    cells: |                  # one symbol per cell: zone letter, O centre room, # rock
      A A A A A
      ...
    zones:
      A: {name: The Temple, requirement: {statues: 3}, events: {1: monster, ..., 6: extra step}}
    entries: [C1:N, E3:E]     # border cell and the side facing off the map
    walls: [B3:E]             # printed walls; B3:E and C3:W are the same wall
    items: {B1: statue}

Extensions (all optional; the defaults keep the core meaning):

    campaign: ancient         # ancient | slaughter | santa | strength | kraken (default ancient)
    start: F6                 # the start triangle for campaigns that start inside
                              # (slaughter: the centre; santa: next to Santa's room)
    turns: 60                 # hourglass boxes on the sheet (santa, kraken; optional elsewhere)
    items: {B2: [statue, potion]}   # a list of items per cell as well as a single name
    flooded: [E5, E6]         # water already on the map (kraken); an item `flooded` works too
    hero_extras: false        # shade beige hero extra boxes on the sheet (default: true,
                              # except campaign strength)
    max_enemies: 48           # slaughter: the most enemies that can be met (default 48 there)
    safe_zone: S              # santa: the zone letter of the XMas Safe Zone
    blank: true               # a map to customise: the player draws the icons, so the lint
                              # does not ask the printed items to meet the requirements
    description: "..."        # a line of flavour text for the sheet
    die_table: {1: monster, 2: lose 1 heart, 3: gain 1 shovel, 4: gain 1 clover,
                5: gain 1 shield, 6: gain 1 chest}
                              # the die item's table, printed beside the map and applied by the
                              # checker and the simulator (default: ours, tables.DIE_TABLE);
                              # six faces, each `monster`, `gain N RESOURCE`, `lose N RESOURCE`
                              # or `nothing` (gains and losses join with +)
    coloured: false           # zones printed white (letters and zone borders), to colour in by hand
    zones:
      A:
        colour: '#7fb069'     # override the zone's fill colour
        events: {1: find potion, 2: monster orc, ...}   # `find ITEM`, `monster ENEMY`

The centre room 'O' is the Oracle (the Kraken in `kraken`, Santa's room in `santa`).
Requirement kinds: statues, kills, levers, cornucopias, one per zone, a positive count.
Every word a map may use, with its meaning: sheetgen.games.foury.vocabulary (`sheetgen list
items|events|enemies|campaigns|requirements|die-effects|sides`).

Loading reports every format error of a file in one run: pydantic's (the shape) and the
Board builder's (cells, names, geometry); where the shape is wrong the builder works on a
repaired copy (the bad parts dropped or emptied) and keeps quiet about those parts.
"""
from __future__ import annotations

from contextvars import ContextVar

from sheetgen.games.base import Handler
import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, PositiveInt, ValidationError, WithJsonSchema, model_serializer

from sheetgen.errors import InputError, Problem, did_you_mean
from .. import board as fb
from ..rules import CAMPAIGNS, rules_for
from ..tables import DIE_RESOURCE_WORDS, DIE_TABLE, SANTA_GOAL, die_face
from ..vocabulary import CAMPAIGN_MEANINGS, REQUIREMENT_MEANINGS
from sheetgen.definitions.models import Colour, Strict, data_loc, any_case, validate_model
from sheetgen.definitions.registry import Finding, Source
from sheetgen.definitions.yamlsource import key_path, locate

ENEMY_ITEMS = frozenset(fb.ENEMIES) | {"monster"}
EVENT_WORDS = ("monster", "collapse", "flood", "chest", "extra", "find")
EVENT_PHRASES = ("collapse origin", "flood origin", "extra step", "chest", "monster")
MAX_COLUMNS = 26                        # cell names use one column letter
_GRID_RE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


# -- what the JSON Schema says a name may be (`sheetgen schema`: an editor completes them) -----
def _words(phrase: str) -> str:
    """A regex of a phrase in any letter case, its words apart by any whitespace."""
    return r"\s+".join(any_case(w) for w in phrase.split())


def _one_of(phrases) -> str:
    return "(" + "|".join(_words(p) for p in sorted(phrases, key=lambda p: (-len(p), p))) + ")"


def _listed(names, pattern: str, description: str) -> dict:
    """A text that is one of names (an editor offers them) or matches pattern (what the loader
    also reads: any case and spacing, joined phrases); a wrong one is reported against the
    names (the branch with a type is the one a validator's best match picks)."""
    return {"type": "string", "anyOf": [{"type": "string", "enum": list(names)}, {"pattern": pattern}],
            "description": description}


def _named(names, description: str) -> dict:
    return _listed(names, r"^\s*" + _one_of(names) + r"\s*$", description)


CELL_PATTERN = r"^\s*[A-Za-z]0*[1-9][0-9]*\s*$"
CELL_SIDE_PATTERN = r"^\s*[A-Za-z]0*[1-9][0-9]*\s*:\s*[NESWnesw]\s*$"
ZONE_LETTER_PATTERN = r"^[A-NP-Z]$"
FACE_PATTERN = r"^\s*\+?0*[1-6]\s*$"
# one part of an event, as board.parse_event reads it (lower-cased, words split on whitespace)
_EVENT_PART = (r"\s*(" + "|".join([
    " ".join(any_case(w) for w in p.split()) for p in ("collapse origin", "flood origin", "extra step")]
    + [any_case("chest"),
       any_case("monster") + r"(\s+" + _one_of(fb.ENEMIES) + ")?",
       any_case("collapse") + r"(\s+" + _one_of(fb.RELATIVE) + ")+",
       any_case("find") + r"\s+" + _one_of(fb.ITEMS)]) + r")\s*")
EVENT_SCHEMA = _listed(
    ["monster", *(f"monster {e}" for e in fb.ENEMIES), "collapse origin", "flood origin", "chest", "extra step",
     *(f"collapse {r}" for r in fb.RELATIVE), *(f"find {i}" for i in fb.ITEMS)],
    "^" + _EVENT_PART + r"(\+" + _EVENT_PART + ")*$",
    "monster [ENEMY], collapse SIDES (front, behind, left, right), collapse origin, flood origin, chest, extra step "
    "or find ITEM; join several with +")
_DIE_PART = (r"\s*(" + any_case("nothing") + "|(" + any_case("gain") + "|" + any_case("lose")
             + r")(\s+0*[1-9][0-9]*)?\s+" + _one_of(DIE_RESOURCE_WORDS) + r")\s*")
DIE_EFFECT_SCHEMA = _listed(
    ["monster", "nothing", *(f"{verb} 1 {word}" for verb in ("gain", "lose")
                             for word in ("heart", "shield", "weapon", "clover", "shovel", "chest", "cornucopia"))],
    r"^(\s*" + any_case("monster") + r"\s*|" + _DIE_PART + r"(\+" + _DIE_PART + ")*)$",
    "monster (a face of its own), gain N RESOURCE, lose N RESOURCE or nothing; gains and losses join with +")
ItemName = Annotated[str, WithJsonSchema(_named(fb.ITEMS, "an item (`sheetgen list items`)"))]
EventText = Annotated[str, WithJsonSchema(EVENT_SCHEMA)]
DieEffect = Annotated[str, WithJsonSchema(DIE_EFFECT_SCHEMA)]
CellName = Annotated[str, WithJsonSchema({"type": "string", "pattern": CELL_PATTERN,
                                          "description": "a cell: column letter and row number, e.g. C4"})]
CellSide = Annotated[str, WithJsonSchema({"type": "string", "pattern": CELL_SIDE_PATTERN,
                                          "description": "CELL:SIDE, e.g. B3:E (sides N, E, S, W)"})]
ZoneLetter = Annotated[str, WithJsonSchema({"type": "string", "pattern": ZONE_LETTER_PATTERN,
                                            "description": "a zone letter (one capital letter other than O)"})]
_FACES = {"propertyNames": {"pattern": FACE_PATTERN}}


# -- the model ---------------------------------------------------------------
class Requirement(Strict):
    """What awakens the Oracle in this zone's round: one kind with a positive count."""
    statues: PositiveInt | None = Field(None, description=REQUIREMENT_MEANINGS["statues"])
    kills: PositiveInt | None = Field(None, description=REQUIREMENT_MEANINGS["kills"])
    levers: PositiveInt | None = Field(None, description=REQUIREMENT_MEANINGS["levers"])
    cornucopias: PositiveInt | None = Field(None, description=REQUIREMENT_MEANINGS["cornucopias"])

    def kinds(self) -> list[tuple[str, int]]:
        return [(k, getattr(self, k)) for k in fb.REQUIREMENT_KINDS if getattr(self, k) is not None]


class ZoneModel(Strict):
    name: str = Field(description="the zone's name, printed over its events")
    requirement: Requirement | None = Field(
        None, description="what awakens the Oracle in this zone's round: one of statues, kills, levers, "
                          "cornucopias with a count (none: the zone has no round)")
    events: dict[int, EventText] = Field(
        description="the six events 1-6, rolled when the hero enters an unexplored room from this zone",
        json_schema_extra=_FACES)
    colour: Colour = Field(None, description="the zone's fill colour on the map (default: the zone letter's)")


class MapModel(Strict):
    sheetgen: Literal[1] = Field(description="the format version")
    kind: Literal["map"] = Field(description="a map")
    ruleset: Literal["foury"] = Field(description="Dungeon Foury")
    title: str = Field(description="the map's title, printed on the sheet")
    description: str = Field("", description="a line of flavour text for the sheet")
    grid: str = Field(description="COLUMNSxROWS, e.g. 9x9 (3 to 26 columns, 3 to 99 rows)",
                      json_schema_extra={"pattern": r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$"})
    cells: str = Field(description="one symbol per cell, a row per line: a zone letter, O for the centre room "
                                   "(the Oracle), # for rock", json_schema_extra={"pattern": r"^[A-Z#\s]*$"})
    zones: dict[ZoneLetter, ZoneModel] = Field(
        description="each zone letter used in cells: its name, requirement and six events",
        json_schema_extra={"propertyNames": {"pattern": ZONE_LETTER_PATTERN}})
    entries: list[CellSide] = Field([], description="entry/exit arrows: a border cell and the side facing off the "
                                                    "map, e.g. C1:N; an arrow belongs to its cell's zone")
    walls: list[CellSide] = Field([], description="walls printed on the map: CELL:SIDE (B3:E and C3:W are the "
                                                  "same wall)")
    items: dict[CellName, ItemName | list[ItemName]] = Field(
        {}, description="what is printed in a cell: an item or a list of items (`sheetgen list items`)",
        json_schema_extra={"propertyNames": {"pattern": CELL_PATTERN}})
    campaign: Literal[tuple(CAMPAIGNS)] = Field(
        "ancient", description="the campaign the map is played as: "
                               + "; ".join(f"{k}: {v}" for k, v in CAMPAIGN_MEANINGS.items()))
    start: CellName | None = Field(None, description="the start cell of a campaign that starts inside "
                                                     "(slaughter: the centre; santa: next to Santa's room)")
    # many more hourglass boxes push the rest of the character sheet off the page
    # (the same bound as a sheet's `turns:` in foury_sheet)
    turns: PositiveInt | None = Field(None, le=120, description="hourglass boxes on the character sheet (santa, "
                                                                "kraken: the time limit; optional elsewhere)")
    flooded: list[CellName] = Field([], description="cells already under water (kraken)")
    hero_extras: bool | None = Field(None, description="shade the beige hero extra boxes on the character sheet "
                                                       "(default: yes, except campaign strength)")
    max_enemies: PositiveInt | None = Field(None, description="slaughter: the most enemies that can be met "
                                                              "(default 48 there)")
    safe_zone: ZoneLetter | None = Field(None, description="santa: the zone letter of the XMas Safe Zone")
    blank: bool = Field(False, description="a map to customise: the player draws the icons, so the lint does not "
                                           "ask the printed items to meet the requirements")
    coloured: bool = Field(True, description="false: the zones print without colour fills (white, with their "
                                             "letters and borders between zones), a map to colour in by hand")
    die_table: dict[int, DieEffect] | None = Field(
        None, description="the die item's table, faces 1-6, printed beside the map and applied by the checker "
                          "and the simulator (default: ours, `sheetgen list die-effects`)",
        json_schema_extra=_FACES)

    @model_serializer(mode="wrap")
    def _dump(self, handler):
        # a map without its own die table dumps as before the key existed: the sheet id printed in
        # the footer (a hash of the dump) of every existing map stays the same
        out = handler(self)
        if self.die_table is None and isinstance(out, dict):
            out.pop("die_table", None)
        return out


MODEL = MapModel


@dataclass
class FouryMap:
    """A validated Foury map: the model as written, where it came from, and the rules' Board."""
    model: MapModel
    source: Source
    board: fb.Board
    cell_marks: dict[fb.Coord, tuple[int, int]] = field(default_factory=dict, repr=False)
    # each printed wall (its canonical key) -> (its index under walls:, its name as written, e.g. B3:E)
    wall_names: dict[tuple[fb.Coord, str], tuple[int, str]] = field(default_factory=dict, repr=False)

    @property
    def title(self) -> str:
        return self.model.title

    @property
    def campaign(self) -> str:
        return self.model.campaign

    @property
    def hero_extras(self) -> bool:
        return self.board.hero_extras

    def zone_colour(self, letter: str) -> str | None:
        zone = self.model.zones.get(letter)
        return zone.colour if zone else None

    def cell_location(self, c: fb.Coord) -> tuple[int | None, int | None]:
        return self.cell_marks.get(c, (None, None))


# -- loading -----------------------------------------------------------------
def load(data, source: Source) -> FouryMap:
    """The map, or InputError listing every format problem of the file (shape and board) at once."""
    try:
        model: MapModel = validate_model(MapModel, data, source.filename)
        shape: list[Problem] = []
        bad: list[tuple] = []
    except InputError as exc:
        shape = exc.problems
        model, bad = repaired_model(data)
        if model is None:
            raise
    problems: list[Problem] = []
    builder = BoardBuilder(model, source, problems, quiet=bad)
    board = builder.build()
    if shape or problems:               # in the file's order, as a designer reads it
        raise InputError(sorted(shape + problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0)))
    return FouryMap(model, source, board, builder.cell_marks, builder.wall_names)


# what a required key that is missing or wrong becomes in the repaired copy (the builder then
# checks the rest of the file; its words about these keys are dropped)
_STAND_INS = {"title": "", "grid": "", "cells": "", "zones": {}, "name": "", "events": {}}


def repaired_model(data) -> tuple[MapModel | None, list[tuple]]:
    """A model of data with what pydantic refused dropped (a bad optional key, list entry or
    mapping entry) or emptied (a required key), and the places refused; (None, []) when even
    the repaired copy does not validate (a few rounds: a repair may uncover another problem)."""
    if not isinstance(data, dict):
        return None, []
    fixed = copy.deepcopy(_plain(data))
    bad: list[tuple] = []
    for _ in range(4):
        try:
            return MapModel.model_validate(fixed), bad
        except ValidationError as exc:
            errors = exc.errors(include_url=False)
        for err in errors:
            loc = data_loc(err)
            bad.append(loc)
            if not loc or not _repair(fixed, loc, err):
                return None, []
    return None, []


def _plain(value):
    """Marked YAML data as plain dicts and lists (what the repair edits)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _repair(data: dict, loc: tuple, err: dict) -> bool:
    """Drop or empty the value at loc; False where there is nothing sensible to do."""
    parent = data
    for part in loc[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return False
    last = loc[-1]
    is_key = bool(err["loc"]) and err["loc"][-1] == "[key]"
    if isinstance(parent, list):
        if not isinstance(last, int) or last >= len(parent):
            return False
        parent[last] = ""                  # keeps the other entries' indexes (and so their locations)
        return True
    if not isinstance(parent, dict):
        return False
    if len(loc) == 2 and loc[0] == "zones" and not is_key:
        parent[last] = {"name": "", "events": {}}      # a zone that is not a zone: keep its letter
        return True
    if err["type"] == "missing" or (last in _STAND_INS and not is_key and _is_field(loc)):
        if last not in _STAND_INS:
            return False
        parent[last] = copy.deepcopy(_STAND_INS[last])
        return True
    parent.pop(last, None)                 # an unknown or bad optional key, or a mapping's entry
    return True


def _is_field(loc: tuple) -> bool:
    """Is loc a key of the map or of a zone (not an entry of items, events ...)?"""
    return len(loc) == 1 or (len(loc) == 3 and loc[0] == "zones")


def _quieted(loc: tuple, bad: list[tuple]) -> bool:
    """A builder problem at loc says again what pydantic said at (or around) a bad place."""
    return any(loc[:len(b)] == b or b[:len(loc)] == loc for b in bad)


def load_map(name_or_path: str | Path, relative_to: str | Path | None = None) -> FouryMap:
    """A Foury map from a built-in name or a path (tried relative to relative_to first)."""
    from sheetgen.definitions.registry import load as load_definition
    target: str | Path = name_or_path
    if relative_to is not None and not Path(name_or_path).is_absolute():
        candidate = Path(relative_to) / name_or_path
        if candidate.exists():
            target = candidate
    loaded = load_definition(target)
    if (loaded.kind, loaded.ruleset) != ("map", "foury"):
        raise InputError(Problem(f"this is a {loaded.kind} definition"
                                 f"{' (' + loaded.ruleset + ')' if loaded.ruleset else ''}, not a Foury map",
                                 loaded.source.filename, 1, 1, path="kind", expected="kind: map, ruleset: foury"))
    return loaded.definition


class BoardBuilder:
    """Turns the validated model into a Board, collecting every located problem."""

    def __init__(self, model: MapModel, source: Source, problems: list[Problem], quiet: list[tuple] = ()):
        self.m = model
        self.src = source
        self.problems = problems
        self.quiet = list(quiet)            # places pydantic refused (already reported)
        self.cell_marks: dict[fb.Coord, tuple[int, int]] = {}
        self.wall_names: dict[tuple[fb.Coord, str], tuple[int, str]] = {}
        self.columns = self.rows = 0

    def err(self, loc: tuple, message: str, **kw) -> None:
        if not _quieted(loc, self.quiet):
            self.problems.append(self.src.problem(loc, message, **kw))

    def err_key(self, loc: tuple, message: str, **kw) -> None:
        """A problem located at the key itself (a zone letter), not at its value."""
        if _quieted(loc, self.quiet):
            return
        line, col = locate(self.src.data, loc, key_itself=True) or (None, None)
        self.problems.append(Problem(message, self.src.filename, line, col, path=key_path(loc), **kw))

    def err_at(self, line: int | None, col: int | None, path: str, message: str, **kw) -> None:
        """A problem inside the cells block (located at its row and column)."""
        if not _quieted((path,), self.quiet):
            self.problems.append(Problem(message, self.src.filename, line, col, path=path, **kw))

    # grid and cells ---------------------------------------------------------
    def grid(self) -> bool:
        m = _GRID_RE.match(self.m.grid)
        if not m:
            self.err(("grid",), f"'{self.m.grid}' is not a grid size", expected="COLUMNSxROWS like 5x5 or 11x11")
            return False
        cols, rows = int(m.group(1)), int(m.group(2))
        if not (3 <= cols <= MAX_COLUMNS) or not (3 <= rows <= 99):
            self.err(("grid",), f"grid {cols}x{rows} is out of range",
                     expected=f"3 to {MAX_COLUMNS} columns and 3 to 99 rows")
            return False
        self.columns, self.rows = cols, rows
        return True

    def _cells_layout(self) -> tuple[int, int | None, bool]:
        """(file line of the first row, column offset of the block, is a literal block)."""
        mark = self.src.data.value_marks.get("cells") if hasattr(self.src.data, "value_marks") else None
        key_mark = self.src.data.key_marks.get("cells") if hasattr(self.src.data, "key_marks") else None
        line, col = mark or (None, None)
        lines = _source_lines(self.src)
        literal = True
        indent = None
        if line is not None and lines is not None and 0 < line <= len(lines):
            literal = lines[line - 1][col - 1:col] in ("|", ">") if col else True
        if not literal:
            return line, None, False
        # a literal block's rows start on the line after `cells: |`
        if lines is None and key_mark is not None:
            indent = key_mark[1] - 1 + 2
        return (line + 1 if line is not None else None), indent, True

    def cells(self) -> dict[fb.Coord, str]:
        text = self.m.cells
        first_line, fallback_indent, literal = self._cells_layout()
        value_mark = self.src.data.value_marks.get("cells", (None, None)) \
            if hasattr(self.src.data, "value_marks") else (None, None)
        lines = _source_lines(self.src)
        raw_rows = text.split("\n")
        # trailing empty lines (the block's end) are not rows
        while raw_rows and not raw_rows[-1].strip():
            raw_rows.pop()
        symbols = set(self.m.zones) | {fb.CENTRE, fb.ROCK}
        grid_ok = self.columns > 0
        cells: dict[fb.Coord, str] = {}
        used_letters: set[str] = set()
        rows_seen = [r for r in raw_rows if r.strip()]
        if grid_ok and len(rows_seen) != self.rows:
            self.err(("cells",), f"cells has {len(rows_seen)} row{'s' if len(rows_seen) != 1 else ''} "
                     f"but grid {self.m.grid.strip()} needs {self.rows}")
        y = -1
        for i, raw in enumerate(raw_rows):
            if not raw.strip():
                continue
            y += 1
            if literal and first_line is not None:
                line = first_line + i
                offset = fallback_indent or 0
                if lines is not None and 0 < line <= len(lines) and lines[line - 1].rstrip("\r\n").endswith(raw):
                    offset = len(lines[line - 1].rstrip("\r\n")) - len(raw)
            else:
                line, offset = value_mark[0], None
            tokens = _tokens(raw)
            if grid_ok and len(tokens) != self.columns and y < self.rows:
                col = (offset + tokens[0][0] + 1) if (offset is not None and tokens) else value_mark[1]
                self.err_at(line, col, "cells", f"row {y + 1} has {len(tokens)} cell"
                            f"{'s' if len(tokens) != 1 else ''} but grid {self.m.grid.strip()} needs {self.columns}")
            for x, (pos, sym) in enumerate(tokens):
                col = offset + pos + 1 if offset is not None else value_mark[1]
                where = f"row {y + 1}, column {x + 1}"
                if x < MAX_COLUMNS:
                    where += f" (cell {fb.cell_name((x, y))})"
                if sym not in symbols:
                    if len(sym) == 1 and sym.isupper():
                        self.err_at(line, col, "cells", f"{where}: unknown symbol '{sym}': zone {sym} is used "
                                    "in cells but not defined under zones", expected="a zone letter (" +
                                    ", ".join(sorted(self.m.zones)) + "), O for the centre room or # for rock",
                                    suggestion=did_you_mean(sym, sorted(_valid_letters(self.m.zones))))
                    else:
                        self.err_at(line, col, "cells", f"{where}: unknown symbol '{sym}'",
                                    expected="a zone letter (" + ", ".join(sorted(self.m.zones)) +
                                    "), O for the centre room or # for rock",
                                    suggestion=did_you_mean(sym.upper(), sorted(symbols)) if sym.upper() in symbols else None)
                    continue
                if grid_ok and (x >= self.columns or y >= self.rows):
                    continue
                cells[(x, y)] = sym
                self.cell_marks[(x, y)] = (line, col)
                used_letters.add(sym)
        for letter in self.m.zones:
            if letter not in used_letters and letter in _valid_letters(self.m.zones):
                self.err_key(("zones", letter), f"zone '{letter}' is defined but no cell uses it")
        return cells

    # zones -------------------------------------------------------------------
    def zones(self) -> dict[str, fb.Zone]:
        out = {}
        for letter, zone in self.m.zones.items():
            loc = ("zones", letter)
            if letter not in _valid_letters(self.m.zones):
                self.err_key(loc, f"'{letter}' is not a zone letter", expected="one capital letter other than O")
                continue
            kind, count = None, 0
            if zone.requirement is not None:
                kinds = zone.requirement.kinds()
                if len(kinds) != 1:
                    self.err(loc + ("requirement",), "a requirement names exactly one kind"
                             f"{' (got ' + ', '.join(k for k, _ in kinds) + ')' if kinds else ''}",
                             expected="one of statues, kills, levers, cornucopias with a positive count")
                else:
                    kind, count = kinds[0]
            wrong = _faces_wrong(zone.events)
            if wrong:
                self.err(loc + ("events",), f"zone {letter} needs exactly six events numbered 1-6 ({wrong})")
            events = {}
            for n, text in zone.events.items():
                try:
                    events[n] = fb.parse_event(text)
                except ValueError as exc:
                    suggestion = None
                    word = str(text).lower().strip()
                    if word.startswith("find "):
                        suggestion = _suggest_phrase("find ", word[5:], fb.ITEMS)
                    elif word.startswith("monster "):
                        suggestion = _suggest_phrase("monster ", word[8:], fb.ENEMIES)
                    elif word:
                        head, _, rest = word.partition(" ")
                        fixed = did_you_mean(head, EVENT_WORDS)
                        if fixed and fixed != head:
                            suggestion = (fixed + " " + rest).strip()
                        else:           # the first word is right: the phrase as a whole ('extra stp')
                            suggestion = did_you_mean(word, EVENT_PHRASES)
                    self.err(loc + ("events", n), str(exc), suggestion=suggestion)
            out[letter] = fb.Zone(letter, zone.name, kind, count, events)
        return out

    # cell references ------------------------------------------------------------
    def cell(self, loc: tuple, text: str, what: str) -> fb.Coord | None:
        try:
            c = fb.parse_cell(text)
        except ValueError as exc:
            self.err(loc, str(exc))
            return None
        if self.columns and not (0 <= c[0] < self.columns and 0 <= c[1] < self.rows):
            self.err(loc, f"{what} {fb.cell_name(c) if c[0] < MAX_COLUMNS else text} is off the grid",
                     expected=f"a cell from A1 to {fb.cell_name((self.columns - 1, self.rows - 1))}")
            return None
        return c

    def cell_side(self, loc: tuple, text: str, what: str) -> tuple[fb.Coord, str] | None:
        try:
            (c, side) = fb.parse_cell_side(text)
        except ValueError as exc:
            self.err(loc, str(exc))
            return None
        cname = text.split(":", 1)[0].strip()
        if self.cell(loc, cname, what) is None:
            return None
        return c, side

    def entries(self, cells) -> tuple[tuple[fb.Coord, str], ...]:
        out: list[tuple[fb.Coord, str]] = []
        seen: dict[tuple[fb.Coord, str], int] = {}
        for i, text in enumerate(self.m.entries):
            loc = ("entries", i)
            cs = self.cell_side(loc, text, "entry")
            if cs is None:
                continue
            c, side = cs
            name = f"{fb.cell_name(c)}:{side}"
            if (c, side) in seen:
                self.err(loc, f"entry {name} is given twice (first as entries[{seen[(c, side)]}])")
                continue
            seen[(c, side)] = i
            if not self.columns:        # no usable grid (reported): the rest needs one
                continue
            on_border = c[0] in (0, self.columns - 1) or c[1] in (0, self.rows - 1)
            if not on_border:
                self.err(loc, f"entry {name} is not on the border of the map",
                         expected="a cell in the first or last row or column")
                continue
            if fb.neighbour(c, side)[0] in range(self.columns) and fb.neighbour(c, side)[1] in range(self.rows):
                facing = [s for s in fb.SIDES
                          if not (0 <= fb.neighbour(c, s)[0] < self.columns and 0 <= fb.neighbour(c, s)[1] < self.rows)]
                self.err(loc, f"entry {name}: side {side} does not face off the map",
                         expected=f"{' or '.join(fb.cell_name(c) + ':' + s for s in facing)}")
                continue
            sym = cells.get(c)
            if sym == fb.ROCK:
                self.err(loc, f"entry {name} is on rock (#)", expected="an entry on a zone cell")
                continue
            if sym == fb.CENTRE:
                self.err(loc, f"entry {name} is on the centre room", expected="an entry on a zone cell")
                continue
            out.append((c, side))
        return tuple(out)

    def walls(self) -> frozenset:
        out: dict[tuple[fb.Coord, str], tuple[int, str]] = {}
        for i, text in enumerate(self.m.walls):
            loc = ("walls", i)
            cs = self.cell_side(loc, text, "wall")
            if cs is None:
                continue
            c, side = cs
            name = f"{fb.cell_name(c)}:{side}"
            n = fb.neighbour(c, side)
            if self.columns and not (0 <= n[0] < self.columns and 0 <= n[1] < self.rows):
                self.err(loc, f"wall {name} is on the map edge, which is a wall already")
                continue
            key = fb.wall_key(c, side)
            if key in out:
                j, first = out[key]
                same = "" if first == name else f" ({first})"
                self.err(loc, f"wall {name} is the same wall as walls[{j}]{same}; give each wall once")
                continue
            out[key] = (i, name)
        self.wall_names = out
        return frozenset(out)

    def items(self, cells) -> dict[fb.Coord, tuple[str, ...]]:
        out: dict[fb.Coord, tuple[str, ...]] = {}
        for key, value in self.m.items.items():
            loc = ("items", key)
            c = self.cell(loc, key, "item cell")
            names = [value] if isinstance(value, str) else list(value)
            good = []
            for j, raw in enumerate(names):
                iloc = loc if isinstance(value, str) else loc + (j,)
                name = " ".join(str(raw).lower().split())
                if name not in fb.ITEMS:
                    hint = did_you_mean(name, fb.ITEMS)
                    self.err(iloc, f"unknown item '{raw}'", suggestion=hint,
                             expected=None if hint else "one of " + ", ".join(fb.ITEMS))
                    continue
                good.append(name)
            if c is None:
                continue
            if cells.get(c) == fb.ROCK:
                self.err(loc, f"items on rock: {fb.cell_name(c)} is solid rock (#)")
                continue
            if c in out:  # the same cell written twice (e.g. b2 and B2)
                self.err(loc, f"cell {fb.cell_name(c)} is given twice under items")
                continue
            if good:
                out[c] = tuple(good)
        return out

    def build(self) -> fb.Board:
        m = self.m
        self.grid()
        cells = self.cells()
        zones = self.zones()
        # without a usable grid (reported) the names are still read, for their own mistakes
        entries = self.entries(cells)
        walls = self.walls()
        items = self.items(cells)
        die = self.die_table()
        if not self.columns:
            entries, walls, items = (), frozenset(), {}
        start = None
        if m.start is not None:
            start = self.cell(("start",), m.start, "start")
            if start is not None and cells.get(start) == fb.ROCK:
                self.err(("start",), f"start {fb.cell_name(start)} is on rock (#)")
                start = None
        flooded = set()
        for i, text in enumerate(m.flooded):
            c = self.cell(("flooded", i), text, "flooded cell")
            if c is not None:
                if cells.get(c) == fb.ROCK:
                    self.err(("flooded", i), f"flooded cell {fb.cell_name(c)} is rock (#)")
                else:
                    flooded.add(c)
        flooded |= {c for c, names in items.items() if "flooded" in names}
        if m.safe_zone is not None and m.safe_zone not in m.zones:
            self.err(("safe_zone",), f"safe zone '{m.safe_zone}' is not a zone",
                     expected="a letter defined under zones", suggestion=did_you_mean(m.safe_zone, m.zones))
        camp = rules_for(m.campaign).campaign
        hero_extras = m.hero_extras if m.hero_extras is not None else not camp.full_scale
        max_enemies = m.max_enemies if m.max_enemies is not None else camp.max_enemies
        return fb.Board(title=m.title, columns=self.columns, rows=self.rows, cells=cells, zones=zones,
                        entries=entries, walls=walls, items=items, campaign=m.campaign, start=start,
                        flooded=frozenset(flooded), turns=m.turns, max_enemies=max_enemies,
                        safe_zone=m.safe_zone, hero_extras=hero_extras, die_table=die)

    def die_table(self) -> dict:
        """The map's die table (six faces, each a known effect), else ours."""
        if self.m.die_table is None:
            return DIE_TABLE
        wrong = _faces_wrong(self.m.die_table)
        if wrong:
            self.err(("die_table",), f"a die table has six faces numbered 1-6 ({wrong})")
        table = {}
        for face, text in self.m.die_table.items():
            try:
                table[face] = die_face(face, text)
            except ValueError as exc:
                self.err(("die_table", face), str(exc))
        return table if set(table) == {1, 2, 3, 4, 5, 6} else DIE_TABLE


def _faces_wrong(table: dict) -> str | None:
    """What keeps a table's keys from being the six die faces: 'missing 5, 6; not a die face: 7'."""
    faces = set(table)
    detail = []
    if set(range(1, 7)) - faces:
        detail.append("missing " + ", ".join(map(str, sorted(set(range(1, 7)) - faces))))
    if faces - set(range(1, 7)):
        detail.append("not a die face: " + ", ".join(map(str, sorted(faces - set(range(1, 7))))))
    return "; ".join(detail) or None


def _valid_letters(zones) -> set[str]:
    return {k for k in zones if isinstance(k, str) and len(k) == 1 and "A" <= k <= "Z" and k != fb.CENTRE}


def _tokens(row: str) -> list[tuple[int, str]]:
    """Symbols of a cells row with their 0-based positions: 'A A #' or 'AA#'."""
    found = [(m.start(), m.group()) for m in re.finditer(r"\S+", row)]
    if len(found) == 1 and len(found[0][1]) > 1:
        start, word = found[0]
        return [(start + i, ch) for i, ch in enumerate(word)]
    return found


def _suggest_phrase(prefix: str, word: str, candidates) -> str | None:
    hint = did_you_mean(word, candidates)
    return prefix + hint if hint else None


def _source_lines(source: Source) -> list[str] | None:
    try:
        return Path(source.path).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None


# -- lint ----------------------------------------------------------------------
# lint_with_cells's record of the lists a message shortened (per thread of work: a contextvar)
_FULL_LISTS: ContextVar[dict[str, list[str]] | None] = ContextVar("_FULL_LISTS", default=None)


def _names(cells, limit: int = 16) -> str:
    names = [fb.cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0]))]
    if len(names) > limit:
        text = ", ".join(names[:limit]) + f" and {len(names) - limit} more"
        full = _FULL_LISTS.get()
        if full is not None:
            full[text] = names
        return text
    return ", ".join(names)


def lint_with_cells(fmap: FouryMap) -> tuple[list[Finding], dict[str, list[str]]]:
    """lint(fmap), and every list of cells its messages shortened ('B4, C4 and 2 more') in full:
    the workbench outlines every cell a finding is about, not only those a message prints."""
    full: dict[str, list[str]] = {}
    token = _FULL_LISTS.set(full)
    try:
        return lint(fmap), full
    finally:
        _FULL_LISTS.reset(token)


def _in_sentence(name: str) -> str:
    """'The Kraken' -> 'the Kraken' (a name inside a sentence)."""
    return name[:1].lower() + name[1:]


def lint(fmap: FouryMap) -> list[Finding]:
    """Playability: connected zones, reachable centre, meetable requirements, exits."""
    b, m, src = fmap.board, fmap.model, fmap.source
    camp = rules_for(m.campaign).campaign
    findings: list[Finding] = []

    def at_cell(c, message, severity="error", path="cells"):
        line, col = fmap.cell_location(c)
        findings.append(Finding(Problem(message, src.filename, line, col, path=path), severity))

    def at(loc, message, severity="error"):
        findings.append(Finding(src.problem(loc, message), severity))

    # every zone is one connected region
    for letter in b.zones:
        region = set(b.zone_cells(letter))
        parts = _components(region)
        if len(parts) > 1:
            parts.sort(key=len, reverse=True)
            stray = [p for p in parts[1:]]
            first = min(stray[0], key=lambda c: (c[1], c[0]))
            desc = "; ".join(_names(p) for p in stray)
            at_cell(first, f"zone {letter} is not one connected region: {desc} "
                    f"{'is' if len(stray) == 1 else 'are'} cut off from {_names(parts[0], 8)}")

    centre = b.centre_cells()
    exits = camp.exits
    if camp.needs_centre and not centre:
        at(("cells",), "the map has no centre room (O)")
    if len(centre) > 1:
        at_cell(centre[1], f"the map has {len(centre)} centre rooms (O) at {_names(centre)}: {room_of(camp)} is one "
                "cell; keep one O and make the others zone cells or rock")

    # where play starts: the entries, or the start triangle
    starts: list[fb.Coord] = [c for c, _ in b.entries]
    if b.start is not None:
        starts.append(b.start)
    reachable = b.reachable_from(starts)

    # what cannot reach the centre room: one finding per closed-off part of the map
    said: set = set()          # cells a finding names already (no second word about them)
    if centre:
        joined = b.reachable_from(centre)           # passages go both ways: what reaches the centre
        open_cells = {c for c, sym in b.cells.items() if sym != fb.ROCK}
        if joined == set(centre) and open_cells - joined:
            at_cell(centre[0], f"{room_of(camp)} {_names(centre)} is closed in: no entry and no cell can reach it, "
                    f"{_blockers(fmap, set(centre))}")
            said |= open_cells
        else:
            cut: dict[frozenset, list[str]] = {}
            for letter in b.zones:
                cells = set(b.zone_cells(letter))
                if cells and not cells & joined:
                    cut.setdefault(frozenset(b.reachable_from(cells)), []).append(letter)
            for region, letters in cut.items():
                arrows = [f"{fb.cell_name(c)}:{side}" for c, side in b.entries if c in region]
                zones = ", ".join(f"{x} ({b.zones[x].name})" for x in letters)
                at(("zones", letters[0]), f"zone{'s' if len(letters) > 1 else ''} {zones} cannot reach {room_of(camp)} "
                   f"{_names(centre)}: {_blockers(fmap, set(region))}"
                   + (f"; {'its entries' if len(arrows) > 1 else 'its entry'} {', '.join(arrows)} cannot reach it "
                      "either" if arrows else ""))
                said |= region
    if exits and centre and not said >= set(centre):
        stuck: dict[frozenset, list[int]] = {}
        for i, (c, side) in enumerate(b.entries):
            if c not in said:
                got = b.reachable_from([c])
                if not got & set(centre):
                    stuck.setdefault(frozenset(got), []).append(i)
        for got, indexes in stuck.items():
            arrows = ", ".join(f"{fb.cell_name(b.entries[i][0])}:{b.entries[i][1]}" for i in indexes)
            one = len(indexes) == 1
            at(("entries", indexes[0]), f"entr{'y' if one else 'ies'} {arrows} cannot reach the centre room "
               f"{_names(centre)}: {'it gets' if one else 'they get'} stuck in {_names(got, 10)} ({len(got)} cell"
               f"{'s' if len(got) != 1 else ''}), {_blockers(fmap, set(got))}")
            said |= got
    if exits:
        zones_with_entries = {b.zone_of(c) for c, _ in b.entries}
        if len(zones_with_entries - {None}) < 2:
            at(("entries",), "a round exits through a different zone than it entered: the map needs entries "
               f"in at least 2 zones (has {', '.join(sorted(z for z in zones_with_entries if z)) or 'none'})")
        for letter, zone in b.zones.items():
            # each round starts at its own zone's arrow (the Kraken is one expedition from any gate)
            if zone.requirement_kind and letter not in zones_with_entries and camp.rounds > 1:
                at(("zones", letter), f"zone {letter} ({zone.name}) has a round but no entry arrow in its cells "
                   f"({_names(b.zone_cells(letter), 6)})")
        rounds = sum(1 for z in b.zones.values() if z.requirement_kind)
        if rounds and len(b.entries) < 2 * rounds and camp.rounds > 1:
            at(("entries",), f"each round closes the entry it used and the exit it took: {rounds} rounds use "
               f"{2 * rounds} entries but the map has {len(b.entries)}", severity="warning")
    else:
        if b.entries and not camp.arrows:
            at(("entries",), f"{_in_sentence(camp.title)} has no exits: all entrances have collapsed")
        if b.start is None:
            at((), f"campaign {m.campaign} starts inside the map: give `start:` a cell {camp.start_hint}")
        elif camp.start_beside_centre and centre and not any(
                fb.neighbour(b.start, s) in centre and b.open_on_blank_map(b.start, s) for s in fb.SIDES):
            at(("start",), f"start {fb.cell_name(b.start)} is not an open space next to Santa's room "
               f"{_names(centre)}")
    if camp.exit_opposite:
        sides = {side for _, side in b.entries}
        if sides and not any(fb.OPPOSITE[side] in sides for side in sides):
            at(("entries",), "the Kraken is sealed by leaving through the side opposite the last requirement's "
               f"zone: the entries stand only on {', '.join(sorted(sides))}", severity="warning")
    if b.max_enemies is not None:
        enemies = [c for c, names in b.items.items() for n in names if n in ENEMY_ITEMS and n != "kraken"]
        if len(enemies) > b.max_enemies:
            at(("items",), f"the map prints {len(enemies)} enemies but max_enemies is {b.max_enemies}")
    circles = [c for c, names in b.items.items() if "magic circle" in names]
    if len(circles) == 1:
        at(("items", _names(circles)), f"a lone magic circle at {_names(circles)} leads nowhere "
           "(circles link to each other)", severity="warning")

    if camp.timed and b.turns is None:
        at((), f"campaign {m.campaign} is played against the hourglass: give `turns:` (hourglass boxes)")
    if camp.full_scale and b.hero_extras:
        at(("hero_extras",), f"{camp.title} has no hero extra boxes", severity="warning")
    if not camp.cave_ins:
        for letter, zone in b.zones.items():
            for n, evs in zone.events.items():
                if any(e.kind in ("collapse", "collapse origin") for e in evs):
                    at(("zones", letter, "events", n), f"{_in_sentence(camp.centre)} has no cave-ins, only floods: "
                       f"zone {letter} event {n} collapses walls")
    if camp.flood_every:
        wet = _components(set(b.flooded))
        if centre and not any(any(fb.neighbour(c, s) in centre for s in fb.SIDES) for part in wet for c in part):
            at(("flooded",), f"no flooded space touches the Kraken's room {_names(centre)}")
    if m.safe_zone is not None and m.safe_zone in b.zones:
        safe = set(b.zone_cells(m.safe_zone))
        if not safe & reachable:
            at(("safe_zone",), f"the safe zone {m.safe_zone} ({_names(safe)}) cannot be reached from the start")

    # requirements
    if not m.blank:
        findings.extend(_requirement_findings(fmap, reachable))
        if camp.collection:
            findings.extend(_santa_findings(fmap, reachable))

    # what the map prints to no purpose
    for key, (i, name) in fmap.wall_names.items():
        rock = [c for c in (key[0], fb.neighbour(*key)) if b.on_board(c) and b.is_rock(c)]
        if rock:
            at(("walls", i), f"wall {name} faces rock at {_names(rock)}: rock is solid already, the wall changes "
               "nothing (remove it)", severity="warning")
    for key in m.items:
        try:
            c = fb.parse_cell(key)
        except ValueError:
            continue
        extra = [n for n in b.items_at(c) if n != camp.centre_icon] if b.is_centre(c) else []
        if extra:
            what = " and ".join(extra) if len(extra) < 3 else ", ".join(extra[:-1]) + " and " + extra[-1]
            at(("items", key), f"{what} printed in {room_of(camp)} {fb.cell_name(c)}: the room is entered without a "
               f"roll and the sheet prints {room_of(camp, owner=False)} there; put "
               f"{'it' if len(extra) == 1 else 'them'} in a zone cell", severity="warning")
    if m.die_table is not None and not m.blank and not any("die" in names for names in b.items.values()):
        at(("die_table",), "the map prints no die item: its die table is never rolled", severity="warning")

    # cells nobody can reach on the blank map
    if starts:
        lost = {c for c, s in b.cells.items() if s != fb.ROCK and c not in reachable and c not in said}
        for part in _components(lost):
            first = min(part, key=lambda c: (c[1], c[0]))
            at_cell(first, f"unreachable from every {'entry' if exits else 'start'}: {_names(part)}",
                    severity="warning")
    return findings


def _requirement_findings(fmap: FouryMap, reachable: set) -> list[Finding]:
    b, src = fmap.board, fmap.source
    out: list[Finding] = []

    def items_where(pred, cells) -> list[fb.Coord]:
        found = []
        for c in cells:
            for name in b.items_at(c):
                if pred(name):
                    found.append(c)
        return found

    all_events = [(z.letter, n, e) for z in b.zones.values() for n, evs in z.events.items() for e in evs]
    for letter, zone in b.zones.items():
        kind, need = zone.requirement_kind, zone.requirement_count
        if not kind:
            continue
        loc = ("zones", letter, "requirement")
        zone_cells = set(b.zone_cells(letter))
        if kind == "statues":
            have = items_where(lambda n: n == "statue", zone_cells & reachable)
            if len(have) < need:
                more = [c for c in items_where(lambda n: n == "statue", zone_cells) if c not in reachable]
                out.append(Finding(src.problem(loc, f"zone {letter} needs {need} statues but has "
                                   f"{len(have)} reachable in its cells"
                                   f"{': ' + _names(have) if have else ''}"
                                   f"{' (unreachable: ' + _names(more) + ')' if more else ''}")))
        elif kind == "kills":
            enemies = items_where(lambda n: n in ENEMY_ITEMS, reachable)
            monster_events = [f"{z}{n}" for z, n, e in all_events if e.kind == "monster"]
            if len(enemies) < need and not monster_events:
                out.append(Finding(src.problem(loc, f"zone {letter} needs {need} kills but the map has "
                                   f"{len(enemies)} reachable enemies{': ' + _names(enemies) if enemies else ''} "
                                   "and no monster events")))
        elif kind == "levers":
            levers = items_where(lambda n: n == "lever", reachable)
            # the upper level links every staircase to every lever
            region = b.reachable_from(zone_cells)
            stairs = items_where(lambda n: n == "stairs", region)
            if not stairs or len(levers) < need:
                why = []
                if not stairs:
                    why.append(f"no stairs in or reachable from zone {letter} ({_names(zone_cells, 6)})")
                if len(levers) < need:
                    why.append(f"only {len(levers)} reachable lever{'s' if len(levers) != 1 else ''}"
                               f"{': ' + _names(levers) if levers else ''}")
                out.append(Finding(src.problem(loc, f"zone {letter} needs {need} levers reached by the stairs: "
                                   + "; ".join(why))))
        elif kind == "cornucopias":
            horns = items_where(lambda n: n in ("cornucopia", "bandit"), reachable)
            finds = [f"{z}{n}" for z, n, e in all_events if e.kind == "find" and e.item == "cornucopia"]
            if len(horns) < need and not finds:
                out.append(Finding(src.problem(loc, f"zone {letter} needs {need} cornucopia"
                                   f"{'s' if need != 1 else ''} but the map has {len(horns)} reachable "
                                   f"(cornucopias or bandits){': ' + _names(horns) if horns else ''} "
                                   "and no `find cornucopia` events")))
    return out


# Santa's minimum collection for victory (the rules: 6 reindeer, 1 sleigh, 10 green, 10 blue), by item name
SANTA_MINIMUM = {"reindeer": SANTA_GOAL["reindeer"], "sleigh": SANTA_GOAL["sleigh"],
                 "green package": SANTA_GOAL["green packages"], "blue package": SANTA_GOAL["blue packages"]}


def _santa_findings(fmap: FouryMap, reachable: set) -> list[Finding]:
    b, src = fmap.board, fmap.source
    out = []
    finds = {e.item for z in b.zones.values() for evs in z.events.values() for e in evs if e.kind == "find"}
    for name, need in SANTA_MINIMUM.items():
        have = [c for c in reachable for n in b.items_at(c) if n == name]
        if len(have) < need and name not in finds:
            out.append(Finding(src.problem(("items",), f"Santa's collection needs {need} {name}"
                                           f"{'s' if need > 1 and not name.endswith('s') else ''} "
                                           f"but the map has {len(have)} reachable and no `find {name}` event"),
                               "warning"))
    return out


def _blockers(fmap: FouryMap, region: set) -> str:
    """What closes a region in: 'blocked by the walls C2:S, B3:E and rock at A4' (the walls as
    the map writes them, in its order)."""
    b = fmap.board
    walls, rock = [], set()
    for c in sorted(region, key=lambda c: (c[1], c[0])):
        for s in fb.SIDES:
            n = fb.neighbour(c, s)
            if not b.on_board(n) or n in region:
                continue
            if b.is_rock(n):
                rock.add(n)
            elif fb.wall_key(c, s) in b.walls:
                walls.append(fmap.wall_names.get(fb.wall_key(c, s), (len(b.walls), f"{fb.cell_name(c)}:{s}")))
    walls = [name for _, name in sorted(walls)]
    parts = []
    if walls:
        parts.append(f"the wall{'s' if len(walls) != 1 else ''} {', '.join(walls)}")
    if rock:
        parts.append(f"rock at {_names(rock, 10)}")
    return "blocked by " + " and ".join(parts) if parts else "closed in by the map edge"


def room_of(camp, owner: bool = True) -> str:
    """'the Oracle's room' (or 'the Oracle' with owner=False), 'Santa's room', 'the Kraken's room'."""
    name = _in_sentence(camp.centre) if camp.centre.startswith("The ") else camp.centre
    return f"{name}'s room" if owner else name


def _components(cells: set) -> list[set]:
    """Orthogonally connected parts of a set of cells."""
    left = set(cells)
    parts = []
    while left:
        seed = left.pop()
        part = {seed}
        todo = [seed]
        while todo:
            c = todo.pop()
            for s in fb.SIDES:
                n = fb.neighbour(c, s)
                if n in left:
                    left.remove(n)
                    part.add(n)
                    todo.append(n)
        parts.append(part)
    return parts


# -- blank maps of any size -------------------------------------------------------
def blank_layout(columns: int, rows: int) -> tuple[str, list[str]]:
    """Cells and entries of a blank map: four wedges around a centre room.

    A is the top wedge, B the right, C the bottom, D the left (diagonals go to
    A above the centre and C below it), so every zone is one connected region;
    each zone gets two entry arrows on its own side of the border.
    """
    cx, cy = columns // 2, rows // 2
    grid = []
    for y in range(rows):
        row = []
        for x in range(columns):
            # scale so that non-square grids still split along their diagonals
            dx, dy = (x - cx) / max(cx, 1), (y - cy) / max(cy, 1)
            if (x, y) == (cx, cy):
                row.append(fb.CENTRE)
            elif abs(dy) >= abs(dx):
                row.append("A" if dy < 0 else "C")
            else:
                row.append("B" if dx > 0 else "D")
        grid.append(row)
    cells = "\n".join(" ".join(r) for r in grid) + "\n"
    thirds = lambda n: sorted({max(1, n // 3), min(n - 2, n - 1 - n // 3)})  # noqa: E731
    entries = []
    entries += [f"{fb.cell_name((x, 0))}:N" for x in thirds(columns) if grid[0][x] == "A"]
    entries += [f"{fb.cell_name((columns - 1, y))}:E" for y in thirds(rows) if grid[y][columns - 1] == "B"]
    entries += [f"{fb.cell_name((x, rows - 1))}:S" for x in thirds(columns) if grid[rows - 1][x] == "C"]
    entries += [f"{fb.cell_name((0, y))}:W" for y in thirds(rows) if grid[y][0] == "D"]
    return cells, entries


def resize_blank(fmap: FouryMap, columns: int, rows: int) -> FouryMap:
    """The same blank map (zones, events, requirements) on a grid of another size."""
    if not fmap.model.blank:
        raise InputError(Problem(f"only blank maps can change size; '{fmap.title}' has its own cells",
                                 fmap.source.filename, expected="a map with `blank: true`, e.g. foury-blank"))
    problems = []
    for name, n, top in (("columns", columns, MAX_COLUMNS), ("rows", rows, 99)):
        if not isinstance(n, int) or not 5 <= n <= top:
            problems.append(Problem(f"{name} {n!r} is out of range", expected=f"5 to {top}"))
    if problems:
        raise InputError(problems)
    letters = set(fmap.model.zones)
    if not {"A", "B", "C", "D"} <= letters or len(letters) != 4:
        raise InputError(Problem("a blank map to resize needs exactly the zones A, B, C and D",
                                 fmap.source.filename))
    cells, entries = blank_layout(columns, rows)
    model = fmap.model.model_copy(update={"grid": f"{columns}x{rows}", "cells": cells, "entries": entries,
                                          "walls": [], "items": {}, "flooded": [], "start": None})
    from sheetgen.definitions.yamlsource import MarkedDict
    source = Source(fmap.source.path, MarkedDict(), fmap.source.builtin)
    problems = []
    board = BoardBuilder(model, source, problems).build()
    if problems:  # cannot happen for generated cells; keep the failure readable if it does
        raise InputError(problems)
    return FouryMap(model, source, board)


# -- build ---------------------------------------------------------------------
def options_taken(fmap: FouryMap) -> set[str]:
    """The build options this map's sheet reads: --hero always, --columns/--rows on a blank map."""
    return {"hero", "columns", "rows"} if fmap.model.blank else {"hero"}


def element_key(fmap: FouryMap, element_id: str) -> tuple | None:
    """The key of the map file a drawn element comes from (the layout lint's warnings name it)."""
    from ..sheets.map import element_key as key
    return key(element_id)


def compose(fmap: FouryMap, options):
    """Pages for the map (drawn by sheetgen.games.foury.sheets.map); `columns`/`rows` resize a blank map."""
    columns, rows = options.option("columns"), options.option("rows")
    if columns is not None or rows is not None:
        columns = int(columns) if columns is not None else fmap.board.columns
        rows = int(rows) if rows is not None else fmap.board.rows
        if (columns, rows) != (fmap.board.columns, fmap.board.rows):
            fmap = resize_blank(fmap, columns, rows)
    hero = options.option("hero")
    from .sheet import hero_object
    from ..sheets.map import compose_map
    return compose_map(fmap, options, hero_object(str(hero)) if hero else None)


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, lint=lint, compose=compose, options_taken=options_taken, element_key=element_key, models=lambda: MODEL)

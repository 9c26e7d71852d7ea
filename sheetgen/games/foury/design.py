"""Dungeon Foury's map workbench (`sheetgen design`, GAME.designer): a draft of one map file,
edited by operations, checked after each one, drawn as the printed sheet draws it, played.

    draft = open_draft(path)             # the map file (it may have format errors: they are listed)
    draft = new_draft(path, 7, 7)        # nothing yet: every cell rock, no zones (written on save)
    draft.apply({"op": "paint", "cells": ["B2", "C2"], "symbol": "A"})   # see OPERATIONS
    draft.state()                        # JSON-ready: the map's SVG, the findings, zones, options
    draft.save()                         # the file, atomically (sheetgen.atomic)
    draft.playtest(2000, progress)       # a quick simulation of the draft (and of the saved file)
    draft.document("letter")             # the printed sheet (the drawing model) of the draft

The file is edited with ruamel.yaml's round trip: the designer's comments, key order and flow
or block styles stay where they are; a key the file lacks is put where the format lists it.
A top-level key whose value did not change is written back exactly as it was read (ruamel
loses comments inside a multi-line flow list: such a list of walls or entries is edited in
its own text instead), so an untouched file is written back byte for byte.
Every check is the one `sheetgen validate` makes (formats/map.py: load, then lint); the
palette is the vocabulary `sheetgen list` prints (vocabulary.py).
"""
from __future__ import annotations

import io
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

from sheetgen.errors import InputError, Problem, did_you_mean
from . import board as fb
from . import vocabulary
from .rules import CAMPAIGNS
from .tables import DIE_TABLE_EFFECTS

MAX_TEXT = 200                  # the longest title, name or phrase an operation may set
MAX_UNDO = 200
# the keys of a map in the order the format lists them: a key the file lacks goes after the
# last key before it in this order
KEY_ORDER = ("sheetgen", "kind", "ruleset", "title", "description", "grid", "cells", "zones", "entries",
             "walls", "items", "campaign", "start", "turns", "flooded", "hero_extras", "max_enemies",
             "safe_zone", "blank", "coloured", "die_table")
ZONE_KEY_ORDER = ("name", "requirement", "events", "colour")
# what `set` may change, and what each takes
OPTIONS = {"title": "text", "description": "text", "campaign": "campaign", "start": "cell", "turns": "count",
           "max_enemies": "count", "safe_zone": "letter", "hero_extras": "flag", "blank": "flag",
           "coloured": "flag", "die_table": "die"}
CELL_RE = re.compile(r"\b([A-Z])([1-9][0-9]?)(?::([NESW]))?\b")
DRAW_CELL = 10.0                # mm: a cell of the workbench's drawing (the SVG scales it)
DRAW_MARGIN = 12.0              # mm around the map: entry arrows and coordinates


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096              # never fold a long line the designer wrote on one
    return y


# -- the vocabulary as the page offers it ------------------------------------------------------
def event_phrases() -> list[str]:
    """Every single event phrase (the page's list; joined phrases `a + b` are typed)."""
    collapses = [" ".join(c) for n in range(1, len(fb.RELATIVE) + 1) for c in itertools.combinations(fb.RELATIVE, n)]
    return (["monster", *(f"monster {e}" for e in fb.ENEMIES if e != "kraken"), "chest", "extra step",
             "collapse origin", "flood origin", *(f"collapse {c}" for c in collapses),
             *(f"find {i}" for i in fb.ITEMS if i != "flooded")])


def palette() -> dict:
    """What the page offers, each word with its meaning: the lists `sheetgen list` prints."""
    return {"items": [{"name": n, "meaning": m} for n, m in vocabulary.items()],
            "events": [{"name": n, "meaning": m} for n, m in vocabulary.events()],
            "event_phrases": event_phrases(),
            "campaigns": [{"name": n, "meaning": m} for n, m in vocabulary.campaigns()],
            "requirements": [{"name": n, "meaning": m} for n, m in vocabulary.requirements()],
            "die_effects": [{"name": n, "meaning": m} for n, m in vocabulary.die_effects()],
            "die_defaults": {str(k): v for k, v in DIE_TABLE_EFFECTS.items()},
            "heroes": heroes(),
            "options": OPTIONS}


def heroes() -> list[dict]:
    """The heroes a playtest may play (besides free traits), with the difficulty their sheet prints."""
    from .formats.sheet import hero_traits
    from .heroes import HEROES
    return [{"name": h, "title": hero_traits(h)["name"], "difficulty": hero_traits(h)["difficulty"]} for h in HEROES]


def icon_svgs() -> dict[str, str]:
    """Each item's printed icon as a small SVG (the palette's buttons)."""
    from sheetgen.draw.icons import icon
    from sheetgen.draw.model import Document, Page
    from sheetgen.render.svg import SvgRenderer
    out = {}
    renderer = SvgRenderer(Document([], title=""))
    for name in fb.ITEMS:
        page = Page(10.0, 10.0, [icon(name, 0.5, 0.5, 9.0, id=f"icon-{name.replace(' ', '-')}")])
        out[name] = _scalable(renderer.page(page))
    return out


def _scalable(svg: str) -> str:
    """An SVG without its size in mm (the page's CSS sizes it; the viewBox keeps the shape)."""
    svg = re.sub(r'^(<\?xml[^>]*>\s*)', "", svg)
    head, _, body = svg.partition(">")
    return re.sub(r'\s(width|height)="[^"]*"', "", head) + ">" + body


# -- the draft ------------------------------------------------------------------------------------
@dataclass
class Finding:
    """A lint finding or format error as the page shows it, with the cells and edges it names."""
    severity: str               # error | warning
    message: str
    where: str                  # FILE:LINE:COLUMN key.path, as validate prints it
    cells: list[str] = field(default_factory=list)
    edges: list[str] = field(default_factory=list)      # 'B3-E'

    def public(self) -> dict:
        return {"severity": self.severity, "message": self.message, "where": self.where,
                "cells": self.cells, "edges": self.edges}


@dataclass
class Checked:
    """The draft as validate sees it: the map (None when it cannot be drawn) and the findings."""
    fmap: object | None
    findings: list[Finding]
    loads: bool                 # no format error: the map builds and plays

    @property
    def errors(self) -> int:
        return sum(f.severity == "error" for f in self.findings)


class Draft:
    """One map file being edited: its round-trip document, the saved text, an undo history."""

    def __init__(self, path: Path, text: str, saved_text: str | None):
        self.path = Path(path)
        self.saved_text = saved_text            # the file as on disk (None: not written yet)
        self.undo_stack: list[str] = []
        self.revision = 0                       # counts the changes (a playtest says which one it played)
        self._load_text(text)

    # the document ---------------------------------------------------------------------------
    def _load_text(self, text: str) -> None:
        try:
            doc = _yaml().load(text)
        except YAMLError as exc:
            raise InputError(Problem(f"malformed YAML: {exc}", str(self.path))) from None
        if not isinstance(doc, CommentedMap) or doc.get("kind") != "map" or doc.get("ruleset") != "foury":
            raise InputError(Problem("not a Dungeon Foury map", str(self.path), 1, 1, path="kind",
                                     expected="kind: map, ruleset: foury"))
        m = re.match(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$", str(doc.get("grid", "")))
        if not m or not (3 <= int(m.group(1)) <= 26 and 3 <= int(m.group(2)) <= 99):
            raise InputError(Problem(f"the workbench needs a usable grid, not {doc.get('grid')!r}", str(self.path),
                                     path="grid", expected="COLUMNSxROWS, 3 to 26 columns and 3 to 99 rows"))
        self.doc = doc
        self._dumped: str | None = None         # text() of the document as it is (None: changed since)
        self._base_text = text                  # the text the document was read from: what is unchanged is
        self._base_plain = {str(k): _plain(v) for k, v in doc.items()}    # written back from it as it was
        self.columns, self.rows = int(m.group(1)), int(m.group(2))
        self.grid = self._read_cells()
        self._text = text

    def _read_cells(self) -> list[list[str]]:
        """The cells as rows of symbols, padded with rock to the grid (a short row stays editable)."""
        text = str(self.doc.get("cells") or "")
        rows = [r for r in text.split("\n") if r.strip()]
        self.compact = bool(rows) and all(len(r.split()) == 1 for r in rows) and self.columns > 1
        grid = []
        for y in range(self.rows):
            row = list(rows[y].replace(" ", "").replace("\t", "")) if y < len(rows) else []
            grid.append((row + [fb.ROCK] * self.columns)[:self.columns])
        return grid

    def _write_cells(self) -> None:
        sep = "" if self.compact else " "
        self._dumped = None
        self.doc["cells"] = LiteralScalarString("\n".join(sep.join(r) for r in self.grid) + "\n")

    def text(self) -> str:
        """The document as YAML (made once per change: the page asks often).  Each top-level key
        whose value did not change is written back exactly as read; a changed list of entries or
        walls is edited in its own text (the comments inside a multi-line list stay); any other
        changed key is ruamel's round-trip dump of it."""
        if self._dumped is None:
            out = io.StringIO()
            _yaml().dump(self.doc, out)
            dumped = out.getvalue()
            spliced = _splice(self._base_text, self._base_plain, dumped, self.doc)
            # the spliced text must say exactly what the document says, else the plain dump is written
            try:
                same = spliced == dumped or _plain(_yaml().load(spliced)) == _plain(_yaml().load(dumped))
            except YAMLError:
                same = False
            self._dumped = spliced if same else dumped
        return self._dumped

    @property
    def dirty(self) -> bool:
        return self.saved_text is None or self.text() != self.saved_text

    def _put(self, mapping: CommentedMap, key, value, order=KEY_ORDER) -> None:
        """mapping[key] = value; a new key goes where the format lists it."""
        if key in mapping:
            mapping[key] = value
            return
        rank = order.index(key) if key in order else len(order)
        pos = len(mapping)
        for i, k in enumerate(mapping):
            if k in order and order.index(k) > rank:
                pos = i
                break
        mapping.insert(pos, key, value)

    def _list(self, key: str) -> CommentedSeq:
        value = self.doc.get(key)
        if value is not None and not isinstance(value, list):
            raise InputError(Problem(f"`{key}:` in the file is not a list: fix it there first", str(self.path),
                                     path=key))
        if value is None:
            value = _flow(CommentedSeq())
            self._put(self.doc, key, value)
        if not value:
            self._grow(key, flow=True)
        return value

    def _grow(self, key: str, flow: bool) -> None:
        """An empty collection (`zones: {}`) about to get its first entry: lists stay on one line,
        mappings become blocks, and the comment lines after it (the next key's) stay before the
        next key instead of landing inside the block."""
        value = self.doc[key]
        value.fa.set_flow_style() if flow else value.fa.set_block_style()
        if flow:
            return
        token = (self.doc.ca.items.get(key) or [None, None, None])[2]
        keys = list(self.doc)
        following = keys[keys.index(key) + 1] if keys.index(key) + 1 < len(keys) else None
        if token is None or following is None or "\n" not in token.value.rstrip("\n"):
            return
        first, _, rest = token.value.partition("\n")
        token.value = first + "\n"
        lines = [line.strip()[1:] for line in rest.rstrip("\n").split("\n")]
        self.doc.yaml_set_comment_before_after_key(
            following, before="\n".join(line[1:] if line.startswith(" ") else line for line in lines))

    def _mapping(self, key: str) -> CommentedMap:
        value = self.doc.get(key)
        if value is not None and not isinstance(value, dict):
            raise InputError(Problem(f"`{key}:` in the file is not a mapping: fix it there first", str(self.path),
                                     path=key))
        if value is None:
            value = CommentedMap()
            self._put(self.doc, key, value)
        return value

    # checking and drawing ---------------------------------------------------------------------
    def check(self, text: str | None = None) -> Checked:
        """What `sheetgen validate` says of the draft (text: of that text instead)."""
        return check_text(self.path, self.text() if text is None else text)

    def svg(self, checked: Checked | None = None) -> str:
        checked = checked or self.check()
        return map_svg(checked.fmap, self.columns, self.rows)

    def state(self) -> dict:
        """Everything the page shows, JSON-ready."""
        checked = self.check()
        zones = self.doc.get("zones") if isinstance(self.doc.get("zones"), dict) else {}
        zone_rows = []
        for letter, zone in zones.items():
            zone = zone if isinstance(zone, dict) else {}
            req = zone.get("requirement") if isinstance(zone.get("requirement"), dict) else {}
            kind, count = next(iter(req.items()), (None, None))
            events = zone.get("events") if isinstance(zone.get("events"), dict) else {}
            zone_rows.append({"letter": str(letter), "name": str(zone.get("name", "")),
                              "requirement": {"kind": kind, "count": count} if kind else None,
                              "events": {str(k): str(v) for k, v in events.items()},
                              "colour": _zone_colour(checked.fmap, str(letter)),
                              "cells": sum(row.count(str(letter)) for row in self.grid)})
        items = self.doc.get("items") if isinstance(self.doc.get("items"), dict) else {}
        return {
            "file": self.path.name, "columns": self.columns, "rows": self.rows,
            "geometry": {"cell": DRAW_CELL, "margin": DRAW_MARGIN},
            "svg": self.svg(checked), "loads": checked.loads, "errors": checked.errors,
            "warnings": sum(f.severity == "warning" for f in checked.findings),
            "findings": [self._located(f.public()) for f in checked.findings],
            "zones": zone_rows,
            "items": {str(k): [str(v)] if isinstance(v, str) else [str(x) for x in v] for k, v in items.items()},
            "options": {k: _plain(self.doc.get(k)) for k in OPTIONS},
            "dirty": self.dirty, "saved": self.saved_text is not None, "undo": len(self.undo_stack),
            "revision": self.revision,
        }

    def _located(self, finding: dict) -> dict:
        """A finding of a map not written yet names the draft's line, not a line of a file that
        does not exist (View the YAML shows the draft's lines)."""
        if self.saved_text is None:
            name = str(self.path)
            where = finding["where"]
            if where.startswith(name):
                rest = where[len(name):]
                m = re.match(r"^:(\d+)(?::(\d+))?(.*)$", rest)
                where = (f"line {m.group(1)} of the draft (not saved yet){m.group(3)}" if m
                         else f"the draft (not saved yet){rest}")
            finding = {**finding, "where": where}
        return finding

    # operations -------------------------------------------------------------------------------
    def apply(self, op: dict) -> None:
        """One editing operation (OPERATIONS); a bad one is an InputError and changes nothing."""
        if not isinstance(op, dict) or not isinstance(op.get("op"), str):
            raise InputError(Problem("an operation is a mapping with 'op'", expected=", ".join(OPERATIONS)))
        name = op["op"]
        if name == "undo":
            if self.undo_stack:
                self._load_text(self.undo_stack.pop())
                self.revision += 1
            return
        if name not in OPERATIONS:
            raise InputError(Problem(f"unknown operation '{name}'", path="op", expected=", ".join(OPERATIONS),
                                     suggestion=did_you_mean(name, list(OPERATIONS))))
        before = self.text()
        try:
            self._dumped = None
            getattr(self, "op_" + name)(**{k: v for k, v in op.items() if k != "op"})
            self._dumped = None
        except TypeError as exc:
            self._load_text(before)
            raise InputError(Problem(f"operation '{name}': {exc}".replace("op_" + name + "() ", ""),
                                     path="op")) from None
        except InputError:
            self._load_text(before)
            raise
        except (AttributeError, ValueError, KeyError, IndexError) as exc:
            # a value of the wrong shape that an operation did not check (a list where a mapping
            # goes): refused whole, like any bad operation
            self._load_text(before)
            raise InputError(Problem(f"operation '{name}': a value of the wrong kind ({exc})", path="op")) from None
        except BaseException:
            self._load_text(before)     # all or nothing, whatever went wrong
            raise
        if self.text() != before:
            self.undo_stack = (self.undo_stack + [before])[-MAX_UNDO:]
            self.revision += 1

    def op_paint(self, cells: list, symbol: str) -> None:
        """Paint cells with a zone letter (a new letter becomes a zone), O (the centre) or # (rock).
        Rock takes the cell's items, entries, walls and start with it (rock holds nothing and is
        solid); the centre its entries (it has none)."""
        symbol = str(symbol).strip().upper()
        if symbol not in (fb.ROCK, fb.CENTRE) and not re.fullmatch(r"[A-NP-Z]", symbol):
            raise InputError(Problem(f"cannot paint with '{symbol}'", path="symbol",
                                     expected="a zone letter (a capital other than O), O (the centre) or # (rock)"))
        coords = {self._cell(c) for c in _bounded_list(cells, self.columns * self.rows, "cells")}
        if re.fullmatch(r"[A-Z]", symbol) and symbol != fb.CENTRE:
            zones = self._mapping("zones")
            if symbol not in zones:
                self._grow("zones", flow=False)
                # in letter order among the zones (a file's own order is kept otherwise)
                pos = next((i for i, k in enumerate(zones) if str(k) > symbol), len(zones))
                zones.insert(pos, symbol, new_zone(symbol))
        for x, y in coords:
            self.grid[y][x] = symbol
        self._write_cells()
        names = {fb.cell_name(c) for c in coords}
        if symbol in (fb.ROCK, fb.CENTRE):
            entries = self.doc.get("entries")
            if isinstance(entries, list):
                for i in reversed(range(len(entries))):
                    if str(entries[i]).split(":")[0].strip().upper() in names:
                        del entries[i]
        if symbol == fb.ROCK:
            walls = self.doc.get("walls")
            if isinstance(walls, list):          # rock is solid: a wall beside it changes nothing
                for i in reversed(range(len(walls))):
                    try:
                        c, side = fb.parse_cell_side(str(walls[i]))
                    except ValueError:
                        continue
                    if c in coords or fb.neighbour(c, side) in coords:
                        del walls[i]
            items = self.doc.get("items")
            if isinstance(items, dict):
                for key in [k for k in items if str(k).strip().upper() in names]:
                    del items[key]
            if str(self.doc.get("start", "")).strip().upper() in names:
                del self.doc["start"]

    def op_wall(self, cell: str, side: str) -> None:
        """Toggle the wall on a cell's side (B3:E and C3:W are one wall); on the border an entry."""
        c, side = self._cell(cell), self._side(side)
        n = fb.neighbour(c, side)
        if not (0 <= n[0] < self.columns and 0 <= n[1] < self.rows):
            return self.op_entry(cell, side)
        walls = self._list("walls")
        key = fb.wall_key(c, side)
        for i, text in enumerate(walls):
            try:
                if fb.wall_key(*fb.parse_cell_side(str(text))) == key:
                    del walls[i]
                    return
            except ValueError:
                continue
        walls.append(f"{fb.cell_name(c)}:{side}")

    def op_entry(self, cell: str, side: str) -> None:
        """Toggle an entry arrow on a border cell's side facing off the map."""
        c, side = self._cell(cell), self._side(side)
        n = fb.neighbour(c, side)
        if 0 <= n[0] < self.columns and 0 <= n[1] < self.rows:
            raise InputError(Problem(f"{fb.cell_name(c)}:{side} does not face off the map: an entry stands on "
                                     "the border", path="side"))
        entries = self._list("entries")
        for i, text in enumerate(entries):
            try:
                if fb.parse_cell_side(str(text)) == (c, side):
                    del entries[i]
                    return
            except ValueError:
                continue
        entries.append(f"{fb.cell_name(c)}:{side}")

    def op_items(self, cell: str, items: list) -> None:
        """What a cell prints: a list of items (one is written as a name, none removes the cell)."""
        c = self._cell(cell)
        names = []
        for raw in _bounded_list(items, 4, "items"):
            name = " ".join(str(raw).lower().split())
            if name not in fb.ITEMS:
                raise InputError(Problem(f"unknown item '{raw}'", path="items", expected="`sheetgen list items`",
                                         suggestion=did_you_mean(name, fb.ITEMS)))
            names.append(name)
        mapping = self._mapping("items")
        key = next((k for k in mapping if str(k).strip().upper() == fb.cell_name(c)), fb.cell_name(c))
        if not mapping:
            self._grow("items", flow=False)
        if not names:
            mapping.pop(key, None)
        elif len(names) == 1:
            mapping[key] = names[0]
        else:
            mapping[key] = _flow(CommentedSeq(names))

    def op_zone(self, letter: str, name: str | None = None, requirement: dict | None | bool = False,
                events: dict | None = None, colour: str | None | bool = False) -> None:
        """Change a zone: its name, requirement ({kind, count}; None: no round), events (face ->
        phrase, each one `sheetgen list events` allows) and colour (None: the letter's own)."""
        zone = self._zone(letter)
        if name is not None:
            zone["name"] = _text(name, "name")
        if requirement is not False:
            if requirement is None:
                zone.pop("requirement", None)
            else:
                if not isinstance(requirement, dict):
                    raise InputError(Problem("a requirement is a mapping {kind, count} (or null: none)",
                                             path="requirement"))
                kind = str(requirement.get("kind", "")).strip()
                if kind not in fb.REQUIREMENT_KINDS:
                    raise InputError(Problem(f"unknown requirement '{kind}'", path="requirement.kind",
                                             expected=", ".join(fb.REQUIREMENT_KINDS),
                                             suggestion=did_you_mean(kind, fb.REQUIREMENT_KINDS)))
                count = _count(requirement.get("count"), "requirement.count", 1, 99)
                self._put(zone, "requirement", _flow(CommentedMap([(kind, count)])), ZONE_KEY_ORDER)
        if events is not None:
            if not isinstance(events, dict):
                raise InputError(Problem("events are a mapping of faces 1-6 to phrases", path="events"))
            table = zone.get("events")
            if not isinstance(table, dict):
                table = _flow(CommentedMap())
                self._put(zone, "events", table, ZONE_KEY_ORDER)
            for face, phrase in events.items():
                n = _count(face, "events", 1, 6)
                phrase = " ".join(_text(phrase, f"events.{n}").split())
                try:
                    fb.parse_event(phrase)
                except ValueError as exc:
                    raise InputError(Problem(f"zone {letter} event {n}: {exc}", path=f"events.{n}",
                                             suggestion=did_you_mean(phrase, event_phrases()))) from None
                key = next((k for k in table if str(k) == str(n)), n)
                table[key] = phrase
        if colour is not False:
            if colour in (None, ""):
                zone.pop("colour", None)
            else:
                self._put(zone, "colour", _text(colour, "colour"), ZONE_KEY_ORDER)

    def op_remove_zone(self, letter: str) -> None:
        """Remove a zone: its cells become rock (with their items and entries)."""
        self._zone(letter)
        cells = [fb.cell_name((x, y)) for y, row in enumerate(self.grid) for x, s in enumerate(row) if s == letter]
        if cells:
            self.op_paint(cells, fb.ROCK)
        del self.doc["zones"][letter]

    def op_grid(self, columns, rows) -> None:
        """Another grid size: cells added at the right and bottom are rock; what stood on cells
        cut away goes, and so do the walls on the new border and the arrows no longer on it."""
        columns, rows = _count(columns, "columns", 5, 26), _count(rows, "rows", 5, 26)
        self.grid = [(row + [fb.ROCK] * columns)[:columns] for row in self.grid[:rows]]
        self.grid += [[fb.ROCK] * columns for _ in range(rows - len(self.grid))]
        self.columns, self.rows = columns, rows
        self.doc["grid"] = f"{columns}x{rows}"
        self._write_cells()

        def inside(c) -> bool:
            return 0 <= c[0] < columns and 0 <= c[1] < rows

        def keep(text, test) -> bool:
            try:
                return test(*fb.parse_cell_side(str(text)))
            except ValueError:
                return True                     # not ours to judge: the findings name it

        for key, test in (("walls", lambda c, side: inside(c) and inside(fb.neighbour(c, side))),
                          ("entries", lambda c, side: inside(c) and not inside(fb.neighbour(c, side)))):
            values = self.doc.get(key)
            if isinstance(values, list):
                for i in reversed(range(len(values))):
                    if not keep(values[i], test):
                        del values[i]
        for key in ("items",):
            values = self.doc.get(key)
            if isinstance(values, dict):
                for cell in [k for k in values if not _inside_name(k, inside)]:
                    del values[cell]
        flooded = self.doc.get("flooded")
        if isinstance(flooded, list):
            for i in reversed(range(len(flooded))):
                if not _inside_name(flooded[i], inside):
                    del flooded[i]
        if "start" in self.doc and not _inside_name(self.doc["start"], inside):
            del self.doc["start"]

    def op_set(self, key: str, value=None) -> None:
        """Set a map option (OPTIONS); None removes an optional key (its default applies)."""
        if key not in OPTIONS:
            raise InputError(Problem(f"the workbench does not set '{key}'", path="key",
                                     expected=", ".join(OPTIONS), suggestion=did_you_mean(str(key), list(OPTIONS))))
        kind = OPTIONS[key]
        if value is None or value == "":
            if key == "title":
                raise InputError(Problem("a map needs a title", path="title"))
            self.doc.pop(key, None)
            return
        if kind == "text":
            value = _text(value, key)
        elif kind == "campaign":
            if value not in CAMPAIGNS:
                raise InputError(Problem(f"unknown campaign '{value}'", path=key, expected=", ".join(CAMPAIGNS),
                                         suggestion=did_you_mean(str(value), list(CAMPAIGNS))))
        elif kind == "cell":
            value = fb.cell_name(self._cell(value))
        elif kind == "count":
            value = _count(value, key, 1, 999)
        elif kind == "letter":
            value = str(value).strip().upper()
            if value not in (self.doc.get("zones") or {}):
                raise InputError(Problem(f"'{value}' is not a zone of this map", path=key))
        elif kind == "flag":
            if not isinstance(value, bool):
                raise InputError(Problem(f"{key} is true or false", path=key))
        elif kind == "die":
            value = self._die_table(value)
        self._put(self.doc, key, value)

    def _die_table(self, value) -> CommentedMap:
        if not isinstance(value, dict):
            raise InputError(Problem("a die table maps the faces 1-6 to effects", path="die_table"))
        from .tables import die_face
        old = self.doc.get("die_table")
        table = old if isinstance(old, CommentedMap) else CommentedMap(DIE_TABLE_EFFECTS)
        for face, text in value.items():
            n = _count(face, "die_table", 1, 6)
            text = " ".join(_text(text, f"die_table.{n}").split())
            try:
                die_face(n, text)
            except ValueError as exc:
                raise InputError(Problem(str(exc), path=f"die_table.{n}")) from None
            table[next((k for k in table if str(k) == str(n)), n)] = text
        return table

    # names ------------------------------------------------------------------------------------
    def _cell(self, text) -> fb.Coord:
        try:
            c = fb.parse_cell(str(text))
        except ValueError as exc:
            raise InputError(Problem(str(exc), path="cell")) from None
        if not (0 <= c[0] < self.columns and 0 <= c[1] < self.rows):
            raise InputError(Problem(f"cell {text} is off the {self.columns}x{self.rows} grid", path="cell"))
        return c

    @staticmethod
    def _side(text) -> str:
        side = str(text).strip().upper()
        if side not in fb.SIDES:
            raise InputError(Problem(f"unknown side '{text}'", path="side", expected="N, E, S or W"))
        return side

    def _zone(self, letter) -> CommentedMap:
        zones = self.doc.get("zones")
        if not isinstance(zones, dict) or letter not in zones or not isinstance(zones[letter], dict):
            raise InputError(Problem(f"no zone '{letter}' on this map", path="letter",
                                     suggestion=did_you_mean(str(letter), [str(z) for z in zones or {}])))
        return zones[letter]

    # saving, playing, printing ------------------------------------------------------------------
    def save(self) -> Path:
        """Write the draft to its file (atomically: a crash leaves the old file or the new one)."""
        from sheetgen.atomic import write_text
        text = self.text()
        on_disk = self._on_disk()
        if on_disk is not None and on_disk != self.saved_text:
            # edited by hand (or by another program) since the workbench read it: never overwrite that
            raise InputError(Problem(f"{self.path.name} changed on disk since the workbench "
                                     f"{'read' if self.saved_text is not None else 'started'} it: reload it "
                                     "(Map > Reload from the file; Undo brings your changes back) or save elsewhere",
                                     str(self.path)))
        write_text(self.path, text)
        self.saved_text = text
        return self.path

    def _on_disk(self) -> str | None:
        from sheetgen.definitions.yamlsource import read_bounded
        if not self.path.exists():
            return None
        try:
            return read_bounded(self.path).decode("utf-8")
        except UnicodeDecodeError:
            return ""

    def op_reload(self) -> None:
        """The file as it is on disk now (hand edits made meanwhile); Undo goes back to the draft."""
        text = self._on_disk()
        if text is None:
            raise InputError(Problem(f"{self.path.name} is not written yet", str(self.path)))
        self._load_text(text)
        self.saved_text = text

    def replace(self, text: str) -> None:
        """The whole draft becomes text (a suggestion the designer applies): one change Undo takes
        back; nothing is written until Save."""
        before = self.text()
        self._load_text(text)           # refused whole (InputError) when it is no map of this game
        if self.text() != before:
            self.undo_stack = (self.undo_stack + [before])[-MAX_UNDO:]
            self.revision += 1

    def document(self, paper: str = "a4"):
        """The printed sheet of the draft (the drawing model), as `sheetgen build` composes it."""
        checked = self.check()
        if not checked.loads:
            raise InputError(Problem("the map has format errors: fix them to print it", str(self.path)))
        from sheetgen.draw.options import BuildOptions
        from .formats.map import compose
        return compose(checked.fmap, BuildOptions(paper=paper))

    def playtest(self, games: int = 2000, progress=None, compare: bool = True, seed: int = 1,
                 cancelled=None, hero: str | None = None) -> dict:
        """A quick simulation of the draft (and of the saved file, on the same seeds, to compare):
        the win rate with its 95% interval, each requirement's rate, the visits per cell."""
        return playtest(self.path, self.text(), self.saved_text if compare else None, games, progress, seed,
                        cancelled, hero)


KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:(\s|$)")


def _segments(text: str, keys) -> tuple[list[str], dict[str, tuple[list[str], list[str]]], list[str]]:
    """A YAML text cut at its top-level keys: (lines before the first key, key -> (the comment
    lines before it, its own lines), the comment lines after the last)."""
    head: list[str] = []
    segments: dict[str, tuple[list[str], list[str]]] = {}
    pending: list[str] = []
    body: list[str] | None = None
    for line in text.splitlines(keepends=True):
        m = KEY_LINE.match(line)
        if m and m.group(1) in keys and m.group(1) not in segments:
            body = [line]
            segments[m.group(1)] = (pending, body)
            pending = []
        elif body is None:
            head.append(line)
        elif not line.strip() or line.startswith("#"):
            pending.append(line)            # a comment at the margin: the next key's, unless more follows
        else:
            body.extend(pending)
            pending = []
            body.append(line)
    return head, segments, pending


def _splice(base: str, base_plain: dict, dumped: str, doc) -> str:
    """The dumped document with every unchanged top-level key (and the comments before it) as
    the base text wrote it; see Draft.text."""
    keys = {str(k) for k in doc} | set(base_plain)
    head, old, tail = _segments(base, keys)
    dump_head, new, _ = _segments(dumped, keys)
    if not old or set(new) != {str(k) for k in doc}:
        return dumped
    out = list(head)
    for key, value in doc.items():
        key = str(key)
        if key not in old:
            out += new[key][0] + new[key][1]
            continue
        pre, body = old[key]
        if base_plain.get(key) != _plain(value):
            body = (_edited_flow_list(key, body, base_plain.get(key), _plain(value)) if isinstance(value, list)
                    else None) or new[key][1]
            if body and not body[-1].endswith("\n"):
                body[-1] += "\n"
        out += pre + body
    text = "".join(out + tail)
    return text if text.endswith("\n") or not text else text + "\n"


def _edited_flow_list(key: str, body: list[str], old, new) -> list[str] | None:
    """A one-line or multi-line flow list (`walls: [B3:E, C2:S]`, comments between its lines)
    edited in place: entries removed, new ones added after the last; None when the change is
    not that or the list is not written that way (the caller dumps it)."""
    if not isinstance(old, list) or not all(isinstance(x, str) for x in old + new):
        return None
    kept = [x for x in old if x in new]
    added = new[len(kept):]
    if kept + added != new or len(set(old)) != len(old):
        return None
    gone = [x for x in old if x not in new]
    lines = list(body)
    code_of = lambda line: line.split("#", 1)[0]            # noqa: E731 - the names hold no '#'
    for item in gone:
        token = re.compile(r"(?<![\w:])" + re.escape(item) + r"(?![\w:])")
        for i, line in enumerate(lines):
            code, comment = code_of(line), line[len(code_of(line)):]
            if not token.search(code if i else code.split(":", 1)[1]):
                continue
            prefix = "" if i else code.split(":", 1)[0] + ":"
            rest = code[len(prefix):]
            fixed, n = re.subn(token.pattern + r"\s*,\s?", "", rest, count=1)
            if not n:
                fixed, n = re.subn(r",\s*" + token.pattern, "", rest, count=1)
            if not n:
                fixed = token.sub("", rest, count=1)
            if comment:
                fixed = fixed.ljust(len(rest))      # the comment stays in its column
            lines[i] = prefix + fixed + comment
            break
        else:
            return None
    if added:
        last = kept[-1] if kept else None
        where = None
        for i, line in enumerate(lines):
            code = code_of(line)
            if last is not None:
                for m in re.finditer(r"(?<![\w:])" + re.escape(last) + r"(?![\w:])", code if i else code.split(":", 1)[1]):
                    where = (i, m.end() + (0 if i else len(code.split(":", 1)[0]) + 1))
            elif "[" in code:
                where = (i, code.index("[") + 1)
                break
        if where is None:
            return None
        i, at = where
        joined = ", ".join(added)
        insert = ", " + joined if last is not None else joined
        code, hash_, comment = lines[i][at:].partition("#")
        if hash_:                               # keep a comment's column where the spaces before it allow
            stripped = code.rstrip(" ")
            spaces = len(code) - len(stripped)
            code = stripped + " " * (spaces - (min(len(insert), spaces - 1) if spaces > 1 else 0))
        after = code + hash_ + comment
        lines[i] = lines[i][:at] + insert + after
    return lines


def _inside_name(text, inside) -> bool:
    try:
        return inside(fb.parse_cell(str(text)))
    except ValueError:
        return True


def _flow(node):
    node.fa.set_flow_style()
    return node


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _text(value, path: str) -> str:
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise InputError(Problem(f"{path} is a text", path=path))
    text = str(value).strip()
    if len(text) > MAX_TEXT:
        raise InputError(Problem(f"{path} is {len(text)} characters long", path=path,
                                 expected=f"at most {MAX_TEXT}"))
    return text


def _count(value, path: str, low: int, high: int) -> int:
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        raise InputError(Problem(f"{path}: {value!r} is not a whole number", path=path)) from None
    if not low <= n <= high:
        raise InputError(Problem(f"{path}: {n} is out of range", path=path, expected=f"{low} to {high}"))
    return n


def _bounded_list(value, most: int, path: str) -> list:
    if not isinstance(value, list) or len(value) > most:
        raise InputError(Problem(f"{path} is a list of at most {most}", path=path))
    return value


def new_zone(letter: str) -> CommentedMap:
    """A zone painted for the first time: the base game's zone of that letter (A-D), else a zone
    without a round whose events the designer chooses."""
    from .formats.starter import ZONES
    base = {z[0]: z for z in ZONES}
    zone = CommentedMap()
    if letter in base:
        _, name, kind, count, events = base[letter]
        zone["name"] = name
        zone["requirement"] = _flow(CommentedMap([(kind, count)]))
    else:
        zone["name"] = f"Zone {letter}"
        events = base["A"][4]
    zone["events"] = _flow(CommentedMap(enumerate(events, 1)))
    return zone


def _zone_colour(fmap, letter: str) -> str:
    from .sheets.map import zone_colour
    return zone_colour(letter, fmap)


OPERATIONS = {
    "paint": "paint cells: {cells: [B2, C2], symbol: A | O | #}",
    "wall": "toggle a wall: {cell: B3, side: E} (a border side toggles an entry)",
    "entry": "toggle an entry arrow: {cell: C1, side: N}",
    "items": "what a cell prints: {cell: B2, items: [statue]} ([] removes)",
    "zone": "change a zone: {letter: A, name, requirement: {kind, count} | null, events: {1: phrase}, colour}",
    "remove_zone": "remove a zone (its cells become rock): {letter: E}",
    "set": "set an option: {key: campaign, value: ancient} (null: the default)",
    "grid": "another grid size: {columns: 9, rows: 7} (new cells rock; what falls off goes)",
    "reload": "read the file again as it is on disk (after a hand edit)",
    "undo": "undo the last change",
}


# -- opening ---------------------------------------------------------------------------------------
def open_draft(path) -> Draft:
    """The map file as a draft (a file with format errors opens: the page lists them)."""
    from sheetgen.definitions.yamlsource import read_bounded
    path = Path(path)
    try:
        text = read_bounded(path).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(Problem("not UTF-8 text", str(path))) from None
    from sheetgen.definitions.yamlsource import parse_yaml
    from sheetgen.definitions.registry import read_header
    read_header(parse_yaml(text, str(path)), str(path))       # a clean error for a file that is no definition
    return Draft(path, text, text)


def new_draft(path, columns: int, rows: int) -> Draft:
    """A map of nothing yet (every cell rock, no zones) to paint, with the comments of `new map`."""
    from .formats.starter import starting_map
    if not (5 <= columns <= 26 and 5 <= rows <= 26):
        raise InputError(Problem(f"--new {columns}x{rows} is not a grid from 5x5 to 26x26", path="--new",
                                 expected="COLUMNSxROWS like 7x7 or 9x9"))
    path = Path(path)
    title = " ".join(w.capitalize() for w in re.split(r"[-_\s]+", path.stem) if w) or "My Map"
    lines = starting_map(title, (columns, rows)).split("\n")
    # the fresh map's zones, items, entries and walls emptied (their comments kept), every cell rock
    emptied = {"zones": "{}", "items": "{}", "entries": "[]", "walls": "[]", "description": '""'}
    out, skipping = [], False
    for line in lines:
        if skipping and line.startswith((" ", "\t")):
            continue
        skipping = False
        key = line.split(":", 1)[0]
        if key in emptied and not line.startswith((" ", "#")):
            rest = line.split(":", 1)[1]
            comment = rest[rest.index("#"):] if "#" in rest and key != "description" else ""
            line = f"{key}: {emptied[key]}"
            out.append(f"{line:<25} {comment}".rstrip())
            skipping = True
            continue
        out.append(line)
    draft = Draft(path, "\n".join(out), None)
    draft.grid = [[fb.ROCK] * columns for _ in range(rows)]
    draft._write_cells()
    return draft


# -- checking ------------------------------------------------------------------------------------------
def check_text(path: Path, text: str) -> Checked:
    """Load and lint text as the map file at path, as `sheetgen validate` does; where the format
    has errors the map is still built from what is usable (to draw it), and listed."""
    from sheetgen.definitions.registry import Source, read_header
    from sheetgen.definitions.yamlsource import parse_yaml
    from .formats import map as fm
    filename = str(path)
    try:
        data = parse_yaml(text, filename)
        read_header(data, filename)
    except InputError as exc:
        return Checked(None, [_finding(p, "error", None) for p in exc.problems], False)
    source = Source(path=Path(path), data=data)
    try:
        fmap = fm.load(data, source)
    except InputError as exc:
        fmap = _lenient(fm, data, source)
        return Checked(fmap, [_finding(p, "error", fmap) for p in exc.problems], False)
    found, full = fm.lint_with_cells(fmap)
    return Checked(fmap, [_finding(f.problem, f.severity, fmap, full) for f in found], True)


def _lenient(fm, data, source):
    """The map built from the usable part of a file with format errors (what the drawing shows)."""
    model, bad = fm.repaired_model(data)
    if model is None:
        return None
    builder = fm.BoardBuilder(model, source, [], quiet=bad)
    try:
        board = builder.build()
    except Exception:           # noqa: BLE001 - a drawing is a help here, the findings say what is wrong
        return None
    if not board.columns:
        return None
    return fm.FouryMap(model, source, board, builder.cell_marks, builder.wall_names)


def _finding(problem: Problem, severity: str, fmap, full: dict[str, list[str]] | None = None) -> Finding:
    """A finding with the cells and edges its message names (outlined on the map); full: the
    lists the message shortened ('B4, C4 and 2 more'), every cell of which is outlined too."""
    board = fmap.board if fmap is not None else None
    cells, edges = [], []
    text = problem.message + " " + (problem.path or "")
    for letter, row, side in CELL_RE.findall(text):
        name = f"{letter}{row}"
        c = fb.parse_cell(name)
        if board is not None and not board.on_board(c):
            continue
        if side:
            edges.append(f"{name}-{side}")
        elif name not in cells:
            cells.append(name)
    for shortened, names in (full or {}).items():
        if shortened in problem.message:
            cells += [n for n in names if n not in cells]
    where = ":".join(str(p) for p in (problem.file, problem.line, problem.column) if p is not None)
    if problem.path:
        where += f" {problem.path}"
    message = problem.message
    if problem.expected:
        message += f" (expected {problem.expected})"
    if problem.suggestion:
        message += f"; did you mean '{problem.suggestion}'?"
    return Finding(severity, message, where.strip(), cells, edges)


# -- drawing ------------------------------------------------------------------------------------------
def map_svg(fmap, columns: int, rows: int) -> str:
    """The map as the printed sheet draws it (sheets/map.draw_map: ids cell-B2, wall-B3-E,
    entry-C1-N, item-B2-statue), with a hit line over every edge (edge-B3-E: the east side of B3,
    edge-C1-N: a border side) for the page's clicks."""
    from sheetgen.draw.model import Document, Group, Line, Page, Style
    from sheetgen.render.svg import SvgRenderer
    from .sheets.map import MapGeometry, coordinates, draw_map
    geo = MapGeometry(DRAW_MARGIN, DRAW_MARGIN, DRAW_CELL, columns, rows)
    items = list(draw_map(fmap, geo, grayscale=False))
    items += coordinates(geo, 7.0)
    hit = Style(stroke="#000000", stroke_width=2.4, opacity=0.0)
    edges = []
    for y in range(rows):
        for x in range(columns):
            c = (x, y)
            # every edge once: each cell's east and south sides, and the north and west border
            for side in ["E", "S"] + (["N"] if y == 0 else []) + (["W"] if x == 0 else []):
                n = fb.neighbour(c, side)
                border = not (0 <= n[0] < columns and 0 <= n[1] < rows)
                edges.append(Line(*geo.side_line(c, side), hit, id=f"edge-{fb.cell_name(c)}-{side}",
                                  cls="hit border" if border else "hit"))
    items.append(Group(tuple(edges), id="edges", cls="edges"))
    page = Page(columns * DRAW_CELL + 2 * DRAW_MARGIN, rows * DRAW_CELL + 2 * DRAW_MARGIN, items)
    return _scalable(SvgRenderer(Document([page], title="")).page(page))


# -- playing ----------------------------------------------------------------------------------------------
BASE_GAME = "ancient-story"        # the printed base game a playtest's rate is set beside


def playtest(path: Path, text: str, saved_text: str | None = None, games: int = 2000, progress=None, seed: int = 1,
             cancelled=None, hero: str | None = None) -> dict:
    """A quick simulation of the map text (the draft) and, when given and different, of the saved
    text on the same seeds (the comparison), and of the base game (BASE_GAME) with the same hero and
    policy on the same seeds; run on snapshots, so the draft may change meanwhile.
    progress(done, total) is called between chunks of games; cancelled() true stops early."""
    from .sim import report as R
    from .sim.batch import SimSpec, make_hero
    from .sim.navigate import Navigator
    from .sim.runner import play_game, simulated
    from .sim.stats import Stats
    games = _count(games, "games", 10, 20000)
    if hero is not None and hero not in [h["name"] for h in heroes()]:
        raise InputError(Problem(f"unknown hero '{hero}'", path="hero", expected=", ".join(h["name"] for h in heroes()),
                                 suggestion=did_you_mean(str(hero), [h["name"] for h in heroes()])))
    runs = [("draft", text)]
    if saved_text is not None and saved_text != text:
        runs.append(("saved", saved_text))
    # the base game for the same hero, policy and seeds: what a rate means (harder or easier than the
    # printed game); left out when the draft is the base game's text
    from sheetgen.definitions.builtins import find_builtin
    base_path = find_builtin(BASE_GAME)
    base_text = base_path.read_text(encoding="utf-8")
    if base_text != text:
        runs.append(("base", base_text))
    prepared = []
    for label, source_text in runs:
        checked = check_text(base_path if label == "base" else path, source_text)
        if not checked.loads or checked.errors:
            if label == "saved":
                continue            # the saved version does not play: nothing to compare with
            raise InputError(Problem(f"the map has {checked.errors} error{'s' if checked.errors != 1 else ''}: "
                                     "fix them to playtest it", str(path)))
        board = checked.fmap.board
        if not simulated(board):
            raise InputError(Problem(f"the '{board.campaign}' campaign is not simulated yet (simulate plays the "
                                     "four-round game)", str(path), path="campaign"))
        prepared.append((label, checked.fmap, make_hero(board, hero), Navigator(board)))
    total, done = games * len(prepared), 0
    reports = {}
    chunk = 50
    for label, fmap, player, nav in prepared:
        stats = Stats()
        for start in range(0, games, chunk):
            if cancelled is not None and cancelled():
                return {"cancelled": True}
            for i in range(start, min(games, start + chunk)):
                stats.add(play_game(fmap.board, player, "cautious", seed, i, False, nav=nav))
            done += min(games, start + chunk) - start
            if progress is not None:
                progress(done, total)
        spec = SimSpec(str(path), "cautious", hero, seed, False)
        reports[label] = R.report(stats, fmap, spec)
    out = {"draft": _summary(reports["draft"]), "hero": reports["draft"]["hero"]}
    if "base" in reports:
        b = reports["base"]
        out["base"] = {"name": BASE_GAME, "games": b["games"], "wins": b["wins"], "win_rate": b["win_rate"],
                       "win_rate_ci95": b["win_rate_ci95"], "policy": "cautious"}
    # what each way a game ended means (trapped, no entry, ...), for the ends this playtest saw
    out["outcomes"] = {k: {"games": n, "meaning": reports["draft"].get("outcome_meanings", {}).get(k, R.OUTCOME_MEANINGS.get(k, ""))}
                       for k, n in reports["draft"].get("outcomes", {}).items() if n}
    if "saved" in reports:
        reports["saved"]["map_ref"] = "the saved file"
        reports["draft"]["map_ref"] = "this draft"
        out["saved"] = _summary(reports["saved"])
        out["comparison"] = R.compare(reports["draft"], reports["saved"])
    out["text"] = R.text(reports["draft"])
    return out


def _summary(rep: dict) -> dict:
    visits = rep.get("visits", {})
    top = max(visits.values(), default=0) or 1
    return {"games": rep["games"], "wins": rep["wins"], "win_rate": rep["win_rate"],
            "win_rate_ci95": rep["win_rate_ci95"],
            "requirements": {k: {"name": r["name"], "kind": r["kind"], "count": r["count"], "rate": r["rate"],
                                 "rounds": r["rounds"]} for k, r in rep["requirements"].items()},
            "heat": {cell: round(n / top, 3) for cell, n in visits.items()},
            "deaths": rep["deaths"]["by_cause"], "cells_never_reached": rep["cells_never_reached"],
            "notes": rep.get("notes", [])}


# -- suggesting ---------------------------------------------------------------------------------------------
# the campaigns generate map balances (mapgen.CAMPAIGNS: the command's module, which design may not import)
SUGGEST_CAMPAIGNS = ("ancient", "strength")
SUGGEST_BUDGETS = (20_000, 50_000, 100_000)  # games a suggestion may play (the page's choices; the cap)


class _Stopped(Exception):
    """The page cancelled the suggestion (raised from the progress callback, between batches)."""


def suggest_options() -> dict:
    """What the page's Suggest offers: the parts a designer may lock (as `generate map --keep`),
    the budgets, the default target."""
    from .sim.generate import KEEPABLE
    meanings = {"zones": "each zone's events and requirement", "walls": "the walls",
                "items": "the items on the cells"}
    return {"keep": [{"name": k, "meaning": meanings.get(k, k)} for k in KEEPABLE],
            "budgets": list(SUGGEST_BUDGETS), "win_rate": 0.3, "tolerance": 0.05,
            "player": "a cautious player with free traits"}


def suggest(path: Path, text: str, keep, win_rate: float, budget: int, progress=None, cancelled=None,
            seed: int = 1, tolerance: float = 0.05) -> dict:
    """`sheetgen generate map --from DRAFT --keep KEEP` on the draft's text: the search changes only
    the unlocked parts (the cells and entries always stay).  Returns the suggested map's text (with
    generate's header comment) and what it did; {"cancelled": True} when cancelled() turned true."""
    from .sim import generate as G
    kept = {str(k) for k in keep or ()}
    bad = sorted(kept - set(G.KEEPABLE))
    if bad:
        raise InputError(Problem(f"'{bad[0]}' is not a part Suggest can lock", path="keep",
                                 expected=", ".join(G.KEEPABLE)))
    if len(kept) == len(G.KEEPABLE):
        raise InputError(Problem("every part is locked: unlock one for Suggest to change", path="keep"))
    if budget not in SUGGEST_BUDGETS:
        raise InputError(Problem(f"a budget of {budget} games", path="budget",
                                 expected=", ".join(map(str, SUGGEST_BUDGETS))))
    # a budget too small to verify is no error here: the page offers the closest map, saying so
    G.check_target(win_rate, tolerance, budget, 1, budget_check=False)
    checked = check_text(path, text)
    fmap = checked.fmap
    if checked.loads and fmap.model.campaign not in SUGGEST_CAMPAIGNS:
        raise InputError(Problem(f"the '{fmap.model.campaign}' campaign: Suggest balances the four-round games",
                                 str(path), path="campaign", expected=", ".join(SUGGEST_CAMPAIGNS)))
    if not checked.loads or checked.findings:
        # generate's search keeps to maps the lint accepts with no finding, warnings too
        raise InputError(Problem(f"Suggest starts from a map the lint accepts: fix the {len(checked.findings)} "
                                 f"finding{'s' if len(checked.findings) != 1 else ''} first", str(path)))
    values = G.start_values(fmap.board.columns, fmap.board.rows, None, fmap)
    played = [0]

    def step(games: int) -> None:
        played[0] += games
        if progress is not None:
            progress(min(played[0], budget), budget)
        if cancelled is not None and cancelled():
            raise _Stopped

    player = G.Player([None], "cautious", None, step)
    target = G.Target(win_rate, tolerance)
    try:
        out = G.generate(values, fmap.title, target, player, seed, budget, kept, from_file=True, keep_best=True)
    except _Stopped:
        return {"cancelled": True}
    summary = {"met": out.met, "win_rate": out.win_rate, "games": out.games, "candidates": out.candidates,
               "changes": out.changes, "target": win_rate, "tolerance": tolerance, "keep": sorted(kept)}
    if out.met:
        command = (f"sheetgen generate map --from {path.name} --win-rate {win_rate:g} --tolerance {tolerance:g} "
                   f"--policy cautious{' --keep ' + ','.join(sorted(kept)) if kept else ''} --seed {seed} "
                   f"--budget {budget}")
        lines = G.header_lines(out, target, "cautious", None, seed, command)
        summary.update(text="".join(f"# {line}\n" for line in lines) + out.text, interval=list(out.interval),
                       report=lines[1:])
    else:
        summary.update(text=out.best_text, interval=None,
                       report=[f"The budget of {budget} games ran out before a map met {win_rate:.0%} ± "
                               f"{tolerance:.0%}: the closest map played {out.win_rate:.1%} "
                               + (f"over {out.verify_games:,} fresh games" if out.verified else "in the search")
                               + f" ({out.candidates} candidates)."])
    return summary

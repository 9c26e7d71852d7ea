"""The general layout format (`kind: layout`) and N-up card sheets (`kind: deck`).

A layout is a page plus a mapping of named elements drawn in file order:

    sheetgen: 1
    kind: layout
    title: Graph sheet
    extends: base-sheet            # a built-in name or a path relative to this file
    page: {size: a4, orientation: portrait, margins: 10mm}
    groups:                        # reusable element sets, placed with `use:`
      door: {elements: {gap: {type: box, width: 8mm, height: 2mm, fill: white, stroke: none}}}
    elements:
      main:  {type: grid, columns: 20, rows: 28, fit: true, major_every: 5}
      mark:  {type: icon, name: entry, grid: main, x: 9.5cells, y: 28cells, size: 1cells}
      title: {type: text, text: "{title}", x: 50%, align: center, size: 14}

Coordinates (x, y, width, height, ...) are Lengths (12mm, 1in, 10pt, 2cm or a
number of mm), a percentage of the containing area (`50%`), or grid cells
(`3cells`) of the grid named by the element's `grid:` key (or the only grid of
the layout).  At the top level cells count from the grid's top-left corner;
inside a group they count from the group's origin.  Positions are relative to
the page's content area (inside the margins; the bottom 8 mm always stay free
for the footer and the calibration ruler), inside a group to its `at`, and on
a card to the card's trim corner.  `overlap: true` on an element says it overlaps
others on purpose (the layout lint, sheetgen.draw.lint, lets it).

`extends:` deep-merges this file onto the other: mappings merge key by key,
lists and scalars replace, `null` deletes an inherited key.  A deck lays out
cards N-up (see sheetgen.draw.nup): `card: {width, height, bleed}`, `template:`
elements on every card, `count:` copies or `cards:` each with `elements:` that
deep-merge onto the template (so a card can change just the template's title
text), or `cards_from: cards.csv` or `cards.xlsx` (a spreadsheet's rows as the cards: see
sheetgen.definitions.csvcards), and an optional `back:`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, Union

from pydantic import (AfterValidator, BeforeValidator, Discriminator, Field, PositiveInt, Tag,
                      ValidationError, WithJsonSchema)

from ..errors import InputError, Problem, did_you_mean
from ..fonts import FAMILIES
from ..limits import MAX_HEX_CELLS, MAX_HEX_CELLS_DOCUMENT, MAX_TEXT_CHARS, MAX_TEXT_CHARS_DOCUMENT
from .layout_handler import LayoutDefinition, Rel, compose  # noqa: F401 (the loaded definition; this module's compose)
from .models import Colour, Length, Strict, error_message, field_annotation, parse_length, simplify_union_errors
from .yamlsource import MarkedDict, MarkedList, key_path, read_yaml

FURNITURE_MM = 8.0      # the bottom band of every page kept for the footer and ruler

# -- coordinates: lengths, percentages, grid cells -------------------------------------


# Rel (a coordinate relative to something known only when composing: 50%, 3cells) is
# defined in layout_handler, so snapshots of layouts unpickle without this module
_REL_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(cells?|%)\s*$")


def parse_coord(value: Any) -> float | Rel:
    if isinstance(value, Rel):
        return value
    if isinstance(value, str):
        m = _REL_RE.match(value)
        if m:
            unit = "%" if m.group(2) == "%" else "cells"
            return Rel(float(m.group(1)), unit)
    try:
        return parse_length(value)
    except ValueError as exc:
        text = str(exc).replace("(units: mm, cm, in, pt)", "(units: mm, cm, in, pt, cells, %)")
        m = re.search(r"unknown unit '([a-z]+)'", text)
        if m and "did you mean" not in text:
            hint = did_you_mean(m.group(1), ["mm", "cm", "in", "pt", "cells"])
            if hint:
                text += f"; did you mean '{hint}'?"
        raise ValueError(text) from None


_COORD_SCHEMA = {"anyOf": [{"type": "number"},
                           {"type": "string", "pattern": r"^\s*-?(\d+(\.\d+)?|\.\d+)\s*(mm|cm|in|pt|cells?|%)?\s*$"}],
                 "description": "mm number, a length with unit (mm, cm, in, pt), N% of the area, or Ncells of a grid"}
Coord = Annotated[Any, BeforeValidator(parse_coord), WithJsonSchema(_COORD_SCHEMA)]


def _check_font(name: str) -> str:
    if name not in FAMILIES:
        hint = did_you_mean(name, FAMILIES)
        raise ValueError(f"unknown font '{name}' (one of {', '.join(FAMILIES)})"
                         + (f"; did you mean '{hint}'?" if hint else ""))
    return name


FontName = Annotated[str, AfterValidator(_check_font),
                     WithJsonSchema({"type": "string", "enum": list(FAMILIES)})]
Pattern = Literal["hatch", "backhatch", "crosshatch", "horizontal", "vertical", "dots", "none"]
Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]

# -- page ------------------------------------------------------------------------------


MAX_PAGE_MM = 2000.0    # 2 m: beyond any printer (and a PNG of it would not fit in memory)
MAX_COUNT = 1000        # grid columns/rows, checkbox boxes, deck cards: more is a typo, and slow


class Margins(Strict):
    top: Length = Field(10.0, ge=0)
    right: Length = Field(10.0, ge=0)
    bottom: Length = Field(10.0, ge=0)
    left: Length = Field(10.0, ge=0)


def _margin_not_negative(value: float) -> float:
    if value < 0:
        raise ValueError(f"margins cannot be negative, got {value:g} mm")
    return value


MarginLength = Annotated[Length, AfterValidator(_margin_not_negative)]


class PageSpec(Strict):
    size: Literal["a4", "letter", "custom"] = "a4"
    width: Length | None = Field(None, gt=0, le=MAX_PAGE_MM)
    height: Length | None = Field(None, gt=0, le=MAX_PAGE_MM)
    orientation: Literal["portrait", "landscape"] = "portrait"
    margins: MarginLength | Margins = 10.0


class Point(Strict):
    x: Coord = 0.0
    y: Coord = 0.0

# -- elements --------------------------------------------------------------------------


class _Element(Strict):
    """What every element has: position (x, y), draw order (z) and the grid its cells refer to."""
    x: Coord = 0.0
    y: Coord = 0.0
    z: int = 0
    grid: str | None = Field(None, description="the grid whose cells the `cells` unit counts")
    # (not in the repr, which the footer's sheet id is made from: the flag prints nothing)
    overlap: bool = Field(False, repr=False, description="this element overlaps others on purpose "
                          "(the layout lint lets its text touch other elements and others touch it)")


class _Stroked(_Element):
    stroke: Colour = "#000000"
    stroke_width: Length = Field(0.3, ge=0)
    dash: list[Length] | None = None


class _Filled(_Stroked):
    fill: Colour = None
    pattern: Pattern | None = Field(None, description="what stands for the fill colour in --grayscale "
                                    "(default: chosen from the colour; light tints are dropped)")


class GridLabels(Strict):
    columns: Literal["letters", "numbers", "none"] = "letters"
    rows: Literal["letters", "numbers", "none"] = "numbers"
    start: int = 1
    font: FontName = "condensed"
    size: float = Field(6.5, gt=0, le=1000)
    colour: Colour = "#555555"


class GridElement(_Element):
    type: Literal["grid"]
    columns: PositiveInt = Field(le=MAX_COUNT)
    rows: PositiveInt = Field(le=MAX_COUNT)
    width: Coord | None = None
    height: Coord | None = None
    cell: Length | None = Field(None, gt=0, description="cell size (squares: side; hexes: across the flats)")
    fit: bool = Field(False, description="cells as large as fit the area in whole cells, centred")
    fit_step: Length = Field(0.1, gt=0, description="fitted cell sizes are rounded down to this step")
    shape: Literal["square", "hex"] = "square"
    orientation: Literal["flat", "pointy"] = "flat"
    stroke: Colour = "#8c8c8c"
    stroke_width: Length = Field(0.15, ge=0)
    major_every: PositiveInt | None = None
    major_stroke: Colour = "#4d4d4d"
    major_width: Length = Field(0.3, ge=0)
    border: Colour = "#000000"
    border_width: Length = Field(0.45, ge=0)
    labels: bool | GridLabels = False


class BoxElement(_Filled):
    type: Literal["box"]
    width: Coord | None = None
    height: Coord | None = None
    radius: Length = Field(0.0, ge=0)


class LineElement(_Stroked):
    type: Literal["line"]
    x2: Coord
    y2: Coord
    cap: Literal["butt", "round", "square"] = "butt"


class PolygonElement(_Filled):
    type: Literal["polygon"]
    points: list[tuple[Coord, Coord]] = Field(min_length=2)
    closed: bool = True


class TextElement(_Element):
    type: Literal["text"]
    text: str
    font: FontName = "sans"
    size: float = Field(10.0, gt=0, le=1000, description="points")
    colour: Colour = "#000000"
    align: Align = "left"
    valign: VAlign = "top"
    width: Coord | None = Field(None, description="wrap inside this width")
    height: Coord | None = Field(None, description="box height for valign")
    line_height: float = Field(1.2, gt=0, le=20)
    shrink: bool = Field(False, description="shrink to fit the width on one line instead of wrapping")
    upper: bool = False


class CheckboxTrackElement(_Element):
    type: Literal["checkbox_track"]
    boxes: PositiveInt = Field(le=MAX_COUNT)
    label: str = ""
    box: Length = Field(4.5, gt=0)
    gap: Length = 1.2
    shape: Literal["square", "circle"] = "square"
    caps: list[PositiveInt] = Field(default_factory=list, description="1-based boxes printed blacked out")
    blacked_out: int = Field(0, ge=0, description="the last N boxes printed blacked out")
    box_labels: list[str] | None = None
    per_row: PositiveInt | None = None
    font: FontName = "sans-bold"
    size: float = Field(8.0, gt=0, le=1000)
    label_width: Length | None = None
    stroke: Colour = "#000000"
    stroke_width: Length = Field(0.3, ge=0)


class TableElement(_Element):
    type: Literal["table"]
    header: list[str] | None = None
    rows: list[list[str | int | float]] = Field(default_factory=list)
    width: Coord | None = None
    height: Coord | None = None
    widths: list[Length] | None = Field(None, description="column widths, scaled to the table width")
    align: list[Align] | None = None
    font: FontName = "sans"
    header_font: FontName = "sans-bold"
    size: float = Field(8.0, gt=0, le=1000)
    padding: Length = Field(1.2, ge=0)
    min_row_height: Length = Field(0.0, ge=0)
    header_fill: Colour = "#e4e4e4"
    stripe: Colour = None
    stroke: Colour = "#000000"
    stroke_width: Length = Field(0.25, ge=0)


class IconElement(_Element):
    type: Literal["icon"]
    name: str
    size: Coord = 10.0
    colour: bool = True


class ImageElement(_Element):
    type: Literal["image"]
    path: str
    width: Coord | None = None
    height: Coord | None = None
    fit: Literal["contain", "stretch"] = "contain"


class GroupElement(_Element):
    type: Literal["group"]
    at: Point = Point()
    width: Coord | None = None
    height: Coord | None = None
    rotate: float = 0.0
    elements: dict[str, "Element"] = Field(default_factory=dict)


class UseElement(_Element):
    type: Literal["use"] = "use"
    use: str = Field(description="name of a group under `groups:`")
    at: Point = Point()
    rotate: float = 0.0


ELEMENT_MODELS: dict[str, type[_Element]] = {
    "grid": GridElement, "box": BoxElement, "line": LineElement, "polygon": PolygonElement,
    "text": TextElement, "checkbox_track": CheckboxTrackElement, "table": TableElement,
    "icon": IconElement, "image": ImageElement, "group": GroupElement, "use": UseElement,
}
ELEMENT_TYPES = tuple(ELEMENT_MODELS)


def element_tag(value: Any) -> str | None:
    """The element type of raw data or a model (a bare `use:` mapping is a use element)."""
    if isinstance(value, dict):
        tag = value.get("type")
        if tag is None and "use" in value:
            return "use"
        return tag if isinstance(tag, str) else None
    return getattr(value, "type", None)


Element = Annotated[
    Union[tuple(Annotated[model, Tag(name)] for name, model in ELEMENT_MODELS.items())],
    Discriminator(element_tag, custom_error_type="element_type", custom_error_message="unknown element type"),
]
# (GroupElement refers to Element before it exists: pydantic resolves the name when it first
# builds the deferred model, see Strict)


class GroupDef(Strict):
    width: Coord | None = None
    height: Coord | None = None
    elements: dict[str, Element] = Field(default_factory=dict)


class CardSpec(Strict):
    width: Length = Field(gt=0, le=MAX_PAGE_MM)
    height: Length = Field(gt=0, le=MAX_PAGE_MM)
    bleed: Length = Field(0.0, ge=0)


class CardEntry(Strict):
    name: str | None = None
    count: PositiveInt = Field(1, le=MAX_COUNT)
    elements: Annotated[dict[str, Element], WithJsonSchema(
        {"type": "object", "description": "elements merged by name onto the deck's template"})] = \
        Field(default_factory=dict)


class LayoutModel(Strict):
    """A layout or deck definition (the root of a `kind: layout` or `kind: deck` file)."""
    sheetgen: Literal[1]
    kind: Literal["layout", "deck"]
    title: str = ""
    description: str = ""
    name: str | None = Field(None, description="base name of output files (default: the file name)")
    extends: str | None = Field(None, description="a built-in layout name or a path relative to this file")
    page: PageSpec = PageSpec()
    groups: dict[str, GroupDef] = Field(default_factory=dict)
    elements: dict[str, Element] = Field(default_factory=dict)
    # decks only
    card: CardSpec | None = None
    count: PositiveInt | None = Field(None, le=MAX_COUNT)
    cards: list[CardEntry] | None = Field(None, max_length=MAX_COUNT)
    # (repr=False: not in the sheet id, which the cards it gives are; ids of other decks stay as they were)
    cards_from: str | None = Field(None, repr=False, description="a CSV or .xlsx file (relative to this file) whose rows "
                                   "are the cards: columns count, name, ELEMENT (its text) or ELEMENT.KEY")
    cards_sheet: str | None = Field(None, repr=False, min_length=1,
                                    description="the sheet of an .xlsx cards_from to read (default: its first)")
    template: dict[str, Element] = Field(default_factory=dict)
    back: dict[str, Element] | None = None
    gap: Length = Field(0.0, ge=0)
    crop_marks: bool = True
    cut_lines: bool | None = Field(None, description="dashed cut guides (default: on without bleed)")


MODEL = LayoutModel

# -- the loaded definition: LayoutDefinition (in sheetgen.definitions.layout_handler, which
# the registry names for layouts and decks, and which loads what it can without pydantic)


# -- merged data that remembers which file each key came from -----------------------------------


class Node(MarkedDict):
    """A mapping after extends-merging: key_files names the file each key came from."""
    __slots__ = ("key_files",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_files: dict[Any, str] = {}


def _tag_file(value: Any, filename: str) -> Any:
    """A copy of marked data whose mappings are Nodes naming filename for every key."""
    if isinstance(value, dict):
        node = Node()
        node.mark = getattr(value, "mark", None)
        for k, v in value.items():
            node[k] = _tag_file(v, filename)
            node.key_files[k] = filename
            if isinstance(value, MarkedDict):
                if k in value.key_marks:
                    node.key_marks[k] = value.key_marks[k]
                if k in value.value_marks:
                    node.value_marks[k] = value.value_marks[k]
        return node
    if isinstance(value, list):
        out = MarkedList(_tag_file(v, filename) for v in value)
        out.mark = getattr(value, "mark", None)
        out.item_marks = list(getattr(value, "item_marks", []))
        return out
    return value


def deep_merge(base: Node, over: Node) -> Node:
    """over merged onto base: mappings key by key, lists and scalars replace, None deletes."""
    out = Node()
    out.mark = over.mark or base.mark
    for k, v in base.items():
        out[k] = v
        out.key_files[k] = base.key_files.get(k)
        if k in base.key_marks:
            out.key_marks[k] = base.key_marks[k]
        if k in base.value_marks:
            out.value_marks[k] = base.value_marks[k]
    for k, v in over.items():
        if v is None:
            out.pop(k, None)
            continue
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            v = deep_merge(out[k], v)
        out[k] = v
        out.key_files[k] = over.key_files.get(k)
        if k in over.key_marks:
            out.key_marks[k] = over.key_marks[k]
        if k in over.value_marks:
            out.value_marks[k] = over.value_marks[k]
    return out


_NO_KEY = object()     # (a YAML key may be None itself)


def where(data: Any, loc: tuple, default_file: str, key_itself: bool = False) -> tuple[str, int | None, int | None]:
    """(file, line, column) of the value at loc in merged data (or of its key)."""
    file = default_file
    best = getattr(data, "mark", None)
    node = data
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(node, dict):
            key = part if part in node else next((k for k in node if str(k) == str(part)), _NO_KEY)
            if key is _NO_KEY:
                break
            if isinstance(node, Node):
                file = node.key_files.get(key) or file
            if isinstance(node, MarkedDict):
                if last and key_itself:
                    best = node.key_marks.get(key, best)
                    return file, *(best or (None, None))
                best = node.value_marks.get(key, best)
            node = node[key]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            if isinstance(node, MarkedList) and part < len(node.item_marks):
                best = node.item_marks[part]
            node = node[part]
        else:
            break
    return file, *(best or (None, None))


# -- extends ---------------------------------------------------------------------------------


def _resolve_extends(data: MarkedDict, path: Path, chain: list[Path]) -> Node:
    """This file's data with its `extends:` chain merged underneath."""
    filename = str(path)
    node = _tag_file(data, filename)
    parent_ref = node.get("extends")
    if parent_ref is None:
        node.pop("extends", None)
        return node
    mark = node.value_marks.get("extends") or node.mark or (1, 1)

    def fail(message: str, **kw) -> InputError:
        return InputError(Problem(message, filename, *mark, path="extends", **kw))

    if not isinstance(parent_ref, str) or not parent_ref.strip():
        raise fail(f"extends names a layout, got {parent_ref!r}",
                   expected="a built-in layout name or a path to a .yaml file")
    ref = parent_ref.strip()
    if "/" in ref or ref.endswith((".yaml", ".yml")):
        parent_path = (path.parent / ref)
        if not parent_path.is_file():
            raise fail(f"extends '{ref}': no such file ({parent_path})")
    else:
        from .builtins import builtin_names, find_builtin
        try:
            parent_path = find_builtin(ref)
        except InputError:
            raise fail(f"extends '{ref}': no built-in layout of that name",
                       expected="a built-in layout name or a path to a .yaml file",
                       suggestion=did_you_mean(ref, builtin_names())) from None
    parent_path = parent_path.resolve()
    if parent_path in chain:
        names = " -> ".join(p.name for p in chain + [parent_path])
        raise fail(f"extends cycle: {names}")
    parent_data = read_yaml(parent_path)
    kind = parent_data.get("kind") if isinstance(parent_data, dict) else None
    if not isinstance(parent_data, dict) or parent_data.get("sheetgen") != 1 or kind not in ("layout", "deck") \
            or parent_data.get("ruleset") is not None:
        raise fail(f"extends '{ref}': {parent_path.name} is not a layout or deck definition"
                   + (f" (it is kind '{kind}')" if kind else ""))
    parent = _resolve_extends(parent_data, parent_path, chain + [parent_path])
    node.pop("extends")
    return deep_merge(parent, node)


# -- validation with locations across files -------------------------------------------------------


def _clean_loc(loc: tuple, data: Any) -> tuple[tuple, Any]:
    """Drop pydantic's union tags from loc, walking the data: the first part of
    the loc inside an element mapping is always its discriminator tag (even
    when the element also has a key of that name, as text elements do)."""
    out = []
    node = data
    fresh = True                        # no part consumed inside node yet
    for part in loc:
        if isinstance(part, str) and part.startswith("function-"):
            continue
        # (only a mapping that sits in an element mapping is an element: the file's
        # top level or a group named 'use' is not, though it may have a 'use' key)
        if fresh and len(out) >= 2 and out[-2] in ("elements", "template", "back") and isinstance(node, dict) \
                and element_tag(node) in ELEMENT_MODELS and part == element_tag(node):
            fresh = False
            continue
        if (isinstance(node, list) and not isinstance(part, int)) or part == "[key]":
            continue
        if part in _UNION_TAGS and not (isinstance(node, dict) and part in node):
            continue                    # a union member's name (Margins, bool, float), not a key
        out.append(part)
        if isinstance(node, dict):
            key = part if part in node else next((k for k in node if str(k) == str(part)), _NO_KEY)
            node = node[key] if key is not _NO_KEY else None
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
        fresh = True
    return tuple(out), node


def _union_tags() -> set[str]:
    names = {"str", "int", "float", "bool", "list", "dict", "tuple"}
    stack = [Strict]
    while stack:
        cls = stack.pop()
        names.add(cls.__name__)
        stack.extend(cls.__subclasses__())
    return names


_UNION_TAGS = _union_tags()


def _model_at(loc: tuple, data: Any):
    """The model class of the mapping at loc (element unions resolved by their type)."""
    import typing
    current: Any = LayoutModel
    node = data
    for part in loc:
        model = _as_model(current, node)
        if model is not None:
            if part not in model.model_fields:
                return None
            current = field_annotation(model, part)
        else:
            args = [a for a in typing.get_args(current) if a is not type(None)]
            origin = typing.get_origin(current)
            if origin is dict and len(args) == 2:
                current = args[1]
            elif origin in (list, tuple) and args:
                current = args[0]
            else:
                inner = next((a for a in args if typing.get_origin(a) in (dict, list)), None)
                if inner is None:
                    return None
                current = inner
                a2 = typing.get_args(inner)
                current = a2[1] if typing.get_origin(inner) is dict else a2[0]
        node = node.get(part) if isinstance(node, dict) else (
            node[part] if isinstance(node, list) and isinstance(part, int) and part < len(node) else None)
    return _as_model(current, node)


def _as_model(annotation: Any, node: Any):
    import typing
    from pydantic import BaseModel
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    members = [a for a in (typing.get_args(annotation) if typing.get_origin(annotation) is Union else (annotation,))
               if a is not type(None)]
    if any(typing.get_origin(a) in (dict, list, tuple) for a in members):
        return None         # a mapping or list of models (elements, groups, cards), not a model itself
    tag = element_tag(node) if isinstance(node, dict) else None
    models = []
    stack = [annotation]
    while stack:
        a = stack.pop()
        if isinstance(a, type) and issubclass(a, BaseModel):
            models.append(a)
        else:
            stack.extend(typing.get_args(a))
    if tag in ELEMENT_MODELS and ELEMENT_MODELS[tag] in models:
        return ELEMENT_MODELS[tag]
    if len(models) == 1 or (models and not any(m in ELEMENT_MODELS.values() for m in models)):
        return models[0]
    return None


def _problems(exc: ValidationError, data: Any, filename: str, prefix: tuple = ()) -> list[Problem]:
    problems: list[Problem] = []
    located = [(_clean_loc(tuple(err["loc"]), data)[0], err) for err in exc.errors(include_url=False)]
    for loc, err in simplify_union_errors(located):
        full = prefix + loc
        kind = err["type"]
        if kind == "extra_forbidden":
            file, line, col = where(data, loc, filename, key_itself=True)
            model = _model_at(loc[:-1], data)
            known = [f.alias or n for n, f in model.model_fields.items()] if model else []
            known = [k for k in known if k != "type"] if model in ELEMENT_MODELS.values() else known
            problems.append(Problem(f"unknown key '{loc[-1]}'", file, line, col, path=key_path(full[:-1]) or None,
                                    expected=("one of " + ", ".join(known)) if known else None,
                                    suggestion=did_you_mean(loc[-1], known) if known else None))
        elif kind == "missing":
            file, line, col = where(data, loc[:-1], filename)
            problems.append(Problem(f"missing required key '{loc[-1]}'", file, line, col,
                                    path=key_path(full[:-1]) or None))
        elif kind == "element_type":
            got = err.get("input")
            tag = got.get("type") if isinstance(got, dict) else None
            if isinstance(got, dict) and tag is None:
                file, line, col = where(data, loc, filename)
                problems.append(Problem("an element needs a 'type'", file, line, col, path=key_path(full) or None,
                                        expected="one of " + ", ".join(ELEMENT_TYPES)))
            elif isinstance(got, dict):
                file, line, col = where(data, loc + ("type",), filename)
                problems.append(Problem(f"unknown element type '{tag}'", file, line, col,
                                        path=key_path(full + ("type",)), expected="one of " + ", ".join(ELEMENT_TYPES),
                                        suggestion=did_you_mean(str(tag), ELEMENT_TYPES)))
            else:
                file, line, col = where(data, loc, filename)
                problems.append(Problem(f"an element is a mapping of keys, got {got!r}", file, line, col,
                                        path=key_path(full) or None))
        else:
            is_key = kind == "invalid_key" or (bool(err["loc"]) and err["loc"][-1] == "[key]")  # the key is wrong
            file, line, col = where(data, loc, filename, key_itself=is_key)
            problems.append(Problem(error_message(err), file, line, col, path=key_path(full) or None))
    unique: dict[tuple, Problem] = {}
    for p in problems:       # a template's problem shows once, not once per card
        unique.setdefault((p.file, p.line, p.column, p.message), p)
    return list(unique.values())


# -- load ------------------------------------------------------------------------------------


def merged_data(data: MarkedDict, source) -> Node:
    """The definition's data with its extends chain merged underneath and each card's
    elements merged onto the template: what is validated, and what locations point into."""
    merged = _resolve_extends(data, Path(source.path).resolve(), [Path(source.path).resolve()])
    # locations in errors name the file as the user gave it
    _rename_file(merged, str(Path(source.path).resolve()), source.filename)
    _cards_from_csv(merged)
    _merge_cards_onto_template(merged)
    return merged


def _cards_from_csv(data: Node) -> None:
    """`cards_from: FILE.csv`: the file's rows become the deck's `cards:`, every value marked
    with its line and column in the CSV (sheetgen.definitions.csvcards)."""
    ref = data.get("cards_from")
    if not isinstance(ref, str) or data.get("kind") != "deck":
        return                          # (pydantic or the checker says what is wrong)
    declared = data.key_files.get("cards_from") or ""
    line, col = data.value_marks.get("cards_from") or (None, None)
    for other in ("cards", "count"):
        if data.get(other) is not None:
            raise InputError(Problem(f"give either 'cards_from' or '{other}', not both", declared, line, col,
                                     path="cards_from"))
    shown = str(Path(declared).parent / ref) if declared else ref
    template = data.get("template") if isinstance(data.get("template"), dict) else {}
    from .csvcards import cards_node, is_workbook
    sheet = data.get("cards_sheet")
    if sheet is not None and not is_workbook(ref):
        line, col = data.value_marks.get("cards_sheet") or (None, None)
        raise InputError(Problem(f"'cards_sheet' names a sheet of an .xlsx workbook; {ref} is not one",
                                 data.key_files.get("cards_sheet") or declared, line, col, path="cards_sheet"))
    cards = cards_node(Path(shown), shown, template, Node, sheet if isinstance(sheet, str) else None)
    data["cards"] = cards
    data.key_files["cards"] = shown
    data.value_marks["cards"] = (1, 1)


def locator(merged: Node, filename: str) -> Callable[..., Problem]:
    """A function (loc, message, **kw) -> Problem at loc of the merged data."""
    def locate_problem(loc: tuple, message: str, **kw) -> Problem:
        file, line, col = where(merged, loc, filename)
        return Problem(message, file, line, col, path=key_path(loc) or None, **kw)
    return locate_problem


def _files(node: Any, found: set[str]) -> set[str]:
    """Every file the merged data took a key from."""
    if isinstance(node, Node):
        found.update(f for f in node.key_files.values() if f)
    if isinstance(node, dict):
        for v in node.values():
            _files(v, found)
    elif isinstance(node, list):
        for v in node:
            _files(v, found)
    return found


def load(data: MarkedDict, source) -> LayoutDefinition:
    """Merge extends, validate, then check what pydantic cannot (names, files, counts)."""
    filename = source.filename
    merged = merged_data(data, source)
    card_file = merged.key_files.get("cards") if "cards_from" in merged else None
    card_sheet = merged.get("cards_sheet") if isinstance(merged.get("cards_sheet"), str) else None
    try:
        model = LayoutModel.model_validate(merged)
    except ValidationError as exc:
        problems = _problems(exc, merged, filename)
        if card_file:
            from .csvcards import relabel
            relabel(problems, card_file, card_sheet)
        raise InputError(problems) from None
    locate_problem = locator(merged, filename)
    problems = []
    checker = _Checker(model, merged, filename, locate_problem, problems)
    model = checker.run()
    cards = checker.cards
    if problems and card_file:
        from .csvcards import relabel
        relabel(problems, card_file, card_sheet)
    if problems:
        unique: dict[tuple, Problem] = {}
        for p in problems:       # a template's problem shows once, not once per card
            unique.setdefault((p.file, p.line, p.column, p.message), p)
        raise InputError(list(unique.values()))
    name = model.name or Path(source.path).stem
    return LayoutDefinition(model=model, source=source, name=name, cards=cards, where=locate_problem,
                            files=tuple(sorted(_files(merged, set()))))


def _merge_cards_onto_template(data: Node) -> None:
    """Each card's elements deep-merged onto the template (so a card may change
    one key of a template element); locations still point where keys came from."""
    template, cards = data.get("template"), data.get("cards")
    if not isinstance(cards, list):
        return
    if not isinstance(template, Node):
        template = Node()
    for entry in cards:
        if not isinstance(entry, Node):
            continue
        own = entry.get("elements")
        if own is None:
            entry["elements"] = template
            entry.key_files["elements"] = data.key_files.get("template")
            if "template" in data.value_marks:
                entry.value_marks["elements"] = data.value_marks["template"]
        elif isinstance(own, Node):
            entry["elements"] = deep_merge(template, own)


def _rename_file(node: Any, old: str, new: str) -> None:
    if isinstance(node, Node):
        for k in node:
            if node.key_files.get(k) == old:
                node.key_files[k] = new
            _rename_file(node[k], old, new)
    elif isinstance(node, list):
        for v in node:
            _rename_file(v, old, new)


class _Checker:
    """Semantic checks after pydantic; also resolves image paths and deck cards."""

    def __init__(self, model: LayoutModel, data: Node, filename: str, problem, problems: list[Problem]):
        self.model, self.data, self.filename = model, data, filename
        self.problem, self.problems = problem, problems
        self.grids = [n for n, e in model.elements.items() if isinstance(e, GridElement)]
        self.cards: list[tuple[str, dict]] = []
        self.over_limit = False          # an element past its own drawing limit (said once, not again)

    def add(self, loc: tuple, message: str, **kw) -> None:
        self.problems.append(self.problem(loc, message, **kw))

    def run(self) -> LayoutModel:
        m = self.model
        updates: dict[str, Any] = {}
        if m.page.size == "custom" and (m.page.width is None or m.page.height is None):
            self.add(("page",), "a custom page needs width and height")
        if m.page.size != "custom" and (m.page.width is not None or m.page.height is not None):
            self.add(("page", "size"), f"width/height are only for size: custom (size is {m.page.size})")
        # groups first (use elements refer to them), checking use cycles
        groups = {}
        for gname, gdef in m.groups.items():
            groups[gname] = gdef.model_copy(update={"elements": self.elements(gdef.elements, ("groups", gname, "elements"),
                                                                                top=False)})
        updates["groups"] = groups
        self._check_use_cycles(groups)
        if m.kind == "layout":
            for key in ("card", "count", "cards", "cards_from", "cards_sheet", "back"):
                if getattr(m, key) is not None:
                    self.add((key,), f"'{key}' is only for kind: deck")
            if m.template:
                self.add(("template",), "'template' is only for kind: deck")
            updates["elements"] = self.elements(m.elements, ("elements",), top=True)
        else:
            if m.elements:
                self.add(("elements",), "a deck draws cards: put card elements under 'template:' or 'cards:'")
            if m.card is None:
                self.add((), "a deck needs 'card: {width, height}'")
            if m.count is not None and m.cards is not None:
                self.add(("count",), "give either 'count' (copies of the template) or 'cards', not both")
            if m.cards_sheet is not None and m.cards_from is None:
                self.add(("cards_sheet",), "'cards_sheet' names the sheet of a 'cards_from' workbook, and there is none")
            template = updates["template"] = self.elements(m.template, ("template",), top=False)
            if m.back is not None:
                updates["back"] = self.elements(m.back, ("back",), top=False)
            self._cards(template)
        self._check_drawing_budget(updates)
        return m.model_copy(update=updates)

    def _check_drawing_budget(self, updates: dict) -> None:
        """The whole document within MAX_HEX_CELLS_DOCUMENT hexes and MAX_TEXT_CHARS_DOCUMENT
        characters, counting every card and every use of a group: each element may be
        within its own limit while a thousand cards of them would take minutes to draw."""
        if self.over_limit:
            return
        groups = updates.get("groups", {})
        m = self.model
        longest = max([len(m.title), len(m.name or ""), 40] + [len(name) for name, _ in self.cards])
        memo: dict[str, tuple[int, int]] = {}

        def cost(elements: dict, using: tuple = ()) -> tuple[int, int]:
            hexes = chars = 0
            for el in elements.values():
                h = c = 0
                if isinstance(el, GridElement) and el.shape == "hex":
                    h = el.columns * el.rows
                elif isinstance(el, TextElement):
                    c = len(el.text) + el.text.count("{") * longest     # {title}, {card} are filled in
                elif isinstance(el, TableElement):
                    c = _table_chars(el)
                elif isinstance(el, CheckboxTrackElement):
                    c = len(el.label) + sum(len(t) for t in el.box_labels or ())
                elif isinstance(el, GroupElement):
                    h, c = cost(el.elements, using)
                elif isinstance(el, UseElement) and el.use in groups and el.use not in using:
                    if el.use not in memo:
                        memo[el.use] = cost(groups[el.use].elements, using + (el.use,))
                    h, c = memo[el.use]
                hexes, chars = hexes + h, chars + c
            return hexes, chars

        if m.kind == "layout":
            hexes, chars = cost(updates.get("elements", {}))
            where: tuple = ("elements",)
        else:
            hexes = chars = 0
            back = cost(updates["back"]) if updates.get("back") is not None else (0, 0)
            for _, elements in self.cards:
                h, c = cost(elements)
                hexes, chars = hexes + h + back[0], chars + c + back[1]
            where = ("cards",) if m.cards is not None else ("template",)
        whole = f"the whole {m.kind}{' (every card)' if m.kind == 'deck' else ''}"
        if hexes > MAX_HEX_CELLS_DOCUMENT:
            self.add(where, f"{hexes:,} hexes in {whole}; a layout or deck draws at most "
                            f"{MAX_HEX_CELLS_DOCUMENT:,} (hexes are drawn one by one)")
        if chars > MAX_TEXT_CHARS_DOCUMENT:
            self.add(where, f"about {chars:,} characters of text in {whole}; a layout or deck draws at most "
                            f"{MAX_TEXT_CHARS_DOCUMENT:,}")

    def _cards(self, template: dict) -> None:
        """The deck's cards: `count` copies of the template, or each entry of
        `cards` (whose elements were merged onto the template before validation)."""
        m = self.model
        if m.cards is None:
            self.cards = [(f"{i + 1}", template) for i in range(m.count or 1)]
            return
        total = sum(entry.count for entry in m.cards)
        if total > MAX_COUNT:
            self.add(("cards",), f"{total} cards in all; a deck holds at most {MAX_COUNT}")
            return
        number = 0
        for i, entry in enumerate(m.cards):
            elements = self.elements(entry.elements, ("cards", i, "elements"), top=False)
            for _ in range(entry.count):
                number += 1
                self.cards.append((entry.name or f"{number}", elements))

    def _check_use_cycles(self, groups: dict) -> None:
        def uses(elements: dict) -> list[str]:
            out = []
            for e in elements.values():
                if isinstance(e, UseElement):
                    out.append(e.use)
                elif isinstance(e, GroupElement):
                    out += uses(e.elements)
            return out

        def visit(name: str, chain: list[str]) -> None:
            for used in uses(groups[name].elements):
                if used in chain:
                    self.add(("groups", name), "groups use each other in a cycle: " + " -> ".join(chain + [used]))
                    return
                if used in groups:
                    visit(used, chain + [used])
        for name in groups:
            visit(name, [name])

    def elements(self, elements: dict, loc: tuple, top: bool) -> dict:
        """Check elements (recursively); returns them with image paths made absolute."""
        out = {}
        for name, el in elements.items():
            here = loc + (name,)
            out[name] = self.element(el, here, top)
        return out

    def element(self, el, loc: tuple, top: bool):
        add = self.add
        uses_cells = any(isinstance(v, Rel) and v.unit == "cells" for v in _coords(el))
        if el.grid is not None:
            if el.grid not in self.grids:
                add(loc + ("grid",), f"no grid element named '{el.grid}' at the top level",
                    expected="one of " + ", ".join(self.grids) if self.grids else "a grid element's name",
                    suggestion=did_you_mean(el.grid, self.grids))
        elif uses_cells and len(self.grids) != 1:
            add(loc, "this element uses 'cells' but names no grid"
                + (" and the layout has no single grid" if self.grids else " and the layout has no grid"),
                expected="grid: NAME")
        if isinstance(el, GridElement):
            if el.shape == "hex" and el.columns * el.rows > MAX_HEX_CELLS:
                self.over_limit = True
                add(loc, f"{el.columns} x {el.rows} = {el.columns * el.rows:,} hexes; a hex grid holds at most "
                         f"{MAX_HEX_CELLS:,} (hexes are drawn one by one; a square grid may be larger)")
            if uses_cells:
                add(loc, "a grid's own position and size cannot be in cells")
            if el.cell is None and not el.fit:
                add(loc, "a grid needs a cell size or 'fit: true'", expected="cell: 8mm or fit: true")
            if el.cell is not None and el.fit:
                add(loc + ("fit",), "give either 'cell' or 'fit: true', not both")
        elif isinstance(el, CheckboxTrackElement):
            for i, c in enumerate(el.caps):
                if c > el.boxes:
                    add(loc + ("caps", i), f"box {c} does not exist (the track has {el.boxes} boxes)")
            if el.blacked_out > el.boxes:
                add(loc + ("blacked_out",), f"{el.blacked_out} blacked out but the track has {el.boxes} boxes")
            if el.box_labels is not None and len(el.box_labels) > el.boxes:
                add(loc + ("box_labels",), f"{len(el.box_labels)} labels for {el.boxes} boxes")
        elif isinstance(el, TextElement):
            if len(el.text) > MAX_TEXT_CHARS:
                self.over_limit = True
                add(loc + ("text",), f"{len(el.text):,} characters; a text holds at most {MAX_TEXT_CHARS:,} "
                                     "(more than a full page of small print)")
        elif isinstance(el, TableElement):
            if _table_chars(el) > MAX_TEXT_CHARS:
                self.over_limit = True
                add(loc + ("rows",), f"{_table_chars(el):,} characters in the table; a table holds at most "
                                     f"{MAX_TEXT_CHARS:,} (more than a full page of small print)")
            ncols = max([len(el.header or [])] + [len(r) for r in el.rows] + [0])
            if ncols == 0:
                add(loc, "a table needs a header or rows")
            if el.widths is not None and len(el.widths) != ncols:
                add(loc + ("widths",), f"{len(el.widths)} widths for {ncols} columns")
            if el.align is not None and len(el.align) != ncols:
                add(loc + ("align",), f"{len(el.align)} alignments for {ncols} columns")
        elif isinstance(el, IconElement):
            try:
                from ..draw.icons import icon_key
            except ImportError:         # the icon set is optional while it is being written
                icon_key = None
            if icon_key is not None:
                try:
                    el = el.model_copy(update={"name": icon_key(el.name)})
                except InputError as exc:
                    p = exc.problems[0]
                    add(loc + ("name",), p.message, expected=p.expected, suggestion=p.suggestion)
        elif isinstance(el, ImageElement):
            el = self._image(el, loc, add)
        elif isinstance(el, GroupElement):
            el = el.model_copy(update={"elements": self.elements(el.elements, loc + ("elements",), top=False)})
        elif isinstance(el, UseElement):
            if el.use not in self.model.groups:
                add(loc + ("use",), f"no group named '{el.use}'",
                    expected="one of " + ", ".join(self.model.groups) if self.model.groups else "a name under 'groups:'",
                    suggestion=did_you_mean(el.use, list(self.model.groups)))
        return el

    def _image(self, el: ImageElement, loc: tuple, add) -> ImageElement:
        file, line, col = where(self.data, loc + ("path",), self.filename)
        # relative to the definition file that named the image (which may be an extended one)
        base = Path(file).parent if file else Path(self.filename).parent
        path = (base / el.path).resolve()
        if not path.is_file():
            add(loc + ("path",), f"image {path} is a folder, not a file" if path.is_dir()
                else f"image file not found: {path}")
            return el
        try:
            from PIL import Image as PILImage
            with PILImage.open(path) as im:
                fmt = im.format
        except Exception as exc:   # noqa: BLE001 - Pillow raises many kinds for a bad file
            reason = {"UnidentifiedImageError": "not an image file (or a damaged one)",
                      "DecompressionBombError": "too many pixels to place safely"}.get(
                exc.__class__.__name__, exc.__class__.__name__)
            add(loc + ("path",), f"cannot read image {path}: {reason}", expected="a PNG or JPEG file")
            return el
        if fmt not in ("PNG", "JPEG"):
            add(loc + ("path",), f"image {path} is {fmt}", expected="a PNG or JPEG file")
        return el.model_copy(update={"path": str(path)})


def _table_chars(el: "TableElement") -> int:
    return sum(len(str(c)) for c in el.header or ()) + sum(len(str(c)) for row in el.rows for c in row)


def _coords(el) -> list:
    values = []
    for name in ("x", "y", "width", "height", "x2", "y2", "size"):
        v = getattr(el, name, None)
        if v is not None:
            values.append(v)
    for p in getattr(el, "points", None) or ():
        values.extend(p)
    at = getattr(el, "at", None)
    if at is not None:
        values += [at.x, at.y]
    return values


# -- compose: sheetgen.definitions.layout_handler.compose (imported above) ----------------------

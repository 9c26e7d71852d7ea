"""Shared pieces of every definition model: the strict base, lengths, colours,
and validation that turns pydantic's errors into located Problems."""
from __future__ import annotations

import math
import re
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, WithJsonSchema
from pydantic_core import PydanticCustomError

from ..errors import InputError, Problem, did_you_mean
from .yamlsource import MarkedDict, key_path, locate


class Strict(BaseModel):
    """Base of every definition model: unknown keys are errors."""
    # nan/inf (YAML's .nan, .inf) are never meaningful in a definition and break drawing;
    # defer_build: a model's validator is built when it is first used, not at import
    # (a build of one layout never pays for the maps', logs' and decks' models)
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, allow_inf_nan=False,
                              defer_build=True)
    # `sheetgen schema`: the other forms of input a mode="before" model validator turns
    # into this model, as JSON Schemas (e.g. ({"type": "string"},) for a bare name that
    # stands for {name: ...}); None where a model does not say, and then any value that
    # is not a mapping is let through (mappings are still checked key by key)
    json_schema_also: ClassVar[tuple[dict, ...] | None] = None


# -- lengths -----------------------------------------------------------------
_UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
_LENGTH_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-z]*)\s*$")


MAX_LENGTH_MM = 100_000.0     # 100 m: anything longer is a typo, and would overflow drawing


def _finite_mm(mm: float, value: Any) -> float:
    if not math.isfinite(mm) or abs(mm) > MAX_LENGTH_MM:
        shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "..."
        raise ValueError(f"a length between -{MAX_LENGTH_MM:g} and {MAX_LENGTH_MM:g} mm, not {shown}")
    return mm


def parse_length(value: Any) -> float:
    """'12mm', '1.5 in', '10pt', '2cm' or a plain number (mm) -> mm."""
    if isinstance(value, bool):
        raise ValueError("a length, not true/false")
    if isinstance(value, (int, float)):
        try:
            return _finite_mm(float(value), value)
        except OverflowError:         # an integer too large for a float
            raise ValueError(f"a length between -{MAX_LENGTH_MM:g} and {MAX_LENGTH_MM:g} mm, "
                             f"not a {len(str(abs(value)))}-digit number") from None
    if isinstance(value, str):
        m = _LENGTH_RE.match(value)
        if m:
            number, unit = m.groups()
            if unit == "":
                return _finite_mm(float(number), value)
            if unit in _UNIT_MM:
                return _finite_mm(float(number) * _UNIT_MM[unit], value)
            hint = did_you_mean(unit, _UNIT_MM)
            raise ValueError(f"unknown unit '{unit}' (units: mm, cm, in, pt)"
                             + (f"; did you mean '{hint}'?" if hint else ""))
    if not isinstance(value, str):
        # a wrong kind of value (a '_type' error), which unions report in their own way
        raise PydanticCustomError("length_type", "a length such as 12mm, 1.5in, 10pt or a number of mm")
    raise ValueError(f"a length such as 12mm, 1.5in, 10pt or a number of mm, not {value!r}")


# what parse_length accepts, as a JSON Schema pattern (ECMA-262) for `sheetgen schema`
LENGTH_PATTERN = r"^\s*-?(\d+(\.\d+)?|\.\d+)\s*(mm|cm|in|pt)?\s*$"


class _LengthJsonSchema:
    """A Length in the JSON Schema: a number of mm (with the field's bounds) or a
    string with a unit; the bounds cannot be checked on '12mm', the loader does."""

    def __get_pydantic_json_schema__(self, core_schema, handler):
        number = handler(core_schema)
        # (a number written as text, which the generator may allow, is in the pattern too)
        number = next((m for m in number.get("anyOf", ()) if m.get("type") == "number"), number)
        pattern = LENGTH_PATTERN
        if number.get("minimum", number.get("exclusiveMinimum", -1)) >= 0:
            pattern = pattern.replace("-?", "")           # '-2mm' is out of bounds too
        return {"anyOf": [number, {"type": "string", "pattern": pattern}],
                "description": "a length: a number of mm or a string with a unit (12mm, 1.5cm, 0.5in, 10pt)"}


Length = Annotated[float, BeforeValidator(parse_length), _LengthJsonSchema()]

# -- colours -----------------------------------------------------------------
NAMED_COLOURS = {
    "black": "#000000", "white": "#ffffff", "gray": "#808080", "grey": "#808080",
    "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3", "darkgray": "#a9a9a9", "darkgrey": "#a9a9a9",
    "red": "#c0392b", "darkred": "#8b0000", "green": "#2e8b57", "darkgreen": "#006400",
    "blue": "#2c5aa0", "navy": "#000080", "lightblue": "#add8e6", "yellow": "#f1c40f",
    "gold": "#d4a017", "orange": "#e67e22", "purple": "#7d3c98", "brown": "#8b5a2b",
    "beige": "#f1e3c6", "tan": "#d2b48c", "cream": "#fffdd0", "pink": "#f4a6b7",
    "teal": "#16a085", "olive": "#808000", "none": "none",
}
_HEX_RE = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def parse_colour(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"a colour name or #rrggbb, not {value!r}")
    v = value.strip()
    if _HEX_RE.match(v):
        if len(v) == 4:
            v = "#" + "".join(ch * 2 for ch in v[1:])
        return v.lower()
    name = v.lower()
    if name in NAMED_COLOURS:
        return None if name == "none" else NAMED_COLOURS[name]
    hint = did_you_mean(name, NAMED_COLOURS)
    raise ValueError(f"unknown colour '{value}' (a name such as black or a hex value #rrggbb)"
                     + (f"; did you mean '{hint}'?" if hint else ""))


def any_case(word: str) -> str:
    """A regex matching word in any letter case (JSON Schema patterns have no flags)."""
    return "".join(f"[{ch.lower()}{ch.upper()}]" if ch.isalpha() else re.escape(ch) for ch in word)


# what parse_colour accepts (names in any case, #rgb, #rrggbb), for `sheetgen schema`;
# the enum lets an editor offer the names
COLOUR_JSON_SCHEMA = {
    "anyOf": [{"enum": sorted(NAMED_COLOURS)},
              {"type": "string", "pattern": r"^\s*(#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})|"
               + "|".join(any_case(n) for n in sorted(NAMED_COLOURS, key=lambda n: (-len(n), n))) + r")\s*$"},
              {"type": "null"}],
    "description": "a colour name (black, beige, ... or none) or #rrggbb",
}

Colour = Annotated[str | None, BeforeValidator(parse_colour), WithJsonSchema(COLOUR_JSON_SCHEMA)]


# -- validation --------------------------------------------------------------
def _unwrap(annotation):
    """The annotation without Annotated[...] and without None in an Optional."""
    import typing
    while typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    args = typing.get_args(annotation)
    if args and type(None) in args and typing.get_origin(annotation) is not dict:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return _unwrap(rest[0])
    return annotation


def _is_model(annotation) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _tagged_member(annotation, part):
    """The member of a union that `part` names (pydantic puts a tagged union's tag, or a
    union member's class name, in an error's loc)."""
    import typing
    from pydantic import Tag
    members = typing.get_args(_unwrap(annotation))
    for arg in members:
        if typing.get_origin(arg) is Annotated:
            inner, *meta = typing.get_args(arg)
            if any(isinstance(m, Tag) and m.tag == part for m in meta):
                return inner
        elif _is_model(arg) and arg.__name__ == part and len(members) > 1:
            return arg                  # a plain union names its model member by class
    return None


def _field_of(annotation, name):
    """The annotation of the field called name (or aliased so) of the model, or of the
    first model of a union having it."""
    candidates = [annotation] if _is_model(annotation) else \
        [m for m in _models_in(annotation)]
    for model in candidates:
        fields = model.model_fields
        key = name if name in fields else next((k for k, f in fields.items() if f.alias == name), None)
        if key is not None:
            return field_annotation(model, key)
    return None


def field_annotation(model, key: str):
    """A field's annotation with its forward references resolved (a model whose
    validator is not built yet, see Strict's defer_build, still holds them)."""
    import typing
    annotation = model.model_fields[key].annotation
    if isinstance(annotation, (str, typing.ForwardRef)):
        try:
            return typing.get_type_hints(model, include_extras=True).get(key, annotation)
        except Exception:      # noqa: BLE001 - a name that does not resolve: keep what there is
            return annotation
    return annotation


def _models_in(annotation) -> list:
    import typing
    annotation = _unwrap(annotation)
    if _is_model(annotation):
        return [annotation]
    if typing.get_origin(annotation) in (dict, list, tuple, set, frozenset):
        return []                       # a container of models is not a model
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _follow(model: type[BaseModel], loc: tuple) -> tuple[tuple, Any]:
    """Follow an error's loc from model through fields, mappings, lists and unions:
    (the loc without union tags, the annotation reached; None where it got lost)."""
    current: Any = model
    kept: list = []
    for part in loc:
        member = _tagged_member(current, part)
        if member is not None:
            current = member
            continue
        kept.append(part)
        field = _field_of(_unwrap(current), part) if isinstance(part, str) else None
        if field is not None:
            current = field
        else:
            current = _element_type(current)        # a value of a mapping or an item of a list
            if current is None:
                return tuple(kept), None
    return tuple(kept), current


def _known_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """Field names (and aliases) of the model reached by following loc (best effort)."""
    _, reached = _follow(model, loc)
    models = _models_in(reached) if reached is not None else []
    keys: list[str] = []
    for m in models:
        for name, f in m.model_fields.items():
            if (f.alias or name) not in keys:
                keys.append(f.alias or name)
    return keys


def _element_type(annotation):
    import typing
    annotation = _unwrap(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if origin is dict and len(args) == 2:
        return args[1]
    if origin in (list, tuple, set, frozenset) and args:
        return args[0]
    for arg in args:
        inner = _element_type(arg)
        if inner is not None:
            return inner
    return None


_MARKERS = {"str", "int", "float", "list", "dict"}


def _data_loc_in(loc: tuple, data: Any) -> tuple:
    """pydantic's loc without its union/tag markers ('function-after[...]', 'str', ...):
    a part that is a key of the data at that point stays, even one written like a marker
    (a key `wa[lls`, or `str`)."""
    out = []
    node = data
    for p in loc:
        if isinstance(node, dict) and p in node:
            out.append(p)
            node = node[p]
        elif isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            out.append(p)
            node = node[p]
        elif isinstance(p, str) and (p.startswith("function-") or "[" in p or p in _MARKERS):
            continue
        else:
            out.append(p)
            node = None
    return tuple(out)


def problems_from_validation(exc: ValidationError, data: Any, filename: str,
                             model: type[BaseModel] | None = None, prefix: tuple = ()) -> list[Problem]:
    problems: list[Problem] = []
    seen = set()
    located = []
    for err in exc.errors(include_url=False):
        located.append((data_loc(err, data), err))      # pydantic's union/tag markers are not keys in the data
    for loc, err in simplify_union_errors(located):
        full = prefix + loc
        kind = err["type"]
        if kind == "extra_forbidden":
            mark = locate(data, loc, key_itself=True)
            known = _known_keys(model, loc[:-1]) if model else []
            problem = Problem(f"unknown key '{loc[-1]}'", filename, *(mark or (None, None)),
                              path=key_path(full[:-1]) or None,
                              expected="one of " + ", ".join(known) if known else None,
                              suggestion=did_you_mean(loc[-1], known) if known else None)
        elif kind == "missing":
            mark = locate(data, loc[:-1])
            problem = Problem(f"missing required key '{loc[-1]}'", filename, *(mark or (None, None)),
                              path=key_path(full[:-1]) or None)
        else:
            is_key = kind == "invalid_key" or (bool(err["loc"]) and err["loc"][-1] == "[key]")  # the key is wrong
            mark = locate(data, loc, key_itself=is_key)
            problem = Problem(error_message(err), filename, *(mark or (None, None)), path=key_path(full) or None)
        key = problem.format()
        if key not in seen:
            seen.add(key)
            problems.append(problem)
    return problems


_INSTANCE_OF = re.compile(r" or instance of \w+")


def _is_shape_error(err: dict) -> bool:
    """A 'wrong kind of value' error, which a union reports once per member it tried."""
    kind = err["type"]
    return kind.endswith("_type") or kind.endswith("_parsing") or kind == "literal_error"


def simplify_union_errors(located: list[tuple[tuple, dict]]) -> list[tuple[tuple, dict]]:
    """Errors at one place, the way a person reads them: when a value matched none of a
    union's members, 'should be a valid string' and 'should be a valid list' become one
    error, and a member's specific complaint (a bad unit, a negative margin, a wrong key
    inside) wins over the other members' 'wrong kind of value'."""
    by_loc: dict[tuple, list[dict]] = {}
    for loc, err in located:
        # an error about a mapping's key is not an alternative to one about its value
        place = loc + ("[key]",) if err["loc"] and err["loc"][-1] == "[key]" else loc
        by_loc.setdefault(place, []).append(err)
    out: list[tuple[tuple, dict]] = []
    for place, errs in by_loc.items():
        loc = place[:-1] if place and place[-1] == "[key]" else place
        shape = [e for e in errs if _is_shape_error(e)]
        deeper = any(other[:len(place)] == place and len(other) > len(place) and other[-1] != "[key]"
                     for other in by_loc)
        if shape and (len(shape) < len(errs) or deeper):
            errs = [e for e in errs if not _is_shape_error(e)]      # the specific complaints say more
        elif len(shape) > 1:
            wanted = []
            for e in shape:
                msg = _INSTANCE_OF.sub("", e["msg"])
                msg = msg.split("Input should be ", 1)[-1].split(", ")[0]
                if msg not in wanted:
                    wanted.append(msg)
            errs = [dict(shape[0], msg="Input should be " + " or ".join(wanted))]
        out.extend((loc, e) for e in errs)
    return out


def describe_value(value: Any) -> str:
    """A short description of a YAML value for messages."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:36] + "...'"


def unknown_key_message(key: Any, known: list[str]) -> str:
    """'unknown key K (expected one of ...); did you mean ...?' in one line."""
    hint = did_you_mean(str(key), known) if known else None
    return (f"unknown key '{key}'" + (f" (expected one of {', '.join(known)})" if known else "")
            + (f"; did you mean '{hint}'?" if hint else ""))


_NO_DATA = object()


def data_loc(err: dict, data: Any = _NO_DATA) -> tuple:
    """The keys and indexes of an error's place in the data (no union or validator markers).
    With the data, a part that is a real key stays even when written like a marker; an
    unknown key (extra_forbidden) is always the last part of pydantic's loc."""
    if data is not _NO_DATA:
        return _data_loc_in(err["loc"], data)
    if err["type"] == "extra_forbidden" and err["loc"]:
        return data_loc(dict(err, loc=err["loc"][:-1], type="")) + (err["loc"][-1],)
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    return tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p in _MARKERS)))


def error_message(err: dict, model: type[BaseModel] | None = None) -> str:
    """pydantic's message for one error, said the way a definition's author reads it:
    no 'Value error,' prefix or class names, lower case, and what was given instead.
    With the model that was validated, an unknown key's message names the keys allowed
    there and the closest one."""
    kind, msg, got = err["type"], err["msg"], err.get("input")
    if kind == "extra_forbidden":
        loc = data_loc(err)
        key = loc[-1] if loc else "?"
        if model is not None:
            return unknown_key_message(key, _known_keys(model, loc[:-1]))
        return unknown_key_message(key, [])
    if kind == "invalid_key" or (kind == "string_type" and err["loc"] and err["loc"][-1] == "[key]"):
        return f"a key must be text (a name), not {describe_value(got)}"
    if err["loc"] and err["loc"][-1] == "[key]":
        return f"the key {describe_value(got)} is wrong: " + error_message(dict(err, loc=err["loc"][:-1]))
    for lead in ("Value error, ", "Assertion failed, "):
        if msg.startswith(lead):
            return msg[len(lead):]
    msg = _INSTANCE_OF.sub("", msg)
    if _is_shape_error(err):
        msg = msg[0].lower() + msg[1:] if msg else msg
        msg += f", got {describe_value(got)}"
    elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number",
                  "too_short", "too_long"):
        msg += f", got {describe_value(got)}" if not isinstance(got, (dict, list)) else ""
    return msg


def validation_messages(exc: ValidationError, model: type[BaseModel] | None = None) -> list[str]:
    """pydantic's errors as one line each, 'key.path: message', for input that is not a
    file (a `track step '{...}'` argument): the same words as a file's problems."""
    located = [(_follow(model, data_loc(err))[0] if model is not None else data_loc(err), err)
               for err in exc.errors(include_url=False)]
    out: list[str] = []
    for loc, err in simplify_union_errors(located):
        where = key_path(loc[:-1] if err["type"] in ("extra_forbidden", "missing") else loc)
        text = (f"missing required key '{loc[-1]}'" if err["type"] == "missing" and loc
                else error_message(err, model))
        line = f"{where}: {text}" if where else text
        if line not in out:
            out.append(line)
    return out


def validate_model(model: type[BaseModel], data: Any, filename: str, context: dict | None = None):
    """Build model from marked data or raise InputError listing every located problem."""
    if not isinstance(data, dict):
        raise InputError(Problem("expected a mapping of keys at the top of the file", filename, 1, 1))
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise InputError(problems_from_validation(exc, data, filename, model)) from None


def problem_at(data: MarkedDict, loc: tuple, message: str, filename: str, **kw) -> Problem:
    """A Problem located at loc inside marked data (for checks after pydantic)."""
    mark = locate(data, loc)
    return Problem(message, filename, *(mark or (None, None)), path=key_path(loc) or None, **kw)

"""Shared pieces of every definition model: the strict base, lengths, colours,
and validation that turns pydantic's errors into located Problems."""
from __future__ import annotations

import math
import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError

from ..errors import InputError, Problem, did_you_mean
from .yamlsource import MarkedDict, key_path, locate


class Strict(BaseModel):
    """Base of every definition model: unknown keys are errors."""
    # nan/inf (YAML's .nan, .inf) are never meaningful in a definition and break drawing
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, allow_inf_nan=False)


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


Length = Annotated[float, BeforeValidator(parse_length)]

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


Colour = Annotated[str | None, BeforeValidator(parse_colour)]


# -- validation --------------------------------------------------------------
def _known_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """Field names (and aliases) of the model reached by following loc (best effort)."""
    current: Any = model
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel):
            fields = current.model_fields
            field = fields.get(part) or next((f for f in fields.values() if f.alias == part), None)
            if field is None:
                return []
            current = field.annotation
        else:
            # a dict or list (or Optional/Annotated around one): step into its values
            current = _element_type(current)
            if current is None:
                return []
    current = _inner_model(current)
    fields = getattr(current, "model_fields", None) or {}
    return [f.alias or name for name, f in fields.items()]


def _inner_model(annotation):
    import typing
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def _element_type(annotation):
    import typing
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


def _data_loc(loc: tuple, data: Any) -> tuple:
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
        located.append((_data_loc(err["loc"], data), err))
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


def error_message(err: dict) -> str:
    """pydantic's message for one error, said the way a definition's author reads it:
    no 'Value error,' prefix or class names, lower case, and what was given instead."""
    kind, msg, got = err["type"], err["msg"], err.get("input")
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

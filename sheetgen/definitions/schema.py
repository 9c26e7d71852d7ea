"""The JSON Schema of every definition kind, generated from the pydantic models.

pydantic's schema is reshaped so that a JSON Schema validator (an editor, check-jsonschema,
the `jsonschema` library) accepts what the loaders accept and blames a mistake on its key:

- the definition kinds are told apart by `kind` and `ruleset` (if/then), not tried one by
  one in an anyOf (whose only message is "not valid under any of the given schemas");
- tagged unions (layout elements by `type`) likewise dispatch on their tag;
- pydantic's bounds that it cannot place (`gt`, `ge`, ... beside a union) become JSON Schema
  keywords on the number they bound;
- a layout that `extends:` another may give partial elements (the keys it changes, `null`
  deleting one), so its elements are checked for their keys but not for required ones.
"""
from __future__ import annotations

import copy
import importlib
import typing
from typing import Iterator

from .models import any_case
from .registry import handlers

SCHEMA_URL = "https://json-schema.org/draft/2020-12/schema"


def models() -> list[type]:
    found = []
    for module_name in sorted(set(handlers().values())):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue          # a handler not written yet
        declared = module.HANDLER.models
        for m in _model_classes(declared() if declared is not None else None):
            if m not in found:
                found.append(m)
    return found


def _model_classes(value) -> list[type]:
    """Model classes in a Handler's models(): a model, a Union of models, a dict or tuple of them."""
    from pydantic import BaseModel
    if value is None:
        return []
    if isinstance(value, type) and issubclass(value, BaseModel):
        return [value]
    if isinstance(value, dict):
        value = tuple(value.values())
    if isinstance(value, (tuple, list)):
        return [m for v in value for m in _model_classes(v)]
    return [m for arg in typing.get_args(value) for m in _model_classes(arg)]


# what pydantic's lax mode reads as a number or a truth value when it is written as text
# (a quoted '4' in YAML): the loaders accept it, so the schema does
INT_TEXT = r"^\s*[+-]?\d+\s*$"
FLOAT_TEXT = r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$"
BOOL_TEXT = "^(" + "|".join(any_case(w) for w in ("true", "false", "yes", "no", "on", "off", "t", "f", "y", "n",
                                                   "1", "0")) + ")$"


def _generator():
    """pydantic's JSON Schema generator, told what our loaders accept besides the types."""
    from pydantic.json_schema import GenerateJsonSchema

    class DefinitionJsonSchema(GenerateJsonSchema):
        def model_schema(self, schema):
            out = super().model_schema(schema)
            cls = schema.get("cls")
            before = any(d.info.mode == "before" for d in
                         getattr(getattr(cls, "__pydantic_decorators__", None), "model_validators", {}).values())
            if before and out.get("type") == "object":
                # properties, required, additionalProperties bind mappings only, so other
                # types may pass; "type" stays so validators still blame a mapping's keys
                also = getattr(cls, "json_schema_also", None)
                if also is None:
                    out["type"] = ["object", "array", "string", "number", "boolean", "null"]
                else:
                    out["anyOf"] = [{"type": "object"}, *also]
                    types = [a.get("type") for a in also]
                    out["type"] = ["object"] + sorted({t for t in types if isinstance(t, str)}) \
                        if all(isinstance(t, str) for t in types) \
                        else ["object", "array", "string", "number", "boolean", "null"]
            return out

        def int_schema(self, schema):
            return {"anyOf": [super().int_schema(schema), {"type": "string", "pattern": INT_TEXT}]}

        def float_schema(self, schema):
            return {"anyOf": [super().float_schema(schema), {"type": "string", "pattern": FLOAT_TEXT}]}

        def bool_schema(self, schema):
            return {"anyOf": [super().bool_schema(schema), {"type": "string", "pattern": BOOL_TEXT}]}

    return DefinitionJsonSchema


def definition_schema() -> dict:
    from pydantic.json_schema import models_json_schema
    ms = models()
    refs, schema = models_json_schema([(m, "validation") for m in ms], ref_template="#/$defs/{model}",
                                      schema_generator=_generator())
    defs = schema.get("$defs", {})
    _place_bounds(defs)
    _dispatch_tagged_unions(defs)
    roots = [refs[(m, "validation")]["$ref"].rsplit("/", 1)[-1] for m in ms]
    for name in roots:
        if "extends" in defs[name].get("properties", {}):
            _allow_partial_when_extending(defs, name)
    return {
        "$schema": SCHEMA_URL,
        "title": "sheetgen definition",
        "description": "Any sheetgen YAML file: layouts, decks, packs, maps, tables and play logs.",
        **_dispatch_on_kind(defs, roots),
        "$defs": defs,
    }


# -- bounds ----------------------------------------------------------------------------------

_BOUNDS = {"gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum", "le": "maximum"}


def _dicts(node) -> Iterator[dict]:
    """Every mapping in a JSON tree, each before its children (which may change meanwhile)."""
    if isinstance(node, list):
        for item in node:
            yield from _dicts(item)
    elif isinstance(node, dict):
        yield node
        for value in list(node.values()):
            yield from _dicts(value)


def _place_bounds(tree) -> None:
    """pydantic leaves `gt: 0` (not JSON Schema) where a bound sits beside a union
    (`Length | None`): put it on the numbers it bounds, in JSON Schema's words."""
    for node in _dicts(tree):
        bounds = {_BOUNDS[k]: node.pop(k) for k in list(node) if k in _BOUNDS}
        for target in _numbers(node) if bounds else ():
            target.update(bounds)


def _numbers(node: dict) -> list[dict]:
    if node.get("type") in ("number", "integer"):
        return [node]
    return [n for key in ("anyOf", "oneOf") for member in node.get(key, ()) for n in _numbers(member)]


# -- tagged unions -----------------------------------------------------------------------------


def _tag_of(defs: dict, member: dict) -> tuple[str, str, bool] | None:
    """(property, value, required) of a union member whose property is a constant."""
    name = member.get("$ref", "").rsplit("/", 1)[-1]
    d = defs.get(name)
    if d is None:
        return None
    for prop, spec in d.get("properties", {}).items():
        value = spec.get("const", (spec.get("enum") or [None, None])[0] if len(spec.get("enum") or ()) == 1 else None)
        if isinstance(value, str):
            return prop, value, prop in d.get("required", ())
    return None


def _tagged(defs: dict, members: list) -> tuple[str, list[tuple[str, bool, dict]]] | None:
    """A union whose every member has one constant property: (property, [(tag, required, member)])."""
    tags = [_tag_of(defs, m) for m in members]
    if not members or any(t is None for t in tags) or len({t[0] for t in tags}) != 1 \
            or len({t[1] for t in tags}) != len(tags):
        return None
    return tags[0][0], [(value, required, m) for (_, value, required), m in zip(tags, members)]


def _dispatch(prop: str, cases: list[tuple[str, bool, dict]]) -> dict:
    """if/then on the tag: an unknown tag is blamed on the tag, a wrong key on the key."""
    rules = []
    for value, required, member in cases:
        condition = {"properties": {prop: {"const": value}}, "required": [prop]}
        if not required:        # the member the tag defaults to (a bare `use:` element)
            condition = {"anyOf": [condition, {"not": {"required": [prop]}}]}
        rules.append({"if": condition, "then": member})
    return {"type": "object", "properties": {prop: {"enum": [v for v, _, _ in cases]}}, "allOf": rules}


def _dispatch_tagged_unions(defs: dict) -> None:
    for node in _dicts(defs):
        for key in ("oneOf", "anyOf"):
            members = node.get(key)
            tagged = _tagged(defs, members) if isinstance(members, list) and len(members) > 1 else None
            if tagged:
                del node[key]
                node.pop("discriminator", None)
                node.update(_dispatch(*tagged))


# -- extends: partial definitions ---------------------------------------------------------------


def _allow_partial_when_extending(defs: dict, root: str) -> None:
    """A definition with `extends:` is merged onto its parent before it is checked, so
    it may leave out required keys and write `null` to delete one: check it against
    partial copies of the models (same keys, nothing required, null allowed)."""
    partial: dict[str, str] = {}

    def partial_name(name: str) -> str:
        if name not in partial:
            partial[name] = f"Partial{name}"
            defs[partial[name]] = loosen(copy.deepcopy(defs[name]), top=True)
        return partial[name]

    def loosen(node, top=False):
        if isinstance(node, list):
            return [loosen(n) for n in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for k, v in node.items():
            if k == "$ref" and v.startswith("#/$defs/"):
                out[k] = "#/$defs/" + partial_name(v.rsplit("/", 1)[-1])
            elif k == "required" and isinstance(v, list):
                # a tag (type: grid) stays required where it selects the model
                kept = [r for r in v if r in ("sheetgen", "kind")] if top else []
                if kept:
                    out[k] = kept
            elif k == "if":
                out[k] = v          # the tag test keeps its required tag
            elif k == "properties" and isinstance(v, dict):
                out[k] = {p: {"anyOf": [loosen(s), {"type": "null"}]} for p, s in v.items()}
            elif k == "additionalProperties" and isinstance(v, dict):
                out[k] = {"anyOf": [loosen(v), {"type": "null"}]}     # null deletes an inherited entry
            else:
                out[k] = loosen(v)
        return out

    strict = defs[root]
    loose = partial_name(root)
    # in an element that only changes an inherited one, the type may be left out
    for name in list(defs):
        if name.startswith("Partial"):
            _untyped_overrides(defs[name], defs)
    defs[root] = {"if": {"required": ["extends"]}, "then": {"$ref": f"#/$defs/{loose}"},
                  "else": strict}


def _untyped_overrides(tree, defs: dict) -> None:
    """In a partial tagged union, a member without its tag changes an inherited
    element: accept it when its keys belong to some member."""
    for node in _dicts(tree):
        rules = node.get("allOf")
        if not (isinstance(rules, list) and rules and all(isinstance(r, dict) and "if" in r for r in rules)
                and isinstance(node.get("properties"), dict) and len(node["properties"]) == 1):
            continue
        (prop,) = node["properties"]
        keys: set[str] = set()
        for r in rules:
            target = defs.get(r["then"].get("$ref", "").rsplit("/", 1)[-1], {})
            keys.update(target.get("properties", {}))
        for r in rules:
            cond = r["if"]
            if "anyOf" in cond:         # the default member: only when it is really named
                r["if"] = cond["anyOf"][0]
        rules.append({"if": {"not": {"required": [prop]}},
                      "then": {"propertyNames": {"type": "string", "enum": sorted(keys)}}})


# -- the definition kinds --------------------------------------------------------------------------


def _const(spec: dict) -> list:
    if "const" in spec:
        return [spec["const"]]
    return list(spec.get("enum", []))


def _root_props(defs: dict, name: str) -> dict:
    d = defs[name]
    if "properties" not in d and "else" in d:         # an extends if/then/else
        d = d["else"]
    return d.get("properties", {})


def _dispatch_on_kind(defs: dict, roots: list[str]) -> dict:
    """The top of the schema: `kind` (and `ruleset`) choose the model, so a wrong key is
    reported against the right kind of file."""
    kinds: list[str] = []
    rulesets: list[str] = []
    rules = []
    shared: dict[tuple, list[str]] = {}  # (kinds, rulesets) -> the models of that kind and game
    by_kind: dict[str, list] = {}       # kind -> its rulesets (None: a core kind)
    for name in roots:
        props = _root_props(defs, name)
        kind_values = _const(props.get("kind", {}))
        ruleset_values = _const(props.get("ruleset", {}))
        kinds += [k for k in kind_values if k not in kinds]
        rulesets += [r for r in ruleset_values if r not in rulesets]
        condition: dict = {"properties": {"kind": {"enum": kind_values}}, "required": ["kind"]}
        if ruleset_values:
            condition["properties"]["ruleset"] = {"enum": ruleset_values}
            condition["required"] = ["kind", "ruleset"]
        else:
            condition["not"] = {"required": ["ruleset"]}
        key = (tuple(kind_values), tuple(ruleset_values))
        if key in shared:
            shared[key].append(name)
            continue
        shared[key] = [name]
        rules.append({"if": condition, "then": {"$ref": f"#/$defs/{name}"}})
        for k in kind_values:
            by_kind.setdefault(k, []).extend(ruleset_values or [None])
    # several models of one kind and game (a one- and a two-player log): the one whose own
    # required key is present
    for rule in rules:
        cond = rule["if"]
        key = (tuple(cond["properties"]["kind"]["enum"]), tuple(cond["properties"].get("ruleset", {}).get("enum", ())))
        if len(shared.get(key, [])) > 1:
            rule["then"] = _by_own_key(defs, shared[key])
    # a kind and ruleset that go together (e.g. kind: map needs the ruleset of a game with maps)
    for kind, allowed in by_kind.items():
        games = [r for r in allowed if r is not None]
        if not games:
            then: dict = {"not": {"required": ["ruleset"]}}
        else:
            then = {"properties": {"ruleset": {"enum": games}}}
            if None not in allowed:
                then["required"] = ["ruleset"]
        rules.append({"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]}, "then": then})
    return {
        "type": "object",
        "required": ["sheetgen", "kind"],
        "properties": {
            "sheetgen": {"const": 1, "description": "the format version"},
            "kind": {"enum": kinds, "description": "what the file defines"},
            "ruleset": {"enum": rulesets, "description": "the game of a game file"},
        },
        "allOf": rules,
    }


def _by_own_key(defs: dict, names: list[str]) -> dict:
    """One model of several with the same kind and game, chosen by a required key only it
    declares (the first model without one is the default)."""
    default = None
    choices = []
    for name in names:
        others = {p for other in names if other != name for p in _root_props(defs, other)}
        own = [p for p in defs[name].get("required", []) if p not in others]
        if own:
            choices.append((own[0], name))
        elif default is None:
            default = name
        else:
            raise ValueError(f"models {default} and {name} share a kind and game and no required key tells them apart")
    if default is None:     # every model has its own key: the first listed is the default
        default = choices.pop(0)[1]
    node: dict = {"$ref": f"#/$defs/{default}"}
    for key, name in reversed(choices):
        node = {"if": {"required": [key]}, "then": {"$ref": f"#/$defs/{name}"}, "else": node}
    return node

"""The JSON Schema of every definition kind, generated from the pydantic models."""
from __future__ import annotations

import importlib

from pydantic.json_schema import models_json_schema

from .registry import HANDLERS


def models() -> list[type]:
    found = []
    for module_name in sorted(set(HANDLERS.values())):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue          # a handler not written yet
        model = getattr(module, "MODEL", None)
        extra = getattr(module, "MODELS", ())
        for m in ((model,) if model is not None else ()) + tuple(extra):
            if m not in found:
                found.append(m)
    return found


def definition_schema() -> dict:
    ms = models()
    refs, schema = models_json_schema([(m, "validation") for m in ms], ref_template="#/$defs/{model}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sheetgen definition",
        "description": "Any sheetgen YAML file: layouts, decks, packs, maps, tables and play logs.",
        "anyOf": [refs[(m, "validation")] for m in ms],
        "$defs": schema.get("$defs", {}),
    }

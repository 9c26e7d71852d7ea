"""The JSON Schema of every definition kind, generated from the pydantic models."""
from __future__ import annotations

import importlib
import typing

from pydantic import BaseModel

from pydantic.json_schema import models_json_schema

from .registry import handlers


def models() -> list[type]:
    found = []
    for module_name in sorted(set(handlers().values())):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue          # a handler not written yet
        for m in _model_classes(getattr(module, "MODEL", None)) + _model_classes(getattr(module, "MODELS", None)):
            if m not in found:
                found.append(m)
    return found


def _model_classes(value) -> list[type]:
    """Model classes in MODEL/MODELS: a model, a Union of models, a dict or tuple of them."""
    if value is None:
        return []
    if isinstance(value, type) and issubclass(value, BaseModel):
        return [value]
    if isinstance(value, dict):
        value = tuple(value.values())
    if isinstance(value, (tuple, list)):
        return [m for v in value for m in _model_classes(v)]
    return [m for arg in typing.get_args(value) for m in _model_classes(arg)]


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

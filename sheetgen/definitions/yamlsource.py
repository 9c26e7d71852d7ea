"""Safe YAML loading that remembers where every key and value came from.

Mappings load as MarkedDict and sequences as MarkedList; both carry the
1-based (line, column) of themselves, their keys and their values, so any
later error (pydantic's or a linter's) can name FILE:LINE:COLUMN.
Duplicate keys are errors.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..errors import InputError, Problem

Mark = tuple[int, int]


class MarkedDict(dict):
    __slots__ = ("mark", "key_marks", "value_marks")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mark: Mark | None = None
        self.key_marks: dict[Any, Mark] = {}
        self.value_marks: dict[Any, Mark] = {}


class MarkedList(list):
    __slots__ = ("mark", "item_marks")

    def __init__(self, *args):
        super().__init__(*args)
        self.mark: Mark | None = None
        self.item_marks: list[Mark] = []


def _mark(node) -> Mark:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> MarkedDict:
    loader.flatten_mapping(node)
    result = MarkedDict()
    result.mark = _mark(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise _LoadProblem("a mapping key must be a plain value", _mark(key_node)) from None
        if key in result:
            first = result.key_marks[key]
            raise _LoadProblem(f"duplicate key '{key}' (first given at line {first[0]})", _mark(key_node))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_marks[key] = _mark(key_node)
        result.value_marks[key] = _mark(value_node)
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> MarkedList:
    result = MarkedList(loader.construct_object(child, deep=True) for child in node.value)
    result.mark = _mark(node)
    result.item_marks = [_mark(child) for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


class _LoadProblem(Exception):
    def __init__(self, message: str, mark: Mark):
        super().__init__(message)
        self.message = message
        self.mark = mark


def parse_yaml(text: str, filename: str = "<string>") -> Any:
    """Parse YAML text safely into MarkedDict/MarkedList; raise InputError with a location."""
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader derives from SafeLoader
    except _LoadProblem as exc:
        raise InputError(Problem(exc.message, filename, exc.mark[0], exc.mark[1])) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or str(exc)
        if exc.context and exc.problem:
            message = f"{exc.problem} ({exc.context})"
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        raise InputError(Problem(f"malformed YAML: {message}", filename, line, col)) from None
    except yaml.YAMLError as exc:
        raise InputError(Problem(f"malformed YAML: {exc}", filename)) from None


def read_yaml(path: str | Path) -> Any:
    """Read and parse a YAML file; a missing or unreadable file is an InputError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(Problem("no such file", str(path))) from None
    except IsADirectoryError:
        raise InputError(Problem("is a folder, not a definition file", str(path))) from None
    except UnicodeDecodeError as exc:
        raise InputError(Problem(f"not UTF-8 text ({exc.reason} at byte {exc.start})", str(path))) from None
    except OSError as exc:
        raise InputError(Problem(f"cannot read: {exc.strerror}", str(path))) from None
    return parse_yaml(text, str(path))


def locate(data: Any, loc: tuple, key_itself: bool = False) -> Mark | None:
    """The (line, column) of the value at loc (a pydantic-style path) in marked data.

    With key_itself, the mark of the last key (useful for 'unknown key').
    Falls back to the nearest enclosing mark that is known.
    """
    best: Mark | None = getattr(data, "mark", None)
    node = data
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(node, MarkedDict):
            key = part
            if key not in node:
                # pydantic turns int keys into str in locs; try both ways
                alt = _alt_key(node, key)
                if alt is None:
                    return best
                key = alt
            if last and key_itself:
                return node.key_marks.get(key, best)
            best = node.value_marks.get(key, best)
            node = node[key]
        elif isinstance(node, MarkedList) and isinstance(part, int):
            if not 0 <= part < len(node):
                return best
            best = node.item_marks[part]
            node = node[part]
        else:
            return best
    inner = getattr(node, "mark", None)
    return best if best is not None else inner


def _alt_key(node: dict, key):
    for k in node:
        if str(k) == str(key):
            return k
    return None


def key_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out

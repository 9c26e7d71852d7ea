"""Safe YAML loading that remembers where every key and value came from.

Mappings load as MarkedDict and sequences as MarkedList; both carry the
1-based (line, column) of themselves, their keys and their values, so any
later error (pydantic's or a linter's) can name FILE:LINE:COLUMN.
Duplicate keys are errors, and so are nesting deeper than MAX_DEPTH (which
would exhaust Python's stack further on) and text holding characters no
output format can carry (NUL and other control characters, lone surrogates).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import InputError, Problem

Mark = tuple[int, int]

MAX_DEPTH = 100          # mappings/lists inside each other; real definitions use under 10
MAX_VALUES = 200_000     # values after expanding aliases (a 'billion laughs' file stops here)
# control characters other than tab/newline/carriage return, and lone surrogates:
# YAML escapes ("\0", "\ud800") can produce them, but XML (SVG) and PDF cannot hold them
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


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


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> str:
    value = loader.construct_scalar(node)
    bad = _UNPRINTABLE.search(value)
    if bad:
        raise _LoadProblem(f"text holds the unprintable character U+{ord(bad.group()):04X} "
                           f"(at character {bad.start() + 1} of the text)", _mark(node))
    return value


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:str", _construct_str)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


class _LoadProblem(Exception):
    def __init__(self, message: str, mark: Mark):
        super().__init__(message)
        self.message = message
        self.mark = mark


def _too_deep(text: str) -> Mark | None:
    """Where the text first nests deeper than MAX_DEPTH (the event parser is not recursive)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    return _mark(event)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return None
    return None


def _check_size(data: Any, filename: str) -> None:
    """Reject nesting deeper than MAX_DEPTH (a recursive alias nests forever) and more
    than MAX_VALUES values once aliases are expanded, as every later step walks them all."""
    stack = [(data, 1, None)]
    count = 0
    while stack:
        node, depth, where = stack.pop()
        where = getattr(node, "mark", None) or where
        count += 1
        if count > MAX_VALUES:
            raise InputError(Problem(f"too large: more than {MAX_VALUES:,} values once anchors and aliases "
                                     "are expanded", filename, *(where or (None, None))))
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                raise _too_deep_error(where, filename)
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1, where) for child in children)


def _too_deep_error(mark: Mark | None, filename: str) -> InputError:
    return InputError(Problem(f"nested too deeply (more than {MAX_DEPTH} levels of mappings and lists)",
                              filename, *(mark or (None, None))))


def parse_yaml(text: str, filename: str = "<string>") -> Any:
    """Parse YAML text safely into MarkedDict/MarkedList; raise InputError with a location."""
    try:
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader derives from SafeLoader
    except RecursionError:
        raise _too_deep_error(_too_deep(text), filename) from None
    except yaml.reader.ReaderError as exc:
        # not a MarkedYAMLError: it knows only the character position
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise InputError(Problem(f"malformed YAML: the character U+{exc.character:04X} is not allowed"
                                 if isinstance(exc.character, int) else f"malformed YAML: {exc.reason}",
                                 filename, line, col)) from None
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
    _check_size(data, filename)
    return data


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
                if alt is _MISSING:
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


_MISSING = object()


def _alt_key(node: dict, key):
    for k in node:
        if str(k) == str(key):
            return k
    return _MISSING


def key_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out

"""Safe YAML loading that remembers where every key and value came from.

Mappings load as MarkedDict and sequences as MarkedList; both carry the
1-based (line, column) of themselves, their keys and their values, so any
later error (pydantic's or a linter's) can name FILE:LINE:COLUMN.

Every input is bounded before and while it is parsed (sheetgen.limits): a file
must be a regular file (a device, FIFO or socket is refused by name, never
opened for reading) of at most MAX_FILE_BYTES; YAML typed on the command line
has its own byte limit; nesting deeper than MAX_DEPTH (which would exhaust
Python's stack further on), more than MAX_NODES values written, and more than
MAX_VALUES values or MAX_TEXT_EXPANDED characters once anchors and aliases are
expanded (a 'billion laughs' file) are refused, each before the data is built.  Duplicate keys are errors, and so is text holding characters no
output format can carry (NUL and other control characters, lone surrogates).
Merge keys (`<<: *base`, `<<: [*a, *b]`) work: the mapping's own keys override
merged ones; the same key given twice in the mapping, or by two merged
mappings, is still a duplicate.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from ..errors import InputError, Problem
from ..limits import (MAX_ARGUMENT_BYTES, MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_TEXT_CHARS, MAX_TEXT_EXPANDED,
                      MAX_VALUES,
                      check_name, kib, shown)

Mark = tuple[int, int]
_MERGE_TAG = "tag:yaml.org,2002:merge"
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
    result = MarkedDict()
    result.mark = _mark(node)
    own = []
    merged: set = set()                     # keys a merge gave (the mapping's own keys override them)
    merge_mark: Mark | None = None
    for key_node, value_node in node.value:
        if key_node.tag != _MERGE_TAG:
            own.append((key_node, value_node))
            continue
        if merge_mark is not None:
            raise _LoadProblem(f"duplicate key '<<' (first given at line {merge_mark[0]})", _mark(key_node))
        merge_mark = _mark(key_node)
        sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                raise _LoadProblem("a merge key '<<' takes a mapping (an alias like *base) or a list of them",
                                   _mark(source))
            base = loader.construct_object(source, deep=True)
            for key, value in base.items():
                if key in result:
                    raise _LoadProblem(f"duplicate key '{key}' (two merged mappings give it; first at "
                                       f"line {result.key_marks[key][0]})", merge_mark)
                result[key] = value
                result.key_marks[key] = base.key_marks.get(key, _mark(source))
                result.value_marks[key] = base.value_marks.get(key, _mark(source))
                merged.add(key)
    for key_node, value_node in own:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise _LoadProblem("a mapping key must be a plain value", _mark(key_node)) from None
        if key in result and key not in merged:
            first = result.key_marks[key]
            raise _LoadProblem(f"duplicate key '{key}' (first given at line {first[0]})", _mark(key_node))
        merged.discard(key)
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

# libyaml's parser (when PyYAML has it) reads about five times faster than PyYAML's own and
# gives the same nodes and marks; the constructors above, in Python, build the same data.
# Its error messages are worded differently, so an error is re-read by PyYAML for its words.
_CLoader = None
if getattr(yaml, "__with_libyaml__", False):
    class _CLoader(yaml.CSafeLoader):         # type: ignore[no-redef]
        pass
    _CLoader.yaml_constructors = dict(_Loader.yaml_constructors)
REWORD_LIMIT = 64 * 1024        # PyYAML re-reads at most this much text to word an error


class _LoadProblem(Exception):
    def __init__(self, message: str, mark: Mark):
        super().__init__(message)
        self.message = message
        self.mark = mark


def _too_deep(text: str, loader=yaml.SafeLoader) -> Mark | None:
    """Where the text first nests deeper than MAX_DEPTH (the event parser is not recursive)."""
    problem = _past_limits(text, loader, nodes=False)
    return problem[1] if problem else None


def _past_limits(text: str, loader, nodes: bool = True) -> tuple[str, Mark] | None:
    """('depth' or 'nodes', where) for the first place text nests deeper than MAX_DEPTH
    or (with nodes) writes more than MAX_NODES values, read by the (flat) event parser."""
    depth = count = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            kind = type(event)
            if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                depth += 1
                if depth > MAX_DEPTH:
                    return "depth", _mark(event)
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                depth -= 1
                continue
            elif kind is not yaml.ScalarEvent and kind is not yaml.AliasEvent:
                continue
            count += 1
            if nodes and count > MAX_NODES:
                return "nodes", _mark(event)
    except yaml.YAMLError as exc:
        if not _nesting_refused(exc):
            return None
        # libyaml (0.2.6 on, bundled from PyYAML 6.0.2) refuses 1000 levels itself, in its
        # own words and often before we have seen 100 (its scanner reads ahead): the same
        # depth error as ours, at the place PyYAML's own (limitless) parser finds level 101
        where = None if loader is yaml.SafeLoader else _too_deep(text)
        mark = exc.problem_mark or exc.context_mark
        return "depth", where or (_mark_of(mark) if mark else None)
    return None


def _nesting_refused(exc: yaml.YAMLError) -> bool:
    """Whether the parser stopped at its own nesting limit (libyaml: 'exceeded maximum
    nesting depth', from its scanner or its parser)."""
    return isinstance(exc, yaml.MarkedYAMLError) and "nesting depth" in (exc.problem or "")


def _mark_of(mark) -> Mark:
    return (mark.line + 1, mark.column + 1)


def _load(text: str, filename: str) -> Any:
    """The data of text (libyaml's parser where there is one); errors as PyYAML words them."""
    # libyaml's composer recurses in C, past any Python limit: measure the depth first,
    # and count the values (building each costs far more than reading it)
    past = _past_limits(text, yaml.SafeLoader if _CLoader is None else yaml.CSafeLoader)
    if past is not None:
        raise (_too_deep_error if past[0] == "depth" else _too_many_error)(past[1], filename)
    if _CLoader is None:
        try:
            return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader derives from SafeLoader
        except RecursionError:
            raise _too_deep_error(_too_deep(text), filename) from None
    try:
        return yaml.load(text, Loader=_CLoader)  # noqa: S506 - _CLoader derives from CSafeLoader
    except yaml.YAMLError as exc:
        error = exc
    # PyYAML's words for the same error: it reads up to the line after the error (so
    # rewording costs no more than reaching the error), or all of a short text
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    upto = len(text) if mark is None else _end_of_line(text, mark.line + 1)
    # (PyYAML checks every character before it parses: a ReaderError comes at once)
    if upto > REWORD_LIMIT and len(text) > REWORD_LIMIT and not isinstance(error, yaml.reader.ReaderError):
        raise error
    try:
        data = yaml.load(text[:upto] if upto < len(text) else text, Loader=_Loader)  # noqa: S506
    except yaml.YAMLError as reworded:
        again = getattr(reworded, "problem_mark", None) or getattr(reworded, "context_mark", None)
        if mark is None or (again is not None and (again.line, again.column) == (mark.line, mark.column)):
            raise reworded from None
        data = None
    except RecursionError:
        raise error from None
    if upto >= len(text) and data is not None:
        return data                 # PyYAML reads what libyaml would not: keep PyYAML's reading
    if len(text) <= REWORD_LIMIT:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - PyYAML's verdict on the whole text
    raise error


def _end_of_line(text: str, line: int) -> int:
    """The index just past 0-based line `line` of text (the whole text if it is shorter)."""
    at = -1
    for _ in range(line + 1):
        at = text.find("\n", at + 1)
        if at < 0:
            return len(text)
    return at + 1


def _check_size(data: Any, filename: str) -> None:
    """Reject nesting deeper than MAX_DEPTH (a recursive alias nests forever), more
    than MAX_VALUES values or MAX_TEXT_EXPANDED characters of text once aliases are
    expanded, as every later step walks them all, and any one text (a value or a key)
    longer than MAX_TEXT_CHARS, whatever field it is (a title, a name, a note)."""
    stack: list[tuple[Any, int, Any, tuple]] = [(data, 1, None, ())]
    count = chars = 0
    while stack:
        node, depth, where, loc = stack.pop()
        where = getattr(node, "mark", None) or where
        count += 1
        if count > MAX_VALUES:
            raise InputError(Problem(f"too large: more than {MAX_VALUES:,} values once anchors and aliases "
                                     "are expanded", filename, *(where or (None, None))))
        if isinstance(node, str):
            chars += len(node)
            if len(node) > MAX_TEXT_CHARS:
                raise _text_too_long(len(node), data, loc, filename)
        elif isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                raise _too_deep_error(where, filename)
            if isinstance(node, dict):
                for key in node:
                    if isinstance(key, str):
                        chars += len(key)
                        if len(key) > MAX_TEXT_CHARS:
                            raise _text_too_long(len(key), data, loc + (key,), filename, key_itself=True)
                children: Any = ((v, loc + (k,)) for k, v in node.items())
            else:
                children = ((v, loc + (i,)) for i, v in enumerate(node))
            stack.extend((child, depth + 1, where, at) for child, at in children)
        if chars > MAX_TEXT_EXPANDED:
            raise InputError(Problem(f"too large: more than {MAX_TEXT_EXPANDED:,} characters of text once "
                                     "anchors and aliases are expanded", filename, *(where or (None, None))))


def _text_too_long(n: int, data: Any, loc: tuple, filename: str, key_itself: bool = False) -> InputError:
    # the path names the field; a key too long is shown cut short, never whole
    path = key_path(loc[:-1] + (shown(str(loc[-1]), 40),) if key_itself else loc)
    return InputError(Problem(f"{n:,} characters; a text holds at most {MAX_TEXT_CHARS:,} (more than a full "
                              "page of small print)", filename, *(locate(data, loc, key_itself) or (None, None)),
                              path=path or None))


def _too_many_error(mark: Mark | None, filename: str) -> InputError:
    return InputError(Problem(f"too large: more than {MAX_NODES:,} values written in the file (the largest "
                              "play logs sheetgen writes hold about 10,000)", filename, *(mark or (None, None))))


def _too_deep_error(mark: Mark | None, filename: str) -> InputError:
    return InputError(Problem(f"nested too deeply (more than {MAX_DEPTH} levels of mappings and lists)",
                              filename, *(mark or (None, None))))


def parse_yaml(text: str, filename: str = "<string>", max_bytes: int | None = None) -> Any:
    """Parse YAML text safely into MarkedDict/MarkedList; raise InputError with a location.

    max_bytes bounds text given directly (command-line YAML: MAX_ARGUMENT_BYTES);
    read_yaml bounds a file before reading it."""
    if max_bytes is not None:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise InputError(Problem(f"too large: {size:,} bytes of YAML; at most {kib(max_bytes)} "
                                     f"({max_bytes:,} bytes) are read", filename))
    try:
        data = _load(text, filename)
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


_NOT_FILES = ((stat.S_ISDIR, "is a folder, not a definition file"),
              (stat.S_ISCHR, "is a character device, not a file (devices are never read)"),
              (stat.S_ISBLK, "is a block device, not a file (devices are never read)"),
              (stat.S_ISFIFO, "is a FIFO (a named pipe), not a file (pipes are never read)"),
              (stat.S_ISSOCK, "is a socket, not a file"))


def _not_a_file(mode: int) -> str | None:
    for test, message in _NOT_FILES:
        if test(mode):
            return message
    return None if stat.S_ISREG(mode) else "is not a regular file"


def read_bounded(path: str | Path, limit: int = MAX_FILE_BYTES, what: str = "a definition file") -> bytes:
    """The bytes of a regular file of at most limit bytes, or InputError (exit 2):
    a name no file can have, a missing file, a folder, a device, a FIFO, a socket
    or a file over the limit is refused without reading it."""
    path = check_name(path)
    name = shown(str(path))
    try:
        mode = os.stat(path).st_mode        # before opening: opening a device can block or act
        why = _not_a_file(mode)
        if why:
            raise InputError(Problem(why, name))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(Problem("no such file", name)) from None
    except OSError as exc:
        raise InputError(Problem(f"cannot read: {exc.strerror or exc}", name)) from None
    try:
        st = os.fstat(fd)                   # what was opened (it may have been swapped since)
        why = _not_a_file(st.st_mode)
        if why:
            raise InputError(Problem(why, name))
        if st.st_size > limit:
            raise _too_large(st.st_size, limit, what, name)
        chunks, size = [], 0
        while size <= limit:                # a file that grows (or lies about its size) stops here
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise _too_large(size, limit, what, name, more=True)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(Problem(f"cannot read: {exc.strerror or exc}", name)) from None
    finally:
        os.close(fd)


def _too_large(size: int, limit: int, what: str, name: str, more: bool = False) -> InputError:
    return InputError(Problem(f"too large: {'more than ' if more else ''}{size:,} bytes; {what} holds at most "
                              f"{kib(limit)} ({limit:,} bytes)", name))


def read_yaml(path: str | Path) -> Any:
    """Read and parse a YAML file; a missing, unreadable, non-regular or too large file is an InputError."""
    path = Path(path)
    raw = read_bounded(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(Problem(f"not UTF-8 text ({exc.reason} at byte {exc.start})", str(path))) from None
    # as text mode reads it: every line break becomes "\n"
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return parse_yaml(text, str(path))


def parse_argument(text: str, what: str) -> Any:
    """YAML typed on the command line (a `track step` argument), bounded like a file,
    as plain dicts and lists (no marks: nothing locates into a command line)."""
    return plain(parse_yaml(text, what, max_bytes=MAX_ARGUMENT_BYTES))


def plain(data: Any) -> Any:
    """MarkedDict/MarkedList (and what they hold) as plain dicts and lists."""
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data


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

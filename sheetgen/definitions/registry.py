"""Which module handles which kind of definition file.

Every definition starts with `sheetgen: 1`, `kind: ...` and, for game files,
`ruleset: ...`.  A handler module provides some of:

    load(data: MarkedDict, source: Source) -> definition      (required; raises InputError)
    lint(definition) -> list[Finding]                          (validate: playability checks)
    compose(definition, options: BuildOptions) -> Document     (build: pages to render)
    check(definition) -> list[Violation]                       (check: replay a play log)

Handlers are imported only when a file of their kind is read, so start-up stays fast.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, Problem, did_you_mean
from .yamlsource import MarkedDict, locate, read_yaml

# (kind, ruleset or None) -> handler module
HANDLERS: dict[tuple[str, str | None], str] = {
    ("layout", None): "sheetgen.definitions.layout",
    ("deck", None): "sheetgen.definitions.layout",
    ("pack", None): "sheetgen.definitions.pack",
    ("map", "foury"): "sheetgen.games.foury.formats.map",
    ("sheet", "foury"): "sheetgen.games.foury.formats.sheet",
    ("playlog", "foury"): "sheetgen.games.foury.formats.playlog",
    ("table", "exploration"): "sheetgen.games.exploration.formats",
    ("sheet", "exploration"): "sheetgen.games.exploration.formats",
    ("playlog", "exploration"): "sheetgen.games.exploration.playlog",
    ("deck", "navigation"): "sheetgen.games.navigation.formats",
    ("dungeon", "navigation"): "sheetgen.games.navigation.formats",
    ("sheet", "navigation"): "sheetgen.games.navigation.formats",
    ("playlog", "navigation"): "sheetgen.games.navigation.playlog",
    ("deck", "shuffle"): "sheetgen.games.shuffle.formats",
    ("sheet", "shuffle"): "sheetgen.games.shuffle.formats",
    ("playlog", "shuffle"): "sheetgen.games.shuffle.playlog",
}

KINDS = sorted({k for k, _ in HANDLERS})
RULESETS = sorted({r for _, r in HANDLERS if r})


@dataclass
class Source:
    """Where a definition came from: for error locations and relative paths."""
    path: Path
    data: MarkedDict
    builtin: bool = False

    @property
    def filename(self) -> str:
        return str(self.path)

    @property
    def folder(self) -> Path:
        return self.path.parent

    def problem(self, loc: tuple, message: str, **kw) -> Problem:
        from .models import problem_at
        return problem_at(self.data, loc, message, self.filename, **kw)


@dataclass
class Finding:
    """A lint result: severity 'error' makes validate exit 1, 'warning' does not."""
    problem: Problem
    severity: str = "error"


@dataclass
class Loaded:
    kind: str
    ruleset: str | None
    definition: Any
    source: Source
    handler: Any = field(repr=False, default=None)


def read_header(data: Any, filename: str) -> tuple[str, str | None]:
    if not isinstance(data, MarkedDict):
        raise InputError(Problem("expected a mapping with 'sheetgen: 1' and 'kind:' at the top", filename, 1, 1))
    version = data.get("sheetgen")
    if type(version) is not int or version != 1:      # true and 1.0 equal 1 but are not the version
        mark = locate(data, ("sheetgen",)) if "sheetgen" in data else data.mark
        raise InputError(Problem("this file needs 'sheetgen: 1' (the format version)" if version is None
                                 else f"unsupported format version {version!r}", filename,
                                 *(mark or (1, 1)), path="sheetgen", expected="1"))
    kind = data.get("kind")
    if kind is None:
        raise InputError(Problem("missing required key 'kind'", filename, *(data.mark or (1, 1)),
                                 expected="one of " + ", ".join(KINDS)))
    ruleset = data.get("ruleset")
    for key, value in (("kind", kind), ("ruleset", ruleset)):
        if value is not None and not isinstance(value, str):
            raise InputError(Problem(f"must be a name, not {_describe(value)}", filename,
                                     *(locate(data, (key,)) or (1, 1)), path=key,
                                     expected="one of " + ", ".join(KINDS if key == "kind" else RULESETS)))
    if (kind, ruleset) not in HANDLERS:
        if kind not in KINDS:
            mark = locate(data, ("kind",))
            raise InputError(Problem(f"unknown kind '{kind}'", filename, *(mark or (1, 1)), path="kind",
                                     expected="one of " + ", ".join(KINDS), suggestion=did_you_mean(kind, KINDS)))
        options = sorted(r for k, r in HANDLERS if k == kind and r)
        mark = locate(data, ("ruleset",)) if "ruleset" in data else locate(data, ("kind",))
        raise InputError(Problem(f"kind '{kind}' needs a ruleset" if ruleset is None
                                 else f"unknown ruleset '{ruleset}' for kind '{kind}'", filename,
                                 *(mark or (1, 1)), path="ruleset",
                                 expected="one of " + ", ".join(options) if options else None,
                                 suggestion=did_you_mean(ruleset, options) if ruleset else None))
    return kind, ruleset


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def handler_for(kind: str, ruleset: str | None):
    return importlib.import_module(HANDLERS[(kind, ruleset)])


def load_file(path: str | Path, builtin: bool = False) -> Loaded:
    """Read, check the header, and load a definition through its handler."""
    path = Path(path)
    data = read_yaml(path)
    kind, ruleset = read_header(data, str(path))
    handler = handler_for(kind, ruleset)
    source = Source(path=path, data=data, builtin=builtin)
    definition = handler.load(data, source)
    return Loaded(kind, ruleset, definition, source, handler)


def resolve(name_or_path: str | Path) -> tuple[Path, bool]:
    """A path to a file, or a built-in definition's name -> (path, is_builtin)."""
    from .builtins import find_builtin
    p = Path(name_or_path)
    if p.suffix in {".yaml", ".yml"} or p.exists() or "/" in str(name_or_path):
        if not p.exists():
            raise InputError(Problem("no such file", str(p)))
        return p, False
    return find_builtin(str(name_or_path)), True


def load(name_or_path: str | Path) -> Loaded:
    path, builtin = resolve(name_or_path)
    return load_file(path, builtin=builtin)


def inline_source(source, key: str, kind: str, ruleset: str):
    """A Source for a definition written inline under key (its marks stay those of the file)."""
    node = source.data[key]
    data = MarkedDict({"sheetgen": 1, "kind": kind, "ruleset": ruleset})
    data.update(node)
    data.mark = node.mark
    data.key_marks = dict(node.key_marks)
    data.value_marks = dict(node.value_marks)
    return Source(path=source.path, data=data, builtin=source.builtin)

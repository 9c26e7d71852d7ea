"""Which module handles which kind of definition file, and which games there are.

Every definition starts with `sheetgen: 1`, `kind: ...` and, for game files,
`ruleset: ...` (a game's name).  A handler module provides some of:

    load(data: MarkedDict, source: Source) -> definition      (required; raises InputError)
    lint(definition) -> list[Finding]                          (validate: playability checks)
    compose(definition, options: BuildOptions) -> Document     (build: pages to render)
    options_taken(definition) -> set[str]                      (build: the game options it reads)
    check(definition) -> Judgement                             (check: replay a play log)

The core kinds (layouts, decks, packs) are listed here; every game declares its own
in its `GAME` (sheetgen.games.base.Game), found by name through `find_game`.  Game
packages and handlers are imported only when a file of theirs is read, so start-up
stays fast.  More games: the environment variable SHEETGEN_GAMES names extra game
modules (comma-separated), each with a `GAME`; `register_game` adds one in-process.
"""
from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError, Problem, did_you_mean
from ..games import BUILTIN as BUILTIN_GAMES   # the games that ship with sheetgen (module names)

if TYPE_CHECKING:               # for annotations only: games and the YAML reader load when used
    from ..games.base import BuildOption, Game, Handler, Reading, TrackerAdapter
    from .yamlsource import MarkedDict

# the kinds of the core: (kind, None) -> handler module
CORE_HANDLERS: dict[tuple[str, str | None], str] = {
    ("layout", None): "sheetgen.definitions.layout_handler",    # (the format: sheetgen.definitions.layout)
    ("deck", None): "sheetgen.definitions.layout_handler",
    ("pack", None): "sheetgen.definitions.pack",
}

_games: dict[str, Game] = {}
_loaded = False


def register_game(game: Game) -> Game:
    """Add a game (a sheetgen.games.base.Game) to the registry; returns it."""
    games()
    _games[game.name] = game
    return game


def games() -> dict[str, Game]:
    """Every registered game by name: the built-in ones, SHEETGEN_GAMES, register_game."""
    global _loaded
    if not _loaded:
        _loaded = True
        extra = [m.strip() for m in os.environ.get("SHEETGEN_GAMES", "").split(",") if m.strip()]
        for module in BUILTIN_GAMES + tuple(extra):
            try:
                game: Game = importlib.import_module(module).GAME
            except (ImportError, AttributeError) as exc:
                raise InputError(Problem(f"cannot load the game module '{module}': {exc}",
                                         path="SHEETGEN_GAMES")) from None
            _games.setdefault(game.name, game)
    return _games


def build_options() -> dict[str, BuildOption]:
    """name -> BuildOption for every build option a game declares (the first game to declare a
    name gives its words), for the commands that take them and the scanner that rebuilds a sheet."""
    out: dict[str, BuildOption] = {}
    for game in games().values():
        for opt in game.build_options:
            out.setdefault(opt.name, opt)
    return out


def default_game() -> str:
    """The name of the game a command plays when not told (--ruleset's default): the first built-in."""
    return importlib.import_module(BUILTIN_GAMES[0]).GAME.name


def option_help(key: str) -> str:
    """What the games add to the help of a core option KEY ("track new --map"), as
    'game: words; game: words' in the registry's order."""
    return "; ".join(f"{name}: {g.option_help[key]}" for name, g in games().items() if key in g.option_help)


def find_game(name: str) -> Game:
    """The game called name (a file's `ruleset:`), or InputError with the known ones."""
    found = games().get(name)
    if found is None:
        known = sorted(games())
        raise InputError(Problem(f"no game called '{name}'", expected="one of " + ", ".join(known),
                                 suggestion=did_you_mean(name, known)))
    return found


def tracker_for(ruleset: str) -> TrackerAdapter:
    """The journal adapter (sheetgen.games.base.TrackerAdapter) of the game called ruleset;
    InputError (exit 2) for a name no game has, or a game without a tracker."""
    game = find_game(ruleset)
    if not game.tracker:
        able = sorted(name for name, g in games().items() if g.tracker)
        raise InputError(Problem(f"the {game.title} game has no tracker", path="--ruleset",
                                 expected="one of " + ", ".join(able)))
    adapter: TrackerAdapter = game.module("tracker").ADAPTER
    return adapter


def _handlers() -> dict[tuple[str, str | None], str]:
    table = dict(CORE_HANDLERS)
    for game in games().values():
        for kind, module in game.kinds.items():
            table[(kind, game.name)] = module
    return table


def handlers() -> dict[tuple[str, str | None], str]:
    """(kind, ruleset or None) -> handler module, for the core and every game."""
    return _handlers()


def kinds() -> list[str]:
    return sorted({k for k, _ in handlers()})


def rulesets() -> list[str]:
    return sorted({r for _, r in handlers() if r})


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

    def problem(self, loc: tuple, message: str, **kw: Any) -> Problem:
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
    handler: Handler = field(repr=False)

    def handler_readings(self) -> type[Reading] | None:
        """The Reading enum of the definition's game (None for a game without readings, or the core)."""
        if not self.ruleset:
            return None
        return games()[self.ruleset].reading_type() if self.ruleset in games() else None


def read_header(data: Any, filename: str) -> tuple[str, str | None]:
    from .yamlsource import MarkedDict, locate
    if not isinstance(data, MarkedDict):
        raise InputError(Problem("expected a mapping with 'sheetgen: 1' and 'kind:' at the top", filename, 1, 1))
    version = data.get("sheetgen")
    if type(version) is not int or version != 1:      # true and 1.0 equal 1 but are not the version
        mark = locate(data, ("sheetgen",)) if "sheetgen" in data else data.mark
        raise InputError(Problem("this file needs 'sheetgen: 1' (the format version)" if version is None
                                 else f"unsupported format version {version!r}", filename,
                                 *(mark or (1, 1)), path="sheetgen", expected="1"))
    HANDLERS, KINDS, RULESETS = handlers(), kinds(), rulesets()
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


def handler_for(kind: str, ruleset: str | None) -> Handler:
    """The handler of a kind (its module's HANDLER: what the core may call, declared)."""
    handler: Handler = importlib.import_module(handlers()[(kind, ruleset)]).HANDLER
    return handler


def load_file(path: str | Path, builtin: bool = False) -> Loaded:
    """Read, check the header, and load a definition through its handler.

    A reference the definition makes (a `map:`, `table:`, `deck:`, `extends:`, ...)
    that fails without saying where, because the name names no file (a built-in
    that does not exist, a name too long for any file), gets the line of this file
    that wrote it."""
    from ..limits import is_name_too_long, name_problem, shown
    from .yamlsource import read_yaml
    path = Path(path)
    data = read_yaml(path)
    kind, ruleset = read_header(data, str(path))
    handler = handler_for(kind, ruleset)
    source = Source(path=path, data=data, builtin=builtin)
    try:
        definition = handler.load(data, source)
    except InputError as exc:
        _locate_subjects(exc.problems, data, str(path))
        raise
    except OSError as exc:          # a game asked the file system about a name no file can have
        if not is_name_too_long(exc):
            raise
        name = str(exc.filename or "")
        problem = Problem(name_problem(name) or "file name too long", shown(name), subject=name)
        _locate_subjects([problem], data, str(path))
        raise InputError(problem) from None
    return Loaded(kind, ruleset, definition, source, handler)


def _locate_subjects(problems: list[Problem], data: Any, filename: str) -> None:
    """Give each problem about a name (Problem.subject) that has no line yet the
    place in data where that name is written."""
    from ..limits import shown
    from .yamlsource import key_path
    for problem in problems:
        if problem.subject is None or problem.line is not None:
            continue
        found = _find_text(data, problem.subject)
        if found is None:
            continue
        mark, loc = found
        if problem.file is not None:        # it named the file it looked for: keep that name
            problem.message = f"'{shown(problem.subject)}': {problem.message}"
        problem.file, (problem.line, problem.column) = filename, mark
        problem.path = key_path(loc) or problem.path


def _find_text(data: Any, subject: str) -> tuple[tuple[int, int], tuple] | None:
    """The mark and key path of the first string in data (breadth first) that is
    subject, or that subject ends with (a reference joined onto a folder)."""
    from collections import deque

    from .yamlsource import MarkedDict, MarkedList
    queue: deque = deque([(data, ())])
    seen = 0
    while queue and seen < 100_000:
        node, loc = queue.popleft()
        seen += 1
        if isinstance(node, MarkedDict):
            pairs = [(key, value, node.value_marks.get(key)) for key, value in node.items()]
        elif isinstance(node, MarkedList):
            pairs = [(i, value, node.item_marks[i] if i < len(node.item_marks) else None)
                     for i, value in enumerate(node)]
        else:
            continue
        for key, value, mark in pairs:
            if isinstance(value, str) and mark is not None and _names(value, subject):
                return mark, loc + (key,)
            queue.append((value, loc + (key,)))
    return None


def _names(value: str, subject: str) -> bool:
    value = value.strip()
    return bool(value) and (value == subject or subject.endswith("/" + value))


def resolve(name_or_path: str | Path) -> tuple[Path, bool]:
    """A path to a file, or a built-in definition's name -> (path, is_builtin).

    The one way in for every name a user gives (a command's argument, a file's
    `map:`/`dungeon:`/`table:`/`deck:`): a name no file can have (too long, a NUL)
    is refused here with a clean error, and every problem carries the name as
    its subject so that the file that wrote it can add its line (load_file)."""
    from ..limits import check_name
    from .builtins import find_builtin
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise InputError(Problem(f"expected a file path or a built-in name, got {_describe(name_or_path)}"))
    text = os.fspath(name_or_path)
    p = check_name(name_or_path)
    if p.suffix in {".yaml", ".yml"} or p.exists() or "/" in text:
        if not p.exists():
            raise InputError(Problem("no such file", str(p), subject=text))
        return p, False
    try:
        return find_builtin(text), True
    except InputError as exc:
        for problem in exc.problems:
            problem.subject = problem.subject or text
        raise


def load(name_or_path: str | Path) -> Loaded:
    path, builtin = resolve(name_or_path)
    return load_file(path, builtin=builtin)


def inline_source(source: Source, key: str, kind: str, ruleset: str) -> Source:
    """A Source for a definition written inline under key (its marks stay those of the file)."""
    node = source.data[key]
    from .yamlsource import MarkedDict
    data = MarkedDict({"sheetgen": 1, "kind": kind, "ruleset": ruleset})
    data.update(node)
    data.mark = node.mark
    data.key_marks = dict(node.key_marks)
    data.value_marks = dict(node.value_marks)
    return Source(path=source.path, data=data, builtin=source.builtin)

"""What every command shares: turning errors into clean messages and exit codes.

0 ok, 1 rule violations (the commands exit 1 themselves), 2 unusable input or
usage (a SheetgenError, or the system refusing a file: a name too long, no
space left, a read-only file system), 3 a bug in sheetgen (any other exception:
one line asking for a report; the traceback only with `sheetgen --debug`).
"""
from __future__ import annotations

import errno
import functools
import sys

import click

# OSErrors that say something about the user's files or system, not about sheetgen
_SYSTEM_REFUSALS = {errno.ENAMETOOLONG: None, errno.ENOSPC: "the disk is full (no space left on the device)",
                    errno.EDQUOT: "the disk is full for this user (disk quota exceeded)", errno.EROFS: "the file system is read-only",
                    errno.EACCES: "permission denied", errno.EPERM: "operation not permitted",
                    errno.ELOOP: "too many levels of symbolic links"}


def clean_errors(fn):
    """Run fn; errors become a message on stderr and their exit code (see the module)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (SystemExit, click.exceptions.Exit, click.ClickException, click.Abort, BrokenPipeError):
            raise                           # click's own ends (a closed pipe: click quiets it)
        except BaseException as exc:        # noqa: BLE001 - every error ends in a message and a code
            exit_for(exc)
    return wrapper


def exit_for(exc: BaseException):
    """Print exc the way a user should see it and exit with its code (never returns)."""
    from ..errors import EXIT_BUG, SheetgenError
    if isinstance(exc, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        sys.exit(130)
    if isinstance(exc, OSError) and exc.errno in _SYSTEM_REFUSALS:
        exc = _as_input_error(exc)
    if isinstance(exc, SheetgenError):
        for problem in exc.problems:
            click.echo(f"error: {problem.format()}", err=True)
        sys.exit(exc.exit_code)
    if isinstance(exc, MemoryError):
        click.echo("error: out of memory (an input past sheetgen's limits may have got through: "
                   "please report it with the input)", err=True)
    else:
        click.echo(f"error: internal error ({type(exc).__name__}: {_first_line(exc)}); this is a bug in "
                   "sheetgen: please report it with the command and its input files "
                   "(`sheetgen --debug ...` prints the traceback)", err=True)
    if debug_enabled():
        import traceback
        click.echo("".join(traceback.format_exception(exc)).rstrip(), err=True)
    sys.exit(EXIT_BUG)


def _as_input_error(exc: OSError):
    """The system's refusal of a file as unusable input (exit 2), naming the file."""
    from ..errors import InputError, Problem
    from ..limits import name_problem, shown
    name = str(exc.filename) if exc.filename is not None else None
    if exc.errno == errno.ENAMETOOLONG:
        message = (name_problem(name) if name else None) or "file name too long"
    elif exc.errno in (errno.ENOSPC, errno.EDQUOT):
        message = f"cannot write: {_SYSTEM_REFUSALS[exc.errno]}"
    else:
        message = f"cannot use this file: {_SYSTEM_REFUSALS[exc.errno]}"
    return InputError(Problem(message, shown(name) if name else None))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = text[0] if text else "no message"
    return line if len(line) <= 200 else line[:200] + "..."


_debug = False


def set_debug(on: bool) -> None:
    global _debug
    _debug = on


def debug_enabled() -> bool:
    """True under `sheetgen --debug` (or SHEETGEN_DEBUG=1)."""
    import os
    return _debug or os.environ.get("SHEETGEN_DEBUG") == "1"


def echo_err(message: str) -> None:
    click.echo(message, err=True)


# the optional parts (pyproject's extras): the modules each needs, and the package that has it
EXTRAS = {"web": (("starlette", "starlette"), ("uvicorn", "uvicorn"), ("jinja2", "jinja2"),
                  ("ruamel.yaml", "ruamel.yaml")),
          "scan": (("numpy", "numpy"), ("cv2", "opencv-python-headless")),
          "cluster": (("distributed", "dask[distributed]"),)}


def require_extra(extra: str, command: str) -> None:
    """InputError (exit 2) naming the install line when an optional part's libraries are
    missing, before the command imports them (else a bare ImportError: a bug, exit 3)."""
    import importlib

    from ..errors import InputError
    missing = []
    for module, package in EXTRAS[extra]:
        try:
            importlib.import_module(module)     # the command imports it next anyway
        except ImportError:
            missing.append(package)
    if missing:
        raise InputError(f"`sheetgen {command}` needs the {extra} extra ({', '.join(missing)} not installed): "
                         f"python3 -m pip install 'sheetgen[{extra}]' (from a checkout: pip install -e '.[{extra}]')")


class GameOption(click.Option):
    """An option whose default and help the registered games complete, looked up only when the
    option is shown or used (a command module imports only click: a fast --help).
    default_of() -> the default; help_of() -> the help text."""

    def __init__(self, *args, default_of=None, help_of=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.default_of, self.help_of = default_of, help_of

    def get_default(self, ctx, call=True):
        if self.default_of is not None:
            return self.default_of()
        return super().get_default(ctx, call=call)

    def get_help_record(self, ctx):
        if self.help_of is not None:
            self.help = self.help_of()
        return super().get_help_record(ctx)


class GameOptionsCommand(click.Command):
    """A core command the games add options to (options_of() -> [BuildOption]: e.g. every game's
    simulate_options), shown before --help; their values reach the callback by name."""

    def __init__(self, *args, options_of=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.options_of, self.game_params = options_of, None

    def get_params(self, ctx):
        params = super().get_params(ctx)
        if self.game_params is None:
            seen = {p.name for p in params}
            self.game_params = []
            for opt in (self.options_of() if self.options_of else ()):
                if opt.name not in seen:
                    seen.add(opt.name)
                    self.game_params.append(click.Option([f"--{opt.name}"], default=None, help=opt.help,
                                                         type=int if opt.type == "int" else str))
        helper = self.get_help_option(ctx)
        if helper is not None and params and params[-1] is helper:
            return params[:-1] + self.game_params + params[-1:]
        return params + self.game_params


def default_ruleset() -> str:
    """--ruleset's default: the registry's default game."""
    from ..definitions.registry import default_game
    return default_game()


def game_help(key: str, before: str, after: str = ".") -> str:
    """BEFORE, then what the games add to option KEY's help in brackets, then AFTER."""
    from ..definitions.registry import option_help
    words = option_help(key)
    return before + (f" ({words})" if words else "") + after

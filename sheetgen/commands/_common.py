"""What every command shares: turning sheetgen errors into clean messages and exit codes."""
from __future__ import annotations

import functools
import sys

import click


def clean_errors(fn):
    """Run fn; a SheetgenError becomes its message on stderr and its exit code (2)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from ..errors import SheetgenError
        try:
            return fn(*args, **kwargs)
        except SheetgenError as exc:
            for problem in exc.problems:
                click.echo(f"error: {problem.format()}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
    return wrapper


def echo_err(message: str) -> None:
    click.echo(message, err=True)

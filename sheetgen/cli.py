"""sheetgen's command line: thin Click commands, loaded lazily.

Each command lives in sheetgen/commands/<name>.py and imports only click at
module level, so `sheetgen --help` stays as quick as importing click.
"""
from __future__ import annotations

import importlib

import click

from . import __version__

# name -> (module, attribute, one-line help shown by `sheetgen --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "build": ("sheetgen.commands.build", "build", "Render definitions (or the default pack) to PDF, SVG and PNG."),
    "list": ("sheetgen.commands.listing", "list_", "List the built-in definitions."),
    "validate": ("sheetgen.commands.validate", "validate", "Check definitions without rendering (and lint maps)."),
    "schema": ("sheetgen.commands.schema", "schema", "Print the JSON Schema of the definition format."),
    "calibrate": ("sheetgen.commands.calibrate", "calibrate", "Print a scale test page, or store measured printer scale."),
    "check": ("sheetgen.commands.check", "check", "Replay a play log against the rules and list violations."),
    "track": ("sheetgen.commands.track", "track", "Record a game live in a journal, step by step."),
    "play": ("sheetgen.commands.play", "play", "Play beside the paper sheet: a local page for phone or laptop."),
    "roll": ("sheetgen.commands.roll", "roll", "Roll dice: d6, 2d6, d66, NdM."),
    "simulate": ("sheetgen.commands.simulate", "simulate", "Play a map thousands of times and report how it plays."),
    "design": ("sheetgen.commands.design", "design", "Draw a map in the browser: the workbench, with the lint and playtests."),
    "scan": ("sheetgen.commands.scan", "scan", "Read a photo of a penciled sheet and check what it shows."),
}


def all_commands() -> dict[str, tuple[str, str, str]]:
    """The core commands, then every command a game adds (found through the registry)."""
    from .definitions.registry import games
    out = dict(COMMANDS)
    for game in games().values():
        for c in game.commands:
            out.setdefault(c.name, (c.module, c.attribute, c.help))
    return out


class LazyGroup(click.Group):
    def main(self, *args, **kwargs):
        """Click's main, with every error a clean message and its exit code (an
        unexpected one exits 3), and SIGTERM/SIGHUP a clean exit that removes
        half-written output (part files) and rolls back an open journal transaction."""
        import sys

        from .commands._common import exit_for, set_debug
        given = kwargs.get("args", args[0] if args else None)
        given = list(sys.argv[1:] if given is None else given)
        # --debug as given before the command: known even if finding the command fails
        set_debug("--debug" in given[:next((i for i, a in enumerate(given) if not a.startswith("-")), len(given))])
        restore = _terminate_cleanly()
        try:
            return super().main(*args, **kwargs)
        except (SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:            # noqa: BLE001 - outside any command: still no traceback
            exit_for(exc)
        finally:
            restore()

    def list_commands(self, ctx):
        return [name for name in all_commands() if _available(name)]

    def get_command(self, ctx, name):
        commands = all_commands()
        if name not in commands or not _available(name):
            return None
        module, attr, _ = commands[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        commands = all_commands()
        rows = [(name, commands[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _terminate_cleanly():
    """SIGTERM and SIGHUP (where nobody else handles them) raise SystemExit, so that
    cleanup runs; returns the function that puts the old handlers back."""
    import signal
    previous = {}

    def terminate(signum, frame):
        click.echo("terminated", err=True)
        raise SystemExit(128 + signum)
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
            try:
                previous[sig] = signal.signal(sig, terminate)
            except ValueError:          # not the main thread: signals are not ours to take
                break

    def restore():
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return restore


def _available(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(all_commands()[name][0]) is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sheetgen")
@click.option("--debug", is_flag=True, help="On an internal error (exit 3), print the full traceback.")
def main(debug):
    """Print-and-play dungeon sheets and roll-and-write rules checking.

    \b
    Examples:
      sheetgen build                      # the default print pack into output/
      sheetgen build graph-20x28 --paper letter --format pdf,png
      sheetgen validate my-map.yaml
      sheetgen check my-game.yaml
    """
    from .commands._common import set_debug
    set_debug(debug)

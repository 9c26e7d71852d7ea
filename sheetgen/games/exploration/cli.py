"""The Dungeon Exploration commands: `sheetgen explore` (map mode) and `sheetgen table` (fresh
d66 tables).  Thin Click commands over the game's library (formats, mapmode, playlog,
sheets, generate); only the prompts of an interactive game live here.  Like every
command module, it imports only click until a command runs."""
import click

from sheetgen.commands._common import clean_errors


@click.command()
@click.option("--seed", type=int, default=1, show_default=True, help="Dice and choices replay from this seed.")
@click.option("--table", "table_name", default="builtin", show_default=True,
              help="The d66 room table: 'builtin' or a path to a table YAML.")
@click.option("--contents", "contents_name", default="builtin", show_default=True,
              help="The 2d6 contents table: 'builtin' or a path.")
@click.option("--sheet", "size", default="20x28", show_default=True, help="Sheet size in squares, WIDTHxHEIGHT.")
@click.option("--rooms", "max_rooms", type=click.IntRange(1, 10000), default=None,
              help="Stop after this many rooms (the entrance counts).")
@click.option("--policy", type=click.Choice(["first", "random", "deepest"]), default="first", show_default=True,
              help="Which unexplored door to open next: the oldest room's, a random one, or the deepest room's.")
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder for the play log and the rendered map.")
@click.option("--format", "formats", default="pdf,svg,png", show_default=True,
              help="Map formats, comma separated (pdf, svg, png), or 'none' for the log only.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size of the map sheet.")
@click.option("--grayscale", is_flag=True, help="Ink saver: no colour fills.")
@click.option("--dpi", type=click.IntRange(50, 1200), default=150, show_default=True, help="PNG resolution.")
@click.option("--interactive", "-i", is_flag=True,
              help="Ask which door to open and let the player type their own rolls (Enter rolls for you).")
@clean_errors
def explore(seed, table_name, contents_name, size, max_rooms, policy, outdir, formats, paper, grayscale, dpi,
            interactive):
    """Map mode: generate a dungeon room by room on a graph sheet, as the rules say.

    The entrance (d6) goes at the bottom centre; every opened door rolls d66 for the
    next shape (rotated, mirrored or stretched 1-2 squares to fit, else truncated as a
    dead end) and 2d6 for its contents, with the boss escalation on 11. Ends on the
    Final Boss, when no unexplored door is left, or after --rooms rooms. Writes the
    play log (check it with `sheetgen check`) and the map as PDF, SVG and PNG.

    \b
    Examples:
      sheetgen explore --seed 7 -o out/
      sheetgen explore --seed 7 --policy deepest --rooms 30 --format pdf
      sheetgen explore --table my-rooms.yaml --interactive
    """
    import os
    import random
    import sys
    from pathlib import Path

    from sheetgen.atomic import write_text
    from sheetgen.errors import InputError, Problem
    from sheetgen.games.dice import RandomDice
    from .formats import map_mode_tables, parse_size
    from .mapmode import Explorer
    from .formats.playlog import dump_log

    dims = parse_size(size)
    if dims is None:
        raise InputError(Problem(f"--sheet '{size}' is not a sheet size", expected="WIDTHxHEIGHT such as 20x28"))
    fmts = [] if formats.strip().lower() in ("none", "log", "") else [f.strip().lower() for f in formats.split(",")]
    bad = [f for f in fmts if f not in ("pdf", "svg", "png")]
    if bad:
        raise InputError(Problem(f"unknown format '{bad[0]}'", expected="pdf, svg, png or none"))
    is_builtin = table_name in ("builtin", "default")
    rooms, entrances, contents = map_mode_tables(table_name, contents_name)

    rng = random.Random(seed)
    dice = PromptDice(rng) if interactive else RandomDice(rng)
    ex = Explorer(rooms, entrances, contents, dice, dims[0], dims[1], policy, max_rooms,
                  random.Random(seed * 7919 + 1), choose_door=_ask_door if interactive else None)
    try:
        while ex.step():
            if interactive:
                _tell(ex.rooms[-1])
    except _Stop:
        ex.ended = "stopped"
    if interactive and ex.rooms:
        click.echo(f"the dungeon ends: {ex.ended}")

    out = Path(outdir)
    name = f"explore-{seed}"
    table_ref = "builtin" if is_builtin else os.path.relpath(Path(table_name).resolve(), out.resolve())
    log_path = out / f"{name}.yaml"
    write_text(log_path, dump_log(ex, seed=seed, policy=policy, table=table_ref))
    written = [log_path]
    if fmts:
        from sheetgen.draw.options import BuildOptions
        from sheetgen.render import render_document
        from .sheets import map_document
        options = BuildOptions(paper=paper, dpi=dpi, seed=seed, grayscale=grayscale)
        doc = map_document(ex, options, paper=paper, name=name)
        written += render_document(doc, out, formats=fmts, dpi=dpi, grayscale=grayscale)
    click.echo(f"{len(ex.rooms)} rooms, {ex.minutes} minutes, ended: {ex.ended}", err=True)
    for path in written:
        click.echo(str(path))
    sys.exit(0)


@click.command()
@click.argument("kind", type=click.Choice(["d66"]))
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed gives the same table.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the YAML to this file (default: print it).")
@clean_errors
def table(kind, seed, output):
    """Generate a fresh d66 room table as YAML: a varied, valid mix of corridors, small
    and large rooms and dead ends with 1-4 exits, reproducible from --seed.

    \b
    Examples:
      sheetgen table d66 --seed 12 -o my-rooms.yaml
      sheetgen explore --table my-rooms.yaml --seed 3
    """
    from .formats import table_yaml
    from .generate import generate_d66
    entries = generate_d66(seed)
    text = table_yaml(entries, f"Generated room shapes (d66, seed {seed})",
                      notes=f"Made by `sheetgen table d66 --seed {seed}`. '#' floor, '+' door, 'S' secret door.")
    if output:
        from sheetgen.atomic import write_text
        write_text(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


class _Stop(Exception):
    pass


class PromptDice:
    """Dice the player rolls by hand: type the result, or press Enter to roll here."""

    def __init__(self, rng):
        self.rng = rng

    def _ask(self, what: str, reason: str, ok, roll):
        while True:
            text = click.prompt(f"{reason}: {what} (Enter rolls)", default="", show_default=False).strip()
            if text.lower() in ("q", "quit"):
                raise _Stop()
            if not text:
                value = roll()
                click.echo(f"  rolled {value}")
                return value
            try:
                value = int(text)
            except ValueError:
                value = None
            if value is not None and ok(value):
                return value
            click.echo(f"  '{text}' is not a {what} result")

    def d6(self, reason=""):
        return self._ask("d6", reason, lambda v: 1 <= v <= 6, lambda: self.rng.randint(1, 6))

    def two_d6(self, reason=""):
        return self._ask("2d6", reason, lambda v: 2 <= v <= 12,
                         lambda: self.rng.randint(1, 6) + self.rng.randint(1, 6))

    def d66(self, reason=""):
        from sheetgen.games.dice import is_d66
        return self._ask("d66", reason, is_d66, lambda: self.rng.randint(1, 6) * 10 + self.rng.randint(1, 6))


def _ask_door(ex, doors):
    click.echo(f"you are in room {ex.here}; unexplored doors:")
    for i, (room, door) in enumerate(doors, 1):
        click.echo(f"  {i}. room {room.id} ({room.entry.name}), door {door.at}")
    while True:
        text = click.prompt("open which door? (q to stop)", default="1").strip()
        if text.lower() in ("q", "quit"):
            raise _Stop()
        if text.isdigit() and 1 <= int(text) <= len(doors):
            return doors[int(text) - 1]
        click.echo(f"  choose 1 to {len(doors)}")


def _tell(room):
    what = room.result.label if room.result else "?"
    extra = " (truncated: a dead end)" if room.truncated else ""
    ambush = [rid for rid, r in room.retrace if r == 1]
    if ambush:
        click.echo(f"  wandering monsters strike the rear in room {ambush[0]}!")
    click.echo(f"room {room.id}: {room.entry.name}, a {room.kind}{extra}: {what}")

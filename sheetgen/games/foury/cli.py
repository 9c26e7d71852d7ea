"""Dungeon Foury's own commands (GAME.commands): `sheetgen new map NAME`."""
from __future__ import annotations

import re

import click

from sheetgen.commands._common import clean_errors

SIZE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


@click.group(name="new")
def new():
    """Write a new definition to start from.

    \b
    Example:
      sheetgen new map my-map                 # my-map.yaml, 9x9, playable as written
      sheetgen new map cellar --size 11x9
      sheetgen new map my-story --from ancient-story
    """


@new.command(name="map")
@click.argument("name")
@click.option("--from", "source", metavar="MAP", default=None,
              help="Start from this map (a built-in name like ancient-story, or a file) instead of a fresh one.")
@click.option("--size", default=None, metavar="COLUMNSxROWS",
              help="The grid of a fresh map (default 9x9; 5 to 26 each way); with --from, a blank map resized.")
@click.option("--force", is_flag=True, help="Overwrite the file if it exists.")
@clean_errors
def new_map(name, source, size, force):
    """Write NAME.yaml: a complete, commented Dungeon Foury map, valid and playable as written.

    Every key of the format is in it once, with the values it takes in a comment
    (the campaign keys as comments to uncomment); `sheetgen validate NAME.yaml`,
    `sheetgen build NAME.yaml` and `sheetgen simulate NAME.yaml` work on it at once.

    \b
    Examples:
      sheetgen new map cellar                   # cellar.yaml in this folder, 9x9
      sheetgen new map cellar --size 11x9
      sheetgen new map my-story --from ancient-story
      sheetgen build cellar.yaml                # then print it
    """
    from pathlib import Path

    from sheetgen.atomic import write_text
    from sheetgen.errors import InputError, Problem
    from .formats.map import load_map
    from .formats.starter import starting_map
    path = Path(name if name.endswith((".yaml", ".yml")) else name + ".yaml")
    if path.exists() and not force:
        raise InputError(Problem(f"{path} exists already: give --force to overwrite it, or another NAME",
                                 path="NAME"))
    grid = None
    if size is not None:
        m = SIZE.match(size)
        if not m or not all(5 <= int(n) <= 26 for n in m.groups()):
            raise InputError(Problem(f"--size '{size}' is not a grid from 5x5 to 26x26", path="--size",
                                     expected="COLUMNSxROWS like 9x9 or 11x9"))
        grid = (int(m.group(1)), int(m.group(2)))
    fmap = load_map(source) if source is not None else None
    title = " ".join(w.capitalize() for w in re.split(r"[-_\s]+", path.stem) if w) or "My Map"
    text = starting_map(title, grid, fmap)
    write_text(path, text)
    what = f"from {source}" if source else f"a fresh {grid[0] if grid else 9}x{grid[1] if grid else 9} map"
    click.echo(f"wrote {path} ({what}); next: sheetgen validate {path}, sheetgen build {path}, "
               f"sheetgen simulate {path}")

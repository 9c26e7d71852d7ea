"""Dungeon Foury's own commands: `sheetgen new map NAME` (GAME.commands) and the steps of
`sheetgen track` (GAME.track_commands: enter, move, fight, flee, ...), each a play-log step
recorded through the core's track (sheetgen.commands.track.record_step)."""
from __future__ import annotations

import re

import click

from sheetgen.commands._common import clean_errors
from sheetgen.commands.track import AUTO_ROLL_HELP, journal_option, parse_pairs, record_step

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


# -- the steps of `sheetgen track` ------------------------------------------------------------
@click.command("enter")
@click.argument("entry", required=False)
@click.option("--start", default=None, help="Campaigns without entries: the start cell.")
@journal_option
@clean_errors
def enter(entry, start, journal_path):
    """Start a round through an entry arrow CELL:SIDE.

    \b
    Example:
      sheetgen track enter C1:N
    """
    from sheetgen.errors import InputError
    if not entry and not start:
        raise InputError("give the entry arrow (like C1:N) or --start CELL")
    record_step(journal_path, {"entry": entry} if entry else {"start": start})


@click.command("move")
@click.argument("cell")
@click.option("--roll", type=int, default=None, help="The d6 you rolled (left out: asked, or --auto-roll).")
@click.option("--seed", type=int, default=None, help="Seed for the roll sheetgen makes (lets it roll).")
@click.option("--auto-roll", is_flag=True, help=AUTO_ROLL_HELP)
@journal_option
@clean_errors
def move(cell, roll, seed, auto_roll, journal_path):
    """Move to an adjacent cell.

    \b
    Example:
      sheetgen track move C2 --roll 5
    """
    step = {"move": cell.upper()}
    if roll is not None:
        step["roll"] = roll
    record_step(journal_path, step, seed, auto_roll)


@click.command("fight")
@click.option("--hero", "hero_roll", type=int, default=None, help="Your d6 (left out: asked, or --auto-roll).")
@click.option("--enemy", "enemy_roll", type=int, default=None, help="The foe's d6 (left out: asked, or --auto-roll).")
@click.option("--weapon", is_flag=True, help="Add your full weapon value (it drops by 1 after).")
@click.option("--clover", type=click.Choice(["hero", "enemy"]), default=None, help="Reroll this die with a clover.")
@click.option("--clover-roll", type=int, default=None, help="The reroll (Melyra: the chosen value).")
@click.option("--shield", is_flag=True, help="Block the hit with a shield.")
@click.option("--type", "enemy_type", default=None, help="Name the monster's type (goblin, orc, ...).")
@click.option("--stolen", default=None, help="What a Bandit's hit steals.")
@click.option("--fury", type=int, default=0, help="Slaughter: Fury boxes blacked out instead.")
@click.option("--seed", type=int, default=None, help="Seed for dice sheetgen rolls (lets it roll).")
@click.option("--auto-roll", is_flag=True, help=AUTO_ROLL_HELP)
@journal_option
@clean_errors
def fight(hero_roll, enemy_roll, weapon, clover, clover_roll, shield, enemy_type, stolen, fury, seed, auto_roll,
          journal_path):
    """Face the monster or statue in your cell.

    \b
    Example:
      sheetgen track fight --hero 3 --weapon --enemy 4
    """
    f = {"hero": hero_roll, "enemy": enemy_roll}
    if weapon:
        f["weapon"] = True
    if clover:
        f["clover"] = {"die": clover, "roll": clover_roll}
    if shield:
        f["shield"] = True
    if enemy_type:
        f["type"] = enemy_type
    if stolen:
        f["stolen"] = stolen
    if fury:
        f["fury"] = fury
    record_step(journal_path, {"fight": f}, seed, auto_roll)


def _simple(name, word, doc):
    @click.command(name, help=doc)
    @journal_option
    @clean_errors
    def cmd(journal_path):
        record_step(journal_path, word)
    return cmd


flee = _simple("flee", "flee", "Flee a foe still alive after an exchange (a statue: after a tie or a blocked hit).\n\n\b\nExample:\n  sheetgen track flee")
climb = _simple("climb", "climb", "Climb the stairs to the upper level (or back down).\n\n\b\nExample:\n  sheetgen track climb")
coin = _simple("coin", "coin", "INSERT COIN: once, after death.\n\n\b\nExample:\n  sheetgen track coin")
candy = _simple("candy", "candy", "Give a candy cane to the Yeti or Grinch here.\n\n\b\nExample:\n  sheetgen track candy")


def _one_arg(name, key, metavar, doc):
    @click.command(name, help=doc)
    @click.argument(metavar)
    @journal_option
    @clean_errors
    def cmd(journal_path, **kw):
        record_step(journal_path, {key: next(iter(kw.values()))})
    return cmd


collect = _one_arg("collect", "collect", "item", "Collect an item in your cell.\n\n\b\nExample:\n  sheetgen track collect chest")
shovel = _one_arg("shovel", "shovel", "wall", "Erase a collapsed wall CELL:SIDE and move through it.\n\n\b\nExample:\n"
         "  sheetgen track shovel D1:W")
exit_ = _one_arg("exit", "exit", "arrow", "Leave through an unused entry arrow CELL:SIDE.\n\n\b\nExample:\n"
         "  sheetgen track exit E3:E")
circle = _one_arg("circle", "circle", "cell", "Go from this magic circle to another.\n\n\b\nExample:\n  sheetgen track circle E5")
lever = _one_arg("lever", "lever", "cell", "Pull a lever from the upper level.\n\n\b\nExample:\n  sheetgen track lever D4")
redeem = _one_arg("redeem", "redeem", "resource", "Spend a cornucopia on a resource.\n\n\b\nExample:\n"
         "  sheetgen track redeem hearts")


@click.command("oracle")
@click.option("--words", default="", help="The two words the Oracle gave.")
@journal_option
@clean_errors
def oracle(words, journal_path):
    """Consult the Oracle in the centre room.

    \b
    Example:
      sheetgen track oracle --words "silent river"
    """
    record_step(journal_path, {"oracle": {"words": words}} if words else "oracle")


@click.command("market")
@click.option("--spend", type=int, default=0, help="Chests spent.")
@click.option("--gain", default=None, help="What the chests buy: hearts=2,shovels=1")
@click.option("--give", default=None, help="Resources traded away: weapon=2")
@click.option("--get", "get_", default=None, help="Resources received for them: shovels=2")
@click.option("--next-rate", is_flag=True, help="Elydion: trade at the next round's value.")
@journal_option
@clean_errors
def market(spend, gain, give, get_, next_rate, journal_path):
    """Trade at the market between rounds.

    \b
    Example:
      sheetgen track market --spend 1 --gain hearts=2 --give weapon=2 --get shovels=2
    """
    m: dict = {}
    if spend:
        m["spend"] = {"chests": spend}
    if gain:
        m["gain"] = parse_pairs(gain, "--gain")
    if give or get_:
        m["trade"] = {"give": parse_pairs(give, "--give"), "get": parse_pairs(get_, "--get")}
    if next_rate:
        m["rate"] = "next"
    record_step(journal_path, {"market": m})

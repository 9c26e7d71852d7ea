"""`sheetgen generate map`: Dungeon Foury's command for a map built to a target win rate (sim/generate.py)."""
from __future__ import annotations

import re
import sys

import click

from sheetgen.commands._common import clean_errors

SIZE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")
CAMPAIGNS = ("ancient", "strength")     # the four-round games the simulator plays to a win


@click.group(name="generate")
def generate():
    """Write a map made to play as asked.

    \b
    Example:
      sheetgen generate map --size 11x11 --win-rate 0.25 -o cellar.yaml
      sheetgen generate map --from my-half-map.yaml --keep zones,walls --win-rate 0.4 -o my-map.yaml
    """


@generate.command(name="map")
@click.option("--size", default="9x9", show_default=True, metavar="COLUMNSxROWS", help="The grid (5 to 26 each way).")
@click.option("--campaign", type=click.Choice(CAMPAIGNS), default=None,
              help="The four-round game to balance for (default ancient, or the --from map's).")
@click.option("--win-rate", type=float, default=0.3, show_default=True, help="The share of games the player should win.")
@click.option("--tolerance", type=float, default=0.05, show_default=True,
              help="How far the 95% interval of the win rate may reach from the target, either way.")
@click.option("--policy", type=click.Choice(["cautious", "greedy", "random"]), default="cautious", show_default=True,
              help="The player the win rate is measured for: cautious, greedy or random.")
@click.option("--hero", default=None, help="kael, melyra, thalindra, elydion, 12 free traits, or `all` (pooled).")
@click.option("--from", "source", metavar="PARTIAL.yaml", default=None,
              help="Start from this map (its cells, zones and entries) instead of a fresh one.")
@click.option("--keep", default="", metavar="zones,walls,items",
              help="With --from: the parts the search must not change.")
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same map.")
@click.option("--budget", type=click.IntRange(100, 100_000_000), default=100_000, show_default=True,
              help="Games the search and the verification may play in all (per hero with --hero all).")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="Play the games on this Dask scheduler (pip install 'sheetgen[cluster]'): the same map.")
# the closest map is always written now when the budget runs out; the flag stays for old scripts
@click.option("--best-effort", is_flag=True, hidden=True)
@click.option("-o", "--output", default=None, metavar="MAP.yaml", help="Where to write the map (default: stdout).")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@clean_errors
def generate_map(size, campaign, win_rate, tolerance, policy, hero, source, keep, seed, budget, cluster,
                 best_effort, output, force):
    """Generate a complete, commented Foury map whose simulated win rate meets a target.

    Starts from a map the lint accepts (the `sheetgen new map` layout, or --from), then
    changes one unkept part at a time (event faces, items, requirement counts, walls),
    keeping only lint-clean maps that play closer to the target (hill climbing, each
    candidate raced over a short heat first), until a fresh simulation on seeds the search
    never used puts the estimate inside a band within the tolerance, narrow enough that a later
    fresh check's 95% interval lies within the tolerance too.  Those games also
    check that each zone's requirement is met in at least 10% of its rounds and each event face
    changes something in at least 1% of the games: a map failing one is mended, or the check
    reported when it concerns a kept part.  The file's header comment and the screen say the
    result, the checks' figures and what changed.  Exit 1 when the budget ran out
    first (the closest map is written all the same, its header saying so), 2 for a target or
    option that cannot work.
    """
    from pathlib import Path

    from sheetgen.atomic import write_text
    from sheetgen.errors import InputError, Problem
    from .sim import generate as G
    m = SIZE.match(size)
    if not m or not all(5 <= int(n) <= 26 for n in m.groups()):
        raise InputError(Problem(f"--size '{size}' is not a grid from 5x5 to 26x26", path="--size",
                                 expected="COLUMNSxROWS like 9x9 or 11x9"))
    kept = {k.strip() for k in keep.split(",") if k.strip()}
    bad = sorted(kept - set(G.KEEPABLE))
    if bad:
        raise InputError(Problem(f"--keep: '{bad[0]}' is not a part of a map the search changes", path="--keep",
                                 expected=", ".join(G.KEEPABLE)))
    if kept and source is None:
        raise InputError(Problem("--keep keeps parts of the --from map: give --from PARTIAL.yaml", path="--keep"))
    if len(kept) == len(G.KEEPABLE):
        raise InputError(Problem("--keep zones,walls,items leaves the search nothing to change", path="--keep"))
    path = Path(output) if output else None
    if path is not None and path.exists() and not force:
        raise InputError(Problem(f"{path} exists already: give --force to overwrite it", path="-o"))
    if cluster:
        from sheetgen.commands._common import require_extra
        require_extra("cluster", "generate map --cluster")
    heroes = G.heroes_for(hero)
    G.check_target(win_rate, tolerance, budget, 1)
    fmap = None
    if source is not None:
        from .formats.map import load_map
        fmap = load_map(source)
        if fmap.model.campaign not in CAMPAIGNS and campaign is None:
            raise InputError(Problem(f"the --from map plays the '{fmap.model.campaign}' campaign; generate balances "
                                     f"the four-round games", path="--from", expected=", ".join(CAMPAIGNS)))
    from .sim.batch import make_hero
    columns, rows = int(m.group(1)), int(m.group(2))
    values = G.start_values(columns, rows, campaign or "ancient", fmap)
    title = (" ".join(w.capitalize() for w in re.split(r"[-_\s]+", path.stem) if w) if path else None) \
        or (fmap.title if fmap else "Generated Map")
    first, _ = G.load_text(G.render(title, values))
    if first is not None:
        for h in heroes:
            make_hero(first.board, h)
    played = [0]

    def progress(games: int) -> None:
        played[0] += games
        click.echo(f"\r  {played[0]:,} of {budget * len(heroes):,} games", nl=False, err=True)

    def log(line: str) -> None:
        click.echo(f"\r  {line}{' ' * 20}", err=True)

    player = G.Player(heroes, policy, cluster, progress if sys.stderr.isatty() else None)
    try:
        out = G.generate(values, title, G.Target(win_rate, tolerance), player, seed, budget, kept, source is not None,
                         keep_best=True, log=log)
    finally:
        if cluster:
            from sheetgen.games.cluster import close_all
            close_all()
    target = G.Target(win_rate, tolerance)
    if out.met:
        lines = G.header_lines(out, target, policy, hero, seed, _command(size, campaign, win_rate, tolerance, policy,
                                                                         hero, source, keep, seed, budget))
        text = "".join(f"# {line}\n" for line in lines) + out.text
        for line in lines[1:]:
            click.echo(line, err=True)
        if path is None:
            click.echo(text, nl=False)
        else:
            write_text(path, text)
            click.echo(f"wrote {path}; next: sheetgen validate {path}, sheetgen simulate {path}", err=True)
        sys.exit(0)
    lo, hi = out.interval
    how = (f"{out.win_rate:.1%} (95% interval {lo:.1%} to {hi:.1%}) over {out.verify_games:,} fresh games"
           if out.verified else f"{out.win_rate:.1%} in the search's own games (never verified)")
    click.echo(f"the budget of {budget:,} games ran out before a map met {win_rate:.0%} ± {tolerance:.0%}: the "
               f"closest played {how} ({out.candidates} candidates, {out.games:,} games); give a larger --budget "
               f"or a wider --tolerance", err=True)
    # never leave the designer with nothing: the closest map, its header saying it missed the target
    note = (f"# Generated by `{_command(size, campaign, win_rate, tolerance, policy, hero, source, keep, seed, budget)}`.\n"
            f"# NOT within the target ({win_rate:.0%} ± {tolerance:.0%}): the budget ran out first; this is the "
            f"closest map found, which played {how}.\n")
    if out.best_text is not None:
        if path is None:
            click.echo(note + out.best_text, nl=False)
        else:
            write_text(path, note + out.best_text)
            click.echo(f"wrote {path} (the closest map, NOT within the target)", err=True)
    sys.exit(1)


def _command(size, campaign, win_rate, tolerance, policy, hero, source, keep, seed, budget) -> str:
    """The command line that makes this map again (the options that matter, in one order)."""
    parts = ["sheetgen generate map", f"--size {size}"]
    if campaign:
        parts.append(f"--campaign {campaign}")
    parts += [f"--win-rate {win_rate:g}", f"--tolerance {tolerance:g}", f"--policy {policy}"]
    if hero:
        parts.append(f"--hero {hero}")
    if source:
        parts.append(f"--from {source}")
    if keep:
        parts.append(f"--keep {keep}")
    parts += [f"--seed {seed}", f"--budget {budget}"]
    return " ".join(parts)

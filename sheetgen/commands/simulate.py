import click

from ._common import GameOption, GameOptionsCommand, clean_errors, default_ruleset


def _ruleset_help() -> str:
    """--ruleset's help: the games with a simulator, and what each adds."""
    from ..definitions.registry import games
    able = [name for name, g in games().items() if g.simulator]
    words = "".join(f"; {name} {g.option_help['simulate --ruleset']}" for name, g in games().items()
                    if "simulate --ruleset" in g.option_help)
    return f"The game to simulate (a game with a simulator: {', '.join(able)}){words}."


def _game_options() -> list:
    """The options the games add to simulate (Game.simulate_options)."""
    from ..definitions.registry import games
    return [opt for g in games().values() for opt in g.simulate_options]


@click.command(cls=GameOptionsCommand, options_of=_game_options)
@click.argument("map_ref", metavar="MAP", required=False)
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=1000, show_default=True,
              help="Complete games to play.")
@click.option("--policy", type=click.Choice(["cautious", "greedy", "random"]), default="cautious",
              show_default=True, help="How the simulated player decides.")
@click.option("--hero", default=None,
              help="kael, melyra, thalindra, elydion, or 12 traits like hearts=4,shields=2,weapon=2,clovers=2,shovels=2 "
                   "(the default); `all`: free traits and every hero side by side on the same seeds.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the dice (game i uses seed and i).")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes; the result for a seed is the same whatever this is.")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="Play the game batches on this Dask scheduler (tcp://HOST:PORT; pip install 'sheetgen[cluster]'): "
                   "the same result as a local run with the same seed.")
@click.option("--coin", is_flag=True, help="Allow the one INSERT COIN after a death.")
@click.option("--compare", "compare_ref", metavar="MAP2", default=None,
              help="Also play MAP2 on the same seeds and say which map is harder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for programs.")
@click.option("-o", "--output", default=None,
              help="report.pdf for a PDF report, or a folder for PDF + SVG + PNG pages.")
@click.option("--logs", "logs_dir", default=None, type=click.Path(file_okay=False),
              help="Also write the first games (up to 20) as play logs into this folder.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size of the sheet the map is laid out for.")
@click.option("--grayscale", is_flag=True, help="Ink saver: no colour fills in the report.")
@click.option("--ruleset", cls=GameOption, default_of=default_ruleset, show_default=True, help_of=_ruleset_help)
@clean_errors
def simulate(map_ref, games, policy, hero, seed, jobs, cluster, coin, compare_ref, fmt, output, logs_dir,
             paper, grayscale, ruleset, **options):
    """Play a map thousands of times and report how it plays.

    Each game is played to its end (four rounds, the market between rounds)
    with the same rules engine as `sheetgen check`, dice from a seeded
    generator, and a policy that decides moves, fights and market buys.
    Reports the win rate with a 95% confidence interval, deaths by cause,
    zone and round, turns per round, requirements met, resources at the end,
    cells never reached and the deadliest cells; -o draws heatmaps over the
    map and bar charts.

    The campaign maps play to their own goal, and report its rate with a 95%
    confidence interval: slaughter (kills before dying, the Fury track; the
    kills distribution), santa (reindeer, sleigh and packages within the
    hourglass, or the XMas Safe Zone; items collected, Safe Zone rate),
    kraken (the four requirements in one go and out opposite the last one's
    zone while the water spreads; requirements completed, turns).

    For a designer, the report also says why each zone's requirement failed
    when it did (died first, not reachable in time, cut off, ...), the round
    order the policy plays and why, what each outcome means, why heroes die in
    the Oracle's room, the win rate when each event face comes up often or
    rarely, and what stands out (findings); `--hero all` sets the heroes side by
    side (an EASY hero that wins less than free traits is a finding).

    \b
    Examples:
      sheetgen simulate ancient-story --games 2000 --jobs 2 -o report.pdf
      sheetgen simulate my-map.yaml --compare ancient-story --format json
      sheetgen simulate slaughter --games 1000 -o slaughter.pdf
      sheetgen simulate my-map.yaml --hero all --jobs 2
      sheetgen simulate ancient-story --players 2 --opponent greedy:kael
    """
    import json
    import sys

    from ..definitions.registry import find_game
    from ..games.base import Simulation, SimulationRequest
    game = find_game(ruleset)
    if not game.simulator:
        from ..definitions.registry import games as all_games
        from ..errors import InputError, Problem
        able = sorted(name for name, g in all_games().items() if g.simulator)
        raise InputError(Problem(f"{game.title} has no simulator", path="--ruleset",
                                 expected="one of " + ", ".join(able)))
    if cluster:
        from ._common import require_extra
        require_extra("cluster", "simulate --cluster")
    progress = _progress_bar() if cluster else None
    request = SimulationRequest(ref=map_ref, games=games, policy=policy, hero=hero, seed=seed, jobs=jobs,
                                coin=coin, compare_ref=compare_ref, options=options, cluster=cluster,
                                progress=progress)
    try:
        sim = game.module("simulator").simulate(request)
    finally:
        if cluster:
            from ..games.cluster import close_all
            close_all()
            click.echo("", err=True)
    if logs_dir and type(sim).write_logs is not Simulation.write_logs:
        written = sim.write_logs(logs_dir, 20)
        click.echo(f"wrote {len(written)} play logs into {logs_dir}", err=True)
    if output:
        for p in sim.write_report(output, paper=paper, grayscale=grayscale):
            click.echo(f"wrote {p}", err=True)
    click.echo(json.dumps(sim.public(), indent=2) if fmt == "json" else sim.text())
    sys.exit(0)


def _progress_bar():
    """(done, total) -> a bar on stderr that the cluster's batches fill as they come back."""
    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        click.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} batches", nl=False, err=True)
    return show

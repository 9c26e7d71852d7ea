import click

from ._common import clean_errors


@click.command()
@click.argument("dice", nargs=-1, required=True)
@click.option("--seed", type=int, default=None, help="Roll reproducibly from this seed.")
@click.option("--times", "-n", type=click.IntRange(1, 100000), default=1, show_default=True,
              help="Roll each expression this many times.")
@clean_errors
def roll(dice, seed, times):
    """Roll dice: d6, 2d6, d66 (tens die then units die) or NdM such as 3d8 or 2d6+1.

    Prints one line per roll: the total, then the dice that made it.

    \b
    Examples:
      sheetgen roll d66
      sheetgen roll 2d6 d6 --seed 7 --times 3
    """
    import random

    from ..errors import InputError, Problem
    from sheetgen.games.dice import DiceError, parse
    try:
        parsed = [parse(text) for text in dice]
    except DiceError as exc:
        raise InputError(Problem(str(exc))) from None
    rng = random.Random(seed)
    for _ in range(times):
        for expr in parsed:
            result = expr.roll(rng)
            click.echo(f"{expr.text}: {result.describe()}")

import click

from ._common import clean_errors


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
    from sheetgen.games.exploration.formats import table_yaml
    from sheetgen.games.exploration.generate import generate_d66
    entries = generate_d66(seed)
    text = table_yaml(entries, f"Generated room shapes (d66, seed {seed})",
                      notes=f"Made by `sheetgen table d66 --seed {seed}`. '#' floor, '+' door, 'S' secret door.")
    if output:
        from ..atomic import write_text
        write_text(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)

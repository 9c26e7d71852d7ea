import click

from ._common import clean_errors


@click.command()
@click.argument("log")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Plain lines or a JSON report.")
@clean_errors
def check(log, fmt):
    """Replay a play log through its ruleset's rules and list every violation.

    LOG is a file or a built-in example's name. Each violation prints as
    LOG:LINE: step N: the rule broken and what the sheet should show. Exit 0
    legal, 1 violations found, 2 unreadable or invalid file.

    \b
    Examples:
      sheetgen check my-game.yaml --format json
      sheetgen check nav-crypt-game
    """
    import json
    import sys

    from ..errors import InputError, Problem
    from ..definitions.registry import load
    loaded = load(log)
    if loaded.kind != "playlog":
        raise InputError(Problem(f"this is a {loaded.kind}, not a play log (kind: playlog)", loaded.source.filename, 1, 1))
    violations = loaded.handler.check(loaded.definition)
    name = loaded.source.filename
    if fmt == "json":
        click.echo(json.dumps({"file": name, "ruleset": loaded.ruleset, "legal": not violations,
                               "violations": [v.as_dict(name) for v in violations]}, indent=2))
    else:
        for v in violations:
            click.echo(v.format(name))
        if not violations:
            click.echo(f"{name}: legal ({loaded.ruleset})")
        else:
            click.echo(f"{name}: {len(violations)} violation{'s' if len(violations) != 1 else ''}", err=True)
    sys.exit(1 if violations else 0)

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
    from ..games.base import Judgement
    if loaded.handler.check is None:
        raise InputError(Problem(f"the {loaded.ruleset} play log has no checker", loaded.source.filename, 1, 1))
    verdict = loaded.handler.check(loaded.definition)
    if not isinstance(verdict, Judgement):          # a checker without readings returns its violations
        verdict = Judgement(list(verdict))
    violations = verdict.violations
    name = loaded.source.filename
    # a built-in example by its name, not the installed package's path (json keeps the file's path)
    shown_name = loaded.source.path.stem if loaded.source.builtin else name
    readings = verdict.reading_names()
    counted = [v for v in violations if not v.consequence]
    if fmt == "json":
        report = {"file": name, "ruleset": loaded.ruleset, "legal": verdict.legal,
                  "violations": [v.as_dict(name) for v in violations]}
        if loaded.handler_readings():
            report["readings"] = readings
            report["readings_declared"] = verdict.declared
        click.echo(json.dumps(report, indent=2))
    else:
        for v in violations:
            click.echo(v.format(shown_name) + (" (a consequence of an earlier refused step)" if v.consequence else ""))
        judged = ""
        if loaded.handler_readings():
            judged = ("; readings: " + ", ".join(readings) if readings else "; the default readings")
            judged += " (declared)" if verdict.declared else ""
        if verdict.legal:
            click.echo(f"{shown_name}: legal ({loaded.ruleset}{judged})")
        else:
            click.echo(f"{shown_name}: {len(counted)} violation{'s' if len(counted) != 1 else ''} "
                       f"({loaded.ruleset}{judged})", err=True)
    sys.exit(0 if verdict.legal else 1)

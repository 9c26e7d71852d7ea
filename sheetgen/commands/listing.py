import click

from ._common import clean_errors


@click.command(name="list")
@clean_errors
def list_():
    """List the built-in definitions: name, kind and title.

    \b
    Example:
      sheetgen list
      sheetgen build graph-20x28     # build one by name
    """
    from ..definitions.builtins import builtin_info
    infos = builtin_info()
    width = max((len(i.name) for i in infos), default=4)
    kwidth = max((len(i.kind + (f" {i.ruleset}" if i.ruleset else "")) for i in infos), default=4)
    for info in sorted(infos, key=lambda i: (i.ruleset or "", i.kind, i.name)):
        kind = info.kind + (f" {info.ruleset}" if info.ruleset else "")
        click.echo(f"{info.name:<{width}}  {kind:<{kwidth}}  {info.title}")

import click

from ._common import clean_errors


@click.command(name="list")
@click.argument("what", required=False)
@clean_errors
def list_(what):
    """List the built-in definitions (name, kind and title), the games, or a game's vocabulary.

    WHAT is empty (the built-in definitions), `games` (every registered game), or a
    word a game lists, each name with one line of meaning (for a game with maps: items,
    events, enemies, campaigns, requirements, die-effects, sides: every word a map
    may use).

    \b
    Example:
      sheetgen list
      sheetgen list games
      sheetgen list items            # what a map may print in a cell
      sheetgen build graph-20x28     # build one by name
    """
    if what is None:
        _builtins()
        return
    from ..definitions.registry import games
    from ..errors import InputError, Problem, did_you_mean
    if what == "games":
        found = games()
        width = max(len(n) for n in found)
        for name, game in sorted(found.items()):
            seed = f" (rules text {game.rules_text})" if game.rules_text else ""
            click.echo(f"{name:<{width}}  {game.title}{seed}")
        return
    sources = {word: game for game in games().values() for word in game.vocabularies}
    if what not in sources:
        words = ["games", *sorted(sources)]
        raise InputError(Problem(f"nothing to list called '{what}'", path="WHAT",
                                 expected="nothing (the built-in definitions) or one of " + ", ".join(words),
                                 suggestion=did_you_mean(what, words)))
    import importlib
    game = sources[what]
    module, _, attr = game.vocabularies[what].partition(":")
    rows = list(getattr(importlib.import_module(module), attr)())
    width = max((len(name) for name, _ in rows), default=4)
    for name, meaning in rows:
        click.echo(f"{name:<{width}}  {meaning}")


def _builtins():
    from ..definitions.builtins import builtin_info
    infos = builtin_info()
    width = max((len(i.name) for i in infos), default=4)
    kwidth = max((len(i.kind + (f" {i.ruleset}" if i.ruleset else "")) for i in infos), default=4)
    for info in sorted(infos, key=lambda i: (i.ruleset or "", i.kind, i.name)):
        kind = info.kind + (f" {info.ruleset}" if info.ruleset else "")
        click.echo(f"{info.name:<{width}}  {kind:<{kwidth}}  {info.title}")

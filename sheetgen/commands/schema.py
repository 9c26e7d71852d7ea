import click

from ._common import clean_errors


@click.command()
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
@clean_errors
def schema(output):
    """Print the JSON Schema of the definition format (for editor autocompletion).

    It accepts what the loaders accept and tells the kinds apart by kind and
    ruleset, so an editor blames a typo on its key.

    \b
    Example:
      sheetgen schema -o sheetgen.schema.json
      # then as the first line of a definition (the YAML language server reads it):
      #   # yaml-language-server: $schema=./sheetgen.schema.json
      # or in VS Code's settings: "yaml.schemas": {"./sheetgen.schema.json": "*.yaml"}
    """
    import json

    from ..definitions.schema import definition_schema
    text = json.dumps(definition_schema(), indent=2, sort_keys=True) + "\n"
    if output:
        from ..atomic import write_text
        from ..errors import InputError, Problem
        try:
            write_text(output, text)
        except OSError as exc:      # a file where a folder should be, no permission, disk full
            why = "part of the path is a file" if isinstance(exc, (FileExistsError, NotADirectoryError)) \
                else exc.strerror or str(exc)
            raise InputError(Problem(f"cannot write: {why}", str(output))) from None
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)

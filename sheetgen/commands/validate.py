import click

from ._common import clean_errors


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--quiet", "-q", is_flag=True, help="Print problems only, no 'ok' lines.")
@clean_errors
def validate(files, quiet):
    """Check definition files (or built-in names) without rendering.

    Maps are also linted for playability, and the pages a file builds for
    text that does not fit its place. Exit 0 when all are valid (warnings
    may be printed), 1 when a file is well-formed but not playable as
    designed, 2 when a file is malformed.

    \b
    Example:
      sheetgen validate my-map.yaml layouts/graph-20x28.yaml
    """
    import sys

    from ..build import page_warnings
    from ..definitions.validation import validate_files
    code = validate_files(files, echo=click.echo, quiet=quiet, page_warnings=page_warnings)
    sys.exit(code)

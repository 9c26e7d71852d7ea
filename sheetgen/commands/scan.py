import click

from ._common import clean_errors, require_extra
from .build import game_build_options


@click.command()
@click.argument("photos", nargs=-1, required=True, metavar="PHOTO...")
@click.option("--sheet", "sheet_ref", default=None, metavar="NAME|FILE",
              help="The sheet the photos show, when its QR code cannot be read (or it has no marks); "
                   "a custom sheet's QR code asks for its file.")
@click.option("--log", "log", default=None, type=click.Path(dir_okay=False),
              help="Also compare the paper with this play log (and check the log, as `sheetgen check`).")
@click.option("--journal", "journal_path", default=None, type=click.Path(dir_okay=False),
              help="Also compare the paper with the current game of this `sheetgen track` journal.")
@click.option("-o", "--output", "outdir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder for PHOTO.sheetscan.yaml and PHOTO.overlay.png.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for programs.")
@game_build_options
@clean_errors
def scan(photos, sheet_ref, log, journal_path, outdir, fmt, **game_values):
    """Read a photo (or a flat scan) of a penciled sheet and check what it shows.

    Finds the sheet by its four corner markers, reads its QR code (or takes
    --sheet), composes the same sheet again and reads every region a player
    marks: walls, the path and visited rooms, crossed and blacked-out boxes,
    struck items, requirement and hourglass boxes.  Checks the result against
    the rules, and with --log or --journal against the play record, naming
    every difference.  Writes PHOTO.sheetscan.yaml (every region's reading and
    confidence, the uncertain ones first) and PHOTO.overlay.png (the flattened
    photo with every region outlined by what was read) into the output folder.
    Exit 0 consistent, 1 violations or differences, 2 a photo that cannot be used.

    \b
    Examples:
      sheetgen scan photo.jpg
      sheetgen scan photo.jpg --log my-game.yaml -o scans
      sheetgen scan scan.png --sheet ancient-story --hero kael --format json
    """
    import json
    import sys
    from pathlib import Path

    from ..errors import InputError, Problem, SheetgenError
    require_extra("scan", "scan")
    if log and journal_path:
        raise InputError(Problem("give --log or --journal, not both", path="--journal"))
    from ..definitions.registry import build_options as declared_options
    declared = declared_options()
    options = tuple((name, declared[name].convert(v)) for name, v in game_values.items() if v is not None)
    record_label = None
    tmp = None
    if journal_path:
        log, record_label, tmp = _journal_log(journal_path)
    from ..scan.overlay import write_overlay
    from ..scan.pipeline import scan_photo
    from ..scan.report import as_data, sheetscan_yaml, text
    from ..atomic import write_text
    results, worst, errors = [], 0, []
    try:
        for photo in photos:
            try:
                result = scan_photo(photo, sheet_ref=sheet_ref, keep_images=True, options=options)
                if log:
                    from ..scan.pipeline import compare_with_record, scanner_for
                    compare_with_record(result, scanner_for(result.sheet), log, record_label)
            except SheetgenError as exc:
                if len(photos) == 1:
                    raise
                errors.append((photo, exc))
                worst = max(worst, exc.exit_code)
                continue
            stem = Path(photo).stem
            out = Path(outdir)
            write_text(out / f"{stem}.sheetscan.yaml", sheetscan_yaml(result))
            write_overlay(result, out / f"{stem}.overlay.png")
            results.append(result)
            worst = max(worst, result.exit_code)
    finally:
        if tmp is not None:
            tmp.cleanup()
    if fmt == "json":
        data = [as_data(r) for r in results]
        for photo, exc in errors:
            data.append({"photo": photo, "error": [p.format() for p in exc.problems]})
        click.echo(json.dumps(data[0] if len(photos) == 1 else data, indent=2))
    else:
        for r in results:
            click.echo(text(r))
            click.echo(f"  wrote {Path(outdir) / (Path(r.photo).stem + '.sheetscan.yaml')} and "
                       f"{Path(outdir) / (Path(r.photo).stem + '.overlay.png')}")
        for photo, exc in errors:
            for p in exc.problems:
                click.echo(f"error: {p.format()}", err=True)
    sys.exit(worst)


def _journal_log(journal_path):
    """The journal's current game as a play log in a temporary folder: (path, label, tmp)."""
    import tempfile
    from pathlib import Path

    from ..definitions.registry import tracker_for
    from ..errors import InputError, Problem
    from ..tracker.journal import Journal, JournalError
    if not Path(journal_path).is_file():
        raise InputError(Problem("no such journal", journal_path, expected="a journal `sheetgen track` wrote"))
    try:
        journal = Journal(journal_path)
    except JournalError as exc:
        raise InputError(Problem(str(exc), journal_path)) from None
    try:
        try:
            game = journal.current()
        except JournalError as exc:
            raise InputError(Problem(str(exc), journal_path)) from None
        tmp = tempfile.TemporaryDirectory()
        text = tracker_for(game.ruleset).export(game.header, journal.steps(game.id), Path(tmp.name))
    finally:
        journal.close()
    path = Path(tmp.name) / "journal-game.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path), f"{journal_path} (game {game.id})", tmp

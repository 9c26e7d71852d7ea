import click

from ._common import clean_errors

LISTED = 6      # up to this many files written are all named


def game_build_options(fn):
    """The --columns, --rows, --hero ... options, as the games declare them."""
    from ..definitions.registry import build_options as declared_options
    for opt in reversed(list(declared_options().values())):
        kind = click.IntRange(opt.minimum, opt.maximum) if opt.type == "int" else str
        fn = click.option(f"--{opt.name}", opt.name, type=kind, default=None, help=opt.help)(fn)
    return fn


@click.command()
@click.argument("definitions", nargs=-1)
@click.option("-o", "--output", "outdir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder to write into.")
@click.option("--format", "formats", default="pdf,svg,png", show_default=True,
              help="Comma-separated output formats: pdf, svg, png.")
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default=None,
              help="Paper size (default: each definition's own, usually A4).")
@click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True, help="PNG resolution.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for anything random; printed in the footer.")
@click.option("--grayscale", is_flag=True, help="Ink saver: no colour fills; patterns and letters instead.")
@click.option("--duplex", is_flag=True, help="Card sheets: add mirrored back pages for long-edge duplex.")
@click.option("--printer", default=None, help="Apply the calibration stored for this printer.")
@click.option("--no-calibration", is_flag=True, help="Ignore the stored printer scale correction.")
@click.option("--no-ruler", is_flag=True, help="Leave out the 50 mm calibration ruler.")
@click.option("--no-scan-marks", is_flag=True, help="Leave out the corner markers and QR code that "
              "`sheetgen scan` reads on playable sheets.")
@click.option("--printer-margin", "printer_margin", type=float, default=None, metavar="MM",
              help="Keep MM clear of every paper edge (0 to 15) for a printer that cannot print as close "
              "as the 5 mm every sheet keeps: the content is scaled down to fit (default: the margin "
              "`calibrate --margin` stored for the printer, if any).")
@click.option("-v", "--verbose", is_flag=True, help=f"List every file written (else more than {LISTED} "
              "files are counted and only the PDFs named).")
@game_build_options
@clean_errors
def build(definitions, outdir, formats, paper, dpi, seed, grayscale, duplex, printer, no_calibration, no_ruler,
          no_scan_marks, printer_margin, verbose, **game_values):
    """Render definitions (files or built-in names) to PDF, SVG and PNG.

    With no DEFINITIONS, builds the default print pack (every built-in sheet)
    into output/ as one multi-page PDF plus one SVG and one PNG per page.

    \b
    Examples:
      sheetgen build
      sheetgen build graph-20x28 --paper letter --format pdf
      sheetgen build my-map.yaml -o prints --grayscale
      sheetgen build ancient-story --hero kael
      sheetgen build ancient-story --printer-margin 8
    """
    import sys

    from .. import build as builder
    from .. import calibration
    from ..draw.options import BuildOptions, Calibration, GameOptions

    from ..errors import InputError, Problem
    if not outdir.strip():
        raise InputError(Problem("the output folder name is empty", expected="-o FOLDER"))
    fmt = builder.parse_formats(formats)
    if printer_margin is not None:
        calibration.check_margin(printer_margin)
    from ..definitions.registry import build_options as declared_options
    declared = declared_options()
    game = GameOptions(tuple((name, declared[name].convert(v)) for name, v in game_values.items() if v is not None),
                       frozenset(declared))
    cal = Calibration() if no_calibration else calibration.current(printer)
    stored_margin = printer_margin is None and cal.margin is not None
    if stored_margin:
        printer_margin = cal.margin
    options = BuildOptions(paper=paper.lower() if paper else None, dpi=dpi, seed=seed, grayscale=grayscale,
                           calibration=cal, duplex=duplex, ruler=not no_ruler, game=game,
                           scan_marks=not no_scan_marks, printer_margin=printer_margin)
    loaded = builder.load_targets(list(definitions))
    for note in builder.ignored_options(loaded, options):
        click.echo(note, err=True)
    total = builder.count_sheets(loaded)
    warnings: list[str] = []                # the layout lint's, after the progress bar
    if sys.stdout.isatty() and total > 1:
        with click.progressbar(length=total, label="composing", show_pos=True) as bar:
            docs = builder.documents(loaded, options, progress=lambda _name: bar.update(1), warn=warnings.append)
    else:
        docs = builder.documents(loaded, options, warn=warnings.append)
    for line in warnings:
        click.echo(line, err=True)
    if printer_margin is not None:
        click.echo(scaled_note(docs, printer_margin) + (f" (the margin stored for printer "
                   f"'{cal.printer or 'default'}')" if stored_margin else ""), err=True)
    written = builder.render(docs, outdir, fmt, options)
    pages = sum(len(d.pages) for d in docs)
    for line in written_summary(written, pages, outdir, cal.label(), verbose):
        click.echo(line)


def scaled_note(docs: list, margin: float) -> str:
    """What --printer-margin did: the scale the content was printed at, or that none was needed."""
    scales = sorted({round(page.content_scale * 100, 1) for doc in docs for page in doc.pages})
    if not scales or scales == [100.0]:
        return f"note: every page already keeps {margin:g} mm clear of the paper's edges: nothing scaled"
    shown = f"{scales[0]:g}%" if len(scales) == 1 else f"{scales[0]:g}% to {scales[-1]:g}%"
    return f"note: content scaled to {shown} to keep {margin:g} mm clear of the paper's edges"


def written_summary(written: list, pages: int, outdir: str, calibration: str, verbose: bool) -> list[str]:
    """What build says it wrote: every file, or (many files) their count in the folder
    and the PDFs by name, so the count and the list always agree."""
    files = f"{len(written)} file{'s' if len(written) != 1 else ''}"
    lines = [f"built {pages} page{'s' if pages != 1 else ''} into {outdir}/ "
             f"({files}{'' if verbose or len(written) <= LISTED else f' in {outdir}/'}; {calibration})"]
    if verbose or len(written) <= LISTED:
        return lines + [f"  {path}" for path in written]
    named = [path for path in written if path.suffix == ".pdf"]
    rest = [path for path in written if path.suffix != ".pdf"]
    by_format: dict[str, int] = {}
    for path in rest:
        by_format[path.suffix.lstrip(".").upper()] = by_format.get(path.suffix.lstrip(".").upper(), 0) + 1
    counts = ", ".join(f"{n} {fmt}" for fmt, n in by_format.items())
    return lines + [f"  {path}" for path in named] + \
        [f"  {'and ' if named else ''}{len(rest)} {'more ' if named else ''}file{'s' if len(rest) != 1 else ''} "
         f"({counts}; --verbose lists them)"]

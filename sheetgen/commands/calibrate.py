import click

from ._common import clean_errors


@click.command()
@click.option("--measured-x", type=float, default=None, help="Length in mm you measured on the horizontal 100 mm ruler.")
@click.option("--measured-y", type=float, default=None, help="Length in mm you measured on the vertical 100 mm ruler.")
@click.option("--printer", default=None, help="Name to store the correction under (several printers can be kept).")
@click.option("--margin", type=float, default=None, metavar="MM",
              help="Store how much of the paper's edge this printer leaves blank: builds keep MM clear "
              "(0 to 15; as `build --printer-margin`, which wins).")
@click.option("--show", is_flag=True, help="List every stored printer's correction (* marks the one builds use).")
@click.option("--reset", is_flag=True,
              help="Forget a stored correction: --printer NAME's, or else the one builds use.")
@click.option("-o", "--output", "outdir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder for the test page.")
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default="a4", show_default=True,
              help="Paper size of the test page.")
@click.option("--format", "formats", default="pdf,png", show_default=True, help="Formats of the test page.")
@clean_errors
def calibrate(measured_x, measured_y, printer, margin, show, reset, outdir, paper, formats):
    """Print a scale test page, or store what your printer made of it.

    Printers shrink pages by 0.4-1%. Print the test page at 100%, measure
    the two 100 mm rulers, store the numbers; every later build is scaled so
    it prints true (unless --no-calibration), and says so in its footer.

    \b
    Examples:
      sheetgen calibrate                                  # writes output/calibrate.pdf
      sheetgen calibrate --measured-x 99.2 --measured-y 99.6 --printer office
      sheetgen calibrate --margin 8 --printer office      # it cannot print within 8 mm
      sheetgen calibrate --show
      sheetgen calibrate --reset --printer office       # forget it: builds print unscaled
    """
    from .. import calibration
    from ..errors import InputError, Problem
    if reset:
        if measured_x is not None or measured_y is not None or margin is not None or show:
            raise InputError(Problem("--reset forgets a calibration: give it alone (with --printer NAME at most)"))
        name = calibration.forget(printer)
        if name is None:
            click.echo("no stored calibration to forget (builds are printed unscaled)")
            return
        left = sorted(calibration.stored()["printers"])
        click.echo(f"forgot the calibration of printer '{name}'; builds are printed unscaled"
                   + (f" unless built with --printer NAME (still stored: {', '.join(left)})" if left else ""))
        return
    if show:
        data = calibration.stored()
        if not data["printers"]:
            click.echo("no stored calibration (builds are printed unscaled)")
        for name, entry in sorted(data["printers"].items()):
            mark = "*" if name == data.get("default") else " "
            click.echo(f"{mark} {name}: {calibration.describe(entry)}")
        click.echo(f"stored in {calibration.config_path()}")
        return
    if (measured_x is None) != (measured_y is None):
        raise InputError(Problem("give both --measured-x and --measured-y (measure both rulers)"))
    if measured_x is not None or margin is not None:
        cal = calibration.save(measured_x, measured_y, printer, margin)
        kept = f"; builds keep {cal.margin:g} mm clear of the paper's edges" if cal.margin is not None else ""
        click.echo(f"stored: {cal.label()}{kept}; later builds apply it (see `sheetgen calibrate --show`)")
        return
    from ..build import parse_formats
    from ..draw.calibration import compose_calibration
    from ..draw.options import BuildOptions
    from ..render import render_document
    doc = compose_calibration(BuildOptions(paper=paper.lower()))
    written = render_document(doc, outdir, formats=parse_formats(formats))
    for path in written:
        click.echo(f"wrote {path}")
    click.echo("print at 100% (actual size), measure both 100 mm rulers, then run:\n"
               "  sheetgen calibrate --measured-x MM --measured-y MM [--printer NAME]")

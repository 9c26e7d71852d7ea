import click

from ._common import clean_errors, require_extra

DEFAULT_PORT = 8642


@click.command(name="design")
@click.argument("map_file", metavar="[MAP.yaml]", required=False)
@click.option("--new", "new", metavar="COLUMNSxROWS", default=None,
              help="Start a map of that size from nothing (every cell rock) in MAP.yaml, or in new-map.yaml.")
@click.option("--port", type=int, default=DEFAULT_PORT, show_default=True,
              help="The port to listen on (0: a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but this machine's own needs the printed token.")
@click.option("--token", default=None, help="The token of a shared server (default: a new one when shared).")
@clean_errors
def design(map_file, new, port, host, token):
    """Draw a map in the browser, with every rule and word of the game at hand.

    Paint zones, rock and the centre; click an edge for a wall and a border edge for an entry
    arrow; print items from the palette of icons; name each zone and choose its requirement
    and events. Every change runs the lint (the findings are outlined on the map); Save writes
    MAP.yaml in the documented format, keeping your comments and key order. Playtest plays the
    draft a few thousand times (against the saved file too); Print shows the sheet at A4 or
    Letter and gives the PDF. The page edits this one file and nothing else.

    \b
    Example:
      sheetgen design my-map.yaml              # a map to edit (sheetgen new map my-map)
      sheetgen design cellar.yaml --new 7x7    # a new one, from nothing
      sheetgen design my-map.yaml --host 0.0.0.0 --port 8642   # from a phone on the home network
    """
    import re
    from pathlib import Path

    from ..errors import InputError, Problem
    require_extra("web", "design")
    from ..web.design import make_design_app, open_workbench
    from ..web.server import address, bind, serve, token_for
    size = None
    if new is not None:
        m = re.match(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$", new)
        if not m or not all(5 <= int(n) <= 26 for n in m.groups()):
            raise InputError(Problem(f"--new '{new}' is not a grid from 5x5 to 26x26", path="--new",
                                     expected="COLUMNSxROWS like 7x7 or 9x9"))
        size = (int(m.group(1)), int(m.group(2)))
    if map_file is None:
        if size is None:
            raise InputError(Problem("give the map to edit, or --new COLUMNSxROWS to start one", path="MAP",
                                     expected="sheetgen design MAP.yaml, or sheetgen design --new 7x7"))
        map_file = next(name for n in range(1, 1000)
                        if not Path(name := "new-map.yaml" if n == 1 else f"new-map-{n}.yaml").exists())
    from ..limits import check_name
    path = check_name(map_file)
    draft, designer = open_workbench(path, size)
    token = token_for(host, token)
    sock = bind(host, port)
    app = make_design_app(draft, designer, host=host, token=token)
    click.echo(f"designing {path}{' (new: written when you save)' if size else ''}")
    click.echo(f"open {address(sock, token)}   (Ctrl-C to stop)")
    try:
        serve(app, sock)
    finally:
        sock.close()

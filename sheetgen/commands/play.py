import click

from ._common import GameOption, clean_errors, require_extra


def _ruleset_help() -> str:
    """--ruleset's help: the default game, and the games that start without --map (their words)."""
    from ..definitions.registry import default_game, games
    others = "".join(f" or {name} ({g.option_help['play --ruleset']})" for name, g in games().items()
                     if "play --ruleset" in g.option_help)
    return f"The ruleset of a new game: {default_game()} (the default with --map){others}."


@click.command("play")
@click.option("--map", "map_name", default=None,
              help="Start a new game on this map (a built-in name or a map YAML file); "
                   "without it the journal's current game goes on.")
@click.option("--hero", default=None, help="The hero of the new game: kael, melyra, thalindra, elydion "
                                           "(a card game: the players' names, Ada,Bo,Cy).")
@click.option("--traits", default=None, help="Or 12 traits freely marked: hearts=4,shields=2,weapon=2,clovers=2,shovels=2")
@click.option("--ruleset", default=None, cls=GameOption, help_of=_ruleset_help)
@click.option("--journal", "journal_path", type=click.Path(dir_okay=False), default=None,
              help="The journal (default: the one of the game last started, as `sheetgen track`).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port (0: a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: 0.0.0.0 to play from a phone on this network (a token guards it).")
@click.option("--workers", type=click.IntRange(0, 16), default=1, show_default=True,
              help="Processes that draw the pages, so a tap is recorded at once and many games' pages are "
                   "drawn on as many cores (a club night: one per core); 0: the server draws them itself.")
@clean_errors
def play(map_name, hero, traits, ruleset, journal_path, port, host, workers):
    """Play beside the paper sheet: a local page (phone or laptop) with the map, the pencil so
    far and, after every step, what to pencil: the walls by side, the fight, the Oracle.

    It records in the same journal as `sheetgen track` (a game goes on in either).  On
    127.0.0.1 only this machine reaches it; with --host 0.0.0.0 it prints an address
    carrying a random token (and its QR code): every request without it is refused.

    \b
    Example:
      sheetgen play --map ancient-story --hero kael
      sheetgen play --host 0.0.0.0          # the current game, on a phone
      sheetgen play --ruleset NAME          # a game that starts without --map (map mode)
    """
    from ..errors import InputError
    from ..tracker.journal import Journal, JournalError, remember, resolve
    require_extra("web", "play")
    from ..web.server import address, bind, serve, token_for
    from ..definitions.registry import default_game, tracker_for
    # a new game: --map given, or a game named that starts without one (map mode)
    starting = bool(map_name) or (ruleset is not None and not tracker_for(ruleset).needs_map)
    ruleset = ruleset or default_game()
    if starting:
        from ..games.base import Illegal
        from .track import parse_pairs
        if hero and traits:
            raise InputError("give either --hero or --traits, not both")
        ad = tracker_for(ruleset)           # an unknown name: InputError (exit 2)
        try:
            header = ad.start({"map": map_name, "hero": hero, "traits": parse_pairs(traits, "--traits")})
        except Illegal as exc:
            raise InputError(str(exc)) from None
    try:
        journal = Journal(resolve(journal_path))
    except JournalError as exc:
        raise InputError(str(exc)) from None
    try:
        if starting:
            gid = journal.new_game(ruleset, header)
            remember(journal.path)
            click.echo(f"game {gid} started in {journal.path}")
        else:
            try:
                gid = journal.current().id
            except JournalError:
                raise InputError(f"no game in {journal.path}: give --map MAP --hero HERO to start one") from None
            click.echo(f"game {gid} of {journal.path}")
        _servable(journal, gid)
        path = journal.path
    finally:
        journal.close()
    from ..web.play import make_play_app
    token = token_for(host)
    sock = bind(host, port)
    app = make_play_app(path, host=host, token=token, workers=workers)
    url = address(sock, token, f"/g/{gid}")
    click.echo(f"playing at {url}")
    from ..web.play.app import game_page
    from ..web.play.join import seats
    with Journal(path) as j:
        game = j.game(gid)
    if len(seats(game_page(game.ruleset), game.header)) > 1:
        # several players at one table: each phone joins as one of them
        click.echo(f"each player joins from {address(sock, token, f'/g/{gid}/join')} (an address and a QR code each)")
    if token:
        click.echo("the token in this address guards the game: share it only with your own phone")
        try:
            from ..web.play.terminal import qr_text
            click.echo(qr_text(url))
        except Exception as exc:  # noqa: BLE001 - the QR code is a convenience: the address is printed
            click.echo(f"(no QR code: {exc})")
    app.state.warm(gid)         # the game's modules loaded and its sheet drawn before the first tap
    click.echo("Ctrl-C stops the server; the journal keeps every step recorded.")
    try:
        serve(app, sock, max_connections=app.state.connections)     # the pages' long polls on top
    finally:
        sock.close()


def _servable(journal, gid: int) -> None:
    """InputError (exit 2, saying why) for a game the page cannot serve: a ruleset with no page,
    a map or deck its header names that cannot be read, steps that no longer replay."""
    from ..errors import InputError, SheetgenError
    from ..web.play.app import game_page
    game = journal.game(gid)
    try:
        from ..definitions.registry import tracker_for
        page = game_page(game.ruleset)
        why = getattr(page, "cannot_serve", lambda header: None)(game.header)   # a mode the page lacks
        if why:
            raise InputError(why)
        tracker_for(game.ruleset).replay(game.header, journal.steps(gid))
    except SheetgenError as exc:
        raise InputError(f"game {gid} of {journal.path} ({game.ruleset}) cannot be played on the page: {exc}") \
            from None
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"game {gid} of {journal.path} ({game.ruleset}) cannot be played on the page: "
                         f"its header is not one this ruleset reads ({type(exc).__name__}: {exc})") from None

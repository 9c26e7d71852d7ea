"""Several phones at one table: the join page (an address and a QR code per player, each carrying
the server's token where it has one, as the address `sheetgen play` prints) and the small version
document the pages poll to follow the table without a reload."""
from __future__ import annotations

import zlib
from urllib.parse import quote


def seats(page, header: dict) -> list[str]:
    """The players of a game as its page names them (one seat for a game of one player)."""
    return list(page.seats(header))


def join_html(pages, gid: int, base: str, token: str | None) -> str:
    """The join page of game GID: for each player, the address that opens the game as them."""
    import segno

    from ..server import TOKEN_PARAM
    from .app import game_page
    _, game, _, _ = pages.load(gid)
    names = seats(game_page(game.ruleset), game.header) or [""]
    players = []
    for name in names:
        query = [f"as={quote(name)}"] if name else []
        if token:
            query.append(f"{TOKEN_PARAM}={quote(token)}")
        url = f"{base}/g/{gid}" + ("?" + "&".join(query) if query else "")
        qr = segno.make(url, error="m").svg_inline(scale=4, border=2, title=f"join as {name}" if name else "join")
        players.append({"name": name or "the game", "url": url, "qr": qr})
    return pages.html("join.html", gid=gid, players=players, guarded=bool(token))


def version(journal, gid: int) -> dict:
    """What changes whenever a step is recorded or undone (and the header changes): cheap to read."""
    game = journal.game(gid)
    texts = journal.step_texts(gid)
    return {"steps": len(texts), "version": version_of(game.header, texts)}


def version_of(header: dict, texts: list[str]) -> str:
    """The version of a game of HEADER whose steps are TEXTS (the page carries it: data-version)."""
    mark = zlib.crc32(("\x1e".join(texts[-2:]) + repr(sorted(header.items()))).encode("utf-8"))
    return f"{len(texts)}-{mark:08x}"

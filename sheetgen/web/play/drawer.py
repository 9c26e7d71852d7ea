"""A page-drawing process of `sheetgen play --workers N`, and the framing it speaks.

The server starts each one as `python -m sheetgen.web.play.drawer FD SERVER_PID` with one end of
a socket pair as FD: a fresh interpreter (no lock or SQLite connection of the server's threads
crosses into it, as a fork would carry them), which dies with the server (PR_SET_PDEATHSIG, and
the socket's end of file).  Messages are pickles, each after its length (4 bytes, big-endian):

    server -> drawer   {"journal": PATH, "key": FORM_KEY, "warm": GAME_ID | None}   once, first
    drawer -> server   ("ready", PID)                                              once warm
    server -> drawer   (GAME_ID, QUERY, REFUSED, PENDING)                          a page wanted
    drawer -> server   ("page", HTML) | ("not found" | "error", MESSAGE)

Results, not exceptions, cross: an exception cannot be told from a broken drawer.  The server
speaks it from its event loop (asyncio streams, no thread of its own); the drawer blocks on its
socket, draws one page at a time, and goes on from its last page (its own Store).
"""
from __future__ import annotations

import pickle
import struct
import sys

HEAD = struct.Struct(">I")
MAX_MESSAGE = 64 * 1024 * 1024          # a page is ~60 kB; more is a broken peer


def frame(message) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEAD.pack(len(body)) + body


def read_message(stream):
    """The next message from a blocking binary STREAM, or None at its end."""
    head = stream.read(HEAD.size)
    if len(head) < HEAD.size:
        return None
    (size,) = HEAD.unpack(head)
    if size > MAX_MESSAGE:
        raise EOFError(f"a message of {size} bytes")
    body = stream.read(size)
    if len(body) < size:
        return None
    return pickle.loads(body)


async def read_message_async(reader):
    """The next message from an asyncio StreamReader (IncompleteReadError at its end)."""
    (size,) = HEAD.unpack(await reader.readexactly(HEAD.size))
    if size > MAX_MESSAGE:
        raise EOFError(f"a message of {size} bytes")
    return pickle.loads(await reader.readexactly(size))


def draw(pages, gid: int, query: dict, refused, pending) -> tuple[str, str]:
    from ...errors import SheetgenError
    from .app import NotFound
    try:
        return "page", pages.page(gid, query, refused, pending)
    except NotFound as exc:
        return "not found", str(exc)
    except SheetgenError as exc:
        return "error", str(exc)


def serve_pages(fd: int, server: int) -> None:
    import gc
    import os
    import signal
    import socket

    from ..server import die_with
    from .app import Pages, Store
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C stops the server, which stops this
    die_with(server)
    sock = socket.socket(fileno=fd)
    incoming, outgoing = sock.makefile("rb"), sock.makefile("wb")
    start = read_message(incoming)
    if start is None:
        return
    pages = Pages(Store(start["journal"]), start["key"])
    if start.get("warm") is not None:
        draw(pages, start["warm"], {}, None, None)  # the game's modules loaded, its sheet drawn
    gc.collect()
    gc.freeze()                         # what start-up made is never walked by the collector again
    outgoing.write(frame(("ready", os.getpid())))
    outgoing.flush()
    while True:
        wanted = read_message(incoming)
        if wanted is None:
            return                      # the server closed its end (stopped, or died)
        outgoing.write(frame(draw(pages, *wanted)))
        outgoing.flush()


def main(argv: list[str]) -> int:
    try:
        fd, server = int(argv[0]), int(argv[1])
    except (IndexError, ValueError):
        print("usage: python -m sheetgen.web.play.drawer FD SERVER_PID (started by `sheetgen play`)",
              file=sys.stderr)
        return 2
    try:
        serve_pages(fd, server)
    except (OSError, EOFError):
        pass                            # the server went away mid-message
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

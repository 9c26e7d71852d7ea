"""Several phones at one table: how a page learns at once that another player acted.

GET /g/ID/wait?after=VERSION is a long poll: answered at once when the game's version (join.version)
is not VERSION, else held until this server records, undoes or changes a step of that game, or
WAIT_S pass (then it answers with the same version: "nothing yet, ask again").  A long poll rather
than server-sent events: each answer is one ordinary, complete response, so it passes proxies that
buffer or cut streams, carries the same token cookie as every request (the Guard checks it like any
other), and a phone that slept just asks again; the page falls back to its 1 s poll of
/g/ID/version when a wait fails.

Bounded: at most PER_GAME waits per game and TOTAL in all (one more is answered 503 with
Retry-After: the page polls meanwhile), and a wait ends when its client goes away.  A step
recorded by another program (`sheetgen track` on the same journal) is seen by reading the journal
again every RECHECK_S while waiting.
"""
from __future__ import annotations

import asyncio
from typing import Any

WAIT_S = 25.0          # below the idle timeouts of common proxies and phone browsers (30-60 s)
RECHECK_S = 5.0        # the journal read again meanwhile: a step recorded by another program
PER_GAME = 16          # a table of 4-6 phones, a tab or two each
TOTAL = 256            # in all; the server takes this many connections on top of its usual ones
RETRY_S = 5            # what a refused wait is told (Retry-After), the page polls meanwhile


class Waits:
    """The waits open in this server process, per game: futures woken with the game's new version
    (a dict like join.version's).  Used only from the event loop's thread: no lock."""

    def __init__(self, per_game: int = PER_GAME, total: int = TOTAL):
        self.per_game, self.total = per_game, total
        self.waiting: dict[int, set[asyncio.Future]] = {}
        self.count = 0

    def enter(self, gid: int) -> asyncio.Future | None:
        """A future for one more wait on game GID, or None beyond the caps."""
        mine = self.waiting.setdefault(gid, set())
        if len(mine) >= self.per_game or self.count >= self.total:
            if not mine:
                del self.waiting[gid]
            return None
        fut = asyncio.get_running_loop().create_future()
        mine.add(fut)
        self.count += 1
        return fut

    def leave(self, gid: int, fut: asyncio.Future) -> None:
        mine = self.waiting.get(gid)
        if mine is not None and fut in mine:
            mine.discard(fut)
            self.count -= 1
            if not mine:
                del self.waiting[gid]

    def again(self, gid: int, fut: asyncio.Future) -> asyncio.Future:
        """A fresh future in place of FUT (woken, yet the version is the one waited past): no cap
        checked, the place is the same."""
        self.leave(gid, fut)
        fresh = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(gid, set()).add(fresh)
        self.count += 1
        return fresh

    def watched(self, gid: int) -> bool:
        return bool(self.waiting.get(gid))

    def moved(self, gid: int, version: dict) -> None:
        """Game GID's version is now VERSION: every wait on it woken with it."""
        for fut in self.waiting.get(gid, ()):
            if not fut.done():
                fut.set_result(version)


async def gone(receive) -> None:
    """Return when the client of the request has gone away (its http.disconnect)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


async def wait(waits: Waits, gid: int, after: str, read, receive, *, wait_s: float = WAIT_S,
               recheck_s: float = RECHECK_S) -> tuple[str, Any]:
    """One long poll: ("moved", version) as soon as game GID's version is not AFTER; ("same",
    version) after WAIT_S; ("busy", None) beyond the caps; ("gone", None) when the client left.
    READ: an async function giving the game's version now (a dict with 'version')."""
    fut = waits.enter(gid)          # before the read: a step recorded meanwhile wakes it
    try:
        now = await read()
    except BaseException:
        if fut is not None:
            waits.leave(gid, fut)
        raise
    if now["version"] != after or fut is None:
        if fut is not None:
            waits.leave(gid, fut)
        return ("moved", now) if now["version"] != after else ("busy", None)
    loop = asyncio.get_running_loop()
    left_us = loop.create_task(gone(receive))
    deadline = loop.time() + wait_s
    try:
        while True:
            left = deadline - loop.time()
            if left <= 0:
                return "same", now
            done, _ = await asyncio.wait({fut, left_us}, timeout=min(left, recheck_s),
                                         return_when=asyncio.FIRST_COMPLETED)
            if left_us in done:
                return "gone", None
            if fut in done:
                now = fut.result()
                if now["version"] != after:
                    return "moved", now
                fut = waits.again(gid, fut)     # moved and back (a step undone): wait on
            else:
                now = await read()
                if now["version"] != after:
                    return "moved", now
    finally:
        left_us.cancel()
        waits.leave(gid, fut)

"""Game batches on a Dask distributed cluster (`simulate --cluster ADDRESS`, `generate --cluster ADDRESS`).

The optional extra `sheetgen[cluster]` brings dask.distributed; it is imported here, when a
command asks for a cluster, never at module level.  A batch is one call fn(*task); every
game in it is seeded by (seed, index) alone, so which worker plays it and in which order the
batches come back change nothing: the caller merges the results by addition.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from sheetgen.errors import InputError, Problem

_CLIENTS: dict = {}


def client(address: str):
    """A connected client for ADDRESS (one per address and process)."""
    got = _CLIENTS.get(address)
    if got is not None:
        return got
    try:
        from distributed import Client
    except ImportError:
        raise InputError(Problem("--cluster needs Dask distributed: pip install 'sheetgen[cluster]'",
                                 path="--cluster")) from None
    try:
        got = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise InputError(Problem(f"no Dask scheduler answers at {address}: {exc}", path="--cluster",
                                 expected="the scheduler's address, like tcp://127.0.0.1:8786")) from None
    _CLIENTS[address] = got
    return got


def map_batches(address: str, fn: Callable, tasks: Iterable[tuple],
                progress: Callable[[int, int], None] | None = None) -> list:
    """fn(*task) for every task on the cluster; the results as they arrive (merge them order-free).
    progress(done, total) after each batch."""
    from distributed import as_completed
    c = client(address)
    tasks = list(tasks)
    futures = [c.submit(fn, *t, pure=False) for t in tasks]
    out = []
    for done, fut in enumerate(as_completed(futures, loop=c.loop), 1):
        out.append(fut.result())
        if progress is not None:
            progress(done, len(tasks))
    return out


def close_all() -> None:
    """Close every client this process opened (tests, the end of a command)."""
    for c in _CLIENTS.values():
        c.close()
    _CLIENTS.clear()

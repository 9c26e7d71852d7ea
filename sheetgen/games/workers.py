"""The worker processes the simulators share (`simulate --jobs N`, `explore --jobs N`).

One place for how they start: forked where the platform can (the games' tables and maps are
there already), spawned elsewhere; and with the default SIGTERM/SIGHUP.  The command's own
handlers (sheetgen.cli: a clean SystemExit) must not run in a pool worker: the pool stops
its workers with SIGTERM, and a SystemExit raised between taking and releasing the task
queue's lock left that lock taken for good, so the other worker waited on it forever.
"""
from __future__ import annotations

import multiprocessing
import signal


def worker_pool(jobs: int):
    """A multiprocessing Pool of JOBS workers (use it as a context manager)."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return ctx.Pool(jobs, initializer=_default_signals)


def _default_signals() -> None:
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)

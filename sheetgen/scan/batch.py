"""Photos read by worker processes, each photo given to a worker that has its sheet ready.

Making a sheet ready costs about as much as reading a photo of it (its regions and template
loaded from the user cache, its page composed), so a folder of photos of several sheets read by
workers that take photos in turn makes most sheets ready in every worker.  Here a worker first
finds which sheet a photo shows (its markers and QR code: about a fifth of the photo's time); where
it does not have that sheet and another worker has, holding fewer than HOLD photos, the photo
goes to that worker (what was found goes with it; the photo is decoded there again).  Otherwise
the worker makes the sheet ready itself, and the next photos of that sheet may come to it.

The parent hands out the photos one at a time a worker (a worker given photos by others may hold
up to HOLD), keeps the finished ones until the photos before them are done, and yields them in the
photos' order: at most WINDOW photos a worker are in hand at once, so memory stays flat.  The
identities read from QR codes so far go to every worker with its next photo, so a photo whose code
does not decode is matched against the sheets the whole run has read (identify.remember), as one
process reading the folder in turn would.

What runs in a worker is given as a Job: five functions (picklable where the
system has no fork: module-level functions, or functools.partial of them)."""
from __future__ import annotations

import multiprocessing
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterator, Sequence

WINDOW = 4          # photos in hand a worker at most (handed out, or done and waiting for those before)
HOLD = 3            # a worker given a photo of its sheet by another holds at most this many


@dataclass(frozen=True)
class Job:
    """What a worker does with a photo's task.

    find(task): a finished task's report (a dict: the photo could not be found, say) or (the sheet it
    wants, what was found, what stays in this worker for finish: the decoded photo);
    finish(task, found, kept): the report, KEPT None where the photo came from another worker;
    has(wanted): whether this worker has the sheet ready; shares(found): what of a photo found every
    worker should know (the identity its QR code gave), or None; learn(shared): what another worker's
    photo shared (identify.remember)."""
    find: Callable[[Any], Any]
    finish: Callable[[Any, Any, Any], dict]
    has: Callable[[Hashable], bool]
    shares: Callable[[Any], Any]
    learn: Callable[[Any], None]


def _worker(conn, job: Job) -> None:
    """A worker's loop: ("photo" | "found", index, task, found, what other photos shared) in,
    ("whose", index, wanted, found), ("done", index, report, what it shares) or ("failed", index,
    exception, its traceback) out.  None ends it."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's: it ends the workers
    waiting: deque = deque()            # photos handed out while this worker waited for an answer
    while True:
        message = waiting.popleft() if waiting else conn.recv()
        if message is None:
            return
        kind, index, task, found, shared = message
        for what in shared:
            job.learn(what)
        try:
            kept = None
            if kind == "photo":
                step = job.find(task)
                if isinstance(step, dict):
                    conn.send(("done", index, step, None))
                    continue
                wanted, found, kept = step
                if wanted is not None and not job.has(wanted):
                    conn.send(("whose", index, wanted, found))
                    answer = conn.recv()
                    while answer not in ("make", "passed", None):
                        waiting.append(answer)
                        answer = conn.recv()
                    if answer is None:
                        return
                    if answer == "passed":
                        continue
            report = job.finish(task, found, kept)
            conn.send(("done", index, report, job.shares(found)))
        except BaseException as exc:    # noqa: BLE001 - said to the parent, which raises it (exit 3)
            import traceback
            text = "".join(traceback.format_exception(exc))
            try:
                conn.send(("failed", index, exc, text))
            except Exception:           # noqa: BLE001 - not picklable: said as text
                conn.send(("failed", index, RuntimeError(f"{type(exc).__name__}: {exc}"), text))
            if not isinstance(exc, Exception):
                return


@dataclass
class _Worker:
    process: Any
    conn: Any
    held: set = field(default_factory=set)       # indices of the photos it has been given, not done
    sheets: set = field(default_factory=set)     # what it has made ready (Job.find's wanted)
    told: int = 0                                # of shared, sent to it so far


def read_in_workers(jobs: int, tasks: Sequence, job: Job) -> Iterator[tuple[Any, dict]]:
    """(task, its report) for each of TASKS, read by JOBS worker processes, in the tasks' order.  An
    exception raised in a worker (a bug: not a photo's problems, which are its report) is raised here
    when its photo's turn comes, after the reports before it, with the worker's traceback as its
    cause; a worker that dies fails the photos it held so."""
    import time
    methods = multiprocessing.get_all_start_methods()
    # fork where there is one: a worker starts with the modules already imported
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    workers: list[_Worker] = []
    finished = False
    try:
        for _ in range(jobs):
            parent_end, child_end = context.Pipe()
            process = context.Process(target=_worker, args=(child_end, job), daemon=True)
            process.start()
            child_end.close()
            workers.append(_Worker(process, parent_end))
        yield from _run(list(workers), tasks)
        finished = True
    finally:
        # every photo reported: the workers are idle and end at once; otherwise (an error, Ctrl-C, the
        # caller stopping early) what they are reading is no longer wanted: ended where they are (a
        # photo's outputs are written whole or not at all: sheetgen.atomic)
        deadline = time.monotonic() + 5.0
        for w in workers:
            if finished:
                try:
                    w.conn.send(None)
                except OSError:
                    pass
            else:
                w.process.terminate()
        for w in workers:
            w.process.join(timeout=max(0.0, deadline - time.monotonic()))
            if w.process.is_alive():
                w.process.terminate()
                w.process.join()
            w.conn.close()


class _Failed:
    """What a photo's turn raises: an exception in the worker that read it, or the worker's death."""

    def __init__(self, exc: BaseException):
        self.exc = exc


class _RemoteTraceback(Exception):
    """The worker's traceback, as the cause of the exception raised for it (as concurrent.futures does)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def _run(workers: list[_Worker], tasks: Sequence) -> Iterator[tuple[Any, dict]]:
    from multiprocessing.connection import wait
    shared: list = []                    # what photos shared (Job.shares), in the order it came
    done: dict[int, Any] = {}
    given = shown = 0

    def lost(w: _Worker) -> None:
        """W died: the photos it held fail at their turn; the others go on without it."""
        w.process.join(timeout=0.1)
        failed = _Failed(RuntimeError(f"a scan worker process stopped unexpectedly (exit code "
                                      f"{w.process.exitcode})"))
        for index in w.held:
            done[index] = failed
        w.held.clear()
        if w in workers:
            workers.remove(w)

    def send(w: _Worker, message) -> bool:
        try:
            w.conn.send(message)
            return True
        except OSError:                 # the worker is gone (its end of the pipe closed)
            lost(w)
            return False

    def give(w: _Worker, kind: str, index: int, found=None) -> None:
        w.held.add(index)
        if send(w, (kind, index, tasks[index], found, shared[w.told:])):
            w.told = len(shared)

    while shown < len(tasks):
        for w in sorted(workers, key=lambda w: len(w.held)):
            if not w.held and given < len(tasks) and given - shown < WINDOW * max(1, len(workers)):
                give(w, "photo", given)
                given += 1
        if not workers:                 # every worker died: the photos not yet given fail too
            while given < len(tasks):
                done[given] = _Failed(RuntimeError("no scan worker process left to read the photo"))
                given += 1
        else:
            by_conn = {w.conn: w for w in workers}
            for conn in wait(list(by_conn)):
                w = by_conn[conn]
                if w not in workers:
                    continue            # lost while this round's messages were read
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    lost(w)
                    continue
                kind, index = message[0], message[1]
                if kind == "whose":
                    wanted, found = message[2], message[3]
                    others = [v for v in workers if v is not w and wanted in v.sheets and len(v.held) < HOLD]
                    if others:
                        if send(w, "passed"):
                            w.held.discard(index)
                            give(min(others, key=lambda v: len(v.held)), "found", index, found)
                    else:
                        w.sheets.add(wanted)
                        send(w, "make")
                elif kind == "done":
                    w.held.discard(index)
                    done[index] = message[2]
                    if message[3] is not None and message[3] not in shared:
                        shared.append(message[3])
                else:                   # "failed": raised at the photo's turn
                    w.held.discard(index)
                    exc = message[2]
                    exc.__cause__ = _RemoteTraceback(message[3])
                    done[index] = _Failed(exc)
        while shown in done:
            report = done.pop(shown)
            if isinstance(report, _Failed):
                raise report.exc
            yield tasks[shown], report
            shown += 1

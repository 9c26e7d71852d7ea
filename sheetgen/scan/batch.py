"""Photos read by worker processes, each photo given to a worker that has its sheet ready.

Making a sheet ready costs about as much as reading a photo of it (its regions and template
loaded from the user cache, its page composed), so a folder of photos of several sheets read by
workers that take photos in turn makes most sheets ready in every worker.  Here a worker first
finds which sheet a photo shows (its markers and QR code: a tenth of the photo's time); where it
does not have that sheet and another worker has, with no more than one photo waiting, the photo
goes to that worker (what was found goes with it; the photo is decoded there again).  Otherwise
the worker makes the sheet ready itself, and the next photos of that sheet may come to it.

The parent hands out the photos one at a time a worker (a worker given a photo by another may
hold two), keeps the finished ones until the photos before them are done, and yields them in the
photos' order: at most WINDOW photos a worker are in hand at once, so memory stays flat.  The
identities read from QR codes so far go to every worker with its next photo, so a photo whose code
does not decode is matched against the sheets the whole run has read (identify.remember), as one
process reading the folder in turn would.

What runs in a worker is given as a Job: three functions of the photos' task (picklable where the
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
    has(wanted): whether this worker has the sheet ready; learn(identity): an identity another worker
    read (identify.remember)."""
    find: Callable[[Any], Any]
    finish: Callable[[Any, Any, Any], dict]
    has: Callable[[Hashable], bool]
    learn: Callable[[Any], None]


def _worker(conn, job: Job) -> None:
    """A worker's loop: ("photo" | "found", index, task, found, identities read elsewhere) in,
    ("whose", index, wanted, found), ("done", index, report, identity read) or ("failed", index,
    exception) out.  None ends it."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's: it ends the workers
    waiting: deque = deque()            # photos handed out while this worker waited for an answer
    while True:
        message = waiting.popleft() if waiting else conn.recv()
        if message is None:
            return
        kind, index, task, found, identities = message
        for identity in identities:
            job.learn(identity)
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
            read_by_code = getattr(found, "identity_from", None) == "QR code"
            conn.send(("done", index, report, found.identity if read_by_code else None))
        except BaseException as exc:    # noqa: BLE001 - said to the parent, which raises it (exit 3)
            try:
                conn.send(("failed", index, exc))
            except Exception:           # noqa: BLE001 - not picklable: said as text
                conn.send(("failed", index, RuntimeError(f"{type(exc).__name__}: {exc}")))
            if not isinstance(exc, Exception):
                return


@dataclass
class _Worker:
    process: Any
    conn: Any
    held: set = field(default_factory=set)       # indices of the photos it has been given, not done
    sheets: set = field(default_factory=set)     # what it has made ready (Job.find's wanted)
    told: int = 0                                # identities sent to it so far


def read_in_workers(jobs: int, tasks: Sequence, job: Job) -> Iterator[tuple[Any, dict]]:
    """(task, its report) for each of TASKS, read by JOBS worker processes, in the tasks' order."""
    methods = multiprocessing.get_all_start_methods()
    # fork where there is one: a worker starts with the modules already imported
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    workers: list[_Worker] = []
    try:
        for _ in range(jobs):
            parent_end, child_end = context.Pipe()
            process = context.Process(target=_worker, args=(child_end, job), daemon=True)
            process.start()
            child_end.close()
            workers.append(_Worker(process, parent_end))
        yield from _run(workers, tasks)
    finally:
        for w in workers:
            try:
                w.conn.send(None)
            except OSError:
                pass
        for w in workers:
            w.process.join(timeout=5)
            if w.process.is_alive():
                w.process.terminate()
                w.process.join()
            w.conn.close()


def _run(workers: list[_Worker], tasks: Sequence) -> Iterator[tuple[Any, dict]]:
    from multiprocessing.connection import wait
    by_conn = {w.conn: w for w in workers}
    identities: list = []
    done: dict[int, dict] = {}
    given = shown = 0

    def give(w: _Worker, kind: str, index: int, found=None) -> None:
        w.conn.send((kind, index, tasks[index], found, identities[w.told:]))
        w.told = len(identities)
        w.held.add(index)

    while shown < len(tasks):
        for w in sorted(workers, key=lambda w: len(w.held)):
            if not w.held and given < len(tasks) and given - shown < WINDOW * len(workers):
                give(w, "photo", given)
                given += 1
        for conn in wait(list(by_conn)):
            w = by_conn[conn]
            try:
                message = conn.recv()
            except EOFError:
                code = w.process.exitcode
                raise RuntimeError(f"a scan worker process stopped unexpectedly (exit code {code})") from None
            kind, index = message[0], message[1]
            if kind == "whose":
                wanted, found = message[2], message[3]
                others = [v for v in workers if v is not w and wanted in v.sheets and len(v.held) < HOLD]
                if others:
                    conn.send("passed")
                    w.held.discard(index)
                    give(min(others, key=lambda v: len(v.held)), "found", index, found)
                else:
                    w.sheets.add(wanted)
                    conn.send("make")
            elif kind == "done":
                w.held.discard(index)
                done[index] = message[2]
                if message[3] is not None and message[3] not in identities:
                    identities.append(message[3])
            else:
                raise message[2]
        while shown in done:
            yield tasks[shown], done.pop(shown)
            shown += 1

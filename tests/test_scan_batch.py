"""scan.batch: photos read by worker processes, each given to a worker that has its sheet ready,
reported in the photos' order.  The Job here stands for the scanner: a "sheet" is made ready
once per process (the set _ready), a photo takes DELAY seconds to read."""
from __future__ import annotations

import os
import time
from types import SimpleNamespace

import pytest

from sheetgen.scan.batch import Job, read_in_workers

_ready: set = set()         # this process's sheets made ready
_learned: set = set()       # identities another worker read, given to this one


def _find(task):
    index, sheet, _ = task
    if sheet is None:
        return {"index": index, "problems": ["no sheet found"]}
    if sheet == "wait B":           # found a little later: its sheet B is made ready by then
        time.sleep(0.15)
        sheet = "B"
    return sheet.rstrip("!"), SimpleNamespace(identity=f"id-{sheet}"), f"decoded {index}"


def _finish(task, found, kept):
    index, sheet, delay = task
    if sheet == "bug":
        raise ValueError("a bug in reading")
    if sheet == "killed":
        os._exit(9)
    made = sheet not in _ready
    _ready.add(sheet.rstrip("!"))
    time.sleep(delay)
    if sheet.endswith("!"):          # dies once its sheet is ready (after DELAY)
        os._exit(9)
    return {"index": index, "pid": os.getpid(), "made": made, "decoded here": kept is not None,
            "learned": sorted(_learned)}


JOB = Job(find=_find, finish=_finish, has=lambda sheet: sheet in _ready, shares=lambda found: found.identity,
          learn=_learned.add)


def _run(tasks, jobs=2):
    return [(task[0], report) for task, report in read_in_workers(jobs, [(i, *t) for i, t in enumerate(tasks)], JOB)]


def test_photos_of_one_sheet_go_to_the_worker_that_made_it_ready():
    # whichever worker asks first makes the sheet ready; the other's photos are handed to it,
    # what was found with them (the photo decoded again there), whatever the timing
    out = _run([("A", 0.3), ("A", 0.0), ("A", 0.0)])
    reports = [r for _, r in out]
    assert [i for i, _ in out] == [0, 1, 2]
    assert sum(r["made"] for r in reports) == 1
    assert len({r["pid"] for r in reports}) == 1
    assert reports[0]["decoded here"]


def test_reports_come_in_the_photos_order():
    out = _run([("A", 0.4), ("B", 0.0), ("B", 0.0), ("A", 0.0), (None, 0.0), ("C", 0.1)])
    assert [i for i, _ in out] == [0, 1, 2, 3, 4, 5]
    assert out[4][1] == {"index": 4, "problems": ["no sheet found"]}
    assert {r["index"] for _, r in out} == set(range(6))


def test_an_identity_one_worker_read_reaches_the_other():
    # A read by the first worker while the second reads B: the second's next photo (B, handed to
    # it as the worker with B ready) comes with A's identity
    out = _run([("A", 0.0), ("B", 1.0), ("B", 0.0)])
    assert "id-A" in out[2][1]["learned"]


def _until_raised(tasks, jobs=2):
    """The indices reported before the run raised, and what it raised."""
    shown = []
    with pytest.raises(BaseException) as raised:
        for task, _ in read_in_workers(jobs, [(i, *t) for i, t in enumerate(tasks)], JOB):
            shown.append(task[0])
    return shown, raised.value


def test_a_bug_in_a_worker_is_raised_at_its_photos_turn_with_the_workers_traceback():
    # the photo before it takes longer: it is reported first, as one process reading in turn would
    shown, exc = _until_raised([("A", 0.4), ("bug", 0.0), ("A", 0.0)])
    assert shown == [0]
    assert isinstance(exc, ValueError) and "a bug in reading" in str(exc)
    assert "_finish" in str(exc.__cause__)          # where in the worker it was raised


def test_a_worker_that_dies_fails_its_photo_with_a_clear_error():
    shown, exc = _until_raised([("A", 0.4), ("killed", 0.0), ("A", 0.0)])
    assert shown == [0]
    assert isinstance(exc, RuntimeError) and "stopped unexpectedly (exit code 9)" in str(exc)


def test_a_photo_handed_to_a_worker_that_died_fails_at_its_turn():
    # three workers: the third makes B ready, then dies reading its photo; the second's photo of B
    # is handed to it (its sheet) after it died, or while it dies: that photo fails, not the run's
    # sending to a closed pipe
    shown, exc = _until_raised([("A", 0.2), ("wait B", 0.0), ("B!", 0.3)], jobs=3)
    assert 0 in shown
    assert isinstance(exc, RuntimeError) and "stopped unexpectedly" in str(exc)


def test_one_worker_reads_every_photo_in_turn():
    out = _run([("A", 0.0), ("B", 0.0), ("A", 0.0)], jobs=1)
    assert [i for i, _ in out] == [0, 1, 2]
    assert [r["made"] for _, r in out] == [True, True, False]

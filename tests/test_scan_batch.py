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
    return sheet, SimpleNamespace(identity=f"id-{sheet}", identity_from="QR code"), f"decoded {index}"


def _finish(task, found, kept):
    index, sheet, delay = task
    if sheet == "bug":
        raise ValueError("a bug in reading")
    if sheet == "killed":
        os._exit(9)
    made = sheet not in _ready
    _ready.add(sheet)
    time.sleep(delay)
    return {"index": index, "pid": os.getpid(), "made": made, "decoded here": kept is not None,
            "learned": sorted(_learned)}


JOB = Job(find=_find, finish=_finish, has=lambda sheet: sheet in _ready, learn=_learned.add)


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


def test_a_bug_in_a_worker_is_raised_in_the_run():
    with pytest.raises(ValueError, match="a bug in reading"):
        _run([("A", 0.0), ("bug", 0.0), ("A", 0.0)])


def test_a_worker_that_dies_stops_the_run_with_a_clear_error():
    with pytest.raises(RuntimeError, match="stopped unexpectedly"):
        _run([("killed", 0.0), ("A", 0.0)])


def test_one_worker_reads_every_photo_in_turn():
    out = _run([("A", 0.0), ("B", 0.0), ("A", 0.0)], jobs=1)
    assert [i for i, _ in out] == [0, 1, 2]
    assert [r["made"] for _, r in out] == [True, True, False]

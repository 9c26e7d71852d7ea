"""A full disk under `track` (issue 29, item 4).

On a full disk (seen on a 512 KB tmpfs) SQLite cannot open a WAL journal even to read:
every connection but an immutable one fails growing the -shm index
(SQLITE_IOERR_SHMSIZE, "disk I/O error").  The commands that only read open the
journal read-only then, as immutable when no step waits in its WAL, so `track status`
and `track export -o ELSEWHERE` still work; a write says "the disk is full" with the
journal's path (exit 2).  The disk is simulated by fault injection (a connection whose
first statement fails as SQLite's did, and statvfs saying no space is left): CI runs
as root without mounts.
"""
from __future__ import annotations

import errno
import pathlib
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from sheetgen import atomic
from sheetgen.cli import main
from sheetgen.errors import InputError
from sheetgen.limits import shown
from sheetgen.tracker import journal as journal_module

HALL = Path(__file__).parent / "data" / "foury_maps" / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"
SQLITE_IOERR_SHMSIZE, SQLITE_FULL = 4874, 13


def track(path, *args):
    result = CliRunner().invoke(main, ["track", *map(str, args), "--journal", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture
def played(tmp_path) -> Path:
    """A journal with one game of two steps."""
    path = tmp_path / "disk" / "journal.sqlite"
    for args in (["new", "--map", HALL, "--traits", TRAITS], ["enter", "C1:N"], ["move", "C1", "--roll", "2"]):
        assert track(path, *args).exit_code == 0
    return path


def _failing(code: int, message: str, when=lambda sql: True) -> type:
    class Failing(sqlite3.Connection):
        def execute(self, sql, *args):            # type: ignore[override]
            if when(sql):
                exc = sqlite3.OperationalError(message)
                exc.sqlite_errorcode = code       # type: ignore[attr-defined]
                raise exc
            return super().execute(sql, *args)
    return Failing


@pytest.fixture
def full_disk(monkeypatch):
    """Call it to fill the disk: any connection but an immutable one fails on its first
    statement as SQLite did on the full tmpfs, and statvfs finds no space left."""
    real = sqlite3.connect

    def connect(target, *args, **kwargs):
        if "immutable=1" not in str(target):
            kwargs["factory"] = _failing(SQLITE_IOERR_SHMSIZE, "disk I/O error")
        return real(target, *args, **kwargs)

    def fill() -> None:
        monkeypatch.setattr(journal_module.sqlite3, "connect", connect)
        monkeypatch.setattr(journal_module.os, "statvfs", lambda path: SimpleNamespace(f_bavail=0, f_frsize=4096))
    return fill


def test_status_games_and_export_elsewhere_work_on_a_full_disk(played, full_disk, tmp_path):
    before = tmp_path / "another-disk" / "before.yaml"
    assert track(played, "export", "-o", before).exit_code == 0
    full_disk()
    status = track(played, "status")
    assert status.exit_code == 0 and "game 1, 2 step(s)" in status.output, status.output
    assert track(played, "games").exit_code == 0
    elsewhere = tmp_path / "another-disk" / "game.yaml"
    result = track(played, "export", "-o", elsewhere)
    assert result.exit_code == 0, result.output
    assert elsewhere.read_text(encoding="utf-8") == before.read_text(encoding="utf-8")


def test_a_step_on_a_full_disk_says_the_disk_is_full(played, full_disk, monkeypatch):
    full_disk()
    result = track(played, "move", "C2", "--roll", "4")
    assert result.exit_code == 2, result.output
    assert "the disk is full" in result.output and shown(str(played)) in result.output
    assert "input/output error" not in result.output
    monkeypatch.undo()                  # space again: nothing was recorded
    assert "game 1, 2 step(s)" in track(played, "status").output


def test_sqlite_full_on_a_write_says_the_disk_is_full(played, monkeypatch):
    real = sqlite3.connect

    def connect(target, *args, **kwargs):
        kwargs["factory"] = _failing(SQLITE_FULL, "database or disk is full", lambda sql: sql.startswith("INSERT"))
        return real(target, *args, **kwargs)
    monkeypatch.setattr(journal_module.sqlite3, "connect", connect)
    result = track(played, "move", "C2", "--roll", "4")
    assert result.exit_code == 2 and "the disk is full" in result.output and shown(str(played)) in result.output
    assert "nothing was recorded" in result.output
    monkeypatch.undo()
    assert "game 1, 2 step(s)" in track(played, "status").output


def test_a_step_waiting_in_the_wal_is_never_read_past(played, full_disk):
    """Immutable reads the file alone: with a step still in the WAL (another process holds the
    journal open), a full disk is an error, not a game one step short."""
    keeper = sqlite3.connect(played)
    try:
        keeper.execute("SELECT count(*) FROM steps").fetchone()
        assert track(played, "move", "C2", "--roll", "4").exit_code == 0
        assert Path(str(played) + "-wal").stat().st_size > 0
        assert "game 1, 3 step(s)" in track(played, "status").output        # with space: all three
        full_disk()
        result = track(played, "status")
        assert result.exit_code == 2 and "the disk is full" in result.output, result.output
        assert "write-ahead log" in result.output
    finally:
        keeper.close()


def test_an_output_the_disk_has_no_room_for_names_its_path(tmp_path, monkeypatch):
    target = tmp_path / "game.yaml"
    target.write_text("the earlier export")
    real = pathlib.Path.write_bytes

    def no_room(self, data):
        if self.name.endswith(".part"):
            raise OSError(errno.ENOSPC, "No space left on device")     # a write names no file
        return real(self, data)
    monkeypatch.setattr(pathlib.Path, "write_bytes", no_room)
    with pytest.raises(InputError) as info:
        atomic.write_text(target, "the new export")
    assert "the disk is full" in str(info.value) and str(target) in str(info.value)
    assert [p.name for p in tmp_path.iterdir()] == ["game.yaml"]
    assert target.read_text() == "the earlier export"

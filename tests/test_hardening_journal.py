"""The journal's error paths: a clear error (exit 2) that says what to do (issue 16).

A damaged journal is found at open (PRAGMA quick_check) and never half-read; a
read-only journal still opens for status and export; a lock held past the
timeout, a path under a regular file, a folder or a device where the journal
goes, a database that is not a journal, a row changed outside sheetgen: each is
a message, never a traceback, with every command.
"""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.tracker import journal as journal_module

HALL = Path(__file__).parent / "data" / "foury_maps" / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"
READING = [["status"], ["games"], ["export"]]
WRITING = [["undo"], ["step", "{move: C2, roll: 4}"], ["use", "1"], ["new", "--map", str(HALL), "--traits", TRAITS]]


def track(path, *args):
    result = CliRunner().invoke(main, ["track", *map(str, args), "--journal", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output and result.exit_code in (0, 1, 2), result.output
    return result


@pytest.fixture
def played(tmp_path) -> Path:
    """A journal with one game of two steps."""
    path = tmp_path / "journal.sqlite"
    for args in (["new", "--map", HALL, "--traits", TRAITS], ["enter", "C1:N"], ["move", "C1", "--roll", "2"]):
        assert track(path, *args).exit_code == 0
    return path


def _pages(path: Path) -> list[int]:
    """The numbers of the b-tree leaf pages (where the rows are) of an SQLite file."""
    data = path.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    return [n for n in range(1, len(data) // size) if data[n * size] == 0x0D]


def _variants(src: Path) -> dict[str, bytes]:
    data = src.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    out = {
        "header-zeroed": b"\0" * 100 + data[100:],
        "not-a-database": b"these are not the pages you are looking for\n" * 20,
        "truncated-to-half": data[: len(data) // 2],
        "second-page-garbage": data[:size] + bytes((i * 37) % 256 for i in range(size)) + data[2 * size:],
    }
    for n in _pages(src):
        page = bytearray(data)
        page[n * size + 8: n * size + 12] = b"\xff\xff\xff\xff"       # its cell pointers point outside it
        out[f"leaf-page-{n}-pointers"] = bytes(page)
        page = bytearray(data)
        page[n * size: (n + 1) * size] = b"\0" * size
        out[f"leaf-page-{n}-zeroed"] = bytes(page)
    return out


def test_every_command_on_every_damaged_journal_is_a_clean_error(played, tmp_path):
    variants = _variants(played)
    assert len(variants) >= 10
    for name, content in variants.items():
        for args in READING + WRITING:
            copy = tmp_path / f"{name}.sqlite"
            copy.write_bytes(content)
            result = track(copy, *args)
            assert result.exit_code == 2, (name, args, result.output)
            assert "the journal is damaged" in result.output and "nothing was read from it" in result.output
            assert ".recover" in result.output and "--journal NEW.sqlite" in result.output
            assert copy.read_bytes() == content, (name, args)          # refused whole: nothing written


def test_the_damage_is_named_by_sqlites_own_check(played, tmp_path):
    [first_leaf, *_] = _pages(played)
    copy = tmp_path / "damaged.sqlite"
    copy.write_bytes(_variants(played)[f"leaf-page-{first_leaf}-pointers"])
    result = track(copy, "status")
    # SQLite's own words: its check's findings, or (when it cannot even run the check) its error
    assert re.search(r"the journal is damaged \((PRAGMA quick_check: On tree page \d+|database disk image is "
                     r"malformed)", result.output), result.output
    text = tmp_path / "text.sqlite"
    text.write_bytes(b"not sqlite" * 100)
    assert "the journal is damaged (it is not an SQLite database)" in track(text, "status").output


def test_rows_changed_outside_sheetgen_are_named(played):
    db = sqlite3.connect(played)
    db.execute("UPDATE steps SET step = 'not json' WHERE seq = 2")
    db.commit()
    db.close()
    for args in (["status"], ["export"], ["step", "{move: C2, roll: 4}"]):
        result = track(played, *args)
        assert result.exit_code == 2
        assert "step 2 of game 1 is not readable JSON: the journal was changed outside sheetgen" in result.output


def test_a_database_that_is_not_a_journal_is_left_alone(tmp_path):
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = other.read_bytes()
    for args in READING + WRITING:
        result = track(other, *args)
        assert result.exit_code == 2 and "is an SQLite database but not a sheetgen journal" in result.output
    assert other.read_bytes() == before


def _make_read_only(path: Path, monkeypatch) -> callable:
    """Make path read-only for this process: chmod for a user, the immutable flag for root
    (root writes through modes); where neither can be set, sheetgen is told it cannot write."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return lambda: path.chmod(0o644)
    chattr = shutil.which("chattr")
    if chattr and subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode == 0:
        return lambda: subprocess.run([chattr, "-i", str(path)], capture_output=True)
    real = os.access
    monkeypatch.setattr(journal_module.os, "access",
                        lambda p, mode: False if Path(p) == path and mode & os.W_OK else real(p, mode))
    return lambda: None


def test_a_read_only_journal_opens_for_status_and_export(played, monkeypatch):
    before = track(played, "export").output
    undo = _make_read_only(played, monkeypatch)
    try:
        assert track(played, "status").output.startswith("game 1, 2 step(s)")
        assert track(played, "export").output == before
        assert "1  foury" in track(played, "games").output
        for args in WRITING:
            result = track(played, *args)
            assert result.exit_code == 2, (args, result.output)
            assert "the journal is read-only, so nothing can be recorded" in result.output
            assert "`track status` and `track export` still work" in result.output
    finally:
        undo()
    assert track(played, "step", "{move: C2, roll: 4}").exit_code == 0     # writable again: it records


def test_a_lock_held_past_the_timeout_names_the_other_writer(played, monkeypatch):
    monkeypatch.setattr(journal_module, "LOCK_TIMEOUT_S", 0.2)
    holder = sqlite3.connect(played, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")                   # another process writing, and slow about it
    try:
        assert track(played, "status").exit_code == 0   # reading never waits for a writer
        for args in WRITING[:3]:
            result = track(played, *args)
            assert result.exit_code == 2, (args, result.output)
            assert "another sheetgen is writing this journal and held it for more than 0.2 s" in result.output
            assert "wait for it to finish (or stop it) and try again" in result.output
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert track(played, "undo").exit_code == 0


@pytest.mark.parametrize("where, expected", [
    ("a-file/journal.sqlite", "part of the journal's path is a file, not a folder"),
    ("a-file/deeper/journal.sqlite", "part of the journal's path is a file, not a folder"),
    ("a-folder", "is a directory"),                     # click's own check of --journal
    ("/dev/null", "is not a regular file (a device, FIFO or socket), so it cannot be a journal"),
    ("j" * 300, "--journal: file name too long"),
])
def test_paths_that_cannot_be_a_journal(tmp_path, where, expected):
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "a-folder").mkdir()
    path = where if where.startswith("/") else tmp_path / where
    for args in READING + WRITING:
        result = CliRunner().invoke(main, ["track", *map(str, args), "--journal", str(path)])
        assert result.exit_code == 2 and expected in result.output, (args, result.output)
    assert (tmp_path / "a-file").read_text() == "x"

"""Output is all or nothing (sheetgen.atomic.Staging, issue 16).

A build either replaces every file it writes or none: each destination is
checked before the first rename, a rename that fails partway puts the old files
back, and a failure the roll-back cannot undo names exactly the files that
changed.  Part files carry their owner's host and pid, so the next build into a
folder removes the ones a killed build left (and never a live build's); SIGTERM
removes them on the way out.  Builds killed mid-way (SIGKILL, SIGTERM) leave the
old outputs intact.
"""
from __future__ import annotations

import errno
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen import atomic
from sheetgen.atomic import Staging, is_owned_part, remove_stale_parts
from sheetgen.cli import main
from sheetgen.errors import InputError

ROOT = Path(__file__).resolve().parent.parent


def build(*args):
    result = CliRunner().invoke(main, ["build", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith(".part")}


def parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


@pytest.fixture
def built(tmp_path):
    """An output folder holding a complete build of two sheets (seed 1)."""
    out = tmp_path / "out"
    assert build("graph-20x28", "hex-sheet", "-o", out, "--format", "pdf,svg").exit_code == 0
    return out


def test_a_folder_where_the_pdf_goes_changes_nothing(built):
    before = digests(built)
    (built / "hex-sheet.pdf").unlink()
    (built / "hex-sheet.pdf").mkdir()                  # the case: a folder where the PDF goes
    before.pop("hex-sheet.pdf")
    result = build("graph-20x28", "hex-sheet", "-o", built, "--format", "pdf,svg", "--seed", "2")
    assert result.exit_code == 2
    assert "hex-sheet.pdf: cannot write the output: a folder is in the way; nothing was written" in result.output
    assert digests(built) == before                    # the other sheet's files were not replaced either
    assert parts(built) == []


def test_a_rename_that_fails_partway_puts_the_old_files_back(built, monkeypatch):
    before = digests(built)
    real_replace = os.replace
    calls = []

    def failing_third(src, dst, *a, **kw):
        if str(src).endswith(".part") and not str(src).endswith(".old.part"):
            calls.append(dst)
            if len(calls) == 3:
                raise OSError(errno.EIO, "Input/output error", str(dst))
        return real_replace(src, dst, *a, **kw)
    monkeypatch.setattr(atomic.os, "replace", failing_third)
    result = build("graph-20x28", "hex-sheet", "-o", built, "--format", "pdf,svg", "--seed", "2")
    assert len(calls) == 3                             # two files were renamed before the failure
    assert result.exit_code == 2
    assert "cannot write the output: Input/output error; nothing was written (every file is as it was)" \
        in result.output
    assert digests(built) == before                    # the two renamed files are the old ones again
    assert parts(built) == []
    monkeypatch.undo()
    # and the same build then goes through, replacing every file
    assert build("graph-20x28", "hex-sheet", "-o", built, "--format", "pdf,svg", "--seed", "2").exit_code == 0
    after = digests(built)
    assert set(after) == set(before) and all(after[n] != before[n] for n in after)


def test_a_failure_the_roll_back_cannot_undo_names_the_files_that_changed(built, monkeypatch):
    real_replace = os.replace
    renamed = []

    def fail_after_two(src, dst, *a, **kw):
        if str(src).endswith(".old.part"):
            raise OSError(errno.EIO, "Input/output error", str(dst))      # the roll-back fails too
        if str(src).endswith(".part"):
            if len(renamed) == 2:
                raise OSError(errno.ENOSPC, "No space left on device", str(dst))
            renamed.append(Path(dst))
        return real_replace(src, dst, *a, **kw)
    monkeypatch.setattr(atomic.os, "replace", fail_after_two)
    result = build("graph-20x28", "hex-sheet", "-o", built, "--format", "pdf,svg", "--seed", "2")
    assert result.exit_code == 2
    message = result.output
    assert "these files were replaced and could not be put back:" in message
    for path in renamed:
        assert str(path) in message
    assert "nothing was written" not in message


def test_a_new_file_is_removed_again_when_the_set_fails(tmp_path, monkeypatch):
    """A target that did not exist before is deleted by the roll-back (not left half a set)."""
    out = tmp_path / "out"
    real_replace = os.replace
    seen = []

    def fail_second(src, dst, *a, **kw):
        seen.append(dst)
        if len(seen) == 2:
            raise OSError(errno.EIO, "Input/output error", str(dst))
        return real_replace(src, dst, *a, **kw)
    monkeypatch.setattr(atomic.os, "replace", fail_second)
    result = build("graph-20x28", "-o", out, "--format", "pdf,svg")
    assert result.exit_code == 2 and "nothing was written" in result.output
    assert list(out.iterdir()) == []


def test_staging_writes_all_or_none_directly(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("old a")
    with Staging() as staging:
        staging.add(a).write_text("new a")
        staging.add(b).write_text("new b")
        assert a.read_text() == "old a" and not b.exists()      # nothing visible before the commit
    assert (a.read_text(), b.read_text()) == ("new a", "new b")
    with pytest.raises(RuntimeError):
        with Staging() as staging:
            staging.add(a).write_text("newer a")
            raise RuntimeError("drawing failed")
    assert a.read_text() == "new a" and parts(tmp_path) == []
    (tmp_path / "c.txt").mkdir()
    with pytest.raises(InputError, match="a folder is in the way; nothing was written"):
        with Staging() as staging:
            staging.add(a).write_text("newest a")
            staging.add(tmp_path / "c.txt").write_text("c")
    assert a.read_text() == "new a" and parts(tmp_path) == []


def test_single_files_are_staged_too(tmp_path):
    """write_text (table -o, track export -o, schema -o, simulate --logs) refuses a folder in the
    way with a clean error, and leaves the old file when writing fails."""
    (tmp_path / "log.yaml").mkdir()
    with pytest.raises(InputError, match="log.yaml: cannot write the output: a folder is in the way"):
        atomic.write_text(tmp_path / "log.yaml", "x")
    atomic.write_text(tmp_path / "t.yaml", "old")
    with pytest.raises(InputError, match="file name too long"):
        atomic.write_text(tmp_path / ("t" * 300 + ".yaml"), "new")
    assert (tmp_path / "t.yaml").read_text() == "old" and parts(tmp_path) == []


# -- part files and who owns them -----------------------------------------------------------------


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_parts_of_dead_processes_are_removed_and_live_ones_kept(tmp_path):
    host = atomic._host()
    dead = tmp_path / f".x.pdf.sheetgen-{host}-{_dead_pid()}-abcd1234.part"
    dead_old = tmp_path / f".x.pdf.sheetgen-{host}-{_dead_pid()}-abcd1234.old.part"
    live = tmp_path / f".y.pdf.sheetgen-{host}-{os.getppid()}-abcd1234.part"
    foreign_new = tmp_path / ".z.pdf.sheetgen-ffffff-1-abcd1234.part"
    foreign_old = tmp_path / ".w.pdf.sheetgen-eeeeee-1-abcd1234.part"
    not_ours = tmp_path / ".notes.part"
    for p in (dead, dead_old, live, foreign_new, foreign_old, not_ours):
        p.write_text("x")
    day_ago = time.time() - atomic.FOREIGN_PART_AGE_S - 60
    os.utime(foreign_old, (day_ago, day_ago))
    removed = remove_stale_parts(tmp_path)
    assert sorted(p.name for p in removed) == sorted([dead.name, dead_old.name, foreign_old.name])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, foreign_new.name, not_ours.name])
    assert is_owned_part(live.name) and not is_owned_part(not_ours.name)


def test_a_build_removes_the_parts_a_killed_build_left(built):
    stale = built / f".graph-20x28.pdf.sheetgen-{atomic._host()}-{_dead_pid()}-zzzzzzzz.part"
    stale.write_bytes(b"%PDF half")
    assert build("graph-20x28", "-o", built, "--format", "svg").exit_code == 0
    assert parts(built) == []


def test_part_names_fit_the_name_limit_for_long_targets(tmp_path):
    target = tmp_path / ("n" * 250 + ".svg")
    with Staging() as staging:
        tmp = staging.add(target)
        assert len(os.fsencode(tmp.name)) <= 255 and is_owned_part(tmp.name)
        tmp.write_text("<svg/>")
    assert target.read_text() == "<svg/>"


# -- builds killed mid-way ---------------------------------------------------------------------------


def _start_paused_build(out: Path, *extra: str) -> subprocess.Popen:
    env = dict(os.environ, SHEETGEN_TEST_PAUSE_BEFORE_RENAME="30", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "sheetgen", "build", "graph-20x28", "hex-sheet", "-o", str(out),
                             "--format", "pdf,svg", "--seed", "9", *extra], env=env, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True)
    line = proc.stderr.readline()                      # every part is written; no rename yet
    assert "pausing before renaming" in line, line
    return proc


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_build_killed_mid_way_leaves_the_old_outputs(built, sig):
    before = digests(built)
    proc = _start_paused_build(built)
    try:
        assert len(parts(built)) == len(before)        # one part per output, written and waiting
        proc.send_signal(sig)
        code = proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert digests(built) == before                    # old outputs intact, none replaced
    if sig == signal.SIGTERM:
        assert code == 128 + signal.SIGTERM
        assert parts(built) == []                      # SIGTERM cleans up on the way out
    else:
        assert len(parts(built)) == len(before)        # SIGKILL cannot: the next build does
    assert build("graph-20x28", "-o", built, "--format", "svg").exit_code == 0
    assert parts(built) == []


def test_a_live_builds_parts_are_not_taken_by_another_build(built):
    proc = _start_paused_build(built)
    try:
        waiting = parts(built)
        assert build("graph-20x28", "-o", built, "--format", "svg", "--seed", "3").exit_code == 0
        assert parts(built) == waiting                 # the paused build still owns its parts
    finally:
        proc.kill()
        proc.wait(timeout=20)


# -- kills between the renames, fsync (issue 29, item 3) ---------------------------------------------

_KILL_AFTER_SECOND_RENAME = """
import os, signal, sys
real_replace = os.replace
renamed = []

def replace(src, dst, *a, **kw):
    real_replace(src, dst, *a, **kw)
    # only the outputs' renames count (a cold user cache is written through the same module)
    if os.path.dirname(os.path.abspath(dst)) == sys.argv[2] and not str(src).endswith(".old.part"):
        renamed.append(dst)
        if len(renamed) == 2:
            os.kill(os.getpid(), getattr(signal, sys.argv[1]))
os.replace = replace
from sheetgen.cli import main
main(sys.argv[3:])
"""


def _build_killed_after_second_rename(out: Path, sig: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _KILL_AFTER_SECOND_RENAME, sig, str(out.resolve()), "build", "graph-20x28", "hex-sheet",
                           "-o", str(out), "--format", "pdf,svg", "--seed", "9"],
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120,
                          preexec_fn=_interruptible)


def _interruptible() -> None:
    """The child takes SIGINT as a terminal's user sends it, even where this run was started in the
    background (a shell's `&` ignores SIGINT in what it starts, and an ignored signal stays ignored
    across exec: the build would then rightly ignore it too)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_build_killed_between_renames_is_rolled_back_by_the_next_run(built):
    before = digests(built)
    done = _build_killed_after_second_rename(built, "SIGKILL")
    assert done.returncode == -signal.SIGKILL
    mixed = digests(built)
    assert sum(mixed[n] != before[n] for n in before) == 2       # two files new, the others old: a mix
    assert any(name.endswith(".old.part") for name in parts(built))     # the old versions are still kept
    # the next run into the folder puts the old set back before it removes anything
    result = build("graph-20x28", "-o", built, "--format", "png")
    assert result.exit_code == 0, result.output
    assert "put back" in result.output
    after = digests(built)
    assert {n: after[n] for n in before} == before
    assert parts(built) == []


def _stage_new_and_die(a: Path, b: Path, renames: int) -> int:
    """Stage 'new' into a and b in a child process that dies (os._exit, as a SIGKILL would: no
    clean-up) right after its RENAMES-th rename of a part onto its target; its exit status."""
    code = ("import os\nfrom sheetgen.atomic import Staging\nreal = os.replace\nn = []\n"
            "def replace(src, dst, *a, **kw):\n    real(src, dst, *a, **kw)\n"
            "    if not str(src).endswith('.old.part'): n.append(dst)\n"
            f"    if len(n) == {renames}: os._exit(9)\n"
            "os.replace = replace\n"
            f"with Staging() as s:\n    s.add({str(a)!r}).write_text('new')\n    s.add({str(b)!r}).write_text('new')\n")
    return subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT))).returncode


def test_the_roll_back_of_a_killed_set_needs_only_one_of_its_folders(tmp_path):
    """A set across two folders: whichever folder the next run writes into first rolls both back."""
    a, b = tmp_path / "a" / "x.txt", tmp_path / "b" / "y.txt"
    for p in (a, b):
        p.parent.mkdir()
        p.write_text("old")
    assert _stage_new_and_die(a, b, renames=1) == 9
    assert (a.read_text(), b.read_text()) == ("new", "old")
    remove_stale_parts(b.parent)                       # the folder whose file was not yet replaced
    assert (a.read_text(), b.read_text()) == ("old", "old")
    assert parts(a.parent) == [] and parts(b.parent) == []


def test_a_set_whose_renames_all_happened_is_kept_new(tmp_path):
    """Killed after the last rename (before the backups were removed): the new set is whole; keep it."""
    a, b = tmp_path / "x.txt", tmp_path / "y.txt"
    for p in (a, b):
        p.write_text("old")
    assert _stage_new_and_die(a, b, renames=2) == 9
    remove_stale_parts(tmp_path)
    assert (a.read_text(), b.read_text()) == ("new", "new") and parts(tmp_path) == []


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_during_the_renames_waits_until_the_set_is_whole(built, sig):
    names = sorted(p.name for p in built.iterdir())
    for name in names:
        (built / name).write_bytes(b"old")             # marked, to tell each file's version apart
    done = _build_killed_after_second_rename(built, sig)
    assert done.returncode in (128 + getattr(signal, sig), 130), done.stderr
    assert "finished writing the set before stopping" in done.stderr
    assert sorted(p.name for p in built.iterdir()) == names
    assert [n for n in names if (built / n).read_bytes() == b"old"] == [], done.stderr    # all new: the set is whole


def test_parts_are_fsynced_before_their_rename_and_the_folder_after(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst, *a, **kw):
        events.append(("replace", str(src)))
        return real_replace(src, dst, *a, **kw)
    monkeypatch.setattr(atomic.os, "fsync", fsync)
    monkeypatch.setattr(atomic.os, "replace", replace)
    (tmp_path / "a.txt").write_text("old")
    with Staging() as staging:
        pa = staging.add(tmp_path / "a.txt")
        pb = staging.add(tmp_path / "b.txt")
        pa.write_text("a")
        pb.write_text("b")
    renames = [i for i, e in enumerate(events) if e[0] == "replace"]
    assert [events[i][1] for i in renames] == [str(pa), str(pb)]
    for part in (pa, pb):
        assert events.index(("fsync", str(part))) < renames[0]
    assert ("fsync", str(tmp_path)) in events[renames[-1]:]

"""Output files written all or nothing.

Every file is first written to a temporary "part" file beside its target; only
when every file of the set is complete are they renamed into place.  Before the
first rename every target is checked (a folder in the way, a folder that cannot
be written), and each existing target is kept under a second name until the
whole set is in place, so a rename that fails partway puts the old files back:
the folder holds the complete old set or the complete new set.  A failure that
even the roll-back cannot undo says exactly which files changed.

A target that is a symbolic link (or a chain of them) is written where the link
points: the part is staged beside the real file and renamed over it, so the link
stays a link (a map linked into a git checkout is saved into the checkout, not
forked).  Messages and `targets` still name the path the caller gave.

Part files are named `.NAME.sheetgen-HOST-PID-RANDOM.part` (`.old.part` for a
kept old file, `.set.part` for a set's manifest): the host and process id prove who owns one, so a later run into
the same folder removes the parts a killed run left behind (its process is
gone) and never touches a part another live process is writing.  SIGTERM is
turned into a clean exit by the CLI, which removes the parts on the way out.

Kills (as SQLite's atomic commit): every part is fsynced before the renames and
each folder after them.  A set of two or more files first records a manifest
(the parts, their targets, the kept old files) in each of its folders; only
when every rename is done and synced is the manifest removed, then the old
files.  A run killed (SIGKILL, power) between two renames leaves the manifest:
the next run into any of its folders puts the whole old set back (or, when
every rename had happened, keeps the new set) before it removes any part.
SIGTERM, SIGINT and SIGHUP are held during the renames and act once the set is
whole, so no signal leaves a file renamed that the roll-back does not know of.

Test hook: SHEETGEN_TEST_PAUSE_BEFORE_RENAME=SECONDS makes a commit print
'output: pausing before renaming' on stderr and sleep with every part written.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import json
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from .errors import InputError, Problem
from .limits import MAX_NAME_BYTES, check_name, is_name_too_long, shown

_PART = re.compile(r"^\..*\.sheetgen-(?P<host>[0-9a-f]{6})-(?P<pid>\d+)-[a-z0-9_]+(?P<kind>\.old|\.set)?\.part$")
FOREIGN_PART_AGE_S = 24 * 3600      # a part from another host is stale only when this old


def _host() -> str:
    return hashlib.sha1(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:6]


def _part_prefix(target: Path) -> str:
    tag = f".sheetgen-{_host()}-{os.getpid()}-"
    room = MAX_NAME_BYTES - len(tag) - len("xxxxxxxx.old.part") - 1
    name = os.fsencode(target.name)[:room].decode("utf-8", "ignore")     # never split a character
    return f".{name}{tag}"


def is_owned_part(name: str) -> bool:
    return _PART.match(name) is not None


def remove_stale_parts(folder: str | Path) -> list[Path]:
    """Remove the part files killed sheetgen runs left in folder (their process is
    gone); returns them.  Parts of live processes, and anything else, stay."""
    folder = Path(folder)
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    stale = [(name, m) for name in names if (m := _PART.match(name)) and _is_stale(folder / name, m)]
    # a set's manifest first: it needs the kept old files the plain removal below would take
    for name, m in stale:
        if m["kind"] == ".set":
            removed += _recover(folder / name)
    for name, m in stale:
        path = folder / name
        if m["kind"] != ".set" and path not in removed:
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def _is_stale(path: Path, m: re.Match[str]) -> bool:
    if m["host"] == _host():
        return not _alive(int(m["pid"]))
    try:                            # another machine's process: only age can tell
        return time.time() - path.lstat().st_mtime > FOREIGN_PART_AGE_S
    except OSError:
        return False


def _recover(manifest: Path) -> list[Path]:
    """Finish what a run killed during its renames left, from its manifest: if every part
    was renamed the new set is whole (keep it); otherwise put every old file back.
    Returns the files removed; says on stderr what it put back."""
    try:
        record = json.loads(manifest.read_bytes())
        entries = [(Path(e["part"]), Path(e["target"]), Path(e["old"]) if e["old"] else None)
                   for e in record["files"]]
        copies = [Path(c) for c in record["copies"]]
    except (OSError, ValueError, KeyError, TypeError):
        # unreadable: it was being written, so no rename had begun; the parts go as usual
        entries, copies = [], [manifest]
    removed: list[Path] = []
    if any(os.path.lexists(part) for part, _, _ in entries):      # killed partway: roll back
        restored = []
        for part, target, old in entries:
            with contextlib.suppress(OSError):
                if os.path.lexists(part):
                    os.unlink(part)                 # never renamed: its target is still the old file
                    removed.append(part)
                elif old is not None:
                    if os.path.lexists(old):
                        os.replace(old, target)
                        restored.append(target)
                else:
                    os.unlink(target)               # it was new in that set
                    restored.append(target)
        if restored:
            print("output: a run killed while renaming its files left old and new ones mixed; put back the old "
                  "set: " + ", ".join(str(t) for t in restored), file=sys.stderr, flush=True)
    for copy in copies:                     # the set is whole again (old or new): forget it
        with contextlib.suppress(OSError):
            os.unlink(copy)
            removed.append(copy)
    for folder in {c.parent for c in copies}:
        _fsync_folder(folder)
    for _, _, old in entries:
        if old is not None:
            with contextlib.suppress(OSError):
                os.unlink(old)
                removed.append(old)
    return removed


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    """A folder's entries (a rename, a new or removed name) on disk; a no-op where the
    system cannot sync a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGTERM, SIGINT and SIGHUP wait until the block ends, then act as they would have:
    a rename is never cut off between os.replace and the record that it happened."""
    if threading.current_thread() is not threading.main_thread():
        yield                       # only the main thread runs Python's handlers: none can cut in here
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}

    def hold(signum: int, frame: object) -> None:
        caught.append(signum)
    try:
        for name in ("SIGTERM", "SIGINT", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None:
                previous[sig] = signal.signal(sig, hold)
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        for sig in dict.fromkeys(caught):
            print(f"output: finished writing the set before stopping ({signal.Signals(sig).name})",
                  file=sys.stderr, flush=True)
            signal.raise_signal(sig)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0              # someone else's live process (or a pid we cannot ask about)
    return True


def through_links(target: Path) -> Path:
    """Where a write to target lands: a symbolic link (or a chain of them) followed to
    its end; target itself when it is no link.  A link to a file not yet made leads to
    where that file will be; a loop of links is an InputError."""
    if not os.path.islink(target):
        return target
    try:
        return Path(os.path.realpath(target, strict=True))
    except FileNotFoundError:       # a dangling link: writing makes the file it names
        return Path(os.path.realpath(target))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(Problem("cannot write: the symbolic link leads round in a loop",
                                     shown(str(target)))) from None
        raise InputError(Problem(f"cannot write: {why(exc)}", shown(str(target)))) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def why(exc: OSError) -> str:
    """An OSError in words for a message."""
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "part of the path is a file, not a folder"
    if isinstance(exc, IsADirectoryError):
        return "a folder is in the way"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.ENOSPC:
        return "the disk is full (no space left on the device)"
    if exc.errno == errno.EDQUOT:
        return "the disk is full for this user (disk quota exceeded)"
    if is_name_too_long(exc):
        return "file name too long"
    return exc.strerror or str(exc)


_why = why      # the old private name


class Staging:
    """A set of output files written all or nothing.

        with Staging() as staging:
            tmp = staging.add(target)       # write tmp (it exists, empty)
            ...
        # on a clean exit every target is replaced; on an exception none is

    commit() (the clean exit) raises InputError naming the file that could not be
    replaced, after putting the old files back."""

    def __init__(self) -> None:
        self._files: list[tuple[Path, Path]] = []       # (part, where it lands: links followed)
        self._given: dict[Path, Path] = {}              # where it lands -> the path the caller gave
        self._mode = 0o666 & ~_umask()
        self._cleaned: set[Path] = set()

    def __enter__(self) -> "Staging":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if kind is None:
            self.commit()
        else:
            full = self._full_disk(exc)
            self.discard()
            if full is not None:
                raise full from None
        return False

    def _full_disk(self, exc: BaseException | None) -> InputError | None:
        """Writing a part failed for want of space: the error naming its target (the caller's
        path, not the part's hidden name), else None."""
        if not isinstance(exc, OSError) or exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            return None
        named = [target for part, target in self._files if exc.filename is not None
                 and os.fsdecode(exc.filename) == str(part)]
        where = ", ".join(str(self._shown(t)) for t in (named or [t for _, t in self._files]))
        return InputError(Problem(f"cannot write the output: {why(exc)}; nothing was written", where))

    def add(self, target: str | Path) -> Path:
        """A new empty part file for target (its folder is created); write into it."""
        given = check_name(target)
        target = through_links(given)
        check_name(target)
        folder = target.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if folder not in self._cleaned:
                self._cleaned.add(folder)
                remove_stale_parts(folder)
            fd, tmp = tempfile.mkstemp(prefix=_part_prefix(target), suffix=".part", dir=folder)
        except OSError as exc:
            raise InputError(Problem(f"cannot write: {why(exc)}", shown(str(given)))) from None
        os.close(fd)
        # mkstemp makes the file 0600; a finished output gets the usual permissions
        os.chmod(tmp, self._mode)
        self._files.append((Path(tmp), target))
        self._given[target] = given
        return Path(tmp)

    def _shown(self, target: Path) -> Path:
        """target as the caller named it (the link, not where it leads)."""
        return self._given.get(target, target)

    @property
    def targets(self) -> list[Path]:
        return [self._shown(target) for _, target in self._files]

    def discard(self) -> None:
        for part, _ in self._files:
            with contextlib.suppress(OSError):
                os.unlink(part)
        self._files = []
        self._given = {}

    def _check_targets(self) -> None:
        """Every target can be replaced: no folder where a file goes, and its folder writable."""
        for part, target in self._files:
            if target.is_dir() and not target.is_symlink():
                raise InputError(Problem("cannot write the output: a folder is in the way; nothing was written",
                                         str(self._shown(target))))
            if not os.access(target.parent, os.W_OK | os.X_OK):
                raise InputError(Problem("cannot write the output: permission denied; nothing was written",
                                         str(self._shown(target))))

    def commit(self) -> list[Path]:
        """Rename every part onto its target, or none: see the class."""
        try:
            self._check_targets()
            pause = os.environ.get("SHEETGEN_TEST_PAUSE_BEFORE_RENAME")
            if pause and not self._only_cache():
                print("output: pausing before renaming", file=sys.stderr, flush=True)
                time.sleep(float(pause))
            for part, _ in self._files:     # the content on disk before its name is
                _fsync_file(part)
            kept = self._keep_old()
        except BaseException:
            self.discard()
            raise
        folders = list(dict.fromkeys(target.parent for _, target in self._files))
        try:
            manifests = self._write_manifests(kept, folders)
        except BaseException as exc:
            self._roll_back([], kept)
            self.discard()
            if isinstance(exc, OSError):
                raise InputError(Problem(f"cannot write the output: {why(exc)}; nothing was written",
                                         str(exc.filename or folders[0]))) from None
            raise
        done: list[Path] = []
        with _signals_held():
            try:
                for part, target in self._files:
                    os.replace(part, target)
                    done.append(target)
            except BaseException as exc:    # a failed rename
                not_restored = self._roll_back(done, kept)
                self.discard()
                self._forget(manifests, folders)
                failed = self._shown(self._files[len(done)][1]) if len(done) < len(self._files) else None
                not_restored = [self._shown(t) for t in not_restored]
                if isinstance(exc, OSError):
                    raise self._rename_error(exc, failed, not_restored) from None
                raise
            for folder in folders:
                _fsync_folder(folder)
            # the set is whole: only now may the old files go (SQLite deletes its journal the same way)
            self._forget(manifests, folders)
            for backup in kept.values():
                with contextlib.suppress(OSError):
                    os.unlink(backup)
        targets = self.targets
        self._files = []
        self._given = {}
        return targets

    def _write_manifests(self, kept: dict[Path, Path], folders: list[Path]) -> list[Path]:
        """For a set of more than one file: a manifest in each of its folders, so that a run
        killed between two renames is rolled back by the next run into any of them (see
        _recover); synced with the kept old files before the first rename."""
        if len(self._files) < 2:
            return []               # one rename is atomic by itself
        tag = f".output.sheetgen-{_host()}-{os.getpid()}-"
        made: list[tuple[int, Path]] = []
        try:
            for folder in folders:
                fd, name = tempfile.mkstemp(prefix=tag, suffix=".set.part", dir=folder)
                made.append((fd, Path(name)))
            names = [name for _, name in made]
            record = {"files": [{"part": str(part), "target": str(target),
                                 "old": str(kept[target]) if target in kept else None}
                                for part, target in self._files],
                      "copies": [str(n) for n in names]}
            data = json.dumps(record).encode("utf-8")
            for fd, _ in made:
                os.write(fd, data)          # one write: a manifest cut short does not parse
                os.fsync(fd)
        except BaseException:
            self._forget([name for _, name in made], [])
            raise
        finally:
            for fd, _ in made:
                os.close(fd)
        for folder in folders:
            _fsync_folder(folder)
        return names

    @staticmethod
    def _forget(manifests: list[Path], folders: list[Path]) -> None:
        for name in manifests:
            with contextlib.suppress(OSError):
                os.unlink(name)
        if manifests:
            for folder in folders:
                _fsync_folder(folder)

    def _only_cache(self) -> bool:
        """Every target is a user-cache entry (the test hook pauses for outputs only)."""
        from .paths import user_cache_dir
        cache = user_cache_dir().resolve()
        return all(target.resolve().is_relative_to(cache) for _, target in self._files)

    def _keep_old(self) -> dict[Path, Path]:
        """Each existing target also under a second (hard-linked) name, to put back."""
        kept: dict[Path, Path] = {}
        try:
            for part, target in self._files:
                if not os.path.lexists(target):
                    continue
                backup = part.with_name(part.name[:-len(".part")] + ".old.part")
                try:
                    os.link(target, backup, follow_symlinks=False)
                except OSError:             # a file system without hard links: copy
                    shutil.copy2(target, backup, follow_symlinks=False)
                kept[target] = backup
        except BaseException as exc:
            for backup in kept.values():
                with contextlib.suppress(OSError):
                    os.unlink(backup)
            if isinstance(exc, OSError):
                raise InputError(Problem(f"cannot write the output: {why(exc)}; nothing was written",
                                         str(exc.filename or target))) from None
            raise
        return kept

    @staticmethod
    def _roll_back(done: list[Path], kept: dict[Path, Path]) -> list[Path]:
        """Put back the old file of every target already replaced; returns those it could not."""
        failed = []
        for target in reversed(done):
            try:
                if target in kept:
                    os.replace(kept.pop(target), target)
                else:
                    os.unlink(target)       # it did not exist before this run
            except OSError:
                failed.append(target)
        for backup in kept.values():
            with contextlib.suppress(OSError):
                os.unlink(backup)
        return failed

    @staticmethod
    def _rename_error(exc: OSError, failed: Path | None, not_restored: list[Path]) -> InputError:
        where = str(failed if failed is not None else exc.filename2 or exc.filename or "")
        if not not_restored:
            return InputError(Problem(f"cannot write the output: {why(exc)}; nothing was written "
                                      "(every file is as it was)", where))
        names = ", ".join(str(p) for p in sorted(not_restored))
        return InputError(Problem(f"cannot write the output: {why(exc)}; these files were replaced and "
                                  f"could not be put back: {names}; every other file is as it was", where))


@contextlib.contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path in target's folder; rename it onto target on success."""
    with Staging() as staging:
        yield staging.add(target)


def write_bytes(target: str | Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def write_text(target: str | Path, text: str) -> None:
    write_bytes(target, text.encode("utf-8"))

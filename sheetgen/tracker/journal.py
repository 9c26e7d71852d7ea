"""The journal of live play: an SQLite database (stdlib sqlite3, WAL mode).

Generic over rulesets: a game row holds the ruleset name and a JSON header
(map, hero, ...); each step row holds one play-log step as JSON.  Every change
is one transaction (BEGIN IMMEDIATE ... COMMIT), so a killed process loses
nothing that was acknowledged and never leaves half a step: either the whole
step row is there or none of it.

Tables:
    games(id, ruleset, header, created)
    steps(game_id, seq, step, created)       primary key (game_id, seq), seq from 1
    meta(key, value)                          'current' -> the current game id

Every way the journal can fail is a JournalError (an InputError: exit 2) that
says what is wrong and what to do: a damaged file (found at open by PRAGMA
quick_check, before anything is read, so a damaged journal is never half-read),
a read-only file (it still opens, read-only, for `status` and `export`), a full
disk (a command that only reads opens the journal read-only, as immutable when
SQLite cannot make the shared-memory index a WAL reader needs, so `status` and
`export -o ELSEWHERE` still work; a write says "the disk is full"), a lock
another process holds past LOCK_TIMEOUT_S, a path that cannot be a journal
(a folder, a device, a path under a regular file, a name too long).

Test hook: SHEETGEN_TEST_PAUSE_BEFORE_COMMIT=SECONDS makes append() print
'journal: pausing before commit' on stderr and sleep inside its transaction.
"""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Iterator, Literal

from ..errors import InputError
from ..limits import check_name, shown

LOCK_TIMEOUT_S = 10.0       # how long a command waits for another process's write to finish
DISK_FULL_BYTES = 1 << 20   # less free space than this where an I/O error happened: the disk is full
TABLES = ("games", "steps", "meta")
# SQLite's primary result codes (sqlite3.Error.sqlite_errorcode & 0xff)
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ruleset TEXT NOT NULL,
    header TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS steps (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    step TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def default_path() -> Path:
    from ..paths import user_data_dir
    return user_data_dir() / "journal.sqlite"


REMEMBERED = "current-journal.txt"     # in the user's data folder: the journal of the last game started


def remembered() -> Path | None:
    """The journal of the game last started or picked (`track new`, `track use`, `play`), if
    it still exists: so `--journal` is needed only to pick another."""
    from ..paths import user_data_dir
    try:
        text = (user_data_dir() / REMEMBERED).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    path = Path(text) if text else None
    return path if path is not None and path.is_file() else None


def remember(path: str | Path) -> None:
    """Remember PATH as the current journal (best effort: a read-only data folder is no error)."""
    from ..paths import user_data_dir
    folder = user_data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / (REMEMBERED + ".part")
        tmp.write_text(str(Path(path).resolve()) + "\n", encoding="utf-8")
        os.replace(tmp, folder / REMEMBERED)
    except OSError:
        pass


def resolve(path: str | Path | None) -> Path:
    """The journal a command uses: the one given, else $SHEETGEN_JOURNAL, else the remembered
    one, else USER_DATA_DIR/journal.sqlite."""
    if path:
        return Path(path)
    env = os.environ.get("SHEETGEN_JOURNAL")
    if env:
        return Path(env)
    return remembered() or default_path()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class JournalError(InputError):
    """The journal cannot be used as asked (exit 2); the message says what to do."""


# a when_durable callback: done(None) once the commit is on disk, done(error) if the flush failed
Done = Callable[[JournalError | None], object]


class Game:
    __slots__ = ("id", "ruleset", "header", "created")

    def __init__(self, id: int, ruleset: str, header: dict, created: str):
        self.id, self.ruleset, self.header, self.created = id, ruleset, header, created


class GroupCommit:
    """Durability shared by the writers of one long-lived process (the web companion, where many
    players record at once).  Every action is still its own transaction, but it commits with
    synchronous=NORMAL (written to the WAL, not yet flushed) and is acknowledged only after an
    fsync of the WAL that began after its commit; one fsync serves every action committed while
    the one before it ran.  So an acknowledged action is on disk exactly as with synchronous=FULL,
    and fifty players do not queue behind fifty fsyncs.  One per journal file, shared by the
    process's connections (Journal(path, group=...)); it also queues the process's writers."""

    def __init__(self, path: str | Path):
        self.path = Path(os.path.abspath(path))
        self.writing = threading.Lock()
        self._cond = threading.Condition()
        self._committed = 0          # commits so far (a ticket each)
        self._synced = 0             # every commit up to this one is on disk
        self._syncing = False
        self._folder_synced = False
        self._waiting: list[tuple[int, Done]] = []  # (ticket, done) of when_durable, settled by the flusher thread
        self._flusher: threading.Thread | None = None
        self.flushes = 0             # fsync rounds so far (the bench and the tests read it)

    def committed(self) -> int:
        """A ticket for a commit that has just returned."""
        with self._cond:
            self._committed += 1
            return self._committed

    def durable(self, ticket: int) -> None:
        """Return once the commit of TICKET is on disk: flush the WAL, or wait for the flush that
        covers it (one thread flushes, the others wait)."""
        with self._cond:
            while self._synced < ticket:
                if self._syncing:
                    self._cond.wait()
                    continue
                failure = self._flush_round()
                if failure is not None:
                    raise self._unconfirmed(failure)

    def when_durable(self, ticket: int, done: Done) -> None:
        """Call done(None) once the commit of TICKET is on disk, or done(JournalError) if the
        flush failed; from this process's flusher thread (now, when it is on disk already).  The
        caller does not wait: an event loop acknowledges the action in its callback."""
        with self._cond:
            if self._synced < ticket:
                self._waiting.append((ticket, done))
                if self._flusher is None:
                    self._flusher = threading.Thread(target=self._flush_waiting, name="journal-flusher",
                                                     daemon=True)
                    self._flusher.start()
                self._cond.notify_all()
                return
        done(None)

    def _flush_round(self) -> OSError | None:
        """One fsync of everything committed so far (the lock held on entry and on return, not
        during the flush); the failure, if the disk refused it."""
        self._syncing, target, failure = True, self._committed, None
        self._cond.release()
        try:
            self._flush()
        except OSError as exc:
            failure = exc
        finally:
            self._cond.acquire()
            self._syncing = False
            if failure is None:
                self._synced = max(self._synced, target)
                self.flushes += 1
            self._cond.notify_all()
        if failure is not None:
            self._settle(lambda t: t <= target, self._unconfirmed(failure))
        return failure

    def _settle(self, covered: Callable[[int], bool], error: JournalError | None) -> None:
        """Call the when_durable callbacks whose ticket is COVERED (outside the lock)."""
        ready = [d for t, d in self._waiting if covered(t)]
        if not ready:
            return
        self._waiting = [(t, d) for t, d in self._waiting if not covered(t)]
        self._cond.release()
        try:
            for done in ready:
                done(error)
        finally:
            self._cond.acquire()

    def _flush_waiting(self) -> None:
        """The flusher thread: flushes while callbacks wait (one fsync for all of them), and
        settles those a flush of another thread covered."""
        with self._cond:
            while True:
                self._settle(lambda t: t <= self._synced, None)
                if not self._waiting or self._syncing:
                    self._cond.wait()
                    continue
                self._flush_round()

    def _unconfirmed(self, failure: OSError) -> "JournalError":
        return JournalError(f"{shown(str(self.path))}: the step was written but the disk did not "
                            f"confirm it ({failure.strerror or failure}); check the disk, then "
                            "`sheetgen track status`")

    def _flush(self) -> None:
        """fsync the WAL (where NORMAL commits wait), or the database when no WAL is there (a
        checkpoint has synced it); the folder once, so a new WAL file's name is on disk too."""
        for name in (str(self.path) + "-wal", str(self.path)):
            try:
                fd = os.open(name, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            break
        if not self._folder_synced:
            fd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            self._folder_synced = True


class Journal:
    def __init__(self, path: str | Path | None = None, timeout: float | None = None,
                 group: GroupCommit | None = None, write: bool = True):
        """write=False: the caller only reads (status, export, games, render): when the journal
        cannot be opened for writing (a full disk) it is opened read-only instead."""
        self.path = check_name(Path(path) if path else default_path(), "--journal")
        self.timeout = LOCK_TIMEOUT_S if timeout is None else timeout
        self.readonly = False
        self.write = write
        self.group = group
        self.later: list[int] | None = None     # inside durable_later: the commits' tickets
        self._prepare_folder()
        self.db = self._connect()

    # -- opening ---------------------------------------------------------------------
    def _prepare_folder(self) -> None:
        where = shown(str(self.path))
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            mode = None
        except NotADirectoryError:
            raise JournalError(f"{where}: part of the journal's path is a file, not a folder; "
                               "give --journal a path inside a folder") from None
        except OSError as exc:
            raise JournalError(f"{where}: cannot use the journal: {exc.strerror or exc}") from None
        if mode is not None and stat.S_ISDIR(mode):
            raise JournalError(f"{where}: is a folder, not a journal file; give --journal FOLDER/journal.sqlite")
        if mode is not None and not stat.S_ISREG(mode):
            raise JournalError(f"{where}: is not a regular file (a device, FIFO or socket), so it cannot be "
                               "a journal; give --journal a file name")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise JournalError(f"{where}: cannot create the journal's folder: part of the path is a file, "
                               "not a folder; give --journal a path inside a folder") from None
        except OSError as exc:
            raise JournalError(f"{where}: cannot create the journal's folder: {exc.strerror or exc}") from None

    def _connect(self) -> sqlite3.Connection:
        exists = self.path.exists()
        can_write = not exists or (os.access(self.path, os.W_OK)
                                   and os.access(self.path.parent, os.W_OK | os.X_OK))
        if not can_write:
            return self._connect_readonly()
        db = None
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per action
            db = sqlite3.connect(str(self.path), isolation_level=None, timeout=self.timeout)
            self._check_intact(db)
            missing = self._missing_tables(db)          # (refuses another program's database untouched)
            db.execute("PRAGMA journal_mode=WAL")
            # FULL: every commit flushed; with a GroupCommit the commit only writes and the
            # group flushes before the action is acknowledged (the same promise, shared fsyncs)
            db.execute("PRAGMA synchronous=NORMAL" if self.group is not None else "PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if missing:
                db.executescript(SCHEMA)
            return db
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            if exists and _code(exc) == _READONLY:      # an immutable file, a read-only mount
                return self._connect_readonly()
            if exists and not self.write and _code(exc) in (_IOERR, _FULL, _CANTOPEN):
                # a full disk: SQLite cannot grow the -shm index even to read; a reader needs none
                return self._connect_readonly()
            raise self._error(exc) from None
        except JournalError:
            if db is not None:
                db.close()
            raise

    def _connect_readonly(self) -> sqlite3.Connection:
        """Open for reading only (status, export, games, render still work)."""
        self.readonly = True
        uri = Path(os.path.abspath(self.path)).as_uri()
        last: sqlite3.Error | None = None
        # a WAL journal in a folder we cannot write (or on a full disk) has no -shm index to share:
        # read it as immutable, but only when no step waits in its WAL (immutable reads the file alone)
        tries = ["?mode=ro"] + (["?mode=ro&immutable=1"] if not self._wal_holds_steps() else [])
        for options in tries:
            db = None
            try:
                db = sqlite3.connect(uri + options, uri=True, isolation_level=None, timeout=self.timeout)
                self._check_intact(db)
                if self._missing_tables(db):
                    db.close()
                    raise JournalError(f"{shown(str(self.path))}: the journal is read-only and holds no games "
                                       "yet; make it writable (chmod u+w, and its folder) or give --journal "
                                       "another file")
                return db
            except sqlite3.Error as exc:
                if db is not None:
                    db.close()
                last = exc
                if _code(exc) in (_CORRUPT, _NOTADB):
                    break
        assert last is not None         # each try above returned or failed
        raise self._error(last) from None

    def _wal_holds_steps(self) -> bool:
        """The journal's write-ahead log has content (commits not yet copied into the file)."""
        try:
            return os.path.getsize(str(self.path) + "-wal") > 0
        except OSError:
            return False

    def _disk_full(self) -> bool:
        """The journal's file system has (almost) no space left."""
        try:
            st = os.statvfs(self.path.parent)
        except (OSError, AttributeError):       # no statvfs (Windows): SQLITE_FULL alone tells
            return False
        return st.f_bavail * st.f_frsize < DISK_FULL_BYTES

    def _check_intact(self, db: sqlite3.Connection) -> None:
        """PRAGMA quick_check before anything is read: a damaged journal is refused whole."""
        rows = db.execute("PRAGMA quick_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            detail = _lines(rows) + (f"; ... ({len(rows)} problems)" if len(rows) > 3 else "")
            raise self._damaged(f"PRAGMA quick_check: {detail}")

    def _missing_tables(self, db: sqlite3.Connection) -> list[str]:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [t for t in TABLES if t not in names]
        if names - {"sqlite_sequence"} and "games" not in names:
            raise JournalError(f"{shown(str(self.path))}: is an SQLite database but not a sheetgen journal "
                               "(it has no games table); give --journal another file")
        return missing

    # -- errors ------------------------------------------------------------------------
    def _damaged(self, detail: str) -> JournalError:
        where = shown(str(self.path))
        return JournalError(f"{where}: the journal is damaged ({detail}); nothing was read from it. Keep a copy, "
                            f"then try `sqlite3 {where} .recover | sqlite3 recovered.sqlite` and go on with "
                            "--journal recovered.sqlite, or start a new journal with --journal NEW.sqlite")

    def _readonly_error(self) -> JournalError:
        return JournalError(f"{shown(str(self.path))}: the journal is read-only, so nothing can be recorded "
                            "(`track status` and `track export` still work); make it writable (chmod u+w, "
                            "and its folder) or go on in another journal with --journal NEW.sqlite")

    def _error(self, exc: sqlite3.Error) -> JournalError:
        """What an SQLite error means for the user, and what to do."""
        code, where = _code(exc), shown(str(self.path))
        if code in (_BUSY, _LOCKED):
            return JournalError(f"{where}: another sheetgen is writing this journal and held it for more than "
                                f"{self.timeout:g} s; wait for it to finish (or stop it) and try again")
        if code == _READONLY:
            return self._readonly_error()
        if code == _NOTADB:
            return self._damaged("it is not an SQLite database")
        if code == _CORRUPT:
            return self._damaged(f"{exc}{self._integrity()}")
        if code == _FULL or (code in (_IOERR, _CANTOPEN) and self._disk_full()):
            if (self.readonly or not self.write) and self._wal_holds_steps():
                return JournalError(f"{where}: the disk is full, and the journal's write-ahead log holds steps "
                                    "that cannot be read without a little space for its index; free some space "
                                    "and try again")
            if self.readonly or not self.write:
                return JournalError(f"{where}: the disk is full (no space left on the device) and the journal "
                                    "cannot be read; free some space and try again")
            return JournalError(f"{where}: the disk is full (no space left on the device); nothing was recorded. "
                                "Free some space and go on; `sheetgen track status` and `sheetgen track export "
                                "-o FILE` on another disk still work while it is full")
        if code == _CANTOPEN:
            return JournalError(f"{where}: cannot open the journal (no permission, or its folder cannot be "
                                "written); check the permissions or give --journal another file")
        if code == _IOERR:
            return JournalError(f"{where}: the journal cannot be read or written (an input/output error: {exc})")
        return JournalError(f"{where}: the journal cannot be used ({exc})")

    def _integrity(self) -> str:
        """'; PRAGMA integrity_check: ...' when SQLite can say more about the damage, else ''."""
        try:
            db = sqlite3.connect(Path(os.path.abspath(self.path)).as_uri() + "?mode=ro", uri=True)
            try:
                rows = db.execute("PRAGMA integrity_check(3)").fetchall()
            finally:
                db.close()
        except sqlite3.Error:
            return ""
        return "; PRAGMA integrity_check: " + _lines(rows)

    @contextlib.contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        """Every database access: an SQLite error becomes a JournalError."""
        try:
            yield self.db
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _decode(self, text: Any, what: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError):
            raise self._damaged(f"{what} is not readable JSON: the journal was changed outside sheetgen") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions --------------------------------------------------------------
    def _tx(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        journal = self
        if self.readonly:
            raise self._readonly_error()

        group = self.group

        class _T:
            def __enter__(self) -> sqlite3.Connection:
                if group is not None:
                    group.writing.acquire()     # this process's writers queue here, not in SQLite's busy loop
                try:
                    with journal._sql() as db:
                        db.execute("BEGIN IMMEDIATE")
                except BaseException:
                    if group is not None:
                        group.writing.release()
                    raise
                return journal.db

            def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                         tb: TracebackType | None) -> Literal[False]:
                try:
                    if kind is None:
                        try:
                            journal.db.execute("COMMIT")
                        except sqlite3.Error as error:
                            with contextlib.suppress(sqlite3.Error):
                                journal.db.execute("ROLLBACK")
                            raise journal._error(error) from None
                    else:
                        with contextlib.suppress(sqlite3.Error):     # keep the error that stopped it
                            journal.db.execute("ROLLBACK")
                        if isinstance(exc, sqlite3.Error):
                            raise journal._error(exc) from None
                        return False
                finally:
                    if group is not None:
                        group.writing.release()
                if group is not None:
                    ticket = group.committed()
                    if journal.later is not None:
                        journal.later.append(ticket)     # the caller waits (GroupCommit.when_durable)
                    else:
                        group.durable(ticket)            # acknowledged only once on disk
                return False
        return _T()

    @contextlib.contextmanager
    def durable_later(self) -> Iterator[list[int]]:
        """Inside, this journal's commits return before their fsync: the list yielded gathers
        their GroupCommit tickets, and the caller acknowledges nothing before
        group.when_durable(ticket, ...) says the last one is on disk (an event loop waits so
        without a thread of its own)."""
        if self.group is None:
            raise ValueError("durable_later needs a journal of a GroupCommit")
        tickets: list[int] = []
        self.later = tickets
        try:
            yield tickets
        finally:
            self.later = None

    # -- games ---------------------------------------------------------------------
    def new_game(self, ruleset: str, header: dict) -> int:
        with self._tx() as db:
            cur = db.execute("INSERT INTO games (ruleset, header, created) VALUES (?, ?, ?)",
                             (ruleset, json.dumps(header, sort_keys=True), _now()))
            gid = cur.lastrowid
            assert gid is not None          # the INSERT just made the row
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current', ?)", (str(gid),))
        return gid

    def _game(self, row: Any) -> Game:
        header = self._decode(row[2], f"the header of game {row[0]}")
        if not isinstance(header, dict) or not isinstance(row[1], str):
            raise self._damaged(f"game {row[0]} has no proper header: the journal was changed outside sheetgen")
        return Game(row[0], row[1], header, row[3])

    def game(self, gid: int) -> Game:
        with self._sql() as db:
            row = db.execute("SELECT id, ruleset, header, created FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            raise JournalError(f"no game {gid} in {self.path}")
        return self._game(row)

    def current(self) -> Game:
        with self._sql() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'current'").fetchone()
        if row is None:
            raise JournalError(f"no game in {self.path}: start one with `sheetgen track new --map MAP`")
        try:
            gid = int(row[0])
        except (TypeError, ValueError):
            raise self._damaged("the current game is not a number: the journal was changed outside sheetgen") from None
        return self.game(gid)

    def update_header(self, gid: int, changes: dict) -> Game:
        """Add or replace keys of a game's header (a per-game setting such as the dice mode or
        the Oracle question) in one transaction; the keys a header had stay."""
        with self._tx() as db:
            row = db.execute("SELECT id, ruleset, header, created FROM games WHERE id = ?", (gid,)).fetchone()
            if row is None:
                raise JournalError(f"no game {gid} in {self.path}")
            game = self._game(row)
            header = dict(game.header, **changes)
            db.execute("UPDATE games SET header = ? WHERE id = ?", (json.dumps(header, sort_keys=True), gid))
        return Game(gid, game.ruleset, header, game.created)

    def set_current(self, gid: int) -> None:
        self.game(gid)
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current', ?)", (str(gid),))

    def games(self) -> list[Game]:
        with self._sql() as db:
            rows = db.execute("SELECT id, ruleset, header, created FROM games ORDER BY id").fetchall()
        return [self._game(r) for r in rows]

    # -- steps ---------------------------------------------------------------------
    def steps(self, gid: int) -> list:
        return self.decode_steps(gid, self.step_texts(gid))

    def step_texts(self, gid: int) -> list[str]:
        """The steps of game GID as the journal holds them (JSON text, not decoded): what a
        long-lived reader compares with the texts it has already decoded."""
        with self._sql() as db:
            return [r[0] for r in db.execute("SELECT step FROM steps WHERE game_id = ? ORDER BY seq", (gid,))]

    def decode_steps(self, gid: int, texts: list[str], first: int = 1) -> list:
        """TEXTS (step_texts, in seq order: seq runs 1, 2, ... as undo takes only the last) decoded;
        first: the seq of the first of them (a reader that decoded the ones before already)."""
        return [self._decode(text, f"step {i} of game {gid}") for i, text in enumerate(texts, first)]

    def append(self, gid: int, step: Any, check: Callable[[list[Any], Any], Any] | None = None,
               checked_against: list[str] | None = None) -> int:
        """Record one step in its own transaction; returns its seq (1-based).

        check(steps_so_far, step) -> step runs inside the same transaction (after the
        database is locked for writing), so the step is validated against exactly the
        steps it follows even if another process records at the same time; if it
        raises, nothing is written.  checked_against: the step texts (step_texts) the
        caller has already validated STEP against: while the journal holds exactly
        those, check is not run again."""
        with self._tx() as db:
            rows = db.execute("SELECT seq, step FROM steps WHERE game_id = ? ORDER BY seq", (gid,)).fetchall()
            if check is not None and (checked_against is None or [r[1] for r in rows] != checked_against):
                step = check(self.decode_steps(gid, [r[1] for r in rows]), step)
            seq = (rows[-1][0] if rows else 0) + 1
            text = json.dumps(step)                             # key order kept: exports read as written
            db.execute("INSERT INTO steps (game_id, seq, step, created) VALUES (?, ?, ?, ?)",
                       (gid, seq, text, _now()))
            pause = os.environ.get("SHEETGEN_TEST_PAUSE_BEFORE_COMMIT")
            if pause:
                print("journal: pausing before commit", file=sys.stderr, flush=True)
                time.sleep(float(pause))
        self.last_step, self.last_text = step, text
        return seq

    def undo(self, gid: int) -> Any:
        """Remove the last step (one transaction); returns it, or None if there is none."""
        with self._tx() as db:
            row = db.execute("SELECT seq, step FROM steps WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                             (gid,)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM steps WHERE game_id = ? AND seq = ?", (gid, row[0]))
        return self._decode(row[1], f"step {row[0]} of game {gid}")

    def integrity(self) -> str:
        with self._sql() as db:
            return db.execute("PRAGMA integrity_check").fetchone()[0]


def _lines(rows: list[Any]) -> str:
    """The first three rows of a PRAGMA's answer on one line."""
    return "; ".join(" ".join(str(r[0]).replace("*** in database main ***", "").split()) for r in rows[:3])


def _code(exc: BaseException | None) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF
    text = str(exc).lower()             # an SQLite older than Python 3.11's error codes
    for words, primary in (("locked", _BUSY), ("readonly", _READONLY), ("malformed", _CORRUPT),
                           ("not a database", _NOTADB), ("unable to open", _CANTOPEN), ("disk is full", _FULL)):
        if words in text:
            return primary
    return None

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

Test hook: SHEETGEN_TEST_PAUSE_BEFORE_COMMIT=SECONDS makes append() print
'journal: pausing before commit' on stderr and sleep inside its transaction.
"""
from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

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


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class JournalError(Exception):
    pass


class Game:
    __slots__ = ("id", "ruleset", "header", "created")

    def __init__(self, id: int, ruleset: str, header: dict, created: str):
        self.id, self.ruleset, self.header, self.created = id, ruleset, header, created


class Journal:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per action
            self.db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: not a usable journal ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- transactions --------------------------------------------------------------
    def _tx(self):
        journal = self

        class _T:
            def __enter__(self):
                journal.db.execute("BEGIN IMMEDIATE")
                return journal.db

            def __exit__(self, kind, exc, tb):
                if kind is None:
                    journal.db.execute("COMMIT")
                else:
                    journal.db.execute("ROLLBACK")
                return False
        return _T()

    # -- games ---------------------------------------------------------------------
    def new_game(self, ruleset: str, header: dict) -> int:
        with self._tx() as db:
            cur = db.execute("INSERT INTO games (ruleset, header, created) VALUES (?, ?, ?)",
                             (ruleset, json.dumps(header, sort_keys=True), _now()))
            gid = cur.lastrowid
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current', ?)", (str(gid),))
        return gid

    def game(self, gid: int) -> Game:
        row = self.db.execute("SELECT id, ruleset, header, created FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            raise JournalError(f"no game {gid} in {self.path}")
        return Game(row[0], row[1], json.loads(row[2]), row[3])

    def current(self) -> Game:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'current'").fetchone()
        if row is None:
            raise JournalError(f"no game in {self.path}: start one with `sheetgen track new --map MAP`")
        return self.game(int(row[0]))

    def set_current(self, gid: int) -> None:
        self.game(gid)
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current', ?)", (str(gid),))

    def games(self) -> list[Game]:
        rows = self.db.execute("SELECT id, ruleset, header, created FROM games ORDER BY id").fetchall()
        return [Game(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    # -- steps ---------------------------------------------------------------------
    def steps(self, gid: int) -> list:
        rows = self.db.execute("SELECT step FROM steps WHERE game_id = ? ORDER BY seq", (gid,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def append(self, gid: int, step, check=None) -> int:
        """Record one step in its own transaction; returns its seq (1-based).

        check(steps_so_far, step) -> step runs inside the same transaction (after the
        database is locked for writing), so the step is validated against exactly the
        steps it follows even if another process records at the same time; if it
        raises, nothing is written."""
        with self._tx() as db:
            if check is not None:
                rows = db.execute("SELECT step FROM steps WHERE game_id = ? ORDER BY seq", (gid,)).fetchall()
                step = check([json.loads(r[0]) for r in rows], step)
            row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM steps WHERE game_id = ?", (gid,)).fetchone()
            seq = row[0] + 1
            db.execute("INSERT INTO steps (game_id, seq, step, created) VALUES (?, ?, ?, ?)",
                       (gid, seq, json.dumps(step), _now()))   # key order kept: exports read as written
            pause = os.environ.get("SHEETGEN_TEST_PAUSE_BEFORE_COMMIT")
            if pause:
                print("journal: pausing before commit", file=sys.stderr, flush=True)
                time.sleep(float(pause))
        self.last_step = step
        return seq

    def undo(self, gid: int):
        """Remove the last step (one transaction); returns it, or None if there is none."""
        with self._tx() as db:
            row = db.execute("SELECT seq, step FROM steps WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                             (gid,)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM steps WHERE game_id = ? AND seq = ?", (gid, row[0]))
        return json.loads(row[1])

    def integrity(self) -> str:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]

"""The web companion's journal writes (GroupCommit): every action its own transaction, committed
with synchronous=NORMAL and acknowledged only after an fsync of the WAL that began after its
commit; one fsync serves the actions committed while the previous one ran.  The flushes are
held and released by events here, so what is checked does not depend on timing."""
import threading

import pytest

from sheetgen.tracker.journal import GroupCommit, Journal, JournalError


def _games(path, n):
    with Journal(path) as j:
        return [j.new_game("foury", {"map": "ancient-story", "n": i}) for i in range(n)]


def test_a_connection_of_a_group_commits_without_its_own_fsync(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as plain:
        assert plain.db.execute("PRAGMA synchronous").fetchone()[0] == 2          # FULL
    with Journal(path, group=GroupCommit(path)) as shared:
        assert shared.db.execute("PRAGMA synchronous").fetchone()[0] == 1         # NORMAL
        assert shared.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_no_action_is_acknowledged_before_a_flush_that_began_after_its_commit(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    gids = _games(path, 6)
    group = GroupCommit(path)
    events, lock = [], threading.Lock()
    first_flush_started, release_first = threading.Event(), threading.Event()
    real_flush = group._flush

    def flush():
        with lock:
            n = sum(1 for e in events if e[0] == "flush-start")
            events.append(("flush-start", n, group._committed))
        if n == 0:
            first_flush_started.set()
            assert release_first.wait(30)
        real_flush()
        with lock:
            events.append(("flush-end", n))
    monkeypatch.setattr(group, "_flush", flush)

    def player(gid, steps):
        with Journal(path, group=group) as j:
            for k in range(steps):
                j.append(gid, {"move": f"C{k + 1}", "roll": 3})
                with lock:
                    events.append(("ack", gid, k, group._synced))

    first = threading.Thread(target=player, args=(gids[0], 1))
    first.start()
    assert first_flush_started.wait(30)          # player 1 committed and its flush is held ...
    others = [threading.Thread(target=player, args=(gid, 3)) for gid in gids[1:]]
    for t in others:
        t.start()
    # ... while the other five commit their first step and wait for the flush to cover it
    for _ in range(3000):
        with group._cond:
            if group._committed >= 6:
                break
        threading.Event().wait(0.01)
    assert group._committed >= 6
    assert not any(e[0] == "ack" for e in events)        # nobody acknowledged while the flush is held
    release_first.set()
    first.join()
    for t in others:
        t.join()
    acks = [e for e in events if e[0] == "ack"]
    assert len(acks) == 1 + 5 * 3
    # far fewer flushes than actions: the five first steps waiting together shared one
    assert group.flushes < len(acks)
    with Journal(path) as j:
        assert [len(j.steps(g)) for g in gids] == [1, 3, 3, 3, 3, 3]
    # each acknowledgement came after a flush that covered its commit
    assert all(e[3] >= 1 for e in acks)


def test_a_flush_that_fails_is_a_clear_error_not_an_acknowledgement(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    gid = _games(path, 1)[0]
    group = GroupCommit(path)

    def broken():
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(group, "_flush", broken)
    with Journal(path, group=group) as j:
        with pytest.raises(JournalError, match="written but the disk did not confirm it"):
            j.append(gid, {"move": "C1", "roll": 3})
    # the writer lock is free again: the next writer is not stuck behind the failure
    monkeypatch.undo()
    with Journal(path, group=group) as j:
        j.append(gid, {"move": "C2", "roll": 3})
        assert len(j.steps(gid)) == 2


def test_a_refused_step_releases_the_writers_queue(tmp_path):
    path = tmp_path / "j.sqlite"
    gid = _games(path, 1)[0]
    group = GroupCommit(path)

    def refuse(steps, step):
        raise JournalError("refused")
    with Journal(path, group=group) as j:
        with pytest.raises(JournalError):
            j.append(gid, {"move": "C1"}, refuse)
        assert not group.writing.locked()
        j.append(gid, {"move": "C1", "roll": 2})
        assert j.steps(gid) == [{"move": "C1", "roll": 2}]


# -- durable_later + when_durable: the web companion's event loop waits without a thread --------

def test_commits_of_durable_later_are_settled_only_by_a_flush_that_began_after_them(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    gids = _games(path, 4)
    group = GroupCommit(path)
    flush_started, release = threading.Event(), threading.Event()
    flushes: list = []
    real_flush = group._flush

    def flush():
        flushes.append(group._committed)            # what this flush will cover at most
        if len(flushes) == 1:
            flush_started.set()
            assert release.wait(30)
        real_flush()
    monkeypatch.setattr(group, "_flush", flush)
    settled: list = []
    done = threading.Event()
    with Journal(path, group=group) as j:
        with j.durable_later() as tickets:
            j.append(gids[0], {"move": "C1", "roll": 3})
        assert tickets == [1]                       # returned before any fsync
        group.when_durable(tickets[0], lambda error: settled.append((1, error)))
        assert flush_started.wait(30)               # the flusher thread flushes commit 1 ...
        later = []
        for gid in gids[1:]:                        # ... while three more commit and wait
            with j.durable_later() as tickets:
                j.append(gid, {"move": "C1", "roll": 3})
            later += tickets
            group.when_durable(tickets[0], lambda error, t=tickets[0]: (settled.append((t, error)),
                                                                       len(settled) == 4 and done.set()))
        assert settled == []                        # nothing settled while the first flush is held
        release.set()
        assert done.wait(30)
    assert sorted(t for t, _ in settled) == [1, 2, 3, 4] and all(e is None for _, e in settled)
    # the three that committed during the first flush were covered by one more, not three
    assert len(flushes) == 2 and flushes[1] == 4


def test_when_durable_of_a_ticket_already_on_disk_settles_at_once(tmp_path):
    path = tmp_path / "j.sqlite"
    gid = _games(path, 1)[0]
    group = GroupCommit(path)
    with Journal(path, group=group) as j:
        j.append(gid, {"move": "C1", "roll": 3})   # waited for its own flush
    settled = []
    group.when_durable(1, settled.append)
    assert settled == [None] and group._flusher is None


def test_when_durable_hands_a_failed_flush_to_every_waiter_as_a_journal_error(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    gids = _games(path, 2)
    group = GroupCommit(path)

    def broken():
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(group, "_flush", broken)
    settled, done = [], threading.Event()
    with Journal(path, group=group) as j:
        for gid in gids:
            with j.durable_later() as tickets:
                j.append(gid, {"move": "C1", "roll": 3})
            group.when_durable(tickets[0], lambda error: (settled.append(error), len(settled) == 2 and done.set()))
        assert done.wait(30)
    assert len(settled) == 2
    assert all(isinstance(e, JournalError) and "did not confirm it" in str(e) for e in settled)


def test_durable_later_needs_a_group(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        with pytest.raises(ValueError):
            with j.durable_later():
                pass

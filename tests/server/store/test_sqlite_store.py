"""What only the SQLite store has: a file that outlives the process (a
reopen or a SIGKILL loses nothing acknowledged), one store per file, the
schema's version, a worker thread that keeps the event loop free, and errors
turned into ``StoreError``."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from server.store import (
    PlayerStats,
    SqliteStore,
    StatsDelta,
    StoreConflict,
    StoreError,
    StoreLocked,
    open_store,
)
from server.store.sqlite_store import SCHEMA_VERSION
from tests.server.store.conftest import CAP, FakeClock
from tests.server.store.helpers import add_stats, commit

ROOT = Path(__file__).resolve().parents[3]


def _open(path: Path, clock: FakeClock | None = None) -> SqliteStore:
    return SqliteStore(path, max_events=CAP, clock=clock or FakeClock())


async def test_everything_is_there_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    clock = FakeClock()
    store = _open(path, clock)
    for n in (1, 2, 3):
        await store.create_table(f"t{n}", f"C{n}", f"state-{n}".encode())
    total = CAP + 3
    for i in range(total):
        await commit(
            store,
            "t1",
            i + 1,
            f"s{i + 2}".encode(),
            [f"e{i + 1}".encode()],
            running=True if i == 0 else None,
            records=[b'{"hand": 1}'] if i == 4 else (),
            stats={"p1": StatsDelta(hands=1, points=7)} if i == 4 else None,
        )
    await store.set_public("t2", "C2", b"two")
    await store.set_public("t3", "C3", b"three")
    await store.expire_table("t3", 60)  # unlisted now, gone in a minute
    await add_stats(store, "t2", "p2", StatsDelta(games=1, wins=1))
    await store.close()

    again = _open(path, clock)
    try:
        loaded = await again.load_table("t1")
        assert loaded is not None
        assert (loaded.version, loaded.state, loaded.last_seq) == (
            total + 1,
            f"s{total + 1}".encode(),
            total,
        )
        # The capped log is the same: trimmed below, complete above.
        assert await again.events_since("t1", 2) is None
        events = await again.events_since("t1", 3)
        assert events is not None
        assert [(e.seq, e.body) for e in events] == [
            (n, f"e{n}".encode()) for n in range(4, total + 1)
        ]
        assert await again.table_id_for_code("C2") == "t2"
        assert [(p.table_id, p.summary) for p in await again.list_public()] == [("t2", b"two")]
        assert await again.hand_records("t1") == [b'{"hand": 1}']
        assert await again.get_stats("p1") == PlayerStats(hands=1, points=7)
        assert await again.get_stats("p2") == PlayerStats(games=1, wins=1)
        assert await again.table_ids() == ["t1", "t2", "t3"]
        assert await again.running_ids() == ["t1"]
        # Numbering and the lobby's order go on where they were.
        assert await commit(again, "t1", total + 1, b"next", [b"next"]) == (total + 2, total + 1)
        await again.create_table("t4", "C4", b"s")
        await again.set_public("t4", "C4", b"four")
        assert [p.table_id for p in await again.list_public()] == ["t4", "t2"]
        # The deadline set before the restart still holds (wall-clock time).
        clock.advance(60)
        assert await again.load_table("t3") is None
        assert await again.table_id_for_code("C3") is None
    finally:
        await again.close()


async def test_a_second_store_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    first = _open(path)
    try:
        await first.create_table("t1", "C1", b"s")
        with pytest.raises(StoreLocked, match="in use by another hearts server"):
            _open(path)
        # The refused store changed nothing and the first one carries on.
        assert await commit(first, "t1", 1, b"s2", [b"e"]) == (2, 1)
    finally:
        await first.close()
    # Closing gives the file back.
    second = _open(path)
    try:
        loaded = await second.load_table("t1")
        assert loaded is not None and loaded.state == b"s2"
    finally:
        await second.close()


@pytest.mark.parametrize(("query", "expected"), [("", 1), ("?synchronous=full", 2)])
async def test_the_file_is_a_versioned_wal_database(
    tmp_path: Path, query: str, expected: int
) -> None:
    path = tmp_path / "data" / "hearts.sqlite3"  # the folder is created
    store = open_store(f"sqlite://{path}{query}")
    assert isinstance(store, SqliteStore)
    # synchronous is a setting of the store's own connection: ask it there.
    level = await store._run(lambda: store._db.execute("PRAGMA synchronous").fetchone()[0])
    assert level == expected  # 1 NORMAL, 2 FULL
    await store.close()
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        raw.close()
    assert path.stat().st_mode & 0o777 == 0o600


async def test_a_file_from_a_newer_release_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreError, match="newer hearts"):
        _open(path)
    # Refused without touching the file or keeping it locked: trying again
    # gives the same answer, not "in use".
    with pytest.raises(StoreError, match="newer hearts"):
        _open(path)
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
        assert raw.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
    finally:
        raw.close()


async def test_a_data_folder_that_cannot_be_made_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file where the folder should be")
    with pytest.raises(StoreError, match="cannot create the data directory"):
        _open(tmp_path / "taken" / "hearts.sqlite3")


# The child commits to one table for ever and prints each version once its
# commit has returned (acknowledged), until it is killed.
CHILD = """
import asyncio, sys
from server.store import CommitRequest, SqliteStore

async def main(path):
    store = SqliteStore(path)
    await store.create_table("t1", "CODE1", b"v1")
    version = 1
    while True:
        version, _ = await store.commit(CommitRequest(
            "t1", version, b"v%d" % (version + 1), [b"e%d" % version], records=[b"r%d" % version]
        ))
        print(version, flush=True)

asyncio.run(main(sys.argv[1]))
"""


@pytest.mark.subprocess
async def test_every_commit_acknowledged_before_a_sigkill_is_there(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], cwd=ROOT, stdout=subprocess.PIPE
    )
    assert child.stdout is not None
    try:
        acknowledged = 0
        while acknowledged < 150:
            line = await asyncio.wait_for(asyncio.to_thread(child.stdout.readline), 30)
            assert line, f"the child stopped (status {child.poll()})"
            acknowledged = int(line)
        # A second process cannot open the file while the first holds it.
        with pytest.raises(StoreLocked):
            _open(path)
        child.send_signal(signal.SIGKILL)  # mid-stream: no chance to close anything
        assert await asyncio.to_thread(child.wait, 30) == -signal.SIGKILL
        # What it printed before dying was acknowledged too.
        for line in child.stdout.read().split():
            acknowledged = int(line)
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
        child.wait()

    store = SqliteStore(path)  # the kernel released the dead process's lock
    try:
        loaded = await store.load_table("t1")
        assert loaded is not None
        # Every acknowledged commit is there; at most the one in flight more.
        assert loaded.version in (acknowledged, acknowledged + 1)
        assert loaded.state == b"v%d" % loaded.version
        assert loaded.last_seq == loaded.version - 1
        events = await store.events_since("t1", loaded.last_seq - 5)
        assert events is not None
        assert [e.body for e in events] == [
            b"e%d" % n for n in range(loaded.last_seq - 4, loaded.last_seq + 1)
        ]
        records = await store.hand_records("t1")
        assert records == [b"r%d" % n for n in range(1, loaded.version)]
        # And the table goes on from there.
        assert await commit(store, "t1", loaded.version, b"after", []) == (
            loaded.version + 1,
            loaded.last_seq,
        )
    finally:
        await store.close()
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        raw.close()


async def test_waiting_for_the_disk_does_not_block_the_event_loop(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    store = _open(path)
    await store.create_table("t1", "C1", b"s1")
    # Another connection (a backup, say) holds the write lock: our commit
    # waits for it on the store's thread, while the loop goes on.
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        waiting = asyncio.create_task(commit(store, "t1", 1, b"s2", [b"e1"]))
        done, _ = await asyncio.wait({waiting}, timeout=0.3)
        assert not done, "the commit should still be waiting for the lock"
        other.execute("ROLLBACK")
        assert await asyncio.wait_for(waiting, 10) == (2, 1)
    finally:
        other.close()
        await store.close()


async def test_a_failed_commit_is_a_store_error_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    store = _open(path)
    try:
        await store.create_table("t1", "C1", b"s1")
        await commit(store, "t1", 1, b"s2", [b"e1"])
        # A broken file: the event log's table is gone.
        raw = sqlite3.connect(path)
        raw.execute("DROP TABLE events")
        raw.commit()
        raw.close()
        with pytest.raises(StoreError) as caught:
            await commit(store, "t1", 2, b"s3", [b"e2"], stats={"p1": StatsDelta(hands=1)})
        assert not isinstance(caught.value, StoreConflict)
        assert str(caught.value) == "the table store could not read or write its file"
        assert isinstance(caught.value.__cause__, sqlite3.Error)  # kept for the log
        loaded = await store.load_table("t1")
        assert loaded is not None and (loaded.version, loaded.state) == (2, b"s2")
        assert await store.get_stats("p1") == PlayerStats()
    finally:
        await store.close()


async def test_a_closed_store_refuses_calls_and_frees_the_file(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    store = _open(path)
    await store.create_table("t1", "C1", b"s")
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StoreError, match="closed"):
        await store.load_table("t1")
    with pytest.raises(StoreError, match="closed"):
        await store.ping()
    again = _open(path)
    try:
        assert await again.table_ids() == ["t1"]
    finally:
        await again.close()


def test_cap_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        SqliteStore(tmp_path / "hearts.sqlite3", max_events=0)
    # Refused before anything was created or locked.
    assert list(tmp_path.iterdir()) == []

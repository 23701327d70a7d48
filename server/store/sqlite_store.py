"""``SqliteStore``: the table store in one SQLite file, the embedded default
of ``hearts serve``: durable on one machine, with no service to run.

Same contract as ``MemoryStore`` and ``RedisStore`` (see ``base.TableStore``).
Layout and the guarantees it rests on:

* Threading. sqlite3 calls block on the disk, so none runs on the event
  loop: the store owns one worker thread (a single-thread executor) that
  opens and alone uses the connection, and every method sends it one
  function. One thread also serialises the calls, so each method's SQL runs
  from start to end without another call stepping in.
* Atomicity. Every write is one transaction (``BEGIN IMMEDIATE`` …
  ``COMMIT``): ``commit`` checks the version and writes state, events, hand
  records, statistics and the running flag together, or raises and writes
  nothing.
* Durability. The journal is a write-ahead log (WAL). With
  ``synchronous=NORMAL`` (the default) a transaction is in the WAL file, in
  the operating system's hands, before ``commit`` returns: a crash or
  ``SIGKILL`` of the server loses nothing acknowledged, a power loss or
  kernel crash may lose the last transactions (the file stays consistent).
  ``synchronous=FULL`` also fsyncs the WAL on every commit, which survives
  power loss too, at the price ``hearts bench server`` measures.
* One process. Two servers on one file would each believe they run its
  tables (there is no lease fencing here, unlike Redis), so the store holds
  an exclusive ``flock`` on ``<file>.lock`` while it is open and a second
  store on the same file is refused with ``StoreLocked``. The kernel drops
  the lock when the process dies, even by ``SIGKILL``, so a restart never
  finds a stale one.
* Expiry. Deadlines are wall-clock seconds (they must survive a restart);
  the clock is injectable so tests move time instead of sleeping. Expired
  tables are invisible at once and deleted (with their events, records
  and reviews) by the next ``create_table`` or ``expire_table``.
* Schema. ``PRAGMA user_version`` holds the schema's version; opening a file
  migrates it forward step by step (``_MIGRATIONS``) and refuses a file
  written by a newer release.

The ``owner`` argument of ``commit`` is accepted for the interface's sake:
one process owns every table in its file (the lock above sees to that).
Opening errors name the file (they are for the operator, at start-up); once
open, every sqlite3 error leaves this module as ``StoreError`` with a message
that names no path or data (the original stays chained for the server log).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields
from pathlib import Path
from typing import Literal, TypeVar

from server.store.base import (
    CommitRequest,
    PlayerStats,
    PublicTable,
    StatsDelta,
    StoreConflict,
    StoredEvent,
    StoredTable,
    StoreError,
)

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]

DEFAULT_MAX_EVENTS = 2000
DEFAULT_FILE_NAME = "hearts.sqlite3"
_STAT_FIELDS = tuple(f.name for f in fields(StatsDelta))
# A table is live while it has no deadline or its deadline is still ahead
# (the memory store's rule: at the deadline it is gone).
_LIVE = "(deadline IS NULL OR deadline > ?)"

# Each entry upgrades the schema from version N - 1 to N (index N - 1).
# Tables: ``created`` (an AUTOINCREMENT key, never reused) orders the lobby
# newest first; ``token`` names the last applied commit (retry detection);
# ``deadline`` is wall-clock seconds or NULL.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        created INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        code TEXT NOT NULL UNIQUE,
        state BLOB NOT NULL,
        version INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        token TEXT,
        running INTEGER NOT NULL DEFAULT 0,
        public_code TEXT,
        public_summary BLOB,
        deadline REAL
    );
    CREATE INDEX tables_deadline ON tables (deadline) WHERE deadline IS NOT NULL;
    CREATE INDEX tables_public ON tables (created) WHERE public_summary IS NOT NULL;
    CREATE INDEX tables_running ON tables (id) WHERE running = 1;
    CREATE TABLE events (
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE records (
        n INTEGER PRIMARY KEY,
        table_id TEXT NOT NULL,
        body BLOB NOT NULL
    );
    CREATE INDEX records_table ON records (table_id, n);
    CREATE TABLE stats (
        player_id TEXT PRIMARY KEY,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        moons INTEGER NOT NULL DEFAULT 0,
        queens INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    """,
    # 2: hand reviews kept with their table (``save_review``), keyed by what
    # they were made from (server.stored_reviews).
    """
    CREATE TABLE reviews (
        table_id TEXT NOT NULL,
        key TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (table_id, key)
    ) WITHOUT ROWID;
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)

_ADD_STATS = (
    f"INSERT INTO stats (player_id, {', '.join(_STAT_FIELDS)}) "
    f"VALUES (?, {', '.join('?' for _ in _STAT_FIELDS)}) "
    "ON CONFLICT (player_id) DO UPDATE SET "
    + ", ".join(f"{name} = {name} + excluded.{name}" for name in _STAT_FIELDS)
)


class StoreLocked(StoreError):
    """Another store (another server process) has the file open."""


def _store_error(exc: sqlite3.Error) -> StoreError:
    """A ``StoreError`` with a safe sentence for a sqlite3 error."""
    if isinstance(exc, sqlite3.OperationalError):
        return StoreError("the table store could not read or write its file")
    if isinstance(exc, sqlite3.DatabaseError):
        return StoreError("the table store holds malformed data")
    return StoreError("the table store failed")


def _lock(path: Path) -> int:
    """Take the exclusive lock of ``path``'s lock file; its descriptor.

    ``StoreLocked`` if another open store holds it (in this process or any
    other: ``flock`` locks belong to the open file, not the process)."""
    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreLocked(
            f"{path} is in use by another hearts server (it holds {lock_path}): "
            "stop that one first, or give this one another data directory"
        ) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


class SqliteStore:
    """A ``TableStore`` in one SQLite file; see the module docstring."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        max_events: int = DEFAULT_MAX_EVENTS,
        clock: Callable[[], float] = time.time,
        synchronous: Synchronous = "NORMAL",
    ) -> None:
        """Open (creating the file and its folder if missing) the store at
        ``path`` and lock it for this store alone (``StoreLocked`` if another
        has it). Keep at most ``max_events`` events per table; ``clock``
        (wall-clock seconds) decides expiry; ``synchronous`` is SQLite's
        setting (see the module docstring). Blocks while opening: call it
        from a thread when an event loop is running."""
        if max_events < 1:
            raise ValueError("max_events must be at least 1")
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be NORMAL or FULL")
        self.path = Path(path)
        self.max_events = max_events
        self.synchronous = synchronous
        self._clock = clock
        self._closed = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise StoreError(
                f"cannot create the data directory {self.path.parent} ({exc.strerror}):"
                " give it a folder it can write"
            ) from exc
        self._lock_fd = _lock(self.path)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearts-sqlite")
        try:
            self._db: sqlite3.Connection = self._thread.submit(self._connect).result()
        except BaseException:
            self._thread.shutdown(wait=True)
            os.close(self._lock_fd)
            raise

    # -- the worker thread ------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        """Open the file (on the worker thread, which alone uses it), set it
        up and bring its schema up to date."""
        new = not self.path.exists()
        try:
            # Autocommit mode: the store says itself where transactions begin.
            db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from exc
        try:
            if new:
                # Players' data, for the server's user only (SQLite gives the
                # WAL files the database file's mode).
                os.chmod(self.path, 0o600)
            if db.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
                raise StoreError(f"{self.path}: SQLite refused the WAL journal")
            db.execute(f"PRAGMA synchronous = {self.synchronous}")
            # Someone reading the file (a backup) may hold a lock a moment.
            db.execute("PRAGMA busy_timeout = 5000")
            self._migrate(db)
        except BaseException as exc:
            db.close()
            if isinstance(exc, sqlite3.Error | OSError):
                raise StoreError(f"cannot use {self.path}: {exc}") from exc
            raise
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Apply the migrations the file lacks, each in its own transaction."""
        found = int(db.execute("PRAGMA user_version").fetchone()[0])
        if found > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer hearts (schema {found}, this one knows "
                f"up to {SCHEMA_VERSION}): upgrade hearts to use it"
            )
        for version in range(found + 1, SCHEMA_VERSION + 1):
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _MIGRATIONS[version - 1].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {version}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one write transaction; roll back if it raises."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return result

    @staticmethod
    def _purge(db: sqlite3.Connection, now: float) -> None:
        """Delete the tables whose deadline has come, with their logs,
        records and reviews."""
        dead = "SELECT id FROM tables WHERE deadline IS NOT NULL AND deadline <= ?"
        db.execute(f"DELETE FROM events WHERE table_id IN ({dead})", (now,))
        db.execute(f"DELETE FROM records WHERE table_id IN ({dead})", (now,))
        db.execute(f"DELETE FROM reviews WHERE table_id IN ({dead})", (now,))
        db.execute("DELETE FROM tables WHERE deadline IS NOT NULL AND deadline <= ?", (now,))

    async def _run(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the worker thread; sqlite3 errors become ``StoreError``."""
        if self._closed:
            raise StoreError("the table store is closed")
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, work)
        except sqlite3.Error as exc:
            raise _store_error(exc) from exc

    # -- TableStore -------------------------------------------------------

    async def ping(self) -> None:
        """Readiness: returns when the worker thread and the file answer."""
        await self._run(lambda: self._db.execute("SELECT 1").fetchone())

    async def create_table(self, table_id: str, code: str, state: bytes) -> None:
        """Store a new table at version 1; ``StoreConflict`` if id or code is taken."""
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            # Expired tables give up their id and code here, logs and all.
            self._purge(db, now)
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone():
                raise StoreConflict("table id already taken")
            if db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone():
                raise StoreConflict("invite code already taken")
            db.execute(
                "INSERT INTO tables (id, code, state, version, last_seq) VALUES (?, ?, ?, 1, 0)",
                (table_id, code, state),
            )

        await self._run(lambda: self._transaction(work))

    async def load_table(self, table_id: str) -> StoredTable | None:
        """The stored table, or None if unknown or expired."""
        now = self._clock()

        def read() -> StoredTable | None:
            row = self._db.execute(
                f"SELECT version, state, last_seq FROM tables WHERE id = ? AND {_LIVE}",
                (table_id, now),
            ).fetchone()
            return None if row is None else StoredTable(table_id, row[0], bytes(row[1]), row[2])

        return await self._run(read)

    async def commit(self, request: CommitRequest) -> tuple[int, int]:
        """Compare-and-set in one transaction: write the state and append
        the events if the version is still the expected one;
        ``StoreConflict`` otherwise (also for an unknown or expired table).
        A repeat of an applied commit (same ``token``) returns its result.
        (``owner`` is not checked: one process holds the file.)"""
        table_id, expected_version, token = (
            request.table_id,
            request.expected_version,
            request.token,
        )
        state, events, running, records = (
            request.state,
            request.events,
            request.running,
            request.records,
        )
        stats = request.stats
        now = self._clock()
        flag = None if running is None else int(running)
        increments = [
            (player_id, *(getattr(delta, name) for name in _STAT_FIELDS))
            for player_id, delta in stats.items()
        ]

        def work(db: sqlite3.Connection) -> tuple[int, int]:
            row = db.execute(
                f"SELECT version, last_seq, token FROM tables WHERE id = ? AND {_LIVE}",
                (table_id, now),
            ).fetchone()
            if row is None:
                raise StoreConflict("table unknown or expired")
            version, last, applied = row
            # Our own earlier attempt applied and only its reply was lost.
            if token is not None and version == expected_version + 1 and applied == token:
                return version, last
            if version != expected_version:
                raise StoreConflict("table version moved on")
            db.executemany(
                "INSERT INTO events (table_id, seq, body) VALUES (?, ?, ?)",
                ((table_id, last + n, body) for n, body in enumerate(events, start=1)),
            )
            last += len(events)
            if events:
                # The capped log: only the newest ``max_events`` stay.
                db.execute(
                    "DELETE FROM events WHERE table_id = ? AND seq <= ?",
                    (table_id, last - self.max_events),
                )
            db.execute(
                "UPDATE tables SET state = ?, version = ?, last_seq = ?, token = ?,"
                " running = COALESCE(?, running) WHERE id = ?",
                (state, version + 1, last, token, flag, table_id),
            )
            # A finished hand's record and its statistics go in with the
            # commit that finishes it: never lost between two writes, never
            # counted twice.
            db.executemany(
                "INSERT INTO records (table_id, body) VALUES (?, ?)",
                ((table_id, record) for record in records),
            )
            db.executemany(_ADD_STATS, increments)
            return version + 1, last

        return await self._run(lambda: self._transaction(work))

    async def events_since(self, table_id: str, after_seq: int) -> list[StoredEvent] | None:
        """Events numbered above ``after_seq``; None if trimmed, unknown table,
        or a number the table never reached."""
        if after_seq < 0:
            return None
        now = self._clock()

        def read() -> list[StoredEvent] | None:
            row = self._db.execute(
                f"SELECT last_seq FROM tables WHERE id = ? AND {_LIVE}", (table_id, now)
            ).fetchone()
            if row is None or after_seq > row[0]:
                return None
            rows = self._db.execute(
                "SELECT seq, body FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after_seq),
            ).fetchall()
            if after_seq < row[0] and (not rows or rows[0][0] != after_seq + 1):
                return None  # the log starts after the first missing event: trimmed
            return [StoredEvent(seq, bytes(body)) for seq, body in rows]

        return await self._run(read)

    async def table_id_for_code(self, code: str) -> str | None:
        """The live table an invite code names, or None."""
        now = self._clock()

        def read() -> str | None:
            row = self._db.execute(
                f"SELECT id FROM tables WHERE code = ? AND {_LIVE}", (code, now)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

    async def set_public(self, table_id: str, code: str, summary: bytes | None) -> None:
        """List (or with None unlist) the table; an unknown table is ignored."""
        now = self._clock()
        listed = (None, None) if summary is None else (code, summary)

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                f"UPDATE tables SET public_code = ?, public_summary = ? WHERE id = ? AND {_LIVE}",
                (*listed, table_id, now),
            )

        await self._run(lambda: self._transaction(work))

    async def list_public(self, limit: int = 50) -> list[PublicTable]:
        """Listed live tables, newest first, at most ``limit``."""
        if limit <= 0:
            return []
        now = self._clock()

        def read() -> list[PublicTable]:
            rows = self._db.execute(
                "SELECT id, public_code, public_summary FROM tables"
                f" WHERE public_summary IS NOT NULL AND {_LIVE} ORDER BY created DESC LIMIT ?",
                (now, limit),
            ).fetchall()
            return [PublicTable(str(i), str(c), bytes(s)) for i, c, s in rows]

        return await self._run(read)

    async def expire_table(self, table_id: str, seconds: int) -> None:
        """Drop the table ``seconds`` from now and unlist it at once."""
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE tables SET deadline = ?, public_code = NULL, public_summary = NULL"
                f" WHERE id = ? AND {_LIVE}",
                (now + seconds, table_id, now),
            )
            self._purge(db, now)

        await self._run(lambda: self._transaction(work))

    async def hand_records(self, table_id: str) -> list[bytes]:
        """The table's hand records, oldest first ([] for an unknown table)."""
        now = self._clock()

        def read() -> list[bytes]:
            rows = self._db.execute(
                "SELECT records.body FROM records JOIN tables ON tables.id = records.table_id"
                f" WHERE records.table_id = ? AND {_LIVE} ORDER BY records.n",
                (table_id, now),
            ).fetchall()
            return [bytes(body) for (body,) in rows]

        return await self._run(read)

    async def save_review(self, table_id: str, key: str, review: bytes) -> None:
        """Keep the review with the live table, replacing one under the same
        key (purged with the table); for an unknown or expired table, nothing."""
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR REPLACE INTO reviews (table_id, key, body)"
                f" SELECT id, ?, ? FROM tables WHERE id = ? AND {_LIVE}",
                (key, review, table_id, now),
            )

        await self._run(lambda: self._transaction(work))

    async def load_reviews(self, table_id: str, keys: Sequence[str]) -> list[bytes | None]:
        """The reviews kept under ``keys`` (None where none is)."""
        now = self._clock()
        wanted = list(keys)

        def read() -> list[bytes | None]:
            found: dict[str, bytes] = {}
            # SQLite takes at most 32766 parameters: a game's seat-hands
            # are far fewer, but a long list is read in slices anyway.
            for start in range(0, len(wanted), 500):
                part = wanted[start : start + 500]
                rows = self._db.execute(
                    "SELECT reviews.key, reviews.body FROM reviews"
                    " JOIN tables ON tables.id = reviews.table_id"
                    f" WHERE reviews.table_id = ? AND {_LIVE}"
                    f" AND reviews.key IN ({', '.join('?' for _ in part)})",
                    (table_id, now, *part),
                ).fetchall()
                found.update((str(key), bytes(body)) for key, body in rows)
            return [found.get(key) for key in wanted]

        return await self._run(read)

    async def get_stats(self, player_id: str) -> PlayerStats:
        """The player's totals (zeros if unknown)."""

        def read() -> PlayerStats:
            row = self._db.execute(
                f"SELECT {', '.join(_STAT_FIELDS)} FROM stats WHERE player_id = ?", (player_id,)
            ).fetchone()
            return PlayerStats(**dict(zip(_STAT_FIELDS, row or (), strict=False)))

        return await self._run(read)

    async def table_ids(self) -> list[str]:
        """Ids of every live table, oldest first."""
        now = self._clock()

        def read() -> list[str]:
            rows = self._db.execute(
                f"SELECT id FROM tables WHERE {_LIVE} ORDER BY created", (now,)
            ).fetchall()
            return [str(table_id) for (table_id,) in rows]

        return await self._run(read)

    async def running_ids(self) -> list[str]:
        """Ids of the live tables whose last commit said a game is running."""
        now = self._clock()

        def read() -> list[str]:
            rows = self._db.execute(
                f"SELECT id FROM tables WHERE running = 1 AND {_LIVE} ORDER BY id", (now,)
            ).fetchall()
            return [str(table_id) for (table_id,) in rows]

        return await self._run(read)

    async def close(self) -> None:
        """Close the file and give the lock back (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._thread, self._db.close)
        except sqlite3.Error as exc:
            raise _store_error(exc) from exc
        finally:
            self._thread.shutdown(wait=True)  # its queue is empty: the close was last
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)

"""``MemoryStore``: plain dicts in this process (``hearts serve --store
memory``, and the in-process servers of ``hearts play`` and the tests).

Same semantics as ``SqliteStore`` and ``RedisStore`` (see
``base.TableStore``), minus durability across restarts. It is asyncio-safe without a lock because no method awaits
anything: each call runs from start to end without another task stepping in,
which is exactly the atomicity Redis gives a Lua script.

Expiry is lazy: a table whose deadline has passed is dropped by the first
call that touches it (or by ``table_ids`` / ``list_public``). The clock is
injectable so tests move time instead of sleeping.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields

from server.store.base import (
    CommitRequest,
    PlayerStats,
    PublicTable,
    StatsDelta,
    StoreConflict,
    StoredEvent,
    StoredTable,
)

DEFAULT_MAX_EVENTS = 2000


@dataclass(eq=False, slots=True)
class _Table:
    """One table's stored data (mutable, private to the store)."""

    state: bytes
    code: str
    created: int
    events: deque[StoredEvent]
    version: int = 1
    last_seq: int = 0
    records: list[bytes] = field(default_factory=list)
    reviews: dict[str, bytes] = field(default_factory=dict)
    listing: PublicTable | None = None
    deadline: float | None = None
    token: str | None = None  # names the last applied commit (retry detection)


class MemoryStore:
    """An in-process ``TableStore``; see the module docstring."""

    def __init__(
        self,
        max_events: int = DEFAULT_MAX_EVENTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Keep at most ``max_events`` events per table; ``clock`` (seconds)
        decides expiry."""
        if max_events < 1:
            raise ValueError("max_events must be at least 1")
        self.max_events = max_events
        self._clock = clock
        self._tables: dict[str, _Table] = {}
        self._codes: dict[str, str] = {}
        self._stats: dict[str, dict[str, int]] = {}
        self._running: set[str] = set()
        # Creation numbers order the lobby newest first without ties, which a
        # clock reading could not promise.
        self._created = itertools.count(1)

    def _live(self, table_id: str) -> _Table | None:
        """The table if it exists and has not expired (dropping it if it has)."""
        table = self._tables.get(table_id)
        if table is None:
            return None
        if table.deadline is not None and self._clock() >= table.deadline:
            del self._tables[table_id]
            if self._codes.get(table.code) == table_id:
                del self._codes[table.code]
            return None
        return table

    async def ping(self) -> None:
        """Always ready (symmetry with ``RedisStore.ping``)."""

    async def create_table(self, table_id: str, code: str, state: bytes) -> None:
        """Store a new table at version 1; ``StoreConflict`` if id or code is taken."""
        if self._live(table_id) is not None:
            raise StoreConflict("table id already taken")
        owner = self._codes.get(code)
        if owner is not None and self._live(owner) is not None:
            raise StoreConflict("invite code already taken")
        self._tables[table_id] = _Table(
            state=state,
            code=code,
            created=next(self._created),
            events=deque(maxlen=self.max_events),
        )
        self._codes[code] = table_id
        self._running.discard(table_id)  # a dead table's id reused starts afresh

    async def load_table(self, table_id: str) -> StoredTable | None:
        """The stored table, or None if unknown or expired."""
        table = self._live(table_id)
        if table is None:
            return None
        return StoredTable(table_id, table.version, table.state, table.last_seq)

    # ``owner`` is accepted for the interface's sake: a memory store lives in
    # one process, which owns every table in it.
    async def commit(self, request: CommitRequest) -> tuple[int, int]:
        """Compare-and-set: write the state and append the events if the
        version is still the expected one; ``StoreConflict`` otherwise (also
        for an unknown or expired table). A repeat of an applied commit
        (same ``token``) returns its result, as on the other stores."""
        table_id, expected_version, token = (
            request.table_id,
            request.expected_version,
            request.token,
        )
        table = self._live(table_id)
        if table is None:
            raise StoreConflict("table unknown or expired")
        if token is not None and table.version == expected_version + 1 and table.token == token:
            return table.version, table.last_seq
        if table.version != expected_version:
            raise StoreConflict("table version moved on")
        for body in request.events:
            table.last_seq += 1
            # The deque's maxlen drops the oldest events: the capped log.
            table.events.append(StoredEvent(table.last_seq, body))
        table.state = request.state
        table.version += 1
        table.token = token
        table.records.extend(request.records)
        for player_id, delta in request.stats.items():
            self._add_stats(player_id, delta)
        if request.running is True:
            self._running.add(table_id)
        elif request.running is False:
            self._running.discard(table_id)
        return table.version, table.last_seq

    async def events_since(self, table_id: str, after_seq: int) -> list[StoredEvent] | None:
        """Events numbered above ``after_seq``; None if trimmed, unknown table,
        or a number the table never reached."""
        table = self._live(table_id)
        if table is None or after_seq < 0 or after_seq > table.last_seq:
            return None
        if after_seq == table.last_seq:
            return []
        first = table.events[0].seq if table.events else table.last_seq + 1
        if after_seq + 1 < first:
            return None
        return list(itertools.islice(table.events, after_seq + 1 - first, None))

    async def table_id_for_code(self, code: str) -> str | None:
        """The live table an invite code names, or None."""
        table_id = self._codes.get(code)
        if table_id is None or self._live(table_id) is None:
            return None
        return table_id

    async def set_public(self, table_id: str, code: str, summary: bytes | None) -> None:
        """List (or with None unlist) the table; an unknown table is ignored."""
        table = self._live(table_id)
        if table is not None:
            table.listing = None if summary is None else PublicTable(table_id, code, summary)

    async def list_public(self, limit: int = 50) -> list[PublicTable]:
        """Listed live tables, newest first, at most ``limit``."""
        listed = [
            (table.created, table.listing)
            for table_id, table in list(self._tables.items())
            if self._live(table_id) is not None and table.listing is not None
        ]
        listed.sort(key=lambda entry: entry[0], reverse=True)
        return [listing for _, listing in listed[: max(limit, 0)]]

    async def expire_table(self, table_id: str, seconds: int) -> None:
        """Drop the table ``seconds`` from now and unlist it at once."""
        table = self._live(table_id)
        if table is not None:
            table.listing = None
            table.deadline = self._clock() + seconds

    async def hand_records(self, table_id: str) -> list[bytes]:
        """The table's hand records, oldest first ([] for an unknown table)."""
        table = self._live(table_id)
        return [] if table is None else list(table.records)

    async def save_review(self, table_id: str, key: str, review: bytes) -> None:
        """Keep the review with the live table (it goes with the table);
        for an unknown or expired table, nothing."""
        table = self._live(table_id)
        if table is not None:
            table.reviews[key] = review

    async def load_reviews(self, table_id: str, keys: Sequence[str]) -> list[bytes | None]:
        """The reviews kept under ``keys`` (None where none is)."""
        table = self._live(table_id)
        kept = {} if table is None else table.reviews
        return [kept.get(key) for key in keys]

    def _add_stats(self, player_id: str, delta: StatsDelta) -> None:
        totals = self._stats.setdefault(player_id, {})
        for f in fields(StatsDelta):
            totals[f.name] = totals.get(f.name, 0) + getattr(delta, f.name)

    async def get_stats(self, player_id: str) -> PlayerStats:
        """The player's totals (zeros if unknown)."""
        return PlayerStats(**self._stats.get(player_id, {}))

    async def table_ids(self) -> list[str]:
        """Ids of every live table."""
        return [table_id for table_id in list(self._tables) if self._live(table_id) is not None]

    async def running_ids(self) -> list[str]:
        """Ids of the live tables whose last commit said a game is running."""
        for table_id in list(self._running):
            if self._live(table_id) is None:
                self._running.discard(table_id)
        return sorted(self._running)

    async def close(self) -> None:
        """Nothing to release; the data stays readable."""

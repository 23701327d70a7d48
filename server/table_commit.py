"""Committing one table's events: the "commit" hop of one play
(docs/architecture.md property 6, "acknowledged means durable").

A ``TableCommits`` keeps the table's last stored version and state blob. A
commit numbers the events, then stores the new blob and the events with
compare-and-set on the version (fenced by the owner's lease with Redis),
together with the records of hands that ended and the players' statistics.
While the store is unreachable it retries, jittered, for up to
``patience`` seconds of waiting (players see a pause, not an error); a
refusal (``StoreConflict``) is final at once. If it fails, the actor rolls
the table back to ``committed_state()``.
"""

from __future__ import annotations

import asyncio
import secrets
import time

from common.retry import Backoff

from .logged_events import Events, Logged
from .metrics import Metrics
from .store.base import CommitRequest, StoreConflict, StoreError, TableStore
from .table_records import hand_records, stats_of
from .table_state import TableState

# Statuses in which a table needs an owner whether or not anyone is connected.
RUNNING_STATUSES = frozenset({"playing", "between_hands"})


class TableCommits:
    """One table's stored version and blob, and commits on top of them."""

    __slots__ = (
        "_commits",
        "_token_prefix",
        "blob",
        "metrics",
        "owner",
        "patience",
        "store",
        "table_id",
        "version",
    )

    def __init__(
        self,
        store: TableStore,
        table_id: str,
        version: int,
        blob: bytes,
        *,
        owner: str | None,
        patience: float,
        metrics: Metrics | None,
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.version = version
        self.blob = blob
        # The process under whose lease commits are fenced (scale-out); None
        # for a single process.
        self.owner = owner
        self.patience = patience
        self.metrics = metrics
        # Commit tokens: random per table actor, numbered per commit.
        self._token_prefix = secrets.token_hex(8) + ":"
        self._commits = 0

    async def commit(self, state: TableState, events: Events) -> list[Logged]:
        """Number ``events`` and store them with ``state``; returns them
        numbered. ``StoreConflict`` if the store refuses, ``StoreError`` if
        it stayed unreachable (``state.seq`` has moved on then too: the
        caller rolls the state back)."""
        numbered = [Logged(state.seq + i, e) for i, e in enumerate(events, start=1)]
        state.seq += len(events)
        state.moved_at = round(time.time(), 3)
        blob = state.to_bytes()
        bodies = [entry.body() for entry in numbered]
        # A game in progress must be run even with nobody connected (bots
        # play on, grace timers run out): the store indexes such tables so
        # a restart or a takeover finds them without reading every table.
        running = state.status in RUNNING_STATUSES
        records = hand_records(state, events)
        stats = stats_of(state, events)
        started = time.perf_counter()
        # One token for every attempt: an attempt that applied but whose
        # reply was lost is recognised by the next one, not taken for a
        # conflict with ourselves. Unique without a fresh secret per commit:
        # this actor's random prefix and a counter.
        self._commits += 1
        token = f"{self._token_prefix}{self._commits}"
        request = CommitRequest(
            self.table_id,
            self.version,
            blob,
            bodies,
            owner=self.owner,
            running=running,
            records=records,
            stats=stats,
            token=token,
        )
        backoff: Backoff | None = None
        while True:
            try:
                self.version, _ = await self.store.commit(request)
                break
            except StoreConflict:
                raise
            except StoreError:
                backoff = backoff or Backoff(0.05, 1.0)
                if backoff.waited >= self.patience:
                    raise
                await asyncio.sleep(backoff.next())  # while the store comes back
        if self.metrics is not None:
            self.metrics.store_commit.observe(time.perf_counter() - started)
        self.blob = blob
        return numbered

    def committed_state(self) -> TableState:
        """The table as last stored (what a failed commit rolls back to)."""
        return TableState.from_bytes(self.blob)

    async def reload(self) -> TableState | None:
        """The table as the store has it now (None: gone), taken as the last
        committed state."""
        stored = await self.store.load_table(self.table_id)
        if stored is None:
            return None
        self.version = stored.version
        self.blob = stored.state
        return TableState.from_bytes(stored.state)

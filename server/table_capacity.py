"""Whether a new table may be created now: caps on what the server holds,
checked before each creation (``TableCapacity.check``). A refusal concerns
new tables only: games in progress, resumes and takeovers go on.

* tables this process runs at once (``max_tables_per_process``): each costs
  memory here, up to ~350 KiB in play (docs/deploy.md, Sizing);
* live tables in the store, every process's (``max_live_tables``);
* the store's fill (``server.store_usage``): at ``store_fill_limit`` of its
  size new tables are refused, so the room left goes to the games already
  running (each one's log grows until its cap) rather than to a writer
  refused mid-game when Redis reaches ``maxmemory``.

The store is read at most every ``STORE_READ_SECONDS`` (a creation does
not wait on ``INFO`` and a table count each time); tables created here
since the last reading are added to its count, so a burst between two
readings cannot overshoot by more than the other processes' creations.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from .config import ServerConfig
from .errors import TableRefused
from .store.base import TableStore
from .store_usage import StoreFill, live_tables, store_fill

log = logging.getLogger("hearts.capacity")

STORE_READ_SECONDS = 5.0
# What a refused creator is told to wait: tables end and expire over
# minutes, not seconds, and an operator needs time to add room.
RETRY_SECONDS = 60.0
MIB = 1024 * 1024


class TableCapacity:
    """The caps on new tables of one server process."""

    def __init__(
        self,
        store: TableStore,
        config: ServerConfig,
        running: Callable[[], int],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.config = config
        self._running = running
        self._clock = clock
        self._lock = asyncio.Lock()
        self._read_at: float | None = None
        self._live = 0
        self._fill: StoreFill | None = None
        self._created_since_read = 0
        # Creations let through and not yet done: they count as tables
        # already, or creations at once (many connections) would all pass.
        self._pending = 0
        # The reason new tables are refused now (None: accepted), so the
        # log says when that starts and ends, not at every refusal.
        self._refusing: str | None = None

    def created(self) -> None:
        """A table ``check`` let through was created (it runs here now, and
        is counted in the store's tables until the next reading)."""
        self._pending = max(0, self._pending - 1)
        self._created_since_read += 1

    def cancelled(self) -> None:
        """A table ``check`` let through was not created after all."""
        self._pending = max(0, self._pending - 1)

    async def _read_store(self) -> None:
        async with self._lock:
            now = self._clock()
            if self._read_at is not None and now - self._read_at < STORE_READ_SECONDS:
                return
            size = self.config.store_size_mb * MIB if self.config.store_size_mb else None
            fill = await store_fill(self.store, size)
            live = await live_tables(self.store) if self.config.max_live_tables > 0 else 0
            self._fill, self._live = fill, live
            self._created_since_read = 0
            self._read_at = self._clock()

    async def check(self) -> None:
        """Raise ``TableRefused`` (``server_full``) when a cap is reached;
        otherwise the table is counted from now (``created`` or
        ``cancelled`` says how it ended)."""
        refusal = await self._refusal()
        if refusal is None:
            if self._refusing is not None:
                log.info("accepting new tables again", extra={"event": "capacity_restored"})
            self._refusing = None
            self._pending += 1
            return
        reason, message, detail = refusal
        if self._refusing != reason:
            log.warning(
                "refusing new tables: %s (games in progress go on)",
                detail,
                extra={"event": "capacity_refused", "reason": reason},
            )
        self._refusing = reason
        raise TableRefused(message, "server_full", reason, RETRY_SECONDS)

    async def _refusal(self) -> tuple[str, str, str] | None:
        """(reason, message for the player, detail for the log), or None."""
        cap = self.config.max_tables_per_process
        running = self._running() + self._pending
        if cap > 0 and running >= cap:
            return (
                "process_tables",
                "this server has as many tables as it can run; try again in a minute",
                f"this process runs {running} tables (--max-tables-per-process {cap})",
            )
        await self._read_store()
        cap = self.config.max_live_tables
        live = self._live + self._created_since_read + self._pending
        if cap > 0 and live >= cap:
            return (
                "store_tables",
                "the server holds as many tables as it may; try again in a minute",
                f"the store holds {live} live tables (--max-live-tables {cap})",
            )
        fill = self._fill
        limit = self.config.store_fill_limit
        if fill is not None and limit > 0 and fill.fraction >= limit:
            return (
                "store_full",
                "the server's storage is nearly full; try again in a minute",
                f"the store uses {fill.used // MIB} MiB of {fill.size // MIB} MiB ({fill.what}),"
                f" over {limit:.0%} (--store-fill-limit)",
            )
        return None

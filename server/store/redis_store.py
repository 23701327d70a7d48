"""``RedisStore``: the table store on Redis (redis.asyncio), for durability
and for several server processes sharing their tables.

Layout and scripts: see ``server.store.redis_scripts``. Every write that
touches more than one key is one Lua script, so it is atomic. ``commit`` is
the compare-and-set of ``base.TableStore``: one script checks the version,
appends the events to the capped stream (entry id ``<seq>-0``, so
``events_since`` is one XRANGE) and writes state, version and last event
number; two writers can never both win, and state and events are never
written apart.

The event stream is trimmed exactly (``MAXLEN n``, not ``~``): the cap is
small, exact trimming costs little at that size, and it makes "which events
are still there" the same on Redis as in ``MemoryStore``.

Retry policy. redis-py's pool reconnects by itself; what is left to decide is
whether to send a command again after a connection error or timeout, when we
cannot know whether Redis received and ran it. The client's own retry is
therefore switched off, and each method picks:

* Reads, and writes that give the same result when run twice (listing,
  unlisting, expiry, the lazy clean-ups): retried up to ``retries`` (3) times
  with exponential backoff (50, 100, 200 ms); a longer outage surfaces as
  ``StoreError`` to the caller rather than stalling a table.
* ``create_table`` and ``commit``: retried too, because they are made safe to
  repeat. Each call sends a fresh random token that the script stores in the
  table hash with its write. If a retry finds the version already one past
  what it expected *and* its own token there, the first attempt applied and
  only its reply was lost: the script returns that attempt's result instead
  of a conflict, and nothing is written twice. (If a second writer committed
  in between, the retry reports a conflict although our write applied: the
  intent is then durable but not acknowledged, which is allowed; the reverse,
  acknowledged but not durable, cannot happen.)
* ``add_hand_record`` (RPUSH) and ``add_stats`` (HINCRBY): a repeat would
  store the record twice or count the hand twice, so they are sent once; a
  connection error becomes ``StoreError`` and the caller decides. The server
  passes a finished hand's record and its players' statistics to ``commit``
  instead (``records``, ``stats``), so they share the commit's atomicity and
  its safe retries.

Every redis-py error leaves this module as ``StoreError`` with a message that
names no host, key or data (the original stays chained for the server log).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store import redis_keys
from server.store import redis_scripts as lua
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
from server.store.redis_lane import RedisLane

T = TypeVar("T")
ScriptArg = bytes | str | int

DEFAULT_MAX_EVENTS = 2000
_STAT_FIELDS = tuple(f.name for f in fields(StatsDelta))
_REFUSALS = {
    lua.UNKNOWN_TABLE: "table unknown or expired",
    lua.VERSION_MOVED: "table version moved on",
    lua.ID_TAKEN: "table id already taken",
    lua.CODE_TAKEN: "invite code already taken",
    lua.LEASE_LOST: "this process no longer holds the table's lease",
}


async def _on_failure(_error: Exception) -> None:
    """Retry hook: nothing to do, redis-py already dropped the broken connection."""


def _as_bytes(value: bytes | str) -> bytes:
    """A reply as bytes (the client does not decode replies, so this is a no-op
    in practice; it keeps the types honest)."""
    return value.encode() if isinstance(value, str) else bytes(value)


def _store_error(exc: Exception) -> StoreError:
    """A ``StoreError`` with a safe sentence for a redis-py (or decoding) error."""
    if isinstance(exc, RedisConnectionError | RedisTimeoutError):
        return StoreError("the table store is unreachable")
    if isinstance(exc, RedisError):
        return StoreError("the table store refused a command")
    return StoreError("the table store holds malformed data")


class RedisStore:
    """A ``TableStore`` on Redis; see the module docstring."""

    def __init__(
        self,
        url: str,
        prefix: str = "hearts:",
        max_events: int = DEFAULT_MAX_EVENTS,
        *,
        retries: int = 3,
        timeout: float = 5.0,
    ) -> None:
        """Connect lazily to ``url`` (``redis://host:port/db``); every key starts
        with ``prefix``. Idempotent operations are tried ``retries`` more times
        after a connection error; ``timeout`` bounds each socket operation."""
        if max_events < 1:
            raise ValueError("max_events must be at least 1")
        self.prefix = prefix
        self.max_events = max_events
        self._redis = Redis.from_url(
            url,
            # No blind resend of anything: see "Retry policy" above.
            retry=Retry(NoBackoff(), 0),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        self._retry = Retry(
            ExponentialBackoff(cap=1.0, base=0.025),
            retries,
            supported_errors=(RedisConnectionError, RedisTimeoutError),
        )
        register = self._redis.register_script
        self._create_script = register(lua.CREATE)
        # Commits, one per action, go through a pipelined connection of
        # their own where the address allows (server.store.redis_lane).
        self._lane = RedisLane.for_url(url, timeout)
        self._commit_script: Callable[[list[str], list[ScriptArg]], Awaitable[Any]] = (
            register(lua.COMMIT) if self._lane is None else self._lane_commit
        )
        self._list_script = register(lua.LIST_OR_UNLIST)
        self._public_script = register(lua.LIST_PUBLIC)
        self._expire_script = register(lua.EXPIRE)
        self._record_script = register(lua.ADD_RECORD)
        self._table_ids_script = register(lua.TABLE_IDS)

    async def _lane_commit(self, keys: list[str], args: list[ScriptArg]) -> Any:
        assert self._lane is not None  # chosen in __init__ only when there is one
        return await self._lane.script(lua.COMMIT, keys, args)

    # -- keys (layout documented in redis_scripts) ------------------------

    def _table_key(self, table_id: str) -> str:
        return f"{self.prefix}table:{table_id}"

    def _events_key(self, table_id: str) -> str:
        return f"{self.prefix}events:{table_id}"

    def _records_key(self, table_id: str) -> str:
        return f"{self.prefix}records:{table_id}"

    def _code_key(self, code: str) -> str:
        return f"{self.prefix}code:{code}"

    def _stats_key(self, player_id: str) -> str:
        return f"{self.prefix}stats:{player_id}"

    # -- running commands -------------------------------------------------

    async def _idempotent(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run an operation that is safe to repeat, retrying on connection errors."""
        try:
            return await self._retry.call_with_retry(operation, _on_failure)
        except RedisError as exc:
            raise _store_error(exc) from exc

    async def _once(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run an operation that must not be repeated blindly."""
        try:
            return await operation()
        except RedisError as exc:
            raise _store_error(exc) from exc

    # -- TableStore -------------------------------------------------------

    async def ping(self) -> None:
        """Readiness: returns when Redis answers, ``StoreError`` otherwise."""
        await self._idempotent(self._redis.ping)

    async def create_table(self, table_id: str, code: str, state: bytes) -> None:
        """Store a new table at version 1; ``StoreConflict`` if id or code is taken."""
        keys = [
            self._table_key(table_id),
            self._code_key(code),
            f"{self.prefix}tables",
            self._events_key(table_id),
            self._records_key(table_id),
            f"{self.prefix}created",
            f"{self.prefix}running",
        ]
        args: list[ScriptArg] = [table_id, code, state, secrets.token_hex(16)]
        status = await self._idempotent(lambda: self._create_script(keys, args))
        if status < 0:
            raise StoreConflict(_REFUSALS[status])

    async def load_table(self, table_id: str) -> StoredTable | None:
        """The stored table, or None if unknown or expired."""
        key = self._table_key(table_id)
        state, version, last_seq = await self._idempotent(
            lambda: self._redis.hmget(key, ["state", "version", "last_seq"])
        )
        if state is None:
            return None
        try:
            if version is None or last_seq is None:
                raise ValueError("table hash without version")
            return StoredTable(
                table_id, int(_as_bytes(version)), _as_bytes(state), int(_as_bytes(last_seq))
            )
        except ValueError as exc:
            raise _store_error(exc) from exc

    async def commit(self, request: CommitRequest) -> tuple[int, int]:
        """Compare-and-set in one script (see the module docstring);
        ``StoreConflict`` if the version moved on, the table is unknown, or
        ``owner`` is given and does not hold the table's lease. A caller
        that retries the same commit passes the same ``token``."""
        return await self._commit_with_token(
            request.table_id,
            request.expected_version,
            request.state,
            list(request.events),
            request.token or secrets.token_hex(16),
            request.owner,
            request.running,
            request.records,
            request.stats,
        )

    def lease_key(self, table_id: str) -> str:
        """The key of a table's ownership lease (server.cluster)."""
        return redis_keys.lease_key(self.prefix, table_id)

    @property
    def redis(self) -> Redis:
        """The connection pool (server.cluster shares it for leases)."""
        return self._redis

    async def _commit_with_token(
        self,
        table_id: str,
        expected_version: int,
        state: bytes,
        events: list[bytes],
        token: str,
        owner: str | None = None,
        running: bool | None = None,
        records: Sequence[bytes] = (),
        stats: Mapping[str, StatsDelta] | None = None,
    ) -> tuple[int, int]:
        """``commit`` with a given token: sent twice, it applies once."""
        keys = [
            self._table_key(table_id),
            self._events_key(table_id),
            self.lease_key(table_id),
            f"{self.prefix}running",
            self._records_key(table_id),
        ]
        flag = "" if running is None else "1" if running else "0"
        args: list[ScriptArg] = [expected_version, state, token, self.max_events, owner or ""]
        args += [flag, table_id, len(records), *records]
        increments: list[ScriptArg] = []
        for index, (player_id, delta) in enumerate((stats or {}).items(), start=1):
            keys.append(self._stats_key(player_id))
            for name in _STAT_FIELDS:
                amount = getattr(delta, name)
                if amount:
                    increments += [index, name, amount]
        args += [len(increments) // 3, *increments]
        args.extend(events)
        first, second = await self._idempotent(lambda: self._commit_script(keys, args))
        if first < 0:
            raise StoreConflict(_REFUSALS[first])
        return int(first), int(second)

    async def events_since(self, table_id: str, after_seq: int) -> list[StoredEvent] | None:
        """Events numbered above ``after_seq``; None if trimmed, unknown table,
        or a number the table never reached."""
        if after_seq < 0:
            return None

        async def read() -> list[Any]:
            # One transaction, so last_seq and the log are read at one moment.
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.hget(self._table_key(table_id), "last_seq")
                pipe.xrange(self._events_key(table_id), min=f"{after_seq + 1}-0")
                return await pipe.execute()

        last_raw, entries = await self._idempotent(read)
        if last_raw is None or after_seq > int(last_raw):
            return None
        try:
            events = [
                StoredEvent(int(entry_id.split(b"-")[0]), entry[b"b"])
                for entry_id, entry in entries
            ]
        except (KeyError, ValueError) as exc:
            raise _store_error(exc) from exc
        if after_seq < int(last_raw) and (not events or events[0].seq != after_seq + 1):
            # The log starts after the first missing event: it was trimmed.
            return None
        return events

    async def table_id_for_code(self, code: str) -> str | None:
        """The table an invite code names, or None."""
        raw = await self._idempotent(lambda: self._redis.get(self._code_key(code)))
        return None if raw is None else _as_bytes(raw).decode()

    async def set_public(self, table_id: str, code: str, summary: bytes | None) -> None:
        """List (or with None unlist) the table; an unknown table is ignored."""
        keys = [self._table_key(table_id), f"{self.prefix}public"]
        listed = summary is not None
        args: list[ScriptArg] = [table_id, code, summary or b"", "1" if listed else "0"]
        await self._idempotent(lambda: self._list_script(keys, args))

    async def list_public(self, limit: int = 50) -> list[PublicTable]:
        """Listed live tables, newest first, at most ``limit``."""
        if limit <= 0:
            return []
        flat = await self._idempotent(
            lambda: self._public_script([f"{self.prefix}public"], [self.prefix, limit])
        )
        return [
            PublicTable(flat[i].decode(), flat[i + 1].decode(), flat[i + 2])
            for i in range(0, len(flat), 3)
        ]

    async def expire_table(self, table_id: str, seconds: int) -> None:
        """EXPIRE every key of the table and unlist it at once."""
        keys = [
            self._table_key(table_id),
            self._events_key(table_id),
            self._records_key(table_id),
            f"{self.prefix}public",
        ]
        args: list[ScriptArg] = [table_id, seconds, self.prefix]
        await self._idempotent(lambda: self._expire_script(keys, args))

    async def add_hand_record(self, table_id: str, record: bytes) -> None:
        """Append a finished hand's record; ``StoreError`` if the table is gone."""
        keys = [self._table_key(table_id), self._records_key(table_id)]
        status = await self._once(lambda: self._record_script(keys, [record]))
        if status < 0:
            raise StoreError("no such table for a hand record")

    async def hand_records(self, table_id: str) -> list[bytes]:
        """The table's hand records, oldest first."""
        key = self._records_key(table_id)
        records = await self._idempotent(lambda: self._redis.lrange(key, 0, -1))
        return [_as_bytes(record) for record in records]

    async def add_stats(self, player_id: str, delta: StatsDelta) -> None:
        """HINCRBY each changed field, all in one MULTI so a hand counts whole."""
        changes = {name: getattr(delta, name) for name in _STAT_FIELDS if getattr(delta, name)}
        if not changes:
            return
        key = self._stats_key(player_id)

        async def write() -> list[Any]:
            async with self._redis.pipeline(transaction=True) as pipe:
                for name, amount in changes.items():
                    pipe.hincrby(key, name, amount)
                return await pipe.execute()

        await self._once(write)

    async def get_stats(self, player_id: str) -> PlayerStats:
        """The player's totals (zeros if unknown)."""
        key = self._stats_key(player_id)
        values = await self._idempotent(lambda: self._redis.hmget(key, list(_STAT_FIELDS)))
        try:
            totals = {name: int(v) for name, v in zip(_STAT_FIELDS, values, strict=True) if v}
        except ValueError as exc:
            raise _store_error(exc) from exc
        return PlayerStats(**totals)

    async def table_ids(self) -> list[str]:
        """Ids of every live table (expired ones leave the set here)."""
        ids = await self._idempotent(
            lambda: self._table_ids_script([f"{self.prefix}tables"], [self.prefix])
        )
        return [bytes(table_id).decode() for table_id in ids]

    async def running_ids(self) -> list[str]:
        """Ids of the live tables whose last commit said a game is running."""
        ids = await self._idempotent(
            lambda: self._table_ids_script([f"{self.prefix}running"], [self.prefix])
        )
        return [bytes(table_id).decode() for table_id in ids]

    async def close(self) -> None:
        """Close the connection pool."""
        try:
            if self._lane is not None:
                await self._lane.aclose()
            await self._redis.aclose()
        except RedisError as exc:
            raise _store_error(exc) from exc

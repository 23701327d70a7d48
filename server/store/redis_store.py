"""``RedisStore``: the table store on Redis (redis.asyncio), for durability
and for several server processes sharing their tables.

Layout: ``server.store.redis_keys`` (one for a lone Redis, Sentinel and
Cluster); scripts: ``server.store.redis_scripts``. Every write that touches
more than one key of a slot is one Lua script, so it is atomic. ``commit`` is
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
* A finished hand's record and its players' statistics go with the
  ``commit`` that finishes the hand (``records``, ``stats``), so they share
  its safe retries. The record is written by the commit's script; the
  statistics are in their players' slots, so the script notes them in the
  table's slot and the store adds them next, once per player and commit (a
  marker key in the player's slot says it is done); a crash in between
  leaves them noted, and
  the next pass over the running tables (``running_ids``: at start and every
  watchdog pass) adds them.

**Waiting for replicas.** With ``replicas`` > 0 (Sentinel and Cluster by
default) a commit or a table's creation is followed by ``WAIT replicas
wait_ms`` on the connection that wrote it, and counts as done only if that
many replicas hold it: otherwise ``ReplicasBehind`` (a timeout, so retried
like one: the repeat finds its own token, rewrites it, and waits again). A
write the master holds and no replica does is never acknowledged, so a
failover cannot take back anything a player saw.

Every redis-py error leaves this module as ``StoreError`` with a message that
names no host, key or data (the original stays chained for the server log).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import fields
from functools import partial
from typing import Any, TypeVar, cast

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import AuthenticationError, RedisClusterException, RedisError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

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
from server.store.redis_cluster_lanes import ClusterLanes
from server.store.redis_keys import BUCKETS, LAYOUT_VERSION, Keyspace
from server.store.redis_migrate import migrate_layout
from server.store.redis_target import parse_redis_url

log = logging.getLogger("hearts.store")

T = TypeVar("T")
ScriptArg = bytes | str | int
# What redis-py raises when Redis fails us: its cluster client raises a few
# errors (a slot nobody serves during a failover, a map it cannot read) that
# are not ``RedisError``s.
REDIS_ERRORS = (RedisError, RedisClusterException)
KeyedScript = Callable[[str, list[str], list[ScriptArg]], Awaitable[Any]]
"""Runs a Lua script (source, keys, args) where its keys' slot is served."""
KeyedArgs = Callable[[list[str], list[ScriptArg]], Awaitable[Any]]

DEFAULT_MAX_EVENTS = 2000
_STAT_FIELDS = tuple(f.name for f in fields(StatsDelta))
# How long the marker that one commit's statistics were counted for a player
# lives: far longer than the pass that adds forgotten ones takes to come.
COUNTED_MARKER_SECONDS = 30 * 24 * 3600
# Sharded pub/sub (the bus on Redis Cluster) and the script flags came with 7.0.
MIN_REDIS_VERSION = (7, 0)
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


def _version_tuple(text: str) -> tuple[int, ...]:
    """``7.0.15`` as (7, 0, 15); what does not parse counts as 0."""
    parts = []
    for part in text.split(".")[:3]:
        digits = "".join(ch for ch in part if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


class ReplicasBehind(RedisTimeoutError):
    """A write that the master holds but not yet ``replicas`` of its replicas:
    not acknowledged (a failover now could lose it). Retried like a timeout:
    the repeat of a commit finds its own token and waits again."""


def _store_error(exc: Exception) -> StoreError:
    """A ``StoreError`` with a safe sentence for a redis-py (or decoding) error."""
    if isinstance(exc, ReplicasBehind):
        return StoreError("the table store's replicas did not confirm the write in time")
    if isinstance(exc, RedisConnectionError | RedisTimeoutError | RedisClusterException):
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
        replicas: int | None = None,
        wait_ms: int = 1000,
    ) -> None:
        """Connect lazily to ``url`` (``server.store.redis_target``: one
        Redis, a Sentinel set, a Cluster); every key starts with ``prefix``. Idempotent
        operations are tried ``retries`` more times after a connection
        error; ``timeout`` bounds each socket operation. A commit (and a
        table's creation) is acknowledged only once ``replicas`` replicas
        hold it (``WAIT``, up to ``wait_ms`` per try; None: 1 on Sentinel
        and Cluster, 0 on one Redis). ``ValueError`` for a malformed URL."""
        if max_events < 1:
            raise ValueError("max_events must be at least 1")
        target = parse_redis_url(url)
        if replicas is not None and replicas < 0:
            raise ValueError("replicas must be 0 or more")
        self.target = target
        self.replicas = replicas if replicas is not None else int(target.has_replicas)
        self.wait_ms = wait_ms
        self._timeout = timeout
        # Commits waiting for their replicas now, and those that gave up
        # waiting (``replicas_behind``), for the metrics.
        self.waiting_on_replicas = 0
        self.replicas_behind = 0
        self.keys = Keyspace(prefix)
        self.prefix = prefix
        self.max_events = max_events
        # No blind resend of anything: see "Retry policy" above.
        self._redis = target.client(timeout)
        # On a Cluster the bus subscribes through a client of its own:
        # redis-py closes every connection of a cluster client when one of
        # its pipelines meets a dead node or CLUSTERDOWN, and the bus's
        # subscriptions on the masters that are still up must not go with
        # them (each loss makes forwarded clients resync).
        self._bus_redis = target.client(timeout) if target.topology == "cluster" else self._redis
        self._retry = Retry(
            ExponentialBackoff(cap=1.0, base=0.025),
            retries,
            supported_errors=(RedisConnectionError, RedisTimeoutError),
        )
        register = self._redis.register_script
        self._create_script = register(lua.CREATE)
        self._reserve_script = register(lua.RESERVE_CODE)
        self._settle_code_script = register(lua.SETTLE_CODE)
        self._drop_code_script = register(lua.DROP_DEAD_CODE)
        # Commits, one per action, go through a pipelined connection of
        # their own (server.store.redis_lane; one per master on a Cluster).
        self._lane = target.lane(timeout, self._redis)
        self._commit_script: KeyedArgs = self._run_commit
        self._count_script = register(lua.COUNT_STATS)
        self._settle_stats_script = register(lua.SETTLE_STATS)
        self._list_script = register(lua.LIST_OR_UNLIST)
        self._public_script = register(lua.LIST_PUBLIC)
        self._expire_script = register(lua.EXPIRE)
        self._read_events_script = register(lua.READ_EVENTS)
        self._save_review_script = register(lua.SAVE_REVIEW)
        self._load_reviews_script = register(lua.LOAD_REVIEWS)

    async def _run_commit(self, keys: list[str], args: list[ScriptArg]) -> Any:
        """The commit script on the lane, followed by a ``WAIT`` for the
        replicas when the store waits for any."""
        if self.replicas == 0:
            return await self._lane.script(lua.COMMIT, keys, args)
        reply, confirmed = await self._waited(lua.COMMIT, keys, args)
        self._check_replicas(reply[0] >= 0, confirmed)
        return reply

    async def _waited(self, source: str, keys: list[str], args: list[ScriptArg]) -> tuple[Any, int]:
        """A script and a ``WAIT`` after it on the same connection (the
        lane of the script's master)."""
        self.waiting_on_replicas += 1
        try:
            return await self._lane.script_then_wait(
                source, keys, args, self.replicas, self.wait_ms
            )
        finally:
            self.waiting_on_replicas -= 1

    def _check_replicas(self, wrote: bool, confirmed: int) -> None:
        """``ReplicasBehind`` if a write is held by fewer replicas than asked."""
        if wrote and confirmed < self.replicas:
            self.replicas_behind += 1
            raise ReplicasBehind(f"{confirmed} of {self.replicas} replicas confirmed in time")

    # -- running commands -------------------------------------------------

    async def _idempotent(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run an operation that is safe to repeat, retrying on connection errors."""
        try:
            return await self._retry.call_with_retry(operation, _on_failure)
        except REDIS_ERRORS as exc:
            raise _store_error(exc) from exc

    async def _each_bucket(self, kind: str, script: str) -> list[list[Any]]:
        """Run ``script`` (KEYS: the bucket's set ``kind``; ARGV: the bucket's
        table-hash key without its id) on every bucket, in one round trip per
        node (a pipeline: every call has its keys in one slot)."""

        async def run() -> list[list[Any]]:
            async with self._redis.pipeline(transaction=False) as pipe:
                for bucket in range(BUCKETS):
                    set_key = self.keys.bucket_set(bucket, kind)
                    pipe.eval(script, 1, set_key, self.keys.bucket_table_stem(bucket))
                return list(await pipe.execute())

        return await self._idempotent(run)

    # -- start-up ---------------------------------------------------------

    async def prepare(self) -> None:
        """What a server does once before it serves: check that Redis is
        recent enough and carry tables stored in the previous key layout
        over (``server.store.redis_migrate``). ``StoreError`` with one line
        an operator can act on otherwise; nothing is written then."""
        try:
            info = await self._redis.info("server")
        except RedisClusterException as exc:  # no slot map: slots uncovered, or no node
            raise StoreError(
                f"the Redis Cluster at {self.target.label()} does not serve every slot ({exc})"
                if "slots" in str(exc).lower()
                else await self.target.diagnose(self._timeout)
            ) from exc
        except AuthenticationError as exc:
            raise StoreError(f"Redis at {self.target.label()} refused the credentials") from exc
        except RedisError as exc:
            raise StoreError(await self.target.diagnose(self._timeout)) from exc
        version = str(info.get("redis_version", "0"))
        if _version_tuple(version) < MIN_REDIS_VERSION:
            raise StoreError(
                f"Redis {version} is too old: hearts needs Redis"
                f" {'.'.join(map(str, MIN_REDIS_VERSION))} or newer"
            )
        try:
            if self.target.topology == "cluster":
                await self._check_slots()
                # The earlier layout never ran on a Cluster: nothing to move.
                await self._redis.set(self.keys.lobby("layout"), LAYOUT_VERSION, nx=True)
            else:
                await migrate_layout(self._redis, self.keys)
        except RedisError as exc:
            raise _store_error(exc) from exc

    async def _check_slots(self) -> None:
        """``StoreError`` unless every slot of the Cluster is served."""
        info: Any = await cast(RedisCluster, self._redis).cluster_info()
        state = info.get("cluster_state")
        if state != "ok" or int(info.get("cluster_slots_ok", 0)) != 16384:
            raise StoreError(
                f"the Redis Cluster at {self.target.label()} does not serve every slot"
                f" (cluster_state: {state}, slots ok: {info.get('cluster_slots_ok')} of 16384)"
            )

    # -- TableStore -------------------------------------------------------

    async def ping(self) -> None:
        """Readiness: returns when Redis answers, ``StoreError`` otherwise."""
        await self._idempotent(self._redis.ping)

    async def create_table(self, table_id: str, code: str, state: bytes) -> None:
        """Store a new table at version 1; ``StoreConflict`` if id or code is taken.

        Three steps, each safe to repeat, since the code is in a slot of its
        own: the code is reserved for a minute, the table made, and the
        code kept for good (or given back if the id was taken)."""
        keys = self.keys
        code_key = [keys.code(code)]
        created = await self._idempotent(lambda: self._redis.incr(keys.lobby("created")))
        reserve_args: list[ScriptArg] = [table_id, lua.RESERVATION_MS]
        status = await self._idempotent(lambda: self._reserve_script(code_key, reserve_args))
        if status < 0:
            raise StoreConflict(_REFUSALS[status])
        table_keys = [
            keys.table(table_id),
            keys.events(table_id),
            keys.records(table_id),
            keys.table_set(table_id, "tables"),
            keys.table_set(table_id, "running"),
            keys.pending(table_id),
            keys.table_set(table_id, "owing"),
            keys.reviews(table_id),
        ]
        args: list[ScriptArg] = [table_id, code, state, secrets.token_hex(16), int(created)]
        status = await self._idempotent(lambda: self._run_create(table_keys, args))
        settle = "persist" if status > 0 else "release"
        await self._idempotent(lambda: self._settle_code_script(code_key, [table_id, settle]))
        if status < 0:
            raise StoreConflict(_REFUSALS[status])

    async def _run_create(self, keys: list[str], args: list[ScriptArg]) -> Any:
        """The create script, followed by a ``WAIT`` for the replicas when
        the store waits for any (a host told "seated" keeps the table)."""
        if self.replicas == 0:
            return await self._create_script(keys, args)
        status, confirmed = await self._waited(lua.CREATE, keys, args)
        self._check_replicas(status > 0, confirmed)
        return status

    async def load_table(self, table_id: str) -> StoredTable | None:
        """The stored table, or None if unknown or expired."""
        key = self.keys.table(table_id)
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
        return self.keys.lease(table_id)

    @property
    def redis(self) -> Redis:
        """The connection pool (server.cluster shares it for leases)."""
        return self._redis

    @property
    def bus_redis(self) -> Redis:
        """The client the bus subscribes through (server.cluster): a
        Cluster's own, the pool elsewhere (a subscription holds a connection
        of its own there anyway)."""
        return self._bus_redis

    def per_master_scripts(self) -> KeyedScript | None:
        """On a Cluster with lanes, a runner of a script on the master of
        its first key's slot over that master's own lane, so a dead master
        fails only the scripts on its slots (server.cluster renews leases
        this way); None elsewhere (one master: a pipeline is as good)."""
        if isinstance(self._lane, ClusterLanes):
            return self._lane.script
        return None

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
            self.keys.table(table_id),
            self.keys.events(table_id),
            self.keys.lease(table_id),
            self.keys.table_set(table_id, "running"),
            self.keys.records(table_id),
            self.keys.pending(table_id),
            self.keys.table_set(table_id, "owing"),
        ]
        flag = "" if running is None else "1" if running else "0"
        args: list[ScriptArg] = [expected_version, state, token, self.max_events, owner or ""]
        args += [flag, table_id, len(records), *records]
        owed = {
            player_id: ",".join(str(getattr(delta, name)) for name in _STAT_FIELDS)
            for player_id, delta in (stats or {}).items()
            if any(getattr(delta, name) for name in _STAT_FIELDS)
        }
        args.append(len(owed))
        for player_id, amounts in owed.items():
            args += [player_id, amounts]
        args.extend(events)
        first, second = await self._idempotent(lambda: self._commit_script(keys, args))
        if first < 0:
            raise StoreConflict(_REFUSALS[first])
        if owed:
            await self._count_owed(
                table_id, {f"{int(first)}|{player}": amounts for player, amounts in owed.items()}
            )
        return int(first), int(second)

    async def _count_owed(self, table_id: str, owed: Mapping[str, str]) -> None:
        """Add the statistics a table's commits noted (``<version>|<player>``
        -> the six amounts) to their players, each once, then forget them.
        A failure leaves them noted for the next pass (``running_ids``)."""
        try:
            for field, amounts in owed.items():
                version, _, player_id = field.partition("|")
                pairs: list[ScriptArg] = [COUNTED_MARKER_SECONDS]
                for name, amount in zip(_STAT_FIELDS, amounts.split(","), strict=True):
                    if int(amount):
                        pairs += [name, int(amount)]
                marker = self.keys.counted(player_id, table_id, int(version))
                keys = [self.keys.stats(player_id), marker]
                await self._idempotent(partial(self._count_script, keys, pairs))
            settle_keys = [self.keys.pending(table_id), self.keys.table_set(table_id, "owing")]
            settle_args: list[ScriptArg] = [table_id, *owed]
            await self._idempotent(lambda: self._settle_stats_script(settle_keys, settle_args))
        except (StoreError, ValueError) as exc:
            log.warning("statistics of table %s left for the next pass: %s", table_id, exc)

    async def _count_all_owed(self, owing: list[str]) -> None:
        """The repair pass: statistics that commits noted and nobody added yet."""
        for table_id in owing:
            key = self.keys.pending(table_id)
            noted = await self._idempotent(partial(self._redis.hgetall, key))
            owed = {_as_bytes(f).decode(): _as_bytes(v).decode() for f, v in noted.items()}
            if owed:
                await self._count_owed(table_id, owed)
            else:  # nothing left: only the index entry remained
                keys = [key, self.keys.table_set(table_id, "owing")]
                await self._idempotent(partial(self._settle_stats_script, keys, [table_id]))

    async def events_since(self, table_id: str, after_seq: int) -> list[StoredEvent] | None:
        """Events numbered above ``after_seq``; None if trimmed, unknown table,
        or a number the table never reached."""
        if after_seq < 0:
            return None

        keys = [self.keys.table(table_id), self.keys.events(table_id)]
        # One script, so last_seq and the log are read at one moment.
        last_raw, flat = await self._idempotent(
            lambda: self._read_events_script(keys, [f"{after_seq + 1}-0"])
        )
        entries = [(entry_id, dict(zip(f[::2], f[1::2], strict=True))) for entry_id, f in flat]
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
        """The table an invite code names, or None. A code whose table is
        gone (its expiry set apart from the table's by a crash) is dropped
        on the way."""
        key = self.keys.code(code)
        raw = await self._idempotent(lambda: self._redis.get(key))
        if raw is None:
            return None
        table_id = _as_bytes(raw).decode()
        table_key = self.keys.table(table_id)
        if await self._idempotent(lambda: self._redis.exists(table_key)):
            return table_id
        await self._idempotent(lambda: self._drop_code_script([key], [table_id]))
        return None

    async def set_public(self, table_id: str, code: str, summary: bytes | None) -> None:
        """List (or with None unlist) the table; an unknown table is ignored."""
        keys = [self.keys.lobby("public"), self.keys.lobby("listed")]
        created: Any = 0
        if summary is not None:
            table_key = self.keys.table(table_id)
            created = await self._idempotent(lambda: self._redis.hget(table_key, "created"))
            if created is None:
                return
        listed = "1" if summary is not None else "0"
        args: list[ScriptArg] = [table_id, code, summary or b"", listed, int(created)]
        await self._idempotent(lambda: self._list_script(keys, args))

    async def list_public(self, limit: int = 50) -> list[PublicTable]:
        """Listed live tables, newest first, at most ``limit``. Entries whose
        table is gone (expired) are dropped on the way."""
        if limit <= 0:
            return []
        keys = [self.keys.lobby("public"), self.keys.lobby("listed")]
        found: list[PublicTable] = []
        start = 0
        while len(found) < limit:
            window: list[ScriptArg] = [start, start + limit - 1]
            flat = await self._idempotent(partial(self._public_script, keys, window))
            if not flat:
                break
            entries = [
                PublicTable(
                    _as_bytes(flat[i]).decode(), _as_bytes(flat[i + 1]).decode(), flat[i + 2]
                )
                for i in range(0, len(flat), 3)
            ]
            alive = await self._exist([self.keys.table(e.table_id) for e in entries])
            for entry, live in zip(entries, alive, strict=True):
                if live and entry.code:
                    found.append(entry)
                else:
                    await self.set_public(entry.table_id, entry.code, None)
                    start -= 1  # the ranks after it moved up by one
            start += len(entries)
        return found[:limit]

    async def _exist(self, keys: list[str]) -> list[bool]:
        """Whether each key exists (one pipeline; the keys may be in many slots)."""

        async def run() -> list[Any]:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.exists(key)
                return list(await pipe.execute())

        return [bool(n) for n in await self._idempotent(run)]

    async def expire_table(self, table_id: str, seconds: int) -> None:
        """EXPIRE every key of the table, then its code, and unlist it (the
        code and the listing are in other slots: each step is safe to repeat,
        and ``table_id_for_code`` and ``list_public`` drop what a crash
        between them leaves)."""
        keys = [
            self.keys.table(table_id),
            self.keys.events(table_id),
            self.keys.records(table_id),
            self.keys.pending(table_id),
            self.keys.reviews(table_id),
        ]
        code = await self._idempotent(lambda: self._expire_script(keys, [seconds]))
        if not isinstance(code, bytes | str):
            return
        code_text = _as_bytes(code).decode()
        code_key = [self.keys.code(code_text)]
        await self._idempotent(lambda: self._settle_code_script(code_key, [table_id, seconds]))
        # A table on its way out leaves the lobby now, not when it vanishes.
        await self.set_public(table_id, code_text, None)

    async def hand_records(self, table_id: str) -> list[bytes]:
        """The table's hand records, oldest first."""
        key = self.keys.records(table_id)
        records = await self._idempotent(lambda: self._redis.lrange(key, 0, -1))
        return [_as_bytes(record) for record in records]

    async def save_review(self, table_id: str, key: str, review: bytes) -> None:
        """Keep the review in the table's reviews hash (its slot), expiring
        with the table; for a table that is gone, nothing. Safe to repeat,
        so retried; written by whichever process made the review, lease or
        not (a review is the same whoever makes it)."""
        keys = [self.keys.table(table_id), self.keys.reviews(table_id)]
        args: list[ScriptArg] = [key, review]
        await self._idempotent(lambda: self._save_review_script(keys, args))

    async def load_reviews(self, table_id: str, keys: Sequence[str]) -> list[bytes | None]:
        """The reviews kept under ``keys`` (None where none is), a slice of
        keys per script (Lua's ``unpack`` takes a few thousand at most)."""
        wanted = list(keys)
        script_keys = [self.keys.table(table_id), self.keys.reviews(table_id)]
        found: list[bytes | None] = []
        for start in range(0, len(wanted), 500):
            part: list[ScriptArg] = list(wanted[start : start + 500])
            replies = await self._idempotent(partial(self._load_reviews_script, script_keys, part))
            if not replies:  # the table is gone
                replies = [None] * len(part)
            found += [None if r is None else _as_bytes(r) for r in replies]
        return found

    async def get_stats(self, player_id: str) -> PlayerStats:
        """The player's totals (zeros if unknown)."""
        key = self.keys.stats(player_id)
        values = await self._idempotent(lambda: self._redis.hmget(key, list(_STAT_FIELDS)))
        try:
            totals = {name: int(v) for name, v in zip(_STAT_FIELDS, values, strict=True) if v}
        except ValueError as exc:
            raise _store_error(exc) from exc
        return PlayerStats(**totals)

    async def table_ids(self) -> list[str]:
        """Ids of every live table (expired ones leave the bucket sets here)."""
        per_bucket = await self._each_bucket("tables", lua.TABLE_IDS)
        return sorted(bytes(t).decode() for ids in per_bucket for t in ids)

    async def running_ids(self) -> list[str]:
        """Ids of the live tables whose last commit said a game is running.
        On the way, statistics that a crash left noted but not added are
        added (the repair pass of ``_count_owed``)."""
        per_bucket = await self._each_bucket("running", lua.TABLE_IDS)
        owing = await self._each_bucket("owing", lua.TABLE_IDS)
        await self._count_all_owed([bytes(t).decode() for ids in owing for t in ids])
        return sorted(bytes(t).decode() for ids in per_bucket for t in ids)

    async def close(self) -> None:
        """Close the connection pool."""
        try:
            await self._lane.aclose()
            if self._bus_redis is not self._redis:
                await self._bus_redis.aclose()
            await self._redis.aclose()
        except RedisError as exc:
            raise _store_error(exc) from exc

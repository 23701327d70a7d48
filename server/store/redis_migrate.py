"""Carrying a Redis that holds tables in the first key layout over to the
second (``server.store.redis_keys``), once, when a server starts on it.

The first layout (releases before Redis Cluster support) kept a table's keys
as ``<prefix>table:<id>``, ``events:<id>``, ``records:<id>``, the invite
codes as ``code:<code>``, the indexes ``tables``, ``running``, ``public``
and the counter ``created`` under the prefix alone, and statistics as
``stats:<player>``. No key of the second layout matches those patterns (its
keys have a ``{…}`` hash tag right after the prefix), so both can be told
apart in one database.

``migrate_layout`` runs before a server serves anything (``RedisStore.prepare``):

1. If the layout marker says "2", there is nothing to do.
2. One process migrates; others starting at the same moment wait for the
   marker (a lock key with an expiry, so a migrator that dies frees it).
3. A process of the old release still running (its heartbeat key is there)
   stops the upgrade with an error: it would go on writing the old layout.
4. Each table's hash, log and records are copied (``DUMP``/``RESTORE … REPLACE``,
   expiry kept), added to its bucket's sets (running if it was), its code
   copied, its lobby entry copied; statistics are copied; the counter is
   carried over. Then the old keys are deleted and the marker is written.

Every step can run again: a migrator that dies half-way leaves the old keys
of whatever it had not finished, and the next start copies them again
(nothing writes the new layout before the marker is there). Leases are not
carried over: the old processes are stopped, so their leases mean nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from redis.asyncio import Redis

from .base import StoreError
from .redis_keys import LAYOUT_VERSION, Keyspace

log = logging.getLogger("hearts.store")

# How long a migrator's lock lives unless renewed (it is renewed per table).
LOCK_MS = 30_000
# How long a process waits for another one's migration to finish.
WAIT_SECONDS = 120.0


class OldReleaseRunning(StoreError):
    """A server of the previous release still uses this Redis."""


async def migrate_layout(redis: Redis, keys: Keyspace) -> int:
    """Carry the first layout over to the second (see the module docstring);
    the number of tables moved. ``StoreError`` if a server of the previous
    release still runs on this Redis, or another migration does not finish."""
    marker = keys.lobby("layout")
    if await redis.get(marker) == LAYOUT_VERSION.encode():
        return 0
    lock = keys.lobby("migration")
    me = secrets.token_hex(8)
    if not await _take_lock(redis, lock, marker, me):
        return 0  # another process migrated while we waited
    try:
        if await redis.get(marker) == LAYOUT_VERSION.encode():
            return 0
        moved = await _move_everything(redis, keys, lock)
        await redis.set(marker, LAYOUT_VERSION)
        if moved:
            log.info("moved %d tables to the Redis key layout %s", moved, LAYOUT_VERSION)
        return moved
    finally:
        if await redis.get(lock) == me.encode():
            await redis.delete(lock)


async def _take_lock(redis: Redis, lock: str, marker: str, me: str) -> bool:
    """Hold the migration lock (True), or see another process's migration
    finish while waiting for it (False); ``StoreError`` if it never does."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not await redis.set(lock, me, nx=True, px=LOCK_MS):
        if await redis.get(marker) == LAYOUT_VERSION.encode():
            return False
        if time.monotonic() > deadline:
            raise StoreError("another server's migration of the Redis key layout did not finish")
        await asyncio.sleep(0.2)  # another process migrates: its marker is what we wait for
    return True


async def _move_everything(redis: Redis, keys: Keyspace, lock: str) -> int:
    """Tables, statistics and the creation counter moved, the old indexes
    gone; the number of tables moved."""
    prefix = keys.prefix
    if [key async for key in redis.scan_iter(match=f"{prefix}alive:*", count=1000)]:
        raise OldReleaseRunning(
            "a hearts server of an older release still uses this Redis: stop it first"
        )
    moved = 0
    async for old_key in redis.scan_iter(match=f"{prefix}table:*", count=1000):
        table_id = old_key.decode().removeprefix(f"{prefix}table:")
        await _move_table(redis, keys, table_id)
        await redis.pexpire(lock, LOCK_MS)
        moved += 1
    async for old_key in redis.scan_iter(match=f"{prefix}stats:*", count=1000):
        player_id = old_key.decode().removeprefix(f"{prefix}stats:")
        await _copy(redis, old_key.decode(), keys.stats(player_id))
        await redis.delete(old_key)
    created = await redis.get(f"{prefix}created")
    if created is not None:
        # Creation numbers must keep growing past the old ones.
        current = int(await redis.get(keys.lobby("created")) or 0)
        await redis.set(keys.lobby("created"), max(current, int(created)))
    # Codes whose table had gone (expired apart from it) and the old
    # indexes: nothing refers to them any more.
    for pattern in ("code:*", "lease:*"):
        async for stale in redis.scan_iter(match=f"{prefix}{pattern}", count=1000):
            await redis.delete(stale)
    for index in ("tables", "running", "public", "created"):
        await redis.delete(f"{prefix}{index}")
    return moved


async def _copy(redis: Redis, old: str, new: str) -> bool:
    """Copy key ``old`` to ``new`` with its expiry (False: ``old`` is gone)."""
    payload = await redis.dump(old)
    if payload is None:
        return False
    ttl = await redis.pttl(old)
    await redis.restore(new, max(ttl, 0), payload, replace=True)
    return True


async def _move_table(redis: Redis, keys: Keyspace, table_id: str) -> None:
    """One table's keys, index entries, code and lobby entry, then its old keys."""
    prefix = keys.prefix
    old = {kind: f"{prefix}{kind}:{table_id}" for kind in ("table", "events", "records")}
    fields: list[Any] = await redis.hmget(old["table"], ["code", "public_code", "public_summary"])
    if not await _copy(redis, old["table"], keys.table(table_id)):
        return  # expired meanwhile
    await redis.hdel(keys.table(table_id), "public_code", "public_summary")
    await _copy(redis, old["events"], keys.events(table_id))
    await _copy(redis, old["records"], keys.records(table_id))
    await redis.sadd(keys.table_set(table_id, "tables"), table_id)
    if await redis.sismember(f"{prefix}running", table_id):
        await redis.sadd(keys.table_set(table_id, "running"), table_id)
    code, public_code, public_summary = fields
    if code is not None:
        await _copy(redis, f"{prefix}code:{code.decode()}", keys.code(code.decode()))
    score = await redis.zscore(f"{prefix}public", table_id)
    if score is not None and public_code is not None and public_summary is not None:
        listed = keys.lobby("listed")
        await redis.hset(
            listed, mapping={f"c:{table_id}": public_code, f"s:{table_id}": public_summary}
        )
        await redis.zadd(keys.lobby("public"), {table_id: score})
    await redis.delete(*old.values())
    if code is not None:
        await redis.delete(f"{prefix}code:{code.decode()}")

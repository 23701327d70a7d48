"""How full the table store is: its bytes against its size, and how many
live tables it holds. Read beside the stores, through what each already
exposes (Redis' ``INFO memory``, the SQLite file's size, ``table_ids``), so
the stores themselves need nothing new.

* Redis: ``used_memory`` against ``maxmemory`` (the limit Redis enforces:
  with ``noeviction`` it refuses writes beyond it, every table's included).
  A Redis without ``maxmemory`` has no limit of its own; the configured
  size, if any, stands in for it.
* SQLite: the file and its write-ahead log against the configured size,
  1 GiB unless set (a disk has no limit the store could read that would
  mean "full").
* Memory: not measured (the process's own tables cap bounds it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from redis.exceptions import RedisError

from .store.base import StoreError, TableStore
from .store.redis_store import RedisStore
from .store.sqlite_store import SqliteStore

# The size a SQLite file may grow to when none is configured: a thousand
# busy tables take ~80 MB (docs/deploy.md, Sizing).
DEFAULT_SQLITE_SIZE = 1024 * 1024 * 1024


@dataclass(frozen=True)
class StoreFill:
    """Bytes the store uses against the size it may use."""

    used: int
    size: int
    what: str  # where the size comes from, for the log: "maxmemory", "--store-size-mb"

    @property
    def fraction(self) -> float:
        """``used`` as a fraction of ``size``."""
        return self.used / self.size if self.size > 0 else 0.0


async def redis_memory(store: RedisStore) -> tuple[int, int]:
    """Redis' ``used_memory`` and ``maxmemory`` (0: no limit), in bytes."""
    try:
        info = await store.redis.info("memory")
    except RedisError as exc:
        raise StoreError("the table store is unreachable") from exc
    return int(info.get("used_memory", 0)), int(info.get("maxmemory", 0))


def sqlite_bytes(path: Path) -> int:
    """The SQLite file's size with its write-ahead log beside it (0 for a
    file that is not there)."""
    total = 0
    for name in (path, path.with_name(path.name + "-wal")):
        try:
            total += os.stat(name).st_size
        except FileNotFoundError:
            continue
    return total


async def store_fill(store: TableStore, configured_size: int | None) -> StoreFill | None:
    """How full ``store`` is; None when it has no size to be full against
    (the memory store, a Redis without ``maxmemory`` and no configured size)."""
    if isinstance(store, RedisStore):
        used, maxmemory = await redis_memory(store)
        if maxmemory > 0:
            return StoreFill(used, maxmemory, "Redis maxmemory")
        if configured_size:
            return StoreFill(used, configured_size, "--store-size-mb")
        return None
    if isinstance(store, SqliteStore):
        size = configured_size or DEFAULT_SQLITE_SIZE
        return StoreFill(sqlite_bytes(store.path), size, "--store-size-mb")
    return None  # the memory store: bounded by the tables cap of its one process


async def live_tables(store: TableStore) -> int:
    """How many tables the store holds that have not expired (waiting,
    playing or finished), every process's together."""
    return len(await store.table_ids())

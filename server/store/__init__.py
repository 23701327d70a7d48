"""Table stores: ``MemoryStore`` (embedded default) and ``RedisStore``."""

from __future__ import annotations

from server.store.base import (
    PlayerStats,
    PublicTable,
    StatsDelta,
    StoreConflict,
    StoredEvent,
    StoredTable,
    StoreError,
    TableStore,
)
from server.store.memory import MemoryStore
from server.store.redis_store import RedisStore

__all__ = [
    "MemoryStore",
    "PlayerStats",
    "PublicTable",
    "RedisStore",
    "StatsDelta",
    "StoreConflict",
    "StoreError",
    "StoredEvent",
    "StoredTable",
    "TableStore",
    "open_store",
]

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def open_store(url: str | None) -> TableStore:
    """The store a URL names: None or ``memory://`` gives a ``MemoryStore``,
    ``redis://…`` (also ``rediss://``, ``unix://``) a ``RedisStore``.
    Raises ``ValueError`` for anything else (a configuration mistake)."""
    if url is None or url == "memory://":
        return MemoryStore()
    if url.startswith(_REDIS_SCHEMES):
        return RedisStore(url)
    raise ValueError("store URL must be memory:// or redis://host:port/db")

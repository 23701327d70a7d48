"""Table stores: ``SqliteStore`` (the embedded default of ``hearts serve``),
``MemoryStore`` and ``RedisStore``."""

from __future__ import annotations

from urllib.parse import parse_qs

from server.store.base import (
    CommitRequest,
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
from server.store.redis_target import SCHEMES as _REDIS_SCHEMES
from server.store.redis_target import parse_redis_url
from server.store.sqlite_store import SqliteStore, StoreLocked, Synchronous

__all__ = [
    "CommitRequest",
    "MemoryStore",
    "PlayerStats",
    "PublicTable",
    "RedisStore",
    "SqliteStore",
    "StatsDelta",
    "StoreConflict",
    "StoreError",
    "StoreLocked",
    "StoredEvent",
    "StoredTable",
    "TableStore",
    "open_store",
    "store_label",
]

_SQLITE_SCHEME = "sqlite://"
_SYNCHRONOUS: dict[str, Synchronous] = {"normal": "NORMAL", "full": "FULL"}
_URL_FORMS = (
    "memory://, sqlite:///path/to/file[?synchronous=normal|full], redis://host:port/db"
    ", redis+sentinel://host:port[,host:port…]/service[/db] or redis+cluster://host:port[,…]"
)


def _sqlite_args(url: str) -> tuple[str, Synchronous]:
    """The file path and ``synchronous`` setting of a ``sqlite://`` URL."""
    path, _, query = url.removeprefix(_SQLITE_SCHEME).partition("?")
    options = parse_qs(query, keep_blank_values=True, strict_parsing=bool(query))
    unknown = set(options) - {"synchronous"}
    synchronous = options.get("synchronous", ["normal"])[-1].lower()
    if not path or unknown or synchronous not in _SYNCHRONOUS:
        raise ValueError(f"store URL must be {_URL_FORMS}")
    return path, _SYNCHRONOUS[synchronous]


def _is_redis(url: str) -> bool:
    return url.partition("://")[0] in _REDIS_SCHEMES and "://" in url


def open_store(url: str | None, redis_replicas: int | None = None) -> TableStore:
    """The store a URL names: None or ``memory://`` gives a ``MemoryStore``,
    ``sqlite:///path/to/file`` a ``SqliteStore`` on that file (opened and
    locked now: this blocks briefly, so from an event loop call it in a
    thread), ``redis://…`` (also ``rediss://``, ``unix://``,
    ``redis+sentinel://``, ``redis+cluster://``: ``server.store.redis_target``) a ``RedisStore``
    (which connects lazily; ``redis_replicas``: how many replicas must hold
    a commit before it is acknowledged, None for the topology's default).
    Raises ``ValueError`` for anything else (a configuration mistake) and
    ``StoreError`` when the file cannot be used."""
    if url is None or url == "memory://":
        return MemoryStore()
    if url.startswith(_SQLITE_SCHEME):
        path, synchronous = _sqlite_args(url)
        return SqliteStore(path, synchronous=synchronous)
    if _is_redis(url):
        return RedisStore(url, replicas=redis_replicas)
    raise ValueError(f"store URL must be {_URL_FORMS}")


def store_label(url: str | None) -> str:
    """Where a store URL keeps the tables, for the start-up line (a Redis
    password is left out)."""
    if url is None or url == "memory://":
        return "in memory (lost when the server stops)"
    if url.startswith(_SQLITE_SCHEME):
        path, synchronous = _sqlite_args(url)
        return f"in SQLite {path} (synchronous={synchronous})"
    return f"in Redis {parse_redis_url(url).label()}"

"""Table stores: ``SqliteStore`` (the embedded default of ``hearts serve``),
``MemoryStore`` and ``RedisStore``."""

from __future__ import annotations

from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

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
    "redis_url_and_prefix",
    "store_label",
]

_SQLITE_SCHEME = "sqlite://"
_SYNCHRONOUS: dict[str, Synchronous] = {"normal": "NORMAL", "full": "FULL"}
_URL_FORMS = (
    "memory://, sqlite:///path/to/file[?synchronous=normal|full], redis://host:port/db"
    ", redis+sentinel://host:port[,host:port…]/service[/db] or redis+cluster://host:port[,…]"
    " (a Redis URL may end in ?prefix=KEYPREFIX)"
)
_DEFAULT_REDIS_PREFIX = "hearts:"


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


def redis_url_and_prefix(url: str) -> tuple[str, str]:
    """A Redis store URL without its ``prefix`` query parameter, and that
    prefix (``hearts:`` when absent): the start of every key the store
    writes, so that several deployments (or test runs) can share one Redis
    database. Other query parameters stay for redis-py. ``ValueError`` for
    an empty prefix or more than one."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    prefixes = [value for name, value in pairs if name == "prefix"]
    if not prefixes:
        return url, _DEFAULT_REDIS_PREFIX
    if len(prefixes) > 1 or not prefixes[0]:
        raise ValueError("a Redis store URL takes at most one prefix=, not empty")
    rest = urlencode([(name, value) for name, value in pairs if name != "prefix"])
    return urlunsplit(parts._replace(query=rest)), prefixes[0]


def open_store(url: str | None, redis_replicas: int | None = None) -> TableStore:
    """The store a URL names: None or ``memory://`` gives a ``MemoryStore``,
    ``sqlite:///path/to/file`` a ``SqliteStore`` on that file (opened and
    locked now: this blocks briefly, so from an event loop call it in a
    thread), ``redis://…`` (also ``rediss://``, ``unix://``,
    ``redis+sentinel://``, ``redis+cluster://``: ``server.store.redis_target``) a ``RedisStore``
    (which connects lazily; ``?prefix=`` sets its key prefix, see
    ``redis_url_and_prefix``; ``redis_replicas``: how many replicas must hold
    a commit before it is acknowledged, None for the topology's default).
    Raises ``ValueError`` for anything else (a configuration mistake) and
    ``StoreError`` when the file cannot be used."""
    if url is None or url == "memory://":
        return MemoryStore()
    if url.startswith(_SQLITE_SCHEME):
        path, synchronous = _sqlite_args(url)
        return SqliteStore(path, synchronous=synchronous)
    if _is_redis(url):
        address, prefix = redis_url_and_prefix(url)
        return RedisStore(address, prefix=prefix, replicas=redis_replicas)
    raise ValueError(f"store URL must be {_URL_FORMS}")


def store_label(url: str | None) -> str:
    """Where a store URL keeps the tables, for the start-up line (a Redis
    password is left out)."""
    if url is None or url == "memory://":
        return "in memory (lost when the server stops)"
    if url.startswith(_SQLITE_SCHEME):
        path, synchronous = _sqlite_args(url)
        return f"in SQLite {path} (synchronous={synchronous})"
    address, prefix = redis_url_and_prefix(url)
    keys = f" (keys {prefix}*)" if prefix != _DEFAULT_REDIS_PREFIX else ""
    return f"in Redis {parse_redis_url(address).label()}{keys}"

"""Table stores: ``SqliteStore`` (the embedded default of ``hearts serve``),
``MemoryStore`` and ``RedisStore``."""

from __future__ import annotations

from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

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
from server.store.sqlite_store import SqliteStore, StoreLocked, Synchronous

__all__ = [
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

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
_SQLITE_SCHEME = "sqlite://"
_SYNCHRONOUS: dict[str, Synchronous] = {"normal": "NORMAL", "full": "FULL"}
_URL_FORMS = (
    "memory://, sqlite:///path/to/file[?synchronous=normal|full] "
    "or redis://host:port/db[?prefix=KEYPREFIX]"
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


def open_store(url: str | None) -> TableStore:
    """The store a URL names: None or ``memory://`` gives a ``MemoryStore``,
    ``sqlite:///path/to/file`` a ``SqliteStore`` on that file (opened and
    locked now: this blocks briefly, so from an event loop call it in a
    thread), ``redis://…`` (also ``rediss://``, ``unix://``) a ``RedisStore``
    (which connects lazily; ``?prefix=`` sets its key prefix, see
    ``redis_url_and_prefix``). Raises ``ValueError`` for anything else (a
    configuration mistake) and ``StoreError`` when the file cannot be used."""
    if url is None or url == "memory://":
        return MemoryStore()
    if url.startswith(_SQLITE_SCHEME):
        path, synchronous = _sqlite_args(url)
        return SqliteStore(path, synchronous=synchronous)
    if url.startswith(_REDIS_SCHEMES):
        address, prefix = redis_url_and_prefix(url)
        return RedisStore(address, prefix=prefix)
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
    parts = urlsplit(address)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port is not None else host
    keys = f" (keys {prefix}*)" if prefix != _DEFAULT_REDIS_PREFIX else ""
    return f"in Redis {urlunsplit((parts.scheme, netloc, parts.path, '', ''))}{keys}"

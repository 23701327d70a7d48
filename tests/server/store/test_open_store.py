"""``open_store`` picks the store from a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.store import (
    MemoryStore,
    RedisStore,
    SqliteStore,
    TableStore,
    open_store,
    redis_url_and_prefix,
    store_label,
)


@pytest.mark.parametrize("url", [None, "memory://"])
async def test_memory(url: str | None) -> None:
    store = open_store(url)
    assert isinstance(store, MemoryStore)
    await store.close()


async def test_redis() -> None:
    # Building the store does not connect, so this needs no Redis.
    store: TableStore = open_store("redis://127.0.0.1:6379/5")
    assert isinstance(store, RedisStore)
    assert store.prefix == "hearts:" and store.max_events == 2000
    await store.close()


async def test_redis_key_prefix_from_the_url() -> None:
    """``?prefix=`` sets the key prefix and is not passed on to redis-py
    (which would refuse an unknown option); other options stay."""
    store = open_store("redis://127.0.0.1:6379/5?prefix=run-7:&socket_keepalive=true")
    try:
        assert isinstance(store, RedisStore)
        assert store.prefix == "run-7:"
        assert redis_url_and_prefix("redis://h/1?prefix=a:&x=1") == ("redis://h/1?x=1", "a:")
        assert redis_url_and_prefix("unix:///run/r.sock?db=2") == (
            "unix:///run/r.sock?db=2",
            "hearts:",
        )
    finally:
        await store.close()


@pytest.mark.parametrize("url", ["redis://h/0?prefix=", "redis://h/0?prefix=a:&prefix=b:"])
def test_an_empty_or_repeated_redis_prefix_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="prefix"):
        open_store(url)


@pytest.mark.parametrize(("query", "synchronous"), [("", "NORMAL"), ("?synchronous=FULL", "FULL")])
async def test_sqlite(tmp_path: Path, query: str, synchronous: str) -> None:
    path = tmp_path / "d" / "hearts.sqlite3"
    store = open_store(f"sqlite://{path}{query}")
    try:
        assert isinstance(store, SqliteStore)
        assert (store.path, store.synchronous, store.max_events) == (path, synchronous, 2000)
        assert path.is_file()  # opened (and locked) at once: a mistake shows at start-up
    finally:
        await store.close()


@pytest.mark.parametrize(
    "url",
    [
        "",
        "postgres://db",
        "memory",
        "http://127.0.0.1:6379",
        "sqlite://",
        "sqlite:///tmp/x.sqlite3?synchronous=off",
        "sqlite:///tmp/x.sqlite3?sync=full",
        "sqlite:///tmp/x.sqlite3?synchronous",
    ],
)
def test_unknown_scheme_or_option(url: str) -> None:
    with pytest.raises(ValueError):
        open_store(url)


@pytest.mark.parametrize(
    ("url", "label"),
    [
        (None, "in memory (lost when the server stops)"),
        (
            "sqlite:///var/lib/h/hearts.sqlite3",
            "in SQLite /var/lib/h/hearts.sqlite3 (synchronous=NORMAL)",
        ),
        ("redis://:s3cret@redis.example:6379/0", "in Redis redis://redis.example:6379/0"),
        ("redis://user:s3cret@10.0.0.1/2", "in Redis redis://10.0.0.1/2"),
        ("redis://10.0.0.1/2?prefix=blue:", "in Redis redis://10.0.0.1/2 (keys blue:*)"),
    ],
)
def test_the_label_says_where_and_never_shows_a_password(url: str | None, label: str) -> None:
    assert store_label(url) == label

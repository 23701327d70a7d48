"""``open_store`` picks the store from a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.store import MemoryStore, RedisStore, SqliteStore, TableStore, open_store, store_label


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
    ],
)
def test_the_label_says_where_and_never_shows_a_password(url: str | None, label: str) -> None:
    assert store_label(url) == label

"""``open_store`` picks the store from a URL."""

from __future__ import annotations

import pytest

from server.store import MemoryStore, RedisStore, TableStore, open_store


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


@pytest.mark.parametrize("url", ["", "postgres://db", "memory", "http://127.0.0.1:6379"])
def test_unknown_scheme(url: str) -> None:
    with pytest.raises(ValueError):
        open_store(url)

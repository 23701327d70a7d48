"""What only the memory store has: its defaults and per-instance state."""

from __future__ import annotations

import time

import pytest

from server.store import MemoryStore, RedisStore


def test_defaults() -> None:
    store = MemoryStore()
    assert store.max_events == 2000
    assert store._clock is time.monotonic


@pytest.mark.parametrize("cap", [0, -1])
def test_cap_must_be_positive(cap: int) -> None:
    with pytest.raises(ValueError):
        MemoryStore(max_events=cap)
    with pytest.raises(ValueError):
        RedisStore("redis://127.0.0.1:6379/0", max_events=cap)


async def test_instances_share_nothing() -> None:
    first, second = MemoryStore(), MemoryStore()
    await first.create_table("t1", "C1", b"s")
    assert await second.load_table("t1") is None
    # The same id and code are free in another instance.
    await second.create_table("t1", "C1", b"other")
    loaded = await first.load_table("t1")
    assert loaded is not None and loaded.state == b"s"

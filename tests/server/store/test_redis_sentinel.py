"""``RedisStore`` on a Sentinel set the test starts (a master, one replica,
three sentinels; ``tests/redis_ha.py``): commits are acknowledged only once
the replica holds them, a lagging replica makes a commit wait instead of
being acknowledged, a failover is followed, and bad addresses are one clear
line."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.cluster import Cluster
from server.store import RedisStore, StoreError
from server.store.sentinel_master import NotTheMaster
from tests.redis_ha import SentinelSet, port_in_range
from tests.server.store.helpers import commit

# Starts other programs (tests/conftest.py, markers).
pytestmark = [pytest.mark.subprocess, pytest.mark.slow]


@pytest.fixture
async def sentinel_set(tmp_path: Path) -> AsyncIterator[SentinelSet]:
    """A fresh Sentinel set, killed afterwards."""
    started = SentinelSet(tmp_path)
    try:
        await asyncio.to_thread(started.start)
        yield started
    finally:
        await asyncio.to_thread(started.stop)


async def test_a_commit_is_acknowledged_once_the_replica_holds_it(
    sentinel_set: SentinelSet,
) -> None:
    store = RedisStore(sentinel_set.url, timeout=2.0)
    try:
        assert store.replicas == 1  # Sentinel's default
        await store.prepare()
        await store.create_table("t1", "CODE1", b"s1")
        assert await commit(store, "t1", 1, b"s2", [b"e1", b"e2"]) == (2, 2)
        # What was acknowledged is on the replica already, read there.
        replica = sentinel_set.replica().client()
        assert replica.hget(store.keys.table("t1"), "state") == b"s2"
        assert replica.xlen(store.keys.events("t1")) == 2
    finally:
        await store.close()


async def test_a_commit_the_replica_does_not_confirm_is_not_acknowledged(
    sentinel_set: SentinelSet,
) -> None:
    store = RedisStore(sentinel_set.url, timeout=2.0, retries=0, wait_ms=200)
    replica = sentinel_set.replica()
    try:
        await store.create_table("t1", "CODE1", b"s1")
        replica.signal(signal.SIGSTOP)
        with pytest.raises(StoreError, match="replicas did not confirm"):
            await store._commit_with_token("t1", 1, b"s2", [b"e1"], "token-1")
        assert store.replicas_behind == 1 and store.waiting_on_replicas == 0
        replica.signal(signal.SIGCONT)
        # The same commit again (what the table does): it finds its own
        # token, waits for the replica, and is acknowledged once.
        assert await store._commit_with_token("t1", 1, b"s2", [b"e1"], "token-1") == (2, 1)
        events = await store.events_since("t1", 0)
        assert events is not None and [e.body for e in events] == [b"e1"]
        assert replica.client().hget(store.keys.table("t1"), "version") == b"2"
    finally:
        replica.signal(signal.SIGCONT)
        await store.close()


async def test_every_connection_follows_a_failover(sentinel_set: SentinelSet) -> None:
    store = RedisStore(sentinel_set.url, timeout=2.0, retries=8, wait_ms=500)
    try:
        await store.create_table("t1", "CODE1", b"s1")
        assert await commit(store, "t1", 1, b"s2", [b"e1"]) == (2, 1)
        old = sentinel_set.master()
        old.kill()
        new = await asyncio.to_thread(sentinel_set.wait_for_failover, old.port)
        # The new master has no replica until the old node is back as one:
        # with WAIT 1, commits wait for it.
        await asyncio.to_thread(sentinel_set.restart_as_replica, old.port)
        # The lane (commits) and redis-py's pool (loads, codes) both moved.
        assert await commit(store, "t1", 2, b"s3", [b"e2"]) == (3, 2)
        loaded = await store.load_table("t1")
        assert loaded is not None and (loaded.version, loaded.state) == (3, b"s3")
        assert await store.table_id_for_code("CODE1") == "t1"
        assert new.client().hget(store.keys.table("t1"), "state") == b"s3"
    finally:
        await store.close()


async def test_a_sentinel_late_to_see_a_failover_points_no_connection_at_a_replica(
    sentinel_set: SentinelSet,
) -> None:
    """Right after a failover a sentinel that has not heard of it names the
    old master, back by then as a replica. A publish on a connection there
    would succeed and reach nobody (a replica does not pass it on), so the
    pool refuses that connection and the bus's retry finds the master."""
    store = RedisStore(sentinel_set.url, timeout=2.0)
    client = store.bus_redis
    replica = sentinel_set.replica()
    manager: Any = client.connection_pool.sentinel_manager  # type: ignore[attr-defined]
    told = manager.discover_master
    lagging = 2  # the first two questions reach the late sentinel

    async def late_sentinel(service: str) -> tuple[str, int]:
        nonlocal lagging
        if lagging:
            lagging -= 1
            return ("127.0.0.1", replica.port)
        address: tuple[str, int] = await told(service)
        return address

    manager.discover_master = late_sentinel
    master = sentinel_set.master().client()
    subscriber = master.pubsub(ignore_subscribe_messages=True)
    try:
        subscriber.ssubscribe("hearts:test:bus")
        subscriber.get_sharded_message(timeout=1.0)  # reads the subscription's confirmation
        with pytest.raises(NotTheMaster, match=f":{replica.port} is a slave, not the master"):
            await client.spublish("hearts:test:bus", b"lost?")
        cluster = Cluster(client)
        assert await cluster._publish("hearts:test:bus", b"heard", wait_for_listener=True)
        assert lagging == 0
        message = await asyncio.to_thread(subscriber.get_sharded_message, timeout=5.0)
        assert message is not None and message["data"] == b"heard"
    finally:
        subscriber.close()
        await store.close()


@pytest.mark.parametrize(
    ("url", "line"),
    [
        ("redis+sentinel://127.0.0.1:{dead},127.0.0.1:{dead}/hearts", "no sentinel answers at"),
        ("redis+sentinel://127.0.0.1:{sentinel}/nosuchservice", "know no service 'nosuchservice'"),
    ],
)
async def test_a_sentinel_set_that_cannot_serve_is_one_clear_line(
    sentinel_set: SentinelSet, url: str, line: str
) -> None:
    address = url.format(dead=port_in_range(), sentinel=sentinel_set.sentinels[0].port)
    store = RedisStore(address, timeout=1.0)
    try:
        with pytest.raises(StoreError, match=line):
            await store.prepare()
    finally:
        await store.close()
    # Nothing was written anywhere.
    assert sentinel_set.master().client().dbsize() == 0


async def test_a_password_protected_set_takes_the_password_and_refuses_a_wrong_one(
    tmp_path: Path,
) -> None:
    protected = SentinelSet(tmp_path, password="s3cret-pw")
    try:
        await asyncio.to_thread(protected.start)
        store = RedisStore(protected.url, timeout=2.0)
        try:
            await store.prepare()
            await store.create_table("t1", "CODE1", b"s1")
            # The commit lane authenticates on the master it asked the
            # sentinels for, and waits for the replica.
            assert await commit(store, "t1", 1, b"s2", [b"e1"]) == (2, 1)
            assert protected.replica().client().hget(store.keys.table("t1"), "state") == b"s2"
        finally:
            await store.close()
        wrong = RedisStore(protected.url.replace("s3cret-pw", "wrong"), timeout=2.0)
        try:
            with pytest.raises(StoreError, match="refused the credentials"):
                await wrong.prepare()
        finally:
            await wrong.close()
    finally:
        await asyncio.to_thread(protected.stop)

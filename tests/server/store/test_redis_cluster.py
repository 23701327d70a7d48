"""``RedisStore`` on a Redis Cluster the tests start (three masters, three
replicas; ``tests/redis_ha.py``). The store contract itself runs on it in
``test_behaviour.py`` (the ``cluster`` case); here: tables spread over every
master, commits are acknowledged once the slot's replica holds them, a
master's failover is followed, and a Cluster with uncovered slots is one
clear line at start."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest
from redis import Redis

from server.store import RedisStore, StoreError
from tests.redis_ha import ClusterSet, Node, cluster_node_args, cluster_port, until
from tests.server.store.conftest import Harness, cluster_harness
from tests.server.store.helpers import commit

# Starts other programs (tests/conftest.py, markers).
pytestmark = [pytest.mark.subprocess, pytest.mark.slow]


def _store(case: Harness) -> RedisStore:
    assert isinstance(case.store, RedisStore)
    return case.store


def node_of(cluster: ClusterSet, key: str) -> Node:
    """The master serving ``key``'s slot."""
    client = cluster.masters()[0].client()
    slot = int(client.execute_command("CLUSTER", "KEYSLOT", key))  # type: ignore[no-untyped-call]
    for start, end, primary, *_ in client.execute_command("CLUSTER", "SLOTS"):  # type: ignore[no-untyped-call]
        if start <= slot <= end:
            return cluster.nodes[int(primary[1])]
    raise AssertionError("no master serves the slot")


async def test_tables_spread_over_every_master(redis_cluster: ClusterSet) -> None:
    async with cluster_harness(redis_cluster) as case:
        store = _store(case)
        for n in range(24):
            await store.create_table(f"table-{n:02d}", f"CODE{n:02d}", b"s")
        per_master = {}
        for master in redis_cluster.masters():
            keys = list(master.client().scan_iter(match=f"{store.prefix}{{*}}:table:*"))
            per_master[master.port] = len(keys)
        assert len(per_master) == 3 and all(per_master.values()), per_master
        assert sum(per_master.values()) == 24


async def test_a_commit_is_acknowledged_once_its_slots_replica_holds_it(
    redis_cluster: ClusterSet,
) -> None:
    async with cluster_harness(redis_cluster) as case:
        store = _store(case)
        assert store.replicas == 1  # the Cluster's default
        await store.create_table("t1", "C1", b"s1")
        assert await commit(store, "t1", 1, b"s2", [b"e1"]) == (2, 1)
        master = node_of(redis_cluster, store.keys.table("t1"))
        replica = redis_cluster.replica_of(master)
        assert replica is not None
        reader = Redis(port=replica.port)
        reader.execute_command("READONLY")  # type: ignore[no-untyped-call]
        assert reader.hget(store.keys.table("t1"), "state") == b"s2"


async def test_a_lagging_replica_holds_the_commit_back(redis_cluster: ClusterSet) -> None:
    async with cluster_harness(redis_cluster) as case:
        store = _store(case)
        store.wait_ms = 200
        await store.create_table("t2", "C2", b"s1")
        replica = redis_cluster.replica_of(node_of(redis_cluster, store.keys.table("t2")))
        assert replica is not None
        replica.signal(signal.SIGSTOP)
        try:
            with pytest.raises(StoreError, match="replicas did not confirm"):
                await store._commit_with_token("t2", 1, b"s2", [b"e"], "token-1")
        finally:
            replica.signal(signal.SIGCONT)
        assert await store._commit_with_token("t2", 1, b"s2", [b"e"], "token-1") == (2, 1)


async def test_a_cluster_with_uncovered_slots_is_one_clear_line(tmp_path: Path) -> None:
    port = cluster_port()
    lone = Node(port, cluster_node_args(port, tmp_path), tmp_path)
    await asyncio.to_thread(lone.start)
    store = RedisStore(f"redis+cluster://127.0.0.1:{port}", timeout=1.0, retries=0)
    try:
        with pytest.raises(StoreError, match="does not serve every slot"):
            await store.prepare()
        assert lone.client().dbsize() == 0  # nothing written
    finally:
        await store.close()
        lone.kill()


async def test_a_masters_failover_is_followed(tmp_path: Path) -> None:
    cluster = ClusterSet(tmp_path)
    await asyncio.to_thread(cluster.start)
    store = RedisStore(cluster.url, timeout=1.0, retries=10, wait_ms=500)
    try:
        await store.prepare()
        await store.create_table("t1", "C1", b"s1")
        assert await commit(store, "t1", 1, b"s2", [b"e1"]) == (2, 1)
        master = node_of(cluster, store.keys.table("t1"))
        master.kill()
        await asyncio.to_thread(
            until, lambda: len(cluster.masters()) == 3, "a replica took over", 20.0
        )
        # The killed node comes back (its nodes.conf kept) as the replica of
        # the new master, which WAIT 1 needs.
        await asyncio.to_thread(master.start)
        await asyncio.to_thread(until, cluster.healthy, "the cluster is whole again", 30.0)
        assert await commit(store, "t1", 2, b"s3", [b"e2"]) == (3, 2)
        loaded = await store.load_table("t1")
        assert loaded is not None and (loaded.version, loaded.state) == (3, b"s3")
        events = await store.events_since("t1", 0)
        assert events is not None and [e.body for e in events] == [b"e1", b"e2"]
    finally:
        await store.close()
        await asyncio.to_thread(cluster.stop)

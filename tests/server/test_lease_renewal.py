"""Lease renewal one master at a time (``Cluster`` with a per-master script
runner, as on a Redis Cluster): a lease whose master does not answer, or
answers late, neither holds up the others nor counts as lost (it is tried
again next round), while a lease another process took is given up. The
runner here sends each renewal over a real lane to the test Redis, except
for the tables whose "master" is down (a refused connection) or hung."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.cluster import Cluster
from server.store.redis_keys import Keyspace
from server.store.redis_lane import RedisLane
from tests.redis_space import RedisSpace


async def test_a_dead_or_hung_master_delays_only_its_own_leases(redis_space: RedisSpace) -> None:
    keys = Keyspace(redis_space.prefix)
    lane = RedisLane.for_url(redis_space.base, 5.0)
    redis = Redis.from_url(redis_space.base)
    dead, hung = keys.lease("on-dead"), keys.lease("on-hung")

    async def per_master(source: str, script_keys: list[str], args: list[Any]) -> Any:
        if script_keys[0] == dead:
            raise RedisConnectionError("Connect call failed")
        if script_keys[0] == hung:
            await asyncio.Event().wait()  # a master that never answers
        return await lane.script(source, script_keys, args)

    cluster = Cluster(redis, keys, lease_ms=3000, scripts=per_master)
    lost: list[str] = []

    async def on_lost(table_id: str) -> None:
        lost.append(table_id)

    cluster.on_lost = on_lost
    try:
        tables = ["kept", "on-dead", "on-hung", "taken"]
        for table_id in tables:
            # Leases about to lapse: a renewal puts the full lifetime back.
            await redis.set(keys.lease(table_id), cluster.process_id, px=1500)
        await redis.set(keys.lease("taken"), "another-process", px=3000)
        cluster.owned.update(tables)

        # Bounded only so a round that waits for the hung master fails
        # here instead of hanging the suite.
        await asyncio.wait_for(cluster._renew_all(), timeout=30)

        assert await redis.pttl(keys.lease("kept")) > 1500
        assert await redis.get(keys.alive(cluster.process_id)) is not None
        # Not known to be lost: still ours, tried again next round.
        assert {"kept", "on-dead", "on-hung"} <= cluster.owned
        assert "taken" not in cluster.owned and lost == ["taken"]
    finally:
        await lane.aclose()
        await redis.aclose()

"""A job forwarded to a table's owner (server.remote.RemoteTable) over the
real bus: what travels, and a call that fails at once when the owner is
known to be gone instead of waiting out its timeout."""

from __future__ import annotations

import asyncio

import msgpack
import pytest
from redis.asyncio import Redis

from protocol import client_messages as cm
from server.cluster import Cluster
from server.errors import OwnerGone
from server.jobs import Attach
from server.remote import RemoteTable
from server.store.redis_keys import Keyspace
from tests.redis_space import RedisSpace

from ..absent_client import AbsentClient


async def test_an_abandoned_call_fails_at_once_with_owner_gone(redis_space: RedisSpace) -> None:
    redis = Redis.from_url(redis_space.base)
    listener = Redis.from_url(redis_space.base)
    # A lease of a minute: only abandon() can end the call within the test.
    cluster = Cluster(redis, Keyspace(redis_space.prefix), lease_ms=60_000)
    pubsub = listener.pubsub(ignore_subscribe_messages=True)
    await pubsub.ssubscribe(cluster.channel("owner1"))
    calls: dict[str, asyncio.Future[None]] = {}
    remote = RemoteTable("table1", "owner1", cluster, calls)
    try:
        # A host's attach, with the seat token the lobby made: the one job
        # that carries a token beside its message.
        create = cm.CreateTable(id=1)
        job = Attach(AbsentClient(), create, "host", "secret-seat-token")
        call = asyncio.create_task(remote.call(job))
        message = None
        while message is None:
            message = await pubsub.get_message(timeout=5)
        # A lone message travels as a bare map (several would be one list).
        payload = msgpack.unpackb(message["data"], raw=False)
        assert isinstance(payload, dict)
        assert payload["op"] == "job" and payload["table"] == "table1"
        assert payload["from"] == cluster.process_id and payload["call"] in calls
        # Seat tokens stay in the process that made them.
        assert payload["extra"] == {"mode": "host"}
        assert b"secret-seat-token" not in message["data"]
        assert (payload["kind"], payload["conn"], payload["name"]) == ("attach", "c1", "Ann")
        remote.abandon()
        with pytest.raises(OwnerGone):
            await asyncio.wait_for(call, 5)
        assert calls == {}
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await cluster.stop()
        await redis.aclose()
        await listener.aclose()

"""The Redis store's pipelined commit connection (``server.store.redis_lane``):
replies reach their own callers, and every failure looks like redis-py's so
the store's retry policy holds."""

from __future__ import annotations

import asyncio
import secrets
from urllib.parse import urlsplit, urlunsplit

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store.redis_lane import RedisLane
from tests.redis_space import RedisSpace
from tests.server.store.conftest import REDIS_URL, Harness, _connect_raw
from tests.server.store.helpers import commit


def _lane(timeout: float = 5.0, url: str = REDIS_URL) -> RedisLane:
    return RedisLane.for_url(url, timeout)


async def _kill(lane: RedisLane) -> None:
    """Have Redis drop the lane's connection, as a restart or a proxy would."""
    client_id = await lane.call("CLIENT", "ID")
    raw = await _connect_raw()
    try:
        assert await raw.execute_command("CLIENT", "KILL", "ID", client_id) == 1
    finally:
        await raw.aclose()


async def test_concurrent_commands_each_get_their_own_reply(redis_space: RedisSpace) -> None:
    lane = _lane()
    try:
        words = [f"word-{i}-{secrets.token_hex(2)}" for i in range(300)]
        replies = await asyncio.gather(*(lane.call("ECHO", w) for w in words))
        assert replies == [w.encode() for w in words]
        # An error reply goes to its own caller only.
        results = await asyncio.gather(
            lane.call("ECHO", "a"),
            lane.call("NO-SUCH-COMMAND"),
            lane.call("ECHO", "b"),
            return_exceptions=True,
        )
        assert results[0] == b"a" and results[2] == b"b"
        assert isinstance(results[1], ResponseError)
    finally:
        await lane.aclose()


async def test_a_lost_connection_fails_what_is_in_flight_and_the_next_call_reconnects(
    redis_space: RedisSpace,
) -> None:
    lane = _lane()
    key = f"{redis_space.prefix}never"
    try:
        waiting = asyncio.ensure_future(lane.call("BLPOP", key, 30))
        await _kill(lane)
        with pytest.raises(RedisConnectionError):
            await waiting
        assert await lane.call("ECHO", "again") == b"again"
    finally:
        await lane.aclose()


async def test_a_reply_late_past_the_timeout_drops_the_connection_not_the_order(
    redis_space: RedisSpace,
) -> None:
    lane = _lane(timeout=0.3)
    key = f"{redis_space.prefix}never"
    try:
        with pytest.raises(RedisTimeoutError):
            await lane.call("BLPOP", key, 2)
        # The BLPOP's reply, when it comes, cannot be taken for this one's.
        assert await lane.call("ECHO", "next") == b"next"
    finally:
        await lane.aclose()


async def test_a_database_in_the_url_is_selected(redis_space: RedisSpace) -> None:
    raw = await _connect_raw()
    parts = urlsplit(REDIS_URL)
    db = int(parts.path.strip("/") or 0)
    other = 1 if db != 1 else 2
    url = urlunsplit(parts._replace(path=f"/{other}"))
    lane = _lane(url=url)
    key = f"{redis_space.prefix}db"
    try:
        await lane.call("SET", key, "here")
        assert await raw.get(key) is None  # not in the test's own database
        assert await raw.execute_command("SELECT", other) in (True, b"OK")
        assert await raw.get(key) == b"here"
        await raw.delete(key)
    finally:
        await lane.aclose()
        await raw.aclose()


async def test_unreachable_redis_is_a_connection_error() -> None:
    lane = _lane(timeout=1.0, url="redis://127.0.0.1:1/0")
    with pytest.raises(RedisConnectionError):
        await lane.call("PING")
    await lane.aclose()


async def test_commits_survive_a_dropped_connection_and_a_flushed_script_cache(
    redis_case: Harness,
) -> None:
    store, raw = redis_case.store, redis_case.raw
    assert raw is not None and hasattr(store, "_lane") and store._lane is not None
    await store.create_table("t1", "C1", b"s1")
    assert await commit(store, "t1", 1, b"s2", [b"e1"]) == (2, 1)
    await _kill(store._lane)
    # The store's retry policy resends the commit on a new connection.
    assert await commit(store, "t1", 2, b"s3", [b"e2"]) == (3, 2)
    # Redis forgot its scripts (a restart): the commit script is loaded again.
    await raw.script_flush()
    assert await commit(store, "t1", 3, b"s4", [b"e3"]) == (4, 3)
    events = await store.events_since("t1", 0)
    assert events is not None and [e.body for e in events] == [b"e1", b"e2", b"e3"]


async def test_scripts_sent_together_share_one_wait_for_the_replicas() -> None:
    raw = await _connect_raw()
    lane = _lane()
    source = "return redis.call('INCR', KEYS[1])"
    key = f"hearts-test:{secrets.token_hex(8)}:counter"

    async def waits() -> int:
        stats = await raw.info("commandstats")
        return int(stats.get("cmdstat_wait", {}).get("calls", 0))

    try:
        await lane.script_then_wait(source, [key], [], 0, 100)  # the script loaded
        before = await waits()
        results = await asyncio.gather(
            *(lane.script_then_wait(source, [key], [], 0, 100) for _ in range(20))
        )
        # Each script got its own reply; a lone Redis has no replica to confirm.
        assert sorted(reply for reply, _ in results) == list(range(2, 22))
        assert {confirmed for _, confirmed in results} == {0}
        assert await waits() - before == 1
    finally:
        await lane.aclose()
        await raw.delete(key)
        await raw.aclose()

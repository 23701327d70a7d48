"""Fixtures: every store behaviour runs against ``MemoryStore``,
``SqliteStore`` and ``RedisStore``.

The SQLite store gets a fresh file in the test's temporary folder, and the
same injected clock as the memory store. The Redis store gets the test's own
key prefix (the ``redis_space`` fixture, tests/redis_space.py), whose keys
are deleted afterwards. When Redis does not answer, the Redis cases are
skipped with the reason on a developer machine but FAIL in CI (``CI`` set to
anything but empty/0/false): a CI run must never go green without them.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from server.store import MemoryStore, RedisStore, SqliteStore
from tests.redis_ha import ClusterSet
from tests.redis_space import REDIS_BASE, RedisSpace, require_redis

REDIS_URL = REDIS_BASE
# A small cap so trimming is exercised with a handful of events.
CAP = 8


class FakeClock:
    """A clock the test moves by hand (the memory and SQLite stores' expiry
    reads it)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        self.now += seconds


@dataclass
class Harness:
    """A store under test plus what a test needs to look behind it."""

    kind: str
    store: MemoryStore | SqliteStore | RedisStore
    clock: FakeClock | None = None
    raw: Redis | None = None

    async def assert_expires(self, table_id: str, code: str, seconds: int) -> None:
        """Check that the table, every key of it, vanishes ``seconds`` from now.

        Memory and SQLite: move the injected clock to just before and then
        to the deadline. Redis: every key of the table carries a TTL of at most
        ``seconds`` (TTL is -2 for a missing key, -1 for one without expiry).
        """
        store = self.store
        if self.clock is not None:
            self.clock.advance(seconds - 0.5)
            assert await store.load_table(table_id) is not None
            self.clock.advance(0.5)
            assert await store.load_table(table_id) is None
            assert await store.table_id_for_code(code) is None
            assert await store.hand_records(table_id) == []
            assert await store.events_since(table_id, 0) is None
            assert table_id not in await store.table_ids()
            return
        assert self.raw is not None and isinstance(store, RedisStore)
        keys = [
            store.keys.table(table_id),
            store.keys.events(table_id),
            store.keys.records(table_id),
            store.keys.code(code),
        ]
        ttls = {key: await self.raw.ttl(key) for key in keys}
        assert all(0 < ttl <= seconds for ttl in ttls.values()), ttls


async def _connect_raw() -> Redis:
    """A plain client on the test Redis, or skip/fail as the module docstring says."""
    await asyncio.to_thread(require_redis, REDIS_URL)
    return Redis.from_url(REDIS_URL)


@asynccontextmanager
async def redis_harness(space: RedisSpace, max_events: int = CAP) -> AsyncIterator[Harness]:
    """A ``RedisStore`` on the test's own prefix (its keys are deleted by
    the ``redis_space`` fixture)."""
    raw = Redis.from_url(space.base)
    store = RedisStore(space.base, prefix=space.prefix, max_events=max_events)
    try:
        yield Harness("redis", store, raw=raw)
    finally:
        await store.close()
        await raw.aclose()


@asynccontextmanager
async def sqlite_harness(folder: Path, max_events: int = CAP) -> AsyncIterator[Harness]:
    """A ``SqliteStore`` on a new file in ``folder``, with a hand-moved clock."""
    clock = FakeClock()
    store = SqliteStore(folder / "hearts.sqlite3", max_events=max_events, clock=clock)
    try:
        yield Harness("sqlite", store, clock=clock)
    finally:
        await store.close()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterSet]:
    """A Redis Cluster (three masters, three replicas) for the whole session."""
    cluster = ClusterSet(tmp_path_factory.mktemp("redis-cluster"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@asynccontextmanager
async def cluster_harness(cluster: ClusterSet, max_events: int = CAP) -> AsyncIterator[Harness]:
    """A ``RedisStore`` on the session's Cluster under a fresh prefix
    (the Cluster dies with the session: nothing to delete)."""
    prefix = f"hearts-test:{secrets.token_hex(8)}:"
    store = RedisStore(cluster.url, prefix=prefix, max_events=max_events, timeout=2.0)
    raw = RedisCluster(host="127.0.0.1", port=next(iter(cluster.nodes)))
    try:
        await store.prepare()
        yield Harness("redis", store, raw=cast(Redis, raw))
    finally:
        await store.close()
        await raw.aclose()


@pytest.fixture(
    params=[
        "memory",
        "sqlite",
        pytest.param("redis", marks=pytest.mark.redis),
        pytest.param(
            "cluster", marks=[pytest.mark.redis, pytest.mark.slow, pytest.mark.subprocess]
        ),
    ]
)
async def harness(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    """Each store in turn (the test runs once per implementation; Redis
    twice: one Redis, and a Redis Cluster the tests start)."""
    if request.param == "memory":
        clock = FakeClock()
        yield Harness("memory", MemoryStore(max_events=CAP, clock=clock), clock=clock)
        return
    if request.param == "sqlite":
        async with sqlite_harness(tmp_path) as sqlite_case:
            yield sqlite_case
        return
    if request.param == "cluster":
        cluster: ClusterSet = request.getfixturevalue("redis_cluster")
        async with cluster_harness(cluster) as cluster_case:
            yield cluster_case
        return
    space: RedisSpace = request.getfixturevalue("redis_space")
    async with redis_harness(space) as redis_case:
        yield redis_case


@pytest.fixture
async def redis_case(redis_space: RedisSpace) -> AsyncIterator[Harness]:
    """The Redis store alone, for Redis-specific tests."""
    async with redis_harness(redis_space) as case:
        yield case

"""Fixtures for the server tests: one bot process pool for the whole session,
servers on 127.0.0.1 port 0, and the Redis URL rule of tests/server/store.

Redis is expected at ``HEARTS_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/0``); the end-to-end Redis tests use database 15 of
that server and flush it before and after (under pytest-xdist each worker
shifts the databases it flushes, ``worker_db``, so that workers never flush
each other's). When Redis does not answer, those
tests are skipped locally and FAIL in CI (``CI`` set to anything but
empty/0/false).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError

from server.app import RunningServer, start_server
from server.bot_runner import BotRunner
from server.config import ServerConfig
from tests.ci import in_ci

REDIS_BASE = os.environ.get("HEARTS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
E2E_DB = 15


# Databases a test flushes are 15, 14 and 12 (end-to-end, bench, cluster);
# each xdist worker takes them WORKER_DB_STEP lower, so up to three workers
# never share one (database 0 holds the store tests' keys, each test under
# a random prefix of its own).
WORKER_DB_STEP = 4
MAX_WORKERS = 3


def worker_db(db: int) -> int:
    """Database ``db`` for this pytest-xdist worker (``db`` itself without xdist)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw")) if worker.startswith("gw") else 0
    if index >= MAX_WORKERS:
        raise RuntimeError(f"at most {MAX_WORKERS} xdist workers share the test Redis")
    return db - WORKER_DB_STEP * index


def redis_url(db: int = E2E_DB) -> str:
    """The test Redis server's URL with database ``db`` (this worker's: ``worker_db``)."""
    base = REDIS_BASE.rsplit("/", 1)[0] if REDIS_BASE.count("/") > 2 else REDIS_BASE
    return f"{base}/{worker_db(db)}"


class SharedBots(BotRunner):
    """A bot runner shared by every server of the session: a server's
    ``close()`` must not shut the pool down under the next test."""

    def close(self) -> None:
        """Keep the pool (the session fixture shuts it down)."""

    def shutdown(self) -> None:
        """Really stop the worker processes."""
        super().close()


@pytest.fixture(scope="session")
def shared_bots() -> Iterator[SharedBots]:
    """Two spawn workers with a small budget, started once per session."""
    bots = SharedBots(workers=2, budget_ms=30)
    yield bots
    bots.shutdown()


# Scripted seats answer as fast as the loopback allows (a sequence of
# requests can run at several hundred a second); the shipped budget is
# tested on its own (test_rate_limits), so the other tests keep clear of it.
BASE_CONFIG = ServerConfig(
    port=0, bot_budget_ms=30, bot_workers=2, rate_per_second=5000.0, rate_burst=5000.0
)

ServerFactory = Callable[..., AbstractAsyncContextManager[RunningServer]]


@pytest.fixture
def make_server(shared_bots: SharedBots) -> ServerFactory:
    """``async with make_server(grace_seconds=0.2) as server:`` a server on a
    free port with the shared bots (``store=`` passes a store of the test's
    own); closed at the end of the block."""

    @asynccontextmanager
    async def factory(**overrides: Any) -> AsyncIterator[RunningServer]:
        store = overrides.pop("store", None)
        server = await start_server(
            replace(BASE_CONFIG, **overrides), bots=shared_bots, store=store
        )
        try:
            yield server
        finally:
            await server.close()

    return factory


@pytest.fixture
async def server(make_server: ServerFactory) -> AsyncIterator[RunningServer]:
    """A server with the default test settings (memory store)."""
    async with make_server() as running:
        yield running


@pytest.fixture
async def redis_db() -> AsyncIterator[str]:
    """Database 15 of the test Redis, flushed before and after; skip or fail
    as the module docstring says when Redis does not answer."""
    url = redis_url()
    raw = Redis.from_url(url)
    try:
        await raw.ping()
    except RedisError as exc:
        await raw.aclose()
        reason = f"Redis does not answer at {url} ({exc.__class__.__name__})"
        if in_ci():
            pytest.fail(f"{reason}; CI is set, so this is a failure, not a skip")
        pytest.skip(f"{reason}; start redis-server to run this test")
    await raw.flushdb()
    try:
        yield url
    finally:
        await raw.flushdb()
        await raw.aclose()

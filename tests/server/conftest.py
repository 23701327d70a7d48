"""Fixtures for the server tests: one bot process pool for the whole session,
servers on 127.0.0.1 port 0, and the test Redis under a key prefix of the
test's own (``redis_db``; see tests/redis_space.py). When Redis does not
answer, those tests are skipped locally and FAIL in CI (``CI`` set to
anything but empty/0/false).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar

import pytest

from server.app import RunningServer, start_server
from server.bot_runner import BotRunner
from server.config import ServerConfig
from tests.redis_space import RedisSpace

T = TypeVar("T")


class SharedBots(BotRunner):
    """A bot runner shared by every server of the session: a server's
    ``close()`` must not shut the pool down under the next test.

    Its bookkeeping of queued and running jobs belongs to one event loop
    (each job's future and its completion callback are the loop's), and
    every test has a loop of its own: a job still running when a test's
    loop closed never reports back, so its worker would stay counted busy
    for the rest of the session, and after two such jobs no pool job (a
    Hard move, a hand review) would ever start again. So the bookkeeping
    starts afresh with each new loop (the processes finish what they run)."""

    def __init__(self, workers: int, budget_ms: int) -> None:
        super().__init__(workers=workers, budget_ms=budget_ms)
        self._loop: asyncio.AbstractEventLoop | None = None

    async def run(self, queue: str, fn: Callable[..., T], *args: Any) -> T:
        """``BotRunner.run``, on bookkeeping of this loop's own."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._queues.clear()
            self._served.clear()
            self._running.clear()
            self._busy = 0
        return await super().run(queue, fn, *args)

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
def redis_db(redis_space: RedisSpace) -> str:
    """The store URL of the test Redis with this test's own key prefix
    (``?prefix=``); its keys are deleted afterwards."""
    return redis_space.url

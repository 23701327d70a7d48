"""Fixtures for the server tests: one bot process pool for the whole session,
servers on 127.0.0.1 port 0, and the test Redis under a key prefix of the
test's own (``redis_db``; see tests/redis_space.py). When Redis does not
answer, those tests are skipped locally and FAIL in CI (``CI`` set to
anything but empty/0/false).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from typing import Any

import pytest

from server.app import RunningServer, start_server
from server.bot_runner import BotRunner
from server.config import ServerConfig
from tests.redis_space import RedisSpace


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
def redis_db(redis_space: RedisSpace) -> str:
    """The store URL of the test Redis with this test's own key prefix
    (``?prefix=``); its keys are deleted afterwards."""
    return redis_space.url

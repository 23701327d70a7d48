"""The master check of Sentinel-managed connections
(``server.store.sentinel_master``) on the test Redis, a master: it lets a
master through, and a user who may not run ``ROLE`` is let through with a
warning instead of being locked out. (A replica refused: the Sentinel test,
``test_redis_sentinel.py``.)"""

from __future__ import annotations

import logging
import secrets
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest

from server.store.sentinel_master import MasterCheckedConnection
from tests.redis_space import RedisSpace

pytestmark = pytest.mark.redis


def _address(space: RedisSpace) -> tuple[str, int]:
    parts = urlsplit(space.base)
    return parts.hostname or "127.0.0.1", parts.port or 6379


async def _connect(space: RedisSpace, **credentials: str) -> MasterCheckedConnection:
    pool = SimpleNamespace(is_master=True, check_connection=False)
    connection = MasterCheckedConnection(connection_pool=pool, **credentials)
    await connection.connect_to(_address(space))
    return connection


async def test_a_master_is_let_through(
    redis_space: RedisSpace, caplog: pytest.LogCaptureFixture
) -> None:
    connection = await _connect(redis_space)
    try:
        await connection.send_command("PING")
        assert await connection.read_response() in (b"PONG", "PONG")
    finally:
        await connection.disconnect()
    assert "ROLE" not in caplog.text


async def test_a_user_without_role_is_let_through_with_a_warning(
    redis_space: RedisSpace, caplog: pytest.LogCaptureFixture
) -> None:
    admin = redis_space.client()
    user, password = f"hearts-test-{secrets.token_hex(4)}", secrets.token_hex(8)
    admin.acl_setuser(
        user,
        enabled=True,
        passwords=[f"+{password}"],
        keys=["*"],
        channels=["*"],
        commands=["+@all", "-role"],
    )
    try:
        with caplog.at_level(logging.WARNING, logger="hearts.store"):
            connection = await _connect(redis_space, username=user, password=password)
        try:
            await connection.send_command("PING")
            assert await connection.read_response() in (b"PONG", "PONG")
        finally:
            await connection.disconnect()
        assert "may not run ROLE" in caplog.text
    finally:
        admin.acl_deluser(user)
        admin.close()

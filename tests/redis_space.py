"""The tests' own corner of the test Redis: a key prefix per test.

Redis is expected at ``HEARTS_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/0``). Nothing flushes a database: every test that
asks for the ``redis_space`` fixture (tests/conftest.py) gets a prefix of
its own, ``hearts-test:<run>:<worker>:<test>:``, and only the keys under it
are deleted afterwards (SCAN and UNLINK), so two runs on one host, the
pytest-xdist workers of one run, and a developer's own tables on the same
Redis never erase each other. A store or ``hearts serve`` reaches the
prefix through the store URL's ``?prefix=`` (``server.store.open_store``).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

from redis import Redis
from redis.exceptions import RedisError

from tests.ci import unavailable

REDIS_BASE = os.environ.get("HEARTS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
# Keys deleted per UNLINK.
BATCH = 500


def with_prefix(url: str, prefix: str) -> str:
    """``url`` with ``prefix=`` added to its query (the store's key prefix)."""
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode({"prefix": prefix})) if q)
    return urlunsplit(parts._replace(query=query))


@dataclass(frozen=True)
class RedisSpace:
    """The test Redis (``base``, a plain redis-py URL) and the key prefix a
    test may write under."""

    base: str
    prefix: str

    @property
    def url(self) -> str:
        """The store URL for ``hearts serve --redis`` and ``ServerConfig``:
        ``base`` with ``?prefix=``."""
        return with_prefix(self.base, self.prefix)

    def client(self) -> Redis:
        """A plain (synchronous) client on ``base``; the caller closes it."""
        return Redis.from_url(self.base)


def require_redis(url: str = REDIS_BASE) -> None:
    """Return when Redis answers at ``url``; otherwise skip the test (fail
    it in CI)."""
    client = Redis.from_url(url, socket_connect_timeout=5)
    try:
        client.ping()
    except (RedisError, OSError) as exc:
        unavailable(f"Redis does not answer at {url} ({exc.__class__.__name__})")
    finally:
        client.close()


def new_space(run_prefix: str) -> RedisSpace:
    """A fresh prefix under the run's (and worker's) ``run_prefix``."""
    return RedisSpace(REDIS_BASE, f"{run_prefix}{secrets.token_hex(4)}:")


def delete_prefix(url: str, prefix: str) -> int:
    """Delete every key under ``prefix`` (SCAN, then UNLINK in batches) and
    return how many there were."""
    client = Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(keys), BATCH):
            client.unlink(*keys[start : start + BATCH])
        return len(keys)
    finally:
        client.close()

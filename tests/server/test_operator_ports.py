"""What an operator's infrastructure talks to: the WebSocket's Origin
policy (server/http.py), the separate metrics listener and what it
exports (server/metrics.py), and /readyz answering in time when Redis hangs
(a private redis-server, SIGSTOPped)."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server.http import origin_allowed
from tests.server.conftest import ServerFactory
from tests.server.harness import WireClient
from tests.server.throwaway_redis import ThrowawayRedis

# Starts other programs (tests/conftest.py, markers).
pytestmark = pytest.mark.subprocess


def fetch(url: str) -> tuple[int, str]:
    """Status and body of a GET (blocking)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return int(reply.status), reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "ok"),
    [
        (None, "play.example.com", (), True),  # the CLI, programs
        ("https://play.example.com", "play.example.com", (), True),
        ("https://play.example.com", "play.example.com:8765", (), True),
        ("http://127.0.0.1:8765", "127.0.0.1:8765", (), True),
        ("https://evil.example", "play.example.com", (), False),
        ("https://play.example.com.evil.example", "play.example.com", (), False),
        ("null", "play.example.com", (), False),
        ("https://friends.example", "play.example.com", ("https://friends.example/",), True),
        ("https://FRIENDS.example", "play.example.com", ("https://friends.example",), True),
        ("https://evil.example", "play.example.com", ("*",), True),
        ("https://evil.example", None, (), False),
    ],
)
def test_the_origin_policy(
    origin: str | None, host: str | None, allowed: tuple[str, ...], ok: bool
) -> None:
    assert origin_allowed(origin, host, allowed) is ok


async def test_a_page_of_another_site_gets_403_and_the_own_page_gets_in(
    make_server: ServerFactory,
) -> None:
    async with make_server(allowed_origins=("https://friends.example",)) as server:
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url, origin="https://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        assert b"--allowed-origin" in refused.value.response.body
        own = f"http://127.0.0.1:{server.port}"
        for origin in (own, "https://friends.example"):
            ws = await connect(server.url, origin=origin)  # type: ignore[arg-type]
            await ws.close()
        client = await WireClient.open(server.url, "Ann")  # no Origin at all
        await client.close()


async def test_metrics_move_to_their_own_listener(make_server: ServerFactory) -> None:
    async with make_server(metrics_listen="127.0.0.1:0") as server:
        port = server.listener_port(server.metrics_server)
        assert port is not None and port != server.port
        status, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{server.port}/metrics")
        assert status == 404  # no longer on the public game port
        status, text = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}/metrics")
        assert status == 200
        names = {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line[:1] != "#"}
        for wanted in (
            "process_resident_memory_bytes",
            "process_cpu_seconds_total",
            "process_open_fds",
            "process_max_fds",
            "python_info",
            "python_gc_collections_total",
            "hearts_tables_owned",
        ):
            assert wanted in names, wanted
        assert 'hearts_build_info{version="' in text
        assert not [name for name in names if name.endswith("_created")]
        for probe, expected in (("/healthz", 200), ("/readyz", 200), ("/nothing", 404)):
            status, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}{probe}")
            assert status == expected, probe


async def test_metrics_stay_on_the_game_port_by_default(make_server: ServerFactory) -> None:
    async with make_server() as server:
        assert server.metrics_server is None
        status, text = await asyncio.to_thread(fetch, f"http://127.0.0.1:{server.port}/metrics")
        assert status == 200 and "hearts_build_info" in text


@pytest.fixture
def stoppable_redis(tmp_path: Path) -> Iterator[ThrowawayRedis]:
    redis = ThrowawayRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


async def test_readyz_says_503_within_2_s_when_redis_hangs(
    make_server: ServerFactory, stoppable_redis: ThrowawayRedis
) -> None:
    async with make_server(redis_url=stoppable_redis.url) as server:
        url = f"http://127.0.0.1:{server.port}/readyz"
        assert (await asyncio.to_thread(fetch, url))[0] == 200
        stoppable_redis.pause()
        try:
            # The probe's own budget: an answer, and a 503, within 2 s.
            async with asyncio.timeout(2.0):
                status, body = await asyncio.to_thread(fetch, url)
            assert status == 503 and "store unavailable" in body
        finally:
            stoppable_redis.resume()
        assert (await asyncio.to_thread(fetch, url))[0] == 200

"""The request budget: honest clients at full speed are never refused or cut
off; a refused request says when to retry and a client that waits that long
is never closed; a client that keeps sending while told to wait is closed,
logged and counted in /metrics."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from client.session import ClientSession, Reconnected
from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer
from server.config import ServerConfig

from .conftest import ServerFactory
from .harness import REPLY_TYPES, SHORT_RULES, WireClient, play_until

REPO = Path(__file__).resolve().parents[2]
DEFAULTS = ServerConfig()
# The shipped budget (the test servers' default is raised for scripted seats).
SHIPPED_LIMITS = {
    "rate_per_second": DEFAULTS.rate_per_second,
    "rate_burst": DEFAULTS.rate_burst,
    "max_strikes": DEFAULTS.max_strikes,
    "strikes_forgiven_per_second": DEFAULTS.strikes_forgiven_per_second,
}


def scrape(server: RunningServer) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The server's /metrics over HTTP: (sample name, labels) -> value."""
    with urllib.request.urlopen(f"http://{server.host}:{server.port}/metrics", timeout=10) as r:
        text = r.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def metric(server: RunningServer, name: str, **labels: str) -> float:
    """One sample of /metrics (0 when it was never counted)."""
    samples = await asyncio.to_thread(scrape, server)
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.slow
@pytest.mark.subprocess
@pytest.mark.slow
async def test_an_80_hand_autoplay_game_finishes_without_a_reconnect(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    """``hearts host --seats easy,easy,easy --autoplay easy`` answers every
    snapshot at once: the fastest legitimate client there is. Over 80 hands
    on the shipped budget it is never refused, never reconnects, and the
    game ends on the one connection it opened."""
    async with make_server(**SHIPPED_LIMITS) as server:
        started = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tools.cli.main",
            "host",
            "--server",
            server.url,
            "--seats",
            "easy,easy,easy",
            "--autoplay",
            "easy",
            "--rules",
            "end=hands,end_at=80",
            "--json",
            "--session-file",
            str(tmp_path / "session.json"),
            "--seed",
            "3",
            cwd=REPO,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 300)
        seconds = time.monotonic() - started
        assert proc.returncode == 0, err.decode()
        lines = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
        kinds = [line["type"] for line in lines]
        assert kinds[0] == "table" and kinds[-1] == "game_over"
        # 80 hands, or more when the lowest total is tied after the 80th
        # (the rules play on until one seat is lowest).
        assert kinds.count("hand_scored") >= 80
        final = [line for line in lines if line["type"] == "hand_scored"][-1]["totals"]
        assert final.count(min(final)) == 1
        assert "reconnected" not in kinds
        assert "refused" not in kinds
        # One attach (the table's creation): no resume ever happened.
        assert await metric(server, "hearts_actions_total", kind="attach") == 1
        assert await metric(server, "hearts_errors_total", code="rate_limited") == 0
        assert await metric(server, "hearts_clients_dropped_total", reason="flooding") == 0
        requests = await metric(server, "hearts_actions_total", kind="request")
        logging.getLogger(__name__).info(
            "80 hands in %.1f s: %.0f requests, %.0f/s", seconds, requests, requests / seconds
        )


@pytest.mark.slow
async def test_a_flood_is_told_when_to_retry_then_closed(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """Thousands of frames a second on the shipped budget: the burst passes,
    then each frame gets ``rate_limited`` with its id and a ``retry_after``
    of one token's time; once refusals outrun their forgiveness the
    connection is closed (1008) after those replies, logged and counted. A
    player at another table finishes a game meanwhile, never refused."""
    caplog.set_level(logging.WARNING, logger="hearts.connection")
    async with make_server(**SHIPPED_LIMITS) as server:
        steady = await WireClient.open(server.url, "Steady")
        await steady.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
        await steady.start()
        game = asyncio.create_task(play_until(steady, random.Random(5), timeout=60))
        flooder = await WireClient.open(server.url, "Flood")  # hello: 1 token spent
        sent: list[str] = []
        deadline = time.monotonic() + 20
        while not flooder.closed.is_set() and time.monotonic() < deadline:
            rid = f"f{len(sent)}"
            try:
                await flooder.send(cm.Ping(id=rid))
            except Exception:  # the server hung up mid-flood
                break
            sent.append(rid)
        await asyncio.wait_for(flooder.closed.wait(), 10)
        assert flooder.close_code == 1008
        assert flooder.ws.close_reason == "too many requests"
        replies = [m for m in flooder.messages if isinstance(m, REPLY_TYPES)][1:]
        oks = [m.id for m in replies if isinstance(m, sm.Ok)]
        limited = [m for m in replies if isinstance(m, sm.Error)]
        assert {m.code for m in limited} == {"rate_limited"}
        assert len(limited) >= DEFAULTS.max_strikes
        assert len(oks) >= DEFAULTS.rate_burst - 1  # the burst (minus hello)
        # Every request up to the hang-up answered once, in order.
        assert [m.id for m in replies] == sent[: len(replies)]
        assert oks[: int(DEFAULTS.rate_burst) - 1] == sent[: int(DEFAULTS.rate_burst) - 1]
        # One token's time (4 ms at 300/s): after it the request passes, and
        # one request per retry_after stays within the rate.
        one_token = math.ceil(1000 / DEFAULTS.rate_per_second) / 1000
        assert {refusal.retry_after for refusal in limited} == {one_token}
        assert await metric(server, "hearts_clients_dropped_total", reason="flooding") == 1
        assert await metric(server, "hearts_errors_total", code="rate_limited") == len(limited)
        assert any(
            r.message.startswith("closing a flooding client 'Flood' (player ")
            for r in caplog.records
        )
        final = await asyncio.wait_for(game, 60)
        assert final.status == "game_over"
        assert not any(isinstance(m, sm.Error) for m in steady.messages)
        await steady.close()


# A budget small enough that three request loops run far over it.
TIGHT = {
    "rate_per_second": 50.0,
    "rate_burst": 10.0,
    "max_strikes": 20,
    "strikes_forgiven_per_second": 5.0,
}


async def test_a_client_honouring_retry_after_is_never_closed(
    make_server: ServerFactory,
) -> None:
    """Three request loops of a ``ClientSession`` ask far more than the
    budget: refusals come, the session waits as told and paces its sends,
    every request is answered ``ok`` on the one connection, none is lost and
    the server closes nothing. The same load from a client that resends at
    once is closed."""
    async with make_server(**TIGHT) as server:
        session = ClientSession(server.url, "Patient", reconnect=False)
        await session.connect()
        first_socket = session._ws
        seen: list[object] = []

        async def drain() -> None:
            async for msg in session.events():
                seen.append(msg)

        events = asyncio.create_task(drain())

        async def loop(n: int) -> list[object]:
            return [await session.request(cm.Ping(id=session.next_id())) for _ in range(n)]

        started = time.monotonic()
        results = await asyncio.wait_for(asyncio.gather(*(loop(40) for _ in range(3))), 60)
        seconds = time.monotonic() - started
        assert all(isinstance(r, sm.Ok) for batch in results for r in batch)
        refused = await metric(server, "hearts_errors_total", code="rate_limited")
        assert refused > 0  # the budget was hit, and honoured
        assert refused < TIGHT["max_strikes"]
        # 120 requests (the hello took a token) at 50/s after a burst of 10.
        assert seconds >= (120 - TIGHT["rate_burst"] + 1) / TIGHT["rate_per_second"] * 0.9
        assert session._ws is first_socket and session.connected.is_set()
        assert not any(isinstance(m, Reconnected) for m in seen)
        assert await metric(server, "hearts_clients_dropped_total", reason="flooding") == 0
        await session.close()
        await asyncio.wait_for(events, 10)

        careless = await WireClient.open(server.url, "Careless")

        async def resend_at_once(prefix: str) -> None:
            for i in range(40):
                rid = f"{prefix}{i}"
                while True:
                    start = len(careless.frames)
                    await careless.send(cm.Ping(id=rid))
                    reply = await careless.reply_to(rid, start)
                    if not isinstance(reply, sm.Error):
                        break

        loops = [asyncio.create_task(resend_at_once(p)) for p in "abc"]
        await asyncio.wait_for(careless.closed.wait(), 20)
        assert careless.close_code == 1008
        await asyncio.gather(*loops, return_exceptions=True)
        assert await metric(server, "hearts_clients_dropped_total", reason="flooding") == 1

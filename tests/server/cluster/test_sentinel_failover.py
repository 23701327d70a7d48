"""Chaos on a Sentinel set the test starts (``tests/redis_ha.py``): two
``hearts serve`` processes on ``redis+sentinel://…`` (``WAIT 1``), four
games of a host and three Easy bots split between them. Mid-game the
replica's link is cut (``SIGSTOP`` it, ``CLIENT KILL TYPE replica`` on the
master) until commits have been written that it never got, then the master
is killed with ``SIGKILL`` and the replica resumed and promoted: what it
never got is really gone. Every game still finishes, its records verify,
every play a host saw is in its records in the same order, and no event
number reached anyone twice.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from tests.redis_ha import SentinelSet

from .conftest import Player, ServerProcess, check_records, connect_player, start_serve, until

TABLES = 4
RULES = RulesModel(end="hands", end_at=2)


@pytest.fixture
async def sentinel_set(tmp_path: Path) -> AsyncIterator[SentinelSet]:
    """A fresh Sentinel set, killed afterwards."""
    started = SentinelSet(tmp_path)
    try:
        await asyncio.to_thread(started.start)
        yield started
    finally:
        await asyncio.to_thread(started.stop)


async def scrape(server: ServerProcess) -> str:
    """The server's /metrics text."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    body = await reader.read()
    writer.close()
    return body.decode(errors="replace")


def replica_timeouts(metrics: str) -> float:
    """``hearts_store_replica_timeouts_total`` of a /metrics text."""
    for line in metrics.splitlines():
        if line.startswith("hearts_store_replica_timeouts_total "):
            return float(line.split()[1])
    raise AssertionError("no replica timeout counter in /metrics")


async def host_table(player: Player) -> str:
    """The player hosts a table of three Easy bots and starts it."""
    reply = await player.session.request(
        cm.CreateTable(id=player.session.next_id(), rules=RULES, seats=("easy", "easy", "easy"))
    )
    assert isinstance(reply, sm.Seated)
    await player.session.request(cm.StartGame(id=player.session.next_id()))
    return reply.table_id


async def test_killing_the_master_while_its_replica_lags_loses_nothing_acknowledged(
    sentinel_set: SentinelSet, tmp_path: Path
) -> None:
    servers = [await start_serve(sentinel_set.url, tmp_path / f"serve{i}.log") for i in range(2)]
    urls = [s.url for s in servers]
    hosts = [
        await connect_player(
            [urls[i % 2], urls[(i + 1) % 2]], f"Host{i}", tmp_path / f"host{i}.json"
        )
        for i in range(TABLES)
    ]
    try:
        for host in hosts:
            await host_table(host)
        games = [asyncio.create_task(h.play_to_the_end(timeout=150)) for h in hosts]
        await until(lambda: all(len(h.plays) >= 12 for h in hosts), timeout=90)

        # Cut the replica off: commits now reach the master only, and are
        # not acknowledged (the servers' WAIT 1 times out and they retry).
        master, replica = sentinel_set.master(), sentinel_set.replica()
        replica.signal(signal.SIGSTOP)
        async with Redis(port=master.port) as client:
            await client.execute_command("CLIENT", "KILL", "TYPE", "replica")
        behind = [replica_timeouts(await scrape(s)) for s in servers]
        deadline = time.monotonic() + 30
        while sum(behind) == 0:
            assert time.monotonic() < deadline, "no commit waited for the replica"
            behind = [replica_timeouts(await scrape(s)) for s in servers]
            await asyncio.sleep(0.05)  # polling the servers' counters
        seen_before_kill = [list(h.plays) for h in hosts]

        master.kill()
        killed = time.monotonic()
        replica.signal(signal.SIGCONT)
        await asyncio.to_thread(sentinel_set.wait_for_failover, master.port)
        # The new master has no replica: WAIT 1 holds every commit until the
        # old node is back as its replica.
        await asyncio.to_thread(sentinel_set.restart_as_replica, master.port)
        await asyncio.wait_for(asyncio.gather(*games), 150)

        pauses = []
        for host in hosts:
            after = [t for t in host.times if t > killed]
            assert after, "a game never went on after the kill"
            pauses.append(after[0] - killed)
        print(f"\nlongest pause after SIGKILL of the master: {max(pauses):.2f} s")

        for host, before in zip(hosts, seen_before_kill, strict=True):
            await check_records(host, before, hands=2)
    finally:
        for host in hosts:
            await host.session.close()
        for server in servers:
            if server.proc.returncode is None:
                server.proc.kill()
            await server.proc.wait()

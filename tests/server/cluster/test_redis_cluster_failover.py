"""Chaos on a Redis Cluster the test starts (three masters, three replicas;
``tests/redis_ha.py``): two ``hearts serve`` processes on
``redis+cluster://…`` (``WAIT 1``), six games of a host and three Easy bots
split between them, their tables spread over every master. Mid-game the
replica of the master holding the most tables is cut off (``SIGSTOP``,
``CLIENT KILL TYPE replica``) until commits wait on it, then that master is
killed with ``SIGKILL`` and its replica resumed and promoted; the killed
node comes back as the new master's replica. Every game finishes, its
records verify, every play a host saw is in its records in the same order,
and no event number reached anyone twice.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from server.store.redis_keys import Keyspace
from tests.redis_ha import ClusterSet, until

from .conftest import check_records, connect_player, start_serve
from .conftest import until as until_async
from .test_sentinel_failover import host_table, replica_timeouts, scrape

TABLES = 6


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[ClusterSet]:
    """A fresh Cluster, killed afterwards."""
    started = ClusterSet(tmp_path)
    try:
        await asyncio.to_thread(started.start)
        yield started
    finally:
        await asyncio.to_thread(started.stop)


def master_of(cluster: ClusterSet, table_id: str) -> int:
    """The port of the master serving the table's slot."""
    key = Keyspace().table(table_id)
    client = cluster.masters()[0].client()
    slot = int(client.execute_command("CLUSTER", "KEYSLOT", key))  # type: ignore[no-untyped-call]
    for start, end, primary, *_ in client.execute_command("CLUSTER", "SLOTS"):  # type: ignore[no-untyped-call]
        if start <= slot <= end:
            return int(primary[1])
    raise AssertionError("no master serves the slot")


# make chaos runs it alone (make test runs it too).
@pytest.mark.chaos
async def test_killing_the_busiest_master_while_its_replica_lags_loses_nothing_acknowledged(
    cluster: ClusterSet, tmp_path: Path
) -> None:
    servers = [await start_serve(cluster.url, tmp_path / f"serve{i}.log") for i in range(2)]
    urls = [s.url for s in servers]
    hosts = [
        await connect_player(
            [urls[i % 2], urls[(i + 1) % 2]], f"Host{i}", tmp_path / f"host{i}.json"
        )
        for i in range(TABLES)
    ]
    try:
        table_ids = [await host_table(host) for host in hosts]
        table_masters = [master_of(cluster, t) for t in table_ids]
        masters = Counter(table_masters)
        print(f"\ntables per master: {dict(masters)}")
        games = [asyncio.create_task(h.play_to_the_end(timeout=150)) for h in hosts]
        await until_async(lambda: all(len(h.plays) >= 12 for h in hosts), timeout=90)

        busiest = cluster.nodes[masters.most_common(1)[0][0]]
        replica = cluster.replica_of(busiest)
        assert replica is not None
        replica.signal(signal.SIGSTOP)
        async with Redis(port=busiest.port) as client:
            await client.execute_command("CLIENT", "KILL", "TYPE", "replica")  # type: ignore[no-untyped-call]
        deadline = time.monotonic() + 30
        while sum([replica_timeouts(await scrape(s)) for s in servers]) == 0:
            assert time.monotonic() < deadline, "no commit waited for the replica"
            await asyncio.sleep(0.05)  # polling the servers' counters
        seen_before_kill = [list(h.plays) for h in hosts]

        busiest.kill()
        killed = time.monotonic()
        replica.signal(signal.SIGCONT)
        await asyncio.to_thread(
            until,
            lambda: cluster.role(replica) == "master" and len(cluster.masters()) == 3,
            "the replica took over",
            30.0,
        )
        # Back as the new master's replica (its nodes.conf says who it is).
        await asyncio.to_thread(busiest.start)
        try:
            await asyncio.wait_for(asyncio.gather(*games), 150)
        except TimeoutError:
            stuck = [
                (
                    t,
                    len(h.plays),
                    h.errors[-3:],
                    round(h.times[-1] - killed, 2) if h.times else None,
                )
                for t, h in zip(table_ids, hosts, strict=True)
                if h.game_over is None
            ]
            raise AssertionError(
                f"games that did not end (table, plays, errors, last event): {stuck}"
            ) from None

        # Only the busiest master's tables wait for the failover: the others
        # play on, and may have finished before the kill.
        busiest_port = masters.most_common(1)[0][0]
        stalled = [h for h, m in zip(hosts, table_masters, strict=True) if m == busiest_port]
        pauses = []
        for host in stalled:
            after = [t for t in host.times if t > killed]
            assert after, "a game never went on after the kill"
            pauses.append(after[0] - killed)
        print(f"longest pause after SIGKILL of the busiest master: {max(pauses):.2f} s")

        for host, before in zip(hosts, seen_before_kill, strict=True):
            await check_records(host, before, hands=2)
    finally:
        for host in hosts:
            await host.session.close()
        for server in servers:
            if server.proc.returncode is None:
                server.proc.kill()
            await server.proc.wait()

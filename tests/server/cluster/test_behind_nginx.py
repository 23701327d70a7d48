"""Three processes behind the shipped nginx site (deploy/nginx/hearts.conf,
least-connections, no stickiness): several busy tables, each with two
humans-as-scripts and two bots, every client knowing only nginx's address.
The process that owns the most tables is SIGKILLed mid-hand; every game
finishes, no acknowledged action is lost or applied twice, every hand record
verifies, and the takeover time of each orphaned table is reported.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path

import pytest

from ...deploy.helpers import require_tool
from ...deploy.nginx_helpers import running_nginx, site_with, write_main_config
from ...ports import free_port
from .conftest import (
    Player,
    ServerProcess,
    check_outcome,
    connect_player,
    lease_owner,
    start_table,
    until,
)

TABLES = 3


async def tables_owned(server: ServerProcess) -> int:
    """``hearts_tables_owned`` from the process's own /metrics."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = (await asyncio.wait_for(reader.read(), 10)).decode()
    writer.close()
    (value,) = re.findall(r"^hearts_tables_owned (\S+)$", answer, re.MULTILINE)
    return int(float(value))


def process_id(server: ServerProcess) -> str:
    """The cluster id the process logged at start."""
    found: list[str] = re.findall(r"cluster member (\S+)", server.log_text())
    assert len(found) == 1, found
    return found[0]


async def _stop_the_busiest_process(
    servers: list[ServerProcess], cluster_redis: str, tmp_path: Path, sig: signal.Signals
) -> tuple[ServerProcess, list[float]]:
    """Three tables behind nginx; ``sig`` to the process owning the most of
    them mid-hand; every game checked to its end. Returns the stopped process
    and, per orphaned table, the time from the signal to the game going on."""
    nginx = require_tool("nginx")
    port = free_port()
    site = site_with([f"127.0.0.1:{s.port}" for s in servers], port)
    main = write_main_config(tmp_path, site)
    url = f"ws://127.0.0.1:{port}/ws"
    with running_nginx(nginx, main, port):
        pairs: list[tuple[Player, Player]] = []
        try:
            for n in range(TABLES):
                host = await connect_player([url], f"Host{n}", tmp_path / f"host{n}.json")
                guest = await connect_player([url], f"Guest{n}", tmp_path / f"guest{n}.json")
                pairs.append((host, guest))
            table_ids = [await start_table(host, guest) for host, guest in pairs]
            games = [asyncio.create_task(p.play_to_the_end()) for pair in pairs for p in pair]
            await until(lambda: all(len(host.plays) >= 16 for host, _ in pairs))

            owned = [await tables_owned(s) for s in servers]
            assert sum(owned) == TABLES, owned
            victim = servers[owned.index(max(owned))]
            victim_id = process_id(victim)
            owners = [await lease_owner(cluster_redis, t) for t in table_ids]
            orphans = [n for n, owner in enumerate(owners) if owner == victim_id]
            assert len(orphans) == max(owned) >= 1, (owners, victim_id)

            before = [list(host.plays) for host, _ in pairs]
            seen = [len(host.seqs) for host, _ in pairs]
            victim.signal(sig)
            killed = time.monotonic()
            for n in orphans:
                host = pairs[n][0]
                # Frames sent just before the kill may still arrive: the game
                # has resumed once five more events came in.
                await until(lambda host=host, n=n: len(host.seqs) > seen[n] + 4)
            takeovers = [pairs[n][0].times[seen[n] + 4] - killed for n in orphans]
            await asyncio.wait_for(asyncio.gather(*games), 180)

            print(
                f"\nbehind nginx: {len(orphans)} of {TABLES} tables orphaned by {sig.name}; "
                "signal to the game going on: " + ", ".join(f"{t:.2f} s" for t in takeovers)
            )
            for n in orphans:
                new_owner = await lease_owner(cluster_redis, table_ids[n])
                assert new_owner not in (None, victim_id), "nobody took the table over"
            for (host, guest), plays in zip(pairs, before, strict=True):
                await check_outcome(host, guest, plays)
            return victim, takeovers
        finally:
            for host, guest in pairs:
                await host.session.close()
                await guest.session.close()


async def test_killing_the_busiest_process_behind_nginx_loses_no_game(
    servers: list[ServerProcess], cluster_redis: str, tmp_path: Path
) -> None:
    await _stop_the_busiest_process(servers, cluster_redis, tmp_path, signal.SIGKILL)


# Leases far longer than any wait of the test: a table whose lease had to
# run out could not go on before the test gave up.
@pytest.mark.parametrize("lease_ms", [600_000])
async def test_a_rolling_restart_hands_tables_over_without_waiting_for_leases(
    servers: list[ServerProcess], cluster_redis: str, tmp_path: Path
) -> None:
    """SIGTERM (what Kubernetes and Compose send) makes the process give its
    leases back and send its clients elsewhere before it exits: the games go
    on although no lease could have expired, and the process exits cleanly."""
    victim, takeovers = await _stop_the_busiest_process(
        servers, cluster_redis, tmp_path, signal.SIGTERM
    )
    assert await asyncio.wait_for(victim.proc.wait(), 30) == 0
    log = victim.log_text()
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    assert len(takeovers) >= 1  # some game was orphaned, and went on

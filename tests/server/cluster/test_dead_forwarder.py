"""A process that forwards a player to a table run elsewhere dies: the
player's detach never reaches the owner, which must notice the process is
gone (its heartbeat stops), take the seat as away, let the grace period run
and have a bot cover, so the others' game goes on to its end."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from client.session import ClientSession
from protocol import client_messages as cm
from protocol import server_messages as sm

from .conftest import THREE_HANDS, Player, connect_player, start_serve, until

# Starts hearts (or other programs) as child processes.
pytestmark = pytest.mark.subprocess


async def test_players_of_a_dead_forwarding_process_are_covered_by_bots(
    cluster_redis: str, tmp_path: Path
) -> None:
    owner = await start_serve(cluster_redis, tmp_path / "owner.log", grace=1)
    relay = await start_serve(cluster_redis, tmp_path / "relay.log", grace=1)
    host = await connect_player([owner.url], "Host", tmp_path / "host.json")
    # The guest does not come back: its session never reconnects.
    session = ClientSession(relay.url, "Guest", session_file=tmp_path / "g.json", reconnect=False)
    await session.connect()
    guest = Player(session)
    games: list[asyncio.Task[None]] = []
    try:
        reply = await host.session.request(
            cm.CreateTable(
                id=host.session.next_id(), rules=THREE_HANDS, seats=("open", "easy", "easy")
            )
        )
        assert isinstance(reply, sm.Seated)
        joined = await session.request(cm.JoinTable(id=session.next_id(), code=reply.code))
        assert isinstance(joined, sm.Seated) and joined.seat == 1
        await host.session.request(cm.StartGame(id=host.session.next_id()))
        games += [asyncio.create_task(p.play_to_the_end()) for p in (host, guest)]
        await until(lambda: len(host.plays) >= 8)
        relay.signal(signal.SIGKILL)
        await relay.proc.wait()
        # The host's game reaches its end: seat 1 went away and was covered.
        await asyncio.wait_for(games[0], 90)
        assert host.game_over is not None
        view = host.session.last_view
        assert view is not None and view.seats[1].bot_covering and not view.seats[1].connected
        assert "is gone: its clients here are detached" in owner.log_text()
    finally:
        await host.session.close()
        await session.close()
        for task in games:
            task.cancel()
        for serve in (owner, relay):
            if serve.proc.returncode is None:
                serve.proc.kill()
                await serve.proc.wait()

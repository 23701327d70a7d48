"""Redis itself restarts mid-game (append-only file on): the servers reconnect
with backoff, players see a pause, not an error, and the game finishes with
every hand record verifying."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis

from engine.record import verify_record
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from tests.ci import in_ci

from .conftest import connect_player, records_of, start_serve


class RedisProcess:
    """A private redis-server with AOF, on a Unix socket in ``workdir`` (no
    TCP port: nothing else can take its address between a stop and a
    start). ``workdir`` must be short: a socket path has at most 107 bytes."""

    def __init__(self, workdir: Path) -> None:
        self.socket = workdir / "redis.sock"
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL."""
        return f"unix://{self.socket}?db=0"

    def start(self) -> None:
        """Start and wait until it answers."""
        binary = shutil.which("redis-server")
        if binary is None:
            if in_ci():
                pytest.fail("redis-server is not installed")
            pytest.skip("redis-server is not installed")
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                "0",
                "--unixsocket",
                str(self.socket),
                "--unixsocketperm",
                "700",
                "--dir",
                str(self.workdir),
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
            ],
            stdout=subprocess.DEVNULL,
        )
        client = Redis(unix_socket_path=str(self.socket))
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    return
            except OSError:
                pass
            except Exception:  # redis-py's ConnectionError while it starts
                pass
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.02)  # polling for the socket to open

    def stop(self) -> None:
        """Stop it (its AOF keeps the data)."""
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def aof_redis() -> Iterator[RedisProcess]:
    """A private redis-server, stopped (and its folder removed) afterwards."""
    with tempfile.TemporaryDirectory(prefix="hearts-redis-") as folder:
        server = RedisProcess(Path(folder))
        server.start()
        yield server
        server.stop()


async def test_a_redis_restart_is_a_pause_not_an_error(
    aof_redis: RedisProcess, tmp_path: Path
) -> None:
    serve = await start_serve(aof_redis.url, tmp_path / "serve.log")
    player = await connect_player([serve.url], "Ann", tmp_path / "ann.json")
    try:
        reply = await player.session.request(
            cm.CreateTable(
                id=player.session.next_id(),
                rules=RulesModel(end="hands", end_at=2),
                seats=("easy", "easy", "easy"),
            )
        )
        assert isinstance(reply, sm.Seated)
        await player.session.request(cm.StartGame(id=player.session.next_id()))
        game = asyncio.create_task(player.play_to_the_end())
        deadline = time.monotonic() + 60
        while len(player.plays) < 10:
            assert time.monotonic() < deadline and not game.done()
            await asyncio.sleep(0.02)  # polling the player's progress
        await asyncio.to_thread(aof_redis.stop)
        await asyncio.to_thread(aof_redis.start)
        await game
        assert player.errors == [], player.errors
        records = await player.session.request(cm.GetRecords(id=player.session.next_id()))
        assert isinstance(records, sm.Records)
        hands = records_of(records.records)
        assert len(hands) >= 2  # two hands, or more when the lowest total is tied
        assert all(verify_record(r)["complete"] for r in hands)
    finally:
        await player.session.close()
        serve.proc.kill()
        await serve.proc.wait()


async def test_a_redis_restart_does_not_strand_forwarded_players(
    aof_redis: RedisProcess, tmp_path: Path
) -> None:
    """Two processes on the restarting Redis: the table is run by A, the
    guest sits through B (every frame of theirs crosses the pub/sub bus,
    which loses what is published while Redis is away). The game still
    finishes for both players and every record verifies."""
    a = await start_serve(aof_redis.url, tmp_path / "a.log")
    b = await start_serve(aof_redis.url, tmp_path / "b.log")
    host = await connect_player([a.url], "Ann", tmp_path / "ann.json")
    guest = await connect_player([b.url], "Bo", tmp_path / "bo.json")
    try:
        reply = await host.session.request(
            cm.CreateTable(
                id=host.session.next_id(),
                rules=RulesModel(end="hands", end_at=2),
                seats=("open", "easy", "easy"),
            )
        )
        assert isinstance(reply, sm.Seated)
        joined = await guest.session.request(
            cm.JoinTable(id=guest.session.next_id(), code=reply.code)
        )
        assert isinstance(joined, sm.Seated)
        await host.session.request(cm.StartGame(id=host.session.next_id()))
        games = [asyncio.create_task(p.play_to_the_end(timeout=90)) for p in (host, guest)]
        deadline = time.monotonic() + 60
        while len(guest.plays) < 10:
            assert time.monotonic() < deadline and not any(g.done() for g in games)
            await asyncio.sleep(0.02)  # polling the players' progress
        await asyncio.to_thread(aof_redis.stop)
        await asyncio.to_thread(aof_redis.start)
        await asyncio.gather(*games)
        assert host.game_over is not None and guest.game_over is not None
        assert host.game_over.totals == guest.game_over.totals
        assert host.errors == [] and guest.errors == [], host.errors + guest.errors
        records = await guest.session.request(cm.GetRecords(id=guest.session.next_id()))
        assert isinstance(records, sm.Records)
        hands = records_of(records.records)
        assert len(hands) >= 2
        assert all(verify_record(r)["complete"] for r in hands)
    finally:
        await host.session.close()
        await guest.session.close()
        for serve in (a, b):
            serve.proc.kill()
            await serve.proc.wait()

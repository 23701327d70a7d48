"""Several real ``hearts serve`` processes on one Redis, and players that
follow them around.

Processes run on database 12 of the test Redis (flushed before and after),
with a short lease so takeovers happen within a couple of seconds. Players
are in-process ``ClientSession``s given every server's URL: when theirs dies
they reconnect to the next and resume. Waiting is always for a message or a
process event, with a timeout.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError

from client.autoplay import choose_move, needs_move
from client.session import ClientSession
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView

from ..conftest import in_ci, redis_url

ROOT = Path(__file__).resolve().parents[3]
CLUSTER_DB = 12
LEASE_MS = 3000


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    """One ``hearts serve`` process."""

    port: int
    proc: asyncio.subprocess.Process
    log: Path

    @property
    def url(self) -> str:
        """Its WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def signal(self, sig: int) -> None:
        """Send a signal (SIGKILL, SIGSTOP, SIGCONT)."""
        os.kill(self.proc.pid, sig)

    def log_text(self) -> str:
        """What it logged so far."""
        return self.log.read_text(errors="replace")


async def start_serve(port: int, redis: str, log: Path) -> ServerProcess:
    """Start ``hearts serve`` and wait until /healthz answers."""
    with log.open("ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "client.cli.main",
            "serve",
            "--port",
            str(port),
            "--redis",
            redis,
            "--lease-ms",
            str(LEASE_MS),
            "--grace",
            "30",
            "--bot-workers",
            "1",
            "--bot-budget-ms",
            "20",
            cwd=ROOT,
            stdout=out,
            stderr=out,
        )
    deadline = time.monotonic() + 30
    while True:
        assert proc.returncode is None, log.read_text()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = await reader.read()
            writer.close()
            if b"200 OK" in answer:
                return ServerProcess(port, proc, log)
        except OSError:
            pass
        assert time.monotonic() < deadline, log.read_text()
        await asyncio.sleep(0.05)  # polling for the port to open


@pytest.fixture
async def cluster_redis() -> AsyncIterator[str]:
    """Database 12 of the test Redis, empty (fails in CI when Redis is down)."""
    url = redis_url(CLUSTER_DB)
    client = Redis.from_url(url)
    try:
        await client.flushdb()
    except (RedisError, OSError) as exc:
        await client.aclose()
        if in_ci():
            pytest.fail(f"Redis is not reachable at {url}: {exc}")
        pytest.skip(f"Redis is not reachable at {url}")
    yield url
    await client.flushdb()
    await client.aclose()


@pytest.fixture
async def servers(cluster_redis: str, tmp_path: Path) -> AsyncIterator[list[ServerProcess]]:
    """Three processes sharing one Redis."""
    procs = [
        await start_serve(free_port(), cluster_redis, tmp_path / f"serve{i}.log") for i in range(3)
    ]
    yield procs
    for p in procs:
        if p.proc.returncode is None:
            p.signal(signal.SIGCONT)
            p.proc.kill()
        await p.proc.wait()


@dataclass
class Player:
    """A seat played by an Easy bot through a ClientSession, recording what
    it sees: event numbers, the times they arrived, the game's end."""

    session: ClientSession
    seqs: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    plays: list[tuple[int, int, str]] = field(default_factory=list)
    game_over: sm.GameOver | None = None
    errors: list[str] = field(default_factory=list)
    _view: SeatView | None = None
    _busy: bool = False
    _acted: int = -1
    _rng: random.Random = field(default_factory=lambda: random.Random(7))
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _done: set[tuple[object, ...]] = field(default_factory=set)

    async def play_to_the_end(self, timeout: float = 120.0) -> None:
        """Play until game over."""
        await asyncio.wait_for(self._loop(), timeout)

    async def _loop(self) -> None:
        async for msg in self.session.events():
            seq = getattr(msg, "seq", None)
            if isinstance(seq, int) and not isinstance(msg, sm.Snapshot):
                self.seqs.append(seq)
                self.times.append(time.monotonic())
            if isinstance(msg, sm.CardPlayed):
                self.plays.append((msg.seq, msg.seat, msg.card))
            if isinstance(msg, sm.GameOver):
                self.game_over = msg
                return
            if isinstance(msg, sm.Snapshot):
                self._view = msg.view
                self._maybe_act()

    def _maybe_act(self) -> None:
        # One move in flight at a time: a second one decided from a view that
        # predates the first one's effect would be refused.
        view = self._view
        if self._busy or view is None or not needs_move(view) or view.seq == self._acted:
            return
        key = (view.status, view.phase, view.hand_number, len(view.tricks), len(view.trick))
        if key in self._done:
            return
        self._acted = view.seq
        move = choose_move(view, "easy", self._rng)
        request = move.request(self.session.next_id())
        self._busy = True
        self._tasks.add(asyncio.get_running_loop().create_task(self._send(request, key)))

    async def _send(self, request: cm.Request, key: tuple[object, ...]) -> None:
        try:
            await self.session.request(request, timeout=60)
            # A view that predates this reply may still ask for this very
            # decision: remember it was made.
            self._done.add(key)
        except Exception as exc:  # recorded: a refused move is looked at by the test
            self.errors.append(repr(exc))
        finally:
            self._busy = False
            self._maybe_act()


async def connect_player(urls: list[str], name: str, path: Path) -> Player:
    """A connected player whose session rotates through ``urls``."""
    session = ClientSession(",".join(urls), name, session_file=path, give_up_after=60)
    await session.connect()
    return Player(session)


def records_of(text_records: tuple[str, ...]) -> list[dict[str, object]]:
    """Hand records as dicts."""
    return [json.loads(r) for r in text_records]

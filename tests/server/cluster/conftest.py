"""Several real ``hearts serve`` processes on one Redis, and players that
follow them around.

Processes run on the test Redis under a key prefix of the test's own
(``redis_space``), each on a port it binds itself, with a short lease so takeovers happen within a couple of seconds. Players
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
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from redis.asyncio import Redis

from client.autoplay import choose_move, needs_move
from client.session import ClientSession
from engine.record import verify_record
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import SeatView
from server.store import redis_url_and_prefix
from server.store.redis_keys import Keyspace
from tests.redis_space import RedisSpace
from tests.serve_process import serving_port

ROOT = Path(__file__).resolve().parents[3]
LEASE_MS = 3000


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


async def start_serve(
    redis: str, log: Path, grace: float = 30, port: int = 0, lease_ms: int = LEASE_MS
) -> ServerProcess:
    """Start ``hearts serve`` (``grace`` seconds before an away seat is
    covered, leases of ``lease_ms``) on ``port`` (0: the server binds a
    free one) and wait for its start-up line, which says the port it
    listens on."""
    with log.open("ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tools.cli.main",
            "serve",
            "--port",
            str(port),
            "--redis",
            redis,
            "--lease-ms",
            str(lease_ms),
            "--grace",
            str(grace),
            "--bot-workers",
            "1",
            "--bot-budget-ms",
            "20",
            cwd=ROOT,
            stdout=out,
            stderr=out,
        )
    deadline = time.monotonic() + 30
    while (bound := serving_port(log.read_text(errors="replace"))) is None:
        assert proc.returncode is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        await asyncio.sleep(0.05)  # polling the log for the start-up line
    return ServerProcess(bound, proc, log)


@pytest.fixture
def cluster_redis(redis_space: RedisSpace) -> str:
    """The test Redis under this test's own key prefix (fails in CI when
    Redis is down; the keys are deleted afterwards)."""
    return redis_space.url


@pytest.fixture
def lease_ms() -> int:
    """The processes' lease (a test parametrizes ``lease_ms`` for another)."""
    return LEASE_MS


@pytest.fixture
async def servers(
    cluster_redis: str, tmp_path: Path, lease_ms: int
) -> AsyncIterator[list[ServerProcess]]:
    """Three processes sharing one Redis."""
    procs = [
        await start_serve(cluster_redis, tmp_path / f"serve{i}.log", lease_ms=lease_ms)
        for i in range(3)
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


THREE_HANDS = RulesModel(end="hands", end_at=3)


async def lease_owner(redis_url: str, table_id: str) -> str | None:
    """Which process holds the table's lease now."""
    address, prefix = redis_url_and_prefix(redis_url)
    client = Redis.from_url(address)
    try:
        value = await client.get(Keyspace(prefix).lease(table_id))
    finally:
        await client.aclose()
    return value.decode() if isinstance(value, bytes) else None


async def start_table(host: Player, guest: Player) -> str:
    """Host creates (open, easy, easy), the guest joins, the host starts."""
    reply = await host.session.request(
        cm.CreateTable(id=host.session.next_id(), rules=THREE_HANDS, seats=("open", "easy", "easy"))
    )
    assert isinstance(reply, sm.Seated)
    joined = await guest.session.request(cm.JoinTable(id=guest.session.next_id(), code=reply.code))
    assert isinstance(joined, sm.Seated) and joined.seat == 1
    await host.session.request(cm.StartGame(id=host.session.next_id()))
    return reply.table_id


async def until(condition: object, timeout: float = 60.0) -> None:
    """Wait until ``condition()`` holds, failing after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)  # polling a condition other tasks change


def is_subsequence(seen: list[str], stored: list[str]) -> bool:
    """Whether ``seen`` appears in ``stored`` in the same order."""
    rest = iter(stored)
    return all(card in rest for card in seen)


async def check_records(player: Player, before: list[tuple[int, int, str]], hands: int) -> None:
    """What every failover test checks of a game ``player`` saw to its end:
    its hand records (``hands`` or more: more when the lowest total is tied)
    verify and add up to its totals; nothing acknowledged before the
    failure was lost (the plays seen ``before`` it open the stored records,
    in order); every play the player saw is in them in the order seen; no
    event number came twice; no request met an ``internal_error``."""
    assert player.game_over is not None
    reply = await player.session.request(cm.GetRecords(id=player.session.next_id()))
    assert isinstance(reply, sm.Records)
    records = records_of(reply.records)
    assert len(records) >= hands
    totals = [0, 0, 0, 0]
    for record in records:
        answer = verify_record(record)
        assert answer["ok"] and answer["complete"], answer
        totals = [t + p for t, p in zip(totals, answer["points"], strict=True)]
    assert tuple(totals) == player.game_over.totals
    stored = [str(card) for record in records for card in record["plays"]]  # type: ignore[attr-defined]
    assert [card for _, _, card in before] == stored[: len(before)]
    assert is_subsequence([card for _, _, card in player.plays], stored)
    assert player.seqs == sorted(set(player.seqs)), "an event number came twice"
    assert not any("internal_error" in e for e in player.errors), player.errors


async def check_outcome(host: Player, guest: Player, before: list[tuple[int, int, str]]) -> None:
    """The game both players saw ended the same way, its records pass
    ``check_records`` (three hands or more) for both, and no move of
    theirs was refused."""
    assert host.game_over is not None and guest.game_over is not None
    assert host.game_over.totals == guest.game_over.totals
    for player in (host, guest):
        await check_records(player, before, hands=3)
    assert host.errors == [] and guest.errors == [], host.errors + guest.errors

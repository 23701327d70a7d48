"""The parts of ``hearts bench server``'s load, shared by its phases: the
server child processes (the table server, with or without its real bots, or
a WebSocket echo server), raw WebSocket clients that play a seat as fast as
the server lets them, the measuring window, and the scratch Redis.

The phases are in ``tools.bench.server`` (the single-process ones),
``tools.bench.bots`` (fairness, knee), ``tools.bench.idle`` and
``tools.bench.cluster``; each imports from here and none from another, so
the modules form no cycle.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import msgpack

from common.ws_adapter import ClientConnection, ConnectionClosed, connect

WARMUP_SECONDS = 1.0
PROTOCOL_VERSION = 1  # protocol.common.PROTOCOL_VERSION, without importing pydantic here

# -- the server processes -------------------------------------------------------


def _server_child(kind: str, store_url: str | None, profile: str | None, pipe: Connection) -> None:
    """Child process: run the table server on ``store_url`` (or the echo
    server) until told to stop; report the port through ``pipe``. Kind
    ``bots`` is the table server on the memory store with its real bots (a
    ``BotRunner`` with its default budget and a worker per core); the other
    kinds seat no bots."""
    raise_file_limit()
    runner = _run_echo if kind == "echo" else _run_hearts
    if profile is None:
        asyncio.run(runner(kind, store_url, pipe))
        return
    import cProfile

    with cProfile.Profile() as prof:
        asyncio.run(runner(kind, store_url, pipe))
    prof.dump_stats(profile)


def raise_file_limit() -> None:
    """Open files up to the hard limit: the idle phase holds thousands of
    sockets in one process."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _serve_pipe(pipe: Connection, report: Callable[[], Any] | None = None) -> None:
    """Answer the parent until it says stop: ``report`` is answered with
    ``report()`` (made on the loop, between two jobs)."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            command = await loop.run_in_executor(None, pipe.recv)
        except EOFError:  # the parent is gone
            return
        if command == "stop":
            return
        pipe.send(report() if report is not None else None)


@dataclass
class Decisions:
    """Every bot decision the server child made: per level, when it ended
    (``time.monotonic()``, the same clock in every process), how long the
    bot thought and how long it waited for a worker (seconds)."""

    made: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)

    def add(self, level: str, computed: float, waited: float) -> None:
        """One decision of ``level``."""
        self.made.setdefault(level, []).append((time.monotonic(), computed, waited))


async def _run_hearts(kind: str, store_url: str | None, pipe: Connection) -> None:
    from protocol.view import SeatView
    from server.app import start_server, tune_gc
    from server.bot_runner import BotRunner, Decided
    from server.config import ServerConfig

    class NoBots(BotRunner):
        """Every seat is human: no bot pool to start (or to leak at exit)."""

        def __init__(self) -> None:
            self.budget_ms = 0

        def close(self) -> None:
            """Nothing to stop."""

    decisions = Decisions()

    class CountedBots(BotRunner):
        """The server's own bots (default budget, a worker per core), each
        decision's think time and queue wait kept for the report."""

        async def decide(self, view: SeatView, level: str, seed: int, table: str = "") -> Decided:
            decided = await super().decide(view, level, seed, table)
            decisions.add(level, decided.computed, decided.waited)
            return decided

        def close(self) -> None:
            """Stop the workers and wait for them. In a multiprocessing child
            the pool must be joined before returning: the child's exit
            closes the pool's queues first, and workers not yet told to
            stop would wait for ever (and the child with them)."""
            self._pool.shutdown(wait=True, cancel_futures=True)

    config = ServerConfig(
        port=0,
        store_url=store_url,
        rate_per_second=1e9,
        rate_burst=1e9,
        tables_burst_per_address=0,
        tables_burst_per_player=0,
        max_tables_per_process=0,
        max_live_tables=0,
        store_fill_limit=0,
        max_connections_per_address=1_000_000,
    )
    bots = CountedBots() if kind == "bots" else NoBots()
    server = await start_server(config, bots=bots)
    tune_gc()  # as hearts serve does
    pipe.send(server.port)
    try:
        await _serve_pipe(pipe, lambda: decisions.made)
    finally:
        await server.close()


async def _run_echo(kind: str, store_url: str | None, pipe: Connection) -> None:
    from common.ws_adapter import ServerConnection, broadcast, serve
    from server.config import ServerConfig

    config = ServerConfig()
    tables: dict[bytes, list[ServerConnection]] = {}

    async def handler(ws: ServerConnection) -> None:
        name = await ws.recv()
        assert isinstance(name, bytes)
        members = tables.setdefault(name, [])
        members.append(ws)
        async for frame in ws:
            broadcast(members, frame)

    async with serve(
        handler, "127.0.0.1", 0, max_size=config.transport_max_bytes, max_queue=64
    ) as server:
        pipe.send(next(iter(server.sockets)).getsockname()[1])
        await _serve_pipe(pipe)


class ServerProcess:
    """A server child process: started, asked for its port, stopped."""

    def __init__(self, kind: str, store_url: str | None = None, profile: str | None = None):
        ctx = multiprocessing.get_context("spawn")
        self._pipe, child = ctx.Pipe()
        # A daemon cannot start processes: the server with bots is not one
        # (its bot workers are its children). It still ends with us: when
        # our end of the pipe closes, it stops.
        self.process = ctx.Process(
            target=_server_child, args=(kind, store_url, profile, child), daemon=kind != "bots"
        )

    async def start(self) -> int:
        """Start the child and return its port."""
        self.process.start()
        loop = asyncio.get_running_loop()
        ready = await loop.run_in_executor(None, self._pipe.poll, 60)
        if not ready:
            raise RuntimeError("the server process did not start")
        port: int = self._pipe.recv()
        return port

    async def report(self) -> Any:
        """What the child reports now (the ``bots`` kind: its ``Decisions``)."""
        self._pipe.send("report")
        return await asyncio.get_running_loop().run_in_executor(None, self._pipe.recv)

    async def stop(self) -> None:
        """Ask the child to stop and wait for it."""
        with contextlib.suppress(OSError):
            self._pipe.send("stop")
        await asyncio.get_running_loop().run_in_executor(None, self.process.join, 30)
        if self.process.is_alive():
            self.process.kill()


# -- measuring ----------------------------------------------------------------------


@dataclass
class Window:
    """The measuring window and what was counted in it."""

    start: float = 0.0
    end: float = float("inf")
    count: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0

    def inside(self, t: float) -> bool:
        """Whether ``t`` falls in the window."""
        return self.start <= t <= self.end

    def figures(self, rate_key: str) -> dict[str, float]:
        """Rate and latency percentiles (milliseconds)."""
        seconds = self.end - self.start
        lat = sorted(self.latencies) or [0.0]
        q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else lat * 99
        return {
            rate_key: round(self.count / seconds, 1),
            "p50_ms": round(q[49] * 1000, 3),
            "p99_ms": round(q[98] * 1000, 3),
            "samples": len(self.latencies),
        }


@dataclass
class Table:
    """One table's in-flight plays: when each was sent, who has seen it.
    ``witnesses`` is how many of the table's clients must receive a play for
    it to count as arrived: four humans, or the one client of a table of
    bots (its own move's latency)."""

    window: Window
    sent: dict[tuple[int, str], tuple[float, int]] = field(default_factory=dict)
    witnesses: int = 4

    def send(self, key: tuple[int, str]) -> None:
        """A play is being sent now."""
        self.sent[key] = (time.perf_counter(), self.witnesses)

    def seen(self, key: tuple[int, str]) -> None:
        """One seat received the play's event."""
        started, left = self.sent.get(key, (0.0, 0))
        if left == 0:
            return
        if left > 1:
            self.sent[key] = (started, left - 1)
            return
        del self.sent[key]
        now = time.perf_counter()
        if self.window.inside(started) and self.window.inside(now):
            self.window.latencies.append(now - started)


_IDS = itertools.count(1)


def request_frame(kind: str, **fields: Any) -> bytes:
    data: bytes = msgpack.packb({"type": kind, "id": next(_IDS), **fields}, use_bin_type=True)
    return data


class Seat:
    """One raw WebSocket client playing a seat as fast as the server lets it."""

    def __init__(
        self,
        ws: ClientConnection,
        table: Table,
        window: Window,
        observe: Callable[[dict[str, Any], float], None] | None = None,
    ) -> None:
        self.ws = ws
        self.table = table
        self.window = window
        self.seat: int | None = None
        self.waiting = False
        self.acted_at = -1
        self.stopping = False
        # Sees every frame with its arrival time (``time.perf_counter()``).
        self.observe = observe

    async def call(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A request answered before any other frame is read (set-up only)."""
        await self.ws.send(request_frame(kind, **fields))
        while True:
            reply: dict[str, Any] = msgpack.unpackb(await self.ws.recv(), raw=False)
            if reply["type"] in ("welcome", "seated", "ok"):
                return reply
            if reply["type"] == "error":
                raise RuntimeError(f"{kind} refused: {reply['message']}")

    async def run(self) -> None:
        """Read frames until the connection closes, acting on snapshots."""
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                msg = msgpack.unpackb(frame, raw=False)
                kind = msg["type"]
                if self.observe is not None:
                    self.observe(msg, time.perf_counter())
                if kind == "card_played":
                    self.table.seen((msg["seat"], msg["card"]))
                elif kind == "ok" or kind == "error":
                    self._answered(ok=kind == "ok")
                elif kind == "snapshot" and not self.waiting and not self.stopping:
                    await self._act(msg["view"])

    def _answered(self, *, ok: bool) -> None:
        # A reply ends the wait; inside the window it is counted.
        self.waiting = False
        if not self.window.inside(time.perf_counter()):
            return
        if ok:
            self.window.count += 1
        else:
            self.window.errors += 1

    async def _act(self, view: dict[str, Any]) -> None:
        me = self.seat
        if me is None or view["seq"] == self.acted_at:
            return
        request = self._request_for(view, me)
        if request is not None:
            self.acted_at = view["seq"]
            self.waiting = True
            await self.ws.send(request)

    def _request_for(self, view: dict[str, Any], me: int) -> bytes | None:
        """What this seat asks for in ``view``, if anything: a rematch (the
        host), ready, its pass, its play or its moon choice."""
        status = view["status"]
        if status == "game_over":
            return request_frame("rematch") if me == view["host_seat"] else None
        if status == "between_hands":
            return None if view["seats"][me]["ready"] else request_frame("ready")
        if status == "playing":
            return self._move_for(view, me)
        return None

    def _move_for(self, view: dict[str, Any], me: int) -> bytes | None:
        phase = view["phase"]
        if phase == "pass" and view["legal"] and not view["passed"]:
            return request_frame("pass_cards", cards=view["hand"][:3])
        if phase == "play" and view["turn"] == me and view["legal"]:
            card = view["legal"][0]
            self.table.send((me, card))
            return request_frame("play_card", card=card)
        if phase == "moon_choice" and view["moon_shooter"] == me:
            return request_frame("moon_choice", choice="add")
        return None


async def open_client(url: str) -> ClientConnection:
    return await connect(url, max_size=4 * 1024 * 1024, open_timeout=30)


async def hearts_table(urls: list[str], number: int, window: Window) -> list[Seat]:
    """Four clients seated at one table, seat *i* connected to ``urls[i]``;
    the first creates the table, the others join by its code."""
    table = Table(window)
    seats = [Seat(await open_client(url), table, window) for url in urls]
    for i, seat in enumerate(seats):
        await seat.call("hello", version=PROTOCOL_VERSION, name=f"B{number}-{i}")
    seated = await seats[0].call("create_table", seats=["open", "open", "open"])
    seats[0].seat = 0
    for seat in seats[1:]:
        seat.seat = (await seat.call("join_table", code=seated["code"]))["seat"]
    return seats


async def measure(
    seats: list[Any],
    window: Window,
    seconds: float,
    kick: Callable[[], Awaitable[None]],
    at_end: Callable[[], Awaitable[None]] | None = None,
    at_start: Callable[[], None] | None = None,
) -> None:
    """Run every seat, start play with ``kick``, measure ``seconds`` after a
    warm-up (``at_start`` called as the window opens), call ``at_end``
    (everything still connected), then stop and close."""
    tasks = [asyncio.create_task(s.run()) for s in seats]
    await kick()
    await asyncio.sleep(WARMUP_SECONDS)  # warm-up: not measured
    if at_start is not None:
        at_start()
    window.start = time.perf_counter()
    await asyncio.sleep(seconds)  # the measured interval itself
    window.end = time.perf_counter()
    if at_end is not None:
        await at_end()
    for s in seats:
        s.stopping = True
    for s in seats:
        await s.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)


# -- Redis scratch ---------------------------------------------------------------------


async def clear_redis(url: str) -> None:
    """Delete the store's keys from the scratch database (one Redis, the
    master of a Sentinel set, or every node of a Cluster): those under the
    URL's key prefix (``hearts:`` unless it says ``?prefix=``)."""
    from server.store import redis_url_and_prefix
    from server.store.redis_target import parse_redis_url

    address, prefix = redis_url_and_prefix(url)
    client = parse_redis_url(address).client(5.0)
    try:
        keys = {key async for key in client.scan_iter(match=f"{prefix}*", count=1000)}
        # One key per UNLINK: on a Cluster the keys lie in many slots.
        ordered = sorted(keys)
        for start in range(0, len(ordered), 1000):
            async with client.pipeline(transaction=False) as pipe:
                for key in ordered[start : start + 1000]:
                    pipe.unlink(key)
                await pipe.execute()
    finally:
        await client.aclose()


def load_average() -> list[float] | None:
    """The machine's 1, 5 and 15 minute load averages (None where the
    system has none): other work on the machine moves every figure."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def resident_kib(pid: int) -> int | None:
    """Resident memory of process ``pid`` in KiB (Linux's /proc), or None."""
    try:
        text = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user + system) process ``pid`` used so far, from /proc."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


@dataclass
class ServerCpu:
    """CPU time (user + system) of the server's process over the measuring
    window: what one action costs it, whatever else the machine runs."""

    pid: int | None
    marks: list[float | None] = field(default_factory=list)

    def mark(self) -> None:
        """The window opens (or closes) now."""
        self.marks.append(cpu_seconds(self.pid))

    async def mark_end(self) -> None:
        """The window has closed."""
        self.mark()

    def figures(self, window: Window, per: str, count: int | None = None) -> dict[str, float]:
        """CPU microseconds per ``per`` (``count`` of them, by default the
        window's count) and how busy the server was."""
        count = window.count if count is None else count
        if len(self.marks) != 2 or None in self.marks or not count:
            return {}
        used = self.marks[1] - self.marks[0]  # type: ignore[operator]
        return {
            f"server_cpu_us_per_{per}": round(used / count * 1e6, 1),
            "server_busy": round(used / (window.end - window.start), 2),
        }

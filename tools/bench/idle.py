"""``hearts bench server --idle N``: what idle seated connections cost a
server process, and whether they slow a live table.

The server runs in a child process with its real bots (as in the fairness
and knee phases). In order:

1. *alone*: one bot table (an instant client and three Easy bots, see
   ``tools.bench.bots``) plays for ``--seconds``; its own-move latency and plays/s.
2. The server's resident memory (``VmRSS`` of the child, from /proc) is read,
   N connections are opened and seated, four humans to a table (the last
   table takes what is left), who then never act; the memory is read again.
   *Per connection* is the growth divided by N: the connection, its share of
   its table (actor, state) and whatever the allocator keeps.
3. *beside idle*: a new bot table plays for ``--seconds`` with the idle
   connections still open (the server pings each every 20 s).

The idle clients run in a process of their own (the live table's client is
not slowed by theirs), and never read their frames (they are queued on
their side without limit), so they cost the server nothing but being there.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from multiprocessing.connection import Connection
from typing import Any

from common.ws_adapter import ClientConnection, connect

from .bots import PlayCount, bot_table, percentiles_ms
from .load import (
    PROTOCOL_VERSION,
    ServerCpu,
    ServerProcess,
    Window,
    load_average,
    measure,
    raise_file_limit,
    request_frame,
    resident_kib,
)

# Tables seated at once while opening (each four connections).
OPEN_CONCURRENCY = 32


async def _live_table(url: str, number: int, seconds: float, pid: int | None) -> dict[str, Any]:
    """One bot table of three Easy bots playing for ``seconds``; with the
    server process's CPU per play (``pid``), which the machine's other work
    moves much less than latency."""
    window = Window()
    plays = PlayCount(window)
    seat = await bot_table(url, number, window, "easy", observe=plays)

    async def kick() -> None:
        await seat.ws.send(request_frame("start_game"))

    cpu = ServerCpu(pid)
    await measure([seat], window, seconds, kick, cpu.mark_end, cpu.mark)
    p50, p99 = percentiles_ms(window.latencies)
    return {
        "own_move_p50_ms": p50,
        "own_move_p99_ms": p99,
        "plays_per_s": round(plays.count / (window.end - window.start), 1),
        "samples": len(window.latencies),
        **cpu.figures(window, "play", plays.count),
    }


async def _call(ws: ClientConnection, kind: str, **fields: Any) -> dict[str, Any]:
    """Send a request and read frames until its reply."""
    import msgpack

    await ws.send(request_frame(kind, **fields))
    while True:
        reply: dict[str, Any] = msgpack.unpackb(await ws.recv(), raw=False)
        if reply["type"] in ("welcome", "seated", "ok"):
            return reply
        if reply["type"] == "error":
            raise RuntimeError(f"{kind} refused: {reply['message']}")


async def _idle_client(url: str, name: str) -> ClientConnection:
    # max_queue=None: frames nobody reads are kept here instead of slowing
    # the server down (back-pressure would show up as the server's memory).
    ws = await connect(url, max_size=4 * 1024 * 1024, max_queue=None, open_timeout=60)
    await _call(ws, "hello", version=PROTOCOL_VERSION, name=name)
    return ws


async def _idle_table(url: str, number: int, players: int) -> list[ClientConnection]:
    """A table of ``players`` humans (the host and those who join by code)."""
    host = await _idle_client(url, f"I{number}-0")
    seated = await _call(host, "create_table", seats=["open", "open", "open"])
    out = [host]
    for i in range(1, players):
        ws = await _idle_client(url, f"I{number}-{i}")
        await _call(ws, "join_table", code=seated["code"])
        out.append(ws)
    return out


async def open_idle(url: str, connections: int) -> list[ClientConnection]:
    """``connections`` seated connections, four to a table."""
    sizes = [min(4, connections - start) for start in range(0, connections, 4)]
    opened: list[ClientConnection] = []
    for first in range(0, len(sizes), OPEN_CONCURRENCY):
        batch = sizes[first : first + OPEN_CONCURRENCY]
        tables = await asyncio.gather(
            *(_idle_table(url, first + k, size) for k, size in enumerate(batch))
        )
        opened.extend(ws for table in tables for ws in table)
    return opened


def _crowd_child(url: str, connections: int, pipe: Connection) -> None:
    """Child process: open ``connections`` seated idle connections, report
    how long that took, then how many are still open when asked, and close
    them when told to stop."""
    raise_file_limit()
    asyncio.run(_crowd(url, connections, pipe))


async def _crowd(url: str, connections: int, pipe: Connection) -> None:
    loop = asyncio.get_running_loop()
    began = time.perf_counter()
    idle = await open_idle(url, connections)
    pipe.send(time.perf_counter() - began)
    await loop.run_in_executor(None, pipe.recv)  # asked how many are open
    pipe.send(sum(ws.state.name == "OPEN" for ws in idle))
    await loop.run_in_executor(None, pipe.recv)  # told to stop
    for start in range(0, len(idle), 500):
        with contextlib.suppress(Exception):
            await asyncio.gather(*(ws.close() for ws in idle[start : start + 500]))


async def bench_idle(connections: int, seconds: float) -> dict[str, Any]:
    """Server memory per idle seated connection, and a live table's own
    moves without and with them."""
    load = load_average()
    server = ServerProcess("bots")
    url = f"ws://127.0.0.1:{await server.start()}/ws"
    pid = server.process.pid
    loop = asyncio.get_running_loop()
    ctx = multiprocessing.get_context("spawn")
    pipe, child = ctx.Pipe()
    crowd = ctx.Process(target=_crowd_child, args=(url, connections, child), daemon=True)
    try:
        alone = await _live_table(url, 0, seconds, pid)
        before = resident_kib(pid) if pid is not None else None
        crowd.start()
        opened_in: float = await loop.run_in_executor(None, pipe.recv)
        await asyncio.sleep(1.0)  # the last tables' fan-outs are sent
        after = resident_kib(pid) if pid is not None else None
        beside = await _live_table(url, 1, seconds, pid)
        pipe.send("count")
        still: int = await loop.run_in_executor(None, pipe.recv)
    finally:
        if crowd.is_alive():
            with contextlib.suppress(OSError):
                pipe.send("stop")
            await loop.run_in_executor(None, crowd.join, 60)
            if crowd.is_alive():
                crowd.kill()
        await server.stop()
    out: dict[str, Any] = {
        "load": {"start": load, "end": load_average()},
        "connections": connections,
        "still_open": still,
        "open_seconds": round(opened_in, 1),
        "alone": alone,
        "beside_idle": beside,
    }
    if before is not None and after is not None:
        out["server_kib_before"] = before
        out["server_kib_after"] = after
        out["kib_per_connection"] = round((after - before) / connections, 2)
    return out


def print_idle(out: dict[str, Any]) -> None:
    """The idle mode's human-readable table."""
    print(
        f"hearts bench server --idle {out['connections']}: seated idle connections, "
        f"opened in {out['open_seconds']} s, {out['still_open']} still open at the end"
    )
    load = out["load"]
    if load["start"] is not None and load["end"] is not None:
        print(
            f"  machine load average {load['start'][0]} at the start, {load['end'][0]} at the end"
        )
    if "kib_per_connection" in out:
        print(
            f"  server memory {out['server_kib_before']} KiB -> {out['server_kib_after']} KiB: "
            f"{out['kib_per_connection']} KiB per connection"
        )
    for key, label in (("alone", "live table alone"), ("beside_idle", "live table beside them")):
        live = out[key]
        print(
            f"  {label:<23} own move p50 {live['own_move_p50_ms']:8.3f} ms  "
            f"p99 {live['own_move_p99_ms']:8.3f} ms  {live['plays_per_s']:8.1f} plays/s"
            f"  server CPU {live.get('server_cpu_us_per_play', '?')} us/play"
        )

"""``hearts bench guess``: how many invite-code guesses one address gets answered.

A server (default settings, so the SQLite store, in a temporary folder)
runs in a child process with one private table. From this process, on one address (127.0.0.1):

* ``--connections`` attackers send ``join_table`` with random codes as fast
  as they are answered (a few in flight each), opening a fresh connection
  every ``RECONNECT_EVERY`` guesses and whenever the server hangs up;
* a friend with the table's invite link opens a new connection and joins
  every two seconds, timing connect + hello + join (first alone, for a
  baseline, then during the attack).

It prints how many lookups were *answered* (found / not found) against how
many were refused (``rate_limited``), the most answers in any 15 s window
after the first burst (the target is at most 100), and the friend's join
times (the target: never slowed, every join accepted).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from common.ws_adapter import ClientConnection, ConnectionClosed, InvalidStatus, connect

WINDOW = 15.0
RECONNECT_EVERY = 50
IN_FLIGHT = 4
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def add_bench_guess_parser(bench_subparsers: Any) -> argparse.ArgumentParser:
    """Add ``hearts bench guess`` to the ``bench`` subcommands."""
    p: argparse.ArgumentParser = bench_subparsers.add_parser(
        "guess", help="invite-code guesses one address gets answered (brute force from outside)"
    )
    p.add_argument("--seconds", type=float, default=30.0, help="how long to guess")
    p.add_argument("--connections", type=int, default=20, help="attacker connections at once")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


# -- the server child ------------------------------------------------------------------


def _server_child(pipe: Connection) -> None:
    asyncio.run(_serve(pipe))


async def _serve(pipe: Connection) -> None:
    from server.app import start_server
    from server.bot_runner import BotRunner
    from server.config import ServerConfig

    # The store `hearts serve` uses by default: its lookups take a trip to a
    # worker thread, which the memory store's do not (and concurrent
    # lookups from one address must still stay within its budget).
    with tempfile.TemporaryDirectory(prefix="hearts-bench-guess-") as folder:
        store_url = f"sqlite://{Path(folder) / 'hearts.sqlite3'}"
        server = await start_server(ServerConfig(port=0, bot_workers=1, store_url=store_url))
        try:
            pipe.send(server.port)
            await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        finally:
            await server.close()
        BotRunner.close(server.bots)


# -- the clients -------------------------------------------------------------------------


def _frame(kind: str, **fields: Any) -> bytes:
    """A client message, validated by its model, as a frame."""
    from pydantic import TypeAdapter

    from protocol.client_messages import ClientMessage
    from protocol.codec import encode

    message = TypeAdapter(ClientMessage).validate_python({"type": kind, **fields})
    return encode(message)


def _decode(frame: bytes | str) -> dict[str, Any]:
    """A server frame as a plain dict (its model's JSON form)."""
    from protocol.codec import decode_server

    message = decode_server(frame)
    data: dict[str, Any] = message.model_dump(mode="json")
    return data


async def _hello(ws: ClientConnection, name: str) -> None:
    from protocol.common import PROTOCOL_VERSION

    await ws.send(_frame("hello", id=1, version=PROTOCOL_VERSION, name=name))
    while _decode(await ws.recv()).get("type") != "welcome":
        pass


@dataclass
class Tally:
    """What the attackers saw."""

    answered: list[float] = field(default_factory=list)  # when each answer came
    refused: int = 0
    hung_up: int = 0
    refused_connections: int = 0


async def _attacker(url: str, until: float, rng: random.Random, tally: Tally) -> None:
    ids = iter(range(10, 1 << 50))
    while time.monotonic() < until:
        try:
            async with connect(url, open_timeout=10) as ws:
                await _hello(ws, "Guesser")
                await _guess_on(ws, until, rng, ids, tally)
        except InvalidStatus:
            tally.refused_connections += 1
        except (ConnectionClosed, OSError):
            tally.hung_up += 1


async def _guess_on(
    ws: ClientConnection, until: float, rng: random.Random, ids: Iterator[int], tally: Tally
) -> None:
    """One connection's guesses: up to ``RECONNECT_EVERY`` random codes,
    ``IN_FLIGHT`` unanswered at a time, each answer counted in ``tally``."""
    sent = 0
    pending = 0
    while sent < RECONNECT_EVERY and time.monotonic() < until:
        while pending < IN_FLIGHT and sent < RECONNECT_EVERY:
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(6))
            await ws.send(_frame("join_table", id=next(ids), code=code))
            sent += 1
            pending += 1
        reply = _decode(await ws.recv())
        if reply.get("type") == "error" and reply.get("code") == "rate_limited":
            tally.refused += 1
            pending -= 1
        elif reply.get("type") in ("error", "seated"):
            tally.answered.append(time.monotonic())
            pending -= 1


async def _friend(url: str, code: str, invite: str, until: float) -> list[float]:
    times: list[float] = []
    while time.monotonic() < until:
        started = time.monotonic()
        async with connect(url, open_timeout=10) as ws:
            await _hello(ws, "Friend")
            await ws.send(_frame("join_table", id=2, code=code, invite=invite))
            while True:
                reply = _decode(await ws.recv())
                if reply.get("type") == "seated":
                    times.append(time.monotonic() - started)
                    break
                if reply.get("type") == "error":
                    raise RuntimeError(f"the friend with the link was refused: {reply}")
            # Give the seat back so the next join finds it open.
            await ws.send(_frame("leave_seat", id=3))
            while _decode(await ws.recv()).get("id") != 3:
                pass
        await asyncio.sleep(2.0)  # pacing of the friend's visits, not synchronisation
    return times


async def _host(url: str) -> tuple[ClientConnection, str, str]:
    ws = await connect(url)
    await _hello(ws, "Host")
    await ws.send(_frame("create_table", id=2, seats=("open", "open", "open")))
    while True:
        reply = _decode(await ws.recv())
        if reply.get("type") == "seated":
            break
    _, _, invite = reply["join_path"].partition("#k=")
    return ws, reply["code"], invite


def _most_in_window(stamps: list[float], after: float) -> int:
    stamps = sorted(t for t in stamps if t >= after)
    best = 0
    for i, t in enumerate(stamps):
        best = max(best, bisect.bisect_right(stamps, t + WINDOW) - i)
    return best


def _attackers_child(url: str, seconds: float, connections: int, pipe: Connection) -> None:
    """Child process: the attackers (their own loop and core, so the friend's
    timings measure the server, not a busy load generator)."""
    pipe.send(asyncio.run(_attack(url, seconds, connections)))


async def _attack(url: str, seconds: float, connections: int) -> tuple[list[float], int, int, int]:
    tally = Tally()
    until = time.monotonic() + seconds
    rng = random.Random(1)
    await asyncio.gather(
        *(_attacker(url, until, random.Random(rng.random()), tally) for _ in range(connections))
    )
    # time.monotonic() is system-wide on Linux: comparable across processes.
    return tally.answered, tally.refused, tally.hung_up, tally.refused_connections


async def bench_guess(url: str, seconds: float, connections: int) -> dict[str, Any]:
    """Run the attack against ``url`` and return the figures."""
    host, code, invite = await _host(url)
    # The friend alone first: what "not slowed" compares with.
    quiet = await _friend(url, code, invite, time.monotonic() + min(6.0, seconds / 3))
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    attackers = ctx.Process(target=_attackers_child, args=(url, seconds, connections, child))
    start = time.monotonic()
    attackers.start()
    friend = await _friend(url, code, invite, start + seconds)
    loop = asyncio.get_running_loop()
    if not await loop.run_in_executor(None, parent.poll, seconds + 60):
        attackers.kill()
        raise RuntimeError("the attackers did not finish")
    answered, refused, hung_up, refused_connections = parent.recv()
    await loop.run_in_executor(None, attackers.join, 30)
    await host.close()
    first_burst_end = answered[4] if len(answered) > 4 else start
    return {
        "seconds": seconds,
        "connections": connections,
        "answered": len(answered),
        "refused": refused,
        "answered_in_first_second": sum(1 for t in answered if t < answered[0] + 1.0)
        if answered
        else 0,
        "most_answered_in_15s_after_first_burst": _most_in_window(answered, first_burst_end + 1e-9),
        "hang_ups": hung_up,
        "connections_refused": refused_connections,
        "friend_join_quiet_p50_ms": round(statistics.median(quiet) * 1000, 1),
        "friend_joins": len(friend),
        "friend_join_p50_ms": round(statistics.median(friend) * 1000, 1) if friend else None,
        "friend_join_max_ms": round(max(friend) * 1000, 1) if friend else None,
    }


def run_bench_guess(args: argparse.Namespace) -> int:
    """Start a server child, attack it, print the figures."""
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    process = ctx.Process(target=_server_child, args=(child,), daemon=True)
    process.start()
    try:
        if not parent.poll(60):
            raise RuntimeError("the server process did not start")
        port = parent.recv()
        out = asyncio.run(bench_guess(f"ws://127.0.0.1:{port}/ws", args.seconds, args.connections))
    finally:
        with contextlib.suppress(OSError):
            parent.send("stop")
        process.join(30)
        if process.is_alive():
            process.kill()
    if args.json:
        print(json.dumps(out))
        return 0
    print(
        f"hearts bench guess: {out['connections']} connections from one address, "
        f"{out['seconds']:.0f} s"
    )
    print(f"  lookups answered            {out['answered']}")
    print(f"  lookups refused (wait)      {out['refused']}")
    print(
        f"  most answered in any 15 s after the first burst  "
        f"{out['most_answered_in_15s_after_first_burst']} (target <= 100)"
    )
    print(
        f"  friend with the link: {out['friend_joins']} joins, p50 "
        f"{out['friend_join_p50_ms']} ms, max {out['friend_join_max_ms']} ms "
        f"(alone before the attack: p50 {out['friend_join_quiet_p50_ms']} ms)"
    )
    return 0

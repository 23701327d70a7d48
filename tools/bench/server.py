"""``hearts bench server``: how fast the table server plays, against a plain
WebSocket echo baseline measured the same way on the same machine.

The first four phases, each with its server in a child process (spawned, so
it has a core of its own on a two-core machine; the clients share this
process's event loop):

* **memory**, **sqlite** and **redis**: the table server
  (``server.app.start_server``) with the memory store, the SQLite store (a
  new file in a scratch folder, ``--data``, deleted afterwards) and Redis,
  every action committed before it is acknowledged. ``--tables`` tables of four raw
  WebSocket clients (no bots) play instantly: each seat acts on the first
  snapshot after its last reply that asks something of it (pass the first
  three cards, play the first legal card, ready, rematch at game over).
  *actions/s* counts accepted requests; *latency* runs from a ``play_card``
  being sent to the last of the table's four seats receiving its
  ``card_played``.
* **echo**: a ``websockets`` server (same library, same asyncio loop, same
  limits) that broadcasts every frame a client sends to the four
  connections of its table. Tables take turns the same way (one message in
  flight per table); *msgs/s* counts client frames, *latency* runs from the
  send to the last of the four copies arriving.

Then two phases with the server's real bots (``tools.bench.bots``): **fairness**
(an Easy table beside ten tables of Hard bots) and **knee** (the most tables
of an instant client and three Easy bots one process runs with own-move p99
<= 100 ms). ``--phases`` picks phases; ``--idle N`` instead measures memory
per idle seated connection (``tools.bench.idle``); ``--processes N`` the scale-out
(``tools.bench.cluster``).

The bar (set when the server was first measured): memory p99 under 10x echo
p99, and actions/s at least an eighth of echo msgs/s; the exit status says
whether it was met. ``targets`` (JSON, and the last lines of the table)
reports the performance targets of README's Measured section that the run's
phases measured, each with its value and whether it was met. ``--profile DIR``
writes cProfile stats of each server process (``memory.prof``,
``sqlite.prof``, ``redis.prof``, ``fairness.prof``, ``knee-<tables>.prof``)
for ``python -m pstats``. The Redis database (``--redis``, default ``…/14``) is scratch: the
keys under the store's prefix (``hearts:``, or the URL's ``?prefix=``) are deleted
before and after the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import msgpack

from common.ws_adapter import ClientConnection, ConnectionClosed

from .load import (
    ServerCpu,
    ServerProcess,
    Window,
    clear_redis,
    hearts_table,
    load_average,
    measure,
    open_client,
    raise_file_limit,
    request_frame,
)

DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


async def bench_hearts(
    url: str, tables: int, seconds: float, pid: int | None = None
) -> dict[str, float]:
    """Actions per second and play latency of the table server at ``url``."""
    window = Window()
    groups = [await hearts_table([url] * 4, n, window) for n in range(tables)]
    seats = [s for g in groups for s in g]

    async def kick() -> None:
        for group in groups:
            await group[0].ws.send(request_frame("start_game"))

    cpu = ServerCpu(pid)
    await measure(seats, window, seconds, kick, cpu.mark_end, cpu.mark)
    out = window.figures("actions_per_s")
    out["errors"] = window.errors
    out.update(cpu.figures(window, "action"))
    return out


class EchoSeat:
    """A client of the echo server; its table's seats take turns sending."""

    def __init__(self, ws: ClientConnection, seat: int, group: EchoTable) -> None:
        self.ws = ws
        self.seat = seat
        self.group = group
        self.stopping = False

    async def run(self) -> None:
        """Count copies; when all four have one, the next seat sends."""
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                assert isinstance(frame, bytes)
                await self.group.seen(frame, self.stopping)


class EchoTable:
    """Four echo clients passing a turn around, one message in flight."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.seats: list[EchoSeat] = []
        self.counter = 0
        self.started = 0.0
        self.left = 0

    async def send(self) -> None:
        """The next seat sends a message (about the size of a play request)."""
        self.counter += 1
        payload = msgpack.packb(
            {"type": "play_card", "id": self.counter, "card": "QS"}, use_bin_type=True
        )
        self.started, self.left = time.perf_counter(), 4
        await self.seats[self.counter % 4].ws.send(payload)

    async def seen(self, frame: bytes, stopping: bool) -> None:
        """One copy arrived."""
        self.left -= 1
        if self.left:
            return
        now = time.perf_counter()
        if self.window.inside(self.started) and self.window.inside(now):
            self.window.count += 1
            self.window.latencies.append(now - self.started)
        if not stopping:
            await self.send()


async def bench_echo(
    url: str, tables: int, seconds: float, pid: int | None = None
) -> dict[str, float]:
    """Messages per second and fan-out latency of the echo server."""
    window = Window()
    groups = []
    for n in range(tables):
        group = EchoTable(window)
        for i in range(4):
            ws = await open_client(url)
            await ws.send(f"table-{n}".encode())
            group.seats.append(EchoSeat(ws, i, group))
        groups.append(group)
    seats = [s for g in groups for s in g.seats]

    async def kick() -> None:
        for group in groups:
            await group.send()

    cpu = ServerCpu(pid)
    await measure(seats, window, seconds, kick, cpu.mark_end, cpu.mark)
    return {**window.figures("msgs_per_s"), **cpu.figures(window, "msg")}


# -- the command --------------------------------------------------------------------------


async def _phase(
    kind: str, tables: int, seconds: float, store_url: str | None, profile: str | None
) -> dict[str, Any]:
    server = ServerProcess(kind, store_url, profile)
    port = await server.start()
    url = f"ws://127.0.0.1:{port}/ws" if kind != "echo" else f"ws://127.0.0.1:{port}/"
    try:
        if kind == "echo":
            return await bench_echo(url, tables, seconds, server.process.pid)
        return await bench_hearts(url, tables, seconds, server.process.pid)
    finally:
        await server.stop()


async def _sqlite_phase(
    tables: int, seconds: float, data: str | None, synchronous: str, profile: str | None
) -> dict[str, Any]:
    """The table server on a new SQLite file in a scratch folder inside
    ``data`` (a temporary folder if None), which is deleted afterwards."""
    scratch = Path(tempfile.mkdtemp(prefix="hearts-bench-", dir=data))
    try:
        url = f"sqlite://{scratch / 'hearts.sqlite3'}?synchronous={synchronous}"
        return await _phase("sqlite", tables, seconds, url, profile)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


PHASES = ("echo", "memory", "sqlite", "redis", "fairness", "knee")
"""Every phase of a plain run, in the order they run."""


async def run_all(
    tables: int,
    seconds: float,
    redis_url: str | None,
    profile_dir: str | None,
    data: str | None = None,
    synchronous: str = "normal",
    phases: tuple[str, ...] = PHASES,
    hard_tables: int = 10,
    fairness_seconds: float = 10.0,
    knee_tables: int | None = None,
    knee_start: int = 8,
    knee_budget: float = 120.0,
    fairness_min_hard: int = 0,
) -> dict[str, Any]:
    """The ``phases`` asked for; a phase that cannot run reports its error
    instead. ``data`` is where the sqlite phase's scratch folder goes (None:
    the system's temporary folder), ``synchronous`` its SQLite setting; the
    fairness and knee settings are ``tools.bench.bots``'s (``fairness_min_hard``
    is ``bench_fairness``'s ``min_hard_decisions``)."""
    from .bots import bench_fairness, bench_knee

    if profile_dir:
        os.makedirs(profile_dir, exist_ok=True)

    def prof(name: str) -> str | None:
        return f"{profile_dir}/{name}.prof" if profile_dir else None

    out: dict[str, Any] = {"tables": tables, "seconds": seconds, "load": {"start": load_average()}}
    if "echo" in phases:
        out["echo"] = await _phase("echo", tables, seconds, None, None)
    if "memory" in phases:
        out["memory"] = await _phase("memory", tables, seconds, None, prof("memory"))
    if "sqlite" in phases:
        out["sqlite"] = await _store_phase(
            _sqlite_phase(tables, seconds, data, synchronous, prof("sqlite"))
        )
        if "error" not in out["sqlite"]:
            out["sqlite"]["synchronous"] = synchronous
    if "redis" in phases and redis_url:
        out["redis"] = await _store_phase(_redis_phase(tables, seconds, redis_url, prof("redis")))
    if "fairness" in phases:
        out["fairness"] = await bench_fairness(
            fairness_seconds, hard_tables, prof("fairness"), fairness_min_hard
        )
    if "knee" in phases:
        out["knee"] = await bench_knee(seconds, knee_tables, knee_start, knee_budget, profile_dir)
    if "echo" in out and "memory" in out:
        out["bar"] = _bar(out["echo"], out["memory"])
    out["targets"] = targets(out)
    out["load"]["end"] = load_average()
    return out


async def _store_phase(phase: Awaitable[dict[str, Any]]) -> dict[str, Any]:
    """A store's phase, or its error: a folder we cannot write, no Redis (the
    other figures are kept)."""
    try:
        return await phase
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


async def _redis_phase(
    tables: int, seconds: float, redis_url: str, profile: str | None
) -> dict[str, Any]:
    await clear_redis(redis_url)
    figures = await _phase("redis", tables, seconds, redis_url, profile)
    await clear_redis(redis_url)
    return figures


def _bar(echo: dict[str, Any], memory: dict[str, Any]) -> dict[str, Any]:
    """The memory store's figures against the echo server's (the same
    clients and frames, without the game): p99 and throughput ratios."""
    return {
        "p99_ratio": round(memory["p99_ms"] / max(echo["p99_ms"], 1e-9), 2),
        "p99_ok": memory["p99_ms"] < 10 * echo["p99_ms"],
        "throughput_ratio": round(echo["msgs_per_s"] / max(memory["actions_per_s"], 1e-9), 2),
        "throughput_ok": memory["actions_per_s"] >= echo["msgs_per_s"] / 8,
    }


def _target(value: float, limit: float, at_least: bool) -> dict[str, Any]:
    ok = value >= limit if at_least else value <= limit
    return {"value": value, "target": f"{'>=' if at_least else '<='} {limit:g}", "ok": ok}


def targets(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The performance targets (README, Measured) that this run's phases
    measured, each with its value and whether it was met."""
    found: dict[str, dict[str, Any]] = {}
    echo, memory, redis = out.get("echo"), out.get("memory"), out.get("redis")
    if echo is not None and memory is not None:
        found["memory_rate_vs_echo"] = _target(
            round(memory["actions_per_s"] / max(echo["msgs_per_s"], 1e-9), 3), 0.25, True
        )
        found["memory_p99_vs_echo"] = _target(
            round(memory["p99_ms"] / max(echo["p99_ms"], 1e-9), 2), 3, False
        )
    if memory is not None and redis is not None and "error" not in redis:
        found["redis_rate_vs_memory"] = _target(
            round(redis["actions_per_s"] / max(memory["actions_per_s"], 1e-9), 3), 0.8, True
        )
    fairness = out.get("fairness")
    if fairness is not None:
        found["easy_move_gap_p99_ms"] = _target(fairness["easy_move_gap_p99_ms"], 50, False)
        found["hard_decision_p99_ms"] = _target(fairness["hard_decision_p99_ms"], 1000, False)
    knee = out.get("knee")
    if knee is not None and not knee.get("fixed"):
        found["knee_tables"] = _target(knee["tables"], 80, True)
    return found


def _phases(text: str) -> tuple[str, ...]:
    """``--phases``: a comma-separated subset of ``PHASES``."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in PHASES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"phases are a comma-separated list of {', '.join(PHASES)}"
        )
    return names


def add_bench_server_parser(bench_subparsers: Any) -> argparse.ArgumentParser:
    """Add ``hearts bench server`` to the ``bench`` subcommands."""
    p: argparse.ArgumentParser = bench_subparsers.add_parser(
        "server",
        help="table server actions/s and latency against a WebSocket echo baseline, "
        "bots' fairness, the most tables one process runs, idle connections' memory",
    )
    p.add_argument("--tables", type=int, default=8, help="tables of four clients (default 8)")
    p.add_argument("--seconds", type=float, default=5.0, help="measured time per phase")
    p.add_argument(
        "--phases",
        type=_phases,
        default=PHASES,
        metavar="LIST",
        help=f"which phases to run, comma-separated (default all: {','.join(PHASES)})",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        default=DEFAULT_REDIS,
        help="scratch Redis for the redis phase ('' to skip; redis+sentinel:// and "
        "redis+cluster:// URLs too, see docs/deploy.md); its hearts:* keys (or those of "
        f"the URL's ?prefix=) are deleted before and after (default {DEFAULT_REDIS})",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="scale-out mode: N server processes sharing the --redis database, tables "
        "spread across them (default 1: the single-process phases)",
    )
    p.add_argument(
        "--data",
        metavar="DIR",
        default=None,
        help="where the sqlite phase makes its scratch folder (default: the system's "
        "temporary folder; use the disk a server's --data would be on)",
    )
    p.add_argument(
        "--synchronous",
        choices=("normal", "full"),
        default="normal",
        help="the sqlite phase's SQLite synchronous setting (default normal, as hearts serve)",
    )
    p.add_argument(
        "--hard-tables",
        type=int,
        default=10,
        metavar="N",
        help="fairness phase: tables of three Hard bots beside the Easy table (default 10)",
    )
    p.add_argument(
        "--fairness-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="fairness phase: measured time (default 10; Hard decisions take up to 0.9 s)",
    )
    p.add_argument(
        "--knee-tables",
        type=int,
        default=None,
        metavar="N",
        help="knee phase: measure N tables instead of searching (to profile a given load)",
    )
    p.add_argument(
        "--knee-start",
        type=int,
        default=8,
        metavar="N",
        help="knee phase: the first probe's tables, doubled until one misses (default 8)",
    )
    p.add_argument(
        "--knee-budget",
        type=float,
        default=120.0,
        metavar="S",
        help="knee phase: seconds the search may take (default 120)",
    )
    p.add_argument(
        "--idle",
        type=int,
        default=0,
        metavar="N",
        help="idle mode: open N seated idle connections and measure the server's memory "
        "per connection, and a live table without and beside them (no other phase runs)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--profile",
        metavar="DIR",
        help="write cProfile stats of each server here (knee: one file per probe)",
    )
    return p


def _print_table(out: dict[str, Any]) -> None:
    print(f"hearts bench server: {out['tables']} tables of 4 clients, {out['seconds']} s each")
    load = out.get("load", {})
    if load.get("start") is not None and load.get("end") is not None:
        print(
            f"  machine load average {load['start'][0]} at the start, {load['end'][0]} at the end"
        )
    echo = out.get("echo")
    if echo is not None:
        print(
            f"  echo    {echo['msgs_per_s']:>10.1f} msgs/s     "
            f"p50 {echo['p50_ms']:8.3f} ms  p99 {echo['p99_ms']:8.3f} ms"
        )
    for kind in ("memory", "sqlite", "redis"):
        if kind in out:
            _print_store(kind, out[kind])
    # Each part is there only when its phase ran.
    for part, printer in (
        ("bar", _print_bar),
        ("fairness", _print_fairness),
        ("knee", _print_knee),
    ):
        if out.get(part) is not None:
            printer(out[part])
    for name, target in out.get("targets", {}).items():
        print(
            f"  target {name}: {target['value']} ({target['target']}: "
            f"{'ok' if target['ok'] else 'MISSED'})"
        )


def _print_store(kind: str, figures: dict[str, Any]) -> None:
    if "error" in figures:
        print(f"  {kind:<7} skipped: {figures['error']}")
        return
    print(
        f"  {kind:<7} {figures['actions_per_s']:>10.1f} actions/s  "
        f"p50 {figures['p50_ms']:8.3f} ms  p99 {figures['p99_ms']:8.3f} ms"
        f"  server CPU {figures.get('server_cpu_us_per_action', '?')} us/action"
    )


def _print_bar(bar: dict[str, Any]) -> None:
    print(
        f"  bar: memory p99 = {bar['p99_ratio']}x echo "
        f"(< 10: {'ok' if bar['p99_ok'] else 'MISSED'}), "
        f"echo/actions = {bar['throughput_ratio']} (<= 8: "
        f"{'ok' if bar['throughput_ok'] else 'MISSED'})"
    )


def _print_fairness(fairness: dict[str, Any]) -> None:
    print(
        f"  fairness: an Easy table beside {fairness['hard_tables']} tables of Hard bots, "
        f"{fairness['seconds']} s"
    )
    print(
        f"    Easy move gap p50 {fairness['easy_move_gap_p50_ms']:8.3f} ms  "
        f"p99 {fairness['easy_move_gap_p99_ms']:8.3f} ms  "
        f"({fairness['easy_moves']} moves; first card after "
        f"{fairness['easy_first_card_ms']} ms)"
    )
    print(
        f"    Hard decision p99 {fairness['hard_decision_p99_ms']:8.3f} ms  "
        f"max {fairness['hard_decision_max_ms']:8.3f} ms  "
        f"({fairness['hard_decisions']} decisions; waited for a worker "
        f"p50 {fairness['hard_queue_wait_p50_ms']:.0f} ms)"
    )


def _print_knee(knee: dict[str, Any]) -> None:
    if knee.get("fixed"):
        print(
            f"  knee probe: {knee['tables']} tables of an instant client and 3 Easy bots: "
            f"own move p50 {knee['own_move_p50_ms']:.3f} ms  p99 {knee['own_move_p99_ms']:.3f} "
            f"ms, {knee['plays_per_s']:.1f} plays/s "
            f"(p99 <= {knee['limit_ms']:g} ms: {'ok' if knee['met'] else 'MISSED'})"
        )
        return
    print(
        f"  knee: {knee['tables']} tables of an instant client and 3 Easy bots with own-move "
        f"p99 <= {knee['limit_ms']:g} ms ({knee['plays_per_s']:.1f} plays/s; first missed "
        f"at {knee['first_missed']}; search {knee['search_seconds']} s"
        f"{'' if knee['complete'] else ', cut short by its time bound'})"
    )
    for probe in knee["probes"]:
        print(
            f"    {probe['tables']:>5} tables: own move p50 {probe['own_move_p50_ms']:8.3f} ms  "
            f"p99 {probe['own_move_p99_ms']:8.3f} ms  {probe['plays_per_s']:8.1f} plays/s"
        )


def run_bench_server(args: argparse.Namespace) -> int:
    """Entry of ``hearts bench server``; 0 when the bar is met (or, without
    the echo and memory phases, when every phase ran), 1 otherwise."""
    problem = _args_problem(args)
    if problem is not None:
        print(f"hearts bench server: {problem}", file=sys.stderr)
        return 2
    if args.idle:
        return _run_idle_mode(args)
    if args.processes != 1:
        return _run_cluster_mode(args)
    out = asyncio.run(
        run_all(
            args.tables,
            args.seconds,
            args.redis or None,
            args.profile,
            data=args.data,
            synchronous=args.synchronous,
            phases=args.phases,
            hard_tables=args.hard_tables,
            fairness_seconds=args.fairness_seconds,
            knee_tables=args.knee_tables,
            knee_start=args.knee_start,
            knee_budget=args.knee_budget,
        )
    )
    if args.json:
        print(json.dumps(out))
    else:
        _print_table(out)
    bar = out.get("bar")
    if bar is None:
        return 0
    return 0 if bar["p99_ok"] and bar["throughput_ok"] else 1


def _args_problem(args: argparse.Namespace) -> str | None:
    """Why the numbers asked for cannot run, if they cannot."""
    if args.tables < 1 or args.seconds <= 0:
        return "--tables and --seconds must be positive"
    if args.hard_tables < 0 or args.fairness_seconds <= 0 or args.knee_start < 1:
        return (
            "--hard-tables must not be negative, --fairness-seconds and --knee-start must be"
            " positive"
        )
    if args.idle < 0 or (args.knee_tables is not None and args.knee_tables < 1):
        return "--idle and --knee-tables must be positive"
    return None


def _run_idle_mode(args: argparse.Namespace) -> int:
    """``--idle N``: 0 when every idle connection stayed open, 1 otherwise."""
    from .idle import bench_idle, print_idle

    raise_file_limit()
    out = asyncio.run(bench_idle(args.idle, args.seconds))
    if args.json:
        print(json.dumps({"idle": out}))
    else:
        print_idle(out)
    return 0 if out["still_open"] == args.idle else 1


def _run_cluster_mode(args: argparse.Namespace) -> int:
    """``--processes N``: 0 when both phases ran cleanly, 1 otherwise."""
    from .cluster import check_cluster_args, cluster_ok, print_cluster, run_cluster

    problem = check_cluster_args(args.processes, args.redis)
    if problem is not None:
        print(f"hearts bench server: {problem}", file=sys.stderr)
        return 2
    out = asyncio.run(run_cluster(args.processes, args.tables, args.seconds, args.redis))
    if args.json:
        print(json.dumps(out))
    else:
        print_cluster(out)
    return 0 if cluster_ok(out) else 1

"""``hearts bench server --processes N``: the table server scaled out, N
server processes sharing one Redis.

Each server is a spawned child process (``server.app.start_server`` on the
Redis store, as ``hearts serve --redis`` runs it). Tables are created round
robin across the processes, so each process owns about ``tables / N`` of
them (the lease keys are read back to say who owns what). Two phases, each
on fresh processes and an emptied scratch database:

* **local**: a table's four seats connect to the process that owns it, as
  behind a load balancer that happened to send them there.
* **spread**: a table's seats connect to different processes (seat *i* of
  table *k* to process *(k + i) mod N*), so three of the four reach the table
  through pub/sub forwarding to its owner: the load balancer needs no
  stickiness, and this is what that costs.

Clients play instantly as in the single-process bench (``tools.bench.server``):
*actions/s* counts accepted requests, *latency* runs from a ``play_card``
being sent to the last of the table's four seats receiving it. *Memory per
table* is the growth of the server processes' resident memory from just
after start, divided by the tables: once every table is seated (its four
connections and its actor, no game yet) and at the end of the measured
interval (games in progress after thousands of moves: this includes what
the allocator keeps after the churn). *Redis per table* is the growth of
Redis's ``used_memory`` over the interval (mostly each table's event log,
capped at 2,000 events, which is what lets a client resume).
"""

from __future__ import annotations

from typing import Any

from .load import (
    ServerProcess,
    Window,
    clear_redis,
    hearts_table,
    measure,
    request_frame,
    resident_kib,
)

PHASES = ("local", "spread")


async def _redis_info(url: str) -> tuple[int, dict[str, int]]:
    """Redis's ``used_memory`` in bytes, and how many table leases each
    process holds."""
    from redis.asyncio import Redis

    from server.store import redis_url_and_prefix

    address, prefix = redis_url_and_prefix(url)
    client = Redis.from_url(address)
    try:
        info = await client.info("memory")
        owners: dict[str, int] = {}
        async for key in client.scan_iter(match=prefix + "{*}:lease:*", count=1000):
            owner = await client.get(key)
            if isinstance(owner, bytes):
                owners[owner.decode()] = owners.get(owner.decode(), 0) + 1
        return int(info["used_memory"]), owners
    finally:
        await client.aclose()


def _seat_urls(urls: list[str], number: int, spread: bool) -> list[str]:
    """Where table ``number``'s four seats connect: all to the process that
    creates it (``number mod N``) or, with ``spread``, seat *i* to the
    *i*-th process after it."""
    home = number % len(urls)
    return [urls[(home + i) % len(urls) if spread else home] for i in range(4)]


def _server_memory(
    before: list[int | None], seated: list[int | None], after: list[int | None], tables: int
) -> dict[str, float]:
    """The servers' resident memory per table, seated and after play, in KiB
    (nothing where a process's memory could not be read)."""
    readings = [*before, *seated, *after]
    if None in readings:
        return {}
    start = sum(b or 0 for b in before)
    return {
        "seated_kib_per_table": round((sum(s or 0 for s in seated) - start) / tables, 1),
        "server_kib_per_table": round((sum(a or 0 for a in after) - start) / tables, 1),
    }


async def _cluster_phase(
    processes: int, tables: int, seconds: float, redis_url: str, spread: bool
) -> dict[str, Any]:
    await clear_redis(redis_url)
    servers = [ServerProcess("redis", redis_url) for _ in range(processes)]
    try:
        ports = [await s.start() for s in servers]
        urls = [f"ws://127.0.0.1:{port}/ws" for port in ports]
        pids = [s.process.pid for s in servers if s.process.pid is not None]
        rss_before = [resident_kib(pid) for pid in pids]
        redis_before, _ = await _redis_info(redis_url)
        window = Window()
        groups = [await hearts_table(_seat_urls(urls, n, spread), n, window) for n in range(tables)]

        seated: list[int | None] = []

        async def kick() -> None:
            # Every table seated, no game started yet.
            seated.extend(resident_kib(pid) for pid in pids)
            for group in groups:
                await group[0].ws.send(request_frame("start_game"))

        reading: dict[str, Any] = {}

        async def read_memory() -> None:
            # At the end of the interval, before the connections close: every
            # table is still there.
            reading["rss"] = [resident_kib(pid) for pid in pids]
            reading["redis"] = await _redis_info(redis_url)

        await measure([s for g in groups for s in g], window, seconds, kick, read_memory)
        redis_after, owners = reading["redis"]
        out: dict[str, Any] = {**window.figures("actions_per_s"), "errors": window.errors}
        out.update(_server_memory(rss_before, seated, reading["rss"], tables))
        out["redis_kib_per_table"] = round((redis_after - redis_before) / 1024 / tables, 1)
        out["tables_per_process"] = sorted(owners.values(), reverse=True)
        return out
    finally:
        for server in servers:
            await server.stop()
        await clear_redis(redis_url)


async def run_cluster(
    processes: int, tables: int, seconds: float, redis_url: str
) -> dict[str, Any]:
    """Both phases; a phase that cannot run reports its error instead."""
    out: dict[str, Any] = {
        "processes": processes,
        "tables": tables,
        "seconds": seconds,
        "redis": redis_url,
    }
    for phase in PHASES:
        try:
            out[phase] = await _cluster_phase(
                processes, tables, seconds, redis_url, spread=phase == "spread"
            )
        except Exception as exc:  # no Redis, a process that did not start: say so
            out[phase] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def print_cluster(out: dict[str, Any]) -> None:
    """The figures as a small table."""
    print(
        f"hearts bench server: {out['tables']} tables of 4 clients over "
        f"{out['processes']} processes on {out['redis']}, {out['seconds']} s each"
    )
    for phase in PHASES:
        figures = out[phase]
        if "error" in figures:
            print(f"  {phase:<7} failed: {figures['error']}")
            continue
        seated = figures.get("seated_kib_per_table", "?")
        playing = figures.get("server_kib_per_table", "?")
        print(
            f"  {phase:<7} {figures['actions_per_s']:>9.1f} actions/s  "
            f"p50 {figures['p50_ms']:7.3f} ms  p99 {figures['p99_ms']:7.3f} ms  "
            f"tables per process {figures['tables_per_process']}\n"
            f"          memory per table: server {seated} KiB seated, {playing} KiB playing; "
            f"Redis {figures['redis_kib_per_table']} KiB"
        )


def cluster_ok(out: dict[str, Any]) -> bool:
    """Both phases ran, every table was owned, and no request was refused."""
    for phase in PHASES:
        figures = out[phase]
        if "error" in figures or figures["errors"]:
            return False
        if sum(figures["tables_per_process"]) != out["tables"]:
            return False
    return True


def check_cluster_args(processes: int, redis_url: str | None) -> str | None:
    """Why these arguments cannot run the multi-process mode, or None."""
    if processes < 2:
        return "--processes must be at least 2 (one process is the plain bench)"
    if not redis_url:
        return "--processes needs Redis (--redis URL): the processes share tables through it"
    return None

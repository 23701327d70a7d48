"""``hearts bench server``'s phases with real bots: **fairness** and **knee**.

Both run the table server in a child process with the server's own bots (a
``BotRunner`` with its default 900 ms budget and a worker per core, as
``hearts serve`` runs it, on the memory store). A *bot table* is one client
that plays instantly (it acts on the first snapshot that asks something of
it, as in the other phases) and three bots.

* **fairness**: ``--hard-tables`` tables (default 10) of three Hard bots keep
  the bot workers busy; after a warm-up one table of three Easy bots starts
  beside them. *Easy move gap*: from the event that gives an Easy bot the
  turn (the previous card played, or the start of play) to that bot's card
  arriving at the table's client. *Hard decision*: a Hard bot's think time
  in its worker, from the decision's start (what its budget counts) to its
  move, as the server child timed it; its wait for a worker is reported
  apart.
* **knee**: the most bot tables of three Easy bots one server process runs
  with the clients' *own move* (from sending ``play_card`` to receiving its
  ``card_played``) at p99 <= 100 ms. Probes start at ``--knee-start`` tables
  (default 8) and double until one misses, then bisect between the last
  that met it and the first that missed, to within a sixteenth; each probe
  is a fresh server measured for ``--seconds`` after a warm-up. The search
  is bounded by ``--knee-budget`` seconds (default 120): it stops before a
  probe that would not fit and says so (``complete``: false). *Plays/s*
  counts every card played at those tables (the client's and the bots').
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .load import (
    PROTOCOL_VERSION,
    WARMUP_SECONDS,
    Seat,
    ServerProcess,
    Table,
    Window,
    cpu_seconds,
    measure,
    open_client,
    request_frame,
)

HARD_TABLES = 10
# How much longer the fairness window may stay open for its first Hard
# decisions, and how often it asks the server's process for them meanwhile.
EXTEND_SECONDS = 60.0
REPORT_EVERY = 0.25
KNEE_LIMIT_MS = 100.0
KNEE_START = 8
KNEE_BUDGET_SECONDS = 120.0
KNEE_MAX_TABLES = 4096


def percentiles_ms(samples: list[float]) -> tuple[float, float]:
    """p50 and p99 of ``samples`` (seconds) in milliseconds; 0 when empty."""
    if not samples:
        return 0.0, 0.0
    if len(samples) == 1:
        return round(samples[0] * 1000, 3), round(samples[0] * 1000, 3)
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return round(q[49] * 1000, 3), round(q[98] * 1000, 3)


async def bot_table(
    url: str,
    number: int,
    window: Window,
    level: str,
    observe: Callable[[dict[str, Any], float], None] | None = None,
) -> Seat:
    """A table of one instant client (the host, seat 0) and three bots of
    ``level``, not started yet."""
    seat = Seat(await open_client(url), Table(window, witnesses=1), window, observe)
    await seat.call("hello", version=PROTOCOL_VERSION, name=f"L{number}")
    await seat.call("create_table", seats=[level] * 3)
    seat.seat = 0
    return seat


class PlayCount:
    """Every card played at the observed tables inside the window."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.count = 0

    def __call__(self, msg: dict[str, Any], at: float) -> None:
        if msg["type"] == "card_played" and self.window.inside(at):
            self.count += 1


class MoveGaps:
    """A bot table's bot moves as its client (seat 0) sees them: the gap
    from the event that gave a bot the turn (the previous card played, or
    ``play_begins``) to that bot's ``card_played``; and when the first card
    arrived."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.gaps: list[float] = []
        self.first_card: float | None = None
        self._turn_given: float | None = None

    def __call__(self, msg: dict[str, Any], at: float) -> None:
        kind = msg["type"]
        if kind == "play_begins":
            self._turn_given = at
        elif kind == "card_played":
            if self.first_card is None:
                self.first_card = at
            given = self._turn_given
            inside = given is not None and self.window.inside(given) and self.window.inside(at)
            if inside and given is not None and msg["seat"] != 0:  # a bot's, not the client's
                self.gaps.append(at - given)
            self._turn_given = at
        elif kind in ("hand_scored", "hand_dealt"):
            self._turn_given = None


def _landed(made: dict[str, list[tuple[float, float, float]]], since: float) -> int:
    """How many Hard decisions the child has reported since ``since``."""
    return sum(1 for at, _, _ in made.get("hard", []) if at >= since)


async def _close_all(seats: list[Seat], tasks: list[asyncio.Task[None]]) -> None:
    for s in seats:
        s.stopping = True
    for s in seats:
        await s.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)


async def bench_fairness(
    seconds: float,
    hard_tables: int = HARD_TABLES,
    profile: str | None = None,
    min_hard_decisions: int = 0,
) -> dict[str, Any]:
    """The Easy table's move gaps beside ``hard_tables`` tables of Hard bots,
    and the Hard bots' decision times (see the module's docstring).

    The window lasts ``seconds``, and longer (up to ``EXTEND_SECONDS`` more)
    until ``min_hard_decisions`` Hard decisions have landed in it: on a busy
    machine the first ones can take longer than a short window, and a
    report without them says nothing of Hard's budget. ``seconds`` in the
    result is the window's real length."""
    server = ServerProcess("bots", None, profile)
    url = f"ws://127.0.0.1:{await server.start()}/ws"
    seats: list[Seat] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        window = Window()
        unmeasured = Window(end=-1.0)  # the Hard tables' own moves are not measured
        for n in range(hard_tables):
            seats.append(await bot_table(url, n, unmeasured, "hard"))
            tasks.append(asyncio.create_task(seats[-1].run()))
            await seats[-1].ws.send(request_frame("start_game"))
        await asyncio.sleep(WARMUP_SECONDS)  # the Hard bots' decisions queue up
        gaps = MoveGaps(window)
        easy = await bot_table(url, hard_tables, window, "easy", observe=gaps)
        seats.append(easy)
        tasks.append(asyncio.create_task(easy.run()))
        window.start, since = time.perf_counter(), time.monotonic()
        await easy.ws.send(request_frame("start_game"))
        await asyncio.sleep(seconds)  # the measured interval itself
        made: dict[str, list[tuple[float, float, float]]] = await server.report()
        longest = time.monotonic() + EXTEND_SECONDS
        while _landed(made, since) < min_hard_decisions and time.monotonic() < longest:
            await asyncio.sleep(REPORT_EVERY)  # the window stays open: ask the child again
            made = await server.report()
        window.end, until = time.perf_counter(), time.monotonic()
        await _close_all(seats, tasks)
    finally:
        await server.stop()
    hard = [
        (thought, waited) for at, thought, waited in made.get("hard", []) if since <= at <= until
    ]
    gap_p50, gap_p99 = percentiles_ms(gaps.gaps)
    _, hard_p99 = percentiles_ms([thought for thought, _ in hard])
    wait_p50, wait_p99 = percentiles_ms([waited for _, waited in hard])
    return {
        "hard_tables": hard_tables,
        "seconds": round(until - since, 3),
        "easy_move_gap_p50_ms": gap_p50,
        "easy_move_gap_p99_ms": gap_p99,
        "easy_moves": len(gaps.gaps),
        "easy_first_card_ms": round((gaps.first_card - window.start) * 1000, 1)
        if gaps.first_card is not None
        else None,
        "hard_decision_p99_ms": hard_p99,
        "hard_decision_max_ms": round(max((t for t, _ in hard), default=0.0) * 1000, 3),
        "hard_decisions": len(hard),
        "hard_queue_wait_p50_ms": wait_p50,
        "hard_queue_wait_p99_ms": wait_p99,
    }


async def knee_probe(tables: int, seconds: float, profile: str | None = None) -> dict[str, Any]:
    """``tables`` bot tables of three Easy bots on a fresh server: the
    clients' own-move latency and the plays per second."""
    server = ServerProcess("bots", None, profile)
    url = f"ws://127.0.0.1:{await server.start()}/ws"
    cpu: list[float | None] = []
    try:
        window = Window()
        plays = PlayCount(window)
        seats = [await bot_table(url, n, window, "easy", observe=plays) for n in range(tables)]

        async def kick() -> None:
            for seat in seats:
                await seat.ws.send(request_frame("start_game"))

        def at_start() -> None:
            cpu.append(cpu_seconds(server.process.pid))

        async def at_end() -> None:
            at_start()

        await measure(seats, window, seconds, kick, at_end, at_start)
    finally:
        await server.stop()
    p50, p99 = percentiles_ms(window.latencies)
    elapsed = window.end - window.start
    out: dict[str, Any] = {
        "tables": tables,
        "own_move_p50_ms": p50,
        "own_move_p99_ms": p99,
        "plays_per_s": round(plays.count / elapsed, 1),
        "samples": len(window.latencies),
        "errors": window.errors,
    }
    if len(cpu) == 2 and cpu[0] is not None and cpu[1] is not None and plays.count:
        # What a play costs the server's process in CPU, whatever else the
        # machine runs; and how busy it was (1.0: a whole core).
        out["server_cpu_us_per_play"] = round((cpu[1] - cpu[0]) / plays.count * 1e6, 1)
        out["server_busy"] = round((cpu[1] - cpu[0]) / elapsed, 2)
    return out


Probe = Callable[[int, float], Awaitable[dict[str, Any]]]


async def find_knee(
    seconds: float,
    start: int = KNEE_START,
    budget: float = KNEE_BUDGET_SECONDS,
    probe: Probe | None = None,
    limit_ms: float = KNEE_LIMIT_MS,
    max_tables: int = KNEE_MAX_TABLES,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """The most tables whose own-move p99 is within ``limit_ms``: doubling
    from ``start``, then bisecting, within ``budget`` seconds of ``clock``."""
    run: Probe = probe if probe is not None else knee_probe
    began = clock()
    search = _KneeSearch(limit_ms, max_tables)
    longest = 0.0
    tables: int | None = max(1, start)
    complete = True
    while tables is not None:
        if search.probes and clock() - began + longest > budget:
            complete = False  # the next probe would not fit
            break
        probe_began = clock()
        figures = await run(tables, seconds)
        longest = max(longest, clock() - probe_began)
        tables = search.record(tables, figures)
    best = search.best or {}
    return {
        "tables": best.get("tables", 0),
        "plays_per_s": best.get("plays_per_s", 0.0),
        "own_move_p50_ms": best.get("own_move_p50_ms"),
        "own_move_p99_ms": best.get("own_move_p99_ms"),
        "limit_ms": limit_ms,
        "first_missed": search.missed,
        "complete": complete,
        "search_seconds": round(clock() - began, 1),
        "probes": search.probes,
    }


class _KneeSearch:
    """The knee search's bounds: the most tables that met the limit, the
    fewest that missed it, and the probes so far."""

    def __init__(self, limit_ms: float, max_tables: int) -> None:
        self.limit_ms = limit_ms
        self.max_tables = max_tables
        self.probes: list[dict[str, Any]] = []
        self.best: dict[str, Any] | None = None
        self.missed: int | None = None

    def record(self, tables: int, figures: dict[str, Any]) -> int | None:
        """Take one probe's figures; the next table count to try, or None
        once the knee is found (or the cap met)."""
        self._note(tables, figures)
        met = self.best["tables"] if self.best is not None else 0
        if self.missed is None:
            # Doubling until a probe misses (or the cap).
            return None if tables >= self.max_tables else min(tables * 2, self.max_tables)
        if self.missed - met <= max(1, met // 16):
            return None  # close enough: within 1/16 of the knee
        return (met + self.missed) // 2

    def _note(self, tables: int, figures: dict[str, Any]) -> None:
        self.probes.append(figures)
        if figures["own_move_p99_ms"] <= self.limit_ms and not figures["errors"]:
            if self.best is None or tables > self.best["tables"]:
                self.best = figures
        elif self.missed is None or tables < self.missed:
            self.missed = tables


async def bench_knee(
    seconds: float,
    tables: int | None = None,
    start: int = KNEE_START,
    budget: float = KNEE_BUDGET_SECONDS,
    profile_dir: str | None = None,
) -> dict[str, Any]:
    """The knee search, or with ``tables`` one probe of that many tables
    (for profiling a given load). ``profile_dir`` gets one cProfile file per
    probe, ``knee-<tables>.prof``."""

    async def probe(n: int, probe_seconds: float) -> dict[str, Any]:
        profile = f"{profile_dir}/knee-{n}.prof" if profile_dir else None
        return await knee_probe(n, probe_seconds, profile)

    if tables is None:
        return await find_knee(seconds, start, budget, probe)
    figures = await probe(tables, seconds)
    met = figures["own_move_p99_ms"] <= KNEE_LIMIT_MS and not figures["errors"]
    return {**figures, "limit_ms": KNEE_LIMIT_MS, "met": met, "fixed": True}

"""Running bot decisions fairly, without blocking the event loop.

A bot decision is a pure function of a ``SeatView`` and a seed (docs/
architecture.md property 4). How it runs depends on its cost:

* Easy and Medium decide in about a millisecond (well under one for most
  moves): they run at once on the loop, never behind anybody's queue, and
  without the cost of handing a view to another process.
* Hard searches for up to its budget (900 ms by default), so it runs in a
  process pool sized to the cores. Its decisions are queued per table, and a
  free worker takes the next decision of the table served least recently (a
  table with nothing served yet comes first): a table's bot never waits
  behind more than one decision of each other table, however many bots
  another table has thinking (ten tables of Hard bots beside an Easy table
  no longer delay the Easy table at all, and delay each other evenly).

The pool gets the view (a pydantic model, pickled) and nothing else. Other
work for the pool (``run``: the hand review's decisions, server.
hand_analyses) joins the same fair queue under a name of its own, so it
takes its turn with the tables rather than holding the workers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from protocol.view import SeatView

log = logging.getLogger("hearts.bots")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BotMove:
    """What a bot decided, in wire terms."""

    kind: Literal["pass", "play", "moon", "discard"]
    cards: tuple[str, ...] = ()
    card: str = ""
    choice: str = ""


def move_value(move: BotMove) -> str | tuple[str, ...]:
    """What ``move`` is made of: the moon choice, the card played, or the
    cards passed or discarded. (A worker's move is ``bots.api.Move``, the
    same shape: only its fields are read.)"""
    if move.kind == "moon":
        return move.choice
    if move.kind == "play":
        return move.card
    return move.cards


def simple_move(view: SeatView, rng: random.Random) -> BotMove:
    """A legal move from the view alone: the fallback when a bot fails."""
    if view.phase == "pass":
        cards = sorted(view.legal or view.hand)
        return BotMove("pass", cards=tuple(rng.sample(cards, view.rules.pass_count)))
    if view.phase == "moon_choice":
        return BotMove("moon", choice="add")
    if view.phase == "widow":
        cards = sorted(view.legal or view.hand)
        return BotMove("discard", cards=tuple(rng.sample(cards, view.discard_count)))
    return BotMove("play", card=rng.choice(sorted(view.legal)))


def exit_with_parent() -> None:
    """Pool initializer: when the server dies without shutting its pool
    down (SIGKILL, a crash), its workers exit too instead of living on as
    orphans (each worker holds the task queue's write end, so it would never
    see end-of-file on its own)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def decide_in_worker(view: SeatView, level: str, seed: int, budget_ms: int) -> Decided:
    """The level's decision for ``view`` (in a pool process for Hard, on the
    loop for the quick levels), with the time it took."""
    from bots.api import decide_move  # imported in the worker, not by the server's loop

    started = time.perf_counter()
    move: BotMove = decide_move(view, level, random.Random(seed), budget_ms)
    return Decided(move, computed=time.perf_counter() - started)


# Levels that decide in about a millisecond: on the loop, no queue.
QUICK_LEVELS = frozenset({"easy", "medium"})


@dataclass(frozen=True, slots=True)
class Decided:
    """A bot's move, how long it waited for a worker and how long it thought."""

    move: BotMove
    computed: float
    waited: float = 0.0


@dataclass
class _Waiting:
    # What the worker runs: ``fn(*args)`` (a bot decision, or another job
    # such as one decision of a hand review, ``run``).
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    queued_at: float = field(default_factory=time.perf_counter)


class BotRunner:
    """Asks bots for moves without blocking the event loop, fairly across tables."""

    def __init__(self, workers: int | None = None, budget_ms: int = 900) -> None:
        self.budget_ms = budget_ms
        self.workers = workers if workers is not None else max(1, os.cpu_count() or 1)
        self._pool: Executor = self._new_pool()
        # Hard decisions waiting, per table; when each table with decisions
        # waiting or running was last served (a dispatch number; -1: not
        # yet); how many each has running.
        self._queues: dict[str, deque[_Waiting]] = {}
        self._served: dict[str, int] = {}
        self._running: dict[str, int] = {}
        self._dispatched = 0
        self._busy = 0

    def _new_pool(self) -> Executor:
        # spawn: a clean interpreter per worker (forking a process that runs an
        # event loop and threads is unsafe).
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,
        )

    def _replace_broken_pool(self, broken: Executor) -> None:
        """A worker died (killed, out of memory): the pool refuses all work
        from then on, so the decisions still to come get a fresh one."""
        if self._pool is broken:
            log.error("a bot worker died; starting a new pool")
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()

    async def decide(self, view: SeatView, level: str, seed: int, table: str = "") -> Decided:
        """The bot's move (a simple legal move if the bot fails). ``table``
        names whose turn order a pool decision joins."""
        if level in QUICK_LEVELS:
            try:
                return decide_in_worker(view, level, seed, self.budget_ms)
            except Exception:  # a crashing bot must not stall the table
                log.exception("bot %s failed; playing a simple legal move", level)
                return Decided(simple_move(view, random.Random(seed)), computed=0.0)
        args = (view, level, seed, self.budget_ms)
        try:
            decided: Decided = await self.run(table, decide_in_worker, *args)
            return decided
        except asyncio.CancelledError:
            raise
        except Exception:  # a crashing bot (or worker) must not stall the table
            log.exception("bot %s failed; playing a simple legal move", level)
            return Decided(simple_move(view, random.Random(seed)), computed=0.0)

    async def run(self, queue: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, queued as a table's decisions are: the
        jobs of ``queue`` take their turns with every table's Hard decisions
        (the hand review queues each decision as one job, so a review never
        holds a worker for long). ``fn`` and its arguments must pickle;
        its exception is raised here."""
        waiting = _Waiting(fn, args, asyncio.get_running_loop().create_future())
        line = self._queues.get(queue)
        if line is None:
            line = self._queues[queue] = deque()
            self._served.setdefault(queue, -1)
        line.append(waiting)
        self._dispatch()
        result: T = await waiting.future
        return result

    def queued(self) -> int:
        """Pool decisions waiting for a worker."""
        return sum(len(q) for q in self._queues.values())

    def _dispatch(self) -> None:
        """Start waiting decisions while workers are free, each from the
        table served least recently."""
        loop = asyncio.get_running_loop()
        while self._busy < self.workers and self._queues:
            table = min(self._queues, key=self._served.__getitem__)
            queue = self._queues[table]
            waiting = queue.popleft()
            if not queue:
                del self._queues[table]
            if waiting.future.done():  # its table stopped waiting (cancelled)
                self._forget_if_idle(table)
                continue
            self._served[table] = self._dispatched
            self._dispatched += 1
            self._running[table] = self._running.get(table, 0) + 1
            self._busy += 1
            waited = time.perf_counter() - waiting.queued_at
            pool = self._pool
            try:
                job = loop.run_in_executor(pool, waiting.fn, *waiting.args)
            except Exception as exc:  # the pool refused it: the table must not wait for ever
                if isinstance(exc, BrokenExecutor):
                    self._replace_broken_pool(pool)
                self._busy -= 1
                self._running[table] -= 1
                self._forget_if_idle(table)
                waiting.future.set_exception(exc)
                continue
            job.add_done_callback(functools.partial(self._finished, table, waiting, waited, pool))

    def _forget_if_idle(self, table: str) -> None:
        # A table with nothing waiting or running starts afresh next time:
        # one with a decision at a time (the usual) goes before one with many.
        if table not in self._queues and not self._running.get(table):
            self._served.pop(table, None)
            self._running.pop(table, None)

    def _finished(
        self,
        table: str,
        waiting: _Waiting,
        waited: float,
        pool: Executor,
        done: asyncio.Future[Any],
    ) -> None:
        self._busy -= 1
        self._running[table] -= 1
        self._forget_if_idle(table)
        if not done.cancelled() and isinstance(done.exception(), BrokenExecutor):
            self._replace_broken_pool(pool)
        if not waiting.future.done():
            if done.cancelled():
                waiting.future.cancel()
            elif (exc := done.exception()) is not None:
                waiting.future.set_exception(exc)
            else:
                result = done.result()
                if isinstance(result, Decided):
                    result = Decided(result.move, result.computed, waited)
                waiting.future.set_result(result)
        self._dispatch()

    def close(self) -> None:
        """Stop the worker processes."""
        self._pool.shutdown(wait=False, cancel_futures=True)

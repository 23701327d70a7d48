"""Fair bot scheduling (server/bot_runner.py): quick levels decide at once,
never behind the pool's queue; Hard decisions take turns across tables, so
a table's bot never waits behind more than one decision of another table."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator

import pytest

from server.bot_runner import BotRunner
from tests.bots.support import deciding_seats, random_positions, view_of


@pytest.fixture
def one_worker() -> Iterator[BotRunner]:
    runner = BotRunner(workers=1, budget_ms=150)
    yield runner
    runner.close()


def _views(count: int):  # type: ignore[no-untyped-def]
    views = []
    for table in random_positions(count, seed=11):
        views.append(view_of(table, deciding_seats(table)[0]))
    return views


async def test_quick_levels_never_wait_behind_hard_decisions(one_worker: BotRunner) -> None:
    views = _views(4)
    hard = [
        asyncio.create_task(one_worker.decide(v, "hard", i, f"T{i}")) for i, v in enumerate(views)
    ]
    await asyncio.sleep(0)  # let them queue up
    assert one_worker.queued() >= 2
    for level in ("easy", "medium"):
        decided = await one_worker.decide(views[0], level, 7, "quick")
        assert decided.waited == 0.0
    assert not any(task.done() for task in hard[1:])  # decided while Hard still queued
    await asyncio.gather(*hard)


async def test_hard_decisions_take_turns_across_tables(one_worker: BotRunner) -> None:
    views = _views(6)
    finished: list[str] = []

    async def ask(table: str, view, seed: int) -> None:  # type: ignore[no-untyped-def]
        await one_worker.decide(view, "hard", seed, table)
        finished.append(table)

    busy = [asyncio.create_task(ask("A", views[i], i)) for i in range(4)]
    late = asyncio.create_task(ask("B", views[4], 4))  # queued just after A's four
    await asyncio.gather(*busy, late)
    # B came after A had queued four: it waited for the one A decision
    # already running, not for A's whole queue.
    assert finished.index("B") <= 1, finished
    decided = await one_worker.decide(views[5], "hard", 5, "C")
    assert decided.computed > 0 and decided.waited >= 0


async def test_a_dead_worker_costs_one_simple_move_not_the_table() -> None:
    """A worker killed (out of memory, by hand) breaks its pool: the
    decisions it took get a simple legal move, and the next ones run on a
    new pool instead of failing for ever (a table whose bot never moves
    would hang)."""
    runner = BotRunner(workers=1, budget_ms=50)
    try:
        view = _views(1)[0]
        first = await runner.decide(view, "hard", 1, "T")
        assert first.computed > 0
        pool = runner._pool
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        # Until the pool notices, a decision may still be handed to it; either
        # way every decision ends with a legal move.
        decided = [await runner.decide(view, "hard", seed, "T") for seed in range(2, 6)]
        assert all(d.move.card in view.legal for d in decided)
        assert runner._pool is not pool
        after = await runner.decide(view, "hard", 9, "T")
        assert after.computed > 0 and after.move.card in view.legal  # searched by a live worker
    finally:
        runner.close()


def test_the_suites_shared_pool_serves_a_test_after_one_whose_loop_ended_mid_job() -> None:
    """The server tests' shared pool (tests/server/conftest.py) outlives each
    test's event loop: a job still running when one loop closes must not
    keep its worker counted busy for the next loop's jobs."""
    import time

    from .conftest import SharedBots

    bots = SharedBots(workers=1, budget_ms=30)
    try:

        async def left_running() -> None:
            job = asyncio.ensure_future(bots.run("t1", time.sleep, 0.5))
            await asyncio.sleep(0.05)  # started in the worker
            job.cancel()  # the test ends; its loop closes with the job running

        asyncio.run(left_running())

        async def next_test() -> float:
            return await asyncio.wait_for(bots.run("t2", abs, -1.5), 30)

        assert asyncio.run(next_test()) == 1.5
    finally:
        bots.shutdown()

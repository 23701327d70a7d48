"""Running bot decisions off the event loop.

A bot decision is a pure function of a ``SeatView`` and a seed (docs/architecture.md
property 4), so it runs in a process pool sized to the cores: no table waits
for another table's Hard bot, and the loop keeps serving while bots think.
The pool gets the view (a pydantic model, pickled) and nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Literal

from protocol.view import SeatView

log = logging.getLogger("hearts.bots")


@dataclass(frozen=True, slots=True)
class BotMove:
    """What a bot decided, in wire terms."""

    kind: Literal["pass", "play", "moon"]
    cards: tuple[str, ...] = ()
    card: str = ""
    choice: str = ""


def simple_move(view: SeatView, rng: random.Random) -> BotMove:
    """A legal move from the view alone: the fallback when a bot fails."""
    if view.phase == "pass":
        cards = sorted(view.legal or view.hand)
        return BotMove("pass", cards=tuple(rng.sample(cards, view.rules.pass_count)))
    if view.phase == "moon_choice":
        return BotMove("moon", choice="add")
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


def decide_in_worker(view: SeatView, level: str, seed: int, budget_ms: int) -> BotMove:
    """Runs in a pool process: the level's decision for ``view``."""
    from bots.api import decide_move  # imported in the worker, not by the server's loop

    move: BotMove = decide_move(view, level, random.Random(seed), budget_ms)
    return move


class BotRunner:
    """Asks bots for moves without blocking the event loop."""

    def __init__(self, workers: int | None = None, budget_ms: int = 900) -> None:
        self.budget_ms = budget_ms
        count = workers if workers is not None else max(1, os.cpu_count() or 1)
        # spawn: a clean interpreter per worker (forking a process that runs an
        # event loop and threads is unsafe).
        self._pool: Executor = ProcessPoolExecutor(
            max_workers=count,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,
        )

    async def decide(self, view: SeatView, level: str, seed: int) -> BotMove:
        """The bot's move; a simple legal move if the bot fails."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._pool, decide_in_worker, view, level, seed, self.budget_ms
            )
        except Exception:  # a crashing bot must not stall the table
            log.exception("bot %s failed; playing a simple legal move", level)
            return simple_move(view, random.Random(seed))

    def close(self) -> None:
        """Stop the worker processes."""
        self._pool.shutdown(wait=False, cancel_futures=True)

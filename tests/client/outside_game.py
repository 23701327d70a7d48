"""A whole game at a real server between a person's client, a program started
as a child process (``hearts bot``, the Node example) and our bots: what the
tests of outside bots share.

The person is a raw protocol client (``tests.server.harness.WireClient``)
playing legal moves; our bots are the server's own, deciding in a thread.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from protocol.common import RulesModel
from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.config import ServerConfig
from tests.client.test_headless import ThreadBots
from tests.server.harness import WireClient, play_until

TIMEOUT = 120.0
RULES = RulesModel(end="hands", end_at=2)


@pytest.fixture
async def outside_server() -> AsyncIterator[RunningServer]:
    """A server on a free port in the test's loop, its bots in a thread."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1)
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    yield running
    await running.close()


@dataclass
class Finished:
    """What a game beside a program left: the person's last view, the
    program's exit status, its stdout lines (JSON) and stderr."""

    view: SeatView
    first_view: SeatView
    status: int
    lines: list[dict[str, Any]]
    err: str


async def game_beside(
    server: RunningServer,
    command: Sequence[str],
    cwd: Path,
    seat: int = 1,
    meanwhile: Callable[[WireClient], Awaitable[None]] | None = None,
) -> Finished:
    """The person hosts a table (``seat``: open, the others Easy and
    Medium), starts ``command`` with ``{url}`` and ``{code}`` filled in,
    waits for it to sit, starts the game and plays to its end (while
    ``meanwhile(person)`` runs, if given)."""
    host = await WireClient.open(server.url, "Ann")
    seats = ["easy", "medium", "easy"]
    seats[seat - 1] = "open"
    seated = await host.create(seats=tuple(seats), rules=RULES)  # type: ignore[arg-type]
    args = [a.format(url=server.url, code=seated.code, seat=seat) for a in command]
    proc = await asyncio.create_subprocess_exec(
        *args, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        first = await host.snapshot_where(lambda v: v.seats[seat].kind == "human", timeout=TIMEOUT)
        await host.start()
        playing = play_until(host, random.Random(5), timeout=TIMEOUT)
        if meanwhile is None:
            final = await playing
        else:
            final, _ = await asyncio.gather(playing, meanwhile(host))
        out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await host.close()
    lines = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    return Finished(final, first, proc.returncode or 0, lines, err.decode())

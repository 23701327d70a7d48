"""The bot worker processes die with their server: a server killed with
SIGKILL (no shutdown) must not leave its pool's workers running as orphans
(each holds the task queue's write end, so none would see end-of-file)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Starts a server-like program as a child process.
pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]

# A server-like parent: starts a BotRunner, has Hard moves decided (so the
# workers exist), prints their pids and waits to be killed.
PARENT = """
import asyncio, random, sys
from server.bot_runner import BotRunner
from tests.bots.support import random_positions, deciding_seats, view_of

async def main():
    runner = BotRunner(workers=2, budget_ms=10)
    table = next(random_positions(1, seed=3))
    view = view_of(table, deciding_seats(table)[0])
    await asyncio.gather(*(runner.decide(view, "hard", s) for s in range(4)))
    print(" ".join(str(pid) for pid in runner._pool._processes), flush=True)
    await asyncio.sleep(3600)

if __name__ == "__main__":
    asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live (not zombie) process."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_workers_exit_when_their_server_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    parent = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert workers and all(_running(pid) for pid in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 20
        while any(_running(pid) for pid in workers):
            assert time.monotonic() < deadline, f"orphaned bot workers: {workers}"
            time.sleep(0.05)  # polling for processes to exit
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)

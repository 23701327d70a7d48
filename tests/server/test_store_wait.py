"""Start-up with a store that is not there yet (server/app.py
``wait_for_store``, ``hearts serve --store-wait``): one sentence per try,
back-off, a start once it answers; after the wait, exit 1 with one
sentence and no traceback; a refused password said as such."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ports import free_port
from tests.serve_process import ROOT, ServeProcess
from tests.server.throwaway_redis import ThrowawayRedis

# Starts other programs (tests/conftest.py, markers).
pytestmark = pytest.mark.subprocess


async def serve_to_the_end(*args: str) -> tuple[int, str]:
    """Run ``hearts serve ARGS`` until it exits; its status and stderr."""

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tools.cli.main", "serve", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    done = await asyncio.to_thread(run)
    return done.returncode, done.stderr


async def test_a_store_that_stays_down_ends_in_one_sentence_and_exit_1() -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    status, err = await serve_to_the_end(
        "--redis", dead, "--port", str(free_port()), "--store-wait", "1", "--bot-workers", "1"
    )
    assert status == 1
    assert "Traceback" not in err and "handed over" not in err and "serving" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("hearts serve: the table store (Redis redis://127.0.0.1:")
    assert "gave up after" in last and "--store-wait 1" in last
    # Each try said what was wrong and when it tries again.
    assert "trying again in" in err


async def test_a_refused_password_is_said_as_such(tmp_path: Path) -> None:
    redis = ThrowawayRedis(tmp_path, password="right-password")
    redis.start()
    try:
        wrong = redis.url.replace("right-password", "wrong-password")
        status, err = await serve_to_the_end(
            "--redis", wrong, "--port", str(free_port()), "--store-wait", "0"
        )
    finally:
        redis.stop()
    assert status == 1 and "Traceback" not in err
    assert "refused our password" in err
    assert "wrong-password" not in err  # never a password in the log


async def test_the_server_starts_once_its_store_comes_up(tmp_path: Path) -> None:
    redis = ThrowawayRedis(tmp_path)
    url_file = tmp_path / "redis-url"
    url_file.write_text(redis.url + "\n")
    args = ["--redis-url-file", str(url_file), "--port", str(free_port()),
            "--store-wait", "60", "--bot-workers", "1"]  # fmt: skip
    log = tmp_path / "serve.log"
    with ServeProcess(args, log) as served:
        starting = asyncio.create_task(asyncio.to_thread(served.start, 90.0))
        # Started before Redis: it waits (says so), then serves.
        while "cannot be used" not in served.log_text():
            assert not starting.done(), served.log_text()
            await asyncio.sleep(0.05)  # polling the log file for its first complaint
        redis.start()
        try:
            line = await starting
            assert "serving" in line
            assert await asyncio.to_thread(served.stop) == 0
        finally:
            redis.stop()
    assert "Traceback" not in served.log_text()

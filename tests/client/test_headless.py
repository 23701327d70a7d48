"""``hearts host/join/resume --autoplay --json`` as real subprocesses against
an in-process server: JSON lines from the table line to game over, exit 0,
and hand records that ``hearts verify`` accepts."""

from __future__ import annotations

import asyncio
import json
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.bot_runner import BotRunner, Decided, decide_in_worker
from server.config import ServerConfig

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 90.0


class ThreadBots(BotRunner):
    """The server's bots deciding in a thread (same function as the worker
    processes, no process start-up)."""

    async def decide(self, view: SeatView, level: str, seed: int, table: str = "") -> Decided:
        """The bot's move."""
        return await asyncio.to_thread(decide_in_worker, view, level, seed, self.budget_ms)


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    """A server on a free port in the test's loop."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1)
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    yield running
    await running.close()


async def hearts(*args: str) -> asyncio.subprocess.Process:
    """Start ``hearts ARGS`` (the module entry point, from the repo)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "client.cli.main",
        *args,
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def first_line(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    """The first JSON line a command prints."""
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), TIMEOUT)
    assert line, (await proc.stderr.read()).decode() if proc.stderr else "no output"
    data: dict[str, Any] = json.loads(line)
    return data


async def rest(proc: asyncio.subprocess.Process) -> tuple[int, list[dict[str, Any]], str]:
    """Exit status, the remaining JSON lines and stderr, once it exits."""
    out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    lines = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    return proc.returncode or 0, lines, err.decode()


async def test_host_and_join_autoplay_to_game_over(server: RunningServer, tmp_path: Path) -> None:
    """``hearts host`` with one open seat and ``hearts join`` on its code play a
    two-hand game by bot to the end; the host's records verify."""
    records = tmp_path / "records.jsonl"
    host_session = tmp_path / "host.json"
    host = await hearts(
        "host",
        "--server",
        server.url,
        "--autoplay",
        "easy",
        "--json",
        "--records",
        str(records),
        "--seats",
        "open,easy,medium",
        "--rules",
        "end=hands,end_at=2",
        "--session-file",
        str(host_session),
        "--seed",
        "1",
        "--budget-ms",
        "20",
        "--name",
        "Hosty",
    )
    table = await first_line(host)
    assert table["type"] == "table" and table["seat"] == 0
    assert set(table) == {"type", "code", "seat", "table_id"}
    joiner = await hearts(
        "join",
        table["code"],
        "--server",
        server.url,
        "--autoplay",
        "medium",
        "--json",
        "--session-file",
        str(tmp_path / "join.json"),
        "--seed",
        "2",
    )
    joined = await first_line(joiner)
    assert joined == {**table, "seat": 1}

    for proc in (host, joiner):
        status, lines, err = await rest(proc)
        assert status == 0, err
        last = lines[-1]
        assert last["type"] == "game_over" and set(last) >= {"totals", "winner"}
        assert last["winner"] == last["totals"].index(min(last["totals"]))
        assert not [line for line in lines if line["type"] == "refused"]
        scored = [line for line in lines if line["type"] == "hand_scored"]
        assert len(scored) >= 2 and scored[-1]["totals"] == last["totals"]
        if proc is host:
            host_scored, host_last = scored, last

    assert len(records.read_text().splitlines()) == len(host_scored)
    verify = await hearts("verify", str(records))
    status, answers, err = await rest(verify)
    assert status == 0, err
    assert all(a["ok"] and a["complete"] for a in answers)
    totals = [sum(a["points"][s] for a in answers) for s in range(4)]
    assert totals == host_last["totals"]
    # The session file is private and forgets the table at game over.
    assert stat.S_IMODE(host_session.stat().st_mode) == 0o600
    saved = json.loads(host_session.read_text())
    assert saved["player_token"] and saved["table_id"] is None


async def test_join_with_an_unknown_code_fails_cleanly(
    server: RunningServer, tmp_path: Path
) -> None:
    """A code nobody has: exit 1 and the server's reason on stderr."""
    proc = await hearts(
        "join",
        "ZZZ-ZZZ",
        "--server",
        server.url,
        "--autoplay",
        "easy",
        "--json",
        "--session-file",
        str(tmp_path / "s.json"),
    )
    status, lines, err = await rest(proc)
    assert status == 1 and lines == []
    assert "no_such_table" in err and "ZZZ-ZZZ" in err


async def test_resume_without_a_saved_seat(tmp_path: Path) -> None:
    """``hearts resume`` with an empty session file: exit 2, a clear message."""
    proc = await hearts(
        "resume",
        "--autoplay",
        "easy",
        "--server",
        "ws://127.0.0.1:9/ws",
        "--session-file",
        str(tmp_path / "none.json"),
    )
    status, lines, err = await rest(proc)
    assert status == 2 and lines == []
    assert "no saved seat" in err


async def test_no_server_answers(tmp_path: Path) -> None:
    """Nothing listening: exit 1 with 'cannot reach' instead of a traceback."""
    proc = await hearts(
        "host",
        "--server",
        "ws://127.0.0.1:9/ws",
        "--autoplay",
        "easy",
        "--session-file",
        str(tmp_path / "s.json"),
    )
    status, _, err = await rest(proc)
    assert status == 1
    assert "cannot reach" in err and "Traceback" not in err

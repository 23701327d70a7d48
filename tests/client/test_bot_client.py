"""``hearts bot``: an outside Python bot (the 20-line example of
docs/bots.md, loaded by ``module:factory`` from its own folder) plays a whole
game at a real server beside a person's client and our bots, shown to
everyone as a program; a bot that answers what the view does not allow is
stopped before anything illegal is sent."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from server.app import RunningServer
from tests.server.harness import WireClient

from .outside_game import game_beside

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "python-bot"


def hearts_bot(*args: str) -> list[str]:
    """``hearts bot ARGS`` as a command line (this Python, the repository's
    entry point module)."""
    return [sys.executable, "-m", "tools.cli.main", "bot", "--server", "{url}", *args]


@pytest.mark.subprocess
async def test_the_example_bot_plays_a_whole_game_beside_a_person(
    outside_server: RunningServer,
) -> None:
    command = hearts_bot(
        "--code", "{code}", "--seat", "{seat}", "--bot", "lowcard:LowCard", "--json"
    )
    # Run from the example's folder, as its author would: the module is found there.
    done = await game_beside(outside_server, command, cwd=EXAMPLE)
    assert done.status == 0, done.err
    seat = done.first_view.seats[1]
    assert seat.kind == "human" and seat.program and seat.name == "LowCard"
    assert not done.first_view.seats[0].program
    assert done.view.status == "game_over" and done.view.seats[1].program
    assert done.lines[0]["type"] == "table" and done.lines[0]["seat"] == 1
    last = done.lines[-1]
    assert last["type"] == "game_over" and last["totals"] == list(done.view.totals)
    assert not [line for line in done.lines if line["type"] in ("refused", "error")]
    scored = [line for line in done.lines if line["type"] == "hand_scored"]
    assert len(scored) == len(done.view.hands) >= 2  # more while the lowest total is tied


@pytest.mark.subprocess
async def test_the_bot_resumes_its_seat_after_a_dropped_connection(
    outside_server: RunningServer,
) -> None:
    """The server drops the program's connection mid-hand: ``hearts bot``
    reconnects, resumes the seat and plays on to game over."""

    async def drop_the_program(person: WireClient) -> None:
        await person.snapshot_where(lambda v: len(v.tricks) >= 2, timeout=60)
        # Every connection but the person's is the program's.
        person_end = person.ws.local_address
        others = [c for c in outside_server.ws_server.connections if c.remote_address != person_end]
        assert len(others) == 1
        mark = len(person.frames)
        await others[0].close(1001, "test: network dropped")
        await person.snapshot_where(lambda v: v.seats[1].away, start=mark, timeout=60)
        back = await person.snapshot_where(lambda v: v.seats[1].connected, start=mark, timeout=60)
        assert back.seats[1].program

    command = hearts_bot(
        "--code", "{code}", "--seat", "{seat}", "--bot", "lowcard:LowCard", "--json"
    )
    done = await game_beside(outside_server, command, cwd=EXAMPLE, meanwhile=drop_the_program)
    assert done.status == 0, done.err
    assert done.lines[-1]["type"] == "game_over"
    assert done.lines[-1]["totals"] == list(done.view.totals)
    assert any(line["type"] == "reconnected" for line in done.lines)


@pytest.mark.subprocess
async def test_a_bot_that_plays_an_illegal_card_is_stopped(
    outside_server: RunningServer,
) -> None:
    command = hearts_bot("--code", "{code}", "--bot", "tests.client.bad_bots:AlwaysQueen")
    done = await game_beside_until_stopped(outside_server, command)
    assert done[0] == 1
    assert re.search(
        r"cannot be played: (QS is not a legal card|the view asks for a pass)", done[1]
    )


async def game_beside_until_stopped(server: RunningServer, command: list[str]) -> tuple[int, str]:
    """Start a game with the program at seat 1 and wait for it to give up."""
    host = await WireClient.open(server.url, "Ann")
    seated = await host.create(seats=("open", "easy", "easy"))
    args = [a.format(url=server.url, code=seated.code) for a in command]
    proc = await asyncio.create_subprocess_exec(
        *args, cwd=REPO, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        await host.snapshot_where(lambda v: v.seats[1].kind == "human", timeout=60)
        await host.start()
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        view = await host.snapshot_where(lambda v: v.seats[1].away, timeout=60)
        assert view.seats[1].program  # the seat is a dropped program's now
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await host.close()
    return proc.returncode or 0, err.decode()


def test_the_docs_show_the_example_as_it_is() -> None:
    """docs/bots.md's "bot in 20 lines" is the file these tests run."""
    docs = (REPO / "docs" / "bots.md").read_text()
    code = (EXAMPLE / "lowcard.py").read_text()
    assert f"```python\n{code}```" in docs
    assert len(code.splitlines()) <= 20

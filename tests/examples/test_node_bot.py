"""The Node example (examples/node-bot), written from docs/protocol.md alone,
plays a whole game at a real server beside a person's client and our bots:
the protocol is language-neutral. Its seat is shown to everyone as a
program's. Needs Node and the example's npm packages (``make test`` installs
them: ``npm ci`` in its folder): a skip on a developer machine, a failure in
CI."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from server.app import RunningServer
from tests.ci import unavailable
from tests.client.outside_game import game_beside

# Starts hearts (or other programs) as child processes.
pytestmark = pytest.mark.subprocess

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "node-bot"


async def test_the_node_bot_plays_a_whole_game_beside_a_person(
    outside_server: RunningServer,
) -> None:
    node = shutil.which("node")
    if node is None:
        unavailable("node is not installed")
    if not (EXAMPLE / "node_modules" / "ws").is_dir():
        unavailable(f"the example's npm packages are missing: npm ci in {EXAMPLE}")
    command = [node, "bot.js", "--server", "{url}", "--code", "{code}", "--seat", "{seat}"]
    done = await game_beside(outside_server, command, cwd=EXAMPLE, seat=2)
    assert done.status == 0, done.err
    seat = done.first_view.seats[2]
    assert seat.kind == "human" and seat.program and seat.name == "Node bot"
    assert not done.first_view.seats[0].program
    assert done.lines[0] == {
        "type": "table",
        "code": done.first_view.code,
        "seat": 2,
        "table_id": done.first_view.table_id,
    }
    scored = [line for line in done.lines if line["type"] == "hand_scored"]
    # Two hands, and more while the lowest total is tied (docs/rules.md).
    numbers = [line["hand_number"] for line in scored]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 2
    assert len(numbers) == len(done.view.hands)
    assert done.lines[-1] == {
        "type": "game_over",
        "totals": list(done.view.totals),
        "winner": done.view.winner,
    }
    assert not [line for line in done.lines if line["type"] == "refused"]

"""The default store survives its server: ``hearts serve --data DIR`` is
SIGKILLed mid-hand and the same command started again; the terminal-side
client (``ClientSession``) reconnects by itself to the same seat, hand,
cards and scores, the game finishes, a table still waiting for players can
be joined by its code, and no acknowledged play is lost. A second server on
the same folder is refused at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
from pathlib import Path

import pytest

from client.session import ClientSession, Reconnected
from engine.record import verify_record
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView

from ..serve_process import ROOT, ServeProcess
from .harness import TWO_HANDS, WireClient, session_play

# Starts hearts (or other programs) as child processes.
pytestmark = pytest.mark.subprocess


def serve_args(data: Path, port: int) -> list[str]:
    """The command line both runs use: the default (SQLite) store in ``data``."""
    return [
        "--data",
        str(data),
        "--port",
        str(port),
        "--grace",
        "30",
        "--bot-workers",
        "1",
        "--bot-budget-ms",
        "30",
    ]


def where_it_was(view: SeatView) -> tuple[object, ...]:
    """What must be the same after the restart: seat, hand, cards, tricks,
    scores and whose turn it is."""
    return (
        view.table_id,
        view.seat,
        view.status,
        view.hand_number,
        view.phase,
        view.hand,
        view.trick,
        view.tricks,
        view.points_hand,
        view.totals,
        view.turn,
    )


async def next_snapshot_after_reconnect(session: ClientSession) -> SeatView:
    """The first snapshot the session gets after it reconnected."""

    async def scan() -> SeatView:
        reconnected = False
        async for msg in session.events():
            reconnected = reconnected or isinstance(msg, Reconnected)
            if reconnected and isinstance(msg, sm.Snapshot):
                return msg.view
        raise AssertionError("the session ended before it resumed")

    return await asyncio.wait_for(scan(), 60)


@pytest.mark.slow
async def test_sigkill_then_the_same_command_resumes_every_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = tmp_path / "serve.log"
    with contextlib.ExitStack() as running:
        # The first server binds a free port itself; the second binds it again.
        first = running.enter_context(ServeProcess(serve_args(data, 0), log))
        line = await asyncio.to_thread(first.start)
        assert f"tables in SQLite {data / 'hearts.sqlite3'}" in line
        port = first.port
        assert port is not None
        url = f"ws://127.0.0.1:{port}/ws"
        session = ClientSession(url, "Rex", max_backoff=0.3, give_up_after=60)
        try:
            # A public table waiting for players (the page offers its seats)…
            wendy = await WireClient.open(url, "Wendy")
            waiting = await wendy.create(public=True, name="Wendy's table")
            await wendy.close()
            # …and a game in the middle of its first hand.
            await session.connect()
            seated = await session.request(
                cm.CreateTable(
                    id=session.next_id(), seats=("easy", "medium", "easy"), rules=TWO_HANDS
                )
            )
            assert isinstance(seated, sm.Seated)
            me = seated.seat
            await session.request(cm.StartGame(id=session.next_id()))
            before = await session_play(
                session,
                random.Random(31),
                lambda v: v.phase == "play" and len(v.tricks) >= 3 and v.turn == me,
            )
            acknowledged = [p.card for t in before.tricks for p in t.cards]
            acknowledged += [p.card for p in before.trick]

            assert await asyncio.to_thread(first.kill) == -signal.SIGKILL
            second = running.enter_context(ServeProcess(serve_args(data, port), log))
            await asyncio.to_thread(second.start)

            after = await next_snapshot_after_reconnect(session)
            assert where_it_was(after) == where_it_was(before)
            assert session.seat == me
            # The waiting table is still listed, and its open seat takes a player.
            guest = await WireClient.open(url, "Gil")
            tables = await guest.call(cm.ListTables(id=guest.next_id()))
            assert [t.code for t in tables.tables] == [waiting.code]
            joined = await guest.join(waiting.code)
            assert joined.table_id == waiting.table_id and joined.seat == 1
            await guest.close()
            # The game goes on to its end from there.
            final = await session_play(session, random.Random(32), timeout=90)
            assert final.status == "game_over" and final.winner is not None
            reply = await session.request(cm.GetRecords(id=session.next_id()))
            assert isinstance(reply, sm.Records)
            assert await asyncio.to_thread(second.stop) == 0
        finally:
            await session.close()

    records = [json.loads(r) for r in reply.records]
    assert len(records) == len(final.hands) >= 2
    for record in records:
        result = verify_record(record)
        assert result["ok"] and result["complete"], result
    # Every play the player saw before the kill opens the first hand's record.
    assert records[0]["plays"][: len(acknowledged)] == acknowledged


@pytest.mark.slow
async def test_a_second_server_on_the_same_data_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = tmp_path / "serve.log"
    with ServeProcess(serve_args(data, 0), log) as first:
        await asyncio.to_thread(first.start)
        port = first.port
        refused = await asyncio.create_subprocess_exec(
            *ServeProcess(serve_args(data, 0), log).command(),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(refused.communicate(), 60)
        assert refused.returncode == 1
        assert b"serving" not in out
        assert b"is in use by another hearts server" in err, err
        assert b"Traceback" not in err
        # The first server is untouched by the attempt.
        client = await WireClient.open(f"ws://127.0.0.1:{port}/ws", "Ann")
        await client.create()
        await client.close()
        assert await asyncio.to_thread(first.stop) == 0

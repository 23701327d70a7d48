"""A server killed mid-hand and started again on the same Redis: the table
resumes from its stored state, the client reconnects by itself, the game
finishes and no acknowledged action is lost.

The server runs as a real ``hearts serve`` process on database 15 of the
test Redis (flushed before and after; see conftest.py for the CI rule).
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
from pathlib import Path

import pytest

from client.session import ClientSession
from engine.record import verify_record
from protocol import client_messages as cm
from protocol import server_messages as sm

from ..serve_process import ServeProcess
from .harness import TWO_HANDS, session_play

# Starts hearts (or other programs) as child processes.
pytestmark = pytest.mark.subprocess


def serve_args(port: int, redis: str) -> list[str]:
    """``hearts serve`` on ``port`` with ``redis``."""
    return [
        "--port",
        str(port),
        "--redis",
        redis,
        "--grace",
        "30",
        "--bot-workers",
        "1",
        "--bot-budget-ms",
        "30",
        # The killed process's table lease must run out before the
        # new process takes the table over: keep it short.
        "--lease-ms",
        "1000",
    ]


@pytest.mark.slow
async def test_sigkill_mid_hand_then_restart_on_redis(redis_db: str, tmp_path: Path) -> None:
    """Play into the middle of hand 1, SIGKILL the server right after an
    acknowledged play, start a new server on the same Redis and port: the
    session resumes, the game ends, the records verify and hand 1's record
    starts with every play acknowledged before the kill. The first server
    binds a free port itself; the second binds the same one again."""
    log = tmp_path / "server.log"
    session: ClientSession | None = None
    try:
        with ServeProcess(serve_args(0, redis_db), log) as first:
            await asyncio.to_thread(first.start)
            port = first.port
            assert port is not None
            session = ClientSession(
                f"ws://127.0.0.1:{port}/ws", "Rex", max_backoff=0.3, give_up_after=60
            )
            await session.connect()
            seated = await session.request(
                cm.CreateTable(
                    id=session.next_id(), seats=("easy", "medium", "easy"), rules=TWO_HANDS
                )
            )
            assert isinstance(seated, sm.Seated)
            me = seated.seat
            await session.request(cm.StartGame(id=session.next_id()))
            view = await session_play(
                session,
                random.Random(21),
                lambda v: v.phase == "play" and len(v.tricks) >= 4 and v.turn == me,
            )
            card = sorted(view.legal)[0]
            ack = await session.request(cm.PlayCard(id=session.next_id(), card=card))
            assert isinstance(ack, sm.Ok)
            acknowledged = [p.card for t in view.tricks for p in t.cards]
            acknowledged += [p.card for p in view.trick] + [card]
            assert await asyncio.to_thread(first.kill) == -signal.SIGKILL

        with ServeProcess(serve_args(port, redis_db), log) as second:
            await asyncio.to_thread(second.start)
            seen: list[object] = []
            final = await session_play(
                session, random.Random(22), seen=seen, timeout=90, act_first=False
            )
            assert final.status == "game_over" and final.winner is not None
            assert any(type(m).__name__ == "_Reconnected" for m in seen)
            reply = await session.request(cm.GetRecords(id=session.next_id()))
            assert isinstance(reply, sm.Records)
            assert await asyncio.to_thread(second.stop) == 0
    finally:
        if session is not None:
            await session.close()

    records = [json.loads(r) for r in reply.records]
    assert len(records) == len(final.hands) >= 2
    for record in records:
        result = verify_record(record)
        assert result["ok"] and result["complete"], result
    assert records[0]["plays"][: len(acknowledged)] == acknowledged
    assert [sum(r["points"][s] for r in map(verify_record, records)) for s in range(4)] == list(
        final.totals
    )

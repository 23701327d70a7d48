"""Whole games over real WebSocket connections: one human with three bots,
and four humans at one table joined by invite code."""

from __future__ import annotations

import asyncio
import json
import random

from engine.record import verify_record
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer

from .harness import TWO_HANDS, WireClient, play_until


def check_records(records: tuple[str, ...], hands: int, totals: tuple[int, ...]) -> None:
    """Every record verifies as a complete hand and their points add up to
    ``totals``."""
    assert len(records) == hands
    sums = [0, 0, 0, 0]
    for number, text in enumerate(records, start=1):
        record = json.loads(text)
        assert record["hand"] == number
        result = verify_record(record)
        assert result["ok"] and result["complete"], result
        for seat, points in enumerate(result["points"]):
            sums[seat] += points
    assert tuple(sums) == totals


async def test_one_human_three_bots_to_game_over(server: RunningServer) -> None:
    """A full game to 100 against Easy and Medium bots; records match."""
    human = await WireClient.open(server.url, "Ann")
    await human.create(seats=("easy", "medium", "easy"), rules=RulesModel(end_at=100))
    await human.start()
    final = await play_until(human, random.Random(1), timeout=150)
    assert final.status == "game_over"
    _, over = await human.wait_for(lambda m: isinstance(m, sm.GameOver))
    assert over.totals == final.totals
    assert max(over.totals) >= 100
    assert over.winner == over.totals.index(min(over.totals))
    scored = [m for m in human.messages if isinstance(m, sm.HandScored)]
    assert [s.hand_number for s in scored] == list(range(1, len(scored) + 1))
    assert scored[-1].totals == over.totals
    check_records(await human.records(), len(scored), over.totals)
    await human.close()


async def test_four_humans_join_by_code(server: RunningServer) -> None:
    """A host with three open seats; three players join by invite code (typed
    in lower case with a dash) and the four play two hands to the end."""
    host = await WireClient.open(server.url, "Host")
    seated = await host.create(rules=TWO_HANDS)
    assert seated.seat == 0 and seated.seat_token
    typed = f"{seated.code[:3]}-{seated.code[3:]}".lower()
    others = [await WireClient.open(server.url, f"P{i}") for i in range(1, 4)]
    for expected, client in enumerate(others, start=1):
        reply = await client.join(typed)
        assert reply.seat == expected and reply.table_id == seated.table_id
    tokens = {host.seat_token, *(c.seat_token for c in others)}
    assert len(tokens) == 4
    view = await host.snapshot_where(lambda v: all(s.kind == "human" for s in v.seats))
    assert [s.name for s in view.seats] == ["Host", "P1", "P2", "P3"]
    await host.start()
    players = [host, *others]
    views = await asyncio.gather(
        *(play_until(c, random.Random(10 + i)) for i, c in enumerate(players))
    )
    totals = views[0].totals
    assert all(v.totals == totals for v in views)
    assert len(views[0].hands) >= 2
    assert all(s.kind == "human" for s in views[0].seats)
    check_records(await others[2].records(), len(views[0].hands), totals)
    for client in players:
        await client.close()

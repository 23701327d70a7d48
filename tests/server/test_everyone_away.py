"""A table whose only human leaves carries on: after the grace period a bot
covers the seat, and between hands the bots deal on, so the game reaches its
end (a spectator sees it) instead of freezing."""

from __future__ import annotations

import asyncio

from client.session import ClientSession
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel

from .conftest import ServerFactory


async def test_a_table_everyone_left_is_played_to_the_end_by_bots(
    make_server: ServerFactory,
) -> None:
    async with make_server(grace_seconds=0.1) as server:
        host = ClientSession(server.url, "Host", reconnect=False)
        await host.connect()
        reply = await host.request(
            cm.CreateTable(
                id=host.next_id(),
                rules=RulesModel(end="hands", end_at=2),
                seats=("easy", "easy", "easy"),
            )
        )
        assert isinstance(reply, sm.Seated)
        watcher = ClientSession(server.url, "Watcher", reconnect=False)
        await watcher.connect()
        await watcher.request(cm.Watch(id=watcher.next_id(), code=reply.code))
        await host.request(cm.StartGame(id=host.next_id()))
        await host.close()  # the only human is gone for good

        async def until_game_over() -> tuple[sm.GameOver, list[str]]:
            changes: list[str] = []
            async for msg in watcher.events():
                if isinstance(msg, sm.SeatChanged) and msg.seat.seat == 0:
                    changes.append(msg.change)
                if isinstance(msg, sm.GameOver):
                    return msg, changes
            raise AssertionError("the watcher's stream ended before game over")

        over, changes = await asyncio.wait_for(until_game_over(), 60)
        assert "away" in changes and "covering" in changes
        assert sum(over.totals) >= 52  # two hands of 26 points at least
        await watcher.close()

"""A move whose commit finds the table's lease gone (a Redis failover, a
pause past the lease) is not refused: the table stops at this process, the
requester's connection closes, and its client resumes and sends the move
again to whoever runs the table now. A refusal would leave the move unmade
while the client's view, unchanged, gives it no reason to move again: the
table would wait for that seat for ever."""

from __future__ import annotations

import random
from pathlib import Path

from redis.asyncio import Redis

from client.autoplay import choose_move, needs_move
from client.session import ClientSession
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.store.redis_keys import Keyspace
from tests.redis_space import RedisSpace

from .conftest import ServerFactory


async def _my_turn(session: ClientSession) -> SeatView:
    """The first view that asks this seat to move."""
    async for message in session.events():
        if isinstance(message, sm.Snapshot) and needs_move(message.view):
            return message.view
    raise AssertionError("the session ended before its turn came")


async def test_a_move_whose_lease_lapsed_is_made_by_the_next_owner_not_refused(
    make_server: ServerFactory, redis_space: RedisSpace, tmp_path: Path
) -> None:
    # A lease far longer than the test: only the commit's fence can notice
    # it is gone (the renewal, every 20 s, does not come first).
    async with make_server(store_url=redis_space.url, lease_ms=60_000) as server:
        session = ClientSession(server.url, "Host", session_file=tmp_path / "s.json")
        await session.connect()
        try:
            seated = await session.request(
                cm.CreateTable(id=session.next_id(), seats=("easy", "easy", "easy"))
            )
            assert isinstance(seated, sm.Seated)
            await session.request(cm.StartGame(id=session.next_id()))
            view = await _my_turn(session)
            lease = Keyspace(redis_space.prefix).lease(seated.table_id)
            async with Redis.from_url(redis_space.base) as redis:
                assert await redis.get(lease) is not None
                await redis.delete(lease)  # as a failover to a lagging replica can
                move = choose_move(view, "easy", random.Random(1))
                reply = await session.request(move.request(session.next_id()), timeout=30)
                # Applied: the table's events went past the view's.
                assert isinstance(reply, sm.Ok) and reply.seq is not None and reply.seq > view.seq
                # Made by the table's next owner (this process again, its
                # lease taken anew when the client came back).
                assert await redis.get(lease) is not None
        finally:
            await session.close()

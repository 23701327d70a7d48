"""A table's life in a server's memory: a finished table nobody watches
leaves memory (and is loaded again when someone comes back); a commit whose
reply was lost is retried as the same commit, not taken for a conflict."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

from protocol import client_messages as cm
from protocol import server_messages as sm
from server.store import StoreError

from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient, play_until


async def _until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)  # polling the server's state


async def test_a_finished_table_nobody_watches_leaves_memory_and_comes_back(
    make_server: ServerFactory,
) -> None:
    # Once the last player's grace period has run out.
    async with make_server(grace_seconds=0.2) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
        await host.start()
        final = await play_until(host, random.Random(3))
        assert final.status == "game_over"
        assert seated.table_id in server.lobby.actors  # the host is still there
        await host.close()
        await _until(lambda: seated.table_id not in server.lobby.actors)
        # Someone comes back by the code: the table is loaded from the store.
        watcher = await WireClient.open(server.url, "Eve")
        reply = await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        assert reply.table_id == seated.table_id
        view = await watcher.snapshot_where(lambda v: v.status == "game_over")
        assert view.totals == final.totals
        assert seated.table_id in server.lobby.actors
        await watcher.close()


async def test_a_commit_whose_reply_was_lost_is_not_a_conflict(
    make_server: ServerFactory, redis_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store applies a commit, then the reply is lost (Redis restarting)
    longer than its own retries last: the table's retry carries the same
    token, so it is recognised, the player gets ``ok`` and the action is in
    the log once."""
    async with make_server(redis_url=redis_db) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
        real = server.store.commit
        lost = {"left": 1}

        async def reply_lost(*args: Any, **kwargs: Any) -> tuple[int, int]:
            result = await real(*args, **kwargs)
            if lost["left"]:
                lost["left"] -= 1
                raise StoreError("the table store is unreachable")
            return result

        monkeypatch.setattr(server.store, "commit", reply_lost)
        reply = await host.request(cm.Chat(id=host.next_id(), text="once"))
        assert isinstance(reply, sm.Ok), reply
        assert lost["left"] == 0
        log = await server.store.events_since(seated.table_id, 0)
        assert log is not None
        chats = [e for e in log if json.loads(e.body)["type"] == "chat_message"]
        assert len(chats) == 1
        await host.close()

"""Every frame of a whole game, both directions, is valid against
docs/protocol-schema.json (as a standard JSON Schema validator reads it)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import msgpack
import pytest

from protocol import client_messages as cm
from server.app import RunningServer
from tests.protocol.strict_schema import validator

from .harness import TWO_HANDS, WireClient, play_until

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "protocol-schema.json").read_text()
)


def _problems(kind: str, frames: list[Any]) -> list[str]:
    check = validator(SCHEMA, kind)
    found: list[str] = []
    for frame in frames:
        data = msgpack.unpackb(frame, raw=False)
        found += [f"{data.get('type')}: {e.message}" for e in check.iter_errors(data)]
    return found


@pytest.mark.slow
async def test_a_whole_games_frames_match_the_schema(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Ann")
    guest = await WireClient.open(server.url, "Bea")
    seated = await host.create(seats=("open", "easy", "medium"), rules=TWO_HANDS)
    await guest.join(seated.code)
    watcher = await WireClient.open(server.url, "Cy")
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    await host.call(cm.Chat(id=host.next_id(), text="good luck"))
    await host.error(cm.Ready(id=host.next_id()))
    await host.start()
    await host.request(cm.Hint(id=host.next_id()))
    await play_until_both(host, guest)
    await host.call(cm.GetReplay(id=host.next_id(), hand=1))
    await host.call(cm.GetStats(id=host.next_id()))
    await host.call(cm.ListTables(id=host.next_id()))
    assert await host.records()
    clients = (host, guest, watcher)
    received = [f.raw for c in clients for f in c.frames]
    sent = [f for c in clients for f in c.sent if isinstance(f, bytes)]
    kinds = {msgpack.unpackb(f)["type"] for f in received}
    assert {"welcome", "seated", "snapshot", "card_played", "game_over", "error"} <= kinds
    assert _problems("ServerMessage", received) == []
    assert _problems("ClientMessage", sent) == []
    for client in clients:
        await client.close()


async def play_until_both(*clients: WireClient) -> None:
    """Both seats play random legal moves until the game is over."""
    await asyncio.gather(
        *(play_until(c, random.Random(i), timeout=60) for i, c in enumerate(clients))
    )

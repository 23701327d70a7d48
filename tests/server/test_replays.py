"""Replays of finished hands: a player gets every trick, its own deal, pass
and the cards it received, and nothing of another seat's deal or pass; a
spectator gets the tricks and points alone; an unfinished hand is refused."""

from __future__ import annotations

import json
import random

from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer

from .harness import WireClient, play_until


async def test_a_replay_is_the_hand_as_the_seat_knew_it(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Rita")
    seated = await host.create(seats=("easy", "easy", "easy"))
    watcher = await WireClient.open(server.url, "Sam")
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    await host.start()
    assert (await host.error(cm.GetReplay(id=host.next_id(), hand=1))).code == "not_now"
    await play_until(host, random.Random(3), lambda v: v.status == "game_over")
    record = json.loads((await host.records())[0])  # a tie plays on: hand 1 is first

    mine = await host.call(cm.GetReplay(id=host.next_id(), hand=1))
    assert isinstance(mine, sm.HandReplay)
    assert mine.seat == 0 and mine.direction == "left"
    assert sorted(mine.dealt) == sorted(record["deal"][0])
    assert sorted(mine.passed) == sorted(record["passes"][0])
    assert sorted(mine.received) == sorted(record["passes"][3])  # from the right
    assert [p.card for t in mine.tricks for p in t.cards] == record["plays"]
    assert len(mine.tricks) == 13 and sum(mine.points) in (26, 78)
    # Nothing else is sent: no field could carry another seat's deal or pass.
    assert set(mine.model_dump()) == {
        "type",
        "id",
        "hand_number",
        "seat",
        "direction",
        "dealt",
        "passed",
        "received",
        "tricks",
        "points",
        "shooter",
    }
    assert (len(mine.dealt), len(mine.passed), len(mine.received)) == (13, 3, 3)

    theirs = await watcher.call(cm.GetReplay(id=watcher.next_id(), hand=1))
    assert isinstance(theirs, sm.HandReplay)
    assert theirs.seat is None and theirs.dealt == theirs.passed == theirs.received == ()
    assert theirs.tricks == mine.tricks and theirs.points == mine.points
    await host.close()
    await watcher.close()

"""Replays of finished hands: a player gets every trick, its own deal, pass
and the cards it received, and nothing of another seat's deal or pass; a
spectator gets the tricks and points alone; an unfinished hand is refused."""

from __future__ import annotations

import json
import random

from engine.cards import cards_of
from engine.game import Game
from engine.hand import Phase
from engine.record import hand_record
from engine.rules import Rules
from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer
from server.hand_replays import hand_replay

from .harness import SHORT_RULES, WireClient, play_until


async def test_a_replay_is_the_hand_as_the_seat_knew_it(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Rita")
    seated = await host.create(seats=("easy", "easy", "easy"))
    watcher = await WireClient.open(server.url, "Sam")
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    await host.start()
    early = await host.error(cm.GetReplay(id=host.next_id(), hand=1))
    assert (early.code, early.reason) == ("not_now", "replay_not_finished")
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
        "game",
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


def test_a_replay_reads_only_the_latest_games_records() -> None:
    """A table keeps every game's records and a replay is answered on the
    event loop: only the latest game's are read (earlier ones here are not
    even JSON), so many rematches do not make each replay dearer."""
    rng = random.Random(8)
    game = Game(Rules.from_json({"end": "hands", "end_at": 2}))
    latest: list[bytes] = []
    while not game.over:
        game.start_hand(rng)
        hand = game.hand
        assert hand is not None
        for seat in range(4):
            game.pass_cards(seat, rng.sample(cards_of(hand.hands[seat]), 3))
        while hand.phase is Phase.PLAY:
            game.play(hand.turn, rng.choice(cards_of(hand.legal_mask())))
        latest.append(json.dumps(hand_record(hand)).encode())
    earlier = [b"an earlier game's record"] * 1000
    for number in (1, 2):
        alone = hand_replay(latest, None, cm.GetReplay(id=1, hand=number), 0)
        assert hand_replay(earlier + latest, None, cm.GetReplay(id=1, hand=number), 0) == (
            alone.model_copy(update={"game": len(earlier) + 1})
        )
        assert alone.hand_number == number and len(alone.tricks) == 13


async def test_replays_name_their_game_and_follow_a_rematch(server: RunningServer) -> None:
    """After a rematch the current game is the new one (its hand 1 is being
    played), the earlier game is asked for by number, and a hand or game
    that does not exist is ``replay_unavailable``, not "not finished"."""
    host = await WireClient.open(server.url, "Rita")
    await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
    await host.start()
    await play_until(host, random.Random(4), lambda v: v.status == "game_over")
    first = await host.call(cm.GetReplay(id=host.next_id(), hand=1))
    assert isinstance(first, sm.HandReplay) and first.game == 1
    missing = await host.error(cm.GetReplay(id=host.next_id(), hand=999))
    assert (missing.code, missing.reason) == ("not_now", "replay_unavailable")
    await host.call(cm.Rematch(id=host.next_id()))
    await host.snapshot_where(lambda v: v.status == "playing" and v.hand_number == 1)
    now = await host.error(cm.GetReplay(id=host.next_id(), hand=1))
    assert (now.code, now.reason) == ("not_now", "replay_not_finished")
    again = await host.call(cm.GetReplay(id=host.next_id(), hand=1, game=1))
    assert isinstance(again, sm.HandReplay)
    assert (again.game, again.dealt, again.tricks) == (1, first.dealt, first.tricks)
    none = await host.error(cm.GetReplay(id=host.next_id(), hand=1, game=5))
    assert none.reason == "replay_unavailable"
    await host.close()

"""Undo at a table with bots alone: your last card and the bots' replies go
back (across the end of a trick), the table is as it was before your card,
the finished hand's record holds only the cards that stood; refused where
another human plays, before your first card and when it is not your turn."""

from __future__ import annotations

import json
import random

from engine.record import verify_record
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer

from .harness import WireClient, play_until


def my_turn(v: SeatView) -> bool:
    return v.status == "playing" and v.phase == "play" and v.turn == v.seat and bool(v.legal)


def position_of(v: SeatView) -> int:
    """How many cards of the hand were played before this view."""
    return len(v.tricks) * 4 + len(v.trick)


async def test_undo_takes_back_your_card_and_the_bots_replies(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Una")
    await host.create(seats=("easy", "easy", "easy"))
    await host.start()
    rng = random.Random(7)
    # Two cards in, so the card taken back is not the hand's first.
    first = await play_until(host, rng, lambda v: my_turn(v) and len(v.tricks) >= 1)
    before = host.view
    assert before.seq == first.seq and my_turn(before)
    card = sorted(before.legal)[0]
    start = len(host.frames)
    await host.call(cm.PlayCard(id=host.next_id(), card=card))
    after = await host.snapshot_where(my_turn, start=start)
    assert card not in after.hand

    start = len(host.frames)
    await host.call(cm.Undo(id=host.next_id()))
    _, undone = await host.wait_for(lambda m: isinstance(m, sm.PlaysUndone), start=start)
    assert undone.seat == before.seat and undone.cards[0] == card
    # Our card, then every bot card up to our turn again, across the end of
    # the trick (as few as our card alone when it ended the trick we won).
    played_since = len(after.tricks) * 4 + len(after.trick) - position_of(before)
    assert len(undone.cards) == played_since
    assert len(after.tricks) == len(before.tricks) + 1
    back = await host.snapshot_where(lambda v: v.seq >= undone.seq, start=start)
    assert sorted(back.hand) == sorted(before.hand)
    assert back.trick == before.trick and back.tricks == before.tricks
    assert back.legal == before.legal and back.turn == before.seat
    assert back.hearts_broken == before.hearts_broken

    # Play the hand out another way: the record holds what stood.
    other = sorted(back.legal)[-1]
    start = len(host.frames)
    await host.call(cm.PlayCard(id=host.next_id(), card=other))
    await play_until(host, rng, lambda v: v.status != "playing")
    (record,) = [json.loads(r) for r in await host.records()]
    verify_record(record)  # raises on a record that does not replay
    assert record["plays"][position_of(before)] == other
    assert len(record["plays"]) == 52
    await host.close()


async def test_no_undo_with_another_human_or_before_your_card(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Vic")
    seated = await host.create(seats=("open", "easy", "easy"))
    friend = await WireClient.open(server.url, "Wes")
    await friend.join(seated.code)
    await host.start()
    for c in (host, friend):
        await c.snapshot_where(lambda v: v.phase == "pass")
    error = await host.error(cm.Undo(id=host.next_id()))
    assert error.code == "not_allowed"
    await host.close()
    await friend.close()

    alone = await WireClient.open(server.url, "Xia")
    await alone.create(seats=("easy", "easy", "easy"))
    await alone.start()
    await alone.snapshot_where(lambda v: v.phase == "pass")
    assert (await alone.error(cm.Undo(id=alone.next_id()))).code == "not_now"
    await alone.close()

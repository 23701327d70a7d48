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
from protocol.common import RulesModel
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
    # A one-hand game: its records are given out once it is over.
    await host.create(seats=("easy", "easy", "easy"), rules=RulesModel(end="hands", end_at=1))
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
    await play_until(host, rng)
    record = json.loads((await host.records())[0])  # a tie plays on: hand 1 is first
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


def widow_rules() -> RulesModel:
    return RulesModel.model_validate(
        {"variant": "widow", "players": 3, "end": "hands", "end_at": 1}
    )


async def test_undo_into_the_first_trick_of_a_widow_hand(server: RunningServer) -> None:
    """A take-back into the first trick puts the widow back when a bot took
    it (the hand is as before the widow was taken); when we took it, we have
    seen its cards, so they may not go back (``not_now``, nothing changes)."""
    rng = random.Random(11)
    outcomes: set[bool] = set()
    for _ in range(40):
        human = await WireClient.open(server.url, "Wren")
        await human.create(seats=("easy", "easy"), rules=widow_rules())
        await human.start()
        view = await play_until(
            human,
            rng,
            lambda v: (
                (my_turn(v) and len(v.tricks) == 1)
                or (v.phase == "widow" and v.widow_seat == v.seat)
            ),
        )
        took = view.widow_seat == view.seat
        if took and took not in outcomes:
            view = await play_until(human, rng, lambda v: my_turn(v) and len(v.tricks) == 1)
            error = await human.error(cm.Undo(id=human.next_id()))
            assert error.code == "not_now" and "face down" in error.message
            assert human.view.seq == view.seq
            outcomes.add(took)
        elif not took and took not in outcomes:
            start = len(human.frames)
            await human.call(cm.Undo(id=human.next_id()))
            back = await human.snapshot_where(lambda v, seq=view.seq: v.seq > seq, start=start)
            assert back.tricks == () and back.widow_seat is None and my_turn(back)
            assert back.stock_count == 3 and len(back.hand) == len(view.hand) + 1
            await play_until(human, rng)
            record = json.loads((await human.records())[0])
            assert verify_record(record)["complete"]
            outcomes.add(took)
        await human.close()
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}, outcomes


def drew_after_playing(client: WireClient) -> bool:
    """Whether, in the hand under way, our seat drew from the domino stock
    after it had played a card (so taking that card back would put the
    drawn cards back on the stock)."""
    played = False
    start = max(i for i, m in enumerate(client.messages) if isinstance(m, sm.HandDealt))
    for m in client.messages[start:]:
        if isinstance(m, sm.CardPlayed) and m.seat == client.seat:
            played = True
        if isinstance(m, sm.CardsDrawn) and m.seat == client.seat and played:
            return True
    return False


async def test_no_undo_puts_back_cards_drawn_from_the_stock(server: RunningServer) -> None:
    """Domino Hearts: cards we drew are ours to know; a take-back that would
    put them back on the face-down stock (where a bot could draw them) is
    refused, and one that keeps them is not."""
    rng = random.Random(12)
    rules = RulesModel.model_validate(
        {"variant": "domino", "players": 4, "end": "hands", "end_at": 3}
    )
    human = await WireClient.open(server.url, "Yara")
    await human.create(seats=("easy", "easy", "easy"), rules=rules)
    await human.start()
    view = await play_until(
        human, rng, lambda v: (my_turn(v) and drew_after_playing(human)) or v.status == "game_over"
    )
    assert view.status == "playing", "three hands without a draw after a card of ours"
    assert view.seat is not None
    drawn = view.seats[view.seat].drawn
    while True:
        start = len(human.frames)
        reply = await human.request(cm.Undo(id=human.next_id()))
        if isinstance(reply, sm.Error):
            break
        back = await human.snapshot_where(lambda v, seq=view.seq: v.seq > seq, start=start)
        assert back.seats[view.seat].drawn == drawn
        view = back
    assert reply.code == "not_now" and "face down" in reply.message, reply
    assert human.view.seq == view.seq
    await human.close()

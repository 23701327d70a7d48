"""``ok`` carries ``seq``, and the rule of docs/protocol.md "What is asked
of you now" keeps a snapshot-driven client from ever sending a move twice."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from client.autoplay import needs_move
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer

from .harness import REPLY_TYPES, TWO_HANDS, WireClient


def asked(v: SeatView) -> str | None:
    """The request the view asks of its seat, by docs/protocol.md's table."""
    me = v.seat
    if me is None:
        return None
    if v.status == "between_hands":
        return None if v.seats[me].ready else "ready"
    if v.status != "playing":
        return None
    if v.phase == "pass" and v.legal and not v.passed:
        return "pass_cards"
    if v.phase == "play" and v.turn == me:
        return "play_card"
    if v.phase == "widow" and v.widow_seat == me and v.discard_count > 0:
        return "discard"
    if v.phase == "moon_choice" and v.moon_shooter == me:
        return "moon_choice"
    return None


def move(v: SeatView, kind: str, rng: random.Random, rid: int) -> cm.Request:
    """A legal request of ``kind`` for the view."""
    legal = sorted(v.legal)
    if kind == "ready":
        return cm.Ready(id=rid)
    if kind == "pass_cards":
        return cm.PassCards(id=rid, cards=tuple(rng.sample(legal, v.rules.pass_count)))
    if kind == "discard":
        return cm.DiscardWidow(id=rid, cards=tuple(rng.sample(legal, v.discard_count)))
    if kind == "moon_choice":
        return cm.MoonChoice(id=rid, choice="add")
    return cm.PlayCard(id=rid, card=rng.choice(legal))


async def follow_the_rule(client: WireClient, rng: random.Random) -> list[Any]:
    """Play the seat by the documented rule alone (one move in flight; after
    ``ok``, only snapshots with at least its ``seq``) until game over; every
    reply received."""
    replies: list[Any] = []
    at_least = 0
    index = 0
    while True:
        index, _ = await client.wait_for(lambda m: isinstance(m, sm.Snapshot), start=index)
        index += 1
        latest = next(f.msg for f in reversed(client.frames) if isinstance(f.msg, sm.Snapshot))
        view: SeatView = latest.view
        if view.status == "game_over":
            return replies
        kind = asked(view)
        assert (kind is not None) == needs_move(view), view  # the doc's table is the bots'
        if latest.seq < at_least or kind is None:
            continue
        request = move(view, kind, rng, client.next_id())
        start = len(client.frames)
        await client.send(request)
        _, reply = await client.wait_for(
            lambda m, rid=request.id: isinstance(m, REPLY_TYPES) and m.id == rid, start=start
        )
        replies.append(reply)
        if isinstance(reply, sm.Ok):
            assert reply.seq is not None
            at_least = reply.seq
        index = start


async def test_ok_names_the_seq_of_the_snapshot_that_shows_the_request(
    server: RunningServer,
) -> None:
    host = await WireClient.open(server.url, "Ann")
    await host.create(seats=("easy", "easy", "easy"), rules=TWO_HANDS)
    ping = await host.call(cm.Ping(id=host.next_id()))
    assert isinstance(ping, sm.Ok) and ping.seq is None  # not a table's request
    start = len(host.frames)
    ok = await host.call(cm.StartGame(id=host.next_id()))
    assert isinstance(ok, sm.Ok) and ok.seq is not None
    _, snapshot = await host.wait_for(lambda m: isinstance(m, sm.Snapshot), start=start)
    caused = [
        m.seq
        for m in host.messages[start : host.messages.index(snapshot)]
        if hasattr(m, "seq") and not isinstance(m, sm.Ok)
    ]
    # The start's own events (game_started, hand_dealt) end at ok.seq, and
    # the snapshot right after them is at that seq.
    assert caused and max(caused) == ok.seq == snapshot.seq
    chat = await host.call(cm.Chat(id=host.next_id(), text="hi"))
    _, line = await host.wait_for(lambda m: isinstance(m, sm.ChatMessage))
    assert chat.seq == line.seq > ok.seq
    await host.close()


async def test_a_client_following_the_rule_never_sends_a_move_twice(
    server: RunningServer,
) -> None:
    """Two people and two bots play a whole game; each person's client acts
    on snapshots alone, by the documented rule: not one move is refused
    (a client acting on a snapshot older than its ``ok`` sends its pass
    twice and gets ``bad_pass``)."""
    host = await WireClient.open(server.url, "Ann")
    seated = await host.create(seats=("open", "easy", "easy"), rules=TWO_HANDS)
    guest = await WireClient.open(server.url, "Bea")
    await guest.join(seated.code)
    await host.start()
    results = await asyncio.wait_for(
        asyncio.gather(
            follow_the_rule(host, random.Random(1)), follow_the_rule(guest, random.Random(2))
        ),
        120,
    )
    for replies in results:
        assert replies and all(isinstance(r, sm.Ok) for r in replies), [
            r for r in replies if not isinstance(r, sm.Ok)
        ]
    for c in (host, guest):
        await c.close()

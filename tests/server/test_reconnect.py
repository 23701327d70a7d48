"""Dropping and resuming seats: seat tokens, missed events, the grace period
and the covering bot, repeated request ids."""

from __future__ import annotations

import asyncio
import json
import random
import secrets

from client.session import ClientSession, Reconnected
from engine.record import verify_record
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer

from .conftest import ServerFactory
from .harness import (
    TWO_HANDS,
    WireClient,
    drive_all,
    play_until,
    seat_humans,
    session_play,
)


def mid_hand(view: SeatView) -> bool:
    """Two tricks done, the third not started yet."""
    return view.phase == "play" and len(view.tricks) >= 2 and not view.trick


def table_seq(server: RunningServer, table_id: str) -> int:
    """The table's committed event number (server side)."""
    return server.lobby.actors[table_id].state.seq


def verify_all(records: tuple[str, ...]) -> None:
    """Every hand record replays as a complete, legal hand."""
    assert records
    for text in records:
        result = verify_record(json.loads(text))
        assert result["ok"] and result["complete"], result


async def resume(
    url: str, old: WireClient, last_seq: int, name: str = "again"
) -> tuple[WireClient, sm.Seated]:
    """A new connection that says hello with ``old``'s player token and
    resumes its seat with a raw ``resume``."""
    new = await WireClient.open(url, name, player_token=old.player_token)
    reply = await new.call(
        cm.Resume(
            id=new.next_id(), table_id=old.table_id, seat_token=old.seat_token, last_seq=last_seq
        )
    )
    assert isinstance(reply, sm.Seated)
    new.seat_token = old.seat_token
    return new, reply


async def test_raw_resume_replays_missed_events(make_server: ServerFactory) -> None:
    """A seat drops mid-hand; the others play three cards; a raw ``resume``
    with the last seq seen gets every missed event in order, then a snapshot
    of the same hand with the same cards, and the game goes on to the end."""
    async with make_server(grace_seconds=30) as server:
        clients = await seat_humans(server.url)
        await clients[0].start()
        views = await drive_all(clients, 1, mid_hand)
        turn = views[0].turn
        assert turn is not None
        gone = (turn + 3) % 4  # the last to play this trick
        old = clients[gone]
        before, last_seq = old.view, old.seq
        assert before.seq == last_seq
        marks = [len(c.frames) for c in clients]
        await old.drop()

        others = [c for c in clients if c is not old]
        for c in others:
            seen = await c.snapshot_where(lambda v: v.seats[gone].away, start=marks[c.seat or 0])
            assert not seen.seats[gone].connected
        played = []
        for k in range(3):
            seat = (turn + k) % 4
            view = await clients[seat].snapshot_where(
                lambda v, s=seat: v.turn == s,  # type: ignore[misc]
                start=marks[seat],
            )
            card = sorted(view.legal)[0]
            await clients[seat].call(cm.PlayCard(id=clients[seat].next_id(), card=card))
            played.append(card)

        new, seated = await resume(server.url, old, last_seq)
        assert seated.seat == gone and seated.table_id == old.table_id
        assert seated.seat_token == ""  # never sent again
        index, snap = await new.wait_for(lambda m: isinstance(m, sm.Snapshot))
        replayed = [m for m in new.messages[:index] if hasattr(m, "seq")]
        assert [m.seq for m in replayed] == list(range(last_seq + 1, snap.seq + 1))
        assert [m.card for m in replayed if isinstance(m, sm.CardPlayed)] == played
        changes = [(m.seat.seat, m.change) for m in replayed if isinstance(m, sm.SeatChanged)]
        assert changes == [(gone, "away"), (gone, "connected")]
        view = snap.view
        assert view.hand_number == before.hand_number
        assert view.hand == before.hand
        assert view.turn == gone and len(view.trick) == 3
        assert snap.seq == table_seq(server, old.table_id)
        for c in others:
            await c.snapshot_where(lambda v: v.seats[gone].connected and not v.seats[gone].away)

        clients[gone] = new
        final = await drive_all(clients, 2)
        assert {v.winner for v in final} == {final[0].winner}
        verify_all(await new.records())
        for c in clients:
            await c.close()


async def test_client_session_resumes_after_a_drop(make_server: ServerFactory) -> None:
    """``ClientSession`` reconnects by itself after the server cuts its
    socket, resumes the seat (same hand, same cards, no gap in seq) and
    plays on to game over."""
    async with make_server(grace_seconds=30) as server:
        session = ClientSession(server.url, "Sam", reconnect=True, max_backoff=0.2)
        await session.connect()
        try:
            seated = await session.request(
                cm.CreateTable(
                    id=session.next_id(), seats=("easy", "easy", "medium"), rules=TWO_HANDS
                )
            )
            assert isinstance(seated, sm.Seated)
            await session.request(cm.StartGame(id=session.next_id()))
            me = seated.seat
            seen: list[object] = []
            before = await session_play(
                session,
                random.Random(3),
                lambda v: mid_hand(v) and v.turn == me,
                seen,
            )
            last_seq = session.saved.last_seq
            assert last_seq == before.seq
            for conn in list(server.ws_server.connections):
                conn.transport.abort()  # a network drop, seen from the server

            after: list[object] = []
            view = await session_play(
                session, random.Random(4), lambda v: True, after, act_first=False
            )
            assert isinstance(after[0], Reconnected)
            events = [m for m in after if hasattr(m, "seq") and not isinstance(m, sm.Snapshot)]
            assert [e.seq for e in events] == list(range(last_seq + 1, view.seq + 1))  # type: ignore[attr-defined]
            assert [(e.seat.seat, e.change) for e in events] == [(me, "away"), (me, "connected")]  # type: ignore[attr-defined]
            assert view.hand_number == before.hand_number
            assert view.hand == before.hand
            assert view.turn == me and view.seats[me].connected

            final = await session_play(session, random.Random(5))
            assert final.winner is not None
            reply = await session.request(cm.GetRecords(id=session.next_id()))
            assert isinstance(reply, sm.Records)
            verify_all(reply.records)
        finally:
            await session.close()


async def test_forged_and_foreign_tokens_are_refused(server: RunningServer) -> None:
    """A made-up token and another table's seat token get ``bad_token``; an
    unknown table id ``no_such_table``; nothing changes and the refused
    connection is not attached."""
    one = await WireClient.open(server.url, "One")
    await one.create(seats=("open", "easy", "easy"))
    two = await WireClient.open(server.url, "Two")
    await two.create(seats=("open", "easy", "easy"))
    mallory = await WireClient.open(server.url, "Mallory")
    seq = table_seq(server, one.table_id)
    for token in (secrets.token_urlsafe(24), two.seat_token, one.seat_token[:-2] + "xx"):
        rid = mallory.next_id()
        err = await mallory.error(
            cm.Resume(id=rid, table_id=one.table_id, seat_token=token, last_seq=0)
        )
        assert (err.code, err.id) == ("bad_token", rid)
    err = await mallory.error(
        cm.Resume(id="r-1", table_id="f" * 16, seat_token=one.seat_token, last_seq=0)
    )
    assert (err.code, err.id) == ("no_such_table", "r-1")
    assert table_seq(server, one.table_id) == seq
    err = await mallory.error(cm.StartGame(id=mallory.next_id()))
    assert err.code == "not_allowed"
    assert not any(isinstance(m, sm.Snapshot) for m in mallory.messages)
    for c in (one, two, mallory):
        await c.close()


async def test_grace_period_then_bot_covers_then_player_returns(
    make_server: ServerFactory,
) -> None:
    """After ``grace_seconds`` a bot plays for a dropped seat and the game
    goes on; others see the seat away, then covered; when the player resumes
    the covering stops and every later card of that seat is the player's."""
    async with make_server(grace_seconds=0.2) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "easy", "easy"), rules=TWO_HANDS)
        guest = await WireClient.open(server.url, "Guest")
        await guest.join(seated.code, seat=1)
        await host.start()
        await drive_all([host, guest], 6, lambda v: mid_hand(v) and v.turn == 1)
        last_seq = guest.seq
        await guest.drop()

        hosting = asyncio.create_task(play_until(host, random.Random(7)))
        away_at, _ = await host.wait_for(
            lambda m: isinstance(m, sm.SeatChanged) and m.change == "away" and m.seat.seat == 1
        )
        view = await host.snapshot_where(lambda v: v.seats[1].away, start=away_at)
        assert not view.seats[1].bot_covering and view.turn == 1
        cover_at, cover = await host.wait_for(
            lambda m: isinstance(m, sm.SeatChanged) and m.change == "covering", start=away_at
        )
        assert cover.seat.seat == 1 and cover.seat.bot_covering and cover.seat.away
        _, bot_card = await host.wait_for(
            lambda m: isinstance(m, sm.CardPlayed) and m.seat == 1, start=cover_at
        )
        assert bot_card.card not in view.trick  # a new card, played by the covering bot

        back, reply = await resume(server.url, guest, last_seq)
        assert reply.seat == 1
        index, snap = await back.wait_for(lambda m: isinstance(m, sm.Snapshot))
        resumed_seq = snap.seq
        assert not snap.view.seats[1].bot_covering and snap.view.seats[1].connected
        await host.snapshot_where(
            lambda v: v.seq >= resumed_seq and not v.seats[1].away and not v.seats[1].bot_covering
        )
        mine: list[str] = []

        def note(view: SeatView, request: cm.Request) -> None:
            if isinstance(request, cm.PlayCard):
                mine.append(request.card)

        final = await play_until(back, random.Random(8), on_action=note)
        await asyncio.wait_for(hosting, 60)
        assert final.status == "game_over"
        later = [
            m.card
            for m in back.messages[index:]
            if isinstance(m, sm.CardPlayed) and m.seat == 1 and m.seq > resumed_seq
        ]
        assert later and later == mine
        verify_all(await host.records())
        for c in (host, back):
            await c.close()


async def test_repeated_request_id_after_reconnect_is_not_applied_twice(
    make_server: ServerFactory,
) -> None:
    """A play sent just before a drop and sent again (same id) after the
    resume is applied once: the repeat is answered ``ok`` and changes nothing."""
    async with make_server(grace_seconds=30) as server:
        clients = await seat_humans(server.url)
        await clients[0].start()
        views = await drive_all(clients, 9, mid_hand)
        turn = views[0].turn
        assert turn is not None
        player = clients[turn]
        card = sorted(views[turn].legal)[0]
        play = cm.PlayCard(id=player.next_id(), card=card)
        await player.call(play)  # applied and acknowledged…
        last_seq = (await player.snapshot_where(lambda v: card not in v.hand)).seq
        await player.drop()  # …but say the client never saw the ok
        back, _ = await resume(server.url, player, last_seq)
        await back.wait_for(lambda m: isinstance(m, sm.Snapshot))
        seq = table_seq(server, player.table_id)
        again = await back.request(play)
        assert isinstance(again, sm.Ok) and again.id == play.id
        assert table_seq(server, player.table_id) == seq
        # The same id for another kind of request is a different request.
        err = await back.error(cm.Ready(id=play.id))
        assert err.code == "not_now"
        clients[turn] = back
        await drive_all(clients, 10)
        record = json.loads((await back.records())[0])
        assert record["plays"].count(card) == 1
        verify_all(await back.records())
        for c in clients:
            await c.close()


async def test_repeat_of_an_unacknowledged_request(make_server: ServerFactory) -> None:
    """A play sent and the socket cut at once (it may or may not have been
    applied): resent under its id after resuming, it is played exactly once."""
    async with make_server(grace_seconds=30) as server:
        clients = await seat_humans(server.url)
        await clients[0].start()
        views = await drive_all(clients, 11, mid_hand)
        turn = views[0].turn
        assert turn is not None
        player = clients[turn]
        card = sorted(views[turn].legal)[-1]
        play = cm.PlayCard(id=player.next_id(), card=card)
        last_seq = player.seq
        await player.send(play)
        await player.drop()
        back, _ = await resume(server.url, player, last_seq)
        await back.wait_for(lambda m: isinstance(m, sm.Snapshot))
        reply = await back.request(play)
        assert isinstance(reply, sm.Ok)
        view = await back.snapshot_where(lambda v: card not in v.hand)
        assert [p.card for p in view.trick].count(card) == 1
        clients[turn] = back
        await drive_all(clients, 12)
        record = json.loads((await back.records())[0])
        assert record["plays"].count(card) == 1
        for c in clients:
            await c.close()


async def test_joining_again_after_a_drop_is_coming_back(make_server: ServerFactory) -> None:
    """A player whose connection dropped and who joins again by the code
    (not ``resume``) gets the seat back: the seat is connected again, its
    grace countdown stops, and no bot covers a player who is here."""
    async with make_server(grace_seconds=30) as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("open", "easy", "easy"), rules=TWO_HANDS)
        guest = await WireClient.open(server.url, "Bea")
        await guest.join(seated.code, seat=1)
        await host.start()
        await host.snapshot_where(lambda v: v.phase == "pass")
        await guest.drop()
        away = await host.snapshot_where(lambda v: v.seats[1].away)
        assert away.seats[1].cover_in is not None
        actor = server.lobby.actors[seated.table_id]
        assert "grace1" in actor._duties.armed()

        mark = len(host.frames)
        again = await WireClient.open(server.url, "Bea", player_token=guest.player_token)
        assert (await again.join(seated.code)).seat == 1
        back = await host.snapshot_where(lambda v: v.seats[1].connected, start=mark)
        assert not back.seats[1].away and back.seats[1].cover_in is None
        assert again.view.seats[1].connected and not again.view.seats[1].away
        assert "grace1" not in actor._duties.armed()
        await host.close()
        await again.close()

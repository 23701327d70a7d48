"""The turn timer a host may choose: everyone sees the countdown of the seat
whose turn it is, and when it runs out the seat's fallback bot moves for it
and the player is told what it did (``bot_covered``)."""

from __future__ import annotations

from protocol import client_messages as cm
from protocol import server_messages as sm

from .conftest import ServerFactory
from .harness import TWO_HANDS, WireClient
from .refusing_store import RefusingStore

# 15 "seconds" of turn timer last 0.15 s of real time here.
SCALE = 0.01


async def test_time_runs_out_and_the_fallback_bot_moves(make_server: ServerFactory) -> None:
    """A host who never moves: its pass and its plays are made by the bot when
    the timer runs out, each followed by a ``bot_covered`` to the host; the
    countdown is shown on the host's seat only, never on a bot's."""
    async with make_server(turn_timer_scale=SCALE) as server:
        host = await WireClient.open(server.url, "Host")
        await host.call(
            cm.CreateTable(
                id=host.next_id(),
                seats=("easy", "easy", "easy"),
                rules=TWO_HANDS,
                turn_seconds=15,
            )
        )
        assert host.view.turn_seconds == 15
        await host.start()
        counting = await host.snapshot_where(lambda v: v.phase == "pass")
        assert counting.seats[0].turn_in is not None and 0 < counting.seats[0].turn_in <= 0.15
        assert all(s.turn_in is None for s in counting.seats[1:])

        passed_at, passed = await host.wait_for(lambda m: isinstance(m, sm.BotCovered))
        assert passed.seat == 0 and len(passed.passed) == 3 and not passed.played
        assert passed.timed_out
        view = await host.snapshot_where(lambda v: v.phase == "play", start=passed_at)
        assert set(passed.passed).isdisjoint(view.hand)

        _, played = await host.wait_for(
            lambda m: isinstance(m, sm.BotCovered) and m.played, start=passed_at + 1
        )
        _, card = await host.wait_for(
            lambda m: isinstance(m, sm.CardPlayed) and m.seat == 0, start=passed_at
        )
        assert played.played == (card.card,)
        # The seat is still the player's: the bot made one move, it does not cover.
        assert not host.view.seats[0].bot_covering and host.view.seats[0].connected
        await host.close()


async def test_no_timer_unless_the_host_chose_one(make_server: ServerFactory) -> None:
    """Without ``turn_seconds`` nobody is counted down."""
    async with make_server(turn_timer_scale=SCALE) as server:
        host = await WireClient.open(server.url, "Host")
        await host.create(seats=("easy", "easy", "easy"), rules=TWO_HANDS)
        await host.start()
        view = await host.snapshot_where(lambda v: v.phase == "pass")
        assert view.turn_seconds is None
        assert all(s.turn_in is None for s in view.seats)
        await host.close()


async def test_a_move_in_time_stops_the_countdown(make_server: ServerFactory) -> None:
    """The player passes in time: their countdown stops and the bot is never
    asked (no ``bot_covered``), and the next timed turn counts afresh."""
    async with make_server(turn_timer_scale=1.0) as server:
        host = await WireClient.open(server.url, "Host")
        await host.call(
            cm.CreateTable(
                id=host.next_id(), seats=("easy", "easy", "easy"), rules=TWO_HANDS, turn_seconds=60
            )
        )
        await host.start()
        view = await host.snapshot_where(lambda v: v.phase == "pass")
        assert view.seats[0].turn_in is not None and view.seats[0].turn_in > 50
        start = len(host.messages)
        await host.call(
            cm.PassCards(id=host.next_id(), cards=tuple(sorted(view.hand)[:3]))  # type: ignore[arg-type]
        )
        # The bots passed at once: the play starts as the host's pass lands.
        after = await host.snapshot_where(lambda v: v.phase == "play", start=start)
        for seat in after.seats:
            if seat.seat == after.turn == 0:
                assert seat.turn_in is not None and seat.turn_in > 50  # a fresh countdown
            else:
                assert seat.turn_in is None
        assert not any(isinstance(m, sm.BotCovered) for m in host.messages)
        await host.close()


async def test_an_away_seat_is_not_timed_its_grace_runs_instead(
    make_server: ServerFactory,
) -> None:
    """Two players at a timed table: both count down during the pass; when
    the guest drops, their seat's turn timer stops and the grace countdown
    (``cover_in``) runs instead."""
    async with make_server(turn_timer_scale=1.0, grace_seconds=30) as server:
        host = await WireClient.open(server.url, "Host")
        await host.call(
            cm.CreateTable(
                id=host.next_id(), seats=("open", "easy", "easy"), rules=TWO_HANDS, turn_seconds=60
            )
        )
        guest = await WireClient.open(server.url, "Guest")
        await guest.join(host.code, seat=1)
        await host.start()
        both = await host.snapshot_where(
            lambda v: v.phase == "pass" and v.seats[1].turn_in is not None
        )
        assert both.seats[0].turn_in is not None
        start = len(host.messages)
        await guest.drop()
        away = await host.snapshot_where(lambda v: v.seats[1].away, start=start)
        assert away.seats[1].turn_in is None and away.seats[1].cover_in is not None
        assert away.seats[0].turn_in is not None  # the host's own count goes on
        await host.close()


async def test_a_timed_out_move_whose_commit_failed_is_made_again(
    make_server: ServerFactory,
) -> None:
    """The store refuses the commit of the bot's move for a host whose time
    ran out: the timer is armed again (a short retry, shown as the seat's
    ``turn_in``) and the bot's move is made once the store accepts, so the
    table does not stall on a countdown stuck at zero."""
    store = RefusingStore()
    store.only_if, store.refuse = b'"bot_covered"', 2
    async with make_server(store=store, store_patience=0.0, turn_timer_scale=SCALE) as server:
        host = await WireClient.open(server.url, "Host")
        await host.call(
            cm.CreateTable(
                id=host.next_id(), seats=("easy", "easy", "easy"), rules=TWO_HANDS, turn_seconds=15
            )
        )
        await host.start()
        _, covered = await host.wait_for(lambda m: isinstance(m, sm.BotCovered), timeout=15.0)
        assert covered.timed_out and len(covered.passed) == 3
        assert store.refused == 2
        await host.snapshot_where(lambda v: v.phase == "play")
        await host.close()

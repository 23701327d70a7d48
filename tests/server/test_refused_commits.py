"""Memory never runs ahead of the store: when a commit is refused, the table
is rolled back *and* so is everything kept beside it (which connection shows
which seat, who is marked connected, which bot still has to move)."""

from __future__ import annotations

from protocol import client_messages as cm
from protocol import server_messages as sm

from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient
from .refusing_store import RefusingStore


def _dealt(client: WireClient) -> list[tuple[str, ...]]:
    return [m.cards for m in client.messages if isinstance(m, sm.HandDealt)]


async def test_a_refused_seat_move_never_shows_another_seats_cards(
    make_server: ServerFactory,
) -> None:
    """P asks to move from seat 1 to seat 2 while the store refuses the
    commit: P stays at seat 1 (view and connection alike), so when Q then
    sits at seat 2 and the game starts, P is dealt P's own cards only."""
    store = RefusingStore()
    async with make_server(store=store, store_patience=0.0) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "open", "easy"), rules=SHORT_RULES)
        p = await WireClient.open(server.url, "P")
        await p.join(seated.code, seat=1)
        store.refuse = 1
        err = await p.error(cm.TakeSeat(id=p.next_id(), seat=2))
        assert err.code == "store_unavailable" and store.refused == 1
        q = await WireClient.open(server.url, "Q")
        assert (await q.join(seated.code, seat=2)).seat == 2
        await host.start()
        p_view = await p.snapshot_where(lambda v: v.phase == "pass")
        q_view = await q.snapshot_where(lambda v: v.phase == "pass")
        assert p_view.seat == 1 and q_view.seat == 2
        assert _dealt(p) == [p_view.hand] and _dealt(q) == [q_view.hand]
        assert not set(p_view.hand) & set(q_view.hand)
        seen_by_p = {c for m in p.messages if isinstance(m, sm.Snapshot) for c in m.view.hand}
        assert not seen_by_p & set(q_view.hand)
        for c in (host, p, q):
            await c.close()


async def test_a_refused_kick_keeps_the_player_at_the_table(make_server: ServerFactory) -> None:
    """A kick whose commit fails changes nothing: the guest keeps the seat,
    is not told anything, and can act."""
    store = RefusingStore()
    async with make_server(store=store, store_patience=0.0) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        guest = await WireClient.open(server.url, "Guest")
        await guest.join(seated.code, seat=1)
        store.refuse = 1
        err = await host.error(cm.Kick(id=host.next_id(), seat=1))
        assert err.code == "store_unavailable"
        assert not any(isinstance(m, sm.Kicked) for m in guest.messages)
        await guest.call(cm.Chat(id=guest.next_id(), text="still here"))
        view = await guest.snapshot_where(lambda v: v.seats[1].name == "Guest")
        assert view.seat == 1
        for c in (host, guest):
            await c.close()


async def test_a_drop_whose_commit_failed_is_recorded_later(make_server: ServerFactory) -> None:
    """The store refuses the commit marking a dropped player away: the table
    notices the seat has no connection and records it on its next try, so
    the others see the player away (and a countdown) instead of waiting for
    a ghost for ever."""
    store = RefusingStore()
    async with make_server(store=store, store_patience=0.0, grace_seconds=30.0) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        guest = await WireClient.open(server.url, "Guest")
        await guest.join(seated.code, seat=1)
        await host.start()
        await host.snapshot_where(lambda v: v.phase == "pass")
        store.refuse = 1
        await guest.drop()
        view = await host.snapshot_where(lambda v: v.seats[1].away)
        assert store.refused == 1
        assert view.seats[1].cover_in is not None and 0 < view.seats[1].cover_in <= 30.0
        assert server.lobby.actors[seated.table_id].state.seats[1].connected is False
        await host.close()


async def test_a_bot_move_whose_commit_failed_is_decided_again(
    make_server: ServerFactory,
) -> None:
    """The bots' passes are refused by the store: they pass again once it
    accepts commits, and the hand reaches play."""
    store = RefusingStore()
    store.only_if, store.refuse = b'"pass_locked"', 3
    async with make_server(store=store, store_patience=0.0) as server:
        host = await WireClient.open(server.url, "Host")
        await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
        await host.start()
        view = await host.snapshot_where(
            lambda v: v.phase == "pass" and all(s.passed for s in v.seats[1:]), timeout=30.0
        )
        assert store.refused == 3
        await host.call(cm.PassCards(id=host.next_id(), cards=view.hand[:3]))
        await host.snapshot_where(lambda v: v.phase == "play")
        await host.close()


async def test_the_turn_countdown_survives_a_conflicting_commit(
    make_server: ServerFactory,
) -> None:
    """A commit refused as a conflict makes the table take the stored state
    again; the seat's turn timer runs on, and so does the countdown
    everyone is shown (``turn_in``), before and after the next action:
    a seat is never played for by a timer it was not shown."""
    store = RefusingStore()
    async with make_server(store=store, store_patience=0.0, turn_timer_scale=1.0) as server:
        host = await WireClient.open(server.url, "Host")
        await host.call(
            cm.CreateTable(
                id=host.next_id(),
                seats=("easy", "easy", "easy"),
                rules=SHORT_RULES,
                turn_seconds=60,
            )
        )
        await host.start()
        view = await host.snapshot_where(lambda v: v.phase == "pass")
        assert view.seats[0].turn_in is not None
        store.conflicts = 1
        start = len(host.frames)
        err = await host.error(cm.Chat(id=host.next_id(), text="one"))
        assert err.code == "store_conflict" and store.refused == 1
        again = await host.snapshot_where(lambda v: True, start=start)
        assert again.phase == "pass" and again.seats[0].turn_in is not None
        start = len(host.frames)
        await host.call(cm.Chat(id=host.next_id(), text="two"))
        after = await host.snapshot_where(lambda v: v.seq > again.seq, start=start)
        assert after.seats[0].turn_in is not None and 0 < after.seats[0].turn_in <= 60
        await host.close()


async def test_a_timed_out_move_the_store_refused_is_made_again(
    make_server: ServerFactory,
) -> None:
    """The fallback bot's move for a seat whose time ran out is lost with
    its refused commit: the seat's turn is timed afresh (the timer is not
    left spent), and when it runs out again the move is made."""
    store = RefusingStore()
    async with make_server(store=store, store_patience=0.0, turn_timer_scale=0.01) as server:
        store.only_if = b'"timed_out"'
        store.refuse = 1
        host = await WireClient.open(server.url, "Host")
        await host.call(
            cm.CreateTable(
                id=host.next_id(),
                seats=("easy", "easy", "easy"),
                rules=SHORT_RULES,
                turn_seconds=15,
            )
        )
        await host.start()
        _, covered = await host.wait_for(lambda m: isinstance(m, sm.BotCovered))
        assert store.refused == 1 and covered.timed_out and len(covered.passed) == 3
        await host.close()

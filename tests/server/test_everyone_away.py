"""Nothing is played without you: a table whose humans are all away pauses
(no bot covers, no timer runs, bots wait) until one comes back; a bot covers
an away player only while another human is at the table, after a countdown
the others see; a player who comes back is told what the bot did for them.
A table whose humans all left for good (their seats went to bots) is played
to its end by the bots."""

from __future__ import annotations

import asyncio
import random

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from server import table_intents as intents

from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient, play_until


async def _resume(url: str, old: WireClient) -> WireClient:
    back = await WireClient.open(url, old.name, player_token=old.player_token)
    await back.call(cm.Resume(id=back.next_id(), table_id=old.table_id, seat_token=old.seat_token))
    back.table_id, back.seat_token = old.table_id, old.seat_token
    return back


async def test_a_table_whose_only_human_dropped_pauses_until_they_return(
    make_server: ServerFactory,
) -> None:
    async with make_server(grace_seconds=0.05) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
        watcher = await WireClient.open(server.url, "Watcher")
        await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        await host.start()
        # Play a few tricks, then drop mid-hand.
        await play_until(host, random.Random(3), done=lambda v: len(v.tricks) >= 2)
        await host.drop()
        paused = await watcher.snapshot_where(lambda v: v.paused)
        assert paused.seats[0].away and not paused.seats[0].bot_covering
        assert paused.seats[0].cover_in is None  # alone, no countdown runs
        actor = server.lobby.actors[seated.table_id]
        assert intents.seats_to_decide(actor.state) == []
        assert not any(key.startswith("grace") for key in actor._duties.armed())

        back = await _resume(server.url, host)
        view = await back.snapshot_where(lambda v: not v.paused)
        # Exactly where it was: the same tricks, the same trick in progress
        # (bots whose turn came wait), and no bot played for the host.
        assert view.tricks == paused.tricks and view.trick == paused.trick
        assert not view.seats[0].bot_covering
        assert not any(isinstance(m, sm.BotCovered) for m in back.messages)
        final = await play_until(back, random.Random(4))
        assert final.status == "game_over"
        for c in (back, watcher):
            await c.close()


async def test_a_countdown_then_a_bot_covers_and_the_player_is_told(
    make_server: ServerFactory,
) -> None:
    """Two humans: the guest drops, the host sees a countdown, then a bot
    plays for the guest; back, the guest alone is told what it did."""
    async with make_server(grace_seconds=0.3) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        guest = await WireClient.open(server.url, "Guest")
        await guest.join(seated.code, seat=1)
        await host.start()
        dealt = await guest.snapshot_where(lambda v: v.phase == "pass")
        mark = len(host.frames)
        await guest.drop()
        away = await host.snapshot_where(lambda v: v.seats[1].away, start=mark)
        assert away.seats[1].cover_in is not None and 0 < away.seats[1].cover_in <= 0.3
        assert not away.paused
        await play_until(host, random.Random(5), done=lambda v: len(v.tricks) >= 3)
        covered_at, covered = await host.wait_for(
            lambda m: isinstance(m, sm.Snapshot) and m.view.seats[1].bot_covering
        )
        assert covered.view.seats[1].cover_in is None
        back = await _resume(server.url, guest)
        _, told = await back.wait_for(lambda m: isinstance(m, sm.BotCovered))
        assert told.seat == 1 and len(told.passed) == 3
        assert set(told.passed) <= set(dealt.hand)
        # Every card played for the guest up to the return, in order (the
        # host has them all once it sees the guest back: frames keep order).
        back_at = await host.snapshot_where(lambda v: not v.seats[1].away, start=covered_at)
        played_for_guest = [
            m.card for m in host.messages if isinstance(m, sm.CardPlayed) and m.seat == 1
        ]
        assert list(told.played) == played_for_guest and len(told.played) >= 3
        assert not back_at.seats[1].bot_covering
        view = await back.snapshot_where(lambda v: not v.seats[1].bot_covering)
        assert not set(told.played) & set(view.hand)
        # Only the guest hears of it: the host never gets the guest's cards this way.
        assert not any(isinstance(m, sm.BotCovered) for m in host.messages)
        for c in (host, back):
            await c.close()


async def test_a_table_everyone_left_is_played_to_the_end_by_bots(
    make_server: ServerFactory,
) -> None:
    """The only human gives up the seat during the game: a bot takes it for
    good and the bots finish the game (a spectator sees it end)."""
    async with make_server(grace_seconds=0.1) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(
            seats=("easy", "easy", "easy"), rules=RulesModel(end="hands", end_at=2)
        )
        watcher = await WireClient.open(server.url, "Watcher")
        await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        await host.start()
        await host.call(cm.LeaveSeat(id=host.next_id()))

        async def until_game_over() -> sm.GameOver:
            _, over = await watcher.wait_for(lambda m: isinstance(m, sm.GameOver), timeout=60)
            return over  # type: ignore[no-any-return]

        over = await asyncio.wait_for(until_game_over(), 60)
        assert sum(over.totals) >= 52  # two hands of 26 points at least
        assert watcher.view.seats[0].kind == "bot"
        for c in (host, watcher):
            await c.close()

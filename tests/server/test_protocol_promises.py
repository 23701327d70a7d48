"""What docs/protocol.md says the server does, where the text and the server
once differed: each behaviour as written now."""

from __future__ import annotations

import random

import pytest

from engine.hand import Phase
from protocol import client_messages as cm
from protocol import server_messages as sm
from server import table_undo
from server.app import RunningServer
from server.errors import NotNow
from server.version import package_version

from .conftest import ServerFactory
from .harness import SHORT_RULES, TWO_HANDS, WireClient, play_until
from .test_safe_retries import _golden


async def test_welcome_names_the_servers_release(server: RunningServer) -> None:
    client = await WireClient.open(server.url, "Ann")
    welcome = client.messages[0]
    assert isinstance(welcome, sm.Welcome) and welcome.server_version == package_version()
    await client.close()


async def test_a_joiner_gets_seated_chat_history_and_a_snapshot_showing_its_seat(
    server: RunningServer,
) -> None:
    host = await WireClient.open(server.url, "Ann")
    seated = await host.create()
    guest = await WireClient.open(server.url, "Bea")
    mark = len(guest.frames)
    await guest.join(seated.code)
    view = await guest.snapshot_where(lambda v: True, start=mark)
    assert view.seats[1].name == "Bea"
    _, changed = await host.wait_for(lambda m: isinstance(m, sm.SeatChanged) and m.seat.seat == 1)
    assert changed.change == "joined"
    await host.call(cm.Ping(id=host.next_id()))  # a round trip: anything queued has come
    await guest.call(cm.Ping(id=guest.next_id()))
    kinds = [type(m) for m in guest.messages[mark:] if not isinstance(m, sm.Ok)]
    assert kinds == [sm.Seated, sm.ChatHistory, sm.Snapshot]
    for c in (host, guest):
        await c.close()


async def test_resume_with_last_seq_zero_replays_every_logged_event(
    server: RunningServer,
) -> None:
    host = await WireClient.open(server.url, "Ann")
    await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
    await host.start()
    view = await host.snapshot_where(lambda v: v.phase == "pass")
    await host.drop()
    back = await WireClient.open(server.url, "Ann", player_token=host.player_token)
    await back.call(
        cm.Resume(id=back.next_id(), table_id=host.table_id, seat_token=host.seat_token)
    )
    await back.wait_for(lambda m: isinstance(m, sm.Snapshot))
    replayed = [m for m in back.messages if hasattr(m, "seq") and not isinstance(m, sm.Snapshot)]
    # From the table's first event on: the whole log, not just the snapshot.
    assert replayed[0].seq == 1
    assert any(isinstance(m, sm.GameStarted) for m in replayed)
    assert any(isinstance(m, sm.HandDealt) for m in replayed) and view.phase == "pass"
    await back.close()


async def test_after_leave_seat_mid_game_the_connection_watches(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Ann")
    seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
    guest = await WireClient.open(server.url, "Bea")
    await guest.join(seated.code)
    await host.start()
    await guest.snapshot_where(lambda v: v.phase == "pass")
    mark = len(guest.frames)
    await guest.call(cm.LeaveSeat(id=guest.next_id()))
    view = await guest.snapshot_where(lambda v: True, start=mark)
    assert view.seat is None and view.hand == () and view.seats[1].kind == "bot"
    refused = await guest.error(cm.Hint(id=guest.next_id()))
    assert refused.code == "not_allowed"
    for c in (host, guest):
        await c.close()


async def test_a_paused_table_takes_a_programs_own_move_and_answers_hint(
    make_server: ServerFactory,
) -> None:
    async with make_server() as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        program = await WireClient.open(server.url, "Bot", program=True)
        await program.join(seated.code)
        await host.start()
        await program.snapshot_where(lambda v: v.phase == "pass")
        await host.drop()
        view = await program.snapshot_where(lambda v: v.paused and v.phase == "pass")
        advice = await program.call(cm.Hint(id=program.next_id()))
        assert isinstance(advice, sm.Advice) and advice.kind == "pass"
        await program.call(cm.PassCards(id=program.next_id(), cards=advice.cards))
        after = await program.snapshot_where(lambda v: bool(v.passed))
        assert after.paused and set(after.passed) == set(advice.cards) <= set(view.hand)
        await program.close()


async def test_records_of_a_game_that_does_not_exist_are_not_finished(
    server: RunningServer,
) -> None:
    host = await WireClient.open(server.url, "Ann")
    await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
    empty = await host.call(cm.GetRecords(id=host.next_id()))
    assert isinstance(empty, sm.Records) and (empty.game, empty.games, empty.records) == (
        None,
        0,
        (),
    )
    await host.start()
    await play_until(host, random.Random(2))
    missing = await host.error(cm.GetRecords(id=host.next_id(), game=7))
    assert (missing.code, missing.reason) == ("not_now", "records_not_finished")
    await host.close()


async def test_a_rematch_starts_the_new_game_at_once(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Ann")
    await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
    await host.start()
    await play_until(host, random.Random(6))
    mark = len(host.frames)
    await host.call(cm.Rematch(id=host.next_id()))
    await host.wait_for(lambda m: isinstance(m, sm.HandDealt) and m.hand_number == 1, start=mark)
    assert any(isinstance(m, sm.GameStarted) for m in host.messages[mark:])
    await host.close()


async def test_bot_covered_gives_the_hand_of_each_move(make_server: ServerFactory) -> None:
    """A guest away for two hands: its bot's moves come back hand by hand,
    in the order they were made, matching the merged lists."""
    async with make_server(grace_seconds=0.2) as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("open", "easy", "easy"), rules=TWO_HANDS)
        guest = await WireClient.open(server.url, "Bea")
        await guest.join(seated.code, seat=1)
        await host.start()
        await guest.snapshot_where(lambda v: v.phase == "pass")
        await guest.drop()
        await play_until(
            host,
            random.Random(5),
            done=lambda v: v.hand_number == 2 and v.phase == "play" and len(v.tricks) >= 1,
            timeout=60,
        )
        back = await WireClient.open(server.url, "Bea", player_token=guest.player_token)
        await back.call(
            cm.Resume(id=back.next_id(), table_id=guest.table_id, seat_token=guest.seat_token)
        )
        _, told = await back.wait_for(lambda m: isinstance(m, sm.BotCovered))
        hands = [m.hand_number for m in told.moves]
        assert hands == sorted(hands) and {1, 2} <= set(hands)
        plays = [m.cards[0] for m in told.moves if m.kind == "play"]
        passes = [c for m in told.moves if m.kind == "pass" for c in m.cards]
        assert plays == list(told.played) and passes == list(told.passed)
        assert sum(1 for m in told.moves if m.kind == "play" and m.hand_number == 1) == 13
        for c in (host, back):
            await c.close()


def test_undo_during_a_widow_discard_is_undo_no_card() -> None:
    table, seat = _golden("golden_variants.jsonl", 7)
    assert table.game is not None and table.game.hand is not None
    assert table.game.hand.phase is Phase.WIDOW
    with pytest.raises(NotNow) as refused:
        table_undo.undo(table, seat)
    assert refused.value.reason == "undo_no_card"

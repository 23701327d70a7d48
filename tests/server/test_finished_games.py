"""``get_records`` gives a seat the records of its table's finished games
only: never a hand of the game in play (its records hold the other seats'
deals and passes and the face-down cards), every hand once the game is
over, earlier games after a rematch, a bounded amount per reply."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import cards_of
from engine.game import Game
from engine.hand import Phase
from engine.record import hand_record, verify_record
from engine.rules import Rules
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer
from server.errors import NotNow
from server.finished_games import finished_games, hand_number, records_reply
from server.table_state import Seat, TableState

from .harness import WireClient, drive_all, play_until


def between_hands(view: object) -> bool:
    return getattr(view, "status", None) == "between_hands"


async def test_a_guest_gets_no_record_of_the_widow_game_in_play(server: RunningServer) -> None:
    """The review's repro: at a widow table with two people, after hand 1
    the guest asks for the records while the game goes on. It gets none
    (not the host's deal and pass, the widow or the discard), still
    replays hand 1 as its seat knew it, and gets every hand once the game
    is over."""
    host = await WireClient.open(server.url, "Hana")
    rules = RulesModel.model_validate(
        {"variant": "widow", "players": 3, "end": "hands", "end_at": 2}
    )
    seated = await host.create(seats=("open", "easy"), rules=rules)
    guest = await WireClient.open(server.url, "Gus")
    await guest.join(seated.code, seat=1)
    await host.start()
    await drive_all([host, guest], 5, between_hands)

    mid = await guest.call(cm.GetRecords(id=guest.next_id()))
    assert isinstance(mid, sm.Records)
    assert (mid.records, mid.game, mid.games, mid.next_hand) == ((), None, 0, None)
    early = await guest.error(cm.GetRecords(id=guest.next_id(), game=1))
    assert (early.code, early.reason) == ("not_now", "records_not_finished")
    replay = await guest.call(cm.GetReplay(id=guest.next_id(), hand=1))
    assert isinstance(replay, sm.HandReplay) and replay.seat == 1

    finals = await drive_all([host, guest], 6)
    done = await guest.call(cm.GetRecords(id=guest.next_id()))
    assert isinstance(done, sm.Records)
    assert (done.game, done.games, done.next_hand) == (1, 1, None)
    assert len(done.records) == len(finals[1].hands) >= 2
    first = json.loads(done.records[0])
    assert first["hand"] == 1 and len(first["stock"]) == 3 and len(first["discard"]) == 3
    assert sorted(first["deal"][1]) == sorted(replay.dealt)
    for text in done.records:
        result = verify_record(json.loads(text))
        assert result["ok"] and result["complete"], result
    assert await host.records() == done.records
    for c in (host, guest):
        await c.close()


async def test_earlier_games_stay_fetchable_after_a_rematch(server: RunningServer) -> None:
    """During a rematch the latest finished game is the first one (the new
    game's scored hand is not given); once the rematch is over it is the
    default and ``game`` fetches the first."""
    host = await WireClient.open(server.url, "Remy")
    await host.create(seats=("easy", "easy", "easy"), rules=RulesModel(end="hands", end_at=2))
    await host.start()
    await play_until(host, random.Random(1))
    first = await host.records()
    assert len(first) >= 2
    start = len(host.frames)
    await host.call(cm.Rematch(id=host.next_id()))
    await host.snapshot_where(lambda v: v.status == "playing", start=start)
    await play_until(host, random.Random(2), between_hands)

    mid = await host.call(cm.GetRecords(id=host.next_id()))
    assert isinstance(mid, sm.Records)
    assert (mid.records, mid.game, mid.games) == (first, 1, 1)
    final = await play_until(host, random.Random(3))
    second = await host.call(cm.GetRecords(id=host.next_id()))
    assert isinstance(second, sm.Records)
    assert (second.game, second.games) == (2, 2)
    assert len(second.records) == len(final.hands) and second.records != first
    assert await host.records(game=1) == first
    await host.close()


def played_games(count: int, hands: int, seed: int) -> list[list[bytes]]:
    """``count`` games of ``hands`` hands (more on a tie), as stored records."""
    rng = random.Random(seed)
    games: list[list[bytes]] = []
    for _ in range(count):
        game = Game(Rules.from_json({"end": "hands", "end_at": hands}))
        records: list[bytes] = []
        while not game.over:
            game.start_hand(rng)
            hand = game.hand
            assert hand is not None
            if hand.phase is Phase.PASS:
                for seat in range(4):
                    game.pass_cards(seat, rng.sample(cards_of(hand.hands[seat]), 3))
            while hand.phase is Phase.PLAY:
                game.play(hand.turn, rng.choice(cards_of(hand.legal_mask())))
            records.append(json.dumps(hand_record(hand), separators=(",", ":")).encode())
        games.append(records)
    return games


def stored_state(status: str, ended_hands: int) -> bytes:
    """A table's stored blob whose game is at ``status`` with that many hands ended."""
    game = Game(Rules())
    game.hand_scores = [(0, 26, 0, 0)] * ended_hands
    if status == "game_over":
        game.winner = 0
    state = TableState(
        table_id="t1",
        code="ABCDEF",
        name="",
        public=False,
        rules=Rules(),
        seed=1,
        seats=[Seat() for _ in range(4)],
        status=status,  # type: ignore[arg-type]
        game=game,
    )
    return state.to_bytes()


def test_the_game_in_play_is_left_out_and_only_it() -> None:
    """The last run of records is left out while the stored state has a
    game in play with at least that many hands ended; a finished game,
    or a run longer than the game in play, is given."""
    one, two = played_games(2, 3, seed=4)
    assert [hand_number(r) for r in one] == list(range(1, len(one) + 1))
    assert hand_number(json.dumps(json.loads(one[1])).encode()) == 2  # spaced JSON too
    records = one + two[:2]
    assert finished_games(records, stored_state("between_hands", 2)) == [one]
    assert finished_games(records, stored_state("playing", 3)) == [one]
    assert finished_games(one + two, stored_state("game_over", len(two))) == [one, two]
    # The rematch has begun and ended no hand yet: both games are over.
    assert finished_games(one + two, stored_state("playing", 0)) == [one, two]
    # Read before the state, the records cannot hold more of the game in
    # play than the state says has ended: a longer run is a finished game.
    assert finished_games(one, stored_state("playing", 1)) == [one]
    assert finished_games(one, None) == []
    assert finished_games([], stored_state("playing", 0)) == []


def test_a_reply_is_bounded_and_pages_through_a_game() -> None:
    """One game per reply, at most ``budget`` bytes of records (one at
    least); ``next_hand`` leads through the rest; an unfinished game is
    ``not_now``."""
    one, two = played_games(2, 5, seed=9)
    state = stored_state("game_over", len(two))
    budget = len(two[0]) + len(two[1])
    got: list[str] = []
    from_hand: int | None = 1
    while from_hand is not None:
        reply = records_reply(one + two, state, cm.GetRecords(id=1, from_hand=from_hand), budget)
        assert (reply.game, reply.games) == (2, 2)
        assert reply.records and sum(len(r) for r in reply.records) <= budget
        got += reply.records
        from_hand = reply.next_hand
    assert got == [r.decode() for r in two]
    tiny = records_reply(one + two, state, cm.GetRecords(id=1, game=1), 1)
    assert tiny.records == (one[0].decode(),) and tiny.next_hand == 2
    with pytest.raises(NotNow) as refused:
        records_reply(one + two, state, cm.GetRecords(id=1, game=3), budget)
    assert refused.value.reason == "records_not_finished"

"""One whole game of every variant over real WebSocket connections: a
scripted human with Easy bots at 3 to 7 seats. Each game ends, its records
verify as complete hands whose points add up to the totals, and the human
saw what the variant says happens (the widow taken and discarded, draws
from the domino stock and seats dropping out, the cancellation rest, each
trick's seats) and nothing face down that was not its own."""

from __future__ import annotations

import json
import random

import pytest

from engine.record import verify_record
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer

from .harness import WireClient, play_until

# (variant, players, events every game of it shows the human)
CASES = (
    ("standard", 5, {sm.PassLocked}),
    ("omnibus", 4, {sm.PassLocked}),
    ("spot", 6, {sm.PassLocked}),
    ("greek", 4, {sm.PassLocked}),
    ("black_maria", 3, {sm.PassLocked}),
    ("domino", 5, {sm.CardsDrawn, sm.SeatOut, sm.LeftoverTaken}),
    ("widow", 4, {sm.WidowTaken, sm.WidowDiscarded}),
    ("cancellation", 7, {sm.RestTaken}),
)


@pytest.mark.parametrize(("variant", "players", "expected"), CASES, ids=[c[0] for c in CASES])
async def test_a_whole_game_of_each_variant(
    server: RunningServer, variant: str, players: int, expected: set[type]
) -> None:
    """A game of two hands (more on a tie) to its end; records, totals
    and events agree."""
    human = await WireClient.open(server.url, "Ann")
    rules = RulesModel.model_validate(
        {"variant": variant, "players": players, "end": "hands", "end_at": 2}
    )
    await human.create(seats=("easy",) * (players - 1), rules=rules)
    await human.start()
    final = await play_until(human, random.Random(players), timeout=60)
    assert final.status == "game_over"
    assert final.rules.variant == variant and len(final.seats) == players
    _, over = await human.wait_for(lambda m: isinstance(m, sm.GameOver))
    assert over.totals == final.totals and len(over.totals) == players

    records = await human.records()
    # Two hands, or more while the lowest total is tied.
    assert len(records) == len(final.hands) >= 2
    sums = [0] * players
    for number, text in enumerate(records, start=1):
        record = json.loads(text)
        assert record["hand"] == number
        assert record["rules"].get("variant", "standard") == variant
        result = verify_record(record)
        assert result["ok"] and result["complete"], result
        sums = [a + b for a, b in zip(sums, result["points"], strict=True)]
    assert tuple(sums) == over.totals

    seen = {type(m) for m in human.messages}
    assert expected <= seen, expected - seen
    for m in human.messages:
        if isinstance(m, sm.TrickWon):
            # Who played each card, and only seats at the table.
            assert len(m.seats) == len(m.cards) and set(m.seats) <= set(range(players))
        if isinstance(m, (sm.WidowTaken, sm.WidowDiscarded, sm.CardsDrawn, sm.RestTaken)):
            # Face-down cards: the human sees its own, and only a count of
            # the others'.
            assert m.count > 0
            assert len(m.cards) == (m.count if m.seat == 0 else 0)
    await human.close()

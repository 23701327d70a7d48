"""What a commit stores beside the table, lifted from its events: the record
of each hand that ends, and what the hands and games add to the human
players' statistics. Both go in with the commit that ends the hand or game:
atomic, and counted once.
"""

from __future__ import annotations

import json
from dataclasses import astuple

from engine.cards import QUEEN_SPADES
from engine.record import hand_record

from . import logged_events as logged
from .logged_events import Events
from .store.base import StatsDelta
from .table_state import TableState


def hand_records(state: TableState, events: Events) -> list[bytes]:
    """The records (JSON) of the hands these events end (``hand_scored``)."""
    game = state.game
    hand = game.hand if game is not None else None
    return [
        json.dumps(hand_record(hand), separators=(",", ":")).encode()
        for e in events
        if isinstance(e, logged.HandScored)
        and hand is not None
        and hand.hand_number == e.hand_number
    ]


def stats_of(state: TableState, events: Events) -> dict[str, StatsDelta]:
    """What these events add to the human players' statistics, by player id."""
    totals: dict[str, StatsDelta] = {}

    def add(seat: int, delta: StatsDelta) -> None:
        player_id = state.seats[seat].player_id
        if state.seats[seat].kind != "human" or not player_id:
            return
        old = totals.get(player_id, StatsDelta())
        totals[player_id] = StatsDelta(
            *(a + b for a, b in zip(astuple(old), astuple(delta), strict=True))
        )

    game = state.game
    hand = game.hand if game is not None else None
    for e in events:
        if isinstance(e, logged.HandScored) and hand is not None:
            queen_taker = next((s for s, m in enumerate(hand.taken) if m >> QUEEN_SPADES & 1), None)
            for i in range(state.players):
                add(
                    i,
                    StatsDelta(
                        hands=1,
                        points=e.points[i],
                        moons=int(e.shooter == i),
                        queens=int(queen_taker == i),
                    ),
                )
        elif isinstance(e, logged.GameOver):
            for i in range(state.players):
                add(i, StatsDelta(games=1, wins=int(e.winner == i)))
    return totals

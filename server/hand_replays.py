"""Replays of finished hands (``get_replay``), redacted for the asking seat.

A hand record holds every deal and every pass; a replay gives a seat only
what it may know: every card played (all of them, in a finished hand), its
own deal, the cards it passed and the cards it received. Others' deals and
passes never leave the server: once the hand is played out, the tricks show
which cards each seat played, but not which of them it was dealt or passed.
A spectator gets the tricks and the points alone.

Which hands: the table's latest game, whose records are the last run of
hand numbers counting up from 1 in the table's records.
"""

from __future__ import annotations

import json

from engine.cards import card_text, cards_of
from engine.errors import RecordError
from engine.hand import Phase
from engine.record import replay
from protocol import server_messages as sm
from protocol.seat_view import TrickCache
from protocol.view import PassDirection

from .errors import NotNow

DIRECTIONS: dict[str, PassDirection] = {
    "left": "left",
    "right": "right",
    "across": "across",
    "hold": "hold",
}
"""The wire's pass directions (a variant's other ones show as ``hold``)."""


def latest_game(records: list[bytes]) -> list[dict[str, object]]:
    """The records of the latest game: from the last hand numbered 1 on.

    Read from the newest back to that hand: a replay is answered on the
    event loop, and a table keeps the records of every game it played, so
    parsing them all would let one client's requests stall the server on a
    table of many rematches."""
    game: list[dict[str, object]] = []
    for raw in reversed(records):
        record = json.loads(raw)
        game.append(record)
        if record.get("hand") == 1:
            break
    game.reverse()
    return game


def hand_replay(
    records: list[bytes], hand_number: int, seat: int | None, request_id: int | str
) -> sm.HandReplay:
    """Hand ``hand_number`` of the latest game as ``seat`` may know it;
    ``NotNow`` when that hand is not finished (or never was)."""
    game = latest_game(records)
    record = next((r for r in game if r.get("hand") == hand_number), None)
    if record is None:
        raise NotNow(f"hand {hand_number} of this game is not finished", "replay_not_finished")
    try:
        hand = replay(record)
    except RecordError as exc:
        raise NotNow(
            f"hand {hand_number} cannot be replayed: {exc}", "replay_unavailable"
        ) from None
    if hand.phase is not Phase.DONE or hand.scores is None:
        raise NotNow(f"hand {hand_number} of this game is not finished", "replay_not_finished")
    n = hand.players
    # The views' own trick records: who really played each card (Domino:
    # seats drop out), cancelled cards, carried tricks.
    tricks = TrickCache().models(hand)
    dealt: tuple[str, ...] = ()
    passed: tuple[str, ...] = ()
    received: tuple[str, ...] = ()
    if seat is not None and 0 <= seat < n:
        dealt = tuple(card_text(c) for c in cards_of(hand.dealt[seat]))
        own = hand.passes[seat]
        passed = tuple(card_text(c) for c in cards_of(own)) if own else ()
        received = tuple(card_text(c) for c in cards_of(hand.received[seat]))
    direction = DIRECTIONS.get(hand.direction, "hold")
    return sm.HandReplay(
        id=request_id,
        hand_number=hand_number,
        seat=seat,
        direction=direction,
        dealt=dealt,
        passed=passed,
        received=received,
        tricks=tricks,
        points=hand.scores,
        shooter=hand.shooter,
    )

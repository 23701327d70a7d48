"""Replays of finished hands (``get_replay``), redacted for the asking seat.

A hand record holds every deal and every pass; a replay gives a seat only
what it may know: every card played (all of them, in a finished hand), its
own deal, the cards it passed and the cards it received. Others' deals and
passes never leave the server: once the hand is played out, the tricks show
which cards each seat played, but not which of them it was dealt or passed.
A spectator gets the tricks and the points alone.

Which hands: those of one game of the table (its current one unless the
request names another), whose records are a run of hand numbers counting
up from 1 in the table's records (server.finished_games).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.cards import card_text, cards_of
from engine.errors import RecordError
from engine.hand import Hand, Phase
from engine.record import replay
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.seat_view import TrickCache
from protocol.view import PassDirection

from .errors import NotNow
from .finished_games import games_of
from .finished_games import hand_number as finished_hand_number
from .table_state import TableState

DIRECTIONS: dict[str, PassDirection] = {
    "left": "left",
    "right": "right",
    "across": "across",
    "hold": "hold",
}
"""The wire's pass directions (a variant's other ones show as ``hold``)."""


def current_game(games: int, state: bytes | None) -> int:
    """The number of the table's current game, from 1 (0: none yet), given
    its ``games`` runs of records and its stored ``state``: a game in play
    none of whose hands has ended has no records yet (a rematch that just
    started), so it is one past them."""
    fresh = (
        state is not None
        and TableState.game_in_play(state)
        and TableState.hands_in_play(state) == 0
    )
    return games + 1 if fresh else games


def hand_replay(
    records: Sequence[bytes], state: bytes | None, request: cm.GetReplay, seat: int | None
) -> sm.HandReplay:
    """Hand ``request.hand`` of game ``request.game`` (the table's current
    game when left out) as ``seat`` may know it; ``NotNow`` when that hand
    is being played (``replay_not_finished``) or there is no such hand or
    game (``replay_unavailable``). Only the record asked for is parsed: a
    table keeps every game it played, and a replay is answered on the
    event loop."""
    number, raw = _stored_record(records, state, request.game, request.hand)
    hand_number = request.hand
    record = json.loads(raw)
    try:
        hand = replay(record)
    except RecordError as exc:
        raise NotNow(
            f"hand {hand_number} cannot be replayed: {exc}", "replay_unavailable"
        ) from None
    if hand.phase is not Phase.DONE or hand.scores is None:
        raise NotNow(f"hand {hand_number} of this game is not finished", "replay_not_finished")
    # The views' own trick records: who really played each card (Domino:
    # seats drop out), cancelled cards, carried tricks.
    tricks = TrickCache().models(hand)
    dealt, passed, received = _own_cards(hand, seat)
    direction = DIRECTIONS.get(hand.direction, "hold")
    return sm.HandReplay(
        id=request.id,
        hand_number=hand_number,
        game=number,
        seat=seat,
        direction=direction,
        dealt=dealt,
        passed=passed,
        received=received,
        tricks=tricks,
        points=hand.scores,
        shooter=hand.shooter,
    )


def _stored_record(
    records: Sequence[bytes], state: bytes | None, game_number: int | None, hand_number: int
) -> tuple[int, bytes]:
    """(the game's number, the stored record) of hand ``hand_number`` of
    game ``game_number`` (the current game when None), unparsed; ``NotNow``
    as ``hand_replay`` says when there is none."""
    games = games_of(records)
    current = current_game(len(games), state)
    number = game_number or current
    game = games[number - 1] if 0 < number <= len(games) else ()
    raw = next((r for r in game if finished_hand_number(r) == hand_number), None)
    if raw is not None:
        return number, raw
    in_play = state is not None and TableState.game_in_play(state)
    if number == current and in_play and hand_number == len(game) + 1:
        raise NotNow(f"hand {hand_number} of this game is not finished", "replay_not_finished")
    raise NotNow(f"game {number} has no hand {hand_number} to replay", "replay_unavailable")


def _own_cards(
    hand: Hand, seat: int | None
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """What only ``seat`` saw of the hand: its deal, its pass and what it
    received (nothing for a spectator)."""
    if seat is None or not 0 <= seat < hand.players:
        return (), (), ()
    own = hand.passes[seat]
    return (
        tuple(card_text(c) for c in cards_of(hand.dealt[seat])),
        tuple(card_text(c) for c in cards_of(own)) if own else (),
        tuple(card_text(c) for c in cards_of(hand.received[seat])),
    )

"""Engine events as logged table events.

A logged event is a plain dict with ``type`` and ``seq``, as stored in the
table's event log. It may hold hidden cards (``hand_dealt`` has every hand
and the face-down stock, ``cards_passed`` the passed cards, ``widow_taken``,
``widow_discarded``, ``cards_drawn`` and ``rest_taken`` face-down cards):
``server.redaction.redact_event`` decides what each seat is sent.
"""

from __future__ import annotations

from typing import Any

from engine import events as ev
from engine.cards import card_text, cards_of


def _texts(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_text(c) for c in cards]


def log_event(event: ev.Event, totals: list[int] | None = None, players: int = 4) -> dict[str, Any]:
    """The logged form of one engine event (``seq`` is added on commit);
    ``players`` is the table's seat count (who played which card of a
    standard trick)."""
    match event:
        case ev.HandDealt(hand_number, direction, hands, stock):
            return {
                "type": "hand_dealt",
                "hand_number": hand_number,
                "direction": direction,
                "hands": [_texts(cards_of(h)) for h in hands],
                "stock": _texts(stock),
            }
        case ev.PassLocked(seat):
            return {"type": "pass_locked", "seat": seat}
        case ev.CardsPassed(giver, receiver, cards):
            return {
                "type": "cards_passed",
                "giver": giver,
                "receiver": receiver,
                "cards": _texts(cards),
            }
        case ev.PlayBegins(leader):
            return {"type": "play_begins", "leader": leader}
        case ev.CardPlayed(seat, card, trick):
            return {"type": "card_played", "seat": seat, "card": card_text(card), "trick": trick}
        case ev.HeartsBroken(seat):
            return {"type": "hearts_broken", "seat": seat}
        # The subclass first: a variant's trick says who really played it.
        case ev.VariantTrickWon(trick, leader, winner, cards, points, seats, cancelled, carried):
            return {
                "type": "trick_won",
                "trick": trick,
                "leader": leader,
                "winner": winner,
                "cards": _texts(cards),
                "points": points,
                "seats": list(seats),
                "cancelled": _texts(cancelled),
                "carried": _texts(carried),
            }
        case ev.TrickWon(trick, leader, winner, cards, points):
            return {
                "type": "trick_won",
                "trick": trick,
                "leader": leader,
                "winner": winner,
                "cards": _texts(cards),
                "points": points,
                "seats": [(leader + k) % players for k in range(len(cards))],
                "cancelled": [],
                "carried": [],
            }
        case ev.TrickCarried(trick, leader, cards, seats, cancelled):
            return {
                "type": "trick_carried",
                "trick": trick,
                "leader": leader,
                "cards": _texts(cards),
                "seats": list(seats),
                "cancelled": _texts(cancelled),
            }
        case ev.WidowTaken(seat, cards):
            return {"type": "widow_taken", "seat": seat, "cards": _texts(cards)}
        case ev.WidowDiscarded(seat, cards):
            return {"type": "widow_discarded", "seat": seat, "cards": _texts(cards)}
        case ev.CardsDrawn(seat, cards):
            return {"type": "cards_drawn", "seat": seat, "cards": _texts(cards)}
        case ev.SeatOut(seat):
            return {"type": "seat_out", "seat": seat}
        case ev.LeftoverTaken(seat, cards):
            return {"type": "leftover_taken", "seat": seat, "cards": _texts(cards)}
        case ev.RestTaken(seat, cards):
            return {"type": "rest_taken", "seat": seat, "cards": _texts(cards)}
        case ev.MoonChoiceNeeded(seat):
            return {"type": "moon_choice_needed", "seat": seat}
        case ev.HandScored(hand_number, points, shooter, moon_choice):
            return {
                "type": "hand_scored",
                "hand_number": hand_number,
                "points": list(points),
                "totals": list(totals or []),
                "shooter": shooter,
                "moon_choice": moon_choice,
            }
        case ev.GameOver(totals_, winner):
            return {"type": "game_over", "totals": list(totals_), "winner": winner}
    raise TypeError(f"unknown engine event {event!r}")

"""Engine events as logged table events.

A logged event is a plain dict with ``type`` and ``seq``, as stored in the
table's event log. It may hold hidden cards (``hand_dealt`` has every hand,
``cards_passed`` the passed cards): ``server.redaction.redact_event`` decides
what each seat is sent.
"""

from __future__ import annotations

from typing import Any

from engine import events as ev
from engine.cards import card_text, cards_of


def _texts(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_text(c) for c in cards]


def log_event(event: ev.Event, totals: list[int] | None = None) -> dict[str, Any]:
    """The logged form of one engine event (``seq`` is added on commit)."""
    match event:
        case ev.HandDealt(hand_number, direction, hands):
            return {
                "type": "hand_dealt",
                "hand_number": hand_number,
                "direction": direction,
                "hands": [_texts(cards_of(h)) for h in hands],
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
        case ev.TrickWon(trick, leader, winner, cards, points):
            return {
                "type": "trick_won",
                "trick": trick,
                "leader": leader,
                "winner": winner,
                "cards": _texts(cards),
                "points": points,
            }
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

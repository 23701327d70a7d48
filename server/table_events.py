"""Engine events as logged table events (``server.logged_events``).

A logged event may hold hidden cards (``hand_dealt`` has every hand and the
face-down stock, ``cards_passed`` the passed cards, ``widow_taken``,
``widow_discarded``, ``cards_drawn`` and ``rest_taken`` face-down cards):
``server.event_kinds.redact_event`` decides what each seat is sent.
"""

from __future__ import annotations

from engine import events as ev
from engine.cards import card_text, cards_of

from . import logged_events as logged
from .errors import UnknownEvent
from .logged_events import LoggedEvent


def _texts(cards: tuple[int, ...] | list[int]) -> tuple[str, ...]:
    return tuple(card_text(c) for c in cards)


def log_event(event: ev.Event, totals: list[int] | None = None, players: int = 4) -> LoggedEvent:
    """The logged form of one engine event (``seq`` is added on commit);
    ``players`` is the table's seat count (who played which card of a
    standard trick)."""
    match event:
        case ev.HandDealt(hand_number, direction, hands, stock):
            return logged.HandDealt(
                hand_number=hand_number,
                direction=direction,
                hands=tuple(_texts(cards_of(h)) for h in hands),
                stock=_texts(stock),
            )
        case ev.PassLocked(seat):
            return logged.PassLocked(seat=seat)
        case ev.CardsPassed(giver, receiver, cards):
            return logged.CardsPassed(
                giver=giver,
                receiver=receiver,
                cards=_texts(cards),
            )
        case ev.PlayBegins(leader):
            return logged.PlayBegins(leader=leader)
        case ev.CardPlayed(seat, card, trick):
            return logged.CardPlayed(seat=seat, card=card_text(card), trick=trick)
        case ev.HeartsBroken(seat):
            return logged.HeartsBroken(seat=seat)
        # The subclass first: a variant's trick says who really played it.
        case ev.VariantTrickWon(trick, leader, winner, cards, points, seats, cancelled, carried):
            return logged.TrickWon(
                trick=trick,
                leader=leader,
                winner=winner,
                cards=_texts(cards),
                points=points,
                seats=seats,
                cancelled=_texts(cancelled),
                carried=_texts(carried),
            )
        case ev.TrickWon(trick, leader, winner, cards, points):
            return logged.TrickWon(
                trick=trick,
                leader=leader,
                winner=winner,
                cards=_texts(cards),
                points=points,
                seats=tuple((leader + k) % players for k in range(len(cards))),
            )
        case ev.TrickCarried(trick, leader, cards, seats, cancelled):
            return logged.TrickCarried(
                trick=trick,
                leader=leader,
                cards=_texts(cards),
                seats=seats,
                cancelled=_texts(cancelled),
            )
        case ev.WidowTaken(seat, cards):
            return logged.WidowTaken(seat=seat, cards=_texts(cards))
        case ev.WidowDiscarded(seat, cards):
            return logged.WidowDiscarded(seat=seat, cards=_texts(cards))
        case ev.CardsDrawn(seat, cards):
            return logged.CardsDrawn(seat=seat, cards=_texts(cards))
        case ev.SeatOut(seat):
            return logged.SeatOut(seat=seat)
        case ev.LeftoverTaken(seat, cards):
            return logged.LeftoverTaken(seat=seat, cards=_texts(cards))
        case ev.RestTaken(seat, cards):
            return logged.RestTaken(seat=seat, cards=_texts(cards))
        case ev.MoonChoiceNeeded(seat):
            return logged.MoonChoiceNeeded(seat=seat)
        case ev.HandScored(hand_number, points, shooter, moon_choice):
            return logged.HandScored(
                hand_number=hand_number,
                points=points,
                totals=tuple(totals or ()),
                shooter=shooter,
                moon_choice=moon_choice,
            )
        case ev.GameOver(totals_, winner):
            return logged.GameOver(totals=totals_, winner=winner)
    raise UnknownEvent(f"no logged form for the engine event {type(event).__name__}")

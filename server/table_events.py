"""Engine events as logged table events (``server.logged_events``).

A logged event may hold hidden cards (``hand_dealt`` has every hand and the
face-down stock, ``cards_passed`` the passed cards, ``widow_taken``,
``widow_discarded``, ``cards_drawn`` and ``rest_taken`` face-down cards):
``server.event_kinds.redact_event`` decides what each seat is sent.

Each engine event class has one converter in ``_FORMS``; every entry is
made by ``_form``, so mypy checks that the converter takes the class it is
filed under.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from engine import events as ev
from engine.cards import card_text, cards_of

from . import logged_events as logged
from .errors import UnknownEvent
from .logged_events import LoggedEvent


def _texts(cards: tuple[int, ...] | list[int]) -> tuple[str, ...]:
    return tuple(card_text(c) for c in cards)


@dataclass(frozen=True, slots=True)
class _Table:
    """What a converter may need of the table beyond the event: the game's
    totals after it (a hand's score) and the seat count (who played which
    card of a standard trick)."""

    totals: list[int] | None
    players: int


_E = TypeVar("_E")
_Convert = Callable[[_E, _Table], LoggedEvent]


def _form(engine: type[_E], convert: _Convert[_E]) -> tuple[type[Any], _Convert[Any]]:
    """One entry of ``_FORMS``: mypy checks ``convert`` takes ``engine``."""
    return engine, convert


class _SeatEvent(Protocol):
    """An engine event that names a seat."""

    @property
    def seat(self) -> int: ...


class _SeatCardsEvent(Protocol):
    """An engine event that gives a seat some cards."""

    @property
    def seat(self) -> int: ...
    @property
    def cards(self) -> tuple[int, ...]: ...


def _seat_only(
    model: type[logged.PassLocked | logged.SeatOut | logged.MoonChoiceNeeded],
) -> _Convert[_SeatEvent]:
    """The converter of an event that only names a seat."""

    def convert(e: _SeatEvent, table: _Table) -> LoggedEvent:
        return model(seat=e.seat)

    return convert


_SeatCards = (
    logged.WidowTaken
    | logged.WidowDiscarded
    | logged.CardsDrawn
    | logged.LeftoverTaken
    | logged.RestTaken
)


def _seat_cards(model: type[_SeatCards]) -> _Convert[_SeatCardsEvent]:
    """The converter of an event that gives a seat some cards."""

    def convert(e: _SeatCardsEvent, table: _Table) -> LoggedEvent:
        return model(seat=e.seat, cards=_texts(e.cards))

    return convert


def _hand_dealt(e: ev.HandDealt, table: _Table) -> LoggedEvent:
    """A new hand: every seat's cards and the stock as card texts."""
    return logged.HandDealt(
        hand_number=e.hand_number,
        direction=e.direction,
        hands=tuple(_texts(cards_of(h)) for h in e.hands),
        stock=_texts(e.stock),
    )


def _cards_passed(e: ev.CardsPassed, table: _Table) -> LoggedEvent:
    """One seat's pass, as card texts."""
    return logged.CardsPassed(giver=e.giver, receiver=e.receiver, cards=_texts(e.cards))


def _play_begins(e: ev.PlayBegins, table: _Table) -> LoggedEvent:
    """The first trick's leader."""
    return logged.PlayBegins(leader=e.leader)


def _card_played(e: ev.CardPlayed, table: _Table) -> LoggedEvent:
    """One card played, as its text."""
    return logged.CardPlayed(seat=e.seat, card=card_text(e.card), trick=e.trick)


def _hearts_broken(e: ev.HeartsBroken, table: _Table) -> LoggedEvent:
    """Hearts broken, by whom."""
    return logged.HeartsBroken(seat=e.by_seat)


def _variant_trick_won(e: ev.VariantTrickWon, table: _Table) -> LoggedEvent:
    """A variant's trick: its own seats, cancelled and carried cards."""
    return _won_trick(e, e.seats, _texts(e.cancelled), _texts(e.carried))


def _trick_won(e: ev.TrickWon, table: _Table) -> LoggedEvent:
    """A standard trick: its seats follow round from the leader."""
    return _won_trick(e, tuple((e.leader + k) % table.players for k in range(len(e.cards))))


def _won_trick(
    e: ev.TrickWon,
    seats: tuple[int, ...],
    cancelled: tuple[str, ...] = (),
    carried: tuple[str, ...] = (),
) -> LoggedEvent:
    """The logged trick of ``e`` played by ``seats``."""
    return logged.TrickWon(
        trick=e.trick,
        leader=e.leader,
        winner=e.winner,
        cards=_texts(e.cards),
        points=e.points,
        seats=seats,
        cancelled=cancelled,
        carried=carried,
    )


def _trick_carried(e: ev.TrickCarried, table: _Table) -> LoggedEvent:
    """A Cancellation trick nobody won."""
    return logged.TrickCarried(
        trick=e.trick,
        leader=e.leader,
        cards=_texts(e.cards),
        seats=e.seats,
        cancelled=_texts(e.cancelled),
    )


def _hand_scored(e: ev.HandScored, table: _Table) -> LoggedEvent:
    """The hand's points with the game's totals after it."""
    return logged.HandScored(
        hand_number=e.hand_number,
        points=e.points,
        totals=tuple(table.totals or ()),
        shooter=e.shooter,
        moon_choice=e.moon_choice,
    )


def _game_over(e: ev.GameOver, table: _Table) -> LoggedEvent:
    """The final totals and the winner."""
    return logged.GameOver(totals=e.totals, winner=e.winner)


_FORMS: Mapping[type[Any], _Convert[Any]] = MappingProxyType(
    dict(
        [
            _form(ev.HandDealt, _hand_dealt),
            _form(ev.PassLocked, _seat_only(logged.PassLocked)),
            _form(ev.CardsPassed, _cards_passed),
            _form(ev.PlayBegins, _play_begins),
            _form(ev.CardPlayed, _card_played),
            _form(ev.HeartsBroken, _hearts_broken),
            _form(ev.VariantTrickWon, _variant_trick_won),
            _form(ev.TrickWon, _trick_won),
            _form(ev.TrickCarried, _trick_carried),
            _form(ev.WidowTaken, _seat_cards(logged.WidowTaken)),
            _form(ev.WidowDiscarded, _seat_cards(logged.WidowDiscarded)),
            _form(ev.CardsDrawn, _seat_cards(logged.CardsDrawn)),
            _form(ev.SeatOut, _seat_only(logged.SeatOut)),
            _form(ev.LeftoverTaken, _seat_cards(logged.LeftoverTaken)),
            _form(ev.RestTaken, _seat_cards(logged.RestTaken)),
            _form(ev.MoonChoiceNeeded, _seat_only(logged.MoonChoiceNeeded)),
            _form(ev.HandScored, _hand_scored),
            _form(ev.GameOver, _game_over),
        ]
    )
)
"""The converter of each engine event class."""


def log_event(event: ev.Event, totals: list[int] | None = None, players: int = 4) -> LoggedEvent:
    """The logged form of one engine event (``seq`` is added on commit);
    ``players`` is the table's seat count (who played which card of a
    standard trick)."""
    # The nearest class with a converter: a variant's trick (a subclass of
    # TrickWon) has its own, which says who really played it.
    for cls in type(event).__mro__:
        convert = _FORMS.get(cls)
        if convert is not None:
            return convert(event, _Table(totals, players))
    raise UnknownEvent(f"no logged form for the engine event {type(event).__name__}")

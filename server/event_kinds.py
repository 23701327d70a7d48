"""The registry of event kinds: for every kind of logged event, its class
(``server.logged_events``), who may see it, how it is redacted for one
seat, and the wire models it may become (``protocol.server_messages``).

Who may see a kind (``Audience``):

- ``EVERY_SEAT``: every seat and spectator is sent it. Most kinds are the
  same for everybody; ``hand_dealt`` and the face-down kinds are redacted
  per seat (a seat sees its own cards, the others how many).
- ``OWN_SEAT``: one seat only (``cards_passed`` goes to its receiver as
  ``cards_received``; ``bot_covered`` to the player it covered).
- ``STORE``: nobody outside the store: kept in the log because it changes
  the table (a knock, a player allowed back), shown through the snapshots
  that follow, never as an event.

``redact_event`` is the one function that turns a logged event into what
one seat may be sent (docs/architecture.md property 3). An event of a kind
the registry does not know is a bug on our side: ``UnknownEvent`` is
raised, logged by whoever catches it, and nothing is sent.
``tests/server/test_event_kinds.py`` fails when a kind the engine or the
server can emit has no entry here, or when the wire models here and the
protocol's ``TableEvent`` differ.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any, cast

from pydantic import BaseModel

from protocol import server_messages as sm
from protocol.view import PassDirection

from . import logged_events as logged
from .errors import UnknownEvent
from .logged_events import Logged, LoggedEvent


class Audience(Enum):
    """Who may be sent a kind of event."""

    EVERY_SEAT = "every seat"
    OWN_SEAT = "its own seat only"
    STORE = "nobody outside the store"


Redact = Callable[[Logged, int | None], sm.TableEvent | None]


@dataclass(frozen=True, slots=True)
class EventKind:
    """One kind of logged event: its class, who may see it, how one seat's
    copy is made (None: nothing for that seat) and the wire models that
    copy may be. ``per_seat``: the copy depends on the seat (the fan-out
    encodes the other kinds once for all)."""

    logged: type[LoggedEvent]
    audience: Audience
    redact: Redact
    wire: tuple[type[BaseModel], ...]
    per_seat: bool

    @property
    def name(self) -> str:
        """The kind's ``type`` in the stored JSON."""
        return self.logged.kind


def _public(model: type[sm.TableEvent]) -> Redact:
    """The same copy for everybody: the wire model of the stored fields."""

    def redact(entry: Logged, seat: int | None) -> sm.TableEvent | None:
        return model.model_validate(entry.to_json())

    return redact


def _never(entry: Logged, seat: int | None) -> None:
    return None


def _hand_dealt(entry: Logged, seat: int | None) -> sm.TableEvent | None:
    event = entry.event
    assert isinstance(event, logged.HandDealt)  # the registry routes by class
    return sm.HandDealt(
        seq=entry.seq,
        hand_number=event.hand_number,
        direction=cast("PassDirection", event.direction),  # the engine's own
        cards=event.hands[seat] if seat is not None else (),
        # Never which cards lie face down: how many.
        stock_count=len(event.stock),
    )


def _cards_passed(entry: Logged, seat: int | None) -> sm.TableEvent | None:
    event = entry.event
    assert isinstance(event, logged.CardsPassed)
    if seat is None or seat != event.receiver:
        return None
    return sm.CardsReceived(seq=entry.seq, from_seat=event.giver, cards=event.cards)


_FaceDown = type[sm.WidowTaken | sm.WidowDiscarded | sm.CardsDrawn | sm.RestTaken]


def _face_down(model: _FaceDown) -> Redact:
    """Face-down cards: their owner sees them, everybody else how many."""

    def redact(entry: Logged, seat: int | None) -> sm.TableEvent | None:
        event = entry.event
        assert isinstance(
            event, logged.WidowTaken | logged.WidowDiscarded | logged.CardsDrawn | logged.RestTaken
        )
        own = seat is not None and seat == event.seat
        return model(
            seq=entry.seq,
            seat=event.seat,
            count=len(event.cards),
            cards=event.cards if own else (),
        )

    return redact


def _bot_covered(entry: Logged, seat: int | None) -> sm.TableEvent | None:
    # What a bot played in a player's name shows that player's cards.
    event = entry.event
    assert isinstance(event, logged.BotCovered)
    if seat is None or seat != event.seat:
        return None
    return sm.BotCovered.model_validate(entry.to_json())


def _every(cls: type[LoggedEvent], model: type[sm.TableEvent]) -> EventKind:
    return EventKind(cls, Audience.EVERY_SEAT, _public(model), (model,), per_seat=False)


def _face_down_kind(cls: type[LoggedEvent], model: _FaceDown) -> EventKind:
    return EventKind(cls, Audience.EVERY_SEAT, _face_down(model), (model,), per_seat=True)


def _store_only(cls: type[LoggedEvent]) -> EventKind:
    return EventKind(cls, Audience.STORE, _never, (), per_seat=False)


_ENTRIES = (
    # seats and the lobby
    _every(logged.SeatChanged, sm.SeatChanged),
    _store_only(logged.Knocked),
    _store_only(logged.KnockSettled),
    _store_only(logged.AllowedBack),
    _every(logged.ChatMessage, sm.ChatMessage),
    EventKind(logged.BotCovered, Audience.OWN_SEAT, _bot_covered, (sm.BotCovered,), True),
    # the game
    _every(logged.GameStarted, sm.GameStarted),
    EventKind(logged.HandDealt, Audience.EVERY_SEAT, _hand_dealt, (sm.HandDealt,), True),
    _every(logged.PassLocked, sm.PassLocked),
    EventKind(logged.CardsPassed, Audience.OWN_SEAT, _cards_passed, (sm.CardsReceived,), True),
    _every(logged.PlayBegins, sm.PlayBegins),
    _every(logged.CardPlayed, sm.CardPlayed),
    _every(logged.HeartsBroken, sm.HeartsBroken),
    _every(logged.TrickWon, sm.TrickWon),
    _every(logged.TrickCarried, sm.TrickCarried),
    _face_down_kind(logged.WidowTaken, sm.WidowTaken),
    _face_down_kind(logged.WidowDiscarded, sm.WidowDiscarded),
    _face_down_kind(logged.CardsDrawn, sm.CardsDrawn),
    _every(logged.SeatOut, sm.SeatOut),
    _every(logged.LeftoverTaken, sm.LeftoverTaken),
    _face_down_kind(logged.RestTaken, sm.RestTaken),
    _every(logged.MoonChoiceNeeded, sm.MoonChoiceNeeded),
    _every(logged.HandScored, sm.HandScored),
    _every(logged.GameOver, sm.GameOver),
    _every(logged.PlaysUndone, sm.PlaysUndone),
    _every(logged.ClaimMade, sm.ClaimMade),
)

KINDS: Mapping[str, EventKind] = MappingProxyType({k.name: k for k in _ENTRIES})
"""Every kind of logged event, by its ``type``."""

_BY_CLASS: Mapping[type[LoggedEvent], EventKind] = MappingProxyType({k.logged: k for k in _ENTRIES})


def kind_of(event: LoggedEvent) -> EventKind:
    """The registry's entry for ``event``; ``UnknownEvent`` if it has none."""
    kind = _BY_CLASS.get(type(event))
    if kind is None:
        raise UnknownEvent(f"no entry in the event registry for {type(event).__name__}")
    return kind


def redact_event(entry: Logged, seat: int | None) -> sm.TableEvent | None:
    """What ``seat`` (None: a spectator) may be sent of one logged event
    (None: nothing). ``UnknownEvent`` for a kind the registry lacks."""
    return kind_of(entry.event).redact(entry, seat)


def per_seat(entry: Logged) -> bool:
    """Whether what a seat is sent of ``entry`` depends on the seat."""
    return kind_of(entry.event).per_seat


def parse_event(body: bytes) -> Logged:
    """A stored event body read back (a resuming seat's replay).
    ``UnknownEvent`` for an unknown kind (a newer release's) or a body
    that is no event."""
    try:
        data: Any = json.loads(body)
        kind = KINDS.get(data["type"])
        if kind is None:
            raise UnknownEvent(f"a stored event of unknown kind {str(data['type'])[:40]!r}")
        return Logged(int(data["seq"]), logged.from_fields(kind.logged, data))
    except (ValueError, TypeError, KeyError) as exc:
        raise UnknownEvent("a stored event that cannot be read") from exc

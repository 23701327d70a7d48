"""The table's logged events, typed: what intents return, what a commit
numbers and stores, what the fan-out and a replay redact.

Each kind is a frozen dataclass whose ``kind`` is its ``type`` in the
stored JSON. The stored form of an event is ``{"type": kind, <its fields in
order>, "seq": n}``, compact JSON (``Logged.body``): the bytes every store
has kept since events were dicts, so stored logs, replays and clients
notice nothing. A logged event may hold hidden cards (``HandDealt`` every
hand and the face-down stock, ``CardsPassed`` a pass, the face-down kinds
their cards, ``BotCovered`` what a bot played for one player): what each
seat may be sent of it is decided by ``server.event_kinds``, the registry
of kinds, never here.

Cards are card texts (``"QS"``), as in hand records and on the wire.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .table_state import json_bytes


class _Event:
    """What every logged event shares: its kind and its stored fields."""

    __slots__ = ()
    kind: ClassVar[str]
    # Fields left out of the stored JSON while False: added to a kind after
    # its events were first stored, they keep the older events' bytes (a
    # reader takes the default).
    omit_if_false: ClassVar[frozenset[str]] = frozenset()

    def fields_json(self) -> dict[str, Any]:
        """``type`` and the fields, in order (without ``seq``)."""
        data: dict[str, Any] = {"type": self.kind}
        omitted = self.omit_if_false
        name: str
        for name in self.__slots__:
            value = getattr(self, name)
            if value is False and name in omitted:
                continue
            data[name] = value
        return data


Cards = tuple[str, ...]

# -- seats and the lobby (made by server.table_intents) ----------------------


@dataclass(frozen=True, slots=True)
class SeatChanged(_Event):
    """Seat ``seat["seat"]`` changed (``change``); ``seat`` is its public
    description as it is now (a ``SeatInfo``'s wire form)."""

    kind: ClassVar[str] = "seat_changed"
    seat: dict[str, Any]
    change: str


@dataclass(frozen=True, slots=True)
class Knocked(_Event):
    """A player asks the host to let them in (shown in the host's view)."""

    kind: ClassVar[str] = "knocked"
    player_id: str


@dataclass(frozen=True, slots=True)
class KnockSettled(_Event):
    """The host let a knocking player in, or sent them away."""

    kind: ClassVar[str] = "knock_settled"
    player_id: str
    accepted: bool


@dataclass(frozen=True, slots=True)
class AllowedBack(_Event):
    """The host allowed a kicked player back."""

    kind: ClassVar[str] = "allowed_back"
    player_id: str


@dataclass(frozen=True, slots=True)
class ChatMessage(_Event):
    """A chat line (``seat`` None: a spectator)."""

    kind: ClassVar[str] = "chat_message"
    seat: int | None
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class BotCovered(_Event):
    """What a bot did in ``seat``'s name (its cards: that seat's alone)."""

    kind: ClassVar[str] = "bot_covered"
    omit_if_false: ClassVar[frozenset[str]] = frozenset({"timed_out"})
    seat: int
    played: Cards
    passed: Cards
    moon_choice: str | None
    discarded: Cards = ()
    timed_out: bool = False
    # The same moves one by one, each with its hand (a ``CoveredMove``'s
    # wire form); events stored before it was kept have none.
    moves: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class GameStarted(_Event):
    """A game (or a rematch) started."""

    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class PlaysUndone(_Event):
    """``seat`` took back its last card and the bots' replies (``cards``)."""

    kind: ClassVar[str] = "plays_undone"
    seat: int
    cards: Cards
    trick: int


@dataclass(frozen=True, slots=True)
class ClaimMade(_Event):
    """``seat``'s claim of the ``tricks`` tricks left was proved."""

    kind: ClassVar[str] = "claim_made"
    seat: int
    tricks: int
    reason: str


# -- the game (made from engine events by server.table_events) --------------


@dataclass(frozen=True, slots=True)
class HandDealt(_Event):
    """A new hand: every seat's cards and the face-down ``stock`` (hidden)."""

    kind: ClassVar[str] = "hand_dealt"
    hand_number: int
    direction: str
    hands: tuple[Cards, ...]
    stock: Cards = ()  # events logged before variants existed have none


@dataclass(frozen=True, slots=True)
class PassLocked(_Event):
    """``seat`` locked its pass."""

    kind: ClassVar[str] = "pass_locked"
    seat: int


@dataclass(frozen=True, slots=True)
class CardsPassed(_Event):
    """``giver``'s pass reached ``receiver`` (the cards: theirs alone)."""

    kind: ClassVar[str] = "cards_passed"
    giver: int
    receiver: int
    cards: Cards


@dataclass(frozen=True, slots=True)
class PlayBegins(_Event):
    """``leader`` opens the first trick."""

    kind: ClassVar[str] = "play_begins"
    leader: int


@dataclass(frozen=True, slots=True)
class CardPlayed(_Event):
    """``seat`` played ``card`` to trick ``trick``."""

    kind: ClassVar[str] = "card_played"
    seat: int
    card: str
    trick: int


@dataclass(frozen=True, slots=True)
class HeartsBroken(_Event):
    """Hearts may be led from now on."""

    kind: ClassVar[str] = "hearts_broken"
    seat: int


@dataclass(frozen=True, slots=True)
class TrickWon(_Event):
    """A trick went to ``winner``; ``cards`` played by ``seats``."""

    kind: ClassVar[str] = "trick_won"
    trick: int
    leader: int
    winner: int
    cards: Cards
    points: int
    seats: tuple[int, ...] = ()
    cancelled: Cards = ()
    carried: Cards = ()


@dataclass(frozen=True, slots=True)
class TrickCarried(_Event):
    """Cancellation Hearts: nobody won trick ``trick``; its cards wait."""

    kind: ClassVar[str] = "trick_carried"
    trick: int
    leader: int
    cards: Cards
    seats: tuple[int, ...]
    cancelled: Cards


@dataclass(frozen=True, slots=True)
class WidowTaken(_Event):
    """``seat`` took the widow (the cards: its own; others see how many)."""

    kind: ClassVar[str] = "widow_taken"
    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True)
class WidowDiscarded(_Event):
    """``seat`` discarded face down (the cards: its own)."""

    kind: ClassVar[str] = "widow_discarded"
    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True)
class CardsDrawn(_Event):
    """Domino Hearts: ``seat`` drew from the stock (the cards: its own)."""

    kind: ClassVar[str] = "cards_drawn"
    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True)
class SeatOut(_Event):
    """Domino Hearts: ``seat`` is out of the hand."""

    kind: ClassVar[str] = "seat_out"
    seat: int


@dataclass(frozen=True, slots=True)
class LeftoverTaken(_Event):
    """Domino Hearts: ``seat`` takes the unplayed cards (public)."""

    kind: ClassVar[str] = "leftover_taken"
    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True)
class RestTaken(_Event):
    """Cancellation Hearts: the face-down rest joined ``seat``'s pile."""

    kind: ClassVar[str] = "rest_taken"
    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True)
class MoonChoiceNeeded(_Event):
    """``seat`` shot the moon and chooses how it scores."""

    kind: ClassVar[str] = "moon_choice_needed"
    seat: int


@dataclass(frozen=True, slots=True)
class HandScored(_Event):
    """The hand's points and the game's totals after it."""

    kind: ClassVar[str] = "hand_scored"
    hand_number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: int | None
    moon_choice: str | None


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """The game is over; ``winner`` has the lowest total."""

    kind: ClassVar[str] = "game_over"
    totals: tuple[int, ...]
    winner: int


LoggedEvent = (
    SeatChanged
    | Knocked
    | KnockSettled
    | AllowedBack
    | ChatMessage
    | BotCovered
    | GameStarted
    | PlaysUndone
    | ClaimMade
    | HandDealt
    | PassLocked
    | CardsPassed
    | PlayBegins
    | CardPlayed
    | HeartsBroken
    | TrickWon
    | TrickCarried
    | WidowTaken
    | WidowDiscarded
    | CardsDrawn
    | SeatOut
    | LeftoverTaken
    | RestTaken
    | MoonChoiceNeeded
    | HandScored
    | GameOver
)
"""Every kind of logged event (``server.event_kinds`` has an entry for each)."""

Events = list[LoggedEvent]
"""What an intent returns: its events, not yet numbered."""


@dataclass(frozen=True, slots=True)
class Logged:
    """A committed event: its number in the table's log, and the event."""

    seq: int
    event: LoggedEvent

    def to_json(self) -> dict[str, Any]:
        """The stored form: ``type``, the event's fields, ``seq``."""
        data = self.event.fields_json()
        data["seq"] = self.seq
        return data

    def body(self) -> bytes:
        """The stored bytes (compact JSON)."""
        return json_bytes(self.to_json())


def from_fields(cls: type[LoggedEvent], data: dict[str, Any]) -> LoggedEvent:
    """An event of kind ``cls`` from its stored JSON: lists become tuples,
    a field an older release did not write takes its default, and a field
    a newer release added is ignored (a forward-compatible read)."""
    values = {name: _frozen(data[name]) for name in cls.__slots__ if name in data}
    return cls(**values)


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value

"""Events: what the engine says happened, in order.

Events are plain frozen dataclasses of ints and tuples. Some carry hidden
information: the engine does not know who may see what; the server's single
redaction function decides that, and each event's docstring says whose its
hidden cards are:

| event | hidden cards | who may see them |
| --- | --- | --- |
| ``HandDealt`` | ``hands[s]``; ``stock`` | seat ``s``; nobody |
| ``CardsPassed`` | ``cards`` | ``giver`` and ``receiver`` |
| ``WidowTaken`` | ``cards`` | ``seat`` (others: how many) |
| ``WidowDiscarded`` | ``cards`` | ``seat`` (others: how many) |
| ``CardsDrawn`` | ``cards`` | ``seat`` (others: how many) |
| ``RestTaken`` | ``cards`` | ``seat`` (others: how many) |

Everything else is public. At the hand's end the hand record shows all.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A new hand: ``hands`` holds every seat's cards as bitmasks (hidden)."""

    hand_number: int
    direction: str
    hands: tuple[int, ...]
    # the face-down cards (widow, domino stock, cancellation rest), top
    # first: hidden from every seat
    stock: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PassLocked:
    """``seat`` has locked its pass (public: who has passed)."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardsPassed:
    """``giver``'s passed cards reached ``receiver`` (private to both)."""

    giver: int
    receiver: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayBegins:
    """Passing is over (or there was none); ``leader`` opens the first trick."""

    leader: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card`` to trick ``trick`` (0-based)."""

    seat: int
    card: int
    trick: int


@dataclass(frozen=True, slots=True)
class HeartsBroken:
    """A heart (or Q♠ where it breaks hearts) was played; hearts may be led."""

    by_seat: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    """Trick ``trick`` went to ``winner``; ``cards`` in play order from ``leader``."""

    trick: int
    leader: int
    winner: int
    cards: tuple[int, ...]
    points: int


@dataclass(frozen=True, slots=True)
class VariantTrickWon(TrickWon):
    """A ``TrickWon`` of the widow, domino and two-deck variants, with what
    the standard game never needs (kept apart so its events stay as cheap).

    ``seats`` are the seats that played ``cards`` (Domino Hearts skips the
    seats that dropped out). With two decks ``cancelled`` are the cards that
    cancelled and ``carried`` the cards of earlier winnerless tricks the
    winner takes along; ``points`` counts the trick's cards and the carried
    ones. All public.
    """

    seats: tuple[int, ...] = ()
    cancelled: tuple[int, ...] = ()
    carried: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TrickCarried:
    """Cancellation Hearts: every card of the led suit in trick ``trick``
    cancelled, so nobody won it; its cards go to the winner of the next
    trick that has one, and ``leader`` leads again. Public."""

    trick: int
    leader: int
    cards: tuple[int, ...]
    seats: tuple[int, ...]
    cancelled: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WidowTaken:
    """Hearts with a widow: ``seat`` won the first trick and took the widow
    into its hand. ``cards`` are private to ``seat``; the others may learn
    how many."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WidowDiscarded:
    """``seat`` discarded ``cards`` face down to its taken pile; they score
    for it. ``cards`` are private to ``seat``; the others may learn how many."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """Domino Hearts: ``seat`` could not follow and drew ``cards`` from the
    stock (until one followed or the stock ran out). ``cards`` are private
    to ``seat``; the others may learn how many."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatOut:
    """Domino Hearts: ``seat`` played its last card and drops out. Public."""

    seat: int


@dataclass(frozen=True, slots=True)
class LeftoverTaken:
    """Domino Hearts: play is over; ``seat`` takes the cards still unplayed
    (the last hand and the stock). Public: the hand is over."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RestTaken:
    """Cancellation Hearts: the face-down rest joined ``seat``'s taken pile
    with the first trick it won. ``cards`` are private to ``seat``; the
    others may learn how many."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MoonChoiceNeeded:
    """``seat`` shot the moon and the rules let it choose the scoring."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandScored:
    """The hand's points per seat, after moon scoring."""

    hand_number: int
    points: tuple[int, ...]
    shooter: int | None
    moon_choice: str | None


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game has a winner: the single lowest total."""

    totals: tuple[int, ...]
    winner: int


Event = (
    HandDealt
    | PassLocked
    | CardsPassed
    | PlayBegins
    | CardPlayed
    | HeartsBroken
    | TrickWon
    | VariantTrickWon
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

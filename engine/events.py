"""Events: what the engine says happened, in order.

Events are plain frozen dataclasses of ints and tuples. Some carry hidden
information (``HandDealt.hands``, ``CardsPassed``): the engine does not know
who may see what; the server's single redaction function decides that.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A new hand: ``hands`` holds every seat's cards as bitmasks (hidden)."""

    hand_number: int
    direction: str
    hands: tuple[int, ...]


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
    | MoonChoiceNeeded
    | HandScored
    | GameOver
)

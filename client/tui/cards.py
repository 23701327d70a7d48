"""Cards for display: order in the hand, labels with suit symbols, colours.

Cards travel as two characters (``"QS"``, ``"TD"``); the hand is shown
sorted by suit (clubs, diamonds, hearts, spades, as docs/rules.md orders them)
and by rank within a suit, with ``10`` for the ten.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final

SUITS: Final = "CDHS"
RANKS: Final = "23456789TJQKA"
SYMBOLS: Final[Mapping[str, str]] = MappingProxyType({"C": "♣", "D": "♦", "H": "♥", "S": "♠"})
RED_SUITS: Final = frozenset("DH")
QUEEN_OF_SPADES: Final = "QS"
# The letters under the cards of a hand: a–m, then (a hand of more than 13
# cards: three seats, the widow, Cancellation's seven seats) capitals that
# no other key uses (H is the hint, C the claim).
KEYS: Final = "abcdefghijklm" + "ABDEFGIJ"


def suit_of(card: str) -> str:
    """The suit letter of a card."""
    return card[1]


def rank_label(card: str) -> str:
    """``10`` for a ten, the rank letter otherwise."""
    return "10" if card[0] == "T" else card[0]


def is_second_copy(card: str) -> bool:
    """The second deck's copy of a card (Cancellation Hearts: ``QS2``)."""
    return len(card) == 3


def label(card: str) -> str:
    """``10♥``, ``Q♠``: rank and suit symbol; ``Q♠²`` for the second deck's copy."""
    return rank_label(card) + SYMBOLS[card[1]] + ("²" if is_second_copy(card) else "")


def is_red(card: str) -> bool:
    """Hearts and diamonds are red."""
    return card[1] in RED_SUITS


def sort_key(card: str) -> tuple[int, int, bool]:
    """Suit first (♣ ♦ ♥ ♠), then rank, two lowest (a second deck's copy
    after the first's)."""
    return SUITS.index(card[1]), RANKS.index(card[0]), is_second_copy(card)


def sorted_hand(cards: Iterable[str]) -> list[str]:
    """Cards in display order."""
    return sorted(cards, key=sort_key)


def labels(cards: Iterable[str]) -> str:
    """``2♣ 5♦ Q♠`` for a few cards."""
    return " ".join(label(c) for c in sorted_hand(cards))


def is_penalty(card: str) -> bool:
    """Hearts and Q♠ carry points in the standard game."""
    return card[1] == "H" or card == QUEEN_OF_SPADES

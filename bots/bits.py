"""Small bitmask helpers and card constants shared by the bots."""

from __future__ import annotations

from engine.cards import (
    ACE_SPADES,
    HEARTS,
    HEARTS_MASK,
    KING_SPADES,
    QUEEN_SPADES,
    SPADES,
    SUIT_MASKS,
)

QS_BIT = 1 << QUEEN_SPADES
SPADES_MASK = SUIT_MASKS[SPADES]
HIGH_SPADES = 1 << KING_SPADES | 1 << ACE_SPADES
"""A♠ and K♠: the cards that catch Q♠ when spades are led."""
LOW_SPADES = SPADES_MASK & (QS_BIT - 1)
"""2♠..J♠: spades that can duck under Q♠."""
NOT_HEARTS = ~HEARTS_MASK
NOT_QS = ~QS_BIT
MINOR_SUITS = (0, 1)
"""Clubs and diamonds: the suits one voids early."""
__all__ = [
    "HEARTS",
    "HEARTS_MASK",
    "HIGH_SPADES",
    "LOW_SPADES",
    "MINOR_SUITS",
    "NOT_HEARTS",
    "NOT_QS",
    "QS_BIT",
    "SPADES",
    "SPADES_MASK",
    "SUIT_MASKS",
    "below",
    "highest",
    "lowest",
    "rank",
]


def highest(mask: int) -> int:
    """The highest card of a non-empty ``mask``."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest card of a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1


def below(card: int) -> int:
    """Every card under ``card`` in int order (mask with a suit to get the
    lower cards of that suit)."""
    return (1 << card) - 1


def rank(card: int) -> int:
    """Rank 0 (two) .. 12 (ace)."""
    return card % 13


class DistinctSets:
    """Sets of exactly ``count`` cards as bitmasks, each kept once, in the
    order first added (the candidate passes and widow discards)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.masks: list[int] = []
        self._seen: set[int] = set()

    def add(self, cards: list[int] | tuple[int, ...]) -> None:
        """Keep ``cards`` if they are ``count`` cards not kept before."""
        m = 0
        for c in cards:
            m |= 1 << c
        if m not in self._seen and m.bit_count() == self.count:
            self._seen.add(m)
            self.masks.append(m)

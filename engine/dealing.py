"""A new hand of whichever class the rules need.

``Hand`` plays every variant whose rules are data alone; the widow, the
domino stock and two decks need ``VariantHand``'s extra steps. These two
functions are how the rest of the project starts a hand, so nothing else
asks which class a variant needs (and ``engine.hand`` never imports its
subclass).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .hand import Hand
from .rules import Rules
from .variant_hand import VariantHand, deal_variant


def new_hand(
    rules: Rules, hand_number: int, hands: Sequence[int], stock: Sequence[int] = ()
) -> Hand:
    """Start hand ``hand_number`` (1-based) from the given bitmask hands and
    the face-down ``stock`` (top first) where the variant deals one.

    Raises ``ValueError`` when the hands are not a fair deal of the rules'
    deck."""
    if rules.tables.fast:
        return Hand(rules, hand_number, hands, stock)
    return VariantHand(rules, hand_number, hands, stock)


def deal_hand(rules: Rules, hand_number: int, rng: random.Random) -> Hand:
    """Deal hand ``hand_number`` with ``rng`` (inject a seeded
    ``random.Random``): the same deal for the same seed on any Python."""
    if rules.tables.fast:
        return Hand.deal(rules, hand_number, rng)
    return deal_variant(rules, hand_number, rng)

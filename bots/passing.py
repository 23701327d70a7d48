"""Choosing the cards to pass.

``careful_pass`` is the habit of a careful player (seed 000, "Поради"): pass
the cards hardest to get rid of — Q♠ together with K♠/A♠ when short of low
spades, high hearts, high clubs and diamonds — and prefer a pass that voids
a short club or diamond suit. A hand that can shoot the moon keeps its
strength and passes its lowest cards instead. Medium and Hard both use it;
with a variant's penalties (Spot, Black Maria) a card's danger is read from
what it costs there.
"""

from __future__ import annotations

import random

from engine.cards import QUEEN_SPADES, cards_of

from .bits import HEARTS_MASK, HIGH_SPADES, LOW_SPADES, MINOR_SUITS, QS_BIT, SUIT_MASKS, rank
from .moon import moon_hand

VOID_BONUS = 30.0
"""What making a club/diamond void is worth next to one card's danger."""


def card_dangers(hand: int, penalty: tuple[int, ...] = ()) -> dict[int, float]:
    """How much each card of ``hand`` is worth passing (higher = pass it).

    ``penalty`` is a variant's per-card penalties (``Rulebook.penalty``;
    empty for the standard game): where Q♠ costs nothing (Spot Hearts)
    spades are a side suit like clubs, a heart costing more than one point
    (Spot: its rank) weighs that much more, and A♠/K♠ that cost points
    themselves (Black Maria: 7 and 10) are worth passing even with low
    spades to duck under."""
    low_spades = (hand & LOW_SPADES).bit_count()
    short = low_spades <= 2
    has_queen = bool(hand & QS_BIT)
    queen_costs = not penalty or penalty[QUEEN_SPADES] > 0
    danger: dict[int, float] = {}
    for c in cards_of(hand):
        r = rank(c)
        suit = c // 13
        bit = 1 << c
        cost = penalty[c] if penalty else 0
        if suit == 3 and not queen_costs:
            lows = sum(1 for x in cards_of(hand & SUIT_MASKS[suit]) if rank(x) <= 4)
            d = (10.0 + 3.0 * r if r >= 9 else float(r)) - 4.0 * lows
        elif bit & QS_BIT:
            # A queen with three or more low spades is protected: keep it
            # and dump it later on someone else.
            d = 100.0 if short else -20.0
        elif bit & HIGH_SPADES:
            d = (90.0 if has_queen else 70.0) if short else 12.0 if not has_queen else 5.0
            d += 3.0 * cost
        elif suit == 3:
            d = -10.0 + r  # low spades shield against Q♠: keep them
        elif suit == 2:
            d = 20.0 + 3.0 * r if r >= 8 else float(r)
            d += 2.0 * max(cost - 1, 0)
        else:
            # High minor cards are less dangerous with low cards to duck under.
            lows = sum(1 for x in cards_of(hand & SUIT_MASKS[suit]) if rank(x) <= 4)
            d = (10.0 + 3.0 * r if r >= 9 else float(r)) - 4.0 * lows
        danger[c] = d
    return danger


def careful_pass(hand: int, count: int, penalty: tuple[int, ...] = ()) -> list[int]:
    """The ``count`` cards a careful player passes from ``hand`` (sorted);
    ``penalty`` as for ``card_dangers``."""
    if count <= 0:
        return []
    if moon_hand(hand):
        return _moon_pass(hand, count)
    danger = card_dangers(hand, penalty)
    ranked = sorted(danger, key=lambda c: (-danger[c], c))
    best = ranked[:count]
    best_value = sum(danger[c] for c in best)
    # Where Q♠ costs nothing a spade void serves as well as a minor one.
    voidable = MINOR_SUITS if not penalty or penalty[QUEEN_SPADES] else (*MINOR_SUITS, 3)
    for suit in voidable:
        suit_cards = cards_of(hand & SUIT_MASKS[suit])
        if not 0 < len(suit_cards) <= count:
            continue
        rest = [c for c in ranked if c not in suit_cards][: count - len(suit_cards)]
        choice = suit_cards + rest
        value = sum(danger[c] for c in choice) + VOID_BONUS
        if value > best_value:
            best, best_value = choice, value
    return sorted(best)


def _moon_pass(hand: int, count: int) -> list[int]:
    """A hand going for the moon keeps every winner and gives away the
    lowest cards outside hearts."""
    order = sorted(cards_of(hand), key=lambda c: (bool(1 << c & HEARTS_MASK), rank(c), c))
    return sorted(order[:count])


def casual_pass(hand: int, count: int, rng: random.Random) -> list[int]:
    """A casual pass: ``count`` cards drawn from the five highest ranks."""
    order = sorted(cards_of(hand), key=lambda c: (-rank(c), c))
    pool = order[: max(count, 5)]
    return sorted(rng.sample(pool, count))

"""Easy: a casual player, a good opponent for learning the rules.

It passes some of its highest cards, plays the lowest card it may, discards
its highest, and now and then plays any card it likes. It is never suicidal:
it does not win a trick with Q♠ or lead Q♠ while it has another choice.
"""

from __future__ import annotations

import random

from engine.cards import QUEEN_SPADES, SUIT_OF, cards_of

from .bits import NOT_QS, QS_BIT, SUIT_MASKS, lowest, rank
from .knowledge import Knowledge

WHIM = 0.3
"""How often Easy plays a random (but not suicidal) card."""


def easy_play(k: Knowledge, rng: random.Random) -> int:
    """Easy's card for its turn (``k.legal`` must not be empty)."""
    legal = k.legal
    safe = legal & ~_suicidal(k, legal) or legal
    if rng.random() < WHIM:
        choices = cards_of(safe)
        return choices[int(rng.random() * len(choices))]
    if not k.trick:
        return lowest(safe & NOT_QS or safe)
    f = safe & SUIT_MASKS[SUIT_OF[k.trick[0]]]
    if f:
        return lowest(f)
    return max(cards_of(safe), key=lambda c: (c == QUEEN_SPADES, rank(c), c))


def _suicidal(k: Knowledge, legal: int) -> int:
    """Cards Easy avoids: Q♠ as a lead, or Q♠ winning the trick."""
    if not legal & QS_BIT:
        return 0
    if not k.trick:
        return QS_BIT
    lead = k.trick[0]
    if SUIT_OF[lead] != 3:
        return 0
    best = max(c for c in k.trick if SUIT_OF[c] == 3)
    return QS_BIT if best < QUEEN_SPADES else 0

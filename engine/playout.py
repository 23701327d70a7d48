"""Fast random playouts: the unchecked path that search and benchmarks share.

``random_playout`` finishes a hand from any position in the PLAY phase with
each card chosen uniformly among the legal ones, and returns the hand's
points. It never touches the ``Hand`` it starts from and builds no objects in
its loop: cards are ints, hands bitmasks, a random card of one suit is one
table lookup (``RANKS_IN``) and one index. The legality it applies is the
same as ``Hand._legal`` (RULES.md rules 3-6); tests check the two agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .cards import HEARTS_MASK, RANKS_IN, SUIT_OF, mask_of
from .hand import Hand, Phase

_NOT_HEARTS = ~HEARTS_MASK


def random_card(mask: int, rnd: Callable[[], float]) -> int:
    """A uniformly random card of a non-empty ``mask``."""
    k = int(rnd() * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def random_playout(hand: Hand, rng: random.Random) -> list[int]:
    """Play ``hand`` to its end at random; return each seat's points.

    Moon scoring follows the rules; where the shooter may choose, the
    playout takes "add" (others +26), the usual choice. ``hand`` must be in
    the PLAY phase and is left unchanged.
    """
    if hand.phase is not Phase.PLAY:
        raise ValueError("random_playout needs a hand in the play phase")
    t = hand.rules.tables
    n = t.players
    size = t.hand_size
    banned = ~t.first_trick_banned
    breakers = t.breakers
    ranks_in = RANKS_IN
    suit_of = SUIT_OF
    rnd = rng.random
    nxt = [(s + 1) % n for s in range(n)]
    hands = hand.hands[:]
    taken = hand.taken[:]
    broken = hand.broken
    ti = hand.trick_index
    turn = hand.turn
    played = len(hand.trick)
    lo = best = tmask = 0
    winner = turn
    if played:
        cards = hand.trick
        lo = suit_of[cards[0]] * 13
        best, at = cards[0], 0
        for i, c in enumerate(cards):
            tmask |= 1 << c
            if c > best and lo <= c < lo + 13:
                best, at = c, i
        winner = (hand.leader + at) % n
    while True:
        h = hands[turn]
        if not played:
            if ti == 0:
                c = t.first_lead
            elif broken or not h & _NOT_HEARTS:
                c = random_card(h, rnd)
            else:
                c = random_card(h & _NOT_HEARTS, rnd)
            lo = suit_of[c] * 13
            best = c
            winner = turn
            tmask = 1 << c
        else:
            f = h >> lo & 0x1FFF
            if f:
                r = ranks_in[f]
                c = lo + r[int(rnd() * len(r))]
                if c > best:
                    best = c
                    winner = turn
            elif ti == 0 and h & banned:
                c = random_card(h & banned, rnd)
            else:
                c = random_card(h, rnd)
            tmask |= 1 << c
        hands[turn] = h ^ (1 << c)
        played += 1
        if played < n:
            turn = nxt[turn]
            continue
        taken[winner] |= tmask
        if tmask & breakers:
            broken = True
        ti += 1
        if ti == size:
            break
        turn = winner
        played = 0
    return score_taken(hand, taken)


def score_taken(hand: Hand, taken: list[int]) -> list[int]:
    """Points per seat for complete taken piles, moon rules applied."""
    t = hand.rules.tables
    sp0, sp1, sp2, sp3 = t.suit_penalty
    pts = [
        sp0[m & 0x1FFF] + sp1[m >> 13 & 0x1FFF] + sp2[m >> 26 & 0x1FFF] + sp3[m >> 39]
        for m in taken
    ]
    moon = t.moon_cards
    for s, m in enumerate(taken):
        if m & moon == moon:
            worth = t.moon_points
            if hand.rules.moon == "subtract":
                pts[s] -= 2 * worth
            else:
                pts = [p + worth for p in pts]
                pts[s] -= 2 * worth
            break
    return pts


def random_pass(hand: Hand, seat: int, rng: random.Random) -> list[int]:
    """A uniformly random legal pass for ``seat`` (used by benchmarks and Easy)."""
    h = hand.hands[seat]
    chosen: list[int] = []
    for _ in range(hand.rules.pass_count):
        c = random_card(h, rng.random)
        chosen.append(c)
        h ^= 1 << c
    return chosen


def random_hand(hand: Hand, rng: random.Random) -> list[int]:
    """Pass at random (when the hand passes) and play the hand out at random."""
    if hand.phase is Phase.PASS:
        hand.pass_all_unchecked([mask_of(random_pass(hand, s, rng)) for s in range(hand.players)])
    return random_playout(hand, rng)

"""A fast heuristic playout: every seat plays like a sensible, simple player.

The Hard bot values a card by playing many imagined deals to the end, so the
quality of those imagined games decides how good its estimates are, and
their speed decides how many it can afford. Uniformly random playouts are
fast but wildly pessimistic (random players eat the Q♠ all the time), so
each seat here follows a few cheap rules instead, reading only its own
hand, the trick and the cards already played (never another seat's hand):

* lead: a low spade to smoke out Q♠ when it is still out and we hold no
  high spade; otherwise the lowest card of the suit where the fewest lower
  cards are still out (the lead most likely to lose), shortest suit first,
  and never spades while holding Q♠;
* follow: duck with the highest card that still loses; when forced to win,
  win with the lowest card unless we play last, then shed the highest;
  playing last to a trick without points, win it with the highest card;
* discard: Q♠, then A♠/K♠ while Q♠ is out, then the highest heart, then
  the highest card left.

Optionally (``noise > 0``) a seat plays a uniformly random legal card with
that probability, which keeps the imagined opponents from being perfectly
predictable.

The loop is the same shape as ``engine.playout.random_playout``: ints and
bitmasks only, no objects built per card.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import FULL_DECK, QUEEN_SPADES, SUIT_MASKS, SUIT_OF
from engine.playout import random_card

from .bits import (
    HEARTS_MASK,
    HIGH_SPADES,
    LOW_SPADES,
    NOT_HEARTS,
    NOT_QS,
    QS_BIT,
    SPADES_MASK,
)
from .rulebook import Rulebook

_SUITS = (0, 1, 2, 3)
_PLAIN_SUITS = (SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2])
MOON_ALERT = 7
"""Points one seat must hold alone before the others start stopping a moon."""


def lead_card(h: int, legal: int, played: int) -> int:
    """The rollout policy's lead from hand ``h`` (``legal`` the leadable part)."""
    if not played & QS_BIT and not h & QS_BIT:
        low = legal & LOW_SPADES
        if low:
            high = (h & HIGH_SPADES).bit_count()
            # Smoke out the queen unless our own A/K♠ would catch it.
            if not high or low.bit_count() >= high + 2:
                return low.bit_length() - 1
    out = ~played & ~h
    best_c = -1
    best_key = 1 << 30
    for sm in _PLAIN_SUITS:
        m = legal & sm
        if m:
            c = (m & -m).bit_length() - 1
            others = out & sm
            # Nobody else can follow (4096): we would win and eat the discards.
            key = (others & ((1 << c) - 1)).bit_count() * 16 + m.bit_count() if others else 4096
            if key < best_key:
                best_key = key
                best_c = c
    m = legal & SPADES_MASK
    if m:
        cand = m & NOT_QS or m
        c = (cand & -cand).bit_length() - 1
        others = out & SPADES_MASK
        key = (others & ((1 << c) - 1)).bit_count() * 16 + m.bit_count() if others else 4096
        if c == QUEEN_SPADES:
            key += 8192
        elif h & QS_BIT:
            key += 1024  # never invite the spade that drops Q♠ on us
        elif c > QUEEN_SPADES and not played & QS_BIT:
            key += 2048  # A/K♠ lead while the queen is out
        if key < best_key:
            best_c = c
    return best_c


def discard_card(h: int, played: int) -> int:
    """The rollout policy's discard (void in the led suit) from ``h``."""
    if h & QS_BIT:
        return QUEEN_SPADES
    if not played & QS_BIT:
        hs = h & HIGH_SPADES
        if hs:
            return hs.bit_length() - 1
    hh = h & HEARTS_MASK
    if hh:
        return hh.bit_length() - 1
    best_c = -1
    best_rank = -1
    for s in _SUITS:
        m = h & SUIT_MASKS[s]
        if m:
            c = m.bit_length() - 1
            r = c - s * 13
            if r > best_rank:
                best_rank = r
                best_c = c
    return best_c


def heuristic_playout(
    t: Rulebook,
    hands: list[int],
    taken: list[int],
    trick: list[int],
    leader: int,
    trick_index: int,
    broken: bool,
    played: int,
    rnd: Callable[[], float],
    noise: float = 0.0,
) -> list[int]:
    """Play a position to the end with the heuristic policy; return ``taken``.

    ``hands`` and ``taken`` are modified in place (pass copies). ``trick``
    holds the cards of the current trick from ``leader`` on (it may be full:
    then it is resolved first). ``played`` is every card played so far,
    the current trick included (cards not in the deck count as played).
    """
    n = t.players
    size = t.hand_size
    # Cards taken out of the deck for the seat count (5-10 seats: the low
    # clubs and diamonds) are out of play like played ones: otherwise a
    # seat would count them as lower cards still out and misjudge its lead.
    played |= FULL_DECK & ~t.deck
    banned = ~t.first_trick_banned
    breakers = t.breakers
    points = t.point_cards
    moon_cards = t.moon_cards
    first_lead = t.first_lead
    # The first trick carries no points under the standard rule: follow it
    # with the highest card to get rid of it.
    first_high = bool(t.first_trick_banned & HEARTS_MASK)
    ti = trick_index
    pos = len(trick)
    turn = (leader + pos) % n
    lo = best = tmask = 0
    winner = leader
    # The only seat with points so far (-1: nobody yet, -2: several) and its
    # points: others take a point from it rather than let it shoot the moon.
    holder = -1
    hpts = 0
    for s, m in enumerate(taken):
        m &= moon_cards
        if m:
            holder = s if holder == -1 else -2
            hpts = (m & HEARTS_MASK).bit_count() + (13 if m & QS_BIT else 0)
    if pos:
        lo = SUIT_OF[trick[0]] * 13
        best = trick[0]
        for i, c in enumerate(trick):
            tmask |= 1 << c
            if c > best and lo <= c < lo + 13:
                best = c
                winner = (leader + i) % n
    last = n - 1
    while True:
        if pos == n:
            taken[winner] |= tmask
            if tmask & breakers:
                broken = True
            m = tmask & moon_cards
            if m and holder != -2:
                if holder == -1 or holder == winner:
                    holder = winner
                    hpts += (m & HEARTS_MASK).bit_count() + (13 if m & QS_BIT else 0)
                else:
                    holder = -2
            ti += 1
            if ti == size:
                break
            turn = winner
            pos = 0
        h = hands[turn]
        if not pos:
            if ti == 0:
                c = first_lead
            else:
                legal = h if broken or not h & NOT_HEARTS else h & NOT_HEARTS
                if noise and rnd() < noise:
                    c = random_card(legal, rnd)
                else:
                    c = lead_card(h, legal, played)
            lo = SUIT_OF[c] * 13
            best = c
            winner = turn
            tmask = 1 << c
        else:
            threat = winner == holder and hpts >= MOON_ALERT and holder != turn
            f = h & (0x1FFF << lo)
            if f:
                if noise and rnd() < noise:
                    c = random_card(f, rnd)
                elif threat and tmask & points and f >> best:
                    over = f & ~((1 << best) - 1)
                    c = (over & NOT_QS or over).bit_length() - 1
                elif ti == 0 and first_high:
                    c = f.bit_length() - 1
                elif pos == last and not tmask & points:
                    cand = f & NOT_QS or f
                    c = cand.bit_length() - 1
                else:
                    below = f & ((1 << best) - 1)
                    if below:
                        c = below.bit_length() - 1
                    elif pos == last:
                        cand = f & NOT_QS or f
                        c = cand.bit_length() - 1
                    else:
                        cand = f & NOT_QS or f
                        c = (cand & -cand).bit_length() - 1
                if c > best:
                    best = c
                    winner = turn
            else:
                d = h & banned if ti == 0 and h & banned else h
                if threat:
                    d = d & ~points or d  # do not feed a moon
                c = random_card(d, rnd) if noise and rnd() < noise else discard_card(d, played)
            tmask |= 1 << c
        hands[turn] = h ^ (1 << c)
        played |= 1 << c
        pos += 1
        if pos < n:
            turn = turn + 1 if turn < last else 0
    return taken

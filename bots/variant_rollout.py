"""Rollouts for the variants with extra steps: the widow, the domino stock,
two decks (docs/rules.md "Variants").

``bots.rollout`` plays a position as ints in one tight loop; it knows one
deck and every seat in every trick, so it serves the standard game and the
variants that only change data (seats, penalties, the moon). The widow's
take-and-discard, domino draws and seats dropping out, and cancelled
identical cards are steps of the engine's ``VariantHand``; rather than copy
those rules here, a sampled world is set up as a ``VariantHand`` and played
to the end through its unchecked search path (``apply_unchecked``,
``discard_unchecked``), each seat following a cheap policy that reads only
its own hand and the trick:

* lead: its lowest card that costs nothing, else its lowest card;
* follow: the highest card that still loses the trick; when it must win,
  the lowest card, or the highest when it plays last to a trick worth
  nothing;
* discard (void in the led suit): its costliest card, the highest first;
* widow discard: the highest cards that cost nothing (the discard joins the
  taker's own pile, so it keeps its penalty cards in hand to shed later).

Optionally (``noise > 0``) a seat plays a uniformly random legal card.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.cards import RANK_OF, SUIT_OF, cards_of
from engine.dealing import deal_hand
from engine.hand import Phase
from engine.rules import Rules
from engine.variant_hand import VariantHand

from .knowledge import Knowledge


def template_hand(rules: Rules, hand_number: int) -> VariantHand:
    """Any hand of ``rules``: ``world_hand`` copies it and sets every field a
    position needs (the deal itself is overwritten)."""
    hand = deal_hand(rules, hand_number, random.Random(0))
    if not isinstance(hand, VariantHand):
        raise ValueError("these rules are played by the fast rollout, not a VariantHand")
    return hand


def world_hand(
    template: VariantHand,
    k: Knowledge,
    hands: list[int],
    stock: list[int],
    hidden: list[int],
) -> VariantHand:
    """The position of ``k`` in one sampled world, as a ``VariantHand`` in
    the play phase with ``k.seat`` to move.

    ``hands``, ``stock`` and ``hidden`` are a ``DealSampler.sample_world``.
    """
    h = template.copy()
    n = k.players
    h.hands = hands[:]
    h.stock = stock[:]
    taken = [k.taken[s] | hidden[s] for s in range(n)]
    taken[k.seat] |= k.own_hidden
    h.taken = taken
    h.hidden_taken = [hidden[s] for s in range(n)]
    h.hidden_taken[k.seat] = k.own_hidden
    h.trick = k.trick[:]
    h.trick_index = k.trick_index
    h.broken = k.broken
    h.carried = k.carried
    h.phase = Phase.PLAY
    leader = k.trick_leader
    order = list(k.trick_seats)
    if not order:
        order = [leader]
    for i in range(1, n):
        s = (leader + i) % n
        if s not in order and hands[s]:
            order.append(s)
    h.trick_order = order
    h.leader = leader
    h.turn = k.seat
    # Our candidate is the next card, so the first lead is never asked.
    h.first_lead = -1
    return h


def widow_discard(hand: int, count: int, penalty: tuple[int, ...]) -> int:
    """The policy's widow discard: ``count`` cards of ``hand`` (a mask), the
    highest of those that cost nothing first."""
    order = sorted(cards_of(hand), key=lambda c: (penalty[c] != 0, -RANK_OF[c], c))
    m = 0
    for c in order[:count]:
        m |= 1 << c
    return m


def policy_card(h: VariantHand, legal: int) -> int:
    """The policy's card for the seat to move in ``h`` (see the module doc)."""
    penalty = h.rules.tables.penalty
    cards = cards_of(legal)
    if not h.trick:
        free = [c for c in cards if not penalty[c]]
        return min(free or cards, key=lambda c: (RANK_OF[c], c))
    led = SUIT_OF[h.trick[0]]
    follow = [c for c in cards if SUIT_OF[c] == led]
    if not follow:
        return max(cards, key=lambda c: (penalty[c], RANK_OF[c], c))
    best = max(RANK_OF[c] for c in h.trick if SUIT_OF[c] == led)
    under = [c for c in follow if RANK_OF[c] < best]
    if under:
        return max(under, key=lambda c: (RANK_OF[c], c))
    last = len(h.trick) == len(h.trick_order) - 1
    if last and not any(penalty[c] > 0 for c in h.trick):
        return max(follow, key=lambda c: (RANK_OF[c], c))
    return min(follow, key=lambda c: (penalty[c] > 0, RANK_OF[c], c))


def variant_playout(h: VariantHand, rnd: Callable[[], float], noise: float = 0.0) -> list[int]:
    """Play ``h`` (modified in place: pass a copy) to the end of the hand with
    the policy; return every seat's taken pile."""
    penalty = h.rules.tables.penalty
    while True:
        phase = h.phase
        if phase is Phase.PLAY:
            legal = h.legal_mask()
            if noise and rnd() < noise:
                choices = cards_of(legal)
                h.apply_unchecked(choices[int(rnd() * len(choices))])
            else:
                h.apply_unchecked(policy_card(h, legal))
        elif phase is Phase.WIDOW:
            seat = h.widow_seat if h.widow_seat is not None else h.turn
            h.discard_unchecked(widow_discard(h.hands[seat], len(h.dealt_stock), penalty))
        else:
            return h.taken

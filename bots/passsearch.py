"""Hard's pass: the careful player's candidates, judged by playing them out.

The cards to pass are chosen blind, before anything is played, so the only
knowledge is our hand. ``search_pass`` builds a short list of sensible passes
(every 3-card set of our most dangerous cards, the careful pass and the
suit-voiding passes), then imagines deals of the other 39 cards. In each
deal the other seats pass like a careful player would (``careful_pass``),
every candidate is applied to the same deal and the hand is played out with
the heuristic rollout. Candidates are whittled down by successive halving:
all are tried on a few deals, the better ones on more.

A hand strong enough for the moon keeps the careful player's moon pass.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from itertools import combinations

from engine.cards import cards_of
from engine.dealing import new_hand
from engine.hand import Phase
from engine.variant_hand import VariantHand

from .bits import MINOR_SUITS, SUIT_MASKS, DistinctSets
from .budget import Budget, Pacer
from .halving import successive_halving
from .knowledge import Knowledge
from .moon import moon_hand
from .passing import card_dangers, careful_pass
from .rollout import heuristic_playout
from .rulebook import Rulebook
from .sampler import DealSampler
from .variant_rollout import policy_card
from .widow import careful_discard

POOL = 7
"""Passes are drawn from this many of our most dangerous cards."""

STAGES = ((0.10, 12), (0.25, 4), (0.65, 1))
"""Successive halving: (share of the deals, candidates kept after it)."""

PASS_DEALS_PER_WORLD = 1.0
"""Deals played per candidate at full strength, per ``budget.worlds``."""

WIDOW_DEALS_PER_WORLD = 0.3
"""The same with a widow: its rollout plays an engine hand, some ten times
slower, so fewer deals fill the same time."""

OFFSETS = {"left": 1, "across": 2, "right": 3}


def candidate_passes(hand: int, count: int, penalty: tuple[int, ...] = ()) -> list[int]:
    """Sensible passes of ``count`` cards from ``hand`` (bitmasks, no
    repeats); ``penalty`` a variant's card penalties (``card_dangers``)."""
    danger = card_dangers(hand, penalty)
    ranked = sorted(danger, key=lambda c: (-danger[c], c))
    sets = DistinctSets(count)
    add = sets.add

    add(careful_pass(hand, count, penalty))
    for combo in combinations(ranked[: max(POOL, count)], count):
        add(combo)
    for suit in MINOR_SUITS:
        suit_cards = cards_of(hand & SUIT_MASKS[suit])
        if 0 < len(suit_cards) <= count:
            rest = [c for c in ranked if c not in suit_cards]
            add(suit_cards + rest[: count - len(suit_cards)])
    return sets.masks


def search_pass(
    k: Knowledge,
    rng: random.Random,
    budget: Budget,
    clock: Callable[[], float] = time.perf_counter,
) -> list[int]:
    """The pass with the lowest average points over imagined deals."""
    count = k.rules.pass_count
    pen = k.rules.penalty
    offset = seat_offset(k)
    if moon_hand(k.hand) or offset is None:
        return careful_pass(k.hand, count, pen)
    cands = candidate_passes(k.hand, count, pen)
    if len(cands) == 1:
        return cards_of(cands[0])
    return cards_of(judge_passes(k, cands, rng, budget, clock)[0][0])


def seat_offset(k: Knowledge) -> int | None:
    """Seats to the left the pass goes to at any table of plain tricks or
    with a widow, or None (no pass, or rules whose deal the pass search
    does not play: a domino stock, two decks, a cancellation rest)."""
    n = k.players
    offsets = {"left": 1, "right": n - 1, "across": n // 2}
    if k.pass_direction not in offsets:
        return None
    if k.rules.extra_steps and k.rules.deal_kind != "widow":
        return None
    return offsets[k.pass_direction]


def _widow_points(
    k: Knowledge, hands: list[int], stock: list[int], passes: list[int], rnd: Callable[[], float]
) -> list[int]:
    """Each seat's points when the hand dealt as ``hands`` (and the widow
    ``stock``) is passed as ``passes`` and played out: the first trick and
    the widow's taking through the engine (``bots.variant_rollout``'s
    policy, the discard Medium's), then — plain tricks from there, as
    ``bots.widow.plain_tricks`` says — the fast heuristic rollout, whose
    policy knows Q♠ and the moon (the variant policy's does not)."""
    rules = k.rules.engine
    assert rules is not None  # extra_steps: the engine's rules are kept
    hand = new_hand(rules, max(k.hand_number, 1), hands, stock)
    if not isinstance(hand, VariantHand):
        raise ValueError("these rules are played by the fast rollout, not a VariantHand")
    hand.pass_all_unchecked(passes)
    pen = k.rules.penalty
    while hand.phase is Phase.PLAY and not (hand.trick_index >= 1 and not hand.trick):
        hand.apply_unchecked(policy_card(hand, hand.legal_mask()))
    if hand.phase is Phase.WIDOW:
        seat = hand.widow_seat if hand.widow_seat is not None else hand.turn
        cards = careful_discard(hand.hands[seat], len(hand.dealt_stock), pen)
        hand.discard_unchecked(sum(1 << c for c in cards))
    if hand.phase is not Phase.PLAY:
        return k.rules.hand_points(hand.taken)
    plain = dataclasses.replace(k.rules, engine=None)
    out = 0
    for m in hand.hands:
        out |= m
    taken = heuristic_playout(
        plain,
        hand.hands[:],
        hand.taken[:],
        [],
        hand.turn,
        hand.trick_index,
        hand.broken,
        k.rules.deck & ~out,
        rnd,
    )
    return k.rules.hand_points(taken)


def _careful_others(
    hands: list[int], me: int, offset: int, count: int, pen: tuple[int, ...]
) -> tuple[list[int], list[int]]:
    """The others pass like careful players; their passes do not depend on
    ours (passing is blind). (Each seat's pass, each hand after the others'
    passes with ours not made yet.)"""
    n = len(hands)
    passes = [0] * n
    for s in range(n):
        if s != me:
            for c in careful_pass(hands[s], count, pen):
                passes[s] |= 1 << c
    base = [hands[s] & ~passes[s] for s in range(n)]
    for s in range(n):
        if s != me:
            base[(s + offset) % n] |= passes[s]
    return passes, base


def _pass_points(
    rb: Rulebook,
    base: list[int],
    me: int,
    to: int,
    m: int,
    first_lead_bit: int,
    rnd: Callable[[], float],
) -> int:
    """Our points when we pass ``m`` to ``to`` and the hand is played out."""
    n = len(base)
    hs = base[:]
    hs[me] = hs[me] & ~m
    hs[to] |= m
    leader = next(s for s in range(n) if hs[s] & first_lead_bit)
    tk = heuristic_playout(rb, hs, [0] * n, [], leader, 0, False, 0, rnd)
    return rb.hand_points(tk)[me]


def judge_passes(
    k: Knowledge,
    cands: list[int],
    rng: random.Random,
    budget: Budget,
    clock: Callable[[], float] = time.perf_counter,
    keep: int = 0,
) -> list[tuple[int, float, int]]:
    """The passes still in the running after successive halving, best
    first, each as (mask, summed points against us, deals played); a
    ``keep`` pass (the review's chosen one) is played on every deal and
    listed too, wherever it ranks. Needs ``seat_offset(k)``."""
    count = k.rules.pass_count
    pen = k.rules.penalty
    offset = seat_offset(k)
    if offset is None:
        raise ValueError("this pass is not judged by the search")
    n = k.players
    me = k.seat
    rb = k.rules
    widow = rb.extra_steps
    sampler = DealSampler(k)
    total = max(1, int(budget.worlds * (WIDOW_DEALS_PER_WORLD if widow else PASS_DEALS_PER_WORLD)))
    pacer = Pacer(budget.deadline(clock()), clock)
    rnd = rng.random
    first_lead_bit = 1 << rb.first_lead

    def play_deal(tried: list[int]) -> list[float]:
        stock: list[int] = []
        if widow:
            hands, stock, _ = sampler.sample_world(rng)
        else:
            hands = sampler.sample(rng)
        passes, base = _careful_others(hands, me, offset, count, pen)
        to = (me + offset) % n
        values: list[float] = []
        for m in tried:
            if widow:
                passes[me] = m
                values.append(-_widow_points(k, hands, stock, passes, rnd)[me])
            else:
                values.append(-_pass_points(rb, base, me, to, m, first_lead_bit, rnd))
        return values

    return successive_halving(cands, total, STAGES, pacer, play_deal, keep)

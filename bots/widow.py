"""Hearts with a widow (docs/rules.md "Hearts with a widow"): the discard,
and the rest of the hand as a plain game of tricks.

The first trick's winner takes the widow into its hand and discards as many
cards face down onto its *own* taken pile, so a discarded point card is a
point it scores for certain. Then it leads the second trick, and from there
on the hand is ordinary tricks with every seat holding the same number of
cards: only the discards lie hidden in the taker's pile.

* ``careful_discard`` (Medium): the cards a careful player is gladdest to
  be rid of — the ones that would win tricks later (high cards, the more so
  in a short suit it can void), never Q♠, a high heart only when it has no
  low hearts to duck with — weighing each point it would score now against
  the danger of keeping the card; the low cards stay as safe exits.
* ``search_discard`` (Hard): the sensible discards judged by playing the
  rest of the hand out on sampled deals of the other hands with the fast
  heuristic rollout (``bots.rollout``), by successive halving as the pass
  search does.
* ``plain_tricks`` (Hard): once the widow is taken, the position as one of
  the fast rollout's (the hidden discards joined to our pile), so Hard's
  search plays the rest of the hand with its strong rollout policy rather
  than the cheap one of ``bots.variant_rollout``.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from itertools import combinations

from engine.cards import cards_of

from .bits import HEARTS_MASK, HIGH_SPADES, LOW_SPADES, QS_BIT, SUIT_MASKS, DistinctSets, rank
from .budget import Budget, Pacer
from .halving import successive_halving
from .knowledge import Knowledge
from .moon import moon_hand
from .rollout import heuristic_playout
from .sampler import plausible_sampler
from .search import Objective, objective_of

POINT_COST = 12.0
"""What one point scored now by a discard weighs against a card's danger."""

VOID_BONUS = 25.0
"""What voiding a side suit is worth: later we can shed Q♠ and hearts on it."""

POOL = 7
"""Hard tries discards drawn from this many of the most dangerous cards."""

STAGES = ((0.15, 8), (0.35, 3), (0.5, 1))
"""Successive halving for Hard: (share of the deals, candidates kept)."""


def discard_values(hand: int, penalty: tuple[int, ...]) -> dict[int, float]:
    """How glad a careful player is to put each card of ``hand`` down
    (higher = discard it), its points already counted against it."""
    low_spades = (hand & LOW_SPADES).bit_count()
    has_queen = bool(hand & QS_BIT)
    low_hearts = sum(1 for c in cards_of(hand & HEARTS_MASK) if rank(c) <= 5)
    values: dict[int, float] = {}
    for c in cards_of(hand):
        r = rank(c)
        suit = c // 13
        bit = 1 << c
        if bit & QS_BIT:
            # Certain 13 points now; kept, it may still go to someone else.
            d = 60.0 if low_spades <= 1 else 0.0
        elif bit & HIGH_SPADES:
            # They catch Q♠ when spades are led: dangerous while it is out.
            d = 40.0 + r if not has_queen and low_spades <= 2 else 15.0 + r
        elif suit == 3:
            d = float(r) - 8.0  # low spades shield against Q♠: keep them
        else:
            lows = sum(1 for x in cards_of(hand & SUIT_MASKS[suit]) if rank(x) <= 4)
            if suit == 2:
                lows = low_hearts
            d = (12.0 + 3.0 * r if r >= 8 else float(r)) - 5.0 * lows
        values[c] = d - POINT_COST * penalty[c]
    return values


def careful_discard(hand: int, count: int, penalty: tuple[int, ...]) -> list[int]:
    """Medium's discard: ``count`` cards of ``hand`` (sorted card ints)."""
    if count <= 0:
        return []
    if moon_hand(hand):
        # A moon hand keeps its winners; the discards count for the moon.
        order = sorted(cards_of(hand), key=lambda c: (penalty[c] > 0, rank(c), c))
        return sorted(order[:count])
    return _best_discards(hand, count, discard_values(hand, penalty))[0]


def _best_discards(hand: int, count: int, values: dict[int, float]) -> list[list[int]]:
    """The discards worth trying, best first by value: the ``count`` most
    valuable cards, and each way of voiding a short side suit with them."""
    ranked = sorted(values, key=lambda c: (-values[c], c))
    options: list[tuple[float, list[int]]] = [
        (sum(values[c] for c in ranked[:count]), sorted(ranked[:count]))
    ]
    for suit in (0, 1, 3):
        suit_cards = cards_of(hand & SUIT_MASKS[suit])
        if not 0 < len(suit_cards) <= count or hand & QS_BIT & SUIT_MASKS[suit]:
            continue
        rest = [c for c in ranked if c not in suit_cards][: count - len(suit_cards)]
        choice = sorted(suit_cards + rest)
        options.append((sum(values[c] for c in choice) + VOID_BONUS, choice))
    options.sort(key=lambda o: (-o[0], o[1]))
    return [o[1] for o in options]


def candidate_discards(hand: int, count: int, penalty: tuple[int, ...]) -> list[int]:
    """Hard's sensible discards (bitmasks, no repeats): Medium's choices and
    every ``count``-set of the ``POOL`` cards it is gladdest to be rid of."""
    values = discard_values(hand, penalty)
    ranked = sorted(values, key=lambda c: (-values[c], c))
    sets = DistinctSets(count)
    add = sets.add

    if moon_hand(hand):
        add(careful_discard(hand, count, penalty))
    for choice in _best_discards(hand, count, values):
        add(choice)
    for combo in combinations(ranked[: max(POOL, count)], count):
        add(combo)
    return sets.masks


def search_discard(
    k: Knowledge,
    count: int,
    rng: random.Random,
    budget: Budget,
    hands_played: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> list[int]:
    """Hard's discard: the candidate that plays out best on sampled deals
    of the other hands (the same deals for every candidate)."""
    cands = candidate_discards(k.hand, count, k.rules.penalty)
    if len(cands) == 1:
        return cards_of(cands[0])
    objective = objective_of(k, hands_played)
    return cards_of(judge_discards(k, cands, rng, budget, objective, clock)[0][0])


def judge_discards(
    k: Knowledge,
    cands: list[int],
    rng: random.Random,
    budget: Budget,
    objective: Objective,
    clock: Callable[[], float] = time.perf_counter,
    keep: int = 0,
) -> list[tuple[int, float, int]]:
    """The discards still in the running after successive halving, best
    first, each as (mask, summed value, deals played); a ``keep`` discard
    (the review's chosen one) is played on every deal and listed too."""
    rb = k.rules
    me = k.seat
    sampler = plausible_sampler(k)
    value = objective.value
    rnd = rng.random
    base_taken = k.taken[:]
    base_taken[me] |= k.own_hidden

    def play_deal(tried: list[int]) -> list[float]:
        hands = sampler.sample(rng)
        values = []
        for m in tried:
            hs = hands[:]
            hs[me] &= ~m
            taken = base_taken[:]
            taken[me] |= m
            tk = heuristic_playout(rb, hs, taken, [], me, k.trick_index, k.broken, k.played, rnd)
            values.append(value(rb.hand_points(tk)))
        return values

    pacer = Pacer(budget.deadline(clock()), clock)
    return successive_halving(cands, max(1, budget.worlds), STAGES, pacer, play_deal, keep)


def plain_tricks(k: Knowledge) -> Knowledge | None:
    """Once the widow is taken and discarded, ``k`` as a position of plain
    tricks for the fast search (``bots.search.search_play``): no extra
    steps, our face-down discard in our pile. None before that (the first
    trick, or the discard itself, still has the widow's step ahead)."""
    if k.rules.deal_kind != "widow" or k.trick_index < 1 or k.phase != "play":
        return None
    taken = k.taken[:]
    taken[k.seat] |= k.own_hidden
    return dataclasses.replace(k, rules=dataclasses.replace(k.rules, engine=None), taken=taken)

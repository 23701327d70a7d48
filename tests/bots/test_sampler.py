"""The sampler at big tables: its approximate mode, its bounds, two decks."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from functools import cache

import pytest

from bots.knowledge import Knowledge, knowledge_of, mask_of_texts
from bots.sampler import (
    ATTEMPTS,
    EXACT_WORK,
    DealSampler,
    InconsistentKnowledge,
    plausible_sampler,
)
from engine.cards import SUIT_MASKS, SUIT_OF, card, cards_of
from protocol.view import SeatView
from tools.bench.hard_decisions import collect_views

from .support import scripted, view_of


def _small_case() -> tuple[Knowledge, set[tuple[int, ...]]]:
    """Seat 0 sees 9 hidden cards, 3 per other seat; seat 1 has shown out of
    clubs and seat 2 of diamonds. Returns the knowledge and every
    consistent deal of seats 1-3."""
    table = scripted(["", "", "", ""], "")
    k = knowledge_of(view_of(table, 0))
    hidden = [c for suit in range(3) for c in cards_of(k.unseen & SUIT_MASKS[suit])[:3]]
    k = dataclasses.replace(
        k,
        played=k.unseen & ~sum(1 << c for c in hidden) | k.played,
        cards_left=[k.cards_left[0], 3, 3, 3],
        known=[0, 0, 0, 0],
    )
    allowed = list(k.allowed)
    allowed[1] &= ~SUIT_MASKS[0]
    allowed[2] &= ~SUIT_MASKS[1]
    k = dataclasses.replace(k, allowed=[a & (k.unseen if s else -1) for s, a in enumerate(allowed)])
    deals = set()
    for perm in itertools.permutations(hidden):
        d = tuple(sum(1 << c for c in perm[i * 3 : i * 3 + 3]) for i in range(3))
        if all(d[i] & ~k.allowed[i + 1] == 0 for i in range(3)):
            deals.add(d)
    return k, deals


def _distance_to_uniform(sampler: DealSampler, deals: set[tuple[int, ...]], runs: int) -> float:
    """Total variation distance between ``runs`` samples and the uniform
    distribution over ``deals`` (every sample must be one of them)."""
    rng = random.Random(3)
    counts = Counter(tuple(sampler.sample(rng)[1:]) for _ in range(runs))
    assert set(counts) <= deals
    return 0.5 * sum(abs(counts[d] / runs - 1 / len(deals)) for d in deals)


def test_approximate_mode_is_as_near_uniform_as_the_exact_sampler() -> None:
    k, deals = _small_case()
    runs = 50 * len(deals)
    exact = DealSampler(k)
    approx = DealSampler(k, exact_work=0)
    assert (exact.mode, approx.mode) == ("exact", "approximate")
    exact_gap = _distance_to_uniform(exact, deals, runs)
    approx_gap = _distance_to_uniform(approx, deals, runs)
    # Sampling noise alone is ~0.055 at this many runs; the chain's proposals
    # on their own are ~0.25 away (they favour the seats with more choice).
    assert exact_gap < 0.09
    assert approx_gap < 0.1
    assert approx.accepted / approx.proposals > 0.5


def test_approximate_mode_refuses_an_impossible_view_and_falls_back() -> None:
    k = knowledge_of(view_of(scripted(["", "", "", ""]), 0))
    no_clubs_anywhere = [a & ~SUIT_MASKS[0] if s else a for s, a in enumerate(k.allowed)]
    with pytest.raises(InconsistentKnowledge):
        DealSampler(dataclasses.replace(k, allowed=no_clubs_anywhere), exact_work=0)


@cache
def _big_views(players: int) -> tuple[SeatView, ...]:
    """Play decisions of one Cancellation hand of Medium bots at ``players``
    seats, every second one (seed 1: a hand with positions of both modes)."""
    return tuple(collect_views(f"variant=cancellation,players={players}", 1, 2, 1))


def _voids(view: SeatView) -> list[int]:
    """Per seat, the suits (as masks of both decks' cards) it showed out of,
    read from the view's tricks alone."""
    out = [0] * len(view.seats)
    tricks = [[(p.seat, card(p.card)) for p in t.cards] for t in view.tricks]
    tricks.append([(p.seat, card(p.card)) for p in view.trick])
    for plays in tricks:
        if not plays:
            continue
        led = SUIT_OF[plays[0][1]]
        for seat, c in plays[1:]:
            if SUIT_OF[c] != led:
                out[seat] |= SUIT_MASKS[led] | SUIT_MASKS[led] << 52
    return out


@pytest.mark.parametrize("players", [7, 10])
def test_samples_at_big_tables_with_two_decks_agree_with_the_view(players: int) -> None:
    """Every sampled world of a 7- or 10-seat Cancellation position gives each
    seat, the rest and each face-down pile their counts, only unseen cards,
    and no card of a suit the seat showed out of, in either deck."""
    rng = random.Random(players)
    modes: Counter[str] = Counter()
    for view in _big_views(players):
        k = knowledge_of(view)
        seen = mask_of_texts(view.hand) | mask_of_texts(view.hidden_taken)
        for t in view.tricks:
            seen |= mask_of_texts([p.card for p in t.cards])
        seen |= mask_of_texts([p.card for p in view.trick])
        unseen = k.rules.deck & ~seen
        voids = _voids(view)
        for sampler in (plausible_sampler(k), DealSampler(k, exact_work=0)):
            modes[sampler.mode] += 1
            for _ in range(15):
                hands, stock, hidden = sampler.sample_world(rng)
                assert hands[k.seat] == k.hand
                assert len(stock) == view.stock_count
                every = sum(1 << c for c in stock)
                for s, info in enumerate(view.seats):
                    if s == k.seat:
                        continue
                    assert hands[s].bit_count() == info.cards_left
                    assert hidden[s].bit_count() == info.hidden_taken
                    assert not hands[s] & voids[s], "a void broken (either copy)"
                    assert not (hands[s] | hidden[s]) & every, "a card dealt twice"
                    every |= hands[s] | hidden[s]
                assert every == unseen
    # Both modes at work: the positions the exact count gives up on, and
    # every position through the chain.
    assert modes["approximate"] > modes["exact"] > 0


def test_the_exact_count_gives_up_within_its_bound() -> None:
    """At ten seats late in a Cancellation hand, some positions are too big
    to count: the sampler stops within ``EXACT_WORK`` steps and each sample
    then costs at most ``ATTEMPTS`` proposals."""
    turned = 0
    for view in _big_views(10):
        k = knowledge_of(view)
        sampler = DealSampler(k)
        assert sampler.work <= EXACT_WORK
        if sampler.mode == "approximate":
            turned += 1
            before = sampler.proposals
            rng = random.Random(1)
            for _ in range(50):
                sampler.sample(rng)
            assert sampler.proposals - before <= 50 * ATTEMPTS
    assert turned, "no position needed the approximate mode: the test checks nothing"

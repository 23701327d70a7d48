"""Every fast rule path of the engine against the checked path (or a slow
reference), in one place:

* the fast deal (``Hand.deal``) against the full shuffle;
* the unchecked pass (``Hand.pass_all_unchecked``) against ``pass_cards``;
* the playout kernel (``engine.playout``: ``random_playout``,
  ``random_hand``) against ``Hand.play``/``pass_cards``, standard rules and
  every variant it plays fast.

``Hand.apply_unchecked`` is the engine's one implementation of a card's
play (``Hand.play`` checks, then calls it): tests/engine/test_properties.py
checks it against the slow reference rules (tests/engine/reference.py) at
every step. The bots' own fast rules (``bots.rulebook``, the endgame
solver's legal cards, trick winner and points) are checked against the
engine in tests/bots/test_rulebook.py and tests/bots/test_endgame_rules.py.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dealing import deal_hand
from engine.hand import Hand, Phase
from engine.playout import random_hand, random_pass, random_playout
from engine.rules import Rules
from engine.variants import VARIANTS

from .support import (
    cached_rules,
    checked_playout,
    random_rules,
    random_variant_rules,
    snapshot,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def full_shuffle_deal(rules: Rules, rng: random.Random) -> list[int]:
    """The textbook deal ``Hand.deal`` must equal: a complete Fisher-Yates
    shuffle of the deck on ``rng.random()``, seat ``s`` taking block ``s``."""
    t = rules.tables
    deck = list(t.deck_cards)
    for i in range(len(deck) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    size = t.hand_size
    return [sum(1 << c for c in deck[s * size : s * size + size]) for s in range(t.players)]


def chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


def test_the_deal_is_the_full_shuffle_with_fewer_draws() -> None:
    # The shuffle stops once every block but the first is final, so the
    # deal is the full shuffle's for the same seed; only the draws for the
    # first seat's block (which cannot change it) are saved.
    for seed in range(300):
        rules = cached_rules(players=3 + seed % 4)  # the deal depends on the deck only
        fast = Hand.deal(rules, 1, random.Random(seed))
        assert list(fast.dealt) == full_shuffle_deal(rules, random.Random(seed))
        t = rules.tables
        assert sum(h.bit_count() for h in fast.hands) == t.deck.bit_count()
        assert all(h.bit_count() == t.hand_size for h in fast.hands)


def test_every_card_goes_to_every_seat_equally_often() -> None:
    rules = cached_rules()
    rng = random.Random(7)
    deals = 4000
    counts = [[0] * 4 for _ in range(52)]
    for _ in range(deals):
        for seat, h in enumerate(Hand.deal(rules, 1, rng).hands):
            for c in range(52):
                counts[c][seat] += h >> c & 1
    for per_seat in counts:
        # 3 degrees of freedom: p(chi2 > 30) is below 2e-6
        assert chi_square(per_seat, deals / 4) < 30


def test_pass_all_unchecked_is_the_checked_exchange() -> None:
    exchanged = 0
    for seed in range(200):
        rng = random.Random(seed)
        rules = random_rules(random.Random(seed % 16))  # few rules: tables cost ms each
        hand = Hand.deal(rules, rng.randint(1, 4), rng)
        if hand.phase is not Phase.PASS:
            continue
        twin = hand.copy()
        k = rules.pass_count
        passes = [rng.sample([c for c in range(52) if h >> c & 1], k) for h in hand.hands]
        for seat, chosen in enumerate(passes):
            hand.pass_cards(seat, chosen)
        twin.pass_all_unchecked([sum(1 << c for c in chosen) for chosen in passes])
        assert snapshot(twin) == snapshot(hand)
        exchanged += 1
    assert exchanged > 100


def test_pass_all_unchecked_under_every_offset() -> None:
    rules = cached_rules(players=6, pass_cycle=("left", "right", "across"))
    for number, offset in zip(itertools.count(1), (1, 5, 3), strict=False):
        hand = Hand.deal(rules, number, random.Random(number))
        assert hand.offset == offset
        passes = [(h & -h) for h in hand.hands]  # each seat's lowest card
        before = hand.hands[:]
        hand.pass_all_unchecked(passes)
        for seat in range(6):
            giver = (seat - offset) % 6
            assert hand.received[seat] == passes[giver]
            assert hand.hands[seat] == before[seat] & ~passes[seat] | passes[giver]
        assert hand.hands[hand.turn] >> rules.tables.first_lead & 1


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, cut=st.floats(min_value=0.0, max_value=1.0))
def test_a_playout_makes_the_moves_the_checked_hand_would(seed: int, cut: float) -> None:
    # From a random position (any trick, mid-trick too) under random rules,
    # the fast playout and a checked replay that draws the same random
    # numbers reach the same points and consume the same numbers: any
    # card the checked hand refused would have raised, any different
    # legal set would have shifted the choices.
    rng = random.Random(seed)
    hand = Hand.deal(random_rules(rng), rng.randint(1, 8), rng)
    playout_agrees_from(hand, rng, cut, seed + 1)


def playout_agrees_from(hand: Hand, rng: random.Random, cut: float, seed: int) -> None:
    """Passes and plays ``hand`` (checked, choices from ``rng``) to the
    ``cut`` of its cards, then checks ``random_playout`` from there against
    ``checked_playout``, both drawing from ``random.Random(seed)``."""
    if hand.phase is Phase.PASS:
        for seat in range(hand.players):
            hand.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), hand.rules.pass_count))
    total = hand.rules.tables.hand_size * hand.players
    for _ in range(int(cut * (total - 1))):
        hand.play(hand.turn, rng.choice(hand.legal_cards()))
    fast_rng, slow_rng = random.Random(seed), random.Random(seed)
    before = snapshot(hand)
    fast = random_playout(hand, fast_rng)
    assert snapshot(hand) == before
    assert fast == checked_playout(hand, slow_rng)
    assert fast_rng.getstate() == slow_rng.getstate()


def test_random_hand_is_the_checked_pass_and_playout() -> None:
    # From the deal: random_hand's passes are random_pass's, locked through
    # the checked pass, then the checked playout; same points, same draws.
    checked = 0
    for seed in range(150):
        rules = random_rules(random.Random(seed % 24))
        rng = random.Random(seed)
        hand = Hand.deal(rules, rng.randint(1, 4), rng)
        fast_rng, slow_rng = random.Random(seed + 1), random.Random(seed + 1)
        slow = hand.copy()
        fast = random_hand(hand, fast_rng)
        if slow.phase is Phase.PASS:
            for seat in range(slow.players):
                slow.pass_cards(seat, random_pass(slow, seat, slow_rng))
            assert snapshot(slow) == snapshot(hand)
            checked += 1
        assert fast == checked_playout(slow, slow_rng)
        assert fast_rng.getstate() == slow_rng.getstate()
        t = rules.tables  # bonus_points is 0 without a bonus card
        assert sum(fast) in {
            t.moon_points + t.bonus_points,  # no moon
            (rules.players - 1) * t.moon_points + t.bonus_points,  # moon, others +26
            -t.moon_points + t.bonus_points,  # moon, shooter -26
        }
    assert checked > 50


@pytest.mark.parametrize("variant", ["omnibus", "spot", "greek", "black_maria"])
@given(seed=SEEDS, cut=st.floats(min_value=0.0, max_value=1.0))
@settings(max_examples=15, deadline=None)
def test_the_fast_kernel_plays_data_variants_as_the_checked_hand_does(
    variant: str, seed: int, cut: float
) -> None:
    rng = random.Random(seed)
    rules = random_variant_rules(variant, rng.choice(VARIANTS[variant].players), rng)
    assert rules.tables.fast
    playout_agrees_from(deal_hand(rules, rng.randint(1, 8), rng), rng, cut, seed + 1)

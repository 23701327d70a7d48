"""The fast deal and the unchecked pass (engine/hand.py) against slow references."""

from __future__ import annotations

import itertools
import random

from engine.hand import Hand, Phase
from engine.rules import Rules

from .support import cached_rules, random_rules, snapshot


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

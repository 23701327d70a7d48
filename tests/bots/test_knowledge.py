"""What a seat infers from its view, and the deals Hard imagines from it."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest

from bots.knowledge import knowledge_of
from bots.sampler import DealSampler, InconsistentKnowledge, plausible_sampler
from engine.cards import HEARTS_MASK, QUEEN_SPADES, SUIT_MASKS, card, cards_of
from engine.hand import Phase
from engine.rules import Rules

from .support import random_positions, scripted, view_of


def test_inferences_hold_for_the_true_deal() -> None:
    for table in random_positions(80, seed=300, rules=Rules(first_trick="no_points")):
        assert table.game is not None and table.game.hand is not None
        hand = table.game.hand
        for viewer in range(4):
            k = knowledge_of(view_of(table, viewer))
            assert k.hand == hand.hands[viewer]
            unseen = 0
            for s in range(4):
                assert k.cards_left[s] == hand.hands[s].bit_count()
                if s == viewer:
                    continue
                unseen |= hand.hands[s]
                assert hand.hands[s] & ~k.allowed[s] == 0, "the truth was ruled out"
                assert k.known[s] & ~hand.hands[s] == 0, "a known card is elsewhere"
            assert k.unseen == unseen


def test_voids_from_showing_out() -> None:
    table = scripted(
        ["2C 3C 4C 5C", "AC KC 2D 3D", "6C 7C 8C 9C", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"],
        "2C AC 6C 2S",
    )
    k = knowledge_of(view_of(table, 0))
    assert k.allowed[3] & SUIT_MASKS[0] == 0
    assert k.void_suits(3) == [0]
    assert k.allowed[1] & SUIT_MASKS[0]


def test_heart_led_before_broken_means_only_hearts() -> None:
    seats = ["2C", "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "", ""]
    table = scripted(seats, "2C AC")
    assert table.game is not None and table.game.hand is not None
    hand = table.game.hand
    for _ in range(2):
        hand.play(hand.turn, hand.legal_cards()[0])
    assert hand.turn == 1 and not hand.broken
    hand.play(1, card("2H"))
    k = knowledge_of(view_of(table, 2))
    assert k.allowed[1] & ~HEARTS_MASK == 0
    sampler = DealSampler(k)
    rng = random.Random(1)
    for _ in range(50):
        deal = sampler.sample(rng)
        assert deal[1] & ~HEARTS_MASK == 0


def test_first_trick_point_discard_means_only_points() -> None:
    seats = ["2C", "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "", ""]
    table = scripted(seats, "2C QS")
    k = knowledge_of(view_of(table, 2))
    assert k.allowed[1] & ~HEARTS_MASK == 0


def test_passed_cards_stay_with_the_receiver() -> None:
    rules = Rules()
    for table in random_positions(30, seed=50, rules=rules):
        assert table.game is not None and table.game.hand is not None
        hand = table.game.hand
        if hand.phase is not Phase.PLAY or not hand.offset:
            continue
        for viewer in range(4):
            k = knowledge_of(view_of(table, viewer))
            receiver = hand.receiver_of(viewer)
            still = hand.passes[viewer] & ~k.played  # type: ignore[operator]
            assert k.known[receiver] == still
            sampler = DealSampler(k)
            rng = random.Random(viewer)
            for _ in range(20):
                assert sampler.sample(rng)[receiver] & still == still


def _check_sample(k, deal: list[int]) -> None:  # type: ignore[no-untyped-def]
    union = 0
    for s in range(4):
        assert deal[s].bit_count() == k.cards_left[s]
        assert not deal[s] & union
        union |= deal[s]
        if s == k.seat:
            assert deal[s] == k.hand
        else:
            assert deal[s] & ~k.allowed[s] == 0
            assert deal[s] & k.known[s] == k.known[s]
    assert union == k.unseen | k.hand


def test_samples_respect_every_constraint() -> None:
    rng = random.Random(8)
    for table in random_positions(60, seed=800):
        assert table.game is not None and table.game.hand is not None
        if table.game.hand.phase is not Phase.PLAY:
            continue
        k = knowledge_of(view_of(table, table.game.hand.turn))
        sampler = DealSampler(k)
        for _ in range(30):
            _check_sample(k, sampler.sample(rng))


def test_sampling_is_uniform_over_consistent_deals() -> None:
    # Late in a hand: seat 0 sees 9 hidden cards, 3 per other seat; seat 1
    # has shown out of clubs. Every consistent deal should be equally likely.
    table = scripted(["", "", "", ""], "")
    assert table.game is not None and table.game.hand is not None
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
    k = dataclasses.replace(k, allowed=[a & (k.unseen if s else -1) for s, a in enumerate(allowed)])
    consistent = []
    for perm in itertools.permutations(hidden):
        d = [sum(1 << c for c in perm[i * 3 : i * 3 + 3]) for i in range(3)]
        if all(d[i] & ~k.allowed[i + 1] == 0 for i in range(3)):
            consistent.append(tuple(d))
    deals = set(consistent)
    sampler = DealSampler(k)
    rng = random.Random(3)
    runs = 40 * len(deals)
    counts = Counter(tuple(sampler.sample(rng)[1:]) for _ in range(runs))
    assert set(counts) == deals
    assert max(counts.values()) < 40 * 1.6 and min(counts.values()) > 40 * 0.5


def test_inconsistent_knowledge_is_refused() -> None:
    k = knowledge_of(view_of(scripted(["", "", "", ""]), 0))
    no_clubs_anywhere = [a & ~SUIT_MASKS[0] if s else a for s, a in enumerate(k.allowed)]
    with pytest.raises(InconsistentKnowledge):
        DealSampler(dataclasses.replace(k, allowed=no_clubs_anywhere))


def test_plausible_sampler_falls_back_when_the_guesses_clash() -> None:
    k = knowledge_of(view_of(scripted(["", "", "", ""]), 0))
    assert k.unseen >> QUEEN_SPADES & 1
    nobody = [m & ~(1 << QUEEN_SPADES) if s else m for s, m in enumerate(k.likely)]
    k = dataclasses.replace(k, likely=nobody)
    deal = plausible_sampler(k).sample(random.Random(1))
    assert any(deal[s] >> QUEEN_SPADES & 1 for s in (1, 2, 3))
    one = [m & ~(1 << QUEEN_SPADES) if s in (1, 2) else m for s, m in enumerate(k.allowed)]
    sampler = plausible_sampler(dataclasses.replace(k, likely=one))
    rng = random.Random(2)
    assert all(sampler.sample(rng)[3] >> QUEEN_SPADES & 1 for _ in range(20))

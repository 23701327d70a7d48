"""Claims: the search agrees with a plain search of every line on random
endings, the top-cards reason, a claim that fails, and the play-out line
keeps every trick the claimant's."""

from __future__ import annotations

import random

import pytest

from engine.cards import card_text
from engine.claim import ClaimTooEarly, check_claim, claim_play, holds_top_cards
from engine.hand import Hand, Phase
from engine.rules import Rules

RANK_ORDER = "23456789TJQKA"


def wins_every_trick(hand: Hand, seat: int) -> bool:
    """Every line, no shortcut: the claimant chooses, the others try all."""
    if hand.phase is not Phase.PLAY:
        return True
    results = []
    for c in hand.legal_cards():
        child = hand.copy()
        n = len(child.history)
        child.apply_unchecked(c)
        lost = len(child.history) > n and child.history[-1][2] != seat
        results.append(not lost and wins_every_trick(child, seat))
    return any(results) if hand.turn == seat else all(results)


def ending(seed: int, tricks_left: int) -> Hand:
    """A random hand played at random until ``tricks_left`` tricks remain."""
    rng = random.Random(seed)
    hand = Hand.deal(Rules(), 1, rng)
    if hand.phase is Phase.PASS:
        for s in range(4):
            hand.pass_cards(s, rng.sample(hand.legal_pass_cards(s), 3))
    while 13 - hand.trick_index > tricks_left or hand.trick:
        hand.apply_unchecked(rng.choice(hand.legal_cards()))
    # a few cards into the trick, sometimes
    for _ in range(rng.randrange(3)):
        hand.apply_unchecked(rng.choice(hand.legal_cards()))
    return hand


@pytest.mark.parametrize("seed", range(24))
def test_the_search_agrees_with_every_line(seed: int) -> None:
    hand = ending(seed, 2 + seed % 2)
    seat = hand.turn
    proof = check_claim(hand, seat)
    assert (proof is not None) == wins_every_trick(hand, seat)
    if proof is not None:
        line = hand.copy()
        while line.phase is Phase.PLAY:
            n = len(line.history)
            line.apply_unchecked(claim_play(line, seat))
            if len(line.history) > n:
                assert line.history[-1][2] == seat


def test_top_cards_are_the_reason_and_a_low_card_fails() -> None:
    # Find an ending where the player to lead holds the top cards.
    for seed in range(2000):
        hand = ending(seed, 2)
        if not hand.trick and holds_top_cards(hand, hand.turn):
            proof = check_claim(hand, hand.turn)
            assert proof is not None
            assert (proof.reason, proof.tricks) == ("top_cards", 2)
            break
    else:
        pytest.fail("no top-cards ending in 2000 deals")
    failing = 0
    for seed in range(60):
        hand = ending(seed, 3)
        if not hand.trick and not wins_every_trick(hand, hand.turn):
            assert check_claim(hand, hand.turn) is None
            failing += 1
    assert failing > 5


def test_a_claim_too_early_to_prove_gives_up() -> None:
    hand = ending(3, 13)
    with pytest.raises(ClaimTooEarly):
        check_claim(hand, hand.turn, limit=50)


def test_only_on_the_claimants_turn() -> None:
    hand = ending(5, 3)
    with pytest.raises(ValueError):
        check_claim(hand, (hand.turn + 1) % 4)


@pytest.mark.parametrize("seed", range(12))
def test_the_others_play_out_their_first_legal_card_in_suit_order(seed: int) -> None:
    """docs/protocol.md "Claims": each other seat plays its first legal card
    in the order clubs, diamonds, hearts, spades, low to high in a suit."""
    hand = ending(seed, 4)
    claimant = (hand.turn + 1) % 4  # another seat is to play now
    legal = hand.legal_cards()
    order = sorted(
        legal, key=lambda c: ("CDHS".index(card_text(c)[1]), RANK_ORDER.index(card_text(c)[0]))
    )
    assert claim_play(hand, claimant) == order[0]

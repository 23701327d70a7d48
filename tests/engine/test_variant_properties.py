"""Properties of every variant at every seat count it allows, over seeded
random hands (hypothesis draws the seeds): cards are conserved, every trick
is complete (or cancelled and carried, with two decks), penalties sum as the
variant says, and records replay (the playout kernel against the checked path:
tests/engine/test_fast_path.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import BASE_OF, RANK_OF, SUIT_OF, cards_of
from engine.dealing import deal_hand
from engine.events import GameOver
from engine.game import Game
from engine.hand import Hand, Phase
from engine.playout import random_hand
from engine.record import hand_record, replay, verify_record
from engine.rules import Rules
from engine.variants import VARIANTS

from .support import random_variant_rules, snapshot

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
CASES = [(v, n) for v, spec in VARIANTS.items() if v != "standard" for n in spec.players]


def act(hand: Hand, rng: random.Random) -> None:
    """One random legal action through the checked path."""
    if hand.phase is Phase.PASS:
        seat = rng.choice([s for s in range(hand.players) if hand.passes[s] is None])
        hand.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), hand.rules.pass_count))
    elif hand.phase is Phase.PLAY:
        hand.play(hand.turn, rng.choice(hand.legal_cards()))
    elif hand.phase is Phase.WIDOW:
        assert hand.widow_seat is not None
        held = cards_of(hand.hands[hand.widow_seat])
        hand.discard_widow(hand.widow_seat, rng.sample(held, len(hand.dealt_stock)))
    elif hand.phase is Phase.MOON_CHOICE:
        assert hand.shooter is not None
        hand.choose_moon(hand.shooter, rng.choice(("add", "subtract")))


def steps(hand: Hand, rng: random.Random) -> Iterator[Hand]:
    while True:
        yield hand
        if hand.phase is Phase.DONE:
            return
        act(hand, rng)


def expected_sum(hand: Hand) -> int:
    """docs/rules.md: a hand's points are the deck's penalties; after a moon
    the shooter's moon cards stop counting and the moon's value is added to
    each other seat ("add", "transfer" also takes it n-1 times from the
    shooter) or taken from the shooter ("subtract", "jackpot")."""
    t = hand.rules.tables
    if hand.shooter is None:
        return t.total_penalty
    rest = t.total_penalty - t.moon_points
    mode = hand.moon_choice
    if mode in ("subtract", "jackpot"):
        return rest - t.moon_value
    if mode == "add":
        return rest + (hand.players - 1) * t.moon_value
    assert mode == "transfer"
    return rest


def check_trick(hand: Hand, k: int) -> None:
    leader, cards, winner = hand.history[k]
    seats = hand.trick_seats(k)
    assert len(seats) == len(cards) and seats[0] == leader
    assert len(set(seats)) == len(seats)
    if hand.rules.tables.deal_kind != "domino":
        assert len(cards) == hand.players
    led = SUIT_OF[cards[0]]
    bases = [BASE_OF[c] for c in cards]
    standing = [
        (RANK_OF[c], s)
        for c, s in zip(cards, seats, strict=True)
        if SUIT_OF[c] == led and bases.count(BASE_OF[c]) == 1
    ]
    assert set(hand.trick_cancelled(k)) == {c for c in cards if bases.count(BASE_OF[c]) == 2}
    if standing:
        assert winner == max(standing)[1]
    else:
        assert winner == -1 and hand.rules.tables.decks == 2


@pytest.mark.parametrize(("variant", "players"), CASES)
@given(seed=SEEDS)
@settings(max_examples=6, deadline=None)
def test_a_random_hand_conserves_cards_completes_tricks_and_sums_its_points(
    variant: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    rules = random_variant_rules(variant, players, rng)
    hand = deal_hand(rules, rng.randint(1, 4), rng)
    t = rules.tables
    holders: dict[int, set[int]] = {}
    for h in steps(hand, rng):
        carried = getattr(h, "carried", 0)
        piles = [*h.hands, *h.taken, sum(1 << c for c in h.trick), sum(1 << c for c in h.stock)]
        piles.append(carried)
        union = 0
        for p in piles:
            assert not union & p
            union |= p
        assert union == t.deck
        for k in range(len(h.history)):
            check_trick(h, k)
        if h.phase is Phase.PLAY and not h.trick:
            # the seats that hold cards as trick k is led: exactly they play it
            holders[h.trick_index] = {s for s in range(h.players) if h.hands[s]}
    for k in range(len(hand.history)):
        assert set(hand.trick_seats(k)) == holders[k]  # dropped-out seats never play
    assert hand.scores is not None
    assert sum(hand.points_taken()) == t.total_penalty
    assert sum(hand.scores) == expected_sum(hand)
    rec = hand_record(hand)
    assert verify_record(rec) == {"ok": True, "complete": True, "points": list(hand.scores)}
    assert replay(rec).taken == hand.taken


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_whole_game_of_every_variant_ends_with_a_winner(variant: str, players: int) -> None:
    rng = random.Random(players)
    game = Game(Rules(variant=variant, players=players, end="hands", end_at=2))
    over: list[GameOver] = []
    while not game.over:
        game.start_hand(rng)
        hand = game.hand
        assert hand is not None
        while hand.phase is not Phase.DONE:
            if hand.phase is Phase.PASS:
                for seat in range(players):
                    game.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), 3))
            elif hand.phase is Phase.PLAY:
                events = game.play(hand.turn, rng.choice(hand.legal_cards()))
                over += [e for e in events if isinstance(e, GameOver)]
            elif hand.phase is Phase.WIDOW:
                assert hand.widow_seat is not None
                held = cards_of(hand.hands[hand.widow_seat])
                game.discard_widow(hand.widow_seat, held[: len(hand.dealt_stock)])
            else:
                assert hand.shooter is not None
                over += [
                    e for e in game.choose_moon(hand.shooter, "add") if isinstance(e, GameOver)
                ]
    assert len(over) == 1 and over[0].winner == game.winner
    assert len(game.hand_scores) >= 2


@pytest.mark.parametrize("variant", ["domino", "widow", "cancellation"])
def test_the_kernel_plays_stock_variants_on_its_general_path(variant: str) -> None:
    for players in VARIANTS[variant].players:
        rules = Rules(variant=variant, players=players)
        assert not rules.tables.fast
        rng = random.Random(players)
        for number in range(1, 6):
            hand = deal_hand(rules, number, rng)
            before = snapshot(hand)
            points = random_hand(hand.copy(), rng)
            assert snapshot(hand) == before
            assert len(points) == players
            total = rules.tables.total_penalty
            assert sum(points) in {
                total,
                total - 2 * rules.tables.moon_value,  # subtract is never drawn
                total + (players - 2) * rules.tables.moon_value,
            }

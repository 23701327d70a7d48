"""Bots in every variant (docs/rules.md "Variants"), at every seat count.

Positions come from seeded engine hands through ``variant_support`` (the
seat's public facts only); every card a bot picks is played through the
engine's checked ``play``, so an illegal choice fails the test.
"""

from __future__ import annotations

import random

import pytest

from bots.api import make_bot
from bots.budget import Budget
from bots.rulebook import Rulebook
from bots.sampler import DealSampler
from engine.cards import cards_of
from engine.dealing import deal_hand
from engine.hand import Hand, Phase
from engine.playout import random_pass, score_taken
from engine.rules import Rules, moon_scores
from tools.arena.hands import deal_hands, play_hand

from .variant_support import every_variant_count, knowledge_at, play_out, variant_rules

CASES = list(every_variant_count())


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_rulebook_scores_piles_as_the_engine(variant: str, players: int) -> None:
    rules = variant_rules(variant, players)
    book = Rulebook.from_rules(rules)
    t = rules.tables
    hand = deal_hand(rules, 1, random.Random(1))
    rng = random.Random(f"{variant}{players}")
    deck = cards_of(t.deck)
    for i in range(60):
        owner = {c: rng.randrange(players) for c in deck}
        if t.moon_cards and i % 3 == 0:
            for c in cards_of(t.moon_cards):
                owner[c] = i % players
        taken = [sum(1 << c for c in deck if owner[c] == s) for s in range(players)]
        raw = [sum(t.penalty[c] for c in cards_of(m)) for m in taken]
        assert [book.pile_points(m) for m in taken] == raw
        mode = "add" if rules.moon == "choice" else rules.moon
        shooter = next(
            (s for s, m in enumerate(taken) if t.moon_cards and m & t.moon_cards == t.moon_cards),
            None,
        )
        want = raw if shooter is None else moon_scores(raw, shooter, t, mode)
        assert book.hand_points(taken) == want
        assert book.hand_points(taken) == score_taken(hand, taken)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_easy_and_medium_play_every_variant_legally(level: str) -> None:
    for variant, players in CASES:
        rules = variant_rules(variant, players)
        for seed in (1, 2):
            bot = make_bot(level)
            hand = play_out(rules, [bot.choose_play] * players, seed)
            assert hand.phase is Phase.DONE
            assert hand.scores is not None
            dealt = rules.tables.deck
            pile = 0
            for m in hand.taken:
                assert not pile & m
                pile |= m
            assert pile == dealt, f"{variant} {players}: every card ends in a pile"


def test_hard_plays_every_variant_legally() -> None:
    budget = Budget(worlds=4, max_seconds=None)
    for variant, players in CASES:
        rules = variant_rules(variant, players)
        bot = make_bot("hard", budget)
        hand = play_out(rules, [bot.choose_play] * players, 3)
        assert hand.phase is Phase.DONE


def test_mixed_levels_share_a_table() -> None:
    budget = Budget(worlds=4, max_seconds=None)
    for variant in ("widow", "domino", "cancellation", "spot"):
        rules = Rules(variant=variant, players=7 if variant == "cancellation" else 4)
        levels = ["easy", "medium", "hard"]
        choosers = [make_bot(levels[s % 3], budget).choose_play for s in range(rules.players)]
        assert play_out(rules, choosers, 5).phase is Phase.DONE


@pytest.mark.parametrize(
    ("variant", "players"),
    [("widow", 4), ("widow", 3), ("domino", 4), ("domino", 7), ("cancellation", 8)],
)
def test_sampled_worlds_hide_what_the_variant_hides(variant: str, players: int) -> None:
    """Every sampled world gives each seat its count, the stock and each
    hidden pile theirs, and only cards the seat has not seen; positions
    before and after the widow is taken, the stock drawn from, the rest
    taken face down."""
    rules = variant_rules(variant, players)
    rng = random.Random(9)
    checked = 0
    for seed in range(6):
        hand = deal_hand(rules, 1, random.Random(seed))
        if hand.phase is Phase.PASS:
            for s in range(players):
                hand.pass_cards(s, random_pass(hand, s, rng))
        plays = rng.randrange(1, 3 * players)
        _advance(hand, plays, rng)
        if hand.phase is not Phase.PLAY:
            continue
        k = knowledge_at(hand, hand.turn)
        sampler = DealSampler(k)
        for _ in range(20):
            hands, stock, hidden = sampler.sample_world(rng)
            assert hands[k.seat] == k.hand
            for s in range(players):
                assert hands[s].bit_count() == hand.hands[s].bit_count()
                if s != k.seat:
                    assert hidden[s].bit_count() == hand.hidden_taken[s].bit_count()
                    assert not hands[s] & ~k.unseen
                    assert not hidden[s] & ~k.unseen
            assert len(stock) == len(hand.stock)
            assert not sum(1 << c for c in stock) & ~k.unseen
            every = sum(1 << c for c in stock)
            for s in range(players):
                if s != k.seat:
                    every |= hands[s] | hidden[s]
            assert every == k.unseen
        checked += 1
    assert checked >= 3


def _advance(hand: Hand, plays: int, rng: random.Random) -> None:
    """Up to ``plays`` random legal plays (the widow discard its first cards)."""
    for _ in range(plays):
        if hand.phase is Phase.WIDOW:
            seat = hand.widow_seat
            assert seat is not None
            cards = cards_of(hand.hands[seat])[: len(hand.dealt_stock)]
            hand.discard_widow(seat, cards)
        if hand.phase is not Phase.PLAY:
            return
        legal = hand.legal_cards()
        hand.play(hand.turn, legal[rng.randrange(len(legal))])


def test_every_level_plays_every_variant_through_the_seat_views() -> None:
    """The arena's path: each decision from ``decide`` on the seat's view
    (``protocol.seat_view``), applied through the engine's checked actions;
    levels mixed at every table, every variant at every seat count."""
    budget = Budget(worlds=3, max_seconds=None)
    for variant, players in CASES:
        rules = variant_rules(variant, players)
        mix = ("hard", "medium", "easy")
        levels = [mix[s % len(mix)] for s in range(players)]
        hands, stock = deal_hands(rules, 11, players)
        hand, times = play_hand(rules, levels, hands, 1, f"views:{variant}", budget, stock)
        assert hand.phase is Phase.DONE, f"{variant} {players}"
        assert hand.scores is not None
        assert all(times), "every seat decided something"

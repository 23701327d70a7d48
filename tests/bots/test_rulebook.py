"""The bots' rule facts agree with the engine's tables for every option."""

from __future__ import annotations

import itertools
import random

from bots.rulebook import Rulebook
from engine.hand import Hand
from engine.playout import score_taken
from engine.rules import Rules
from protocol.common import RulesModel


def test_rulebook_matches_the_engine() -> None:
    options = itertools.product(
        ("add", "subtract", "choice"),
        ("no_points", "no_queen", "anything"),
        (False, True),
        (None, "JD", "TD"),
    )
    for moon, first, qbreaks, bonus in options:
        rules = Rules(moon=moon, first_trick=first, queen_breaks_hearts=qbreaks, bonus_card=bonus)
        fast = Rulebook.from_model(RulesModel.from_rules(rules))
        assert fast == Rulebook.from_rules(rules)


def test_points_match_the_engine() -> None:
    rng = random.Random(4)
    for moon in ("add", "subtract"):
        rules = Rules(moon=moon, bonus_card="JD", pass_cycle=("hold",))
        book = Rulebook.from_rules(rules)
        hand = Hand.deal(rules, 1, rng)
        for i in range(300):
            # Disjoint piles covering the deck; every third time seat 0 holds
            # all the moon cards.
            owner = [rng.randrange(4) for _ in range(52)]
            if i % 3 == 0:
                for c in range(52):
                    if book.moon_cards >> c & 1:
                        owner[c] = 0
            taken = [sum(1 << c for c in range(52) if owner[c] == s) for s in range(4)]
            assert book.hand_points(taken) == score_taken(hand, taken)

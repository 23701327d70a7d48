"""Bots never peek: a decision depends on the seat's view and the seed only.

For many random positions we build a second full state that differs only in
hidden cards the deciding seat cannot know about (two other seats swap
unplayed cards consistently with everything public and everything the seat
passed), check that the redacted views are identical, and check that every
level decides exactly the same with the same seed.
"""

from __future__ import annotations

import random

import pytest

from bots.api import decide
from bots.budget import Budget
from engine.rules import Rules

from .support import LEVELS, deciding_seats, random_positions, swap_hidden, view_of

SMALL = Budget(worlds=8, max_seconds=None)

RULES = [
    Rules(),
    Rules(moon="choice", first_trick="anything"),
    Rules(
        queen_breaks_hearts=True,
        first_trick="no_queen",
        pass_cycle=("left", "across", "right", "hold"),
    ),
]


@pytest.mark.parametrize("rules", RULES, ids=["standard", "choice-anything", "qbreaks-noqueen"])
def test_hidden_cards_do_not_change_decisions(rules: Rules) -> None:
    rng = random.Random(5)
    checked = 0
    for table in random_positions(40, seed=1000, rules=rules):
        for seat in deciding_seats(table)[:1]:
            other = swap_hidden(table, seat, rng)
            if other is None:
                continue
            assert other.game is not None and table.game is not None
            assert other.game.hand is not None and table.game.hand is not None
            assert other.game.hand.hands != table.game.hand.hands
            view_a, view_b = view_of(table, seat), view_of(other, seat)
            assert view_a == view_b
            for level in LEVELS:
                a = decide(view_a, level, random.Random(42), SMALL)
                b = decide(view_b, level, random.Random(42), SMALL)
                assert a == b, (level, a, b)
            checked += 1
    assert checked >= 25

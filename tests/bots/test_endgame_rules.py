"""The endgame solver's own fast rules (its legal cards, its trick winner,
the rulebook's points) against the engine's checked hand, under random
rules the solver plays (every fast rule set: the standard game's options
and the data variants)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.endgame import EndgameSolver
from bots.rulebook import Rulebook
from engine.dealing import deal_hand
from engine.hand import Phase
from engine.rules import Rules

FAST_RULES = [
    Rules(),
    Rules(pass_cycle=("hold",), queen_breaks_hearts=True, first_trick="anything"),
    Rules(players=3, moon="subtract", bonus_card="JD"),
    Rules(players=6, first_trick="no_queen"),
    Rules(variant="spot", players=5),
    Rules(variant="omnibus"),
    Rules(variant="black_maria"),
]


@given(seed=st.integers(min_value=0, max_value=2**32 - 1), which=st.integers(0, 6))
@settings(max_examples=40, deadline=None)
def test_the_solver_allows_the_cards_the_engine_allows_and_scores_the_last_trick_alike(
    seed: int, which: int
) -> None:
    rules = FAST_RULES[which]
    assert rules.tables.fast
    rng = random.Random(seed)
    hand = deal_hand(rules, rng.randint(1, 4), rng)
    if hand.phase is Phase.PASS:
        for seat in range(hand.players):
            hand.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), rules.pass_count))
    solver = EndgameSolver(Rulebook.from_rules(rules), 0)
    while hand.phase is Phase.PLAY:
        legal = solver.legal(hand.hands[hand.turn], hand.trick, hand.trick_index, hand.broken)
        assert legal == hand.legal_mask()
        if hand.trick_index == rules.tables.hand_size - 1 and not hand.trick:
            # One card each is left: no choice, so the solver's points are
            # the ones the engine's trick winner and scoring give.
            solved = solver.solve(
                hand.hands[:], hand.taken[:], [], hand.leader, hand.trick_index, hand.broken
            )
            while hand.phase is Phase.PLAY:
                hand.play(hand.turn, hand.legal_cards()[0])
            assert hand.scores is not None  # no moon choice among FAST_RULES
            assert solved == list(hand.scores)
            return
        hand.play(hand.turn, rng.choice(hand.legal_cards()))

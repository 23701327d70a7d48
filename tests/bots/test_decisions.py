"""Every decision is legal and reproducible, for every level and many positions."""

from __future__ import annotations

import random

import pytest

from bots.api import Decision, NothingToDecide, decide, decide_move, needs_decision
from bots.budget import Budget
from engine.cards import card
from engine.hand import Hand, Phase
from engine.rules import Rules
from tools.arena.hands import play_hand

from .support import LEVELS, deciding_seats, random_positions, view_of

SMALL = Budget(worlds=6, max_seconds=None)

VARIANTS = [
    Rules(),
    Rules(moon="choice"),
    Rules(moon="subtract", first_trick="anything", queen_breaks_hearts=True),
    Rules(first_trick="no_queen", bonus_card="JD", pass_cycle=("right",)),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=["standard", "choice", "subtract", "jd"])
def test_decisions_are_legal(rules: Rules) -> None:
    for table in random_positions(60, seed=7, rules=rules):
        assert table.game is not None and table.game.hand is not None
        hand = table.game.hand
        for seat in deciding_seats(table):
            view = view_of(table, seat)
            for level in LEVELS:
                d = decide(view, level, random.Random(seat), SMALL)
                trial = hand.copy()
                if d.kind == "pass":
                    assert hand.phase is Phase.PASS
                    trial.verify_pass(seat, [card(t) for t in d.cards])
                elif d.kind == "play":
                    assert d.card is not None
                    trial.verify_play(seat, card(d.card))
                else:
                    assert d.moon is not None
                    trial.verify_moon_choice(seat, d.moon)


def test_same_seed_same_decision() -> None:
    for table in random_positions(30, seed=99):
        seat = deciding_seats(table)[0]
        view = view_of(table, seat)
        for level in LEVELS:
            first = decide(view, level, random.Random(3), SMALL)
            again = decide(view, level, random.Random(3), SMALL)
            assert first == again


@pytest.mark.parametrize("rules", VARIANTS, ids=["standard", "choice", "subtract", "jd"])
def test_whole_hands_between_levels(rules: Rules) -> None:
    """The arena's loop: each hand is played through the engine's checks."""
    rng = random.Random(11)
    for number in range(1, 5):
        deal = Hand.deal(rules, number, rng).hands
        levels = [LEVELS[(number + s) % 3] for s in range(4)]
        hand, times = play_hand(rules, levels, deal, number, f"t:{number}", SMALL)
        assert hand.phase is Phase.DONE
        assert hand.scores is not None
        assert all(len(t) >= 13 for t in times)


def test_nothing_to_decide() -> None:
    for table in random_positions(10, seed=5):
        seat = deciding_seats(table)[0]
        idle = next(s for s in range(4) if s not in deciding_seats(table))
        view = view_of(table, idle)
        assert needs_decision(view) is None
        with pytest.raises(NothingToDecide):
            decide(view, "medium", random.Random(1))
        assert needs_decision(view_of(table, seat)) is not None


def test_unknown_level() -> None:
    table = next(random_positions(1, seed=5))
    view = view_of(table, deciding_seats(table)[0])
    with pytest.raises(ValueError):
        decide(view, "expert", random.Random(1))


def test_decide_move_speaks_moves() -> None:
    for table in random_positions(20, seed=21):
        seat = deciding_seats(table)[0]
        view = view_of(table, seat)
        move = decide_move(view, "hard", random.Random(1), 200)
        d: Decision = decide(view, "medium", random.Random(1))
        assert move.kind == {"pass": "pass", "play": "play", "moon_choice": "moon"}[d.kind]
        if move.kind == "play":
            assert move.card in view.legal
        elif move.kind == "pass":
            assert len(move.cards) == 3 and set(move.cards) <= set(view.hand)

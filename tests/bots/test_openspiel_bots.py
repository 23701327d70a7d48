"""OpenSpiel's bots from our views: cards and seats translated, a state
rebuilt that the seat cannot tell from the real one (the seat as player 0,
its hand, its legal moves, the tricks so far), legal decisions in every
phase and supported rule set, and rules OpenSpiel does not play refused."""

from __future__ import annotations

import random

import pytest

from bots.interface import decision_problem
from bots.openspiel_bots import (
    OpenSpielBot,
    StateBuilder,
    UnsupportedRules,
    from_openspiel,
    game_parameters,
    to_openspiel,
)
from engine.cards import card, card_text
from engine.rules import Rules
from protocol.common import RulesModel

from .support import deciding_seats, random_positions, view_of

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

RULES = [
    Rules(),
    Rules(pass_cycle=("across",)),
    Rules(pass_cycle=("right",), queen_breaks_hearts=True, bonus_card="JD"),
    Rules(first_trick="anything", pass_cycle=("hold",)),
]


def test_cards_translate_both_ways() -> None:
    assert [to_openspiel(card(t)) for t in ("2C", "2D", "2H", "2S", "3C", "AS")] == [
        0,
        1,
        2,
        3,
        4,
        51,
    ]
    assert all(from_openspiel(to_openspiel(c)) == c for c in range(52))


@pytest.mark.parametrize("rules", RULES, ids=["standard", "across", "right-jd", "hold"])
def test_the_rebuilt_state_is_what_the_seat_sees(rules: Rules) -> None:
    game = pyspiel.load_game("hearts", game_parameters(RulesModel.from_rules(rules)))
    for table in random_positions(20, seed=9, rules=rules):
        for seat in deciding_seats(table):
            view = view_of(table, seat)
            state = StateBuilder(game).state(view, random.Random(seat))
            assert state.current_player() == 0
            legal = sorted(card_text(from_openspiel(a)) for a in state.legal_actions())
            assert legal == sorted(view.legal)
            if view.phase == "play":
                played = sum(len(t.cards) for t in view.tricks) + len(view.trick)
                assert (
                    len(state.history())
                    == 1 + 52 + (12 if view.pass_direction != "hold" else 0) + played
                )


@pytest.mark.parametrize("rules", RULES, ids=["standard", "across", "right-jd", "hold"])
def test_decisions_are_legal(rules: Rules) -> None:
    for table in random_positions(12, seed=4, rules=rules):
        for seat in deciding_seats(table):
            view = view_of(table, seat)
            for bot in (OpenSpielBot("ismcts", seed=1, sims=30), OpenSpielBot("random", seed=2)):
                assert decision_problem(view, bot.decide(view)) is None


def test_rules_openspiel_does_not_play_are_refused() -> None:
    for rules in (
        RulesModel(first_trick="no_queen"),
        RulesModel(bonus_card="TD"),
        RulesModel(moon="subtract"),
    ):
        with pytest.raises(UnsupportedRules):
            game_parameters(rules)
    assert game_parameters(RulesModel()) == {
        "pass_cards": True,
        "no_pts_on_first_trick": True,
        "qs_breaks_hearts": False,
        "jd_bonus": False,
    }

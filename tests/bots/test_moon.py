"""The moon: the shooter's scoring choice, and spotting a moon hand."""

from __future__ import annotations

import random

import pytest

from bots.api import decide
from bots.moon import losers, moon_hand
from engine.hand import Hand, Phase
from engine.rules import Rules

from .support import deal_from, mask, table_of, view_of

CHOICE = Rules(moon="choice", pass_cycle=("hold",))


def moon_table(totals: list[int]) -> object:
    """Seat 0 holds every club: it leads each trick and nobody can follow,
    so it takes all 13 tricks and has to choose how its moon scores."""
    deal = deal_from(["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "", "", ""], CHOICE)
    hand = Hand(CHOICE, 1, deal)
    while hand.phase is Phase.PLAY:
        hand.play(hand.turn, hand.legal_cards()[-1])
    assert hand.phase is Phase.MOON_CHOICE and hand.shooter == 0
    return table_of(hand, totals)


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([0, 0, 0, 0], "add"),  # ahead after either choice: hasten the end
        ([60, 80, 85, 90], "add"),  # adding ends the game and we win it
        ([95, 60, 85, 70], "subtract"),  # adding would end it with us losing
        ([50, 10, 20, 30], "subtract"),  # behind: keep the game going
    ],
)
def test_moon_choice_is_best_for_the_game(totals: list[int], expected: str) -> None:
    table = moon_table(totals)
    view = view_of(table, 0)  # type: ignore[arg-type]
    for level in ("medium", "hard"):
        d = decide(view, level, random.Random(0))
        assert d.kind == "moon_choice" and d.moon == expected
    assert decide(view, "easy", random.Random(0)).moon == "add"


def test_moon_hand() -> None:
    assert moon_hand(mask("AH KH QH JH TH 9H 8H AS KS QS AC AD KD"))
    assert not moon_hand(mask("AH KH QH JH TH 9H 8H AS KS QS KC AD KD"))  # no A♣
    assert not moon_hand(mask("AH KH JH TH 9H 8H 7H AS KS QS AC AD KD"))  # no Q♥


def test_losers_counts_cards_that_lose() -> None:
    hand = mask("AS KS 2S")
    unseen = mask("QS JS TS 9S")
    assert losers(hand, unseen, 4) == 1
    assert losers(mask("AS KS QS"), unseen, 4) == 0

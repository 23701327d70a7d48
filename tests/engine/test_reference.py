"""The test reference (tests/engine/reference.py) on hands whose outcome was
worked out by hand, so the property tests compare against something checked."""

from __future__ import annotations

from typing import Any

from . import reference
from .support import (
    MOON_BONUS_DEAL,
    MOON_BONUS_PLAYS,
    MOON_DEAL,
    MOON_PLAYS,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
)


def replay(deal: list[str], plays: str, **options: Any) -> reference.RefState:
    state = reference.start(reference.RefOptions(**options), [set(s.split()) for s in deal])
    for text in plays.split():
        assert text in state.legal(), text
        state.play(text)
    assert state.done
    return state


def test_the_reference_scores_the_hand_built_deals_as_derived() -> None:
    assert replay(MOON_DEAL, MOON_PLAYS).points() == [0, 26, 26, 26]
    assert replay(MOON_DEAL, MOON_PLAYS, moon="subtract").points() == [-26, 0, 0, 0]
    assert replay(MOON_DEAL, MOON_PLAYS, moon="choice").points("subtract") == [-26, 0, 0, 0]
    assert replay(TWENTY_FIVE_DEAL, TWENTY_FIVE_PLAYS).points() == [25, 1, 0, 0]
    assert replay(TWENTY_FIVE_DEAL, TWENTY_FIVE_PLAYS, bonus_card="JD").points() == [15, 1, 0, 0]
    bonus = replay(MOON_BONUS_DEAL, MOON_BONUS_PLAYS, bonus_card="JD")
    assert bonus.shooter() == 0
    assert bonus.points() == [0, 16, 26, 26]


def test_the_reference_refuses_what_the_rules_refuse() -> None:
    state = reference.start(reference.RefOptions(), [set(s.split()) for s in MOON_DEAL])
    assert state.legal() == {"2C"}
    state.play("2C")
    state.play("2D")
    assert "QS" not in state.legal()  # first trick
    state.play("2S")
    assert state.legal() == set(MOON_DEAL[3].split())  # only hearts: any
    state.play("2H")
    assert state.tricks[0][2] == 0
    assert state.hearts_broken()


def test_the_reference_deck_and_first_lead_per_player_count() -> None:
    assert len(reference.deck(3)) == 51 and reference.first_lead(3) == "2C"
    assert len(reference.deck(5)) == 50 and reference.first_lead(5) == "3C"
    assert len(reference.deck(6)) == 48 and reference.first_lead(6) == "4C"

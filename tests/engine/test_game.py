"""A whole game (engine/game.py): totals, the end options (points >= 100,
>= 50, a fixed number of hands) and the tie for the lowest total."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.cards import card
from engine.errors import WrongPhase
from engine.events import Event, GameOver, HandDealt, HandScored, PlayBegins
from engine.game import Game
from engine.hand import Phase
from engine.rules import Rules

from .support import (
    MOON_DEAL,
    MOON_PLAYS,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
    build_deal,
    cached_rules,
    refused,
    rotate,
)


def hold(**options: Any) -> Rules:
    return cached_rules(pass_cycle=("hold",), **options)


def play_hand(game: Game, deal: list[str], script: str) -> list[Event]:
    """Deal ``deal`` as the next hand and play ``script`` through the game."""
    events: list[Event] = list(game.start_hand(hands=build_deal(deal, game.rules)))
    for text in script.split():
        assert game.hand is not None
        events += game.play(game.hand.turn, card(text))
    return events


def moon(game: Game) -> list[Event]:
    """A hand where seat 0 shoots the moon: (0, 26, 26, 26) with moon=add."""
    return play_hand(game, MOON_DEAL, MOON_PLAYS)


def twenty_five(game: Game, seat: int = 0) -> list[Event]:
    """Seat ``seat`` takes 25, the seat on its left 1, the other two 0."""
    return play_hand(game, rotate(TWENTY_FIVE_DEAL, seat), TWENTY_FIVE_PLAYS)


def test_a_new_game_has_no_hand_and_zero_totals() -> None:
    game = Game(hold())
    assert game.totals == [0, 0, 0, 0]
    assert game.hand is None
    assert game.hand_number == 0
    assert not game.over
    assert game.can_start_hand()
    with refused(WrongPhase, "no hand has been dealt yet"):
        game.play(0, card("2C"))


def test_a_game_without_rules_plays_the_standard_game() -> None:
    assert Game().rules == Rules()


def test_dealing_needs_an_rng_or_the_hands() -> None:
    game = Game(hold())
    with refused(ValueError, "start_hand needs a seeded rng or the hands"):
        game.start_hand()
    assert game.hand is None


def test_a_seeded_rng_deals_the_same_hand_every_time() -> None:
    a, b = Game(), Game()
    a.start_hand(random.Random(7))
    b.start_hand(random.Random(7))
    assert a.hand is not None and b.hand is not None
    assert a.hand.hands == b.hand.hands
    assert sorted(h.bit_count() for h in a.hand.hands) == [13, 13, 13, 13]


def test_a_new_hand_waits_for_the_current_one_to_end() -> None:
    game = Game(hold())
    game.start_hand(hands=build_deal(MOON_DEAL))
    assert not game.can_start_hand()
    with refused(WrongPhase, "the hand is still being played"):
        game.start_hand(hands=build_deal(MOON_DEAL))
    assert game.hand_number == 1


def test_start_hand_reports_the_deal_and_on_a_hold_hand_the_first_leader() -> None:
    passing = Game()
    deal = build_deal(["", "", "2C", ""], passing.rules)
    assert passing.start_hand(hands=deal) == [HandDealt(1, "left", tuple(deal))]
    holding = Game(hold())
    assert holding.start_hand(hands=deal) == [HandDealt(1, "hold", tuple(deal)), PlayBegins(2)]


def test_totals_add_up_the_hand_scores() -> None:
    game = Game(hold())
    moon(game)
    twenty_five(game, seat=1)
    assert game.hand_scores == [(0, 26, 26, 26), (0, 25, 1, 0)]
    assert game.totals == [0, 51, 27, 26]
    assert game.hand_number == 2


def test_the_game_ends_when_a_total_reaches_one_hundred() -> None:
    game = Game(hold())
    for _ in range(3):
        events = moon(game)
        assert not any(isinstance(e, GameOver) for e in events)
    assert game.totals == [0, 78, 78, 78]
    assert not game.over
    events = moon(game)
    assert game.totals == [0, 104, 104, 104]
    assert game.over
    assert game.winner == 0
    assert events[-1] == GameOver(totals=(0, 104, 104, 104), winner=0)
    assert isinstance(events[-2], HandScored)
    assert not game.can_start_hand()
    with refused(WrongPhase, "the game is over"):
        game.start_hand(hands=build_deal(MOON_DEAL))


def test_the_short_game_ends_at_fifty() -> None:
    game = Game(hold(end_at=50))
    moon(game)
    assert not game.over
    moon(game)
    assert game.totals == [0, 52, 52, 52]
    assert game.winner == 0


@pytest.mark.parametrize(("end_at", "over"), [(25, True), (26, True), (27, False)])
def test_the_end_is_reached_at_a_total_equal_to_the_limit(end_at: int, over: bool) -> None:
    game = Game(hold(end_at=end_at))
    moon(game)  # totals (0, 26, 26, 26)
    assert game.over is over


def test_a_tie_for_the_lowest_total_plays_another_hand() -> None:
    game = Game(hold())
    for _ in range(4):
        twenty_five(game)
    # seat 0 reached 100, but seats 2 and 3 tie for the lowest total
    assert game.totals == [100, 4, 0, 0]
    assert not game.over
    assert game.can_start_hand()
    events = twenty_five(game, seat=1)  # (0, 25, 1, 0): seat 3 alone is lowest
    assert game.totals == [100, 29, 1, 0]
    assert game.winner == 3
    assert events[-1] == GameOver((100, 29, 1, 0), 3)


def test_a_fixed_number_of_hands_ends_the_game_whatever_the_totals() -> None:
    game = Game(hold(end="hands", end_at=2))
    moon(game)
    assert not game.over
    moon(game)
    assert game.over
    assert game.totals == [0, 52, 52, 52]
    assert game.winner == 0


def test_a_tie_after_the_fixed_number_of_hands_plays_another_hand() -> None:
    game = Game(hold(end="hands", end_at=1))
    twenty_five(game)
    assert game.totals == [25, 1, 0, 0]
    assert not game.over
    twenty_five(game, seat=2)  # (0, 0, 25, 1)
    assert game.totals == [25, 1, 25, 1]
    assert not game.over  # seats 1 and 3 tie
    twenty_five(game, seat=3)  # (1, 0, 0, 25)
    assert game.totals == [26, 1, 25, 26]
    assert game.winner == 1


def test_the_moon_choice_goes_through_the_game_and_closes_the_hand() -> None:
    game = Game(hold(moon="choice"))
    events = moon(game)
    assert game.hand is not None and game.hand.phase is Phase.MOON_CHOICE
    assert game.totals == [0, 0, 0, 0]
    assert not any(isinstance(e, HandScored) for e in events)
    events = game.choose_moon(0, "subtract")
    assert events == [HandScored(1, (-26, 0, 0, 0), 0, "subtract")]
    assert game.totals == [-26, 0, 0, 0]
    assert game.hand_scores == [(-26, 0, 0, 0)]


def test_passing_through_the_game_locks_the_seat() -> None:
    game = Game()
    game.start_hand(hands=build_deal(["2C 3C 4C", "", "", ""], game.rules))
    game.pass_cards(0, [card("2C"), card("3C"), card("4C")])
    assert game.hand is not None
    assert game.hand.passes[0] is not None
    assert game.hand.phase is Phase.PASS

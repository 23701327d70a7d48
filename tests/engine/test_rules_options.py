"""The options of docs/rules.md's table, one by one (engine/rules.py and their
effect in engine/hand.py): pass cycles, moon scoring, first trick, Q♠ breaks
hearts, bonus card; the table's validation and derived tables. The end of
game options are in test_game.py."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import card, cards_of, mask_of
from engine.errors import BadMoonChoice, FirstTrickPoints, HeartsNotBroken, WrongPhase
from engine.events import HandScored, HeartsBroken, MoonChoiceNeeded, TrickWon
from engine.hand import Hand, Phase
from engine.rules import PASS_CYCLES, STANDARD, Rules, RulesError

from . import reference
from .support import (
    HEARTS,
    MOON_BONUS_DEAL,
    MOON_BONUS_PLAYS,
    MOON_DEAL,
    MOON_PLAYS,
    QUEEN_FIRST_DEAL,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
    build_deal,
    cached_rules,
    cards,
    make_hand,
    mask,
    play_script,
    refused,
    texts,
)


def hold(**options: Any) -> Rules:
    """Rules without passing plus ``options``."""
    return cached_rules(pass_cycle=("hold",), **options)


# -- defaults and validation -------------------------------------------------


def test_the_default_rules_are_the_standard_game() -> None:
    assert Rules() == STANDARD
    assert STANDARD.to_json() == {
        "players": 4,
        "pass_cycle": ["left", "right", "across", "hold"],
        "pass_count": 3,
        "moon": "add",
        "first_trick": "no_points",
        "queen_breaks_hearts": False,
        "end": "points",
        "end_at": 100,
        "bonus_card": None,
    }


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        ({"players": 2}, "players must be between 3 and 10"),
        ({"players": 11}, "players must be between 3 and 10"),
        ({"pass_cycle": ("left", "up")}, "pass_cycle must list left, right, across or hold"),
        (
            {"players": 3, "pass_cycle": ("left", "across")},
            "passing across needs an even number of players",
        ),
        ({"moon": "double"}, "moon must be add, subtract or choice"),
        ({"first_trick": "hearts"}, "first_trick must be no_points, no_queen or anything"),
        ({"end": "time"}, "end must be points or hands"),
        ({"end_at": 0}, "end_at must be a positive number"),
        ({"bonus_card": "QS"}, "bonus_card must be JD, TD or null"),
        ({"pass_count": 14}, "pass_count is out of range"),
        ({"pass_count": -1}, "pass_count is out of range"),
    ],
)
def test_rules_that_cannot_be_played_are_refused(options: dict[str, Any], sentence: str) -> None:
    with refused(RulesError, sentence):
        Rules(**options)
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize(
    ("players", "cycle"),
    [
        (3, ("left", "right", "hold")),
        (4, ("left", "right", "across", "hold")),
        (5, ("left", "right", "hold")),
        (6, ("left", "right", "across", "hold")),
    ],
)
def test_the_default_pass_cycle_skips_across_when_no_seat_is_across(
    players: int, cycle: tuple[str, ...]
) -> None:
    assert Rules(players=players).pass_cycle == cycle
    assert Rules.from_json({"players": players}).pass_cycle == cycle


@pytest.mark.parametrize(
    ("players", "removed", "hand_size", "first_lead"),
    [
        (3, "2D", 17, "2C"),
        (4, "", 13, "2C"),
        (5, "2C 2D", 10, "3C"),
        (6, "2C 2D 3C 3D", 8, "4C"),
        (7, "2D 2C 3D", 7, "3C"),
        (8, "2D 2C 3D 3C", 6, "4C"),
        (9, "2D 2C 3D 3C 4D 4C 5D", 5, "5C"),
        (10, "2D 2C", 5, "3C"),
    ],
)
def test_the_deck_loses_low_minor_cards_so_it_divides_evenly(
    players: int, removed: str, hand_size: int, first_lead: str
) -> None:
    rules = Rules(players=players, pass_cycle=("left",))
    t = rules.tables
    assert t.deck == (1 << 52) - 1 & ~mask(removed)
    assert t.hand_size == hand_size
    assert t.first_lead == card(first_lead)
    assert t.moon_cards == mask(HEARTS + " QS")
    assert t.moon_points == 26
    assert set(cards_of(t.deck)) == {card(c) for c in reference.deck(players)}


def test_a_five_player_hand_is_led_with_the_three_of_clubs() -> None:
    rules = Rules(players=5, pass_cycle=("hold",))
    hand = Hand(rules, 1, build_deal(["", "", "3C", "", ""], rules))
    assert hand.turn == 2
    assert hand.legal_cards() == [card("3C")]
    with refused(Exception, "the first trick must be led with 3♣"):
        hand.play(2, cards_of(hand.hands[2])[-1])


# -- pass cycles -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cycle", "directions"),
    [
        ("left,right,across,hold", "left right across hold left right across hold"),
        ("left,across,right,hold", "left across right hold left across right hold"),
        ("left", "left left left left left left left left"),
        ("right", "right right right right right right right right"),
        ("none", "hold hold hold hold hold hold hold hold"),
    ],
)
def test_the_pass_direction_follows_the_cycle_by_hand_number(cycle: str, directions: str) -> None:
    rules = Rules.from_json({"pass_cycle": cycle})
    assert rules.pass_cycle == PASS_CYCLES[cycle]
    for number, expected in enumerate(directions.split(), start=1):
        assert rules.pass_direction(number) == expected
        hand = Hand(rules, number, build_deal(["", "", "", ""], rules))
        assert hand.direction == expected
        assert hand.phase is (Phase.PLAY if expected == "hold" else Phase.PASS)


@pytest.mark.parametrize("direction", ["left", "right", "across"])
def test_each_seat_receives_the_cards_of_the_seat_the_direction_names(direction: str) -> None:
    rules = Rules(pass_cycle=(direction,))
    hand = Hand(rules, 1, build_deal(["", "", "", ""], rules))
    dealt = list(hand.hands)
    given = [cards_of(h)[-3:] for h in dealt]  # each seat passes its three highest
    for seat in (2, 0, 3, 1):
        hand.pass_cards(seat, given[seat])
    for seat in range(4):
        to = reference.receiver(seat, direction, 4)
        assert hand.receiver_of(seat) == to
        assert hand.giver_to(to) == seat
        assert hand.received[to] == mask_of(given[seat])
        assert hand.hands[to] == dealt[to] & ~mask_of(given[to]) | mask_of(given[seat])


def test_a_hold_hand_has_no_passing() -> None:
    rules = Rules()
    hand = Hand(rules, 4, build_deal(["", "", "", ""], rules))
    assert hand.direction == "hold"
    assert hand.phase is Phase.PLAY
    assert hand.legal_pass_cards(0) == []
    with refused(WrongPhase, "there is no passing this hand"):
        hand.pass_cards(0, cards_of(hand.hands[0])[:3])


def test_six_players_pass_across_three_seats() -> None:
    rules = Rules(players=6, pass_cycle=("across",))
    hand = Hand(rules, 1, build_deal([""] * 6, rules))
    assert [hand.receiver_of(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]


# -- moon scoring ------------------------------------------------------------


@pytest.mark.parametrize(
    ("moon", "points"),
    [("add", (0, 26, 26, 26)), ("subtract", (-26, 0, 0, 0))],
)
def test_shooting_the_moon_scores_by_the_moon_option(moon: str, points: tuple[int, ...]) -> None:
    hand = make_hand(MOON_DEAL, hold(moon=moon))
    play_script(hand, MOON_PLAYS)
    assert hand.phase is Phase.DONE
    assert hand.points_taken() == [26, 0, 0, 0]
    assert hand.scores == points
    assert hand.shooter == 0
    assert hand.moon_choice == moon


def test_the_last_trick_of_a_moon_reports_the_scores() -> None:
    hand = make_hand(MOON_DEAL, hold(moon="add"))
    play_script(hand, MOON_PLAYS.rsplit(" ", 1)[0])
    events = hand.play(hand.turn, card("AH"))
    assert events[-1] == HandScored(
        hand_number=1, points=(0, 26, 26, 26), shooter=0, moon_choice="add"
    )


@pytest.mark.parametrize(
    ("choice", "points"),
    [("add", (0, 26, 26, 26)), ("subtract", (-26, 0, 0, 0))],
)
def test_with_moon_choice_the_shooter_chooses_after_the_last_trick(
    choice: str, points: tuple[int, ...]
) -> None:
    hand = make_hand(MOON_DEAL, hold(moon="choice"))
    play_script(hand, MOON_PLAYS.rsplit(" ", 1)[0])
    events = hand.play(hand.turn, card("AH"))
    assert events[-1] == MoonChoiceNeeded(seat=0)
    assert hand.phase is Phase.MOON_CHOICE
    assert hand.scores is None
    assert hand.legal_mask() == 0
    with refused(BadMoonChoice, "only the player who shot the moon chooses"):
        hand.choose_moon(2, choice)
    assert hand.can_choose_moon(0, choice)
    assert hand.choose_moon(0, choice) == [HandScored(1, points, 0, choice)]
    assert hand.phase.value == "done"
    assert hand.scores == points
    with refused(BadMoonChoice, "there is no moon choice to make"):
        hand.choose_moon(0, choice)


@pytest.mark.parametrize("moon", ["add", "subtract", "choice"])
def test_twenty_five_points_is_not_a_moon(moon: str) -> None:
    # seat 0 takes 12 hearts and Q♠; seat 1 took one heart
    hand = make_hand(TWENTY_FIVE_DEAL, hold(moon=moon))
    play_script(hand, TWENTY_FIVE_PLAYS)
    assert hand.phase is Phase.DONE
    assert hand.shooter is None
    assert hand.moon_choice is None
    assert hand.scores == (25, 1, 0, 0)


@pytest.mark.parametrize(
    ("bonus", "moon", "points"),
    [
        # seat 0 takes every card, the bonus card too: it counts for seat 0 either way
        ("JD", "add", (-10, 26, 26, 26)),
        ("JD", "subtract", (-36, 0, 0, 0)),
        ("TD", "add", (-10, 26, 26, 26)),
        ("TD", "subtract", (-36, 0, 0, 0)),
        (None, "add", (0, 26, 26, 26)),
    ],
)
def test_a_moon_shooter_who_took_the_bonus_card_keeps_its_minus_ten(
    bonus: str | None, moon: str, points: tuple[int, ...]
) -> None:
    hand = make_hand(MOON_DEAL, hold(moon=moon, bonus_card=bonus))
    play_script(hand, MOON_PLAYS)
    assert hand.shooter == 0
    assert hand.scores == points
    expected_sum = (78 if moon == "add" else -26) - (10 if bonus else 0)
    assert sum(points) == expected_sum


@pytest.mark.parametrize(
    ("bonus", "moon", "points"),
    [
        # J♦ went to seat 1 on trick 1; the moon still counts (J♦ is not a moon card)
        ("JD", "add", (0, 16, 26, 26)),
        ("JD", "subtract", (-26, -10, 0, 0)),
        # 10♦ went to the shooter
        ("TD", "add", (-10, 26, 26, 26)),
        ("TD", "subtract", (-36, 0, 0, 0)),
        (None, "subtract", (-26, 0, 0, 0)),
    ],
)
def test_the_bonus_card_counts_for_whoever_took_it_in_a_moon_hand(
    bonus: str | None, moon: str, points: tuple[int, ...]
) -> None:
    hand = make_hand(MOON_BONUS_DEAL, hold(moon=moon, bonus_card=bonus))
    play_script(hand, MOON_BONUS_PLAYS)
    assert hand.shooter == 0
    assert hand.scores == points


@pytest.mark.parametrize("bonus", ["JD", "TD"])
def test_the_bonus_card_is_minus_ten_to_its_taker(bonus: str) -> None:
    hand = make_hand(TWENTY_FIVE_DEAL, hold(bonus_card=bonus))
    play_script(hand, TWENTY_FIVE_PLAYS)
    assert hand.taken[0] >> card(bonus) & 1
    assert hand.scores == (15, 1, 0, 0)
    assert sum(hand.scores) == 16


def test_a_trick_holding_only_the_bonus_card_is_worth_minus_ten() -> None:
    hand = make_hand(MOON_BONUS_DEAL, hold(bonus_card="JD"))
    events = []
    for text in ["2C", "AC", "3S", "JD"]:
        events += hand.play(hand.turn, card(text))
    assert TrickWon(0, 0, 1, tuple(cards("2C AC 3S JD")), -10) in events
    assert hand.points_taken() == [0, -10, 0, 0]


def test_without_a_bonus_card_the_jack_of_diamonds_is_worth_nothing() -> None:
    hand = make_hand(TWENTY_FIVE_DEAL, hold())
    play_script(hand, TWENTY_FIVE_PLAYS)
    assert hand.scores == (25, 1, 0, 0)


@pytest.mark.parametrize(("text", "normal"), [("10D", "TD"), ("J♦", "JD"), ("jd", "JD")])
def test_the_bonus_card_may_be_written_in_any_card_form(text: str, normal: str) -> None:
    assert Rules.from_json({"bonus_card": text}).bonus_card == normal


# -- the first trick ---------------------------------------------------------

VOID_WITH_DIAMOND = ["2C", "3C", "4C", "2D QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"]
ONLY_POINTS = ["2C", "3C", "4C", "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"]


@pytest.mark.parametrize(
    ("first_trick", "legal"),
    [
        ("no_points", "2D"),
        ("no_queen", "2D 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"),
        ("anything", "2D 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH QS"),
    ],
)
def test_first_trick_option_decides_what_a_void_seat_may_discard(
    first_trick: str, legal: str
) -> None:
    hand = make_hand(VOID_WITH_DIAMOND, hold(first_trick=first_trick))
    play_script(hand, "2C 3C 4C")
    assert texts(hand.legal_mask()) == legal


@pytest.mark.parametrize(
    ("first_trick", "legal"),
    [
        ("no_points", HEARTS.replace(" AH", "") + " QS"),
        ("no_queen", HEARTS.replace(" AH", "")),
        ("anything", HEARTS.replace(" AH", "") + " QS"),
    ],
)
def test_first_trick_a_hand_of_only_points_may_play_what_the_option_allows(
    first_trick: str, legal: str
) -> None:
    hand = make_hand(ONLY_POINTS, hold(first_trick=first_trick))
    play_script(hand, "2C 3C 4C")
    assert texts(hand.legal_mask()) == legal


def test_first_trick_no_queen_refuses_the_queen_with_its_own_sentence() -> None:
    hand = make_hand(VOID_WITH_DIAMOND, hold(first_trick="no_queen"))
    play_script(hand, "2C 3C 4C")
    with refused(FirstTrickPoints, "no Q♠ on the first trick"):
        hand.play(3, card("QS"))
    events = hand.play(3, card("2H"))
    assert HeartsBroken(by_seat=3) in events


def test_first_trick_anything_lets_the_queen_fall_on_the_first_trick() -> None:
    hand = make_hand(VOID_WITH_DIAMOND, hold(first_trick="anything"))
    play_script(hand, "2C 3C 4C")
    events = hand.play(3, card("QS"))
    assert TrickWon(0, 0, 2, tuple(cards("2C 3C 4C QS")), 13) in events


def test_after_the_first_trick_a_void_seat_may_discard_points() -> None:
    # seat 3 is void in diamonds on trick 2 and may throw Q♠ or a heart under no_points
    hand = make_hand(["AC 2D", "2C 3D", "3C 4D", "4C QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"])
    play_script(hand, "2C 3C 4C AC 2D 3D 4D")
    assert hand.turn == 3
    assert hand.legal_mask() == hand.hands[3] == mask("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")
    events = hand.play(3, card("QS"))
    assert TrickWon(1, 0, 2, tuple(cards("2D 3D 4D QS")), 13) in events


# -- Q♠ breaks hearts --------------------------------------------------------

QUEEN_FIRST = QUEEN_FIRST_DEAL


def test_by_default_the_queen_does_not_break_hearts() -> None:
    hand = make_hand(QUEEN_FIRST, hold())
    play_script(hand, "2C 3C 4C AC 2S QS 3S 4S")
    assert not hand.broken
    with refused(HeartsNotBroken, "hearts are not broken yet"):
        hand.play(1, card("5H"))


def test_with_queen_breaks_hearts_the_queen_breaks_hearts() -> None:
    hand = make_hand(QUEEN_FIRST, hold(queen_breaks_hearts=True))
    play_script(hand, "2C 3C 4C AC 2S")
    events = hand.play(1, card("QS"))
    assert HeartsBroken(by_seat=1) in events
    play_script(hand, "3S 4S")
    assert hand.broken
    assert hand.turn == 1
    assert hand.can_play(1, card("5H"))
    assert hand.legal_mask() == hand.hands[1]


def test_with_queen_breaks_hearts_the_queen_must_still_be_led_before_hearts() -> None:
    hand = make_hand(
        ["AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "2C", "3C", "4C"],
        hold(queen_breaks_hearts=True),
    )
    play_script(hand, "2C 3C 4C AC")
    assert texts(hand.legal_mask()) == "QS"


# -- JSON form ---------------------------------------------------------------


def test_missing_json_fields_take_the_defaults() -> None:
    assert Rules.from_json(None) == STANDARD
    assert Rules.from_json({}) == STANDARD
    assert Rules.from_json({"moon": "subtract"}) == Rules(moon="subtract")


def test_rules_round_trip_through_json() -> None:
    rules = Rules(
        players=6,
        pass_cycle=("left", "across", "hold"),
        moon="choice",
        first_trick="anything",
        queen_breaks_hearts=True,
        end="hands",
        end_at=8,
        bonus_card="TD",
    )
    assert Rules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        ([], "rules must be a JSON object"),
        ({"colour": "red"}, "unknown rules field 'colour'"),
        ({"pass_cycle": "fast"}, "unknown pass_cycle 'fast'"),
        ({"pass_cycle": 3}, "pass_cycle must be a list or a named cycle"),
        ({"players": "4"}, "players must be an integer"),
        ({"end_at": True}, "end_at must be an integer"),
        ({"queen_breaks_hearts": "yes"}, "queen_breaks_hearts must be true or false"),
        ({"bonus_card": "XD"}, "unknown card 'XD'"),
        ({"bonus_card": "AS"}, "bonus_card must be JD, TD or null"),
    ],
)
def test_bad_json_rules_are_refused_with_a_sentence(data: object, sentence: str) -> None:
    with refused(RulesError, sentence):
        Rules.from_json(data)

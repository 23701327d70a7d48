"""Every refusal sentence of docs/hand-record.md, with its class and code
(engine/errors.py); for each, verify_*, can_* and the action agree and the
refused action changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from engine import errors
from engine.cards import card, cards_of
from engine.errors import (
    BadMoonChoice,
    BadPass,
    CardNotHeld,
    ClientError,
    FirstTrickPoints,
    HeartsError,
    HeartsNotBroken,
    MustFollowSuit,
    MustLeadFirstCard,
    NotYourTurn,
    RecordError,
    RuleViolation,
    ServerFault,
    WrongPhase,
)
from engine.hand import Hand
from engine.rules import Rules

from .support import (
    FOLLOW_DEAL,
    HOLD,
    MOON_DEAL,
    MOON_PLAYS,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
    cards,
    make_hand,
    play_script,
    refused,
    snapshot,
)

PASSING = Rules()  # hand 1 passes left


@dataclass(frozen=True)
class Refusal:
    """A position and an intent the rules refuse."""

    code: str
    kind: type[RuleViolation]
    sentence: str
    setup: Callable[[], Hand]
    action: str  # "play", "pass" or "moon"
    args: tuple[Any, ...]


def _passing_hand() -> Hand:
    return make_hand(["2C AC QS", "", "", ""], PASSING)


def _passed_hand() -> Hand:
    hand = _passing_hand()
    for seat in range(4):
        hand.pass_cards(seat, cards_of(hand.hands[seat])[-3:])
    return hand


def _one_seat_passed() -> Hand:
    hand = _passing_hand()
    hand.pass_cards(0, cards("2C AC QS"))
    return hand


def _done_hand() -> Hand:
    hand = make_hand(MOON_DEAL)
    play_script(hand, MOON_PLAYS)
    return hand


def _moon_choice_hand() -> Hand:
    hand = make_hand(MOON_DEAL, Rules(pass_cycle=("hold",), moon="choice"))
    play_script(hand, MOON_PLAYS)
    return hand


def _after(deal: list[str], script: str, rules: Rules = HOLD) -> Callable[[], Hand]:
    def setup() -> Hand:
        hand = make_hand(deal, rules)
        play_script(hand, script)
        return hand

    return setup


FOLLOW = FOLLOW_DEAL
VOID_WITH_DIAMOND = ["2C", "3C", "4C", "2D QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"]

REFUSALS = [
    Refusal(
        "wrong_phase",
        WrongPhase,
        "cards are being passed; play starts after the pass",
        _passing_hand,
        "play",
        (0, card("2C")),
    ),
    Refusal("wrong_phase", WrongPhase, "the hand is over", _done_hand, "play", (0, card("2C"))),
    Refusal(
        "wrong_phase",
        WrongPhase,
        "the hand is over; the moon shooter is choosing the scoring",
        _moon_choice_hand,
        "play",
        (0, card("2C")),
    ),
    Refusal(
        "wrong_phase",
        WrongPhase,
        "there is no passing this hand",
        _after(["", "", "", ""], ""),
        "pass",
        (0, cards("2C 3C 4C")),
    ),
    Refusal(
        "wrong_phase",
        WrongPhase,
        "the cards have already been passed",
        _passed_hand,
        "pass",
        (1, [0, 1, 2]),
    ),
    Refusal(
        "not_your_turn",
        NotYourTurn,
        "it is West's turn",
        _after(["2C", "", "", ""], "2C"),
        "play",
        (2, card("3C")),
    ),
    Refusal(
        "card_not_held",
        CardNotHeld,
        "you do not hold Q♠",
        _after(["2C", "", "QS", ""], "2C"),
        "play",
        (1, card("QS")),
    ),
    Refusal(
        "card_not_held",
        CardNotHeld,
        "you do not hold Q♠",
        lambda: make_hand(["2C 3C", "QS", "", ""], PASSING),
        "pass",
        (0, cards("2C 3C QS")),
    ),
    Refusal(
        "must_lead_first_card",
        MustLeadFirstCard,
        "the first trick must be led with 2♣",
        _after(["2C AD", "", "", ""], ""),
        "play",
        (0, card("AD")),
    ),
    Refusal(
        "must_follow_suit",
        MustFollowSuit,
        "you must follow suit (you hold diamonds)",
        _after(FOLLOW, "2C 3C 4C AC 2D"),
        "play",
        (0, card("5C")),
    ),
    Refusal(
        "hearts_not_broken",
        HeartsNotBroken,
        "hearts are not broken yet",
        _after(["AC 2H 2D", "2C", "3C", "4C"], "2C 3C 4C AC"),
        "play",
        (0, card("2H")),
    ),
    Refusal(
        "first_trick_points",
        FirstTrickPoints,
        "no hearts or Q♠ on the first trick",
        _after(VOID_WITH_DIAMOND, "2C 3C 4C"),
        "play",
        (3, card("QS")),
    ),
    Refusal(
        "first_trick_points",
        FirstTrickPoints,
        "no Q♠ on the first trick",
        _after(VOID_WITH_DIAMOND, "2C 3C 4C", Rules(pass_cycle=("hold",), first_trick="no_queen")),
        "play",
        (3, card("QS")),
    ),
    Refusal(
        "bad_pass", BadPass, "pass exactly 3 cards", _passing_hand, "pass", (0, cards("2C AC"))
    ),
    Refusal(
        "bad_pass",
        BadPass,
        "pass exactly 3 cards",
        _passing_hand,
        "pass",
        (0, cards("2C AC QS 3D")),
    ),
    Refusal(
        "bad_pass",
        BadPass,
        "pass 3 different cards",
        _passing_hand,
        "pass",
        (0, cards("2C AC AC")),
    ),
    Refusal(
        "bad_pass",
        BadPass,
        "you have already passed",
        _one_seat_passed,
        "pass",
        (0, cards("2C AC QS")),
    ),
    Refusal(
        "bad_moon_choice",
        BadMoonChoice,
        "there is no moon choice to make",
        _after(TWENTY_FIVE_DEAL, TWENTY_FIVE_PLAYS, Rules(pass_cycle=("hold",), moon="choice")),
        "moon",
        (0, "add"),
    ),
    Refusal(
        "bad_moon_choice",
        BadMoonChoice,
        "there is no moon choice to make",
        _after(["2C", "", "", ""], ""),
        "moon",
        (0, "subtract"),
    ),
    Refusal(
        "bad_moon_choice",
        BadMoonChoice,
        "only the player who shot the moon chooses",
        _moon_choice_hand,
        "moon",
        (1, "add"),
    ),
    Refusal(
        "bad_moon_choice",
        BadMoonChoice,
        "choose add (others +26) or subtract (you -26)",
        _moon_choice_hand,
        "moon",
        (0, "double"),
    ),
    Refusal("illegal", RuleViolation, "there is no such seat", _passing_hand, "pass", (4, [])),
    Refusal("illegal", RuleViolation, "there is no such seat", _done_hand, "play", (-1, 0)),
    Refusal(
        "illegal", RuleViolation, "there is no such seat", _moon_choice_hand, "moon", (9, "add")
    ),
]


def _entry_points(hand: Hand, action: str) -> tuple[Callable[..., Any], ...]:
    if action == "play":
        return hand.verify_play, hand.can_play, hand.play
    if action == "pass":
        return hand.verify_pass, hand.can_pass, hand.pass_cards
    return hand.verify_moon_choice, hand.can_choose_moon, hand.choose_moon


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: f"{r.code}: {r.sentence}")
def test_each_refusal_has_its_sentence_class_and_code(refusal: Refusal) -> None:
    hand = refusal.setup()
    before = snapshot(hand)
    verify, can, act = _entry_points(hand, refusal.action)
    with refused(refusal.kind, refusal.sentence):
        verify(*refusal.args)
    assert can(*refusal.args) is False
    with pytest.raises(refusal.kind) as info:
        act(*refusal.args)
    assert type(info.value) is refusal.kind
    assert info.value.code == refusal.code
    assert info.value.message == refusal.sentence
    assert snapshot(hand) == before


def test_every_code_of_the_docs_table_is_covered() -> None:
    documented = {
        "wrong_phase",
        "not_your_turn",
        "card_not_held",
        "must_lead_first_card",
        "must_follow_suit",
        "hearts_not_broken",
        "first_trick_points",
        "bad_pass",
        "bad_moon_choice",
    }
    assert documented <= {r.code for r in REFUSALS}


def test_rule_violations_are_client_errors_with_distinct_codes() -> None:
    kinds = [
        WrongPhase,
        NotYourTurn,
        CardNotHeld,
        MustLeadFirstCard,
        MustFollowSuit,
        HeartsNotBroken,
        FirstTrickPoints,
        BadPass,
        BadMoonChoice,
    ]
    for kind in kinds:
        assert issubclass(kind, RuleViolation)
        assert issubclass(kind, ClientError)
        assert issubclass(kind, HeartsError)
        assert not issubclass(kind, ServerFault)
    codes = [k.code for k in kinds]
    assert len(set(codes)) == len(codes)
    assert RuleViolation.code == "illegal"
    assert ClientError.code == "bad_request"


def test_record_errors_are_client_errors_and_server_faults_are_not() -> None:
    assert issubclass(RecordError, ClientError)
    assert not issubclass(RecordError, RuleViolation)
    assert RecordError.code == "bad_record"
    assert issubclass(ServerFault, HeartsError)
    assert not issubclass(ServerFault, ClientError)
    assert ServerFault.code == "internal_error"


def test_a_client_error_carries_its_sentence_as_message() -> None:
    err = errors.HeartsNotBroken("hearts are not broken yet")
    assert err.message == "hearts are not broken yet"
    assert str(err) == "hearts are not broken yet"

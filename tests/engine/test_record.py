"""Hand records (engine/record.py, docs/hand-record.md): writing, replaying,
verifying; and storing a whole game mid-hand."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cards import card, cards_of
from engine.errors import RecordError
from engine.game import Game
from engine.hand import Hand, Phase
from engine.record import game_from_json, game_to_json, hand_record, replay, verify_record
from engine.rules import Rules

from .support import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    HOLD,
    MOON_DEAL,
    MOON_PLAYS,
    SPADES,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
    build_deal,
    make_hand,
    play_script,
    refused,
    snapshot,
    texts,
)

SUITS = [CLUBS.split(), DIAMONDS.split(), SPADES.split(), HEARTS.split()]


def record(**fields: Any) -> dict[str, Any]:
    """A record of the one-suit-per-seat deal on hand 4 (a hold hand) plus ``fields``."""
    rec: dict[str, Any] = {"hand": 4, "deal": SUITS}
    rec.update(fields)
    return rec


# -- writing -----------------------------------------------------------------


def test_a_finished_hold_hand_records_rules_deal_and_plays_without_passes() -> None:
    hand = make_hand(MOON_DEAL)
    play_script(hand, MOON_PLAYS)
    rec = hand_record(hand)
    assert set(rec) == {"rules", "hand", "deal", "plays"}
    assert rec["rules"] == HOLD.to_json()
    assert rec["hand"] == 1
    assert rec["deal"] == SUITS
    assert rec["plays"] == MOON_PLAYS.split()
    json.dumps(rec)  # plain JSON


def test_a_partial_pass_records_null_for_seats_that_have_not_passed() -> None:
    rules = Rules()
    hand = Hand(rules, 1, build_deal(["2C 3C 4C", "", "", ""], rules))
    hand.pass_cards(0, [card("4C"), card("2C"), card("3C")])
    rec = hand_record(hand)
    assert rec["passes"] == [["2C", "3C", "4C"], None, None, None]
    assert rec["plays"] == []
    assert verify_record(rec) == {"ok": True, "complete": False, "phase": "pass"}


def test_the_moon_choice_is_recorded_only_under_the_choice_option() -> None:
    choice = make_hand(MOON_DEAL, Rules(pass_cycle=("hold",), moon="choice"))
    play_script(choice, MOON_PLAYS)
    assert "moon_choice" not in hand_record(choice)
    choice.choose_moon(0, "subtract")
    assert hand_record(choice)["moon_choice"] == "subtract"
    added = make_hand(MOON_DEAL, Rules(pass_cycle=("hold",), moon="add"))
    play_script(added, MOON_PLAYS)
    assert "moon_choice" not in hand_record(added)


# -- verifying ---------------------------------------------------------------


def test_a_complete_record_verifies_to_its_points() -> None:
    assert verify_record(record(plays=MOON_PLAYS.split())) == {
        "ok": True,
        "complete": True,
        "points": [0, 26, 26, 26],
    }


def test_a_record_without_rules_plays_the_standard_game() -> None:
    # hand 1 of the standard game passes left: no passes yet
    assert verify_record({"deal": SUITS}) == {"ok": True, "complete": False, "phase": "pass"}


def test_a_partial_play_reports_the_seat_to_move_and_its_legal_cards_sorted() -> None:
    rec = {
        "hand": 4,
        "deal": [t.split() for t in TWENTY_FIVE_DEAL],
        "plays": TWENTY_FIVE_PLAYS.split()[:5],
    }
    # seat 1 won trick 1 with A♣ and led 2♦; seat 2 holds only spades
    assert verify_record(rec) == {
        "ok": True,
        "complete": False,
        "phase": "play",
        "to_move": 2,
        "legal": ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    }


def test_legal_cards_are_sorted_by_suit_then_rank() -> None:
    # seat 2 has no clubs on the first trick: anything but Q♠ and hearts
    seat2 = "AH KS 3D 2D QD 5S 4H 9D JS 6D 8S TD 7S"
    hand = make_hand(["2C", "AC", seat2, ""])
    play_script(hand, "2C AC")
    out = verify_record(hand_record(hand))
    assert out["to_move"] == 2
    assert out["legal"] == ["2D", "3D", "6D", "9D", "TD", "QD", "5S", "7S", "8S", "JS", "KS"]


def test_a_moon_under_the_choice_option_waits_for_the_shooter() -> None:
    rec = record(rules={"moon": "choice"}, plays=MOON_PLAYS.split())
    assert verify_record(rec) == {
        "ok": True,
        "complete": False,
        "phase": "moon_choice",
        "to_move": 0,
    }
    assert verify_record({**rec, "moon_choice": "subtract"})["points"] == [-26, 0, 0, 0]
    assert verify_record({**rec, "moon_choice": "add"})["points"] == [0, 26, 26, 26]


@pytest.mark.parametrize(
    ("fields", "step", "error"),
    [
        ({"plays": ["3C"]}, 0, "the first trick must be led with 2♣"),
        ({"plays": ["2C", "2D", "QS"]}, 2, "no hearts or Q♠ on the first trick"),
        ({"plays": ["2C", "2D", "2S", "2H", "3C", "AH"]}, 5, "you do not hold A♥"),
        ({"passes": [["2C", "3C", "4C"]]}, "pass", "there is no passing this hand"),
        ({"plays": [*MOON_PLAYS.split(), "2C"]}, 52, "the hand is over"),
        ({"plays": MOON_PLAYS.split(), "moon_choice": "subtract"}, "moon_choice", "there is no moon choice to make"),
    ],
)  # fmt: skip
def test_an_illegal_record_names_the_first_illegal_step(
    fields: dict[str, Any], step: int | str, error: str
) -> None:
    out = verify_record(record(**fields))
    assert out == {"ok": False, "step": step, "error": error}


def test_a_bad_pass_is_reported_at_step_pass() -> None:
    base = {"hand": 1, "deal": SUITS}
    assert verify_record({**base, "passes": [["2C", "3C"], None, None, None]}) == {
        "ok": False,
        "step": "pass",
        "error": "pass exactly 3 cards",
    }
    assert verify_record({**base, "passes": [["2C", "2C", "3C"]]})["error"] == (
        "pass 3 different cards"
    )
    assert verify_record({**base, "passes": [["2C", "3C", "2D"]]})["error"] == (
        "you do not hold 2♦"
    )


def test_plays_before_the_pass_is_finished_are_illegal() -> None:
    out = verify_record({"hand": 1, "deal": SUITS, "passes": [["2C", "3C", "4C"]], "plays": ["5C"]})
    assert out == {
        "ok": False,
        "step": 0,
        "error": "cards are being passed; play starts after the pass",
    }


def test_a_bad_moon_choice_value_is_reported_at_step_moon_choice() -> None:
    rec = record(rules={"moon": "choice"}, plays=MOON_PLAYS.split(), moon_choice="double")
    assert verify_record(rec) == {
        "ok": False,
        "step": "moon_choice",
        "error": "choose add (others +26) or subtract (you -26)",
    }


def test_other_card_forms_are_read_and_written_in_the_two_letter_form() -> None:
    deal = [[c.replace("T", "10") for c in s] for s in SUITS]
    deal[2] = [c.replace("S", "♠") for c in deal[2]]
    out = verify_record({"hand": 4, "deal": deal, "plays": ["2C", "2D"]})
    assert out["legal"] == ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"]


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ([], "a hand record must be a JSON object"),
        ("2C", "a hand record must be a JSON object"),
        (record(seat=1), "unknown record field 'seat'"),
        (record(rules={"players": 11}), "rules: players must be between 3 and 10"),
        (record(rules={"colour": 1}), "rules: unknown rules field 'colour'"),
        (record(hand=0), "hand must be a positive integer"),
        (record(hand=True), "hand must be a positive integer"),
        (record(deal="all"), "deal must be a list of hands"),
        (record(deal=SUITS[:3]), "deal: a deal needs 4 hands"),
        (record(deal=[SUITS[0], SUITS[1], SUITS[2], [*SUITS[3][:-1], "2C"]]), "deal: a card was dealt twice"),
        (record(deal=[SUITS[0], SUITS[1], SUITS[2], SUITS[3][:-1]]), "deal: each hand must hold 13 cards"),
        (record(deal=[SUITS[0], SUITS[1], SUITS[2], [*SUITS[3][:-1], "XH"]]), "deal: unknown card 'XH'"),
        (record(plays="2C"), "plays must be a list of cards"),
        (record(plays=["2C", "1C"]), "plays: unknown card '1C'"),
        (record(plays=[7]), "plays: unknown card 7"),
        (record(passes="left"), "passes must be a list of up to 4 entries"),
        (record(passes=[None] * 5), "passes must be a list of up to 4 entries"),
        (record(passes=[["2C", None, "4C"]]), "passes: unknown card None"),
    ],
)  # fmt: skip
def test_an_unreadable_record_raises_a_record_error(data: object, error: str) -> None:
    with refused(RecordError, error):
        verify_record(data)


def test_a_record_cannot_play_out_of_turn() -> None:
    # the seat of each card is implied: seat 1 is to move and does not hold 3C
    out = verify_record(record(plays=["2C", "3C"]))
    assert out == {"ok": False, "step": 1, "error": "you do not hold 3♣"}


def test_replay_rebuilds_the_same_hand() -> None:
    rules = Rules(moon="choice", bonus_card="JD")
    hand = Hand(rules, 2, build_deal(["2C", "", "", ""], rules))
    for seat in range(4):
        hand.pass_cards(seat, cards_of(hand.hands[seat])[-3:])
    for _ in range(9):
        hand.play(hand.turn, hand.legal_cards()[-1])
    again = replay(json.loads(json.dumps(hand_record(hand))))
    assert snapshot(again) == snapshot(hand)
    assert texts(again.legal_mask()) == texts(hand.legal_mask())


# -- a stored game -----------------------------------------------------------


def test_a_game_round_trips_through_json_mid_hand() -> None:
    game = Game(Rules(moon="subtract"))
    game.totals = [3, 40, 7, 26]
    game.hand_scores = [(3, 14, 7, 2), (0, 26, 0, 0), (0, 0, 0, 24)]
    game.start_hand(hands=build_deal(TWENTY_FIVE_DEAL, game.rules))  # hand 1: passing left
    assert game.hand is not None
    for seat in (3, 1, 0, 2):
        game.pass_cards(seat, cards_of(game.hand.hands[seat])[:3])
    for _ in range(6):
        game.play(game.hand.turn, game.hand.legal_cards()[0])
    data = json.loads(json.dumps(game_to_json(game)))
    back = game_from_json(data)
    assert back.rules == game.rules
    assert back.totals == game.totals
    assert back.hand_scores == game.hand_scores
    assert back.winner is None
    assert back.hand is not None
    assert snapshot(back.hand) == snapshot(game.hand)
    # both go on identically to the end
    while not game.over and game.hand.phase is Phase.PLAY:
        c = game.hand.legal_cards()[-1]
        a = game.play(game.hand.turn, c)
        b = back.play(back.hand.turn, c)
        assert a == b
    assert back.totals == game.totals


def test_a_game_without_a_hand_round_trips() -> None:
    game = Game(Rules(end="hands", end_at=8))
    back = game_from_json(json.loads(json.dumps(game_to_json(game))))
    assert back.hand is None
    assert back.rules == game.rules
    assert back.totals == [0, 0, 0, 0]


def test_a_stored_hand_that_does_not_replay_is_a_record_error() -> None:
    game = Game(HOLD)
    game.start_hand(hands=build_deal(MOON_DEAL))
    data = game_to_json(game)
    data["hand"]["plays"] = ["3C"]
    with refused(RecordError, "stored hand does not replay: the first trick must be led with 2♣"):
        game_from_json(data)


def test_the_twenty_five_record_scores_as_derived_by_hand() -> None:
    rec = {
        "hand": 4,
        "deal": [t.split() for t in TWENTY_FIVE_DEAL],
        "plays": TWENTY_FIVE_PLAYS.split(),
    }
    assert verify_record(rec)["points"] == [25, 1, 0, 0]

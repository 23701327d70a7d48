"""Medium's habits (seed 000, "Поради") on constructed positions."""

from __future__ import annotations

import random

from bots.api import decide
from bots.passing import careful_pass
from engine.cards import card
from engine.hand import Hand
from engine.rules import Rules
from server.table_state import TableState

from .support import deal_from, hand_of, mask, scripted, stocked_hand, table_of, view_of


def medium(table, seat: int) -> str:  # type: ignore[no-untyped-def]
    d = decide(view_of(table, seat), "medium", random.Random(0))
    assert d.card is not None
    return d.card


def test_passes_the_queen_with_high_spades_when_short() -> None:
    hand = mask("QS AS 3S 2C 5C 8D 9D 4H 6H 7H 2D 3D 4D")
    assert mask_of_pass(hand) & mask("QS AS") == mask("QS AS")


def mask_of_pass(hand: int) -> int:
    m = 0
    for c in careful_pass(hand, 3):
        m |= 1 << c
    return m


def test_keeps_a_protected_queen_and_passes_high_hearts() -> None:
    hand = mask("QS 2S 3S 4S 5S AH KH QH 2C 3C 2D 3D 4D")
    passed = mask_of_pass(hand)
    assert not passed & mask("QS")
    assert passed == mask("AH KH QH")


def test_voids_a_short_suit_when_passing() -> None:
    hand = mask("KC 9C 2S 3S 4S 5S 2H 3H 4H 5D 6D 7D 8D")
    assert mask_of_pass(hand) & mask("KC 9C") == mask("KC 9C")


def test_pass_decision_through_the_view() -> None:
    rules = Rules()
    seats = ["QS AS KS 2C 5C 8D 9D 4H 6H 7H 2D 3D 4D", "", "", ""]
    hand = Hand(rules, 1, deal_from(seats, rules))
    d = decide(view_of(table_of(hand), 0), "medium", random.Random(0))
    assert d.kind == "pass" and set(d.cards) == {"QS", "KS", "AS"}


def test_ducks_with_the_highest_card_that_loses() -> None:
    # Seat 3 leads 9D after winning the first trick; Medium (seat 0) holds
    # 2D 8D TD KD and keeps its 2D for later: it plays 8D.
    seats = ["2C 2D 8D TD KD", "3C", "4C", "AC 9D"]
    table = scripted(seats, "2C 3C 4C AC 9D")
    assert medium(table, 0) == "8D"


def test_dumps_the_queen_when_void() -> None:
    seats = ["AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "2C AD", "3C", "QS 4C"]
    table = scripted(seats, "2C 3C 4C AC 2D AD")
    hand = hand_of(table)
    hand.play(2, min(hand.legal_cards()))
    assert medium(table, 3) == "QS"


def test_leads_low_spades_to_smoke_out_the_queen() -> None:
    seats = ["AC 2S 3S 4S 9H 8D 5C 6C 7C 2D 3D 4D 5D", "2C", "3C", "4C"]
    table = scripted(seats, "2C 3C 4C AC")
    assert medium(table, 0) == "2S"


def test_stops_a_moon() -> None:
    # Seat 1 has taken every point so far (Q♠ and a heart) and leads K♥;
    # Medium (seat 0, last to play) takes it with A♥ instead of ducking.
    seats = [
        "2C AH 3H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        "AC KC QC JC TC 9C 8C AS KS QS KH QH JH",
        "3C 4C 5C 6C 7C 2S 3S 4S 5S 6S 2H 4H 5H",
        "QD KD AD 7S 8S 9S TS JS 6H 7H 8H 9H TH",
    ]
    plays = "2C AC 3C QD AS 2S 7S 2D KS 3S 8S 3D QS 4S 9S 4D KC 4C 6H 5D KH 2H 7H"
    table = scripted(seats, plays)
    hand = hand_of(table)
    assert hand.points_taken() == [0, 14, 0, 0]
    assert medium(table, 0) == "AH"


def test_ducks_a_heart_trick_without_a_moon_threat() -> None:
    # The same trick when the leader has only two points (no moon threat
    # yet): Medium ducks with 3♥.
    seats = [
        "2C AH 3H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        "AC KC QC JC TC 9C 8C AS KS QS KH QH JH",
        "3C 4C 5C 6C 7C 2S 3S 4S 5S 6S 2H 4H 5H",
        "QD KD AD 7S 8S 9S TS JS 6H 7H 8H 9H TH",
    ]
    plays = "2C AC 3C QD AS 2S 7S 2D KS 3S 8S 3D KC 4C 6H 4D QC 5C 7H 5D KH 2H 8H"
    table = scripted(seats, plays)
    hand = hand_of(table)
    assert hand.points_taken() == [0, 2, 0, 0]
    assert medium(table, 0) == "3H"


def test_discards_a_low_card_rather_than_feed_a_moon() -> None:
    # Regression: Medium, void in clubs, with only J♥ A♥ 2♠ Q♠ while the
    # seat winning the trick holds every point (7): it throws 2♠.
    seats = [
        "2C AS TS 4C 5H 9D KD 8D AC 5C 8C JC KC",
        "QC 4S 5S 6S AD 7D 3H QD 6H 7H 8H 9H KH",
        "9C 7S 9S 7C JS 2D QH 3D TH 6C 4D 5D 6D",
        "TC 3S KS 3C 8S TD 2H JD 4H JH AH 2S QS",
    ]
    plays = (
        "2C QC 9C TC 4S 7S 3S AS TS 5S 9S KS 3C 4C 6S 7C JS 8S 5H AD "
        "2D TD 9D 7D 2H KD 3H QH 3D JD 8D QD 6H TH 4H AC 6C"
    )
    table = scripted(seats, plays)
    assert view_of(table, 3).hand == ("JH", "AH", "2S", "QS")
    assert medium(table, 3) == "2S"


DOMINO = Rules(variant="domino", players=4)


def test_domino_leads_high_in_the_suit_the_others_lack() -> None:
    # While the stock lasts a club or diamond trick carries no points, and
    # whoever cannot follow draws. Medium (seat 0 leads hand 1) holds one
    # club and five diamonds: fewer diamonds are out, so it leads its
    # highest diamond to keep the lead (not 5♣, the card likeliest to lose).
    hand = stocked_hand(DOMINO, ["5C 2D 3D 4D 5D 6D", "AC KC 2C 7D 8D 9D", "", ""])
    assert len(hand.stock) == 28
    assert medium(table_of(hand), 0) == "6D"


def test_domino_wins_a_free_trick_with_the_lowest_sure_winner() -> None:
    # 5♣ is led with the stock full: the trick is worth nothing and its
    # winner leads next. Medium (seat 1) takes it with K♣, sure to win with
    # Q♣ out and A♣ its own, rather than ducking with 2♣.
    hand = stocked_hand(DOMINO, ["5C 2D 3D 4D 5D 6D", "AC KC 2C 7D 8D 9D", "", ""])
    hand.play(0, card("5C"))
    assert medium(table_of(hand), 1) == "KC"


def test_domino_ducks_a_heart_trick() -> None:
    # A heart trick costs its hearts: Medium ducks under 9♥ with 8♥, the
    # highest heart that loses, although the stock still holds cards.
    seats = ["9H TH JH QH KH AH", "2H 8H AC KC 2C 7D", "", ""]
    hand = stocked_hand(DOMINO, seats)
    assert hand.stock
    hand.play(0, card("9H"))  # a hand of only hearts may lead one
    assert medium(table_of(hand), 1) == "8H"


MARIA = Rules(variant="black_maria", players=3, pass_cycle=("hold",))


def maria_after_first_trick(seat0: str) -> TableState:
    """Black Maria, seat 0 wins the first trick with A♣ and leads next."""
    hand = Hand(MARIA, 1, deal_from([f"AC {seat0}", "2C", "3C"], MARIA))
    for text in ("2C", "3C", "AC"):
        hand.play(hand.turn, card(text))
    assert hand.turn == 0
    return table_of(hand)


def test_black_maria_leads_a_low_spade_to_bring_out_the_honours() -> None:
    # A♠ K♠ Q♠ (30 of the 43 points) are all out and Medium holds none:
    # a low spade makes their holders play them. (3♦ would be the lead
    # likeliest to lose: 2♦ is out of the deck.)
    table = maria_after_first_trick("3S 4S 3D 4D 5D 6C 7C 2H 3H")
    assert medium(table, 0) == "3S"


def test_black_maria_does_not_lead_spades_holding_the_queen() -> None:
    table = maria_after_first_trick("2S QS 3D 4D 5D 6C 7C 2H 3H")
    assert medium(table, 0) == "3D"


def test_spot_pass_keeps_the_free_queen_and_passes_high_hearts() -> None:
    # In Spot Hearts Q♠ costs nothing and A♥ K♥ cost 14 and 13.
    hand = mask("QS AS 3S 2C 5C 8D 9D AH KH 7H 2D 3D 4D")
    spot = Rules(variant="spot").tables.penalty
    passed = sum(1 << c for c in careful_pass(hand, 3, spot))
    assert not passed & mask("QS") and passed & mask("AH KH") == mask("AH KH")
    assert mask_of_pass(hand) & mask("QS")  # the standard pass would give Q♠ away


def test_black_maria_pass_gives_away_the_costly_king_despite_low_spades() -> None:
    # K♠ costs 10 itself in Black Maria: passed even with four low spades,
    # which keep it in the standard game (there only Q♠ costs).
    hand = mask("AS KS 2S 3S 4S 5S QC JC 2C 6C 9D 3D 4D 8D TH 2H 3H")
    maria = MARIA.tables.penalty
    passed = sum(1 << c for c in careful_pass(hand, 3, maria))
    assert passed & mask("KS")
    assert not mask_of_pass(hand) & mask("AS KS")


SPOT_PLAYS = "2C AC JC QC AD 2D 7H 3S KD 3D 6H 4S QD 4D 5H 3C JD 5D 4H 4C TD 6D 3H 5C KH 7S KC"


def spot_hand() -> Hand:
    """Spot Hearts: seat 1 takes six tricks and the five hearts thrown on
    them (``SPOT_PLAYS``), then leads K♥; seat 0 holds 2♥ A♥ and clubs."""
    from engine.dealing import new_hand

    spot = Rules(variant="spot", pass_cycle=("hold",))
    seats = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC 2H AH 3S 4S",
        "AC AD KD QD JD TD KH QH JH TH 9H 8H AS",
        "JC 2D 3D 4D 5D 6D 7D 8D 9D 2S 5S 6S 7S",
        "QC KC 3H 4H 5H 6H 7H 8S 9S TS JS QS KS",
    ]
    hand = new_hand(spot, 1, [mask(s) for s in seats])
    for text in SPOT_PLAYS.split():
        hand.play(hand.turn, card(text))
    assert hand.turn == 0
    return hand


def test_spot_takes_a_heart_from_a_moon_shooter() -> None:
    # Seat 1 has taken the five hearts played so far and leads K♥: ducking
    # with 2♥ would let it run on to all 13 (104 points to each of us), so
    # Medium, last to play, takes the trick with A♥.
    assert medium(table_of(spot_hand()), 0) == "AH"


def test_spot_leads_a_heart_that_cannot_win() -> None:
    # After taking K♥ with A♥ Medium leads: every heart still out is above
    # its 2♥, which loses for sure and makes the others follow with hearts
    # that cost their rank (6♣ would win: nobody else holds a club).
    hand = spot_hand()
    hand.play(0, card("AH"))
    assert hand.turn == 0
    assert medium(table_of(hand), 0) == "2H"

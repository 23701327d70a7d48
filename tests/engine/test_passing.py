"""Passing (docs/rules.md "A hand" 2): blind, all seats at once, then exchanged."""

from __future__ import annotations

from engine.cards import card, mask_of
from engine.errors import BadPass, WrongPhase
from engine.events import CardsPassed, PassLocked, PlayBegins
from engine.hand import Hand, Phase
from engine.rules import Rules

from .support import CLUBS, DIAMONDS, HEARTS, SPADES, build_deal, cards, refused, snapshot

LEFT = Rules()  # hand 1 passes left
SUITS = [CLUBS, DIAMONDS, SPADES, HEARTS]
LOWEST = [cards("2C 3C 4C"), cards("2D 3D 4D"), cards("2S 3S 4S"), cards("2H 3H 4H")]


def suits_hand(number: int = 1) -> Hand:
    return Hand(LEFT, number, build_deal(SUITS, LEFT))


def test_a_locked_pass_exchanges_nothing_until_every_seat_has_locked() -> None:
    hand = suits_hand()
    for seat in (2, 0, 3):
        assert hand.pass_cards(seat, LOWEST[seat]) == [PassLocked(seat)]
        assert hand.hands == list(hand.dealt)  # nothing moved yet
        assert hand.received == [0, 0, 0, 0]
        assert hand.phase is Phase.PASS
    events = hand.pass_cards(1, LOWEST[1])
    assert events[0] == PassLocked(1)
    assert events[1:5] == [
        CardsPassed(giver=s, receiver=(s + 1) % 4, cards=tuple(LOWEST[s])) for s in range(4)
    ]
    assert events[5] == PlayBegins(leader=1)  # seat 1 received 2♣
    assert hand.phase is Phase.PLAY


def test_each_seat_receives_what_its_right_hand_neighbour_passed_left() -> None:
    hand = suits_hand()
    for seat in range(4):
        hand.pass_cards(seat, LOWEST[seat])
    for seat in range(4):
        giver = (seat - 1) % 4
        assert hand.received[seat] == mask_of(LOWEST[giver])
        assert hand.hands[seat] == hand.dealt[seat] & ~mask_of(LOWEST[seat]) | mask_of(
            LOWEST[giver]
        )
        assert hand.hands[seat].bit_count() == 13
    assert hand.hands[1] >> card("2C") & 1


def test_a_seat_cannot_pass_twice_or_see_its_hand_change_before_the_exchange() -> None:
    hand = suits_hand()
    hand.pass_cards(0, LOWEST[0])
    assert hand.legal_pass_cards(0) == []
    assert hand.legal_pass_cards(1) == cards(DIAMONDS)
    before = snapshot(hand)
    with refused(BadPass, "you have already passed"):
        hand.pass_cards(0, cards("5C 6C 7C"))
    assert not hand.can_pass(0, cards("5C 6C 7C"))
    assert snapshot(hand) == before


def test_after_the_exchange_passing_is_over() -> None:
    hand = suits_hand()
    for seat in range(4):
        hand.pass_cards(seat, LOWEST[seat])
    with refused(WrongPhase, "the cards have already been passed"):
        hand.pass_cards(0, cards("5D 6D 7D"))
    assert hand.legal_pass_cards(0) == []


def test_a_pass_in_any_card_order_is_the_same_pass() -> None:
    a, b = suits_hand(), suits_hand()
    a.pass_cards(0, cards("4C 2C 3C"))
    b.pass_cards(0, cards("2C 3C 4C"))
    assert a.passes == b.passes


def test_play_is_refused_while_cards_are_being_passed() -> None:
    hand = suits_hand()
    hand.pass_cards(0, LOWEST[0])
    with refused(WrongPhase, "cards are being passed; play starts after the pass"):
        hand.play(0, card("2C"))
    assert hand.legal_mask() == 0


def test_the_hand_waits_for_every_seat_yet_to_pass_then_for_the_seat_to_play() -> None:
    hand = suits_hand()
    assert hand.waiting_seats() == [0, 1, 2, 3]
    hand.pass_cards(2, LOWEST[2])
    hand.pass_cards(0, LOWEST[0])
    assert hand.waiting_seats() == [1, 3]
    hand.pass_cards(1, LOWEST[1])
    hand.pass_cards(3, LOWEST[3])
    assert hand.phase is Phase.PLAY
    assert hand.waiting_seats() == [hand.turn] == [1]  # seat 1 received 2♣

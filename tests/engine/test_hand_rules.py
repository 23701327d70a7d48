"""docs/rules.md "A hand", rule by rule, on small hand-built deals (engine/hand.py)."""

from __future__ import annotations

import pytest

from engine.cards import card, cards_of
from engine.errors import (
    CardNotHeld,
    FirstTrickPoints,
    HeartsNotBroken,
    MustFollowSuit,
    MustLeadFirstCard,
    NotYourTurn,
    RuleViolation,
)
from engine.events import CardPlayed, Event, HeartsBroken, PlayBegins, TrickWon
from engine.hand import Hand, Phase
from engine.rules import Rules

from .support import (
    ALL_HEARTS_DEAL,
    CLUBS,
    DIAMONDS,
    FOLLOW_DEAL,
    HEARTS,
    HOLD,
    QUEEN_AND_HEARTS_DEAL,
    QUEEN_FIRST_DEAL,
    SPADES,
    build_deal,
    cards,
    make_hand,
    mask,
    play_script,
    refused,
    snapshot,
    texts,
)

QUEEN_AND_HEARTS = QUEEN_AND_HEARTS_DEAL
ALL_HEARTS = ALL_HEARTS_DEAL
QUEEN_FIRST = QUEEN_FIRST_DEAL
FIRST_TRICK = "2C 3C 4C AC"


def legal_texts(hand: Hand) -> str:
    return texts(hand.legal_mask())


# -- the deal and the first lead (rules 1 and 3) ---------------------------


def test_each_seat_is_dealt_thirteen_cards_of_one_deck() -> None:
    hand = make_hand(["", "", "", ""])
    assert [h.bit_count() for h in hand.hands] == [13, 13, 13, 13]
    assert sum(hand.hands) == (1 << 52) - 1


def test_a_deal_that_is_not_the_deck_is_refused() -> None:
    hands = build_deal(["", "", "", ""])
    with refused(ValueError, "a card was dealt twice"):
        Hand(HOLD, 1, [hands[0], hands[1], hands[2], hands[3] ^ 1 << 51 | 1 << 0])
    three = Rules(players=3, pass_cycle=("hold",))
    short = build_deal(["", "", ""], three)
    two_diamonds = card("2D")  # not in the 3-player deck
    top = short[0].bit_length() - 1
    with refused(ValueError, "the deal does not use the rules' deck"):
        Hand(three, 1, [short[0] ^ 1 << top | 1 << two_diamonds, short[1], short[2]])
    with refused(ValueError, "each hand must hold 13 cards"):
        Hand(HOLD, 1, [hands[0] | hands[1], 0, hands[2], hands[3]])
    with refused(ValueError, "a deal needs 4 hands"):
        Hand(HOLD, 1, hands[:3])
    with refused(ValueError, "hand numbers start at 1"):
        Hand(HOLD, 0, hands)


def test_the_holder_of_the_two_of_clubs_leads_it() -> None:
    hand = make_hand(["", "", "2C", ""])
    assert hand.phase is Phase.PLAY
    assert hand.turn == 2
    assert hand.leader == 2
    assert legal_texts(hand) == "2C"


def test_the_first_lead_must_be_the_two_of_clubs() -> None:
    hand = make_hand(["", "", "2C 3C AD", ""])
    assert not hand.can_play(2, card("3C"))
    assert not hand.can_play(2, card("AD"))
    with refused(MustLeadFirstCard, "the first trick must be led with 2♣"):
        hand.play(2, card("AD"))
    events = hand.play(2, card("2C"))
    assert events == [CardPlayed(seat=2, card=card("2C"), trick=0)]


# -- following suit (rule 4) -------------------------------------------------


def test_a_seat_holding_the_led_suit_must_follow_it() -> None:
    hand = make_hand(FOLLOW_DEAL)
    play_script(hand, "2C 3C 4C AC 2D")
    assert hand.turn == 0
    assert hand.legal_mask() == hand.hands[0] & mask(DIAMONDS)
    with refused(MustFollowSuit, "you must follow suit (you hold diamonds)"):
        hand.play(0, card("5C"))
    hand.play(0, card("3D"))


def test_following_suit_does_not_require_a_higher_card() -> None:
    hand = make_hand(["2C 7C", "3C KC", "4C", "5C"])
    hand.play(0, card("2C"))
    assert hand.can_play(1, card("3C"))
    assert hand.can_play(1, card("KC"))


def test_a_seat_void_in_the_led_suit_may_play_any_card_after_the_first_trick() -> None:
    # seat 1 holds no diamonds: on trick 2 it may throw Q♠, a heart or a club
    hand = make_hand(
        [
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D",
            "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
            "",
            "",
        ]
    )
    play_script(hand, "2C AC")
    hand.play(2, cards_of(hand.legal_mask())[0])
    hand.play(3, cards_of(hand.legal_mask())[0])
    # seat 1 won with A♣ and leads: hearts are not broken, so Q♠ it is
    assert hand.turn == 1
    assert legal_texts(hand) == "QS"
    hand.play(1, card("QS"))
    hand.play(2, cards_of(hand.legal_mask())[0])
    hand.play(3, cards_of(hand.legal_mask())[0])
    assert hand.turn == 0
    assert hand.legal_mask() == hand.hands[0]  # void in spades: anything goes
    hand.play(0, card("2D"))
    assert hand.history[-1][2] == 1  # Q♠ wins its trick; the 2♦ cannot


def test_the_highest_card_of_the_led_suit_wins_the_trick() -> None:
    # seat 1 is void in clubs and throws A♦: a higher card of another suit never wins
    hand = make_hand(["2C 5C", DIAMONDS, "3C 9C", "4C 8C"])
    hand.play(0, card("2C"))
    hand.play(1, card("AD"))
    hand.play(2, card("9C"))
    events = hand.play(3, card("8C"))
    won = [e for e in events if isinstance(e, TrickWon)]
    assert won == [
        TrickWon(trick=0, leader=0, winner=2, cards=tuple(cards("2C AD 9C 8C")), points=0)
    ]
    assert hand.turn == 2
    assert hand.leader == 2


def test_the_trick_winner_leads_the_next_trick() -> None:
    hand = make_hand(QUEEN_AND_HEARTS)
    play_script(hand, FIRST_TRICK)
    assert hand.trick_index == 1
    assert hand.history == [(1, tuple(cards(FIRST_TRICK)), 0)]
    assert hand.turn == 0
    assert hand.trick == []


# -- the first trick (rule 5) -----------------------------------------------


def test_first_trick_a_void_seat_may_not_discard_hearts_or_the_queen() -> None:
    hand = make_hand(["2C", "3C", "4C", "2D QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"])
    play_script(hand, "2C 3C 4C")
    assert legal_texts(hand) == "2D"
    with refused(FirstTrickPoints, "no hearts or Q♠ on the first trick"):
        hand.play(3, card("QS"))
    with refused(FirstTrickPoints, "no hearts or Q♠ on the first trick"):
        hand.play(3, card("2H"))


def test_first_trick_a_hand_of_only_hearts_and_the_queen_may_play_any_of_them() -> None:
    hand = make_hand(["2C", "3C", "4C", "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"])
    play_script(hand, "2C 3C 4C")
    assert hand.legal_mask() == hand.hands[3]
    assert hand.can_play(3, card("QS"))
    assert hand.can_play(3, card("KH"))
    events = hand.play(3, card("QS"))
    assert TrickWon(0, 0, 2, tuple(cards("2C 3C 4C QS")), 13) in events
    assert not hand.broken  # Q♠ does not break hearts


def test_first_trick_a_hand_of_only_hearts_may_play_a_heart_and_that_breaks_hearts() -> None:
    hand = make_hand([CLUBS, DIAMONDS, SPADES, HEARTS])
    play_script(hand, "2C 2D 2S")
    assert hand.legal_mask() == mask(HEARTS)
    events = hand.play(3, card("2H"))
    assert HeartsBroken(by_seat=3) in events
    assert hand.broken


def test_first_trick_following_clubs_is_unaffected_by_the_point_ban() -> None:
    # Q♠ and hearts are banned as discards only; a seat with clubs follows clubs
    hand = make_hand(["2C", "3C QS 2H", "4C", "5C"])
    hand.play(0, card("2C"))
    assert hand.legal_mask() == hand.hands[1] & mask(CLUBS)


# -- leading hearts (rule 6) -------------------------------------------------


def test_a_heart_may_not_be_led_before_hearts_are_broken() -> None:
    hand = make_hand(["AC 2H 2D", "2C", "3C", "4C"])
    play_script(hand, FIRST_TRICK)
    assert hand.turn == 0
    assert not hand.broken
    assert hand.legal_mask() == hand.hands[0] & ~mask(HEARTS)
    with refused(HeartsNotBroken, "hearts are not broken yet"):
        hand.play(0, card("2H"))


def test_with_only_the_queen_and_hearts_left_the_queen_must_be_led() -> None:
    hand = make_hand(QUEEN_AND_HEARTS)
    play_script(hand, FIRST_TRICK)
    assert hand.turn == 0
    assert legal_texts(hand) == "QS"
    with refused(HeartsNotBroken, "hearts are not broken yet"):
        hand.play(0, card("2H"))
    hand.play(0, card("QS"))


def test_a_hand_of_only_hearts_may_lead_one_before_hearts_are_broken() -> None:
    hand = make_hand(ALL_HEARTS)
    play_script(hand, FIRST_TRICK)
    assert not hand.broken
    assert hand.legal_mask() == hand.hands[0] == mask(HEARTS) & ~mask("AH")
    events = hand.play(0, card("5H"))
    assert HeartsBroken(by_seat=0) in events
    assert hand.broken


def test_the_queen_played_before_any_heart_leaves_hearts_unbroken() -> None:
    hand = make_hand(QUEEN_FIRST)
    play_script(hand, FIRST_TRICK)
    events: list[Event] = []
    for text in ["2S", "QS", "3S", "4S"]:
        events += hand.play(hand.turn, card(text))
    assert not any(isinstance(e, HeartsBroken) for e in events)
    assert not hand.broken
    assert hand.turn == 1  # Q♠ won the trick
    assert hand.points_taken() == [0, 13, 0, 0]
    assert not hand.can_play(1, card("5H"))
    with refused(HeartsNotBroken, "hearts are not broken yet"):
        hand.play(1, card("5H"))
    hand.play(1, card("5D"))


def test_a_heart_discarded_in_an_earlier_trick_breaks_hearts() -> None:
    # seat 3 holds no spades: on trick 2 it throws K♥ and seat 2 wins it with 4♠
    hand = make_hand(["AC 2S", "2C 3S", "3C 4S", "4C KH AH KD QD JD TD 9D 8D 7D 6D 5D 4D"])
    play_script(hand, FIRST_TRICK)
    play_script(hand, "2S 3S 4S")
    assert not hand.broken
    events = hand.play(3, card("KH"))
    assert HeartsBroken(by_seat=3) in events
    assert hand.broken
    assert hand.turn == 2
    assert hand.hands[2] & mask(HEARTS)  # the fill gave seat 2 hearts to lead
    assert hand.legal_mask() == hand.hands[2]


# -- turns, errors and refusals ----------------------------------------------


def test_playing_out_of_turn_names_the_seat_to_move() -> None:
    hand = make_hand(["2C", "", "", ""])
    hand.play(0, card("2C"))
    with refused(NotYourTurn, "it is West's turn"):
        hand.play(2, cards_of(hand.hands[2])[0])
    assert hand.legal_mask(2) == 0
    assert hand.legal_mask(1) == hand.legal_mask()


def test_the_turn_names_follow_the_compass() -> None:
    hand = make_hand(["", "", "", "2C"])
    with refused(NotYourTurn, "it is East's turn"):
        hand.play(0, cards_of(hand.hands[0])[0])
    hand.play(3, card("2C"))
    with refused(NotYourTurn, "it is South's turn"):
        hand.play(1, cards_of(hand.hands[1])[0])


def test_playing_a_card_not_held_is_refused() -> None:
    hand = make_hand(["2C", "", "QS", ""])
    hand.play(0, card("2C"))
    with refused(CardNotHeld, "you do not hold Q♠"):
        hand.play(1, card("QS"))
    with refused(CardNotHeld, "you do not hold that card"):
        hand.play(1, 52)


def test_a_seat_that_does_not_exist_is_refused() -> None:
    hand = make_hand(["2C", "", "", ""])
    with refused(RuleViolation, "there is no such seat"):
        hand.play(4, card("2C"))


@pytest.mark.parametrize(
    ("script", "seat", "text"),
    [
        ("", 1, "3C"),  # not your turn
        ("", 0, "AD"),  # first lead must be 2♣
        ("2C", 1, "QS"),  # not held
        ("2C 3C 4C AC", 3, "2H"),  # hearts not broken
    ],
)
def test_a_refused_play_changes_nothing(script: str, seat: int, text: str) -> None:
    hand = make_hand(["2C AD", "3C", "4C QS", "AC 2H KD"])
    play_script(hand, script)
    before = snapshot(hand)
    assert not hand.can_play(seat, card(text))
    with pytest.raises(RuleViolation):
        hand.play(seat, card(text))
    assert snapshot(hand) == before


def test_thirteen_tricks_end_the_hand_and_every_card_is_taken() -> None:
    hand = make_hand([CLUBS, DIAMONDS, SPADES, HEARTS])
    for k in range(13):
        assert hand.phase is Phase.PLAY
        assert hand.trick_index == k
        for suit in (CLUBS, DIAMONDS, SPADES, HEARTS):
            hand.play(hand.turn, card(suit.split()[k]))
    assert hand.phase is Phase.DONE
    assert len(hand.history) == 13
    assert all(len(cards_) == 4 for _, cards_, _ in hand.history)
    assert hand.hands == [0, 0, 0, 0]
    assert hand.taken[0] == (1 << 52) - 1
    assert hand.legal_mask() == 0


def test_play_begins_with_the_two_of_clubs_holder_after_the_pass() -> None:
    # seat 0 holds 2♣ and passes it left (hand 1): seat 1 leads
    rules = Rules()
    hand = Hand(rules, 1, build_deal(["2C 3C 4C", "", "", ""], rules))
    assert hand.phase is Phase.PASS
    events = []
    for seat in range(4):
        give = cards("2C 3C 4C") if seat == 0 else cards_of(hand.hands[seat])[:3]
        events += hand.pass_cards(seat, give)
    assert events[-1] == PlayBegins(leader=1)
    assert hand.turn == 1
    assert legal_texts(hand) == "2C"

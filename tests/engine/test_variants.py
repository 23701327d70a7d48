"""Each named variant's defining rules (docs/rules.md "Variants") on small
constructed hands: what the variant changes, and the sentences it refuses with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.cards import card, card_label, card_text, cards_of, mask_of
from engine.dealing import new_hand
from engine.errors import (
    BadDiscard,
    FirstTrickPoints,
    MustLeadFirstCard,
    NotYourTurn,
    WrongPhase,
)
from engine.events import (
    CardsDrawn,
    HandDealt,
    LeftoverTaken,
    RestTaken,
    SeatOut,
    TrickCarried,
    VariantTrickWon,
    WidowDiscarded,
    WidowTaken,
)
from engine.game import Game
from engine.hand import Hand, Phase
from engine.record import hand_record, replay, verify_record
from engine.rules import Rules, RulesError
from engine.variant_hand import VariantHand

from .support import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    MOON_BONUS_DEAL,
    MOON_BONUS_PLAYS,
    MOON_DEAL,
    MOON_PLAYS,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
    mask,
    play_script,
    refused,
)


def deal(rules: Rules, seats: Sequence[str], stock: str = "") -> Hand:
    """A hand of ``rules`` from fully written seats and the stock (top first)."""
    return new_hand(rules, 1, [mask(s) for s in seats], [card(c) for c in stock.split()])


def texts(cards: Sequence[int]) -> str:
    return " ".join(card_text(c) for c in cards)


# -- the rules objects -------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        ({"variant": "euchre"}, "variant must be one of standard, omnibus, spot, greek, "
         "black_maria, domino, widow, cancellation"),
        ({"variant": "black_maria", "players": 4}, "Black Maria is played by 3 players"),
        ({"variant": "cancellation", "players": 6},
         "Cancellation Hearts is played by 7 to 10 players"),
        ({"variant": "domino", "players": 8}, "Domino Hearts is played by 3 to 7 players"),
        ({"variant": "widow", "players": 7}, "Hearts with a widow is played by 3 to 6 players"),
        ({"variant": "domino", "pass_cycle": ("left",)}, "Domino Hearts has no passing"),
        ({"variant": "cancellation", "pass_cycle": ("left", "hold")},
         "Cancellation Hearts has no passing"),
        ({"variant": "greek", "pass_cycle": ("left",)},
         "Greek Hearts passes 3 cards to the right every hand"),
        ({"variant": "greek", "pass_count": 2},
         "Greek Hearts passes 3 cards to the right every hand"),
        ({"variant": "greek", "moon": "add"}, "Greek Hearts scores the moon as transfer"),
        ({"variant": "omnibus", "moon": "subtract"}, "Omnibus Hearts scores the moon as jackpot"),
        ({"variant": "omnibus", "bonus_card": None}, "Omnibus Hearts needs a bonus card (JD or TD)"),
        ({"variant": "spot", "bonus_card": "JD"}, "Spot Hearts has no bonus card"),
        ({"variant": "domino", "moon": "add"}, "Domino Hearts scores the moon as none"),
        ({"moon": "jackpot"}, "Hearts scores the moon as add or subtract or choice"),
        ({"variant": "cancellation", "first_trick": "no_points"},
         "Cancellation Hearts allows first_trick no_hearts or anything"),
    ],
)  # fmt: skip
def test_a_combination_the_variant_forbids_is_refused(
    options: dict[str, Any], sentence: str
) -> None:
    with refused(RulesError, sentence):
        Rules(**options)
    with refused(RulesError, sentence):
        Rules.from_json({k: list(v) if isinstance(v, tuple) else v for k, v in options.items()})


@pytest.mark.parametrize(
    ("variant", "players", "hand_size", "stock", "deck_cards"),
    [
        ("standard", 7, 7, 0, 49),
        ("omnibus", 10, 5, 0, 50),
        ("black_maria", 3, 17, 0, 51),
        ("widow", 3, 16, 3, 51),
        ("widow", 4, 12, 3, 51),
        ("widow", 5, 10, 2, 52),
        ("widow", 6, 8, 4, 52),
        ("domino", 3, 6, 34, 52),
        ("domino", 7, 6, 10, 52),
        ("cancellation", 7, 14, 6, 104),
        ("cancellation", 8, 13, 0, 104),
        ("cancellation", 9, 11, 5, 104),
        ("cancellation", 10, 10, 4, 104),
    ],
)
def test_each_variant_deals_its_own_shape(
    variant: str, players: int, hand_size: int, stock: int, deck_cards: int
) -> None:
    t = Rules(variant=variant, players=players).tables
    assert (t.hand_size, t.stock_size, t.deck.bit_count()) == (hand_size, stock, deck_cards)
    assert hand_size * players + stock == deck_cards
    if variant == "widow" and players <= 4:
        assert not t.deck >> card("2S") & 1  # one deuce out: 2♠


def test_variant_defaults_and_json_round_trips() -> None:
    assert Rules(variant="black_maria").players == 3
    assert Rules(variant="cancellation").players == 8
    assert Rules(variant="omnibus").bonus_card == "JD"
    assert Rules(variant="omnibus").pass_cycle == ("right",)
    assert Rules(variant="greek").pass_cycle == ("right",)
    assert Rules(variant="domino").pass_cycle == ("hold",)
    assert "variant" not in Rules().to_json()  # a standard record is what it always was
    for variant in ("omnibus", "spot", "greek", "black_maria", "domino", "widow", "cancellation"):
        rules = Rules(variant=variant)
        assert rules.to_json()["variant"] == variant
        assert Rules.from_json(rules.to_json()) == rules
    # null leaves an option to the variant (what a wire form with every field sends)
    greek = Rules.from_json({"variant": "greek", "moon": None, "pass_cycle": None})
    assert greek == Rules(variant="greek")


# -- Omnibus -----------------------------------------------------------------


OMNIBUS = Rules(variant="omnibus", pass_cycle=("hold",))


def test_omnibus_the_jackpot_scores_minus_26_for_the_taker() -> None:
    hand = deal(OMNIBUS, MOON_DEAL)  # seat 0 takes every card, J♦ included
    play_script(hand, MOON_PLAYS)
    assert hand.scores == (-26, 0, 0, 0)
    assert hand.shooter == 0


def test_omnibus_hearts_and_the_queen_without_the_bonus_card_are_no_jackpot() -> None:
    hand = deal(OMNIBUS, MOON_BONUS_DEAL)  # J♦ went to seat 1 on trick 1
    play_script(hand, MOON_BONUS_PLAYS)
    assert hand.shooter is None
    assert hand.scores == (26, -10, 0, 0)


def test_omnibus_ten_of_diamonds_as_the_bonus() -> None:
    rules = Rules(variant="omnibus", pass_cycle=("hold",), bonus_card="TD")
    hand = deal(rules, TWENTY_FIVE_DEAL)  # seat 1 threw 10♦ on seat 0's trick
    play_script(hand, TWENTY_FIVE_PLAYS)
    assert hand.scores == (15, 1, 0, 0)


# -- Spot Hearts -------------------------------------------------------------


def test_spot_hearts_cost_their_rank_and_the_queen_costs_nothing() -> None:
    rules = Rules(variant="spot", pass_cycle=("hold",))
    t = rules.tables
    assert [t.penalty[c] for c in cards_of(mask(HEARTS))] == list(range(2, 15))
    assert t.penalty[card("QS")] == 0
    hand = deal(rules, TWENTY_FIVE_DEAL)
    play_script(hand, TWENTY_FIVE_PLAYS)
    # seat 1 took 2♥ (2); seat 0 every other heart (3 + ... + 14 = 102) and Q♠ (0)
    assert hand.scores == (102, 2, 0, 0)


def test_spot_a_moon_is_every_heart_worth_104() -> None:
    hand = deal(Rules(variant="spot", pass_cycle=("hold",)), MOON_DEAL)
    play_script(hand, MOON_PLAYS)
    assert hand.scores == (0, 104, 104, 104)


def test_spot_the_queen_may_be_thrown_on_the_first_trick() -> None:
    hand = deal(Rules(variant="spot", pass_cycle=("hold",)), MOON_DEAL)
    play_script(hand, "2C 2D")
    assert card("QS") in hand.legal_cards()
    seats = [CLUBS, DIAMONDS, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2H", HEARTS[3:] + " AS"]
    hand = deal(Rules(variant="spot", pass_cycle=("hold",)), seats)
    play_script(hand, "2C 2D")
    with refused(FirstTrickPoints, "no hearts on the first trick"):
        hand.play(2, card("2H"))


# -- Greek Hearts ------------------------------------------------------------


def right_pass_deal(after: Sequence[str]) -> tuple[list[int], list[list[int]]]:
    """The deal before a pass to the right that leaves ``after``: each seat
    passes the three lowest cards of its right neighbour's ``after`` hand."""
    n = len(after)
    target = [cards_of(mask(s)) for s in after]
    passes = [target[(s - 1) % n][:3] for s in range(n)]
    before = [
        mask_of(target[s]) & ~mask_of(passes[(s + 1) % n]) | mask_of(passes[s]) for s in range(n)
    ]
    return before, passes


def test_greek_every_hand_passes_three_to_the_right_and_a_moon_takes_26_from_each() -> None:
    rules = Rules(variant="greek")
    before, passes = right_pass_deal(MOON_DEAL)
    for number in (1, 2, 3):
        hand = new_hand(rules, number, before)
        assert hand.direction == "right"
        assert hand.phase is Phase.PASS
    for seat, cards in enumerate(passes):
        hand.pass_cards(seat, cards)
    assert [texts(cards_of(h)) for h in hand.hands] == MOON_DEAL
    play_script(hand, MOON_PLAYS)
    assert hand.scores == (-78, 26, 26, 26)  # 26 from each of the three others


# -- Black Maria -------------------------------------------------------------


def test_black_maria_spades_at_the_top_cost_13_10_and_7() -> None:
    rules = Rules(variant="black_maria", pass_cycle=("hold",))
    t = rules.tables
    assert t.players == 3
    assert not t.deck >> card("2D") & 1  # 51 cards, 17 each; 2♣ leads
    assert [t.penalty[card(c)] for c in ("QS", "KS", "AS", "JS", "2H", "AH")] == [
        13,
        10,
        7,
        0,
        1,
        1,
    ]
    assert t.total_penalty == 43
    seat1 = "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD KS 2S 3S 4S 5S"
    hand = deal(rules, [CLUBS + " 6S 7S 8S 9S", seat1, "TS JS QS AS " + HEARTS])
    hand.play(0, card("2C"))
    with refused(FirstTrickPoints, "no hearts, Q♠, K♠ or A♠ on the first trick"):
        hand.play(1, card("KS"))
    play_script(hand, "AD")
    hand.play(2, card("TS"))  # seat 2 has no club: a spade that costs nothing
    assert hand.history[0][2] == 0


# -- Hearts with a widow -----------------------------------------------------

WIDOW = Rules(variant="widow", pass_cycle=("hold",))
# Four players, 2♠ out, 12 cards each and a widow of three (J♥ Q♠ 5♦).
WIDOW_SEATS = [
    "2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D 6D",
    "TC JC QC 7D 8D 9D TD JD QD KD AD 3S",
    "KC 4S 5S 6S 7S 8S 9S TS JS KS AS 2H",
    "AC 3H 4H 5H 6H 7H 8H 9H TH QH KH AH",
]
WIDOW_STOCK = "JH QS 5D"


def test_widow_the_first_tricks_winner_takes_the_widow_and_discards_as_many() -> None:
    hand = deal(WIDOW, WIDOW_SEATS, WIDOW_STOCK)
    assert isinstance(hand, VariantHand)
    assert hand.stock == [card(c) for c in WIDOW_STOCK.split()]
    events = []
    for c in ["2C", "TC", "KC", "AC"]:
        events += hand.play(hand.turn, card(c))
    assert hand.phase is Phase.WIDOW
    assert hand.widow_seat == 3
    assert WidowTaken(3, tuple(card(c) for c in WIDOW_STOCK.split())) in events
    assert hand.hands[3].bit_count() == 11 + 3
    assert hand.stock == []
    with refused(WrongPhase, "the widow's taker is discarding"):
        hand.play(3, card("3H"))
    with refused(NotYourTurn, "it is East's turn to discard"):
        hand.discard_widow(0, [card("3C")])
    with refused(BadDiscard, "discard exactly 3 cards"):
        hand.discard_widow(3, [card("QS")])
    with refused(BadDiscard, "discard 3 different cards"):
        hand.discard_widow(3, [card("QS")] * 3)
    discarded = [card(c) for c in ("QS", "JH", "AH")]
    assert hand.discard_widow(3, discarded) == [WidowDiscarded(3, tuple(sorted(discarded)))]
    assert hand.phase is Phase.PLAY
    assert hand.turn == 3  # the taker leads trick 2
    assert hand.hidden_taken[3] == mask_of(discarded)  # the others never saw them
    assert hand.points_taken() == [0, 0, 0, 15]  # Q♠ 13, J♥ and A♥ 1 each
    assert hand.hands[3].bit_count() == 11


def test_widow_the_lowest_club_dealt_leads_when_two_of_clubs_lies_in_the_widow() -> None:
    seats = [s.replace("2C", "5D") for s in WIDOW_SEATS]
    hand = deal(WIDOW, seats, "2C JH QS")
    assert hand.first_lead == card("3C")
    with refused(MustLeadFirstCard, "the first trick must be led with 3♣"):
        hand.play(0, card("4C"))


def test_widow_discard_is_recorded_replayed_and_verified() -> None:
    hand = deal(WIDOW, WIDOW_SEATS, WIDOW_STOCK)
    play_script(hand, "2C TC KC AC")
    hand.discard_widow(3, [card(c) for c in ("QS", "JH", "AH")])
    play_script(hand, "5D")
    rec = hand_record(hand)
    assert rec["stock"] == WIDOW_STOCK.split()
    assert rec["discard"] == ["JH", "AH", "QS"]
    assert rec["rules"]["variant"] == "widow"
    again = replay(rec)
    assert again.taken == hand.taken and again.hands == hand.hands
    partial = {**rec, "plays": rec["plays"][:4]}
    del partial["discard"]
    assert verify_record(partial) == {"ok": True, "complete": False, "phase": "widow", "to_move": 3}
    bad = {**rec, "discard": ["QS", "JH", "2C"]}
    assert verify_record(bad) == {"ok": False, "step": "discard", "error": "you do not hold 2♣"}


# -- Domino Hearts -----------------------------------------------------------

DOMINO = Rules(variant="domino", players=3)


def test_domino_a_seat_that_cannot_follow_draws_until_it_can() -> None:
    seats = ["2C 3D 4D 5D 6D 7D", "2H 3H 4H 5H 6H 7H", "3C 8D 9D TD JD QD"]
    rest = mask_of(range(52)) & ~mask(" ".join(seats))
    order = ["8H", "9H", "4C"]
    stock = " ".join(order + [card_text(c) for c in cards_of(rest) if card_text(c) not in order])
    hand = deal(DOMINO, seats, stock)
    assert hand.turn == 0  # hand 1: seat 0 leads, any card
    assert hand.first_lead == -1
    events = hand.play(0, card("2C"))
    assert CardsDrawn(1, (card("8H"), card("9H"), card("4C"))) in events
    assert hand.legal_cards() == [card("4C")]  # it drew until a club came
    assert hand.hands[1].bit_count() == 9
    hand.play(1, card("4C"))
    hand.play(2, card("3C"))  # seat 2 holds a club: no draw
    assert hand.history[0][2] == 1
    assert hand.stock[0] == cards_of(rest & ~mask("8H 9H 4C"))[0]


def test_domino_when_every_hand_runs_out_together_the_last_winner_takes_the_stock() -> None:
    seats = ["2C 3C 2D 3D 2S 3S", "4C 5C 4D 5D 4S 5S", "6C 7C 6D 7D 6S 7S"]
    rest = mask_of(range(52)) & ~mask(" ".join(seats))
    hand = deal(DOMINO, seats, " ".join(card_text(c) for c in cards_of(rest)))
    events: list[Any] = []
    for script in ("2C 4C 6C", "7C 3C 5C", "6D 2D 4D", "7D 3D 5D", "6S 2S 4S", "7S 3S 5S"):
        for c in script.split():
            events += hand.play(hand.turn, card(c))
    assert hand.phase is Phase.DONE
    assert [e for e in events if isinstance(e, SeatOut)] == [SeatOut(2), SeatOut(0), SeatOut(1)]
    assert LeftoverTaken(2, tuple(cards_of(rest))) in events
    assert hand.scores == (0, 0, 13)  # every heart lay in the stock
    assert hand.shooter is None  # Domino Hearts has no moon


def test_domino_a_seat_that_runs_out_drops_out_and_the_others_play_on() -> None:
    seats = ["2C 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC", "AC 2D 3D 4D 5D 6D"]
    top = ["2H", "7D", "8D"]
    rest = [card_text(c) for c in cards_of(mask_of(range(52)) & ~mask(" ".join(seats + top)))]
    hand = deal(DOMINO, seats, " ".join(top + rest))
    events: list[Any] = []
    script = [
        "2C 8C AC",  # seat 2 wins
        "2D 7D 8D",  # seat 0 draws 2♥ 7♦, seat 1 draws 8♦ and wins
        "9C 3D 3C",  # seat 2 has no club: it draws the whole stock (no club in it)
        "TC 4D 4C",
        "JC 5D 5C",
        "QC 6D 6C",
        "KC 9D 7C",  # seat 1 plays its last card and wins: it is out
    ]
    for trick in script:
        for c in trick.split():
            events += hand.play(hand.turn, card(c))
    assert CardsDrawn(0, (card("2H"), card("7D"))) in events
    assert [e for e in events if isinstance(e, SeatOut)] == [SeatOut(1)]
    assert hand.phase is Phase.PLAY
    assert hand.turn == 2  # the winner is out: the next seat on its left that holds cards
    events = hand.play(2, card("TD")) + hand.play(0, card("2H"))  # only seats 2 and 0 play
    assert hand.trick_seats(7) == (2, 0)
    assert SeatOut(0) in events
    assert hand.phase is Phase.DONE
    leftover = [e for e in events if isinstance(e, LeftoverTaken)]
    assert [e.seat for e in leftover] == [2]
    assert hand.scores == (0, 0, 13)


# -- Cancellation Hearts -----------------------------------------------------

CANCEL = Rules(variant="cancellation", players=8)


def cancellation_deal() -> list[str]:
    """Seats 0 and 1 hold every club (two decks: 26); the six others none."""
    seat0 = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC KC2"
    seat1 = "2C2 3C2 4C2 5C2 6C2 7C2 8C2 9C2 TC2 JC2 QC2 AC AC2"
    others = [c for c in range(104) if card_text(c)[1] != "C" and card_text(c)[1:2] in "DHS"]
    # hearts last, so every void seat holds something other than a heart
    others.sort(key=lambda c: (card_text(c)[1] == "H", c))
    spread = [" ".join(card_text(c) for c in others[i::6]) for i in range(6)]
    return [seat0, seat1, *spread]


def test_cancellation_identical_cards_cancel_and_a_trick_with_no_winner_is_carried() -> None:
    hand = deal(CANCEL, cancellation_deal())
    assert hand.rules.tables.card_limit == 104
    events: list[Any] = []
    events += hand.play(0, card("2C"))
    events += hand.play(1, card("2C2"))  # the twin: both cancel
    for _ in range(6):
        events += hand.play(hand.turn, hand.legal_cards()[0])
    carried = [e for e in events if isinstance(e, TrickCarried)]
    assert len(carried) == 1
    assert carried[0].cancelled == (card("2C"), card("2C2"))
    assert hand.history[0][2] == -1
    assert hand.turn == 0  # nobody won: the leader leads again
    assert hand.taken == [0] * 8
    events = []
    events += hand.play(0, card("5C"))
    events += hand.play(1, card("AC"))
    for _ in range(6):
        events += hand.play(hand.turn, hand.legal_cards()[0])
    won = [e for e in events if isinstance(e, VariantTrickWon)]
    assert won[0].winner == 1
    assert len(won[0].carried) == 8  # the carried trick went with it
    assert hand.taken[1].bit_count() == 16


def around(hand: Hand, lead: str, last: str) -> None:
    """Seat 1 leads ``lead``, the six void seats discard, seat 0 plays ``last``."""
    hand.play(1, card(lead))
    for _ in range(6):
        hand.play(hand.turn, hand.legal_cards()[0])
    hand.play(0, card(last))


def test_cancellation_the_higher_twin_cancels_and_a_lower_card_wins() -> None:
    hand = deal(CANCEL, cancellation_deal())
    play_script(hand, "2C AC")
    for _ in range(6):
        hand.play(hand.turn, hand.legal_cards()[0])
    assert hand.turn == 1
    around(hand, "AC2", "KC")  # seat 1 leads its A♣ copy; seat 0 follows with K♣
    assert hand.history[1][2] == 1
    around(hand, "QC2", "QC")  # the queens cancel: nobody wins
    assert hand.history[2][2] == -1
    assert hand.turn == 1
    assert hand.trick_cancelled(2) == (card("QC"), card("QC2"))


def test_cancellation_queen_may_fall_on_the_first_trick_but_no_heart() -> None:
    hand = deal(CANCEL, cancellation_deal())
    play_script(hand, "2C 2C2")
    legal = hand.legal_cards()
    assert not any(card_text(c)[1] == "H" for c in legal)
    seat = hand.turn
    if hand.hands[seat] >> card("QS") & 1:
        assert card("QS") in legal


def test_cancellation_the_rest_goes_face_down_to_the_first_winner() -> None:
    rules = Rules(variant="cancellation", players=7)
    game = Game(rules)
    import random

    events = game.start_hand(random.Random(5))
    dealt = events[0]
    assert isinstance(dealt, HandDealt)
    assert len(dealt.stock) == 6
    hand = game.hand
    assert hand is not None
    rng = random.Random(6)
    seen: list[Any] = []
    while not hand.history or all(w < 0 for _, _, w in hand.history):
        seen += game.play(hand.turn, rng.choice(hand.legal_cards()))
    winner = next(w for _, _, w in hand.history if w >= 0)
    assert RestTaken(winner, dealt.stock) in seen
    assert hand.hidden_taken[winner] == mask_of(dealt.stock)
    assert hand.stock == []


def test_two_deck_cards_keep_their_copy_through_records() -> None:
    hand = deal(CANCEL, cancellation_deal())
    play_script(hand, "2C 2C2")
    rec = hand_record(hand)
    assert "KC2" in rec["deal"][0]
    assert rec["plays"][:2] == ["2C", "2C2"]
    assert replay(rec).plays == hand.plays
    assert card_label(card("QS2")) == "Q♠²"

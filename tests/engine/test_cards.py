"""Cards as ints and bitmasks (engine/cards.py) and seat names (engine/seats.py)."""

from __future__ import annotations

import pytest

from engine.cards import (
    BASE_OF,
    RANK_OF,
    SUIT_MASKS2,
    SUIT_OF,
    card,
    card_label,
    card_name,
    card_text,
    cards_of,
    iter_cards,
    mask_of,
    parse_cards,
    texts_of,
)
from engine.seats import across_from, left_of, right_of, seat_name

from .support import refused

ALL_TEXTS = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def test_every_card_text_round_trips_and_ints_follow_display_order() -> None:
    assert [card(t) for t in ALL_TEXTS] == list(range(52))
    assert [card_text(c) for c in range(52)] == ALL_TEXTS


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10D", "TD"), ("Q♠", "QS"), ("10♥", "TH"), ("qs", "QS"), ("A♣", "AC"), ("2♦", "2D")],
)
def test_other_card_forms_are_read(text: str, expected: str) -> None:
    assert card_text(card(text)) == expected


@pytest.mark.parametrize("text", ["", "Q", "1S", "QX", "QSS", "11D", "♠Q", "10"])
def test_unknown_card_texts_are_refused(text: str) -> None:
    with refused(ValueError, f"unknown card {text!r}"):
        card(text)


def test_labels_and_names_for_messages() -> None:
    assert card_label(card("QS")) == "Q♠"
    assert card_label(card("TD")) == "10♦"
    assert card_label(card("2C")) == "2♣"
    assert card_name(card("QS")) == "Queen of spades"
    assert card_name(card("TH")) == "Ten of hearts"


def test_masks_hold_cards_in_display_order() -> None:
    cards = parse_cards(["QS", "2C", "AH", "TD"])
    m = mask_of(cards)
    assert m.bit_count() == 4
    assert cards_of(m) == sorted(cards)
    assert list(iter_cards(m)) == sorted(cards)
    assert texts_of(m) == ["2C", "TD", "AH", "QS"]
    assert cards_of(0) == []


def test_seats_in_play_order_and_their_compass_names() -> None:
    assert [left_of(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert [right_of(s, 4) for s in range(4)] == [3, 0, 1, 2]
    assert [across_from(s, 4) for s in range(4)] == [2, 3, 0, 1]
    assert [seat_name(s, 4) for s in range(4)] == ["South", "West", "North", "East"]
    assert seat_name(4, 5) == "seat 5"


def test_second_deck_copies_are_c_plus_52_and_written_with_a_2() -> None:
    assert [card(t + "2") for t in ALL_TEXTS] == list(range(52, 104))
    assert [card_text(c) for c in range(52, 104)] == [t + "2" for t in ALL_TEXTS]
    assert card("10D2") == card("TD2") == card("TD") + 52
    assert card("Q♠2") == card("QS") + 52
    assert card_label(card("QS2")) == "Q♠²"
    assert card_name(card("QS2")) == "Queen of spades (second deck)"
    for c in range(52):
        assert (SUIT_OF[c + 52], RANK_OF[c + 52], BASE_OF[c + 52]) == (SUIT_OF[c], RANK_OF[c], c)
        assert SUIT_MASKS2[SUIT_OF[c]] >> c & 1 and SUIT_MASKS2[SUIT_OF[c]] >> (c + 52) & 1
    assert texts_of(mask_of([card("QS"), card("QS2")])) == ["QS", "QS2"]


@pytest.mark.parametrize("text", ["QS3", "QS22", "102", "2"])
def test_unknown_second_deck_texts_are_refused(text: str) -> None:
    with refused(ValueError, f"unknown card {text!r}"):
        card(text)

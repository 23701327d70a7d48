"""Tables of 3 and 5 to 10 seats in the terminal: the opponents on a ring of
panels around the trick, every one named and none drawn over another, in an
80×24 terminal's table area (52×13) and a larger one.

The views are built here (the server's tables are four seats until its
variant support lands); what is drawn is the real widget code's output.
"""

from __future__ import annotations

import pytest
from rich.text import Text

from client.tui.i18n import Translator
from client.tui.model import TableModel
from client.tui.seats import place_key, short_names
from client.tui.widgets.canvas import Canvas
from client.tui.widgets.seat_ring import draw_ring, opponents, ring_sides
from protocol.common import RulesModel
from protocol.view import PlayedCard, SeatInfo, SeatView

NAMES = ("Olena", "Hana", "Fedir", "Ines", "Marta", "Taras", "Oksana", "Petro", "Yuliia", "Zenon")


def table_of(n: int, seat: int = 0) -> SeatView:
    """A hand in play at an ``n``-seat table, seat 2 leading, four cards down."""
    seats = tuple(
        SeatInfo(seat=i, kind="human", name=NAMES[i], connected=True, cards_left=6, points_hand=i)
        for i in range(n)
    )
    trick = tuple(
        PlayedCard(seat=(2 + k) % n, card=c) for k, c in enumerate(("9C", "QC", "KC", "2H"))
    )
    return SeatView(
        table_id="t",
        code="ABCDEF",
        name="t",
        public=False,
        rules=RulesModel(),
        seq=1,
        seat=seat,
        host_seat=0,
        seats=seats,
        status="playing",
        phase="play",
        turn=(2 + 4) % n,
        trick=trick,
    )


@pytest.mark.parametrize("n", [3, 5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("size", [(52, 13), (90, 30)])
def test_every_opponent_has_a_panel_and_none_overlaps(n: int, size: tuple[int, int]) -> None:
    view = table_of(n)
    model = TableModel(view=view, trick=view.trick)
    canvas = Canvas(*size)
    draw_ring(canvas, Translator("en"), model, view, Text("status"))
    text = canvas.text().plain
    lines = text.split("\n")
    assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
    for seat in opponents(view):
        assert NAMES[seat][:5] in text, (seat, text)
    # You are not on the ring: your name shows only over your card.
    assert text.count("Olena") == sum(p.seat == 0 for p in view.trick)
    for card in ("9♣", "Q♣", "K♣", "2♥"):
        assert card in text, text


def test_sides_share_the_opponents_in_play_order() -> None:
    assert ring_sides(2) == (1, 0, 1)
    assert [sum(ring_sides(k)) for k in range(2, 10)] == list(range(2, 10))
    assert all(left == right for left, _, right in map(ring_sides, range(2, 10)))
    assert opponents(table_of(6, seat=4)) == [5, 0, 1, 2, 3]


def test_places_are_said_apart_from_names() -> None:
    """Where a seat sits is an arrow and a word (its number beyond four
    seats), never its name."""
    t = Translator("en")
    assert t(place_key(table_of(6), 4)) == "Seat 5"
    assert t(place_key(table_of(4), 1)) == "← left"
    assert t(place_key(table_of(4, seat=2), 1)) == "→ right"


def test_short_names_are_cut_names_told_apart() -> None:
    """The score table's and trick history's short names: each name cut,
    the same for every viewer; two that would read the same end in their
    seat's number."""
    view = table_of(10)
    assert short_names(view, 4) == short_names(table_of(10, seat=3), 4)
    short = short_names(view, 2)
    assert short[0] == "Ol" and short[1] == "Ha"
    assert len(set(short.values())) == 10

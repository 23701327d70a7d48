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
from client.tui.seats import compass_key
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
    assert "Olena" not in text.replace("you", "")  # you are not on the ring
    for card in ("9♣", "Q♣", "K♣", "2♥"):
        assert card in text, text


def test_sides_share_the_opponents_in_play_order() -> None:
    assert ring_sides(2) == (1, 0, 1)
    assert [sum(ring_sides(k)) for k in range(2, 10)] == list(range(2, 10))
    assert all(left == right for left, _, right in map(ring_sides, range(2, 10)))
    assert opponents(table_of(6, seat=4)) == [5, 0, 1, 2, 3]


def test_seats_beyond_four_are_called_by_number() -> None:
    t = Translator("en")
    assert t(compass_key(table_of(6), 4)) == "Seat 5"
    assert t(compass_key(table_of(4), 1)) == "West"


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
def test_the_rules_page_explains_every_variant(language: str) -> None:
    from client.tui.screens.rules import paragraphs
    from engine.variants import VARIANTS

    t = Translator(language)  # type: ignore[arg-type]
    page = paragraphs(t, "rules.variants").plain
    for name in VARIANTS:
        if name != "standard":
            assert t("variant." + name) in page, (language, name)


def test_a_five_card_tricks_row_keeps_its_winner_on_the_line() -> None:
    from rich.cells import cell_len

    from client.tui.widgets.side import HISTORY_ROW, history_text
    from protocol.view import TrickRecord

    def row(cards: tuple[str, ...]) -> str:
        played = tuple(PlayedCard(seat=k, card=c) for k, c in enumerate(cards))
        trick = TrickRecord(leader=0, cards=played, winner=2, points=0)
        view = table_of(5).model_copy(update={"tricks": (trick,)})
        return history_text(Translator("en"), view).plain.split("\n")[1]

    tight = row(("6C", "3C", "8C", "5C", "2C"))
    assert cell_len(tight) <= HISTORY_ROW and tight.endswith("★3"), tight
    assert "6♣ 3♣ 8♣ 5♣ 2♣" in tight  # each card still stands apart
    # A 10 would touch its neighbour: the cards keep their spaces (and wrap).
    assert "  6♣ 10♣  8♣" in row(("6C", "TC", "8C", "5C", "2C"))
    # Four cards were never tight.
    assert "▸  2♣  3♣  4♣  5♣ ★3" in row(("2C", "3C", "4C", "5C"))

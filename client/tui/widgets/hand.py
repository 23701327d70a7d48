"""Your hand along the bottom: sorted by suit, a key letter under each card
(a card keeps its letter for the whole hand: see ``TableModel.keys``).

Four rows: the raised row (cards picked to pass stand one row higher), two
rows of card faces and the key letters; six rows, with larger cards (four
rows of six columns), when the screen gives the hand that much room and
the hand fits the width with them. A click on a card or its letter
posts ``HandView.CardChosen``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..cards import KEYS, suit_of
from ..model import TableModel
from .card_art import CARD_WIDTH, LARGE_HEIGHT, LARGE_WIDTH, CardLook, blank, card_face
from .model_slice import ShowsSlice

__all__ = ["KEYS", "HandView", "Slot", "hand_layout"]

GAP: Final = 1
SUIT_GAP: Final = 2


@dataclass(frozen=True)
class Slot:
    """Where a card is drawn: its column and its key letter."""

    card: str
    x: int
    key: str


def hand_layout(
    cards: list[str],
    width: int,
    keys: Mapping[str, str] | None = None,
    card_width: int = CARD_WIDTH,
) -> list[Slot]:
    """Columns of the cards, centred in ``width``, a wider gap between suits;
    each card's letter from ``keys`` (by position when not given). A hand
    too wide for that (17 cards at three seats, 19 with the widow) closes
    up: no gap inside a suit, one column between suits."""
    xs, x = _columns(cards, GAP, SUIT_GAP, card_width)
    if x > width:
        xs, x = _columns(cards, 0, 1, card_width)
    left = max(0, (width - x) // 2)
    if keys is None:
        keys = dict(zip(cards, KEYS, strict=False))
    return [Slot(c, left + xs[i], keys.get(c, " ")) for i, c in enumerate(cards)]


def hand_width(cards: list[str], card_width: int) -> int:
    """Columns the hand takes with its usual gaps."""
    return _columns(cards, GAP, SUIT_GAP, card_width)[1]


def _columns(
    cards: list[str], gap: int, suit_gap: int, card_width: int = CARD_WIDTH
) -> tuple[list[int], int]:
    """Each card's column from the left, and the width of them all."""
    xs: list[int] = []
    x = 0
    for i, card in enumerate(cards):
        if i:
            x += suit_gap if suit_of(card) != suit_of(cards[i - 1]) else gap
        xs.append(x)
        x += card_width
    return xs, x


class HandView(Widget, ShowsSlice, can_focus=True):
    """The player's cards."""

    DEFAULT_CSS = """
    HandView { height: 4; width: 1fr; }
    """

    class CardChosen(Message):
        """A card was clicked."""

        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    def __init__(self, model: TableModel, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model

    def slice(self) -> object:
        """The cards, their letters, which are raised, marked, playable or
        locked, and the cursor (the focus redraws by itself)."""
        model, view = self.model, self.model.view
        locked = bool(view and view.passed and view.phase == "pass")
        keys = tuple(sorted(model.keys.items()))
        return (
            tuple(model.hand()),
            keys,
            model.raised(),
            model.marked(),
            model.playable(),
            locked,
            model.cursor,
        )

    def large(self) -> bool:
        """Larger cards: the screen gave the hand six rows and the hand
        fits the width with them and their gaps."""
        return self.size.height >= LARGE_HEIGHT + 2 and (
            hand_width(self.model.hand(), LARGE_WIDTH) <= self.size.width
        )

    def card_width(self) -> int:
        """Columns of one card as drawn now."""
        return LARGE_WIDTH if self.large() else CARD_WIDTH

    def slots(self) -> list[Slot]:
        """The current layout (also used to map clicks)."""
        return hand_layout(self.model.hand(), self.size.width, self.model.keys, self.card_width())

    def render(self) -> Text:
        """Raised faces, the faces, the key letters (four rows, or six with
        larger cards)."""
        model = self.model
        large = self.large()
        width = self.card_width()
        height = (LARGE_HEIGHT if large else 2) + 2
        slots = self.slots()
        raised = model.raised()
        marked = model.marked()
        playable = model.playable()
        locked = bool(model.view and model.view.passed and model.view.phase == "pass")
        rows = [Text() for _ in range(height)]
        column = 0
        for index, slot in enumerate(slots):
            pad = slot.x - column
            for row in rows:
                row.append_text(blank(pad))
            look = CardLook(
                illegal=playable is not None and slot.card not in playable,
                marked=slot.card in marked,
                faded=locked and slot.card in raised,
            )
            face = card_face(slot.card, look, large)
            up = slot.card in raised
            faces = [*face, blank(width)] if up else [blank(width), *face]
            for row, piece in zip(rows, faces, strict=False):
                row.append_text(piece)
            cursor = index == model.cursor and self.has_focus
            rows[-1].append_text(self._key_label(slot, cursor, playable, width))
            column = slot.x + width
        out = Text()
        for i, row in enumerate(rows):
            if i:
                out.append("\n")
            out.append_text(row)
        return out

    def _key_label(
        self, slot: Slot, cursor: bool, playable: frozenset[str] | None, width: int
    ) -> Text:
        """The key under a card: bright when it plays now, dim when it may
        not, reversed under the cursor."""
        if playable is None:
            style = Style()
        elif slot.card in playable:
            style = Style(bold=True, color="yellow")
        else:
            style = Style(dim=True)
        if cursor:
            style += Style(reverse=True, bold=True)
        left = (width - 1) // 2
        return Text(" " * left) + Text(slot.key, style=style) + Text(" " * (width - left - 1))

    def on_click(self, event: events.Click) -> None:
        """Choose the card under the pointer."""
        width = self.card_width()
        for slot in self.slots():
            if slot.x <= event.x < slot.x + width:
                self.post_message(self.CardChosen(slot.card))
                return

    def on_focus(self) -> None:
        """Show the cursor."""
        self.refresh()

    def on_blur(self) -> None:
        """Hide the cursor."""
        self.refresh()

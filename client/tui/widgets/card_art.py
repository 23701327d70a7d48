"""Drawing one card: four columns, two rows, like a small card face (six
columns and four rows in a larger terminal: ``large_card_rows``).

The first row holds rank and suit (`` Q♠ ``, ``10♥ ``) in red or black on a
light face. The second row carries what must not depend on colour alone: a
hatch (``░░░░``) on a card you may not play, a ``●`` on a card passed to
you, a ``★`` on the card that won the trick. Unplayable cards are also
dimmed and struck through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.style import Style
from rich.text import Text

from ..cards import is_red, is_second_copy, label

CARD_WIDTH: Final = 4
LARGE_WIDTH: Final = 6  # a larger terminal's cards: six columns, four rows
LARGE_HEIGHT: Final = 4
FACE: Final = "#f3efe4"
RED: Final = "#c62828"
BLACK: Final = "#1c1c1c"
DIM_FACE: Final = "#77736b"
DIM_INK: Final = "#b5b0a5"
MARK: Final = "#d99a00"
WINNER_FACE: Final = "#ffd54f"


@dataclass(frozen=True)
class CardLook:
    """How one card is drawn."""

    illegal: bool = False
    marked: bool = False
    winner: bool = False
    faded: bool = False


def card_rows(card: str, look: CardLook = CardLook()) -> tuple[Text, Text]:
    """The two rows of a card face."""
    face = WINNER_FACE if look.winner else DIM_FACE if look.illegal or look.faded else FACE
    if look.illegal:
        ink = Style(color=DIM_INK, bgcolor=face, strike=True, dim=True)
    else:
        ink = Style(color=RED if is_red(card) else BLACK, bgcolor=face, bold=True)
    # The second deck's copy (Cancellation Hearts) shows a ² in the corner.
    second = is_second_copy(card)
    top = Text(f"{label(card[:2]):>3}", style=ink) + Text(
        "²" if second else " ", style=Style(color="#1d4ed8", bgcolor=face, bold=True)
    )
    bottom = Text()
    if look.marked:
        bottom.append("●", Style(color=MARK, bgcolor=face, bold=True))
    elif look.winner:
        bottom.append("★", Style(color=BLACK, bgcolor=face, bold=True))
    else:
        bottom.append(" " if not look.illegal else "░", Style(color=DIM_INK, bgcolor=face))
    fill = "░" if look.illegal else " "
    bottom.append(fill * (CARD_WIDTH - 1), Style(color=DIM_INK, bgcolor=face))
    return top, bottom


def large_card_rows(card: str, look: CardLook = CardLook()) -> list[Text]:
    """The four rows of a larger card: rank and suit in the top left corner,
    the mark row (as on the small card), the suit in the middle, rank and
    suit again in the bottom right corner."""
    top, marks = card_rows(card, look)
    face = WINNER_FACE if look.winner else DIM_FACE if look.illegal or look.faded else FACE
    ink = top.spans[0].style if top.spans else Style()
    fill = "░" if look.illegal else " "
    corner = label(card[:2])
    second = "²" if is_second_copy(card) else " "
    pad = Style(color=DIM_INK, bgcolor=face)
    upper = Text(" " + corner, style=ink) + Text(second, style=Style(color="#1d4ed8", bgcolor=face))
    upper.append(fill * (LARGE_WIDTH - upper.cell_len), pad)
    mark = marks.copy()
    mark.append(fill * (LARGE_WIDTH - mark.cell_len), pad)
    suit = Text(fill * 2, style=pad) + Text(corner[-1], style=ink)
    suit.append(fill * (LARGE_WIDTH - suit.cell_len), pad)
    lower = Text(fill * (LARGE_WIDTH - len(corner) - 1), style=pad) + Text(corner, style=ink)
    lower.append(fill, pad)
    return [upper, mark, suit, lower]


def card_face(card: str, look: CardLook, large: bool) -> list[Text]:
    """A card's rows, small (two) or large (four)."""
    return large_card_rows(card, look) if large else list(card_rows(card, look))


def blank(width: int) -> Text:
    """Empty columns."""
    return Text(" " * width)

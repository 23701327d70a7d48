"""The table of 3 or 5 to 10 seats: the opponents on a ring of small panels
around the trick (four seats keep the classic panels of the table screen).

The opponents go round in play order from your left, as at the table: up
the left side (seat + 1 at the bottom of it), along the top, down the right
side. Each panel is two lines: the name (▶ on its turn, ★ for the host) and
the cards left as a fan with their count and the points taken this hand.
The trick in the middle lists its cards in play order, each under the short
name of who played it, wrapped to the room there is; the status line (whose
turn, who takes the trick) is the one of the four-seat table.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from protocol.view import SeatInfo, SeatView

from ..i18n import Translator
from ..model import TableModel
from ..seats import my_seat
from .canvas import Canvas
from .card_art import CardLook, card_rows
from .seat_panel import fanned_backs, seat_name

PANEL_WIDTH = 16  # columns of a side panel
CARD_STEP = 6  # columns per card of the trick (4 of card and a gap)


def ring_sides(count: int) -> tuple[int, int, int]:
    """How many of ``count`` opponents sit on the left, the top and the right."""
    side = 1 if count <= 3 else (count + 1) // 3
    if count == 2:
        return 1, 0, 1
    return side, count - 2 * side, side


def opponents(view: SeatView) -> list[int]:
    """The other seats in play order from your left."""
    n = len(view.seats)
    me = my_seat(view)
    return [(me + k) % n for k in range(1, n)]


def _panel(t: Translator, view: SeatView, info: SeatInfo, width: int) -> tuple[Text, Text]:
    turn = view.status == "playing" and view.phase == "play" and view.turn == info.seat
    name = Text(("▶" if turn else "") + seat_name(t, view, info))
    name.stylize(Style(bold=True, color="yellow" if turn else None))
    if info.host:
        name.append("★", style=Style(color="yellow"))
    name.truncate(width, overflow="ellipsis")
    second = Text()
    if view.status == "playing" and info.out:  # Domino Hearts: no cards left
        second = Text(t("seat.out"), style=Style(dim=True, italic=True))
    elif view.status != "waiting" and info.kind != "open":
        second = fanned_backs(min(info.cards_left, 4))
        second.append(f" {info.cards_left} ")
        second.append("♥", style=Style(color="red"))
        second.append(str(info.points_hand))
        second.truncate(width, overflow="ellipsis")
    return name, second


def draw_ring(
    canvas: Canvas, t: Translator, model: TableModel, view: SeatView, status: Text
) -> None:
    """Draw the opponents' panels around the edge of ``canvas`` and the trick
    (or, between hands, each seat's points) inside them."""
    width, height = canvas.width, canvas.height
    others = opponents(view)
    left, top, right = ring_sides(len(others))
    panel_w = min(PANEL_WIDTH, max(8, width // 4))
    spots: dict[int, tuple[int, int]] = {}
    rows = max(1, (height - (3 if top else 0)) // 3)
    for k in range(left):  # upwards from the bottom of the left side
        spots[others[k]] = (0, (3 if top else 0) + (left - 1 - k) * min(3, rows))
    inner = width - 2 * panel_w
    for k in range(top):
        step = max(panel_w, inner // max(top, 1)) if top > 1 else panel_w
        x = panel_w + (inner - step * top) // 2 + k * step if top > 1 else (width - panel_w) // 2
        spots[others[left + k]] = (max(0, x), 0)
    for k in range(right):  # downwards from the top of the right side
        spots[others[left + top + k]] = (width - panel_w, (3 if top else 0) + k * min(3, rows))
    last = view.hands[-1] if view.hands and view.status in ("between_hands", "game_over") else None
    for seat, (x, y) in spots.items():
        name, second = _panel(t, view, view.seats[seat], panel_w - 1)
        if last is not None:
            points = last.points[seat]
            second = Text(
                ("☾" if last.shooter == seat else "")
                + (f"+{points}" if points > 0 else str(points))
            )
            second.stylize(Style(bold=True, color="red" if points > 0 else "green"))
        canvas.put(x, y, name)
        canvas.put(x, y + 1, second)
    _draw_trick(canvas, t, model, view, panel_w, 3 if top else 0)
    canvas.center(height - 1, status)


def _draw_trick(
    canvas: Canvas, t: Translator, model: TableModel, view: SeatView, margin: int, top: int
) -> None:
    if view.status != "playing" or view.phase != "play":
        return
    inner = canvas.width - 2 * margin
    per_row = max(1, inner // CARD_STEP)
    rows = -(-len(model.trick) // per_row)
    # Centred between the top panels and the status line.
    top += max(0, (canvas.height - 1 - top - 3 * rows) // 2)
    winner = model.trick_winner
    # Cancellation Hearts: two identical cards (the two decks' copies) cancel.
    bases = [p.card[:2] for p in model.trick]
    for k, played in enumerate(model.trick):
        row, col = divmod(k, per_row)
        x = margin + (inner - per_row * CARD_STEP) // 2 + col * CARD_STEP + 1
        y = top + row * 3
        info = view.seats[played.seat]
        # The seat's name over the card (cut to the card's width).
        label = seat_name(t, view, info)
        head = Text(label[: CARD_STEP - 1], style=Style(dim=True))
        gone = bases.count(played.card[:2]) > 1
        look = CardLook(winner=played.seat == winner, faded=gone)
        upper, lower = card_rows(played.card, look)
        canvas.put(x, y, head)
        canvas.put(x, y + 1, upper)
        canvas.put(x, y + 2, lower)

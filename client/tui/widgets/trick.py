"""The middle of the table: the trick, the pass direction, the hand's points.

Each seat's card lies on its side of the table (yours at the bottom). A
finished trick stays a moment with its winning card highlighted. While
cards are passed an arrow points to where yours go; when a hand is over
each side shows the points taken (and a moon, if one was shot).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from protocol.view import SeatView

from ..i18n import Msg, Term, Translator
from ..model import TableModel, seat_label
from ..moon import hand_moon
from ..seats import POSITIONS, Position, position_of, seat_at
from .canvas import Canvas
from .card_art import CARD_WIDTH, LARGE_HEIGHT, LARGE_WIDTH, CardLook, card_face
from .model_slice import ShowsSlice
from .seat_ring import draw_ring

ARROWS: Final[Mapping[str, str]] = MappingProxyType(
    {"left": "←", "right": "→", "across": "↑", "hold": "·"}
)


class TrickView(Widget, ShowsSlice):
    """The trick in the middle of the table."""

    DEFAULT_CSS = """
    TrickView { width: 1fr; height: 1fr; }
    """

    class Clicked(Message):
        """The table was clicked (cuts a pause short)."""

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t

    def slice(self) -> object:
        """The table's view and the trick on the table (with its winner),
        and the language."""
        m = self.model
        return (self.t.language, m.view, m.trick, m.trick_winner, m.trick_carried, m.trick_points)

    @staticmethod
    def large(width: int, height: int) -> bool:
        """Room for the larger cards (four rows of six columns): the middle
        of a table in a terminal of about 120×40 or more."""
        return width >= 60 and height >= 3 * LARGE_HEIGHT + 5

    @classmethod
    def _steps(cls, width: int, height: int) -> tuple[int, int]:
        """Columns from the centre to a side card, rows between card rows:
        tight at 80×24, roomier on a larger table."""
        if cls.large(width, height):
            return max(10, min(width // 4, 18)), max(5, min((height - 5) // 3, 7))
        return max(7, min(width // 4, 14)), max(3, min((height - 3) // 3, 5))

    def _spots(self, width: int, height: int, top: int) -> dict[Position, tuple[int, int]]:
        cx = width // 2 - (LARGE_WIDTH if self.large(width, height) else CARD_WIDTH) // 2
        dx, dy = self._steps(width, height)
        return {
            "across": (cx, top),
            "left": (cx - dx, top + dy),
            "right": (cx + dx, top + dy),
            "bottom": (cx, top + 2 * dy),
        }

    def render(self) -> Text:
        """Draw the current state of the middle of the table."""
        width, height = self.size.width, self.size.height
        canvas = Canvas(width, height)
        view = self.model.view
        if view is None or view.status == "waiting":
            return canvas.text()
        if len(view.seats) != 4:  # the opponents on a ring around the trick
            draw_ring(canvas, self.t, self.model, view, self._status(view))
            return canvas.text()
        # three card rows and the status
        card_rows_drawn = LARGE_HEIGHT if self.large(width, height) else 2
        block = 2 * self._steps(width, height)[1] + card_rows_drawn + 1
        top = max(0, (height - block) // 2)
        spots = self._spots(width, height, top)
        if self.model.lingering():
            self._draw_trick(canvas, view, spots)
        elif view.status in ("between_hands", "game_over") and view.hands:
            self._draw_points(canvas, view, spots)
        elif view.phase == "pass" and view.status == "playing":
            self._draw_pass(canvas, view, spots)
        else:
            self._draw_trick(canvas, view, spots)
        canvas.center(top + block - 1, self._status(view))
        return canvas.text()

    def _draw_trick(
        self, canvas: Canvas, view: SeatView, spots: dict[Position, tuple[int, int]]
    ) -> None:
        winner = self.model.trick_winner
        large = self.large(canvas.width, canvas.height)
        for played in self.model.trick:
            x, y = spots[position_of(view, played.seat)]
            look = CardLook(winner=played.seat == winner)
            for row, piece in enumerate(card_face(played.card, look, large)):
                canvas.put(x, y + row, piece)
        waiting = view.phase == "play" and view.turn is not None and winner is None
        if waiting and all(p.seat != view.turn for p in self.model.trick):
            assert view.turn is not None  # part of ``waiting``
            x, y = spots[position_of(view, view.turn)]
            marker = "  ▪▪  " if large else " ▪▪ "
            canvas.put(x, y + (1 if large else 0), Text(marker, style=Style(dim=True)))

    def _draw_pass(
        self, canvas: Canvas, view: SeatView, spots: dict[Position, tuple[int, int]]
    ) -> None:
        arrow = ARROWS.get(view.pass_direction or "hold", "·")
        x = spots["bottom"][0]
        canvas.put(x + 1, spots["left"][1], Text(f" {arrow} ", style=Style(bold=True)))
        for position in POSITIONS:
            info = view.seats[seat_at(view, position)]
            if info.passed or (position == "bottom" and view.passed):
                px, py = spots[position]
                canvas.put(px, py, Text(" ✓  ", style=Style(bold=True, color="green")))

    def _draw_points(
        self, canvas: Canvas, view: SeatView, spots: dict[Position, tuple[int, int]]
    ) -> None:
        last = view.hands[-1]
        for seat, points in enumerate(last.points):
            x, y = spots[position_of(view, seat)]
            moon = last.shooter == seat
            label = ("☾" if moon else "") + (f"+{points}" if points > 0 else str(points))
            style = Style(bold=True, color="red" if points > 0 else "green")
            canvas.put(x, y, Text(f"{label:^4}", style=style))

    def _status(self, view: SeatView) -> Text:
        model = self.model
        t = self.t
        msg: Msg | None = None
        style = Style(bold=True)
        if model.trick_winner is not None:
            key = "trick.you_take" if model.trick_winner == view.seat else "trick.takes"
            name = seat_label(view, model.trick_winner)
            msg = Msg(key, {"name": name, "points": model.trick_points})
        elif model.trick_carried:
            msg = Msg("trick.carried")
        elif view.status in ("between_hands", "game_over") and view.hands:
            last = view.hands[-1]
            moon = self.moon_cut()
            if moon is not None:  # too long for the middle: the notice line says it whole
                msg = Msg("trick.moon_short", {"name": seat_label(view, moon[1])})
            elif last.shooter is not None:
                msg = hand_moon(view.rules, last, seat_label(view, last.shooter))
            else:
                msg = Msg("trick.hand_over", {"n": last.hand_number})
        elif view.phase == "pass" and view.status == "playing":
            direction = view.pass_direction or "hold"
            msg = Msg("trick.pass", {"dir": Term("dir." + direction)})
        elif view.phase == "moon_choice" and view.moon_shooter is not None:
            msg = Msg("trick.moon", {"name": seat_label(view, view.moon_shooter)})
        elif view.phase == "play" and view.turn is not None:
            if view.turn == view.seat:
                msg, style = Msg("trick.your_turn"), Style(bold=True, color="yellow")
            else:
                msg = Msg("trick.turn", {"name": seat_label(view, view.turn)})
        return Text(t.text(msg), style=style) if msg is not None else Text()

    def moon_cut(self) -> tuple[Msg, int] | None:
        """The hand just over had a moon whose sentence is wider than the
        middle of the table (80×24, in Ukrainian or Russian): the sentence
        and the shooter, for the notice line to say it whole; the middle
        then shows "☾ NAME" only."""
        view = self.model.view
        if view is None or view.status not in ("between_hands", "game_over") or not view.hands:
            return None
        last = view.hands[-1]
        if last.shooter is None:
            return None
        msg = hand_moon(view.rules, last, seat_label(view, last.shooter))
        if msg is None or Text(self.t.text(msg)).cell_len <= self.size.width:
            return None
        return msg, last.shooter

    def on_click(self, event: events.Click) -> None:
        """Ask to cut the pause short."""
        self.post_message(self.Clicked())

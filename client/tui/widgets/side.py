"""The side panel: the tricks of this hand, or the score table of the game.

The trick history lists every finished trick: its number, who led (▸),
the cards in play order with the winning card highlighted, and who won
(★). The score table has a line per hand (☾ marks a moon) and the totals.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from protocol.view import SeatView

from ..cards import is_red, label
from ..i18n import Translator
from ..model import TableModel
from ..seats import play_order, short_names
from .model_slice import Drawn, ShowsSlice

WIN = Style(bgcolor="#ffd54f", color="#1c1c1c", bold=True)


def card_text(card: str, winner: bool = False, cancelled: bool = False) -> Text:
    """A card in a list: coloured by suit, highlighted when it won, struck
    through and dimmed when it cancelled (Cancellation Hearts)."""
    if winner:
        return Text(f"{label(card):>3}", style=WIN)
    colour = "red" if is_red(card) else None
    return Text(f"{label(card):>3}", style=Style(color=colour, strike=cancelled, dim=cancelled))


def face_down_text(t: Translator, view: SeatView) -> Text:
    """What lies face down on the table (the widow, the domino stock, the
    cancellation rest: how many) and the cards of carried tricks waiting
    for the next trick's winner; empty when there is none."""
    parts: list[str] = []
    if view.status == "playing" and view.stock_count:
        kind = view.rules.variant if view.rules.variant in ("widow", "domino") else "rest"
        parts.append(t("stock." + kind, n=view.stock_count))
    if view.status == "playing" and view.carried:
        parts.append(t("trick.carried_waiting", n=len(view.carried)))
    return Text(" · ".join(parts), style=Style(color="cyan"))


HISTORY_ROW = 25  # columns of a history row: the panel's 26, less the scroll bar


def history_text(t: Translator, view: SeatView, width: int = HISTORY_ROW) -> Text:
    """Every finished trick of the hand, a row each; a trick too long for
    ``width`` columns (seven to ten seats) goes on under its own cards,
    indented past its number and leader, never back at the left edge."""
    lines = [Text(t("side.legend"), style=Style(dim=True))]
    short = short_names(view, 2)
    for i, trick in enumerate(view.tricks, start=1):
        head = Text(f"{i:>2} ")
        head.append(f"{short[trick.leader]:<2}", style=Style(bold=True))
        head.append("▸")
        # A carried trick (Cancellation Hearts) has no winner.
        winner = t("side.carried") if trick.winner is None else short[trick.winner]
        # Five cards fit the row with the winner when the cards close up,
        # which keeps them apart only while each is padded (no 10, no ²).
        widths = [max(3, cell_len(label(p.card))) for p in trick.cards]
        spaced = head.cell_len + 2 + len(winner) + sum(1 + w for w in widths)
        if trick.cards and cell_len(label(trick.cards[0].card)) < 3:
            spaced -= 1  # no gap before a padded first card (below)
        tight = spaced - len(widths) <= width and all(w == 3 for w in widths)
        padded = all(cell_len(label(p.card)) < 3 for p in trick.cards[1:])
        gap = "" if spaced > width and tight and padded else " "
        pieces: list[Text] = []
        for n, played in enumerate(trick.cards):
            gone = played.card in trick.cancelled
            # The first card's own padding parts it from the ▸ (a column
            # saved: four cards with a 10 and the winner fit one row).
            first_padded = n == 0 and cell_len(label(played.card)) < 3
            space = "" if first_padded else gap
            pieces.append(Text(space) + card_text(played.card, played.seat == trick.winner, gone))
        end = Text(" ★") + Text(winner, style=Style(bold=True))
        if trick.carried_in:
            end.append(f" +{len(trick.carried_in)}", style=Style(dim=True))
        # Continued rows keep the first row's card columns.
        indent = head.cell_len
        if len(pieces) > 1:
            indent += pieces[0].cell_len - pieces[1].cell_len
        pieces.append(end)
        if trick.cancelled:
            # Said in words too (the strike-through is a style a terminal
            # may not draw), word by word on the trick's rows.
            cancelled = " ".join(label(c) for c in trick.cancelled)
            words = t("side.cancelled", cards=cancelled).split()
            words[:2] = [" ".join(words[:2])]  # "✕ cancelled:" stays together
            for word in words:
                pieces.append(Text(" " + word, style=Style(dim=True)))
        lines += _indented_rows(head, pieces, width, indent)
    if not view.tricks:
        lines.append(Text(t("side.no_tricks"), style=Style(dim=True)))
    return Text("\n").join(lines)


def _indented_rows(head: Text, pieces: list[Text], width: int, indent: int) -> list[Text]:
    """``head`` then the pieces, as many to a row as ``width`` holds; the
    rows after the first start ``indent`` columns in."""
    rows = [head.copy()]
    for piece in pieces:
        row = rows[-1]
        if row.cell_len + piece.cell_len > width and row.cell_len > head.cell_len:
            rows.append(Text(" " * indent))
            row = rows[-1]
        row.append_text(piece)
    return rows


WIDE_SCORES = 6  # seats beyond which the score table turns: a row per seat
SCORE_WIDTH = 4  # columns of one hand's points in a row per seat ("-26", "+104")


def scores_text(t: Translator, view: SeatView) -> Text:
    """Points of each hand and the totals, a column per seat (you first);
    at more than six seats a row per seat instead, with the last hands that
    fit beside the total (the columns would be too narrow to read)."""
    n = len(view.seats)
    if n > WIDE_SCORES:
        return _scores_by_seat(t, view)
    order = play_order(view)
    w = max(2, min(5, 23 // n))  # more seats, narrower columns (the panel is 26 wide)
    head = Text(" # ", style=Style(dim=True))
    short = short_names(view, w - 1)
    for seat in order:
        # Your own column underlined: every screen names it the same.
        head.append(" " * (w - cell_len(short[seat])))
        head.append(short[seat], style=Style(bold=True, underline=seat == view.seat))
    lines = [head]
    for result in view.hands:
        line = Text(f"{result.hand_number:>2} ")
        for seat in order:
            mark = "☾" if result.shooter == seat else ""
            line.append(f"{mark + str(result.points[seat]):>{w}}")
        lines.append(line)
    if view.hands and view.totals:
        best = min(view.totals)
        total = Text(" Σ ", style=Style(bold=True))
        for seat in order:
            style = Style(bold=True, color="green" if view.totals[seat] == best else None)
            total.append(f"{view.totals[seat]:>{w}}", style=style)
        lines.append(Text("─" * 23, style=Style(dim=True)))
        lines.append(total)
        lines.append(Text(t("score.legend"), style=Style(dim=True)))
    else:
        lines.append(Text(t("side.no_scores"), style=Style(dim=True)))
    return Text("\n").join(lines)


def _scores_by_seat(t: Translator, view: SeatView) -> Text:
    """The score table with a row per seat, in play order from yours."""
    if not (view.hands and view.totals):
        return Text(t("side.no_scores"), style=Style(dim=True))
    # 26 columns: the seat (3), the total (5), and as many hands as fit.
    shown = view.hands[-((26 - 3 - 5) // SCORE_WIDTH) :]
    head = Text("   ", style=Style(dim=True))
    for result in shown:
        head.append(f"{'#' + str(result.hand_number):>{SCORE_WIDTH}}", style=Style(bold=True))
    head.append(f"{'Σ':>5}", style=Style(bold=True))
    lines = [head]
    best = min(view.totals)
    short = short_names(view, 2)
    for seat in play_order(view):
        line = Text(f"{short[seat]:>2} ", style=Style(bold=True, underline=seat == view.seat))
        for result in shown:
            mark = "☾" if result.shooter == seat else ""
            line.append(f"{mark + str(result.points[seat]):>{SCORE_WIDTH}}")
        style = Style(bold=True, color="green" if view.totals[seat] == best else None)
        line.append(f"{view.totals[seat]:>5}", style=style)
        lines.append(line)
    # The legend only when a moon needs it: ten seats and the header fill
    # an 80×24 terminal's panel.
    if any(result.shooter is not None for result in view.hands):
        lines.append(Text(t("score.legend"), style=Style(dim=True)))
    return Text("\n").join(lines)


class SidePanel(VerticalScroll, ShowsSlice, can_focus=False):
    """Tricks or scores, toggled with ``t``; scores show between hands."""

    DEFAULT_CSS = """
    SidePanel { border: round $panel-lighten-2; width: 28; height: 1fr; scrollbar-size-vertical: 1; }
    SidePanel > Static { width: 1fr; }
    SidePanel > .face-down { dock: top; height: auto; }
    """

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t
        self.body = Static()
        # What lies face down and the carried cards: kept in sight above the
        # history, which scrolls to its newest trick.
        self.face_down = Static(classes="face-down")
        self.face_down.display = False  # until there is something face down

    def compose(self) -> ComposeResult:
        """The text inside the border."""
        yield self.face_down
        yield self.body

    def slice(self) -> object:
        """What lies face down, and the tricks or the scores with the
        panel's titles (nothing before the first view)."""
        view = self.model.view
        t = self.t
        if view is None:
            return None
        if self.model.side == "scores":
            body, title = scores_text(t, view), t("side.scores")
        else:
            # The body's columns, less the scroll bar's (none before the
            # first layout: the usual row).
            room = self.body.content_region.width - 1
            body = history_text(t, view, room if room > 0 else HISTORY_ROW)
            title = t("side.tricks")
        return Drawn(face_down_text(t, view)), Drawn(body, (title, t("side.toggle")))

    def show(self, shown: object) -> None:
        """Draw the panel; keep the latest lines in sight."""
        if not isinstance(shown, tuple):
            self.body.update("")
            self.face_down.display = False
            return
        face_down, body = shown
        self.face_down.update(face_down.text)
        self.face_down.display = bool(face_down.text.plain)
        self.border_title, self.border_subtitle = body.extras
        self.body.update(body.text)
        self.call_after_refresh(self._show_end)

    def on_resize(self) -> None:
        """A new size keeps the newest lines in sight (the text may be the
        same: nothing else would scroll)."""
        self.call_after_refresh(self._show_end)

    def _show_end(self) -> None:
        """The newest lines in sight, painted again: a shorter text (the
        scores after a long history) must not leave the old lines drawn."""
        self.scroll_end(animate=False)
        self.refresh()

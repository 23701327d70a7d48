"""A seat around the table: who sits there and how they are doing.

Name (★ for the host), human or bot and its level, online or away (or a
bot covering), for an away player the live countdown to a bot ("bot in
42 s"), the cards left as a fan of card backs with their count, points taken
this hand, and whether the seat has passed, is ready or is to play. The
panel's border lights up on its turn.
"""

from __future__ import annotations

from typing import Final

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from protocol.view import SeatInfo, SeatView

from ..i18n import Translator
from ..model import TableModel
from ..seats import Position, place_key, seat_at
from .model_slice import Drawn, ShowsSlice

BACK: Final = Style(color="#dbe4f6", bgcolor="#274b96")  # a card's back
BACK_EDGE: Final = "▏"  # the left edge of a card under the next one
BACK_TOP: Final = "▏▒"  # the card on top of the fan, its pattern showing


def fanned_backs(count: int) -> Text:
    """``count`` cards face down, fanned: each card's edge, the top card
    whole (as many columns as cards, and one more)."""
    if count <= 0:
        return Text()
    return Text(BACK_EDGE * (count - 1) + BACK_TOP, style=BACK)


def seat_name(t: Translator, view: SeatView, info: SeatInfo) -> str:
    """The name a panel shows: the seat's one name, the same on every
    screen at the table (the server names bots: SeatInfo.name)."""
    if info.kind == "open":
        return t("kind.open")
    return info.name


def kind_text(t: Translator, info: SeatInfo) -> str:
    """``human``, ``⚙ program`` (a player's own bot, ``hearts bot``) or
    ``bot · Medium``: the level is a badge beside the bot's name."""
    if info.kind == "bot":
        return t("kind.bot", level=t("level." + (info.bot_level or "medium")))
    if info.kind == "human" and info.program:
        return t("kind.program")  # a player's own program: never shown as a person
    if info.kind == "human":
        return t("kind.human")
    return ""


def presence(t: Translator, info: SeatInfo) -> Text:
    """Online, away, or a bot playing for an away human."""
    if info.kind != "human":
        return Text()
    if info.bot_covering:
        return Text(t("seat.covering"), style=Style(color="yellow"))
    if info.away or not info.connected:
        return Text(t("seat.away"), style=Style(color="yellow"))
    return Text(t("seat.online"), style=Style(color="green"))


def countdown(t: Translator, seconds: int | None) -> Text:
    """How long until a bot covers an away player ("" when none is coming)."""
    if seconds is None:
        return Text()
    return Text(t("seat.cover_in", n=seconds), style=Style(color="yellow", bold=True))


def turn_timer(t: Translator, seconds: int | None) -> Text:
    """How long the seat has left for its move ("" when no turn timer runs)."""
    if seconds is None:
        return Text()
    return Text(t("seat.turn_in", n=seconds), style=Style(color="black", bgcolor="yellow"))


def status_mark(t: Translator, view: SeatView, info: SeatInfo) -> Text:
    """Passed, ready or to play."""
    if view.status == "playing" and view.phase == "play" and view.turn == info.seat:
        return Text(t("seat.turn"), style=Style(bold=True, color="yellow"))
    if view.status == "playing" and view.phase == "pass" and info.passed:
        return Text(t("seat.passed"), style=Style(color="green"))
    if view.status == "between_hands" and info.ready:
        return Text(t("seat.ready"), style=Style(color="green"))
    return Text()


def variant_marks(t: Translator, info: SeatInfo) -> list[str]:
    """What a variant adds to a seat during the play: out (Domino Hearts),
    cards drawn, cards taken face down."""
    marks = [t("seat.out")] if info.out else []
    if info.drawn:
        marks.append(t("seat.drew", n=info.drawn))
    if info.hidden_taken:
        marks.append(t("seat.hidden_taken", n=info.hidden_taken))
    return marks


class SeatPanel(Static, ShowsSlice):
    """One of the other three seats (a spectator also sees the bottom one)."""

    DEFAULT_CSS = """
    SeatPanel { border: round $panel-lighten-2; padding: 0 0; }
    SeatPanel.-turn { border: heavy $warning; }
    """

    def __init__(
        self, model: TableModel, t: Translator, position: Position, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t
        self.position: Position = position

    def slice(self) -> object:
        """The panel's text, whether the seat is to play and its title
        (nothing to show without a four-seat view)."""
        view = self.model.view
        if view is None or len(view.seats) != 4:
            return Drawn(Text(""))
        t = self.t
        info = view.seats[seat_at(view, self.position)]
        turn = view.status == "playing" and view.phase == "play" and view.turn == info.seat
        title = t(place_key(view, info.seat)) + (" ▶" if turn else "")
        if self.position in ("across", "bottom"):  # a wide panel: two lines
            return Drawn(Text("\n").join(self._wide_lines(view, info)), (turn, title))
        return Drawn(Text("\n").join(self._tall_lines(view, info)), (turn, title))

    def show(self, shown: object) -> None:
        """Draw the panel (its border lights up on the seat's turn)."""
        if not isinstance(shown, Drawn):
            return
        if shown.extras:
            turn, title = shown.extras
            self.set_class(bool(turn), "-turn")
            self.border_title = str(title)
        # A fixed size (hearts.tcss): new text moves nothing, no layout pass.
        self.update(shown.text, layout=False)

    def _who(self, view: SeatView, info: SeatInfo) -> tuple[Text, Text, Text, Text]:
        """The name (★ for the host), human or bot, online or away, and the
        countdown to a bot covering."""
        t = self.t
        name = Text(seat_name(t, view, info), style=Style(bold=True))
        if info.host:
            name.append(" ★", style=Style(color="yellow"))
        kind = Text(kind_text(t, info), style=Style(dim=True))
        return name, kind, presence(t, info), countdown(t, self.model.cover_left(info.seat))

    def _counts(self, view: SeatView, info: SeatInfo) -> tuple[Text, Text, Text, Text]:
        """The fan of backs, the cards left, the points, and the mark
        (passed, ready, to play, the turn timer, what a variant adds)."""
        t = self.t
        playing = view.status != "waiting"
        fan = fanned_backs(info.cards_left) if playing else Text()
        cards = Text(t("seat.cards", n=info.cards_left)) if playing else Text()
        points = Text(t("seat.points", n=info.points_hand)) if playing else Text()
        mark = status_mark(t, view, info) + turn_timer(t, self.model.turn_left(info.seat))
        if view.status == "playing":  # what a variant adds (out, drawn, face down)
            extra = (Text(e) for e in variant_marks(t, info))
            mark = Text(" · ").join(p for p in (mark, *extra) if p.plain)
        return fan, cards, points, mark

    def _wide_lines(self, view: SeatView, info: SeatInfo) -> list[Text]:
        """Across (and a spectator's bottom seat): two lines."""
        fan, cards, points, mark = self._counts(view, info)
        line1 = Text(" · ").join(p for p in self._who(view, info) if p.plain)
        line2 = Text(" · ").join(p for p in (cards, points, mark) if p.plain)
        if fan.plain:
            line2 = fan + Text(" ") + line2
        return [line1, line2]

    def _tall_lines(self, view: SeatView, info: SeatInfo) -> list[Text]:
        """Left and right: a line each. Lines with nothing to say are left
        out: the fan and the counts stay in sight in an 80×24 terminal."""
        name, kind, here, coming = self._who(view, info)
        fan, cards, points, mark = self._counts(view, info)
        return [name, *(p for p in (kind, here, coming, fan) if p.plain), cards, points, mark]

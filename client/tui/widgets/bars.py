"""One-line bars: the title bar, the notice line, the chat log, the keys."""

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

from ..i18n import Translator
from ..model import TableModel
from .chat_panel import log_line_text
from .lobby import format_code
from .model_slice import ShowsSlice

CONNECTION_STYLES: Final[Mapping[str, Style]] = MappingProxyType(
    {
        "connecting": Style(color="yellow"),
        "online": Style(color="green"),
        "reconnecting": Style(color="black", bgcolor="yellow", bold=True),
        "lost": Style(color="white", bgcolor="red", bold=True),
    }
)


PASS_ARROWS: Final[Mapping[str, str]] = MappingProxyType({"left": "←", "right": "→", "across": "↑"})


def title_parts(t: Translator, view: SeatView | None, compact: int = 0) -> list[str]:
    """Table code (and that we only watch), who knocks (the host: early,
    so a long title does not cut it off), paused, hand number, pass
    direction, hearts broken. ``compact`` 1 leaves the game's name at its
    ♥, 2 also the table at its code, 3 also the pass direction at its
    arrow: what lets 80 columns hold the rest in every language."""
    parts = [t("app.title") if compact < 1 else t("app.title").split()[0]]
    if view is None:
        return parts
    code = format_code(view.code)
    parts.append(t("top.table", code=code) if compact < 2 else code)
    if view.knocks and view.seat is not None and view.seat == view.host_seat:
        parts.append(t("top.knock", name=view.knocks[0].name))
    if view.seat is None:
        parts.append(t("top.watching"))
    if view.paused:
        parts.append(t("top.paused"))
    if view.hand_number and view.status != "waiting":
        parts.append(t("top.hand", n=view.hand_number))
        if view.pass_direction == "hold":
            parts.append(t("dir.hold"))
        elif view.pass_direction:
            way = t("dir." + view.pass_direction)
            if compact >= 3:  # the direction as an arrow, as on the table
                way = PASS_ARROWS.get(view.pass_direction, way)
            parts.append(t("top.pass", dir=way))
        if view.hearts_broken:
            parts.append(t("top.hearts_broken"))
    return parts


def my_points(t: Translator, view: SeatView | None) -> Text:
    """Our points this hand: taken so far while it is played, and once it is
    over what it scored for us (a moon moves them: the log and the middle
    of the table say the same figure); nothing for a spectator or before
    the game."""
    if view is None or view.seat is None or view.status not in ("playing", "between_hands"):
        return Text()
    points = view.seats[view.seat].points_hand
    last = view.hands[-1] if view.hands else None
    if view.status == "between_hands" and last is not None and view.seat < len(last.points):
        points = last.points[view.seat]
    return Text(f" {t('top.mine', n=points)} ", style=Style(bold=True, color="yellow"))


class TopBar(Widget, ShowsSlice):
    """The title line; on the right our points this hand and the
    connection state."""

    DEFAULT_CSS = """
    TopBar { height: 1; background: $primary-background; }
    """

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t

    def slice(self) -> object:
        """The title's parts (at every compaction), our points, the
        connection and the language."""
        t, view = self.t, self.model.view
        titles = tuple(tuple(title_parts(t, view, compact)) for compact in range(4))
        return (t.language, self.model.connection, titles, my_points(t, view).plain)

    def render(self) -> Text:
        """Title on the left, our points and the connection on the right."""
        t = self.t
        state = self.model.connection
        right = my_points(t, self.model.view)
        right.append_text(Text(f" {t('conn.' + state)} ", style=CONNECTION_STYLES[state]))
        room = self.size.width - right.cell_len
        for compact in range(4):  # the longest that fits, else cut below
            left = Text(
                " " + " · ".join(title_parts(t, self.model.view, compact)), style=Style(bold=True)
            )
            if left.cell_len <= room:
                break
        if left.cell_len > room:
            left.truncate(max(0, room), overflow="ellipsis")
        return left + Text(" " * max(0, room - left.cell_len)) + right


class ChatLog(Widget, ShowsSlice):
    """The last lines of chat and table events that fit (the whole log is
    in the chat view, ``ChatPanel``)."""

    DEFAULT_CSS = """
    ChatLog { height: 2; }
    """

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t

    class Clicked(Message):
        """The log was clicked: open the whole conversation."""

    def slice(self) -> object:
        """The log's revision and the language."""
        return (self.model.log.revision, self.t.language)

    def render(self) -> Text:
        """Newest line at the bottom."""
        lines: list[Text] = []
        for line in self.model.log.tail(max(1, self.size.height)):
            text = log_line_text(self.t, line)
            text.truncate(self.size.width, overflow="ellipsis")
            lines.append(text)
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        """Ask for the chat view."""
        self.post_message(self.Clicked())

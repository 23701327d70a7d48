"""Before the game: the invite code (and whether the host approves who
sits), the invite link (with its secret for a player: it seats its holder at
once), the command friends run (``hearts join 'LINK'``, with ``--server``
only when the link does not name our server), the seats and the rules.

The host sees how to change a seat (open, or a bot of a level) and how to
start, the players they removed, and who knocks (``y`` lets the first one
in, ``x`` refuses); everybody else sees that the host will start.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from client.invite import format_code, join_command
from protocol.common import RulesModel
from protocol.view import SeatView

from ..cards import label
from ..i18n import Translator
from ..model import TableModel
from ..moon import option_params
from ..seats import place_key, play_order, seat_keys
from .model_slice import Drawn, ShowsSlice
from .seat_panel import kind_text, presence, seat_name

__all__ = ["LobbyPanel", "format_code", "join_command", "rules_text", "seat_columns"]

GUTTER = 2  # columns between the two columns of seats


def seat_columns(lines: list[Text], width: int) -> list[Text]:
    """The seat lines in two columns (down the first, then the second, in
    play order), each cut to its half of ``width``: what lets nine or ten
    seats fit an 80×24 terminal's waiting room."""
    half = -(-len(lines) // 2)
    column = max(1, (width - GUTTER) // 2)
    rows = []
    for row in range(half):
        left = lines[row].copy()
        left.truncate(column, overflow="ellipsis", pad=True)
        line = left + Text(" " * GUTTER)
        if row + half < len(lines):
            right = lines[row + half].copy()
            right.truncate(column, overflow="ellipsis")
            line += right
        rows.append(line)
    return rows


@dataclass(frozen=True)
class SeatLine:
    """A seat of the waiting room: where it is, its name (★ the host), and
    its badges (the kind, and a person's presence)."""

    place: Text
    name: Text
    kind: str
    presence: str
    human: bool

    def fit(self, width: int | None) -> Text:
        """The line, in ``width`` columns when given: a person's "human"
        goes first (their presence says enough), then the name is cut, so
        the badges (a bot's level, online or away) stay whole."""
        kinds = [self.kind, self.presence]
        if width is not None and self.human and self._text(kinds).cell_len > width:
            kinds = [self.presence]
        line = self._text(kinds)
        if width is not None and line.cell_len > width:
            room = self.name.cell_len - (line.cell_len - width)
            line = self._text(kinds, max(4, room))
        return line

    def _text(self, kinds: list[str], name_width: int | None = None) -> Text:
        name = self.name.copy()
        if name_width is not None:
            name.truncate(name_width, overflow="ellipsis")
        line = self.place + name
        badges = " · ".join(k for k in kinds if k)
        if badges:
            line.append("  " + badges, style=Style(dim=True))
        return line


def rules_text(t: Translator, rules: RulesModel) -> str:
    """The table's rules in one line."""
    cycle = ", ".join(t("dir." + d) for d in rules.pass_cycle)
    # The game and the seat count first, when they are not the usual ones.
    parts = [t("variant." + rules.variant)] if rules.variant != "standard" else []
    if rules.players != 4:
        parts.append(t("lobby.players", n=rules.players))
    parts += [
        t("lobby.pass_cycle", cycle=cycle),
        t("lobby.moon_" + rules.moon, **option_params(rules, rules.moon)),
        t("lobby.end_points", n=rules.end_at)
        if rules.end == "points"
        else t("lobby.end_hands", n=rules.end_at),
    ]
    if rules.queen_breaks_hearts:
        parts.append(t("lobby.queen_breaks"))
    if rules.first_trick != "no_points":
        parts.append(t("lobby.first_trick_" + rules.first_trick))
    if rules.bonus_card is not None:
        parts.append(t("lobby.bonus", card=label(rules.bonus_card)))
    return " · ".join(parts)


class LobbyPanel(Static, ShowsSlice):
    """The waiting table."""

    DEFAULT_CSS = """
    LobbyPanel { padding: 0 0 0 1; height: 1fr; border: round $accent; overflow-y: auto; }
    """

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t

    def show(self, shown: object) -> None:
        """Draw the lobby and its title."""
        if isinstance(shown, Drawn):
            self.border_title = str(shown.extras[0])
            self.update(shown.text)

    def slice(self) -> object:
        """The lobby's text (laid out for the panel's size) and title."""
        t = self.t
        view = self.model.view
        if view is None:
            connecting = self.model.connection == "connecting"
            text = Text(t("lobby.connecting") if connecting else "", style=Style(dim=True))
            return Drawn(text, (t("app.title"),))
        is_host = view.seat is not None and view.seat == view.host_seat
        lines = self._head(view, is_host)
        seats = self._seats(view)
        tail = self._tail(view, is_host)
        # The rows the panel shows inside its border (none before the first
        # layout: then one column, redrawn on the resize that follows).
        room = self.content_region.height
        wrapped = sum(
            max(1, -(-line.cell_len // max(1, self.content_region.width)))
            for line in [*lines, *tail]
        )
        if room and wrapped + len(seats) > room and len(seats) > 4:
            column = max(1, (self.content_region.width - GUTTER) // 2)
            lines += seat_columns([seat.fit(column) for seat in seats], self.content_region.width)
        else:
            lines += [seat.fit(None) for seat in seats]
        lines += tail
        return Drawn(Text("\n").join(lines), (self._title(view),))

    def _title(self, view: SeatView) -> str:
        """The table's name (the server's default name said in our language)."""
        host = view.seats[view.host_seat].name if view.host_seat < len(view.seats) else ""
        default = view.name == f"{host}'s table"  # the server's English default name
        key = "lobby.default_title" if default else "lobby.title"
        return self.t(key, name=host if default else view.name)

    def _head(self, view: SeatView, is_host: bool) -> list[Text]:
        """The code (and whether the host approves who sits), the link, the
        command friends run."""
        t = self.t
        code = Text(t("lobby.code")) + Text(
            format_code(view.code), style=Style(bold=True, color="yellow")
        )
        if view.approval:
            key = "lobby.approval_host" if is_host else "lobby.approval"
            code.append("  " + t(key), style=Style(color="cyan"))
        command = join_command(view.code, self.model.server, self.model.join_url)
        return [
            code,
            Text(t("lobby.link")) + Text(self.model.join_url, style=Style(underline=True)),
            Text(t("lobby.join_hint", command=command), style=Style(dim=True)),
            Text(),
        ]

    def _seats(self, view: SeatView) -> list[SeatLine]:
        """Each seat in play order: its key for the host, where it is (in a
        column as wide as the longest says it), who sits, human or bot."""
        t = self.t
        bold = Style(bold=True)
        places = {seat: t(place_key(view, seat)) for seat in play_order(view)}
        width = max(9, *(len(where) + 1 for where in places.values()))
        seats: list[SeatLine] = []
        for index, seat in enumerate(play_order(view)):
            info = view.seats[seat]
            key = f"[{index}] " if index and view.seat == view.host_seat else "    "
            line = Text(key, style=Style(dim=True)) + Text(f"{places[seat]:<{width}}", style=bold)
            if info.kind == "open":
                name = Text(t("lobby.open_seat"), style=Style(italic=True))
            else:
                name = Text(seat_name(t, view, info), style=bold)
            if info.host:
                name.append(" ★", style=Style(color="yellow"))
            kind = kind_text(t, info)
            seats.append(SeatLine(line, name, kind, presence(t, info).plain, info.kind == "human"))
        return seats

    def on_resize(self) -> None:
        """The seats go to two columns, or back to one, with the room."""
        self.sync()

    def _tail(self, view: SeatView, is_host: bool) -> list[Text]:
        """What follows the seats: who knocks, who was removed, the rules."""
        t = self.t
        lines: list[Text] = []
        if view.knocks and is_host:
            line = Text(t("lobby.knock", name=view.knocks[0].name), style=Style(bold=True))
            if len(view.knocks) > 1:
                line.append(" " + t("lobby.knock_more", n=len(view.knocks) - 1))
            line.stylize(Style(color="magenta"))
            lines.append(line)
        if view.kicked and is_host:
            names = ", ".join(p.name for p in view.kicked)
            removed = t("lobby.removed", names=names, keys=seat_keys(view))
            lines.append(Text(removed, style=Style(color="yellow")))
        lines.append(Text())
        lines.append(Text(rules_text(t, view.rules), style=Style(dim=True)))
        return lines

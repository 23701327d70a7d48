"""Before the game: the invite code, the join link, the command friends run
(with ``--server`` when ours is not the default), the seats and the rules.

The host sees how to change a seat (open, or a bot of a level) and how to
start, and the players they removed; everybody else sees that the host will
start.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from client.session import DEFAULT_SERVER
from protocol.common import RulesModel

from ..cards import label
from ..i18n import Translator
from ..model import TableModel
from ..seats import POSITIONS, compass_key, seat_at
from .seat_panel import kind_text, presence, seat_name


def format_code(code: str) -> str:
    """``ABCDEF`` as ``ABC-DEF``, easy to read aloud."""
    return f"{code[:3]}-{code[3:]}" if len(code) == 6 else code


def join_command(code: str, server: str) -> str:
    """What a friend runs to join: ``hearts join ABC-DEF``, with the server
    unless it is the default one."""
    command = f"hearts join {format_code(code)}"
    return command if not server or server == DEFAULT_SERVER else f"{command} --server {server}"


def rules_text(t: Translator, rules: RulesModel) -> str:
    """The table's rules in one line."""
    cycle = ", ".join(t("dir." + d) for d in rules.pass_cycle)
    parts = [
        t("lobby.pass_cycle", cycle=cycle),
        t("lobby.moon_" + rules.moon),
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


class LobbyPanel(Static):
    """The waiting table."""

    DEFAULT_CSS = """
    LobbyPanel { padding: 0 1; height: 1fr; border: round $accent; }
    """

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t

    def sync(self) -> None:
        """Redraw from the model."""
        t = self.t
        view = self.model.view
        if view is None:
            self.border_title = t("app.title")
            self.update(Text(t("lobby.connecting"), style=Style(dim=True)))
            return
        host = view.seats[view.host_seat].name if view.host_seat < len(view.seats) else ""
        default = view.name == f"{host}'s table"  # the server's English default name
        self.border_title = t(
            "lobby.default_title" if default else "lobby.title", name=host if default else view.name
        )
        bold = Style(bold=True)
        lines = [
            Text(t("lobby.code"))
            + Text(format_code(view.code), style=Style(bold=True, color="yellow")),
            Text(t("lobby.link")) + Text(self.model.join_url, style=Style(underline=True)),
            Text(
                t("lobby.join_hint", command=join_command(view.code, self.model.server)),
                style=Style(dim=True),
            ),
            Text(),
        ]
        for index, position in enumerate(POSITIONS):
            seat = seat_at(view, position)
            info = view.seats[seat]
            where = t(compass_key(view, seat))
            key = f"[{index}] " if index and view.seat == view.host_seat else "    "
            line = Text(key, style=Style(dim=True)) + Text(f"{where:<9}", style=bold)
            if position == "bottom" and view.seat is not None:
                line.append(t("you"), style=bold)
            elif info.kind == "open":
                line.append(t("lobby.open_seat"), style=Style(italic=True))
            else:
                line.append(seat_name(t, view, info), style=bold)
            extra = [kind_text(t, info), presence(t, info).plain]
            line.append("  " + " · ".join(p for p in extra if p), style=Style(dim=True))
            if info.host:
                line.append(" ★", style=Style(color="yellow"))
            lines.append(line)
        if view.kicked and view.seat is not None and view.seat == view.host_seat:
            names = ", ".join(p.name for p in view.kicked)
            lines.append(Text(t("lobby.removed", names=names), style=Style(color="yellow")))
        lines.append(Text())
        lines.append(Text(rules_text(t, view.rules), style=Style(dim=True)))
        self.update(Text("\n").join(lines))

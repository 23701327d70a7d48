"""The notice line: the connection's trouble, a refusal or an error, a
hint, or a moon's sentence too wide for the middle of the table."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..i18n import Msg, Translator
from ..model import TableModel
from .model_slice import Drawn, ShowsFixedText

MoonCut = Callable[[], tuple[Msg, int] | None]
"""The moon sentence the middle of the table cannot hold (``TrickView.moon_cut``)."""


def notice_text(t: Translator, model: TableModel, moon_cut: MoonCut) -> Text:
    """The line as drawn: reconnecting, the notice, lost, the moon, or nothing."""
    if model.connection == "reconnecting":
        return Text(
            " " + t("notice.reconnecting") + " ", style=Style(bgcolor="yellow", color="black")
        )
    notice = model.notice
    if notice is None and model.connection == "lost":
        return Text(" " + t("notice.lost") + " ", style=Style(bgcolor="red", color="white"))
    moon = moon_cut() if notice is None else None
    if moon is not None:  # the middle of the table is too narrow for it
        return Text(t.text(moon[0]), style=Style(color="yellow", bold=True))
    if notice is None:
        return Text()
    sentence = t.text(notice.msg)
    sentence = sentence[:1].upper() + sentence[1:]
    if notice.level == "error":
        return Text("✕ " + sentence, style=Style(color="red", bold=True))
    return Text("ℹ " + sentence, style=Style(color="cyan"))


class NoticeLine(Static, ShowsFixedText):
    """One line under the prompt."""

    def __init__(
        self, model: TableModel, t: Translator, moon_cut: MoonCut, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t
        self.moon_cut = moon_cut

    def slice(self) -> object:
        """The line as drawn."""
        return Drawn(notice_text(self.t, self.model, self.moon_cut))

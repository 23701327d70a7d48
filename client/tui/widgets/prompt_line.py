"""The prompt under the hand: what the table waits for (yellow when it
waits for us), led by our move's countdown at a table with a turn timer."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..i18n import Translator
from ..model import TableModel
from ..prompts import prompt_msg
from .model_slice import Drawn, ShowsFixedText


class PromptLine(Static, ShowsFixedText):
    """One line, cut to the terminal's width."""

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t

    def slice(self) -> object:
        """The prompt as drawn."""
        model, t = self.model, self.t
        asked = model.my_turn() or model.passing() or model.discarding()
        style = Style(bold=True, color="yellow") if asked else None
        text = Text(t.text(prompt_msg(model)), style=style or Style(bold=True))
        view = model.view
        mine = model.turn_left(view.seat) if view and view.seat is not None else None
        if mine is not None:
            # The turn timer runs for our move: its countdown leads the line.
            timer = Style(color="black", bgcolor="yellow")
            text = Text(t("seat.turn_in", n=mine) + " ", style=timer) + text
        text.truncate(self.screen.size.width, overflow="ellipsis")
        return Drawn(text)

"""The key line at the bottom: the keys that work now, as many as the
terminal's width holds (``client.tui.key_line``)."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..i18n import Translator
from ..key_line import fit_keys, table_keys
from ..model import TableModel
from .model_slice import Drawn, ShowsFixedText


class KeyHints(Static, ShowsFixedText):
    """One dim line; ``chatting`` says whether the chat line has the focus."""

    def __init__(
        self,
        model: TableModel,
        t: Translator,
        chatting: Callable[[], bool],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t
        self.chatting = chatting
        self._width: int | None = None  # the terminal's new width, while a resize is told

    def slice(self) -> object:
        """The keys that fit the screen's width."""
        width = self._width if self._width is not None else self.screen.size.width
        keys = fit_keys(self.t, table_keys(self.model, self.chatting()), width)
        return Drawn(Text(keys, style=Style(dim=True)))

    def fit(self, width: int) -> None:
        """Refit to a terminal now ``width`` columns wide (before the screen
        is laid out again)."""
        self._width = width
        try:
            self.sync()
        finally:
            self._width = None

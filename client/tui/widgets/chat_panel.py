"""The chat view: the whole conversation and the table's announcements,
scrollable, the newest line at the bottom.

It takes the table's place while the chat line has the focus (``/``), so at
80×24 a dozen lines are in sight and PgUp/PgDn (or the mouse wheel) go back
through everything kept (``table_log.KEEP`` chat lines at least). It follows
the newest line unless the player has scrolled up to read.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..i18n import Translator
from ..model import TableModel
from ..table_log import LogLine
from .model_slice import ShowsSlice

NAME_STYLE = Style(bold=True, color="cyan")
EVENT_STYLE = Style(dim=True, italic=True)


def log_line_text(t: Translator, line: LogLine) -> Text:
    """A log line as shown: ``Name: text`` for chat, ``· sentence`` for an event."""
    if line.chat:
        text = Text(line.name + ": ", style=NAME_STYLE)
        text.append(t.text(line.msg))
        return text
    return Text("· " + t.text(line.msg), style=EVENT_STYLE)


class ChatPanel(VerticalScroll, ShowsSlice, can_focus=False):
    """Every line of the log, in a bordered scrollable box."""

    DEFAULT_CSS = """
    ChatPanel { border: round $accent; height: 1fr; scrollbar-size-vertical: 1; }
    ChatPanel > Static { width: 1fr; }
    """

    def __init__(self, model: TableModel, t: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.t = t
        self.body = Static()
        self._drawn = False  # drawn once: later lines follow only at the end

    def compose(self) -> ComposeResult:
        """The text inside the border."""
        yield self.body

    def at_end(self) -> bool:
        """The newest line is in sight (nothing below to scroll to)."""
        return self.scroll_y >= self.max_scroll_y

    def slice(self) -> object:
        """The log's revision and the language (a game's every event asks;
        the log is redrawn only when it grew)."""
        return (self.model.log.revision, self.t.language)

    def show(self, shown: object) -> None:
        """The whole log, following its end if it was in sight."""
        t = self.t
        follow = not self._drawn or self.at_end()
        self._drawn = True
        self.border_title = t("chat.title")
        self.border_subtitle = t("chat.scroll")
        lines = [log_line_text(t, line) for line in self.model.log]
        if not lines:
            lines = [Text(t("chat.empty"), style=EVENT_STYLE)]
        self.body.update(Text("\n").join(lines))
        if follow:
            self.call_after_refresh(self.scroll_end, animate=False)

    def show_newest(self) -> None:
        """Bring the newest line into sight (the view was just opened)."""
        self.call_after_refresh(self.scroll_end, animate=False)

    def page(self, step: int) -> None:
        """A page up (``step`` < 0) or down."""
        if step < 0:
            self.scroll_page_up(animate=False)
        else:
            self.scroll_page_down(animate=False)

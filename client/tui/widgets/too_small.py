"""The cover shown while the terminal is smaller than the table needs.

Below 80×24 the table's panels would overlap and cut cards off, so the
screen in front is covered by one sentence saying how large the terminal is
and how large it must be. The cover takes the keys (nothing acts on a table
the player cannot see; Ctrl+Q still quits) and goes away, giving the focus
back, once the terminal is large enough again.
"""

from __future__ import annotations

from typing import Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from ..i18n import Translator

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24


def too_small(size: Size) -> bool:
    """The terminal cannot hold the table."""
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


class TooSmall(Static, can_focus=True):
    """Covers the whole screen above everything else."""

    DEFAULT_CSS = """
    TooSmall {
        overlay: screen; position: absolute; offset: 0 0;
        width: 100%; height: 100%;
        background: $background; color: $text;
        content-align: center middle; text-align: center; padding: 0 1;
    }
    """

    def __init__(self, t: Translator, size: Size, focused: Widget | None) -> None:
        super().__init__(id="too-small")
        self.t = t
        self.focused_before = focused
        self.show(size)

    def show(self, size: Size) -> None:
        """Say the terminal's size now."""
        t = self.t
        text = Text(
            t("small.title", width=size.width, height=size.height),
            style=Style(bold=True, color="yellow"),
        )
        text.append("\n")
        text.append(t("small.body", width=MIN_WIDTH, height=MIN_HEIGHT))
        text.append("\n")
        text.append(t("small.keys"), style=Style(dim=True))
        self.update(text)

    def on_key(self, event: events.Key) -> None:
        """Keys do nothing under the cover (Ctrl+Q, a priority key, quits)."""
        event.stop()
        event.prevent_default()


def cover_if_small(app: App[None], t: Translator) -> None:
    """Cover the screen in front while the terminal is too small; uncover
    every screen (giving its focus back) once it is large enough."""
    size = app.size
    if too_small(size):
        screen = app.screen
        covers = screen.query(TooSmall)
        if covers:
            covers.first().show(size)
            return
        cover = TooSmall(t, size, screen.focused)
        screen.mount(cover)
        cover.focus()
        return
    for screen in app.screen_stack:
        for cover in screen.query(TooSmall):
            before = cover.focused_before
            cover.remove()
            if before is not None and before.is_attached:
                screen.set_focus(before)

"""Widgets that show a slice of the table model and redraw only when it
changes.

Every model change asks each widget of the table screen to ``sync``. The
widget works out its slice: what it shows, taken from the model (a few
values, or the text it draws), and puts it in its reactive ``shown``.
Textual compares the new value with the old one and calls ``watch_shown``
only when they differ: only then does the widget redraw (``show``). A chat
line therefore redraws the log, not the hand, the trick or the seats.

``updates`` counts the redraws (the tests check which widgets redrew).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static


def text_key(text: Text) -> tuple[Any, ...]:
    """What makes two texts look the same: their characters, their styled
    spans and the style of the whole (``Text ==`` leaves the last out)."""
    return (text.plain, tuple(text.spans), text.style, text.end)


@dataclass(frozen=True)
class Drawn:
    """A widget's text with what else it sets (a border title, a class):
    equal when they look the same."""

    text: Text = field(compare=False)
    extras: tuple[object, ...] = ()
    key: tuple[Any, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", (text_key(self.text), self.extras))


class ShowsSlice:
    """A mixin for widgets: ``slice`` says what the widget shows now;
    ``show`` redraws it (by default a repaint, for widgets that draw in
    ``render``). Put after the Textual base class (``class X(Static,
    ShowsSlice)``): Textual takes a widget's CSS from its first bases."""

    shown: reactive[object] = reactive(None, init=False, repaint=False)
    updates: int = 0

    def slice(self) -> object:
        """What the widget shows, compared with ``==`` (override)."""
        raise NotImplementedError

    def sync(self) -> None:
        """Take the slice from the model; a different one redraws."""
        if isinstance(self, Widget):  # always (a mixin of widgets): typed as one
            self.shown = self.slice()

    def watch_shown(self, shown: object) -> None:
        """The slice changed: redraw."""
        self.updates += 1
        self.show(shown)

    def show(self, shown: object) -> None:
        """Redraw ``shown`` (override for a widget that is updated, not
        rendered)."""
        if isinstance(self, Widget):
            self.refresh()


class ShowsFixedText(ShowsSlice):
    """``ShowsSlice`` for a ``Static`` whose size the stylesheet fixes (a
    one-line bar of the table screen): its slice is a ``Drawn`` and it
    redraws that text without a layout pass, since new text moves
    nothing. Put after ``Static`` (``class X(Static, ShowsFixedText)``)."""

    def show(self, shown: object) -> None:
        """Draw the text."""
        if isinstance(shown, Drawn) and isinstance(self, Static):
            self.update(shown.text, layout=False)

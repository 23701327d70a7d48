"""Checkboxes and radio buttons that show their state in the glyph, not
only in colour: Textual draws the same mark on and off in two shades, which
a monochrome terminal, a colour-blind player or a screenshot cannot tell
apart."""

from __future__ import annotations

from textual.widgets import Checkbox, RadioButton


def show_state(button: Checkbox | RadioButton, on: str) -> None:
    """Draw a toggle's state in its glyph, not only in colour: ``on`` when
    it is on, a blank when it is off."""
    # BUTTON_INNER is the glyph Textual draws between the brackets.
    button.BUTTON_INNER = on if button.value else " "
    button.refresh()


class OnOff(Checkbox):
    """A checkbox showing ``✓`` when on and nothing when off."""

    def on_mount(self) -> None:
        """Draw the state it starts with."""
        show_state(self, "✓")

    def watch_value(self) -> None:
        """Redraw the glyph, then tell the dialog (``Checkbox.Changed``)."""
        show_state(self, "✓")
        super().watch_value()


class Choice(RadioButton):
    """A radio button showing ``●`` when chosen and nothing otherwise."""

    def on_mount(self) -> None:
        """Draw the state it starts with."""
        show_state(self, "●")

    def watch_value(self) -> None:
        """Redraw the glyph, then tell the set (``RadioButton.Changed``)."""
        show_state(self, "●")
        super().watch_value()

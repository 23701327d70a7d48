"""The prompt's buttons: pass (or discard), next hand, start, rematch.
Each shows only while its action is open to us."""

from __future__ import annotations

from typing import Literal

from textual.widgets import Button

from ..i18n import Translator
from ..model import TableModel
from .model_slice import ShowsSlice

ActionName = Literal["pass", "next", "start", "rematch"]
ACTIONS: tuple[ActionName, ...] = ("pass", "next", "start", "rematch")


def button_shown(model: TableModel, name: ActionName) -> bool:
    """Whether the button ``name`` shows now (never to a spectator)."""
    view = model.view
    if view is None or view.seat is None:
        return False
    if name == "pass":
        return model.passing() or model.discarding()
    if name == "next":
        return view.status == "between_hands" and not view.seats[view.seat].ready
    host = view.seat == view.host_seat
    return host and view.status == ("waiting" if name == "start" else "game_over")


def button_state(model: TableModel, t: Translator, name: ActionName) -> tuple[bool, str]:
    """Whether the button ``name`` shows now, and its label."""
    if name == "pass" and model.discarding():
        return button_shown(model, name), t("btn.discard")
    return button_shown(model, name), t("btn." + name)


class ActionButton(Button, ShowsSlice):
    """One of the buttons, never focused (the keys do the same)."""

    def __init__(self, model: TableModel, t: Translator, name: ActionName) -> None:
        super().__init__("", id="btn-" + name, compact=True, variant="primary")
        self.can_focus = False
        self.model = model
        self.t = t
        self.action_name: ActionName = name

    def slice(self) -> object:
        """Shown or not, and the label."""
        return button_state(self.model, self.t, self.action_name)

    def show(self, shown: object) -> None:
        """Show or hide it; a new label (another language) relays it out."""
        if not isinstance(shown, tuple):
            return
        visible, label = shown
        self.display = bool(visible)
        if str(self.label) != str(label):
            self.label = str(label)
            self.refresh(layout=True)

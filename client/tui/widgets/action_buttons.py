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


def button_state(model: TableModel, t: Translator, name: ActionName) -> tuple[bool, str]:
    """Whether the button ``name`` shows now, and its label."""
    view = model.view
    if view is None or model.spectating():
        shown = False
    elif name == "pass":
        shown = model.passing() or model.discarding()
    elif name == "next":
        me = view.seats[view.seat] if view.seat is not None else None
        shown = view.status == "between_hands" and not (me and me.ready)
    else:
        host = view.seat is not None and view.seat == view.host_seat
        shown = host and view.status == ("waiting" if name == "start" else "game_over")
    if name == "pass":
        return shown, t("btn.discard") if model.discarding() else t("btn.pass")
    return shown, t("btn." + name)


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

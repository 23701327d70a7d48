"""Claiming the rest in the terminal: ``C`` (Shift+c) claims every trick
left on our turn; the server proves it and plays the hand out, or refuses
(its sentence shows in the notice line). A claim made at the table, ours or
another's, is logged and shown as a pop-up with its reason (the model's
``_on_claim_made``)."""

from __future__ import annotations

from .i18n import Msg
from .model import TableModel


def claim_refusal(model: TableModel) -> Msg | None:
    """Why no claim can be made now, or None when the server may be asked."""
    if model.spectating():
        return Msg("why.spectator")
    view = model.view
    if view is None or not model.my_turn() or model.lingering() or len(view.hand) < 2:
        return Msg("why.no_claim")
    return None

"""Undo in the terminal: ``u`` takes back our last card of the hand (and
the bots' cards since) at a table where we play with bots alone. The server
checks and rewinds; this says beforehand why not, when it can tell."""

from __future__ import annotations

from .i18n import Msg
from .model import TableModel


def undo_refusal(model: TableModel) -> Msg | None:
    """Why no card can be taken back now, or None when one may be."""
    view = model.view
    if view is None or model.spectating():
        return Msg("why.spectator") if model.spectating() else Msg("why.no_undo")
    if any(s.kind == "human" for s in view.seats if s.seat != view.seat):
        return Msg("why.undo_humans")
    mine = any(p.seat == view.seat for p in view.trick) or any(
        p.seat == view.seat for t in view.tricks for p in t.cards
    )
    if not model.my_turn() or model.lingering() or not mine:
        return Msg("why.no_undo")
    return None

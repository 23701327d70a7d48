"""A forced card plays by itself: always the last card of the hand, and
any card that is the only legal one when the player asked for it (the
settings' auto-play). Once per turn: a refused card is not sent again, and a
card taken back by an undo is left for the player to play."""

from __future__ import annotations

from .model import TableModel


def forced(model: TableModel, any_single: bool) -> bool:
    """Our turn, with one legal card that may play by itself (the last in
    hand, or any when ``any_single``), and nothing else under way."""
    view = model.view
    if view is None or not model.my_turn() or model.busy or model.lingering():
        return False
    return len(view.legal) == 1 and (len(view.hand) == 1 or any_single)


class AutoPlay:
    """The turns whose card already played by itself."""

    def __init__(self) -> None:
        # (hand, cards left) of each turn whose card played by itself: never
        # again for that turn, not after a refusal, nor after an undo took
        # the card back (the player wants to choose it themselves).
        self.played: set[tuple[int, int]] = set()

    def due(self, model: TableModel, any_single: bool) -> str | None:
        """The card to play by itself now (the turn is then noted), or None.
        ``any_single``: the only legal card plays even with more in hand."""
        view = model.view
        if view is None or not forced(model, any_single):
            return None
        turn = (view.hand_number, len(view.hand))
        if turn in self.played:
            return None
        self.played = {t for t in self.played if t[0] == view.hand_number} | {turn}
        return view.legal[0]

    def reset(self) -> None:
        """Another table: forget the turns."""
        self.played = set()

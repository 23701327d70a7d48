"""Bots that break the rules, for the tests of ``hearts bot``."""

from __future__ import annotations

from bots.api import Decision
from protocol.view import SeatView


class AlwaysQueen:
    """Plays the queen of spades whatever the view asks."""

    def decide(self, view: SeatView) -> Decision:
        """Always the same card: illegal in the pass and most of the time."""
        return Decision("play", card="QS")

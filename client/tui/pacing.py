"""How long the table lingers: before another seat's card appears and
while a finished trick stays on the table with its winner highlighted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Pacing:
    """Pauses in seconds (presentation only: the server never waits)."""

    card: float
    trick: float


NORMAL: Final = Pacing(card=0.7, trick=1.6)
FAST: Final = Pacing(card=0.2, trick=0.6)
INSTANT: Final = Pacing(card=0.0, trick=0.0)

"""Pacing a session's sends after the server refused one as ``rate_limited``.

After such a refusal every send waits its turn, one per ``retry_after``, for
``PACING_SECONDS``: a client that went over its budget once is likely to
again, and sending all at once would be refused again. Sans-I/O: the caller
passes the time and waits for the slot it is given.
"""

from __future__ import annotations

PACING_SECONDS = 1.0


class Pacer:
    """When each send may go: at once, or in its turn while pacing."""

    __slots__ = ("_next_slot", "_paced_until", "_spacing")

    def __init__(self) -> None:
        self._paced_until = 0.0
        self._next_slot = 0.0
        self._spacing = 0.0

    def slow_down(self, now: float, wait: float) -> None:
        """A send was refused over the budget at ``now``: no send before
        ``now + wait``, then one per that interval for ``PACING_SECONDS``."""
        pacing = now < self._paced_until
        self._spacing = max(wait, self._spacing) if pacing else wait
        self._next_slot = max(self._next_slot, now + wait)
        self._paced_until = now + wait + PACING_SECONDS

    def take_turn(self, now: float) -> float:
        """The time a send asked for at ``now`` may go (``now`` when not
        pacing); each send takes the next slot, ``spacing`` apart."""
        if now >= self._paced_until:
            return now
        slot = max(now, self._next_slot)
        self._next_slot = slot + self._spacing
        return slot

"""How much thinking a search bot may do for one decision."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    """An iteration budget with a time cap.

    ``worlds`` is how many deals of the hidden cards the Hard bot samples per
    decision (each is played out once per candidate card). ``max_seconds``
    caps the wall time: the search stops early when it runs out, which is the
    only way a decision can depend on anything but the view and the seed, so
    the default iteration budget is sized to stay well inside the cap.
    """

    worlds: int = 1000
    max_seconds: float | None = 0.9
    # When the decision started (``time.perf_counter()``): the time cap
    # counts from there, so the view's analysis counts too. None: from the
    # start of the search.
    started: float | None = None

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError("a budget needs at least one world")
        if self.max_seconds is not None and self.max_seconds <= 0:
            raise ValueError("max_seconds must be positive")

    def deadline(self, now: float) -> float | None:
        """When the search must have stopped (None: no time cap)."""
        if self.max_seconds is None:
            return None
        return (self.started if self.started is not None else now) + self.max_seconds


class Pacer:
    """Stops a search loop *before* it would overrun its deadline: the next
    round is started only if ``MARGIN`` rounds as long as the longest so far
    still fit (checking after the round would overrun by up to a round).
    One round of margin would do on an idle machine; on a busy one a round
    runs longer than any before it whenever the process waits for a core,
    and the slow rounds are the long ones (a 10-seat Cancellation world is
    ~30 ms of play-outs), so the second keeps the cap a cap."""

    MARGIN = 2.0

    def __init__(self, deadline: float | None, clock: Callable[[], float]) -> None:
        self.deadline = deadline
        self.clock = clock
        self._last = clock()
        self._longest = 0.0

    def another(self) -> bool:
        """Call after each round: may the next one start?"""
        if self.deadline is None:
            return True
        now = self.clock()
        self._longest = max(self._longest, now - self._last)
        self._last = now
        return now + self.MARGIN * self._longest <= self.deadline

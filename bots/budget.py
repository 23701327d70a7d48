"""How much thinking a search bot may do for one decision."""

from __future__ import annotations

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

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError("a budget needs at least one world")
        if self.max_seconds is not None and self.max_seconds <= 0:
            raise ValueError("max_seconds must be positive")

"""How a decision's expected loss is named, and a seat's accuracy.

The thresholds are in hand points (docs/bots.md "Hand review" gives the
measurements they were chosen from): a loss under half a point is within
the evaluator's own noise at its default budget and is no mistake at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Label = Literal["inaccuracy", "mistake", "blunder"]

INACCURACY = 0.5
"""Expected loss (points) from which a decision is an inaccuracy."""

MISTAKE = 1.5
"""Expected loss (points) from which a decision is a mistake."""

BLUNDER = 4.0
"""Expected loss (points) from which a decision is a blunder."""


def label_of(loss: float | None) -> Label | None:
    """The label of an expected loss (None: not worth one, or not judged)."""
    if loss is None or loss < INACCURACY:
        return None
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


@dataclass(frozen=True, slots=True)
class Accuracy:
    """A seat's accuracy over some decisions: the mean expected loss per
    judged decision (lower is better) and how many got each label."""

    decisions: int
    mean_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, float | int]:
        """The wire form (``protocol`` ``Accuracy``, ``hearts analyse``)."""
        return {
            "decisions": self.decisions,
            "mean_loss": round(self.mean_loss, 3),
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
        }


def accuracy_of(losses: Iterable[float | None]) -> Accuracy:
    """The accuracy of these decisions' losses (None: not judged, left out)."""
    judged = [x for x in losses if x is not None]
    labels = [label_of(x) for x in judged]
    return Accuracy(
        decisions=len(judged),
        mean_loss=sum(judged) / len(judged) if judged else 0.0,
        inaccuracies=labels.count("inaccuracy"),
        mistakes=labels.count("mistake"),
        blunders=labels.count("blunder"),
    )

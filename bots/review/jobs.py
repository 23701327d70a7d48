"""The hand review cut into worker jobs: a server (``server.hand_analyses``)
counts a seat's decisions in one job and judges each in another, so that a
review shares the bot workers with the tables' Hard bots a decision at a
time. Arguments and results are plain data (they cross to a worker
process): record texts as stored, decisions in their wire form."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.record import replay

from .evaluator import ReviewBudget, decision_count, review_decision


def count_decisions(record: str, seat: int) -> int:
    """How many decisions ``seat`` made in the finished hand ``record``
    (raises ``bots.review.evaluator.ReviewError`` for one that is not)."""
    return decision_count(json.loads(record), seat)


def judge_decision(
    records: Sequence[str], seat: int, index: int, worlds: int, seed: int
) -> dict[str, Any]:
    """Decision ``index`` of ``seat`` in the last of ``records`` (the hands
    of its game up to it, oldest first: the earlier ones give the totals
    the moon choice is judged by), in wire form (``Judged.to_json``)."""
    history = [list(replay(json.loads(r)).scores or ()) for r in records[:-1]]
    judged = review_decision(
        json.loads(records[-1]), seat, index, ReviewBudget(worlds=worlds), seed, history
    )
    return judged.to_json()

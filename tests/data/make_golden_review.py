"""Write golden_review_format_<REVIEW_FORMAT>.json: what the hand review
says of two recorded hands, every seat, with a small budget (run from the
repo root: ``.venv/bin/python -m tests.data.make_golden_review``).

A server keeps the reviews it made under a key that holds
``bots.review.evaluator.REVIEW_FORMAT`` (server.stored_reviews), so a change
that makes the review say something else must raise that number, or the
reviews stored before it would be served as if made by the new code.
``tests/bots/test_review_format.py`` reviews the same hands again and
fails when the result differs from the current format's file. Run this
once after raising ``REVIEW_FORMAT``; keep the older files as they are.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bots.review.evaluator import REVIEW_FORMAT, ReviewBudget, review_hand

HERE = Path(__file__).parent
WORLDS = 8
SEED = 0
# Two complete hands among the seeded random records of golden_records.jsonl
# (the first with the moon added, the other with the shooter's choice).
RECORD_LINES = (44, 48)


def golden_path(number: int) -> Path:
    """The golden reviews of review format ``number``."""
    return HERE / f"golden_review_format_{number}.json"


def reviews_of(records: list[Any], worlds: int, seed: int) -> list[list[dict[str, Any]]]:
    """Every seat's reviewed decisions of each record, in wire form."""
    return [
        [
            d.to_json()
            for d in review_hand(record, seat, ReviewBudget(worlds=worlds), seed).decisions
        ]
        for record in records
        for seat in range(len(record["deal"]))
    ]


def main() -> None:
    """Write the current format's file."""
    lines = (HERE / "golden_records.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(lines[n - 1]) for n in RECORD_LINES]
    golden = {
        "review_format": REVIEW_FORMAT,
        "worlds": WORLDS,
        "seed": SEED,
        "records": records,
        "reviews": reviews_of(records, WORLDS, SEED),
    }
    golden_path(REVIEW_FORMAT).write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

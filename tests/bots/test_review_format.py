"""A stored review is served only while the code would make the same one:
the hand review of the golden hands (tests/data/make_golden_review.py) is
what the current ``REVIEW_FORMAT``'s file says, or that number must be
raised (server.stored_reviews keys reviews by it)."""

from __future__ import annotations

import json

from bots.review.evaluator import REVIEW_FORMAT
from tests.data.make_golden_review import golden_path, reviews_of


def test_the_review_is_what_its_format_promised() -> None:
    path = golden_path(REVIEW_FORMAT)
    assert path.exists(), (
        f"no golden reviews of format {REVIEW_FORMAT}: run .venv/bin/python -m"
        " tests.data.make_golden_review"
    )
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert golden["review_format"] == REVIEW_FORMAT
    made = reviews_of(golden["records"], golden["worlds"], golden["seed"])
    # Every seat's decisions of both hands, judged (a pass and 13 plays).
    assert [len(seat) for seat in made] == [14] * 8
    assert made == golden["reviews"], (
        "the hand review now says something else for the same hand, seat, worlds and seed:"
        " raise bots.review.evaluator.REVIEW_FORMAT (reviews kept by servers under the old"
        " one would be served otherwise), then run .venv/bin/python -m"
        " tests.data.make_golden_review"
    )

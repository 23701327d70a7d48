"""Reviews as the server keeps them in its store (server.stored_reviews):
the key names everything a review depends on, a review reads back as it
was, what cannot be read as a review is made again, and a store that fails
is logged, never raised to the player."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bots.review.evaluator import REVIEW_FORMAT
from server.store import MemoryStore, SqliteStore
from server.stored_reviews import (
    Review,
    StoredReviews,
    decode_review,
    encode_review,
    review_key,
)

REVIEW: Review = {
    "hand_number": 2,
    "seat": 1,
    "decisions": [
        {
            "kind": "pass",
            "chosen": ["QS", "AH", "2C"],
            "best": ["QS", "AH", "KH"],
            "loss": 0.417,
            "label": None,
            "trick": None,
        },
        {"kind": "play", "chosen": ["3D"], "best": ["3D"], "loss": 0.0, "label": None, "trick": 0},
    ],
}


def test_the_key_names_everything_a_review_depends_on() -> None:
    base = (1, 2, 3, 300, 0)
    key = review_key(*base)
    assert key.endswith(f":v{REVIEW_FORMAT}")
    # Any one input changed gives another key.
    others = {review_key(*base[:i], base[i] + 1, *base[i + 1 :]) for i in range(len(base))}
    assert key not in others and len(others) == len(base)


def test_a_review_reads_back_as_it_was() -> None:
    assert decode_review(encode_review(REVIEW)) == REVIEW


@pytest.mark.parametrize(
    "body",
    [
        b"\xff\xfe",
        b"not json",
        b"[1, 2]",
        b'{"hand_number": 2, "seat": 1}',
        b'{"hand_number": "2", "seat": 1, "decisions": []}',
        b'{"hand_number": 2, "seat": 1, "decisions": [{"kind": "dance"}]}',
    ],
)
def test_what_is_not_a_review_is_not_read_as_one(body: bytes) -> None:
    assert decode_review(body) is None


async def test_an_unreadable_stored_review_is_left_out_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = MemoryStore()
    await store.create_table("t1", "CODE1", b"s")
    reviews = StoredReviews(store, worlds=300, seed=0)
    good, bad = reviews.key(1, 2, 1), reviews.key(1, 2, 2)
    await reviews.save("t1", good, REVIEW)
    await store.save_review("t1", bad, b"{broken")
    with caplog.at_level(logging.WARNING, logger="hearts.reviews"):
        assert await reviews.load("t1", [good, bad, reviews.key(1, 3, 0)]) == {good: REVIEW}
    assert [r.getMessage() for r in caplog.records] == [
        f"review {bad} of table t1 in the store is unreadable"
    ]


async def test_a_failing_store_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await asyncio.to_thread(SqliteStore, tmp_path / "hearts.sqlite3")
    await store.create_table("t1", "CODE1", b"s")
    reviews = StoredReviews(store, worlds=300, seed=0)
    await store.close()  # every call now raises StoreError
    key = reviews.key(1, 2, 1)
    with caplog.at_level(logging.WARNING, logger="hearts.reviews"):
        await reviews.save("t1", key, REVIEW)
        assert await reviews.load("t1", [key]) == {}
    assert [r.getMessage() for r in caplog.records] == [
        f"review {key} of table t1 not kept in the store: the table store is closed",
        "reviews of table t1 not read from the store: the table store is closed",
    ]

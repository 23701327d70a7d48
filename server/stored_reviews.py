"""Hand reviews kept with their table in the store, so that a review made
once, by any process and before any restart, is answered again without the
evaluator.

A seat-hand's review (``server.hand_analyses``) follows from the table's
hand records of that game up to the hand, the seat, the evaluator's deals
per decision (``ServerConfig.analysis_worlds``) and seed, and the evaluator
itself. Hand records never change once written, so a review is kept with
its table (``TableStore.save_review``) under a key that names everything
else it depends on::

    <game>:<hand>:<seat>:w<worlds>:s<seed>:v<REVIEW_FORMAT>

(``REVIEW_FORMAT``: ``bots.review.evaluator``; the server's reviews have
no time cap, so the machine's speed is not among the inputs, and the
table is the scope the key is kept in). A server set to other
worlds, or a release whose evaluator judges otherwise (it raises
``REVIEW_FORMAT``), asks for other keys and makes its own reviews; the ones
nobody asks for any more go with the table when it expires, like its
records. The value is the review's wire form as JSON (``Review``).

What is stored is a copy of what the records give, never the only one: a
store that cannot keep or read a review is logged, and the review is
answered all the same (made again when it could not be read). So a review
is kept without the care a commit gets: any process writes it, lease or
not (two writing at once write the same), and Redis does not wait for
replicas to hold it (a failover may lose one; it is made again).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from bots.review.evaluator import REVIEW_FORMAT
from protocol import server_messages as sm

from .store.base import StoreError, TableStore

log = logging.getLogger("hearts.reviews")

Review = dict[str, Any]
"""A seat-hand's review in wire form: ``hand_number``, ``seat``,
``decisions`` (``ReviewedDecision``'s fields)."""


def review_key(game: int, hand: int, seat: int, worlds: int, seed: int) -> str:
    """The key a review is kept under with its table (module docstring)."""
    return f"{game}:{hand}:{seat}:w{worlds}:s{seed}:v{REVIEW_FORMAT}"


def encode_review(review: Review) -> bytes:
    """A review as stored (compact JSON)."""
    return json.dumps(review, separators=(",", ":")).encode()


def decode_review(body: bytes) -> Review | None:
    """A stored review, or None for one this release cannot read as a
    review (it is then made again)."""
    try:
        review = json.loads(body)
        if not isinstance(review, dict) or not isinstance(review.get("decisions"), list):
            return None
        if not all(isinstance(review.get(k), int) for k in ("hand_number", "seat")):
            return None
        for decision in review["decisions"]:
            sm.ReviewedDecision.model_validate(decision)
    except (ValueError, ValidationError):  # JSONDecodeError and UnicodeError are ValueErrors
        return None
    return review


class StoredReviews:
    """The reviews of one server kept in its table store."""

    def __init__(self, store: TableStore, worlds: int, seed: int) -> None:
        """Reviews made with ``worlds`` deals per decision and ``seed``."""
        self.store = store
        self.worlds = worlds
        self.seed = seed

    def key(self, game: int, hand: int, seat: int) -> str:
        """The key of seat ``seat``'s review of hand ``hand`` of game ``game``."""
        return review_key(game, hand, seat, self.worlds, self.seed)

    async def load(self, table_id: str, keys: Sequence[str]) -> dict[str, Review]:
        """The reviews kept with the table under ``keys`` (those found and
        readable); nothing when the store fails (logged)."""
        if not keys:
            return {}
        try:
            bodies = await self.store.load_reviews(table_id, keys)
        except StoreError as exc:
            log.warning("reviews of table %s not read from the store: %s", table_id, exc)
            return {}
        found: dict[str, Review] = {}
        for key, body in zip(keys, bodies, strict=True):
            if body is None:
                continue
            review = decode_review(body)
            if review is None:
                log.warning("review %s of table %s in the store is unreadable", key, table_id)
            else:
                found[key] = review
        return found

    async def save(self, table_id: str, key: str, review: Review) -> None:
        """Keep ``review`` with the table; a store failure is logged only
        (the review is answered anyway, and made again when asked for)."""
        try:
            await self.store.save_review(table_id, key, encode_review(review))
        except StoreError as exc:
            log.warning("review %s of table %s not kept in the store: %s", key, table_id, exc)

"""The Redis key layout: buckets spread over the slot range, and prefixes
that would move a hash tag are refused."""

from __future__ import annotations

import pytest
from redis.crc import key_slot

from server.store.redis_keys import BUCKET_TAGS, BUCKETS, Keyspace


def test_each_bucket_lies_in_its_own_share_of_the_slot_range() -> None:
    share = 16384 // BUCKETS
    assert len(BUCKET_TAGS) == BUCKETS
    assert [key_slot(tag.encode()) // share for tag in BUCKET_TAGS] == list(range(BUCKETS))


def test_tables_spread_over_the_buckets() -> None:
    buckets = {Keyspace.bucket(f"{n:016x}") for n in range(2000)}
    assert buckets == set(range(BUCKETS))


def test_a_prefix_with_a_brace_is_refused() -> None:
    for prefix in ("hearts{", "x}:"):
        with pytest.raises(ValueError, match="cannot contain"):
            Keyspace(prefix)

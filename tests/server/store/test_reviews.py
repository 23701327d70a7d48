"""Hand reviews kept with their table (``save_review``, ``load_reviews``),
on every store (see conftest): read back as saved, replaced under the same
key, never kept for a table that is gone, and gone with their table, like
its records. The SQLite file keeps them over a restart and gains them when
a file of the first schema is opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from server.store import RedisStore, SqliteStore
from server.store.sqlite_store import SCHEMA_VERSION
from tests.server.store.conftest import CAP, FakeClock, Harness
from tests.server.store.helpers import add_hand_record, commit

REVIEW = b'{"hand_number":1,"seat":0,"decisions":[{"kind":"play","loss":0.125}]}'
OTHER = b'{"hand_number":2,"seat":3,"decisions":[]}'


async def test_a_kept_review_reads_back_as_saved(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    await store.create_table("t2", "CODE2", b"s")
    await store.save_review("t1", "1:1:0:w12:s0:v1", REVIEW)
    await store.save_review("t1", "1:2:3:w12:s0:v1", OTHER)
    got = await store.load_reviews("t1", ["1:2:3:w12:s0:v1", "1:1:1:w12:s0:v1", "1:1:0:w12:s0:v1"])
    assert got == [OTHER, None, REVIEW]
    # Kept per table: the other table has none under the same key.
    assert await store.load_reviews("t2", ["1:1:0:w12:s0:v1"]) == [None]
    # Saved again under its key, the newer one is kept.
    await store.save_review("t1", "1:1:0:w12:s0:v1", OTHER)
    assert await store.load_reviews("t1", ["1:1:0:w12:s0:v1"]) == [OTHER]
    assert await store.load_reviews("t1", []) == []


async def test_many_reviews_are_read_in_one_call(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    keys = [f"1:{hand}:{seat}:w12:s0:v1" for hand in range(1, 301) for seat in range(4)]
    for key in keys[::7]:
        await store.save_review("t1", key, key.encode())
    got = await store.load_reviews("t1", keys)
    assert got == [key.encode() if i % 7 == 0 else None for i, key in enumerate(keys)]


async def test_no_review_is_kept_for_a_table_that_is_gone(harness: Harness) -> None:
    store = harness.store
    await store.save_review("ghost", "1:1:0:w12:s0:v1", REVIEW)
    assert await store.load_reviews("ghost", ["1:1:0:w12:s0:v1"]) == [None]
    await store.create_table("t1", "CODE1", b"s")
    await store.expire_table("t1", 0)
    await store.save_review("t1", "1:1:0:w12:s0:v1", REVIEW)
    # The id used again: the new table starts with no review.
    await store.create_table("t1", "CODE1", b"s")
    assert await store.load_reviews("t1", ["1:1:0:w12:s0:v1"]) == [None]


async def test_reviews_go_with_their_table_like_its_records(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    await commit(store, "t1", 1, b"s2", [b"e1"], records=[b'{"hand": 1}'])
    await store.save_review("t1", "1:1:0:w12:s0:v1", REVIEW)
    await store.expire_table("t1", 60)
    # Kept after the table was set to expire: it expires with it all the same.
    await store.save_review("t1", "1:1:1:w12:s0:v1", OTHER)
    await add_hand_record(store, "t1", b'{"hand": 2}')
    keys = ["1:1:0:w12:s0:v1", "1:1:1:w12:s0:v1"]
    assert await store.load_reviews("t1", keys) == [REVIEW, OTHER]
    if harness.clock is not None:
        harness.clock.advance(59.5)
        assert await store.load_reviews("t1", keys) == [REVIEW, OTHER]
        harness.clock.advance(0.5)
        assert await store.hand_records("t1") == []
        assert await store.load_reviews("t1", keys) == [None, None]
        return
    assert harness.raw is not None and isinstance(store, RedisStore)
    reviews_key = store.keys.reviews("t1")
    records_key = store.keys.records("t1")
    assert 0 < await harness.raw.pttl(reviews_key) <= 60_000
    assert 0 < await harness.raw.pttl(records_key) <= 60_000
    # At the deadline Redis drops them (what expire 0 does at once).
    await store.expire_table("t1", 0)
    assert await harness.raw.exists(reviews_key, records_key) == 0
    assert await store.load_reviews("t1", keys) == [None, None]


async def test_the_sqlite_file_keeps_reviews_over_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "hearts.sqlite3"
    clock = FakeClock()
    store = SqliteStore(path, max_events=CAP, clock=clock)
    await store.create_table("t1", "CODE1", b"s")
    await store.create_table("t2", "CODE2", b"s")
    await store.save_review("t1", "1:1:0:w12:s0:v1", REVIEW)
    await store.save_review("t2", "1:1:0:w12:s0:v1", OTHER)
    await store.expire_table("t2", 10)
    await store.close()
    store = SqliteStore(path, max_events=CAP, clock=clock)
    try:
        assert await store.load_reviews("t1", ["1:1:0:w12:s0:v1"]) == [REVIEW]
        # An expired table's reviews leave the file with it (purged by the
        # next creation or expiry).
        clock.advance(10)
        await store.create_table("t3", "CODE3", b"s")
    finally:
        await store.close()
    raw = sqlite3.connect(path)
    try:
        rows = raw.execute("SELECT table_id, key FROM reviews").fetchall()
    finally:
        raw.close()
    assert rows == [("t1", "1:1:0:w12:s0:v1")]


async def test_a_file_of_the_first_schema_gains_reviews_and_keeps_its_tables(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hearts.sqlite3"
    store = SqliteStore(path, max_events=CAP, clock=FakeClock())
    await store.create_table("t1", "CODE1", b"s")
    await add_hand_record(store, "t1", b'{"hand": 1}')
    await store.close()
    # What the release before reviews were kept left: schema 1, no reviews.
    raw = sqlite3.connect(path)
    raw.execute("DROP TABLE reviews")
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()
    store = SqliteStore(path, max_events=CAP, clock=FakeClock())
    try:
        assert await store.hand_records("t1") == [b'{"hand": 1}']
        assert await store.load_reviews("t1", ["1:1:0:w12:s0:v1"]) == [None]
        await store.save_review("t1", "1:1:0:w12:s0:v1", REVIEW)
        assert await store.load_reviews("t1", ["1:1:0:w12:s0:v1"]) == [REVIEW]
    finally:
        await store.close()
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    finally:
        raw.close()

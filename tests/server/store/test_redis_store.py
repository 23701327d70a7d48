"""What only the Redis store has: error conversion, retry safety, bad data."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from server.store import PlayerStats, RedisStore, StatsDelta, StoreConflict, StoreError
from tests.server.store.conftest import Harness
from tests.server.store.helpers import add_hand_record, add_stats, commit


def _redis(case: Harness) -> tuple[RedisStore, Any]:
    assert isinstance(case.store, RedisStore) and case.raw is not None
    return case.store, case.raw


async def test_unreachable_redis_raises_store_error_with_a_safe_message() -> None:
    # Nothing listens on port 1: every call fails to connect.
    store = RedisStore("redis://127.0.0.1:1/0", retries=1, timeout=1.0)
    calls: list[Callable[[], Awaitable[object]]] = [
        store.ping,
        lambda: store.create_table("t", "C", b"s"),
        lambda: store.load_table("t"),
        lambda: commit(store, "t", 1, b"s", [b"e"]),
        lambda: store.events_since("t", 0),
        store.list_public,
        store.table_ids,
    ]
    try:
        for call in calls:
            with pytest.raises(StoreError) as caught:
                await call()
            assert not isinstance(caught.value, RedisError)
            assert not isinstance(caught.value, StoreConflict)
            assert str(caught.value) == "the table store is unreachable"
            # The redis-py error stays chained for the server's log.
            assert isinstance(caught.value.__cause__, RedisConnectionError)
    finally:
        await store.close()


async def test_commit_whose_reply_was_lost_is_retried_and_applied_once(
    redis_case: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = _redis(redis_case)
    await store.create_table("t1", "C1", b"s1")
    real = store._commit_script
    attempts = 0

    async def reply_lost_once(keys: list[str], args: list[Any]) -> Any:
        nonlocal attempts
        attempts += 1
        result = await real(keys, args)
        if attempts == 1:
            raise RedisConnectionError("connection lost before the reply")
        return result

    monkeypatch.setattr(store, "_commit_script", reply_lost_once)
    assert await commit(store, "t1", 1, b"s2", [b"e1", b"e2"]) == (2, 2)
    assert attempts == 2
    loaded = await store.load_table("t1")
    assert loaded is not None and (loaded.version, loaded.last_seq) == (2, 2)
    events = await store.events_since("t1", 0)
    assert events is not None and [e.body for e in events] == [b"e1", b"e2"]


async def test_commit_token_tells_a_repeat_from_a_rival(redis_case: Harness) -> None:
    store, _ = _redis(redis_case)
    await store.create_table("t1", "C1", b"s1")
    record = [b'{"hand": 1}']
    stats = {"p1": StatsDelta(hands=1, points=26, moons=1)}
    first = await store._commit_with_token(
        "t1", 1, b"s2", [b"e1"], "token-a", records=record, stats=stats
    )
    repeat = await store._commit_with_token(
        "t1", 1, b"s2", [b"e1"], "token-a", records=record, stats=stats
    )
    assert first == repeat == (2, 1)
    with pytest.raises(StoreConflict):
        await store._commit_with_token("t1", 1, b"rival", [b"rival"], "token-b")
    events = await store.events_since("t1", 0)
    assert events is not None and [e.body for e in events] == [b"e1"]
    # The hand record and the statistics rode with the commit: written once,
    # not again by the repeat.
    assert await store.hand_records("t1") == record
    counted = await store.get_stats("p1")
    assert (counted.hands, counted.points, counted.moons) == (1, 26, 1)


async def test_create_whose_reply_was_lost_is_not_a_conflict(
    redis_case: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = _redis(redis_case)
    real = store._create_script
    attempts = 0

    async def reply_lost_once(keys: list[str], args: list[Any]) -> Any:
        nonlocal attempts
        attempts += 1
        result = await real(keys, args)
        if attempts == 1:
            raise RedisConnectionError("connection lost before the reply")
        return result

    monkeypatch.setattr(store, "_create_script", reply_lost_once)
    await store.create_table("t1", "C1", b"s1")
    assert attempts == 2
    assert await store.table_ids() == ["t1"]
    # A genuine second create (a new call, a new token) is still refused.
    with pytest.raises(StoreConflict):
        await store.create_table("t1", "C2", b"s")


async def test_malformed_table_hash_is_a_store_error(redis_case: Harness) -> None:
    store, raw = _redis(redis_case)
    await raw.hset(store.keys.table("t1"), mapping={"state": b"s", "version": b"x"})
    with pytest.raises(StoreError, match="malformed"):
        await store.load_table("t1")


async def test_failed_commit_script_leaves_the_state_alone(redis_case: Harness) -> None:
    store, raw = _redis(redis_case)
    await store.create_table("t1", "C1", b"s1")
    # A key of the wrong type where the log should be: XADD fails in the script.
    await raw.set(store.keys.events("t1"), b"not a stream")
    with pytest.raises(StoreError, match="refused") as caught:
        await commit(store, "t1", 1, b"s2", [b"e1"])
    assert not isinstance(caught.value, StoreConflict)
    loaded = await store.load_table("t1")
    assert loaded is not None and (loaded.version, loaded.state) == (1, b"s1")


async def test_expired_tables_leave_the_indexes(redis_case: Harness) -> None:
    store, raw = _redis(redis_case)
    await store.create_table("t1", "C1", b"s")
    await store.create_table("t2", "C2", b"s")
    await store.set_public("t1", "C1", b"summary")
    # What Redis does at the deadline: the table hash disappears by itself.
    await raw.delete(store.keys.table("t1"))
    assert await store.table_ids() == ["t2"]
    assert await store.list_public() == []
    assert await raw.smembers(store.keys.table_set("t1", "tables")) == set()
    assert await raw.smembers(store.keys.table_set("t2", "tables")) == {b"t2"}
    assert await raw.zcard(store.keys.lobby("public")) == 0


async def test_every_key_carries_the_prefix(redis_case: Harness) -> None:
    store, raw = _redis(redis_case)
    await store.create_table("t1", "C1", b"s")
    await commit(store, "t1", 1, b"s", [b"e"], stats={"p1": StatsDelta(hands=1)})
    await add_hand_record(store, "t1", b"r")  # commits version 3
    await store.set_public("t1", "C1", b"x")
    await add_stats(store, "t1", "p2", StatsDelta(hands=1))  # commits version 4
    keys = {key.decode() async for key in raw.scan_iter(match=f"{store.prefix}*")}
    suffixes = {key.removeprefix(store.prefix) for key in keys}
    tag = store.keys.table("t1").removeprefix(store.prefix).partition(":")[0]
    assert suffixes == {
        f"{tag}:table:t1",
        f"{tag}:events:t1",
        f"{tag}:records:t1",
        f"{tag}:tables",
        "{c:C1}:code",
        "{lobby}:public",
        "{lobby}:listed",
        "{lobby}:created",
        "{s:p1}:stats",
        "{s:p1}:counted:t1:2",
        "{s:p2}:stats",
        "{s:p2}:counted:t1:4",
    }


async def test_statistics_a_crash_left_noted_are_counted_once_by_the_next_pass(
    redis_case: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, raw = _redis(redis_case)
    await store.create_table("t1", "C1", b"s1")
    await commit(store, "t1", 1, b"s2", [], running=True)

    async def crash(table_id: str, owed: object) -> None:
        """The process died right after the commit: nothing counted yet."""

    monkeypatch.setattr(store, "_count_owed", crash)
    await commit(store, "t1", 2, b"s3", [b"e"], stats={"p1": StatsDelta(hands=1, points=13)})
    assert await store.get_stats("p1") == PlayerStats()
    assert await raw.smembers(store.keys.table_set("t1", "owing")) == {b"t1"}
    monkeypatch.undo()
    # The pass over the running tables (start-up, every watchdog pass)
    # counts them; a second pass, or a repeat of the first, counts nothing.
    assert await store.running_ids() == ["t1"]
    assert await store.running_ids() == ["t1"]
    await store._count_owed("t1", {"3|p1": "0,0,1,13,0,0"})
    assert await store.get_stats("p1") == PlayerStats(hands=1, points=13)
    assert await raw.exists(store.keys.pending("t1")) == 0
    assert await raw.smembers(store.keys.table_set("t1", "owing")) == set()


async def test_an_owing_entry_whose_statistics_were_already_counted_is_cleared(
    redis_case: Harness,
) -> None:
    # Two passes met: one counted the noted statistics (the pending hash is
    # gone) while the other had already read the table from the index.
    store, raw = _redis(redis_case)
    await store.create_table("t1", "C1", b"s1")
    await commit(store, "t1", 1, b"s2", [], running=True)
    await raw.sadd(store.keys.table_set("t1", "owing"), "t1")
    assert await store.running_ids() == ["t1"]
    assert await raw.smembers(store.keys.table_set("t1", "owing")) == set()


async def test_a_table_and_its_indexes_share_one_hash_slot(redis_case: Harness) -> None:
    store, _ = _redis(redis_case)
    for table_id in ("t1", "a}b{c", "0123456789abcdef"):
        keys = store.keys
        slots = {
            key_slot(k.encode())
            for k in (
                keys.table(table_id),
                keys.events(table_id),
                keys.records(table_id),
                keys.reviews(table_id),
                keys.lease(table_id),
                keys.pending(table_id),
                keys.table_set(table_id, "tables"),
                keys.table_set(table_id, "running"),
                keys.table_set(table_id, "owing"),
            )
        }
        assert len(slots) == 1, table_id
    for player_id in ("p1", "we{ir}d"):
        marker = store.keys.counted(player_id, "t1", 3)
        assert key_slot(store.keys.stats(player_id).encode()) == key_slot(marker.encode())


async def test_new_table_does_not_inherit_a_dead_tables_leftovers(redis_case: Harness) -> None:
    store, raw = _redis(redis_case)
    await store.create_table("t1", "C1", b"old")
    await commit(store, "t1", 1, b"old", [b"old-event"])
    await add_hand_record(store, "t1", b"old-record")
    await store.save_review("t1", "1:1:0", b"old-review")
    # Expiry removed the hash and code first; the log, records and reviews
    # linger.
    await raw.delete(store.keys.table("t1"), store.keys.code("C1"))
    assert await raw.hget(store.keys.reviews("t1"), "1:1:0") == b"old-review"
    await store.create_table("t1", "C1", b"new")
    assert await store.events_since("t1", 0) == []
    assert await store.hand_records("t1") == []
    assert await store.load_reviews("t1", ["1:1:0"]) == [None]
    assert await raw.exists(store.keys.reviews("t1")) == 0
    assert await commit(store, "t1", 1, b"new2", [b"new-event"]) == (2, 1)


async def test_a_commit_is_fenced_by_the_tables_lease(redis_case: Harness) -> None:
    store, raw = _redis(redis_case)
    await store.create_table("t1", "C1", b"s1")
    await raw.set(store.lease_key("t1"), "process-b")
    # A stale owner (its lease taken by process-b) cannot write, even at the
    # right version; nothing changes.
    with pytest.raises(StoreConflict, match="lease"):
        await commit(store, "t1", 1, b"stale", [b"e"], owner="process-a")
    loaded = await store.load_table("t1")
    assert loaded is not None and (loaded.version, loaded.state, loaded.last_seq) == (1, b"s1", 0)
    # The holder writes; without an owner (one process) there is no fence.
    assert await commit(store, "t1", 1, b"s2", [b"e"], owner="process-b") == (2, 1)
    assert await commit(store, "t1", 2, b"s3", []) == (3, 1)


async def test_a_redis_too_old_is_one_line_and_nothing_is_written(
    redis_case: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, raw = _redis(redis_case)
    real_info = store.redis.info

    async def older(section: str | None = None) -> dict[str, Any]:
        info = dict(await real_info(section))
        info["redis_version"] = "6.2.14"
        return info

    monkeypatch.setattr(store.redis, "info", older)
    with pytest.raises(StoreError, match=r"^Redis 6\.2\.14 is too old: hearts needs Redis 7\.0"):
        await store.prepare()
    assert [key async for key in raw.scan_iter(match=f"{store.prefix}*")] == []

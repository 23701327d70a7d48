"""The ``TableStore`` contract, run against every implementation (see conftest)."""

from __future__ import annotations

import asyncio

import pytest

from server.store import PlayerStats, StatsDelta, StoreConflict, StoreError
from tests.server.store.conftest import CAP, Harness
from tests.server.store.helpers import add_hand_record, commit


async def _seqs(harness: Harness, table_id: str, after: int) -> list[int] | None:
    events = await harness.store.events_since(table_id, after)
    return None if events is None else [event.seq for event in events]


async def test_create_then_load(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"state-0")
    loaded = await store.load_table("t1")
    assert loaded is not None
    assert (loaded.table_id, loaded.version, loaded.state, loaded.last_seq) == (
        "t1",
        1,
        b"state-0",
        0,
    )
    assert await store.table_id_for_code("CODE1") == "t1"
    assert await store.events_since("t1", 0) == []


async def test_unknown_table_and_code(harness: Harness) -> None:
    store = harness.store
    assert await store.load_table("nope") is None
    assert await store.table_id_for_code("NOPE") is None
    assert await store.events_since("nope", 0) is None
    assert await store.hand_records("nope") == []


async def test_duplicate_id_refused_and_nothing_written(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"first")
    with pytest.raises(StoreConflict):
        await store.create_table("t1", "CODE2", b"second")
    loaded = await store.load_table("t1")
    assert loaded is not None and loaded.state == b"first"
    assert await store.table_id_for_code("CODE2") is None


async def test_duplicate_code_refused_and_nothing_written(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"first")
    with pytest.raises(StoreConflict):
        await store.create_table("t2", "CODE1", b"second")
    assert await store.load_table("t2") is None
    assert await store.table_id_for_code("CODE1") == "t1"
    assert await store.table_ids() == ["t1"]


async def test_commit_bumps_version_and_numbers_events_from_one(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s1")
    assert await commit(store, "t1", 1, b"s2", [b"e1", b"e2"]) == (2, 2)
    assert await commit(store, "t1", 2, b"s3", [b"e3"]) == (3, 3)
    # An intent may produce no event: the version still moves.
    assert await commit(store, "t1", 3, b"s4", []) == (4, 3)
    loaded = await store.load_table("t1")
    assert loaded is not None
    assert (loaded.version, loaded.state, loaded.last_seq) == (4, b"s4", 3)
    events = await store.events_since("t1", 0)
    assert events is not None
    assert [(e.seq, e.body) for e in events] == [(1, b"e1"), (2, b"e2"), (3, b"e3")]


@pytest.mark.parametrize("stale", [1, 3])
async def test_wrong_expected_version_conflicts_and_writes_nothing(
    harness: Harness, stale: int
) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s1")
    await commit(store, "t1", 1, b"s2", [b"e1"])
    with pytest.raises(StoreConflict):
        await commit(store, "t1", stale, b"bad", [b"bad-event"])
    loaded = await store.load_table("t1")
    assert loaded is not None
    assert (loaded.version, loaded.state, loaded.last_seq) == (2, b"s2", 1)
    assert await _seqs(harness, "t1", 0) == [1]


async def test_commit_to_unknown_table_conflicts(harness: Harness) -> None:
    with pytest.raises(StoreConflict):
        await commit(harness.store, "ghost", 1, b"s", [b"e"])
    assert await harness.store.load_table("ghost") is None


async def test_concurrent_commits_exactly_one_wins(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s1")
    writers = 20
    results = await asyncio.gather(
        *(commit(store, "t1", 1, f"s-{i}".encode(), [f"e-{i}".encode()]) for i in range(writers)),
        return_exceptions=True,
    )
    winners = [i for i, result in enumerate(results) if not isinstance(result, BaseException)]
    assert len(winners) == 1, results
    assert all(
        isinstance(result, StoreConflict) for i, result in enumerate(results) if i != winners[0]
    )
    assert results[winners[0]] == (2, 1)
    loaded = await store.load_table("t1")
    assert loaded is not None and loaded.state == f"s-{winners[0]}".encode()
    events = await store.events_since("t1", 0)
    assert events is not None
    assert [e.body for e in events] == [f"e-{winners[0]}".encode()]


async def test_events_since_returns_the_tail_in_order(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    await commit(store, "t1", 1, b"s", [b"a", b"b"])
    await commit(store, "t1", 2, b"s", [b"c", b"d", b"e"])
    events = await store.events_since("t1", 2)
    assert events is not None
    assert [(e.seq, e.body) for e in events] == [(3, b"c"), (4, b"d"), (5, b"e")]
    assert await store.events_since("t1", 5) == []
    # A number the table never reached, or a negative one: the caller must
    # send a snapshot, so None.
    assert await store.events_since("t1", 6) is None
    assert await store.events_since("t1", -1) is None


async def test_events_trimmed_to_the_cap(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    total = CAP + 3
    for i in range(total):
        await commit(store, "t1", i + 1, b"s", [f"e{i + 1}".encode()])
    # Events 1..3 are gone: resuming from 0, 1 or 2 needs one of them.
    for after in (0, 1, 2):
        assert await store.events_since("t1", after) is None
    events = await store.events_since("t1", 3)
    assert events is not None
    assert [(e.seq, e.body) for e in events] == [(n, f"e{n}".encode()) for n in range(4, total + 1)]
    # Numbering goes on after trimming.
    assert await commit(store, "t1", total + 1, b"s", [b"next"]) == (total + 2, total + 1)


async def test_one_commit_larger_than_the_cap_keeps_its_tail(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    bodies = [f"e{n}".encode() for n in range(1, CAP + 3)]
    assert await commit(store, "t1", 1, b"s", bodies) == (2, CAP + 2)
    assert await store.events_since("t1", 0) is None
    assert await _seqs(harness, "t1", 2) == list(range(3, CAP + 3))


async def test_public_listing_newest_first_and_unlisting(harness: Harness) -> None:
    store = harness.store
    for n in (1, 2, 3):
        await store.create_table(f"t{n}", f"C{n}", b"s")
    # Listed in another order than created: the lobby still sorts by creation.
    await store.set_public("t1", "C1", b"one")
    await store.set_public("t3", "C3", b"three")
    await store.set_public("t2", "C2", b"two")
    listed = await store.list_public()
    assert [(p.table_id, p.code, p.summary) for p in listed] == [
        ("t3", "C3", b"three"),
        ("t2", "C2", b"two"),
        ("t1", "C1", b"one"),
    ]
    assert [p.table_id for p in await store.list_public(limit=2)] == ["t3", "t2"]
    # A new summary keeps the table's place.
    await store.set_public("t1", "C1", b"one, two seats left")
    await store.set_public("t2", "C2", None)
    listed = await store.list_public()
    assert [(p.table_id, p.summary) for p in listed] == [
        ("t3", b"three"),
        ("t1", b"one, two seats left"),
    ]
    # Listing a table that does not exist is ignored.
    await store.set_public("ghost", "C9", b"boo")
    assert "ghost" not in [p.table_id for p in await store.list_public()]


async def test_expire_now_removes_everything_and_frees_id_and_code(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"old")
    await commit(store, "t1", 1, b"old2", [b"e1"])
    await add_hand_record(store, "t1", b'{"hand": 1}')
    await store.set_public("t1", "CODE1", b"summary")
    await store.expire_table("t1", 0)
    assert await store.load_table("t1") is None
    assert await store.table_id_for_code("CODE1") is None
    assert await store.list_public() == []
    assert await store.table_ids() == []
    assert await store.hand_records("t1") == []
    assert await store.events_since("t1", 0) is None
    # The id and the code can be used again, and nothing old comes back.
    await store.create_table("t1", "CODE1", b"new")
    loaded = await store.load_table("t1")
    assert loaded is not None and (loaded.version, loaded.state, loaded.last_seq) == (1, b"new", 0)
    assert await store.events_since("t1", 0) == []
    assert await store.hand_records("t1") == []


async def test_expire_later_unlists_now_and_covers_every_key(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    await store.create_table("t2", "CODE2", b"s")
    await store.set_public("t1", "CODE1", b"summary")
    await store.expire_table("t1", 60)
    # Until the deadline the table is still there (players may look at the
    # final scores) but no longer in the lobby.
    assert await store.load_table("t1") is not None
    assert await store.list_public() == []
    assert sorted(await store.table_ids()) == ["t1", "t2"]
    # Log and records created only after expire_table must vanish with it.
    await commit(store, "t1", 1, b"s2", [b"e1"])
    await add_hand_record(store, "t1", b"record")
    await harness.assert_expires("t1", "CODE1", 60)
    assert await store.load_table("t2") is not None


async def test_expire_unknown_table_is_ignored(harness: Harness) -> None:
    await harness.store.expire_table("ghost", 10)
    assert await harness.store.load_table("ghost") is None


async def test_hand_records_oldest_first(harness: Harness) -> None:
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    records = [f'{{"hand": {n}}}'.encode() for n in range(1, 6)]
    for record in records:
        await add_hand_record(store, "t1", record)
    assert await store.hand_records("t1") == records
    # A record for a missing table is an error, never silently dropped.
    with pytest.raises(StoreError):
        await add_hand_record(store, "ghost", b"{}")


async def test_stats_accumulate_under_concurrency(harness: Harness) -> None:
    # Statistics come with commits: 51 tables' commits at once, each adding
    # to alice's (as when she plays at many tables).
    store = harness.store
    assert await store.get_stats("alice") == PlayerStats()
    hand = StatsDelta(hands=1, points=3, queens=1)
    game = StatsDelta(games=1, wins=1, moons=1)
    deltas = [hand] * 40 + [game] * 10 + [StatsDelta()]
    for n in range(len(deltas)):
        await store.create_table(f"t{n}", f"C{n}", b"s")
    await asyncio.gather(
        *(commit(store, f"t{n}", 1, b"s", stats={"alice": delta}) for n, delta in enumerate(deltas))
    )
    stats = await store.get_stats("alice")
    assert stats == PlayerStats(games=10, wins=10, hands=40, points=120, moons=10, queens=40)
    assert stats.average_points == 3.0
    assert await store.get_stats("bob") == PlayerStats()


async def test_table_ids_lists_live_tables(harness: Harness) -> None:
    store = harness.store
    assert await store.table_ids() == []
    for n in (1, 2, 3):
        await store.create_table(f"t{n}", f"C{n}", b"s")
    assert sorted(await store.table_ids()) == ["t1", "t2", "t3"]
    await store.expire_table("t2", 0)
    assert sorted(await store.table_ids()) == ["t1", "t3"]


async def test_ids_and_codes_with_separators_do_not_collide(harness: Harness) -> None:
    store = harness.store
    await store.create_table("a", "X", b"a")
    await store.create_table("a:events", "X:Y", b"b")
    await commit(store, "a", 1, b"a2", [b"only-a"])
    assert await store.events_since("a:events", 0) == []
    assert await store.table_id_for_code("X:Y") == "a:events"


async def test_ping_answers(harness: Harness) -> None:
    # Fails by raising StoreError (see the unreachable-Redis test for that side).
    await harness.store.ping()


async def test_running_tables_follow_what_their_commits_say(harness: Harness) -> None:
    """The index a takeover scans: a table joins it when a commit says its
    game runs, leaves it when one says it stopped, is untouched by commits
    that say nothing or are refused, and leaves with the table itself."""
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    await store.create_table("t2", "CODE2", b"s")
    assert await store.running_ids() == []
    await commit(store, "t1", 1, b"s", [b"e"], running=True)
    assert await store.running_ids() == ["t1"]
    await commit(store, "t1", 2, b"s", [b"e"])  # says nothing: unchanged
    assert await store.running_ids() == ["t1"]
    with pytest.raises(StoreConflict):
        await commit(store, "t2", 7, b"s", [b"e"], running=True)  # refused: not added
    assert await store.running_ids() == ["t1"]
    await commit(store, "t2", 1, b"s", [], running=True)
    assert sorted(await store.running_ids()) == ["t1", "t2"]
    await commit(store, "t1", 3, b"s", [b"game over"], running=False)
    assert await store.running_ids() == ["t2"]
    await store.expire_table("t2", 0)
    assert await store.running_ids() == []
    # A dead table's id used again starts out of the index.
    await store.create_table("t2", "CODE3", b"new")
    assert await store.running_ids() == []


async def test_records_go_in_with_their_commit_once(harness: Harness) -> None:
    """A finished hand's record written by the commit that finishes it: in
    order after earlier records, and not at all when the commit is refused."""
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    await commit(store, "t1", 1, b"s", [b"e"], records=[b'{"hand": 1}'])
    with pytest.raises(StoreConflict):
        await commit(store, "t1", 1, b"s", [b"e"], records=[b'{"hand": "stale"}'])
    await commit(store, "t1", 2, b"s", [], records=[b'{"hand": 2}', b'{"hand": 3}'])
    assert await store.hand_records("t1") == [b'{"hand": 1}', b'{"hand": 2}', b'{"hand": 3}']
    loaded = await store.load_table("t1")
    assert loaded is not None and (loaded.version, loaded.last_seq) == (3, 1)


async def test_statistics_go_in_with_their_commit_once(harness: Harness) -> None:
    """Players' statistics added by the commit that ends a hand or a game:
    summed per player, untouched by a refused commit."""
    store = harness.store
    await store.create_table("t1", "CODE1", b"s")
    hand = {
        "p1": StatsDelta(hands=1, points=13, queens=1),
        "p2": StatsDelta(hands=1, points=0),
    }
    await commit(store, "t1", 1, b"s", [b"e"], stats=hand)
    with pytest.raises(StoreConflict):
        await commit(store, "t1", 1, b"s", [b"e"], stats={"p1": StatsDelta(games=5)})
    await commit(store, "t1", 2, b"s", [b"e"], stats={"p1": StatsDelta(games=1, wins=1)})
    assert await store.get_stats("p1") == PlayerStats(
        games=1, wins=1, hands=1, points=13, moons=0, queens=1
    )
    assert await store.get_stats("p2") == PlayerStats(hands=1)


async def test_a_repeated_commit_with_its_token_applies_once(harness: Harness) -> None:
    """A commit sent again with the same token (its first reply was lost)
    reports the first attempt's result and writes nothing again; another
    token at the old version is a rival and conflicts."""
    store = harness.store
    await store.create_table("t1", "CODE1", b"s1")
    record = [b'{"hand": 1}']
    stats = {"p1": StatsDelta(hands=1, points=26, moons=1)}
    first = await commit(
        store, "t1", 1, b"s2", [b"e1"], running=True, records=record, stats=stats, token="token-a"
    )
    repeat = await commit(
        store, "t1", 1, b"s2", [b"e1"], running=True, records=record, stats=stats, token="token-a"
    )
    assert first == repeat == (2, 1)
    with pytest.raises(StoreConflict):
        await commit(store, "t1", 1, b"rival", [b"rival"], token="token-b")
    # Without a token nothing can be recognised: a repeat is a conflict.
    assert await commit(store, "t1", 2, b"s3", [b"e2"]) == (3, 2)
    with pytest.raises(StoreConflict):
        await commit(store, "t1", 2, b"s3", [b"e2"])
    events = await store.events_since("t1", 0)
    assert events is not None and [e.body for e in events] == [b"e1", b"e2"]
    assert await store.hand_records("t1") == record
    assert await store.get_stats("p1") == PlayerStats(hands=1, points=26, moons=1)
    loaded = await store.load_table("t1")
    assert loaded is not None and (loaded.version, loaded.state) == (3, b"s3")

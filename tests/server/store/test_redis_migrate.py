"""A Redis filled by the release before the Cluster-ready key layout is
carried over when a server starts on it: every table, code, listing, log,
record and statistic is found again, and the running game resumes.

``tests/data/redis_layout_v1.json`` was written by that release's server
(commit 14823ac): a game of Ann and three Easy bots stopped in its second
hand, Bea's public table waiting for players, and Cid's finished one-hand
game. The test loads it under a fresh prefix, key by key, with its expiries.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from engine.record import verify_record
from server.store import RedisStore, StoreError
from server.store.redis_keys import LAYOUT_VERSION
from server.table_state import TableState
from tests.server.conftest import ServerFactory
from tests.server.store.conftest import Harness

DUMP = json.loads((Path(__file__).parents[2] / "data" / "redis_layout_v1.json").read_text())
ABOUT: dict[str, str] = DUMP["about"]


def _b(text: str) -> bytes:
    return base64.b64decode(text)


async def load_dump(raw: Redis, prefix: str) -> None:
    """Write the dump's keys under ``prefix`` instead of ``hearts:``."""
    for name, entry in DUMP["keys"].items():
        key = prefix + name.removeprefix("hearts:")
        value: Any = entry["value"]
        match entry["type"]:
            case "hash":
                await raw.hset(key, mapping={_b(k): _b(v) for k, v in value.items()})
            case "string":
                await raw.set(key, _b(value))
            case "list":
                await raw.rpush(key, *[_b(v) for v in value])
            case "set":
                await raw.sadd(key, *[_b(v) for v in value])
            case "zset":
                await raw.zadd(key, {_b(m): score for m, score in value})
            case "stream":
                for entry_id, fields in value:
                    await raw.xadd(key, {_b(k): _b(v) for k, v in fields.items()}, id=entry_id)
        if entry["ttl_ms"] > 0:
            await raw.pexpire(key, entry["ttl_ms"])


def old(name: str) -> dict[str, Any]:
    """The dump's entry for ``hearts:<name>``."""
    entry: dict[str, Any] = DUMP["keys"][f"hearts:{name}"]
    return entry


def _store(case: Harness) -> tuple[RedisStore, Redis]:
    assert isinstance(case.store, RedisStore) and case.raw is not None
    return case.store, case.raw


async def test_every_table_is_found_again_in_the_new_layout(redis_case: Harness) -> None:
    store, raw = _store(redis_case)
    await load_dump(raw, store.prefix)
    await store.prepare()

    running, public, finished = ABOUT["running"], ABOUT["public"], ABOUT["finished"]
    assert await store.table_ids() == sorted([running, public, finished])
    assert await store.running_ids() == [running]
    for table_id, code in (
        (running, "running_code"),
        (public, "public_code"),
        (finished, "finished_code"),
    ):
        assert await store.table_id_for_code(ABOUT[code]) == table_id
        loaded = await store.load_table(table_id)
        fields = {_b(k).decode(): _b(v) for k, v in old(f"table:{table_id}")["value"].items()}
        assert loaded is not None
        assert (loaded.state, loaded.version, loaded.last_seq) == (
            fields["state"],
            int(fields["version"]),
            int(fields["last_seq"]),
        )
        events = await store.events_since(table_id, 0)
        stream = old(f"events:{table_id}")["value"]
        assert events is not None and [e.body for e in events] == [_b(f["Yg=="]) for _, f in stream]
        # Expiries came along (within the seconds the test has taken so far).
        ttl = await raw.pttl(store.keys.table(table_id))
        assert 0 < ttl <= old(f"table:{table_id}")["ttl_ms"]
    listed = await store.list_public()
    assert [(t.table_id, t.code) for t in listed] == [(public, ABOUT["public_code"])]
    assert listed[0].summary == _b(
        old(f"table:{public}")["value"][base64.b64encode(b"public_summary").decode()]
    )
    records = await store.hand_records(finished)
    assert records == [_b(r) for r in old(f"records:{finished}")["value"]]
    assert all(verify_record(json.loads(r))["ok"] for r in records)
    for name in DUMP["keys"]:
        if name.startswith("hearts:stats:"):
            player_id = name.removeprefix("hearts:stats:")
            totals = {
                _b(k).decode(): int(_b(v)) for k, v in old(f"stats:{player_id}")["value"].items()
            }
            stats = await store.get_stats(player_id)
            assert {k: getattr(stats, k) for k in totals} == totals
    # Nothing of the old layout is left, and the marker says so.
    leftovers = [k async for k in raw.scan_iter(match=f"{store.prefix}*") if b"{" not in k]
    assert leftovers == []
    assert await raw.get(store.keys.lobby("layout")) == LAYOUT_VERSION.encode()
    # New tables are numbered after the old ones (the lobby lists newest first).
    await store.create_table("new1", "NEWONE", b"s")
    created = await raw.hget(store.keys.table("new1"), "created")
    assert created is not None and int(created) > int(_b(old("created")["value"]))
    # A second start finds the marker and moves nothing.
    await store.prepare()
    assert await store.table_ids() == sorted([running, public, finished, "new1"])


async def test_a_server_of_the_old_release_still_running_stops_the_upgrade(
    redis_case: Harness,
) -> None:
    store, raw = _store(redis_case)
    await load_dump(raw, store.prefix)
    await raw.set(f"{store.prefix}alive:0123abcd", 1, px=4000)
    before = sorted([k async for k in raw.scan_iter(match=f"{store.prefix}*")])
    with pytest.raises(StoreError, match="older release still uses this Redis"):
        await store.prepare()
    # Nothing written: the old layout is as it was, no marker, no lock.
    assert sorted([k async for k in raw.scan_iter(match=f"{store.prefix}*")]) == before


async def test_a_server_started_on_the_old_layout_resumes_the_game_in_play(
    redis_case: Harness, make_server: ServerFactory
) -> None:
    store, raw = _store(redis_case)
    await load_dump(raw, store.prefix)
    running = ABOUT["running"]
    async with make_server(store=store) as server:
        actor = server.lobby.actors.get(running)
        assert actor is not None, "the running table was not resumed"
        stored = TableState.from_bytes(
            _b(old(f"table:{running}")["value"][base64.b64encode(b"state").decode()])
        )
        assert actor.state.status == stored.status == "playing"
        assert actor.state.seq == stored.seq

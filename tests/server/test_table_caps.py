"""New tables over real WebSocket connections: a player creates table after
table on one connection, the creation budgets of a player and of a client
address refuse what goes past them (saying why and when to try again), and
the caps on what a server holds (tables per process, live tables in the
store, the store's fill) refuse new tables while the games already running
go on. Tables that never started expire sooner than the others."""

from __future__ import annotations

import random
from pathlib import Path

from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer
from server.store import MemoryStore, RedisStore, SqliteStore, open_store
from server.store_usage import live_tables, redis_memory, store_fill

from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient, play_until

BOTS = ("easy", "easy", "easy")


async def refused(client: WireClient) -> sm.Error:
    """A create_table that must be refused."""
    return await client.error(
        cm.CreateTable(id=client.next_id(), seats=BOTS, rules=SHORT_RULES)  # type: ignore[arg-type]
    )


async def test_one_connection_plays_table_after_table(server: RunningServer) -> None:
    """Play vs bots again and again in one open page (one connection): every
    table is created and started (four per connection was the old limit)."""
    player = await WireClient.open(server.url, "Ann")
    try:
        for _ in range(10):
            await player.create(seats=BOTS)
            await player.start()
            await player.call(cm.Leave(id=player.next_id()))
    finally:
        await player.close()


async def test_over_the_player_budget_the_refusal_says_when_and_the_player_stays(
    make_server: ServerFactory,
) -> None:
    async with make_server(tables_burst_per_player=2, tables_per_minute_per_player=1.0) as server:
        ann = await WireClient.open(server.url, "Ann")
        bob = await WireClient.open(server.url, "Bob")  # same address, another player
        try:
            await ann.create(seats=BOTS)
            second = await ann.create(seats=BOTS)
            error = await refused(ann)
            assert error.code == "too_many_tables"
            assert error.reason == "player_budget"
            assert error.retry_after is not None and 50 <= error.retry_after <= 60
            assert "try again in" in error.message
            # Nothing changed: Ann is still the host of her second table.
            await ann.start()
            assert ann.table_id == second.table_id
            # Bob, on the same address, has his own budget.
            await bob.create(seats=BOTS)
            # Reconnecting with the same player token does not refill it.
            again = await WireClient.open(server.url, "Ann", player_token=ann.player_token)
            try:
                assert (await refused(again)).reason == "player_budget"
            finally:
                await again.close()
            metrics = server.lobby.metrics
            assert metrics is not None
            assert 'hearts_tables_refused_total{reason="player_budget"} 2.0' in (
                metrics.render().decode()
            )
        finally:
            await ann.close()
            await bob.close()


async def test_the_address_budget_holds_across_connections_and_player_tokens(
    make_server: ServerFactory,
) -> None:
    """A script opening a connection (and making up a player) per table."""
    async with make_server(tables_burst_per_address=3, tables_per_minute_per_address=1.0) as server:
        clients = [await WireClient.open(server.url, f"S{n}") for n in range(5)]
        try:
            for client in clients[:3]:
                await client.create(seats=BOTS)
            for client in clients[3:]:
                error = await refused(client)
                assert (error.code, error.reason) == ("too_many_tables", "address_budget")
                assert error.retry_after is not None and error.retry_after > 0
        finally:
            for client in clients:
                await client.close()


async def test_at_the_process_cap_new_tables_wait_and_games_go_on(
    make_server: ServerFactory,
) -> None:
    async with make_server(max_tables_per_process=2) as server:
        ann = await WireClient.open(server.url, "Ann")
        bob = await WireClient.open(server.url, "Bob")
        cid = await WireClient.open(server.url, "Cid")
        try:
            await ann.create(seats=BOTS)
            await ann.start()
            waiting = await bob.create(seats=("open", "easy", "easy"))
            error = await refused(cid)
            assert (error.code, error.reason) == ("server_full", "process_tables")
            assert error.retry_after == 60
            # Joining is not creating: Cid sits at Bob's table.
            await cid.join(waiting.code)
            # Ann's game plays to its end.
            view = await play_until(ann, random.Random(7))
            assert view.status == "game_over"
        finally:
            for client in (ann, bob, cid):
                await client.close()


async def test_at_the_live_tables_cap_of_a_redis_store_new_tables_wait(
    make_server: ServerFactory, redis_db: str
) -> None:
    async with make_server(redis_url=redis_db, max_live_tables=2) as server:
        assert isinstance(server.store, RedisStore)
        ann = await WireClient.open(server.url, "Ann")
        try:
            await ann.create(seats=BOTS)
            await ann.create(seats=BOTS)
            assert await live_tables(server.store) == 2
            error = await refused(ann)
            assert (error.code, error.reason) == ("server_full", "store_tables")
        finally:
            await ann.close()


async def test_redis_memory_is_read_against_its_maxmemory(redis_db: str) -> None:
    store = open_store(redis_db)  # the test's own key prefix is in the URL
    assert isinstance(store, RedisStore)
    try:
        used, maxmemory = await redis_memory(store)
        configured = await store.redis.config_get("maxmemory")
        assert maxmemory == int(configured.get("maxmemory") or 0)
        assert used > 0
        fill = await store_fill(store, 1024 * 1024 * 1024)
        assert fill is not None and fill.used > 0
        if maxmemory == 0:
            # No limit of its own: the configured size stands in.
            assert (fill.size, fill.what) == (1024 * 1024 * 1024, "--store-size-mb")
            assert await store_fill(store, None) is None
        else:
            assert (fill.size, fill.what) == (maxmemory, "Redis maxmemory")
    finally:
        await store.close()


async def test_a_full_redis_refuses_new_tables_and_the_running_game_goes_on(
    make_server: ServerFactory, redis_db: str
) -> None:
    """Two processes on one Redis; the second is told the store is 1 MiB
    (Redis itself uses more) and refuses new tables as the store being
    full, while a player reaches through it a table waiting on the first
    and the game running on the first plays to its end."""
    async with make_server(redis_url=redis_db) as first:
        full = make_server(redis_url=redis_db, store_size_mb=1, store_fill_limit=0.000001)
        async with full as second:
            ann = await WireClient.open(first.url, "Ann")
            bob = await WireClient.open(first.url, "Bob")
            cid = await WireClient.open(second.url, "Cid")
            try:
                await ann.create(seats=BOTS)
                await ann.start()
                waiting = await bob.create(seats=("open", "easy", "easy"))
                error = await refused(cid)
                assert (error.code, error.reason) == ("server_full", "store_full")
                assert error.retry_after == 60
                await cid.join(waiting.code)
                assert (await play_until(ann, random.Random(3))).status == "game_over"
            finally:
                for client in (ann, bob, cid):
                    await client.close()


async def test_a_full_sqlite_file_refuses_new_tables(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    """The file against its configured size (here 1 MiB at a limit of 1 %)."""
    store = SqliteStore(tmp_path / "hearts.sqlite3")
    async with make_server(store=store, store_size_mb=1, store_fill_limit=0.01) as server:
        ann = await WireClient.open(server.url, "Ann")
        try:
            error = await refused(ann)
            assert (error.code, error.reason) == ("server_full", "store_full")
            assert "try again in a minute" in error.message
        finally:
            await ann.close()


async def test_a_table_that_never_started_expires_sooner(make_server: ServerFactory) -> None:
    """Created: it lives ``unstarted_table_ttl``; once its game starts,
    ``table_ttl`` from then."""
    clock = [0.0]
    store = MemoryStore(clock=lambda: clock[0])
    async with make_server(store=store, unstarted_table_ttl=3600, table_ttl=86400) as server:
        ann = await WireClient.open(server.url, "Ann")
        bob = await WireClient.open(server.url, "Bob")
        try:
            idle = await ann.create(seats=("open", "easy", "easy"))
            clock[0] = 1800.0
            busy = await bob.create(seats=BOTS)
            await bob.start()
            clock[0] = 3600.0
            ids = await store.table_ids()
            assert idle.table_id not in ids, "never started: gone after an hour"
            assert busy.table_id in ids
            clock[0] = 80000.0
            assert busy.table_id in await store.table_ids(), "started: a day from its start"
            clock[0] = 1800.0 + 86400.0
            assert busy.table_id not in await store.table_ids()
        finally:
            for client in (ann, bob):
                await client.close()

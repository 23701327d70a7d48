"""A flood of table creations, over real WebSocket connections whose client
addresses come through the trusted-proxy path (``X-Forwarded-For`` from
127.0.0.1, the server's trusted proxy): first many connections from many
addresses, then many from one, then more addresses than the process may
hold tables for. Two games that were running before go on to their end
undisturbed; each address gets no more tables than its budget; the one
address gets its budget whatever the number of its connections and
player tokens; a newcomer from another address still gets a table; and at
the process cap everyone is told to come back later, the running games
still going on."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from protocol import client_messages as cm
from protocol import server_messages as sm

from .conftest import ServerFactory
from .harness import TWO_HANDS, WireClient, play_until

BURST = 5
PER_MINUTE = 1.0
# Tables in this process's memory: a waiting table leaves it when its last
# player does (it stays in the store), a game once started stays (paused
# while no person is there). The first floods hold at most 52 at once.
PROCESS_CAP = 100
BOTS = ("easy", "easy", "easy")


async def creations(client: WireClient, attempts: int, start: bool) -> list[str]:
    """Create tables one after another (and ``start`` each one's game);
    what each attempt got (``ok`` or the refusal's ``code/reason``). Each
    new table leaves the last one."""
    results = []
    for _ in range(attempts):
        reply = await client.request(
            cm.CreateTable(id=client.next_id(), seats=BOTS)  # type: ignore[arg-type]
        )
        if isinstance(reply, sm.Seated):
            if start:
                await client.call(cm.StartGame(id=client.next_id()))
            results.append("ok")
        else:
            assert isinstance(reply, sm.Error), reply
            assert reply.retry_after is not None and reply.retry_after > 0
            results.append(f"{reply.code}/{reply.reason}")
    return results


async def flood(
    url: str, addresses: list[str], per_address: int, attempts: int, start: bool = False
) -> Counter[str]:
    """``per_address`` connections from each address (each its own player),
    all creating at once: the results, counted per address as
    ``address ok`` and overall by refusal."""
    clients = await asyncio.gather(
        *(
            WireClient.open(url, f"F{n}", forwarded_for=address)
            for address in addresses
            for n in range(per_address)
        )
    )
    owners = [address for address in addresses for _ in range(per_address)]
    try:
        results = await asyncio.gather(*(creations(c, attempts, start) for c in clients))
    finally:
        await asyncio.gather(*(c.close() for c in clients))
    counted: Counter[str] = Counter()
    for address, got in zip(owners, results, strict=True):
        for result in got:
            counted[f"{address} {result}" if result == "ok" else result] += 1
    return counted


def accepted(counted: Counter[str], address: str) -> int:
    return counted[f"{address} ok"]


async def test_a_flood_keeps_to_the_budgets_and_running_games_go_on(
    make_server: ServerFactory,
) -> None:
    async with make_server(
        trusted_proxies=("127.0.0.1",),
        tables_burst_per_address=BURST,
        tables_per_minute_per_address=PER_MINUTE,
        max_tables_per_process=PROCESS_CAP,
    ) as server:
        url = server.url
        players = [
            await WireClient.open(url, "Ann", forwarded_for="198.51.100.1"),
            await WireClient.open(url, "Bob", forwarded_for="198.51.100.2"),
        ]
        for player in players:
            await player.create(seats=BOTS, rules=TWO_HANDS)
            await player.start()
        games = asyncio.gather(
            *(play_until(p, random.Random(n), timeout=300) for n, p in enumerate(players))
        )
        try:
            # 1. Many addresses, two connections each, creating at once.
            many = [f"10.1.0.{n}" for n in range(1, 26)]
            counted = await flood(url, many, per_address=2, attempts=4)
            # Over the burst only what refilled meanwhile (one a minute).
            assert all(BURST <= accepted(counted, a) <= BURST + 1 for a in many), counted
            assert counted["too_many_tables/address_budget"] >= 25 * (8 - BURST - 1)

            # 2. One address, thirty connections, a made-up player on each.
            one = "203.0.113.66"
            counted = await flood(url, [one], per_address=30, attempts=3)
            assert BURST <= accepted(counted, one) <= BURST + 1, counted
            assert counted["too_many_tables/address_budget"] >= 90 - BURST - 1

            # A newcomer from elsewhere is served.
            newcomer = await WireClient.open(url, "Eve", forwarded_for="198.51.100.3")
            await newcomer.create(seats=BOTS)
            await newcomer.close()

            # 3. More games started than the process has room for: at the
            # cap, everyone is told to come back later.
            more = [f"10.2.0.{n}" for n in range(1, 31)]
            counted = await flood(url, more, per_address=1, attempts=BURST, start=True)
            assert counted["server_full/process_tables"] > 0, counted
            assert len(server.lobby.actors) <= PROCESS_CAP

            views = await games
        except BaseException:
            games.cancel()
            raise
        finally:
            for player in players:
                await player.close()
        assert [v.status for v in views] == ["game_over", "game_over"]

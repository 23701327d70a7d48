"""Private tables stay private: invite codes cannot be brute-forced from one
address (reconnecting does not help), the invite link's holder sits at once,
a host can ask to approve who sits (knock, answer), and connections per
address are bounded. All through real connections."""

from __future__ import annotations

import asyncio
import random
import time

from websockets.asyncio.client import connect

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import PROTOCOL_VERSION
from server.lobby import CODE_ALPHABET
from server.store import MemoryStore

from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient


def _invite_of(seated: sm.Seated) -> str:
    path, _, fragment = seated.join_path.partition("#k=")
    assert path == f"/t/{seated.code}" and fragment
    return fragment


async def _guess_for(url: str, seconds: float, rng: random.Random) -> tuple[int, int, list[float]]:
    """One attacker connection after another (a fresh one every 10 guesses)
    trying random codes for ``seconds``: (answered, refused, retry_afters)."""
    answered = refused = 0
    retry_afters: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        client = await WireClient.open(url, "Guesser")
        for _ in range(10):
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(6))
            reply = await client.error(cm.JoinTable(id=client.next_id(), code=code))
            if reply.code == "rate_limited":
                refused += 1
                assert reply.retry_after is not None
                retry_afters.append(reply.retry_after)
            else:
                assert reply.code == "no_such_table"
                answered += 1
        await client.close()
    return answered, refused, retry_afters


async def test_guessing_codes_from_one_address_is_throttled_but_the_link_is_not(
    make_server: ServerFactory,
) -> None:
    async with make_server() as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        rng = random.Random(7)
        # Eight attackers from one address, reconnecting all the time.
        results = await asyncio.gather(*(_guess_for(server.url, 3.0, rng) for _ in range(8)))
        answered = sum(r[0] for r in results)
        refused = sum(r[1] for r in results)
        # 5 free misses, then waits of 1, 2, 4 s: a handful of answers in 3 s,
        # however many connections ask.
        assert answered <= 8, answered
        assert refused > 100
        assert all(0 < wait <= 300 for r in results for wait in r[2])

        # While the address waits, even the right code is refused...
        friend = await WireClient.open(server.url, "Friend")
        # Until the address waits long enough for the steps below: the
        # attackers' last wait may be nearly over (a loaded machine used up
        # the rest before the link was tried); once it has run out, the next
        # miss doubles the wait. So a short wait is waited out (the server
        # says how long) rather than asked about again and again: a client
        # that repeats a refused request without pause is closed as a flood.
        while True:
            reply = await friend.error(cm.JoinTable(id=friend.next_id(), code="ZZZZZZ"))
            if reply.code == "rate_limited" and (reply.retry_after or 0) >= 5:
                break
            if reply.code == "rate_limited" and reply.retry_after:
                await asyncio.sleep(reply.retry_after)
        err = await friend.error(cm.JoinTable(id=friend.next_id(), code=seated.code))
        assert err.code == "rate_limited" and err.retry_after and err.retry_after > 0
        # ...but the invite link's holder sits at once: its one request is
        # answered with a seat while the address still has to wait (the
        # secret let it through, not the wait running out).
        joined = await friend.join_with(seated.code, _invite_of(seated))
        assert joined.seat == 1
        assert server.lobby.guard.lookup_wait("127.0.0.1") > 0
        metrics = server.lobby.metrics
        assert metrics is not None
        text = metrics.render().decode()
        assert 'hearts_code_lookups_total{result="refused"}' in text
        assert 'hearts_code_lookups_total{result="missed_code"}' in text
        for c in (host, friend):
            await c.close()


class GatedLookups(MemoryStore):
    """A store whose code lookups take as long as the test says (like a
    disk or a network round trip): each waits at ``gate``; ``arrived``
    counts those that got there."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.arrived = 0

    async def table_id_for_code(self, code: str) -> str | None:
        """Wait at the gate, then look the code up."""
        self.arrived += 1
        await self.gate.wait()
        return await super().table_id_for_code(code)


async def test_lookups_in_flight_at_once_get_no_more_answers_than_the_budget(
    make_server: ServerFactory,
) -> None:
    """Twenty connections of one address each send a wrong code at the same
    moment, while the store takes its time: no more of them reach the store
    (and are answered) than the address's free misses; the others are told
    to wait. Were the budget checked only before the lookup and charged
    after it, every lookup in flight would pass the check."""
    store = GatedLookups()
    async with make_server(store=store, free_code_misses=3) as server:
        clients = [await WireClient.open(server.url, f"G{i}") for i in range(20)]
        asks = [
            asyncio.create_task(c.error(cm.JoinTable(id=c.next_id(), code="ZZZZZZ")))
            for c in clients
        ]

        async def all_refused_or_at_the_gate() -> None:
            while sum(t.done() for t in asks) + store.arrived < len(asks):
                await asyncio.sleep(0.01)

        await asyncio.wait_for(all_refused_or_at_the_gate(), 10)
        store.gate.set()
        replies = await asyncio.wait_for(asyncio.gather(*asks), 10)
        answered = [r for r in replies if r.code == "no_such_table"]
        refused = [r for r in replies if r.code == "rate_limited"]
        assert len(answered) == store.arrived == 3
        assert len(refused) == 17 and all(r.retry_after for r in refused)
        for c in clients:
            await c.close()


async def test_a_wrong_invite_link_is_refused_and_counted(make_server: ServerFactory) -> None:
    async with make_server(free_code_misses=1) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        stranger = await WireClient.open(server.url, "Stranger")
        forged = f"{seated.table_id}.not-the-secret"
        err = await stranger.error(
            cm.JoinTable(id=stranger.next_id(), code=seated.code, invite=forged)
        )
        assert err.code == "no_such_table"
        assert host.view.seats[1].kind == "open"
        # One miss was free; the second wrong link makes the address wait.
        await stranger.error(cm.JoinTable(id=stranger.next_id(), code=seated.code, invite="x.y"))
        err = await stranger.error(cm.JoinTable(id=stranger.next_id(), code=seated.code))
        assert err.code == "rate_limited"
        for c in (host, stranger):
            await c.close()


async def test_a_stranger_with_only_the_code_knocks_and_the_host_decides(
    make_server: ServerFactory,
) -> None:
    async with make_server() as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.call(
            cm.CreateTable(
                id=host.next_id(), seats=("open", "open", "easy"), rules=SHORT_RULES, approval=True
            )
        )
        assert (await host.snapshot_where(lambda v: v.approval)).knocks == ()
        friend = await WireClient.open(server.url, "Friend")
        assert (await friend.join_with(seated.code, _invite_of(seated))).seat == 1

        stranger = await WireClient.open(server.url, "Stranger")
        err = await stranger.error(cm.JoinTable(id=stranger.next_id(), code=seated.code))
        assert err.code == "knock_required"
        err = await stranger.error(cm.Watch(id=stranger.next_id(), code=seated.code))
        assert err.code == "knock_required"
        await stranger.call(cm.Knock(id=stranger.next_id(), code=seated.code))
        view = await host.snapshot_where(lambda v: len(v.knocks) == 1)
        knocker = view.knocks[0]
        assert knocker.name == "Stranger"
        # Only the host sees who knocks.
        assert all(m.view.knocks == () for m in friend.messages if isinstance(m, sm.Snapshot))
        err = await friend.error(
            cm.AnswerKnock(id=friend.next_id(), player_id=knocker.player_id, accept=True)
        )
        assert err.code == "not_allowed"

        await host.call(
            cm.AnswerKnock(id=host.next_id(), player_id=knocker.player_id, accept=False)
        )
        _, answer = await stranger.wait_for(lambda m: isinstance(m, sm.KnockAnswered))
        assert not answer.accepted
        await host.snapshot_where(lambda v: v.knocks == ())
        err = await stranger.error(cm.JoinTable(id=stranger.next_id(), code=seated.code))
        assert err.code == "knock_required"

        mark = len(stranger.frames)
        await stranger.call(cm.Knock(id=stranger.next_id(), code=seated.code))
        await host.snapshot_where(lambda v: len(v.knocks) == 1)
        await host.call(cm.AnswerKnock(id=host.next_id(), player_id=knocker.player_id, accept=True))
        _, answer = await stranger.wait_for(lambda m: isinstance(m, sm.KnockAnswered), start=mark)
        assert answer.accepted and answer.code == seated.code
        assert (await stranger.join(seated.code)).seat == 2
        for c in (host, friend, stranger):
            await c.close()


async def test_connections_per_address_are_bounded(make_server: ServerFactory) -> None:
    async with make_server(max_connections_per_address=3) as server:
        clients = [await WireClient.open(server.url, f"C{i}") for i in range(3)]
        async with connect(server.url) as extra:
            # The server hangs up at once, before any frame.
            await asyncio.wait_for(extra.wait_closed(), 10)
            assert extra.close_code == 1008
            assert extra.close_reason == "too many connections from your address"
        await clients[0].close()
        again = await WireClient.open(server.url, "Again")  # a slot is free again
        for c in (*clients[1:], again):
            await c.close()


async def test_forwarded_addresses_have_their_own_budgets_only_behind_trusted_proxies(
    make_server: ServerFactory,
) -> None:
    async def misses_until_refused(url: str, forwarded: str) -> int:
        async with connect(url, additional_headers={"X-Forwarded-For": forwarded}) as ws:
            client = WireClient(ws, "G")
            client._reader = asyncio.create_task(client._read())
            await client.call(cm.Hello(id=client.next_id(), version=PROTOCOL_VERSION, name="G"))
            for n in range(1, 20):
                reply = await client.error(cm.JoinTable(id=client.next_id(), code="ZZZZZZ"))
                if reply.code == "rate_limited":
                    return n
        raise AssertionError("never throttled")

    async with make_server(free_code_misses=2, trusted_proxies=("127.0.0.1",)) as server:
        # Behind a trusted proxy, each forwarded client has its own budget.
        assert await misses_until_refused(server.url, "198.51.100.1") == 4
        assert await misses_until_refused(server.url, "198.51.100.2") == 4
        # Two addresses of one IPv6 /64 are one client: one budget.
        assert await misses_until_refused(server.url, "2001:db8:0:7::1") == 4
        assert await misses_until_refused(server.url, "2001:db8:0:7::2") == 1
    async with make_server(free_code_misses=2) as server:
        # Not trusted: the header is ignored, the peer's budget is shared.
        assert await misses_until_refused(server.url, "198.51.100.1") == 4
        assert await misses_until_refused(server.url, "198.51.100.2") == 1


async def test_a_knock_waits_for_a_host_who_is_away(make_server: ServerFactory) -> None:
    """The host drops; a stranger knocks at the empty table (which may leave
    memory meanwhile); the host comes back, sees the knock and lets them in.
    Knocking again once let in is answered at once."""
    async with make_server() as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.call(
            cm.CreateTable(
                id=host.next_id(), seats=("open", "easy", "easy"), rules=SHORT_RULES, approval=True
            )
        )
        await host.close()
        stranger = await WireClient.open(server.url, "Stranger")
        await stranger.call(cm.Knock(id=stranger.next_id(), code=seated.code))
        back = await WireClient.open(server.url, "Host", player_token=host.player_token)
        await back.call(
            cm.Resume(id=back.next_id(), table_id=seated.table_id, seat_token=seated.seat_token)
        )
        view = await back.snapshot_where(lambda v: len(v.knocks) == 1)
        await back.call(
            cm.AnswerKnock(id=back.next_id(), player_id=view.knocks[0].player_id, accept=True)
        )
        await back.snapshot_where(lambda v: v.knocks == ())
        mark = len(stranger.frames)
        await stranger.call(cm.Knock(id=stranger.next_id(), code=seated.code))
        _, answer = await stranger.wait_for(lambda m: isinstance(m, sm.KnockAnswered), start=mark)
        assert answer.accepted
        assert (await stranger.join(seated.code)).seat == 1
        for c in (back, stranger):
            await c.close()

"""``ClientSession`` against a real in-process server: the session file,
resuming a saved seat (a refused resume leaves the file as it was), a seat
the host took away, refusals, rate-limit retries, a request sent while the
connection drops, and several server URLs."""

from __future__ import annotations

import asyncio
import json
import stat
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import msgpack
import pytest
from pydantic import BaseModel

from client.session import ClientSession, Reconnected, RequestFailed
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.bot_runner import BotRunner, Decided, decide_in_worker
from server.config import ServerConfig

from .proxy import Proxy

TIMEOUT = 20.0


class ThreadBots(BotRunner):
    """The server's bots deciding in a thread (no worker processes)."""

    async def decide(self, view: SeatView, level: str, seed: int, table: str = "") -> Decided:
        """The bot's move."""
        return await asyncio.to_thread(decide_in_worker, view, level, seed, self.budget_ms)


@asynccontextmanager
async def running(**settings: Any) -> AsyncIterator[RunningServer]:
    """A server on a free port with ``settings`` over the test defaults."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1, grace_seconds=30, **settings)
    server = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    """A server with the test defaults."""
    async with running() as server:
        yield server


@asynccontextmanager
async def session_at(url: str, path: Path | None = None, **kw: Any) -> AsyncIterator[ClientSession]:
    """A connected session, closed at the end."""
    session = ClientSession(url, "Sam", session_file=path, max_backoff=0.2, **kw)
    await session.connect()
    try:
        yield session
    finally:
        await session.close()


async def next_event(session: ClientSession, pred: Callable[[BaseModel], bool]) -> BaseModel:
    """The next event (or snapshot) matching ``pred``."""

    async def scan() -> BaseModel:
        async for msg in session.events():
            if pred(msg):
                return msg
        raise AssertionError("the session closed")

    return await asyncio.wait_for(scan(), TIMEOUT)


async def test_saved_seat_is_resumed_by_a_new_session(
    server: RunningServer, tmp_path: Path
) -> None:
    """The session file keeps the player and seat tokens (privately); a new
    session on the same file is the same player and resumes the seat."""
    path = tmp_path / "session.json"
    async with session_at(server.url, path) as first:
        seated = await first.request(cm.CreateTable(id=first.next_id()))
        assert isinstance(seated, sm.Seated)
        ids = {first.next_id() for _ in range(50)}
        assert len(ids) == 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    saved = json.loads(path.read_text())
    assert saved["table_id"] == seated.table_id and saved["seat_token"] == seated.seat_token
    assert saved["player_token"]

    async with session_at(server.url, path) as second:
        assert second.player_id == first.player_id
        assert (second.table_id, second.seat) == (seated.table_id, 0)
        snap = await next_event(second, lambda m: isinstance(m, sm.Snapshot))
        assert isinstance(snap, sm.Snapshot)
        assert snap.view.seat == 0 and snap.view.seats[0].connected
        assert not {first.next_id()} & {second.next_id()}  # ids never repeat across sessions


async def test_refusals_raise_request_failed(server: RunningServer) -> None:
    """An ``error`` reply becomes ``RequestFailed`` with the server's code."""
    async with session_at(server.url) as session:
        with pytest.raises(RequestFailed) as info:
            await session.request(cm.JoinTable(id=session.next_id(), code="QQQQQQ"))
        assert info.value.code == "no_such_table"
        assert "QQQQQQ" in info.value.message


async def test_a_refused_resume_leaves_the_session_file_as_it_was(
    server: RunningServer, tmp_path: Path
) -> None:
    """A saved seat this server does not know (it was on another one):
    ``connect`` raises the refusal, and the file keeps the seat, its tokens,
    the name and the server byte for byte."""
    path = tmp_path / "session.json"
    path.write_text(
        json.dumps(
            {
                "server": "ws://elsewhere.example:8765/ws",
                "name": "Alice",
                "player_token": "p" * 32,
                "table_id": "0" * 16,
                "code": "ABCDEF",
                "seat": 2,
                "seat_token": "x" * 32,
                "last_seq": 7,
            }
        )
    )
    before = path.read_bytes()
    session = ClientSession(server.url, "Sam", session_file=path, max_backoff=0.2)
    with pytest.raises(RequestFailed) as info:
        await asyncio.wait_for(session.connect(), TIMEOUT)
    await session.close()
    assert info.value.code == "no_such_table"
    assert path.read_bytes() == before


async def test_a_resumed_seat_is_saved_with_the_server_and_name_it_was_resumed_with(
    server: RunningServer, tmp_path: Path
) -> None:
    """Once the server takes the seat back, the file follows this session."""
    path = tmp_path / "session.json"
    async with session_at(server.url, path) as first:
        seated = await first.request(cm.CreateTable(id=first.next_id()))
        assert isinstance(seated, sm.Seated)
    saved = json.loads(path.read_text())
    saved["server"], saved["name"] = "ws://old.example/ws", "Old name"
    path.write_text(json.dumps(saved))
    second = ClientSession(server.url, "Sam", session_file=path)
    await asyncio.wait_for(second.connect(), TIMEOUT)
    try:
        again = json.loads(path.read_text())
        assert (again["server"], again["name"]) == (server.url, "Sam")
        assert again["seat_token"] == seated.seat_token and again["table_id"] == seated.table_id
    finally:
        await second.close()


async def test_a_player_removed_by_the_host_forgets_the_seat_and_never_resumes_it(
    server: RunningServer, tmp_path: Path
) -> None:
    """``kicked`` reaches the removed player's event stream; the seat is
    dropped from the file; after a drop the session does not try to resume
    it; the table refuses them (``kicked``) until the host allows them back."""
    path = tmp_path / "session.json"
    async with session_at(server.url) as host, session_at(server.url, path) as guest:
        created = await host.request(cm.CreateTable(id=host.next_id()))
        assert isinstance(created, sm.Seated)
        joined = await guest.request(cm.JoinTable(id=guest.next_id(), code=created.code))
        assert isinstance(joined, sm.Seated) and joined.seat == 1
        await host.request(cm.Kick(id=host.next_id(), seat=1))
        kicked = await next_event(guest, lambda m: isinstance(m, sm.Kicked))
        assert isinstance(kicked, sm.Kicked) and kicked.table_id == created.table_id
        assert guest.table_id is None and guest.saved.seat_token is None
        saved = json.loads(path.read_text())
        assert saved["table_id"] is None and saved["seat_token"] is None
        assert saved["player_token"]  # still the same player

        for conn in list(server.ws_server.connections):
            if conn.remote_address != host._ws.local_address:  # type: ignore[union-attr]
                conn.transport.abort()
        await next_event(guest, lambda m: isinstance(m, Reconnected))
        # Not back at the table: a table request has no table to go to.
        with pytest.raises(RequestFailed) as info:
            await guest.request(cm.Chat(id=guest.next_id(), text="still here?"))
        assert info.value.code == "not_allowed"
        for again in (cm.JoinTable, cm.Watch):
            with pytest.raises(RequestFailed) as info:
                await guest.request(again(id=guest.next_id(), code=created.code))
            assert info.value.code == "kicked"

        shown = await next_event(host, lambda m: isinstance(m, sm.Snapshot) and m.view.kicked)
        assert isinstance(shown, sm.Snapshot)
        (removed,) = shown.view.kicked
        # The name the seat had: the host is a Sam too, so the guest sat as "Sam 2".
        assert removed.name == "Sam 2"
        await host.request(cm.AllowBack(id=host.next_id(), player_id=removed.player_id))
        back = await guest.request(cm.JoinTable(id=guest.next_id(), code=created.code))
        assert isinstance(back, sm.Seated) and back.seat is not None
        assert json.loads(path.read_text())["seat_token"] == back.seat_token


async def test_rate_limited_requests_are_retried() -> None:
    """Over the server's rate, requests are answered ``rate_limited`` and the
    session sends them again (same id) until they pass."""
    async with (
        running(rate_per_second=10.0, rate_burst=3.0, max_strikes=1000) as server,
        session_at(server.url) as session,
    ):
        replies = [await session.request(cm.Ping(id=session.next_id())) for _ in range(12)]
        assert all(isinstance(r, sm.Ok) for r in replies)


async def test_a_long_retry_after_holds_only_its_own_request() -> None:
    """An address that must wait after a wrong invite code gets
    ``rate_limited`` with a retry_after of about a second for its next
    lookup: the session fails the lookup at once when that is beyond its
    timeout, or waits it out and sends it again, while its other requests
    go on unheld."""
    async with running(free_code_misses=0) as server, session_at(server.url) as session:
        loop = asyncio.get_running_loop()
        with pytest.raises(RequestFailed) as missed:
            await session.request(cm.JoinTable(id=session.next_id(), code="QQQQQQ"))
        assert missed.value.code == "no_such_table"  # the address now waits 1 s
        with pytest.raises(RequestFailed) as hurried:
            await session.request(cm.JoinTable(id=session.next_id(), code="QQQQQQ"), timeout=0.5)
        # Refused with the server's answer (a wait beyond the timeout), not
        # a timeout of its own, and asked of the server once, not resent.
        assert hurried.value.code == "rate_limited"
        registry = server.lobby.metrics.registry if server.lobby.metrics else None
        assert registry is not None
        assert registry.get_sample_value("hearts_code_lookups_total", {"result": "refused"}) == 1
        started = loop.time()
        lookup = asyncio.create_task(
            session.request(cm.JoinTable(id=session.next_id(), code="QQQQQQ"))
        )
        # The lookup is refused (its wait is ~1 s) before the ping goes.
        while registry.get_sample_value("hearts_code_lookups_total", {"result": "refused"}) != 2:
            assert loop.time() - started < TIMEOUT
            await asyncio.sleep(0.01)  # polling a counter the server changes
        assert isinstance(await session.request(cm.Ping(id=session.next_id())), sm.Ok)
        assert not lookup.done()  # the ping did not wait for the lookup
        with pytest.raises(RequestFailed) as patient:
            await asyncio.wait_for(lookup, TIMEOUT)
        # Sent again once the wait was over: the lookup ran and named no table.
        assert patient.value.code == "no_such_table"
        assert loop.time() - started >= 0.5


async def test_a_request_sent_as_the_connection_drops_is_applied_once(
    server: RunningServer,
) -> None:
    """The socket is cut just as a chat line is sent: the session reconnects,
    resumes and resends the line under its id; it reaches the table once."""
    async with session_at(server.url) as session:
        seated = await session.request(cm.CreateTable(id=session.next_id()))
        assert isinstance(seated, sm.Seated)
        for conn in list(server.ws_server.connections):
            conn.transport.abort()
        reply = await asyncio.wait_for(
            session.request(cm.Chat(id=session.next_id(), text="still here")), TIMEOUT
        )
        assert isinstance(reply, sm.Ok)
        await next_event(session, lambda m: isinstance(m, Reconnected))
        await next_event(session, lambda m: isinstance(m, sm.ChatMessage))
        # Both sends (if the first got through) were handled before the ok.
        log = await server.store.events_since(seated.table_id, 0)
        assert log is not None
        chats = [e for e in log if json.loads(e.body)["type"] == "chat_message"]
        assert len(chats) == 1
        assert server.lobby.actors[seated.table_id].state.seats[0].connected


async def test_the_next_server_is_tried_when_the_first_is_down(server: RunningServer) -> None:
    """With several URLs, ``connect`` uses the first one that answers."""
    dead = "ws://127.0.0.1:9/ws"
    async with session_at(f"{dead},{server.url}") as session:
        assert session.url == server.url
        assert isinstance(await session.request(cm.Ping(id=session.next_id())), sm.Ok)


async def test_a_spectator_watches_again_after_a_drop_and_never_resumes_an_old_seat(
    server: RunningServer, tmp_path: Path
) -> None:
    """A session that held a seat and then watches another table forgets the
    old seat token; after a drop it watches that table again (a fresh
    snapshot of it, as a spectator) instead of resuming the old seat."""
    path = tmp_path / "session.json"
    async with session_at(server.url) as host:
        watched = await host.request(cm.CreateTable(id=host.next_id()))
        assert isinstance(watched, sm.Seated)
        async with session_at(server.url, path) as session:
            old = await session.request(cm.CreateTable(id=session.next_id()))
            assert isinstance(old, sm.Seated) and session.saved.seat_token
            reply = await session.request(cm.Watch(id=session.next_id(), code=watched.code))
            assert isinstance(reply, sm.Seated) and reply.seat is None
            saved = json.loads(path.read_text())
            assert saved["seat_token"] is None and saved["watching"] is True
            assert saved["table_id"] == watched.table_id
            for conn in list(server.ws_server.connections):
                if conn.request is not None and conn.remote_address != host._ws.local_address:  # type: ignore[union-attr]
                    conn.transport.abort()
            await next_event(session, lambda m: isinstance(m, Reconnected))
            snap = await next_event(session, lambda m: isinstance(m, sm.Snapshot))
            assert isinstance(snap, sm.Snapshot)
            assert snap.view.table_id == watched.table_id and snap.view.seat is None
            # Requests still get their own replies (the rejoin is not one of them).
            assert isinstance(await session.request(cm.Ping(id=session.next_id())), sm.Ok)


async def test_joining_elsewhere_keeps_the_saved_seat_until_a_new_one_is_granted(
    server: RunningServer, tmp_path: Path
) -> None:
    """A session that does not resume the saved seat (``hearts host``/``join``)
    writes nothing while joins are refused or the player only watches; the
    ``seated`` reply of a new seat replaces the saved one."""
    path = tmp_path / "session.json"
    async with session_at(server.url, path) as first:
        old = await first.request(cm.CreateTable(id=first.next_id()))
        assert isinstance(old, sm.Seated)
    before = path.read_bytes()
    async with session_at(server.url) as host:
        other = await host.request(cm.CreateTable(id=host.next_id()))
        assert isinstance(other, sm.Seated)
        async with session_at(server.url, path, resume_saved=False) as session:
            assert session.table_id is None  # the saved seat is not resumed
            with pytest.raises(RequestFailed) as info:
                await session.request_once(cm.JoinTable(id=session.next_id(), code="QQQQQQ"))
            assert info.value.code == "no_such_table"
            watched = await session.request_once(cm.Watch(id=session.next_id(), code=other.code))
            assert isinstance(watched, sm.Seated) and watched.seat is None
            assert path.read_bytes() == before
            joined = await session.request_once(cm.JoinTable(id=session.next_id(), code=other.code))
            assert isinstance(joined, sm.Seated) and joined.seat == 1
            saved = json.loads(path.read_text())
            assert (saved["table_id"], saved["seat"]) == (other.table_id, 1)
            assert saved["seat_token"] == joined.seat_token != old.seat_token


async def test_lookups_sent_once_still_wait_out_the_connections_own_budget() -> None:
    """``request_once`` raises an address's wait for its lookups, but over
    the connection's request budget (a wait of a tenth of a second or less)
    it waits its turn and sends again, like any request."""
    async with (
        running(rate_per_second=20.0, rate_burst=3.0, max_strikes=1000) as server,
        session_at(server.url) as host,
        session_at(server.url) as session,
    ):
        created = await host.request(cm.CreateTable(id=host.next_id()))
        assert isinstance(created, sm.Seated)
        replies = [
            await session.request_once(cm.Watch(id=session.next_id(), code=created.code))
            for _ in range(8)
        ]
        assert all(isinstance(r, sm.Seated) and r.seat is None for r in replies)


def refused_lookups(server: RunningServer) -> float:
    """How many lookups by code the server refused (its own counter)."""
    metrics = server.lobby.metrics
    assert metrics is not None
    for line in metrics.render().decode().splitlines():
        if line.startswith('hearts_code_lookups_total{result="refused"}'):
            return float(line.split()[-1])
    return 0.0


async def test_a_throttled_lookup_is_refused_once_with_the_wait_not_retried() -> None:
    """Past the free wrong codes the server refuses every lookup by code
    with ``retry_after``: ``request_once`` raises it at once (one refusal
    counted by the server), where retrying would only prolong the wait."""
    async with running(free_code_misses=1) as server, session_at(server.url) as session:
        for _ in range(2):
            with pytest.raises(RequestFailed) as info:
                await session.request_once(cm.JoinTable(id=session.next_id(), code="QQQQQQ"))
            assert info.value.code == "no_such_table"
        before = refused_lookups(server)
        with pytest.raises(RequestFailed) as info:
            await session.request_once(cm.Watch(id=session.next_id(), code="QQQQQQ"))
        assert info.value.code == "rate_limited"
        assert info.value.retry_after is not None and 0 < info.value.retry_after <= 1
        assert refused_lookups(server) == before + 1


async def approval_table(host: ClientSession) -> sm.Seated:
    """A new table of ``host`` that asks before someone sits."""
    created = await host.request(
        cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"), approval=True)
    )
    assert isinstance(created, sm.Seated)
    return created


async def knock_required(session: ClientSession, code: str) -> None:
    """The code alone is refused at that table: knock first."""
    with pytest.raises(RequestFailed) as info:
        await session.request_once(cm.JoinTable(id=session.next_id(), code=code))
    assert info.value.code == "knock_required"


async def test_an_answer_given_while_the_connection_was_down_is_heard_after_it(
    server: RunningServer,
) -> None:
    """The host lets the knocker in while its connection is down (the
    answer goes nowhere): back, the session knocks again and the server
    answers at once."""
    proxy = Proxy(server.port)
    await proxy.start()
    try:
        async with session_at(server.url) as host, session_at(proxy.url) as guest:
            created = await approval_table(host)
            guest.knock_again_every = 3600.0  # only the reconnect knocks again here
            await knock_required(guest, created.code)
            knocking = asyncio.create_task(guest.knock(created.code.lower()))
            snap = await next_event(
                host, lambda m: isinstance(m, sm.Snapshot) and bool(m.view.knocks)
            )
            assert isinstance(snap, sm.Snapshot)
            knocker = snap.view.knocks[0]
            assert knocker.player_id == guest.player_id
            proxy.refuse()
            assert host._ws is not None
            for conn in list(server.ws_server.connections):
                if conn.remote_address != host._ws.local_address:
                    conn.transport.abort()  # the guest's, through the proxy
            await host.request(
                cm.AnswerKnock(id=host.next_id(), player_id=knocker.player_id, accept=True)
            )
            assert not knocking.done()
            proxy.allow()
            answer = await asyncio.wait_for(knocking, TIMEOUT)
            assert answer.accepted and answer.code == created.code
            joined = await guest.request_once(cm.JoinTable(id=guest.next_id(), code=created.code))
            assert isinstance(joined, sm.Seated) and joined.seat == 1
    finally:
        await proxy.close()


async def test_a_knocker_hears_a_host_who_came_back_to_a_table_put_away(
    server: RunningServer, tmp_path: Path
) -> None:
    """The host leaves: nobody watches, so the table leaves memory (with
    whom to tell the answer), its knock kept in the store. Back, the host
    lets the knocker in; knocking again now and then, the session hears."""
    path = tmp_path / "host.json"
    async with session_at(server.url, path) as host:
        created = await approval_table(host)
    async with session_at(server.url) as guest:
        guest.knock_again_every = 0.2
        await knock_required(guest, created.code)
        knocking = asyncio.create_task(guest.knock(created.code))
        async with session_at(server.url, path) as back:  # resumes the saved seat
            snap = await next_event(
                back, lambda m: isinstance(m, sm.Snapshot) and bool(m.view.knocks)
            )
            assert isinstance(snap, sm.Snapshot)
            player = snap.view.knocks[0].player_id
            await back.request(cm.AnswerKnock(id=back.next_id(), player_id=player, accept=True))
            answer = await asyncio.wait_for(knocking, TIMEOUT)
            assert answer.accepted


async def test_a_message_type_from_a_newer_server_is_skipped(server: RunningServer) -> None:
    """The compatibility rule: a type the client does not know (a newer
    server's) is ignored; the session reads on and answers still come."""
    async with session_at(server.url) as session:
        for conn in list(server.ws_server.connections):
            await conn.send(msgpack.packb({"type": "sent_by_a_newer_server", "text": "hi"}))
        pong = await session.request(cm.Ping(id=session.next_id()))
        assert isinstance(pong, sm.Ok) and session.connected.is_set()

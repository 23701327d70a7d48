"""A raw WebSocket test client and a move chooser for the server tests.

``WireClient`` speaks the protocol over a plain ``websockets`` connection and
keeps every frame it receives (the raw bytes and the decoded message), so
tests can both drive a seat and audit what the seat was sent. Nothing here
sleeps to synchronise: waiting is always for a message, with a timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client.autoplay import needs_move
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_server, encode
from protocol.common import PROTOCOL_VERSION, RulesModel
from protocol.exchanges import REPLY_TYPES
from protocol.view import SeatView

if TYPE_CHECKING:
    from client.session import ClientSession

TIMEOUT = 20.0
# Request ids are unique across every client of the test run: the server
# answers a repeated (type, id) of a seat without applying it, also when the
# repeat comes over a new connection (that is how a resend after a drop works).
_IDS = itertools.count(1)
SHORT_RULES = RulesModel(end="hands", end_at=1)
TWO_HANDS = RulesModel(end="hands", end_at=2)


@dataclass
class Received:
    """One frame a client received: raw bytes and the decoded message."""

    raw: bytes
    msg: Any


@dataclass
class WireClient:
    """A protocol client on a raw WebSocket that records every frame."""

    ws: ClientConnection
    name: str = "P"
    frames: list[Received] = field(default_factory=list)
    # Every frame this client sent, in order (the wire's other direction).
    sent: list[bytes | str] = field(default_factory=list)
    player_token: str = ""
    seat_token: str = ""
    table_id: str = ""
    code: str = ""
    seat: int | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _reader: asyncio.Task[None] | None = None
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    close_code: int | None = None

    # -- connecting ----------------------------------------------------------

    @classmethod
    async def open(
        cls,
        url: str,
        name: str = "P",
        hello: bool = True,
        player_token: str | None = None,
        max_size: int | None = 4 * 1024 * 1024,
        keepalive: bool = True,
        program: bool = False,
        forwarded_for: str | None = None,
    ) -> WireClient:
        """Connect (and say hello unless ``hello`` is false; ``program``: as
        a program, not a person). Without ``keepalive`` the client sends no
        pings of its own (a client that stops reading would otherwise time
        out its own connection). ``forwarded_for`` is sent as
        ``X-Forwarded-For``, as a proxy would (believed by a server that
        trusts 127.0.0.1 as its proxy)."""
        headers = {"X-Forwarded-For": forwarded_for} if forwarded_for is not None else None
        ws = await connect(
            url,
            max_size=max_size,
            open_timeout=10,
            ping_interval=20 if keepalive else None,
            additional_headers=headers,
        )
        client = cls(ws, name)
        client._reader = asyncio.create_task(client._read())
        if hello:
            welcome = await client.call(
                cm.Hello(
                    id=client.next_id(),
                    version=PROTOCOL_VERSION,
                    name=name,
                    player_token=player_token,
                    program=program,
                )
            )
            assert isinstance(welcome, sm.Welcome)
            client.player_token = welcome.player_token
        return client

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                assert isinstance(frame, bytes), "the server sends binary frames only"
                self.frames.append(Received(frame, decode_server(frame)))
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            rcvd = self.ws.protocol.close_rcvd
            self.close_code = rcvd.code if rcvd is not None else None
            self.closed.set()
            self._changed.set()

    async def close(self) -> None:
        """Close the socket and stop reading."""
        await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self._reader, TIMEOUT)

    def stop_reading(self) -> None:
        """Read nothing more from the socket (a stalled client): what the
        server sends piles up in the kernel's buffers, then in its own."""
        self.ws.transport.pause_reading()

    async def drop(self) -> None:
        """Cut the TCP connection without a closing handshake (a network drop)."""
        transport = self.ws.transport
        transport.abort()
        await asyncio.wait_for(self.closed.wait(), TIMEOUT)

    # -- messages --------------------------------------------------------------

    def next_id(self) -> int:
        """A request id never used before in this test run."""
        return next(_IDS)

    @property
    def messages(self) -> list[Any]:
        """Every decoded message so far."""
        return [f.msg for f in self.frames]

    async def send(self, message: BaseModel) -> None:
        """Send a message without waiting for anything."""
        await self.send_raw(encode(message))

    async def send_raw(self, data: bytes | str) -> None:
        """Send an arbitrary frame."""
        self.sent.append(data)
        await self.ws.send(data)

    async def wait_for(
        self,
        pred: Callable[[Any], bool],
        start: int = 0,
        timeout: float = TIMEOUT,
    ) -> tuple[int, Any]:
        """The first message at index >= ``start`` matching ``pred`` (and its
        index), waiting for it to arrive."""

        async def scan() -> tuple[int, Any]:
            i = start
            while True:
                while i < len(self.frames):
                    msg = self.frames[i].msg
                    if pred(msg):
                        return i, msg
                    i += 1
                if self.closed.is_set():
                    raise ConnectionError(f"{self.name}: closed while waiting")
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(scan(), timeout)

    async def reply_to(self, rid: int | str | None, start: int = 0) -> Any:
        """The reply carrying request id ``rid``."""
        _, msg = await self.wait_for(
            lambda m: isinstance(m, REPLY_TYPES) and m.id == rid, start=start
        )
        return msg

    async def request(self, message: cm.Request) -> Any:
        """Send a request and return its reply (``error`` included)."""
        start = len(self.frames)
        await self.send(message)
        return await self.reply_to(message.id, start)

    async def call(self, message: cm.Request) -> Any:
        """Send a request; fail the test on an ``error`` reply."""
        reply = await self.request(message)
        assert not isinstance(reply, sm.Error), f"{message.type} refused: {reply}"
        if isinstance(reply, sm.Seated):
            self.table_id, self.code, self.seat = reply.table_id, reply.code, reply.seat
            if reply.seat_token:
                self.seat_token = reply.seat_token
        return reply

    async def error(self, message: cm.Request) -> sm.Error:
        """Send a request that must be refused; return the error."""
        reply = await self.request(message)
        assert isinstance(reply, sm.Error), f"{message.type} was accepted: {reply}"
        return reply

    # -- views ---------------------------------------------------------------

    @property
    def view(self) -> SeatView:
        """The latest snapshot's view."""
        for f in reversed(self.frames):
            if isinstance(f.msg, sm.Snapshot):
                return f.msg.view
        raise AssertionError(f"{self.name} has no snapshot yet")

    @property
    def seq(self) -> int:
        """The latest snapshot's seq (0 before any)."""
        for f in reversed(self.frames):
            if isinstance(f.msg, sm.Snapshot):
                return f.msg.seq
        return 0

    async def snapshot_where(
        self, pred: Callable[[SeatView], bool], start: int = 0, timeout: float = TIMEOUT
    ) -> SeatView:
        """The first snapshot at index >= ``start`` whose view matches ``pred``."""
        _, msg = await self.wait_for(
            lambda m: isinstance(m, sm.Snapshot) and pred(m.view), start=start, timeout=timeout
        )
        return msg.view  # type: ignore[no-any-return]

    # -- tables ----------------------------------------------------------------

    async def create(
        self,
        seats: tuple[str, ...] = ("open", "open", "open"),
        rules: RulesModel = SHORT_RULES,
        public: bool = False,
        name: str = "",
    ) -> sm.Seated:
        """Create a table and sit as its host."""
        reply = await self.call(
            cm.CreateTable(
                id=self.next_id(),
                seats=seats,  # type: ignore[arg-type]
                rules=rules,
                public=public,
                name=name,
            )
        )
        assert isinstance(reply, sm.Seated)
        return reply

    async def join(self, code: str, seat: int | None = None) -> sm.Seated:
        """Join a table by invite code."""
        reply = await self.call(cm.JoinTable(id=self.next_id(), code=code, seat=seat))
        assert isinstance(reply, sm.Seated)
        return reply

    async def join_with(self, code: str, invite: str, seat: int | None = None) -> sm.Seated:
        """Join with an invite link's secret (``/t/CODE#k=INVITE``)."""
        reply = await self.call(
            cm.JoinTable(id=self.next_id(), code=code, seat=seat, invite=invite)
        )
        assert isinstance(reply, sm.Seated)
        return reply

    async def start(self) -> None:
        """Host: start the game."""
        await self.call(cm.StartGame(id=self.next_id()))

    async def records(self, game: int | None = None) -> tuple[str, ...]:
        """Every hand record of a finished game of the table (the latest by
        default), asked for page by page."""
        records: tuple[str, ...] = ()
        from_hand: int | None = 1
        while from_hand is not None:
            reply = await self.call(
                cm.GetRecords(id=self.next_id(), game=game, from_hand=from_hand)
            )
            assert isinstance(reply, sm.Records)
            records += reply.records
            from_hand = reply.next_hand
        return records


# -- choosing moves ------------------------------------------------------------


def needs_action(view: SeatView) -> bool:
    """Whether the seat of ``view`` must act now (ready included): the same
    test the headless autoplayer uses."""
    return needs_move(view)


Chooser = Callable[[SeatView, random.Random, int | str], cm.Request]
"""Picks the request for what a view asks of its seat (``choose``'s shape)."""


def choose(view: SeatView, rng: random.Random, rid: int | str) -> cm.Request:
    """A legal request for what ``view`` asks of its seat."""
    if view.status == "between_hands":
        return cm.Ready(id=rid)
    if view.phase == "pass":
        cards = rng.sample(sorted(view.hand), view.rules.pass_count)
        return cm.PassCards(id=rid, cards=tuple(cards))
    if view.phase == "moon_choice":
        return cm.MoonChoice(id=rid, choice="add")
    if view.phase == "widow":
        cards = rng.sample(sorted(view.legal), view.discard_count)
        return cm.DiscardWidow(id=rid, cards=tuple(cards))
    return cm.PlayCard(id=rid, card=rng.choice(sorted(view.legal)))


async def play_until(
    client: WireClient,
    rng: random.Random,
    done: Callable[[SeatView], bool] = lambda v: v.status == "game_over",
    on_action: Callable[[SeatView, cm.Request], None] | None = None,
    timeout: float = 30.0,
    chooser: Chooser = choose,
) -> SeatView:
    """Play ``client``'s seat with legal random moves (or ``chooser``'s)
    until ``done(view)``.

    Acts on each new snapshot that asks something of the seat, at most once
    per snapshot seq; returns the view that satisfied ``done``.
    """

    async def loop() -> SeatView:
        index = 0
        acted_at = -1
        while True:
            index, snap = await client.wait_for(
                lambda m: isinstance(m, sm.Snapshot), start=index, timeout=timeout
            )
            index += 1
            if any(isinstance(f.msg, sm.Snapshot) for f in client.frames[index:]):
                continue  # a newer snapshot is already here: act on that one
            view: SeatView = snap.view
            if done(view):
                return view
            if needs_action(view) and view.seq != acted_at:
                acted_at = view.seq
                req = chooser(view, rng, client.next_id())
                if on_action is not None:
                    on_action(view, req)
                start = len(client.frames)
                await client.send(req)
                rid = req.id
                index, reply = await client.wait_for(
                    lambda m, rid=rid: isinstance(m, REPLY_TYPES) and m.id == rid,  # type: ignore[misc]
                    start=start,
                )
                assert not isinstance(reply, sm.Error), f"{req} refused: {reply}"
                # Snapshots before the reply may predate our action: look
                # only at what came after it (our action's events come next).

    return await asyncio.wait_for(loop(), timeout)


async def seat_humans(url: str, rules: RulesModel = TWO_HANDS) -> list[WireClient]:
    """A host and three players who joined by code: four humans, seats 0-3."""
    host = await WireClient.open(url, "Host")
    seated = await host.create(rules=rules)
    clients = [host]
    for i in range(1, 4):
        client = await WireClient.open(url, f"P{i}")
        await client.join(seated.code)
        clients.append(client)
    return clients


async def drive_all(
    clients: list[WireClient],
    seed: int,
    done: Callable[[SeatView], bool] = lambda v: v.status == "game_over",
    timeout: float = 30.0,
) -> list[SeatView]:
    """Play every client's seat until each sees ``done``. With ``done`` a
    condition on public state, all seats stop at the same table state."""
    return list(
        await asyncio.gather(
            *(
                play_until(c, random.Random(seed * 10 + i), done, timeout=timeout)
                for i, c in enumerate(clients)
            )
        )
    )


def reflects(view: SeatView, request: cm.Request, hand_number: int) -> bool:
    """Whether ``view`` already shows the effect of our accepted ``request``
    (made during hand ``hand_number``)."""
    if view.hand_number != hand_number:
        return True
    match request:
        case cm.PlayCard():
            return request.card not in view.hand
        case cm.PassCards():
            return view.phase != "pass" or bool(view.passed)
        case cm.Ready():
            return view.status != "between_hands" or (
                view.seat is not None and view.seats[view.seat].ready
            )
        case cm.MoonChoice():
            return view.phase != "moon_choice"
        case cm.DiscardWidow():
            return view.phase != "widow"
    return True


async def session_play(
    session: ClientSession,
    rng: random.Random,
    done: Callable[[SeatView], bool] = lambda v: v.status == "game_over",
    seen: list[Any] | None = None,
    timeout: float = 30.0,
    act_first: bool = True,
) -> SeatView:
    """Play a ``ClientSession``'s seat with legal random moves until
    ``done(view)``; every event consumed is appended to ``seen``.

    Acts on the newest view the session has received (``last_view``), and
    after each accepted request waits for a view that shows its effect (the
    reply comes before the snapshot), so it never sends a stale request;
    with ``act_first`` it first acts on that view before any new message.
    It never acts on a view that satisfies ``done``: the snapshot it returns
    is one the caller can still act on.
    """
    last: tuple[cm.Request, int] | None = None

    async def act() -> None:
        nonlocal last
        view = session.last_view
        if view is None or not needs_action(view):
            return
        if done(view):
            return  # the caller stops at this view: acting now would make it stale
        if last is not None and not reflects(view, *last):
            return  # our previous request's snapshot has not arrived yet
        request = choose(view, rng, session.next_id())
        last = (request, view.hand_number)
        await session.request(request)

    async def loop() -> SeatView:
        if act_first:
            await act()  # the newest view may already ask something of us
        async for msg in session.events():
            if seen is not None:
                seen.append(msg)
            assert not isinstance(msg, sm.Error), f"the server sent {msg}"
            if not isinstance(msg, sm.Snapshot):
                continue
            if done(msg.view):
                return msg.view
            await act()
        raise AssertionError("the session ended before the condition held")

    return await asyncio.wait_for(loop(), timeout)

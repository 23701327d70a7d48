"""One client connection: read frames, turn them into jobs, send replies.

A frame is written to the socket at once when nothing waits before it and
the socket's buffer is empty; otherwise it goes on the connection's own send
queue, bounded in bytes, drained by a writer task that runs while frames
wait. So a slow client never stalls a table: when its queue is full the
client has stopped reading, and it is dropped within ``close_timeout``
(logged, counted in /metrics; it can resume with its seat token).

Frames are checked in this order: rate (token bucket), size, msgpack,
message shape; a refused frame gets an ``error`` and changes nothing. A
frame over the rate is refused with ``retry_after``; only a client that
keeps sending while told to wait (more refusals than are forgiven) is
closed.

Every hang-up is bounded in time: the closing handshake gets
``close_timeout`` seconds, then the socket is aborted (a client that reads
nothing would otherwise hold it, and its buffers, until keepalive gives up).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import socket
import time
from collections.abc import Awaitable, Coroutine, Sequence
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from common.ws_adapter import (
    ConnectionClosed,
    ServerConnection,
    abort,
    handshake_headers,
    peer_host,
    raw_socket,
    write_at_once,
)
from engine.errors import ClientError
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_client, encode, request_id_of
from protocol.common import PROTOCOL_VERSION
from protocol.errors import BadVersion, ProtocolError

from .config import ServerConfig
from .errors import (
    HelloRepeated,
    HelloRequired,
    LimitError,
    NotAllowed,
    NotFound,
    NotNow,
    OwnerGone,
    TableRefused,
    Throttled,
)
from .finished_games import records_reply
from .hand_replays import hand_replay
from .jobs import Attach, Detach, Knock, Request, TableHandle
from .lifecycle_log import lifecycle
from .lobby import Lobby
from .mailbox import Mailbox
from .redaction import table_facts_reply
from .store.base import StoreError
from .table_state import TableState, table_id_of_invite
from .version import package_version

# What a lookup by code finds (a table to call, or its state to describe).
Found = TypeVar("Found")

log = logging.getLogger("hearts.connection")


class TokenBucket:
    """Requests per second with a burst allowance."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Spend one token if there is one."""
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def retry_after(self) -> float:
        """Seconds a refused client should wait: one token's time (1/rate),
        rounded up to the millisecond. That is never less than the wait for
        the next token, and a client that sends one request per interval
        stays within the rate (a shorter "until the next token" would have a
        client with several requests waiting refused again at once)."""
        return math.ceil(1000 / self.rate) / 1000


async def close_or_abort(ws: ServerConnection, code: int, reason: str, timeout: float) -> bool:
    """The closing handshake, or an abort of the socket if it takes longer
    than ``timeout`` (it waits on a client that may read nothing, behind a
    full send buffer). Whether it had to abort."""
    try:
        async with asyncio.timeout(timeout):
            await ws.close(code, reason)
    except TimeoutError:
        abort(ws)
        return True
    return False


def player_id_of(token: str) -> str:
    """A player's public id, derived from their secret token."""
    return hashlib.sha256(b"player:" + token.encode()).hexdigest()[:16]


class Connection:
    """A client connected over WebSocket."""

    def __init__(self, ws: ServerConnection, lobby: Lobby, config: ServerConfig) -> None:
        self.ws = ws
        self.lobby = lobby
        self.config = config
        self.name = ""
        self.player_id = ""
        self.program = False  # its hello said it is a program (hearts bot), not a person
        self.conn_id = secrets.token_hex(8)
        self.address = lobby.guard.address_of(peer_host(ws), handshake_headers(ws))
        self.actor: TableHandle | None = None
        self.seat: int | None = None
        self._said_hello = False
        # Bounded by ``_queued`` (bytes), not by frame count: a resume's
        # replay is hundreds of small frames at once, a stalled client's
        # backlog is snapshots. A light queue: there is one per connection.
        self._queue: Mailbox[bytes] = Mailbox()
        # Requests answered beside the others (hand reviews): cancelled
        # when the connection ends.
        self._side_tasks: set[asyncio.Task[None]] = set()
        self._queued = 0
        self._bucket = TokenBucket(config.rate_per_second, config.rate_burst)
        # Each refusal over the rate spends a strike; strikes come back at
        # ``strikes_forgiven_per_second``. Out of strikes: closed.
        self._strikes = TokenBucket(config.strikes_forgiven_per_second, config.max_strikes)
        self._refused = 0
        self._closing = False
        self._closer: asyncio.Task[None] | None = None
        # While frames wait to be sent (a connection with nothing to send
        # has no writer task).
        self._writer: asyncio.Task[None] | None = None
        # Set when the writer reaches the hang-up marker (made with it).
        self._flushed: asyncio.Event | None = None

    # -- the Watcher protocol ------------------------------------------------

    def send(self, message: BaseModel) -> None:
        """Queue a message; drop the client if it stopped reading."""
        if self._closing:
            return
        if isinstance(message, sm.Error) and self.lobby.metrics is not None:
            self.lobby.metrics.errors.labels(message.code).inc()
        self.send_frame(encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Queue an encoded frame (forwarded by the table's owner, or a
        reply); drop the client if it stopped reading."""
        self.send_frames((frame,))

    def send_frames(self, frames: Sequence[bytes]) -> None:
        """Queue encoded frames in order (a table's fan-out: one action's
        reply, events and snapshot); drop the client if it stopped reading.
        When nothing waits before them and the socket's buffer is empty they
        are written at once, all in one write: one system call and one
        wake-up of the client for the lot, not one per frame."""
        if self._closing:
            return
        size = sum(map(len, frames))
        if self._queued + size > self.config.send_queue_bytes:
            self._drop_slow()
            return
        if self._writer is None and self._queue.empty():
            try:
                if write_at_once(self.ws, frames):
                    return
            except Exception as exc:  # the socket went away under us: the reader sees it
                log.debug("could not write to %s: %s", self.describe(), exc)
                return
        for frame in frames:
            self._queued += len(frame)
            self._queue.put_nowait(frame)
        self._start_writer()

    def _start_writer(self) -> None:
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())

    def _drop_slow(self) -> None:
        """The send queue is full: the client reads nothing (or far less than
        its table sends). Close it now, abort it if the close does not get
        through; the table goes on without it."""
        log.warning(
            "dropping a slow client %s: its send queue is full (%d bytes unsent)",
            self.describe(),
            self._queued,
        )
        if self.lobby.metrics is not None:
            self.lobby.metrics.clients_dropped.labels("slow_consumer").inc()
        self.close(1008, "too slow: send queue full")

    def attached(self, table: TableHandle, seat: int | None) -> None:
        """The table attached us at ``seat``."""
        self.actor = table
        self.seat = seat

    def removed(self, table: TableHandle) -> None:
        """The table removed us (kicked): no table any more."""
        if self.actor is table:
            self.actor = None
            self.seat = None

    def close(self, code: int = 1012, reason: str = "the table moved; resume") -> None:
        """Close the socket soon; the client reconnects and resumes."""
        if self._closing:
            return
        self._closing = True
        self._closer = asyncio.create_task(self._hang_up(code, reason))

    def describe(self) -> str:
        """Who this connection is, for the log: name, player, table, seat."""
        where = "no table"
        if self.actor is not None:
            seat = "watching" if self.seat is None else f"seat {self.seat}"
            where = f"table {self.actor.table_id} {seat}"
        return f"{self.name or '?'!r} (player {self.player_id or '?'}, {where})"

    # -- the loops -------------------------------------------------------------

    def _bound_send_buffer(self) -> None:
        """Cap the kernel's send buffer of this socket (autotuned, it grows to
        megabytes for a client that stops reading)."""
        size = self.config.socket_send_buffer
        sock = raw_socket(self.ws)
        if size is None or sock is None:
            return
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        except OSError as exc:  # the socket may already be gone
            log.debug("could not set SO_SNDBUF: %s", exc)

    async def run(self) -> None:
        """Serve the connection until it closes."""
        self._bound_send_buffer()
        self.lobby.register_client(self.conn_id, self)
        try:
            async for frame in self.ws:
                await self._handle(frame)
        except ConnectionClosed:
            pass
        finally:
            for task in list(self._side_tasks):
                task.cancel()
            writer = self._writer
            if writer is not None:
                writer.cancel()
                await asyncio.gather(writer, return_exceptions=True)
            self.lobby.unregister_client(self.conn_id)
            if self.actor is not None:
                self.actor.post(Detach(self))

    async def _write(self) -> None:
        """Send what is queued, in order, waiting while the client is slow
        to read; end when the queue is empty."""
        try:
            while not self._queue.empty():
                frame = self._queue.get_nowait()
                self._queued -= len(frame)
                if not frame:  # the hang-up marker: everything before it is sent
                    if self._flushed is not None:
                        self._flushed.set()
                    return
                await self.ws.send(frame)
        except ConnectionClosed:
            return
        finally:
            self._writer = None

    async def _hang_up(self, code: int, reason: str, after_replies: bool = False) -> None:
        """Close with ``code`` (after the queued replies, if asked), or abort
        the socket when that takes more than ``close_timeout``: the handshake
        waits on a client that may read nothing."""
        deadline = asyncio.get_running_loop().time() + self.config.close_timeout
        if after_replies and self._flushed is not None:
            try:
                async with asyncio.timeout_at(deadline):
                    await self._flushed.wait()
            except TimeoutError:
                pass  # the replies did not get out: close anyway
        left = max(0.0, deadline - asyncio.get_running_loop().time())
        if await close_or_abort(self.ws, code, reason, left):
            log.info("aborted %s: the closing handshake timed out", self.describe())

    def _close_after_replies(self, code: int, reason: str) -> None:
        """Close once the replies already queued have been sent. Frames that
        arrive meanwhile are read and ignored, so the client's closing
        handshake is not stuck behind unread frames."""
        self._closing = True
        self._flushed = asyncio.Event()
        self._queue.put_nowait(b"")
        self._start_writer()
        self._closer = asyncio.create_task(self._hang_up(code, reason, after_replies=True))

    def _over_rate(self, frame: bytes | str) -> None:
        """Refuse a frame over the rate with when to retry, or close a client
        that keeps sending while told to wait."""
        self._refused += 1
        if not self._strikes.take():
            log.warning(
                "closing a flooding client %s: %d frames refused over the rate",
                self.describe(),
                self._refused,
            )
            if self.lobby.metrics is not None:
                self.lobby.metrics.clients_dropped.labels("flooding").inc()
            self._close_after_replies(1008, "too many requests")
            return
        self.send(
            sm.Error(
                id=request_id_of(frame),
                code="rate_limited",
                message="slow down: too many requests",
                retry_after=self._bucket.retry_after(),
            )
        )

    async def _handle(self, frame: bytes | str) -> None:
        if self._closing:
            return  # hanging up: the client was told why
        if not self._bucket.take():
            self._over_rate(frame)
            return
        try:
            msg = decode_client(frame, self.config.max_frame_bytes)
        except ProtocolError as exc:
            self.send(sm.Error(id=request_id_of(frame), code=exc.code, message=exc.message))
            return
        await self._serve(msg, self._route(msg))

    async def _serve(self, msg: cm.ClientMessage, work: Awaitable[None]) -> None:
        """Await ``work``, the handling of ``msg``, answering its refusal or
        failure with an ``error`` frame (the one place that words them)."""
        try:
            await work
        except ClientError as exc:
            if isinstance(exc, LimitError):
                # Every budget or cap that refuses a request says so once
                # per refusal, for the operator (the rate of plain requests
                # is refused before here, per frame, and counted in /metrics).
                lifecycle(
                    "budget_refused",
                    f"refused {msg.type} from {self.address}: {exc.message}",
                    code=exc.code,
                    request=msg.type,
                    player=self.player_id or None,
                    address=self.address,
                    table=self.actor.table_id if self.actor is not None else None,
                    process=self.lobby.process,
                )
            self.send(
                sm.Error(
                    id=msg.id,
                    code=exc.code,
                    message=exc.message,
                    retry_after=max(0.1, round(exc.retry_after, 1))
                    if isinstance(exc, Throttled | TableRefused)
                    else None,
                    reason=exc.reason if isinstance(exc, NotNow | TableRefused) else None,
                )
            )
        except OwnerGone:
            # The table's process died: the client resumes and the table is
            # taken over by whichever process it reaches.
            self.close()
        except StoreError as exc:
            log.warning("store error: %s", exc)
            self.send(
                sm.Error(
                    id=msg.id, code=exc.code, message="the game store is unavailable; try again"
                )
            )
        except Exception:
            log.exception("request %s failed", msg.type)
            self.send(
                sm.Error(
                    id=msg.id, code="internal_error", message="something went wrong on our side"
                )
            )

    async def _route(self, msg: cm.ClientMessage) -> None:
        if isinstance(msg, cm.Hello):
            self._hello(msg)
            return
        if not self._said_hello:
            raise HelloRequired("say hello first")
        if await self._lobby_request(msg) or await self._question(msg):
            return
        # Everything else is an action at the table this connection is at.
        if self.actor is None:
            raise NotAllowed("join a table first")
        await self.actor.call(Request(self, msg))

    async def _lobby_request(self, msg: cm.ClientMessage) -> bool:
        """Answer a request that finds, creates or enters a table (or a
        ping); whether ``msg`` was one."""
        match msg:
            case cm.Ping():
                self.send(sm.Ok(id=msg.id))
            case cm.CreateTable():
                await self._create_table(msg)
            case cm.ListTables():
                self.send(sm.Tables(id=msg.id, tables=await self.lobby.list_public()))
            case cm.JoinTable():
                await self._enter(msg, "join")
            case cm.Resume():
                actor = await self.lobby.actor_for_id(msg.table_id)
                await self._switch_to(actor)
                await actor.call(Attach(self, msg, "resume", program=self.program))
            case cm.Watch():
                await self._enter(msg, "watch")
            case cm.Knock():
                table = await self._find_by_code(msg.code)
                await table.call(Knock(self, msg))
            case _:
                return False
        return True

    async def _question(self, msg: cm.ClientMessage) -> bool:
        """Answer a question about a table or the player (facts, stats,
        replays, analyses, records), or leave the table; whether ``msg``
        was one of those."""
        match msg:
            case cm.GetTableFacts():
                self.send(await self._table_facts(msg))
            case cm.Leave():
                await self._leave_table()
                self.send(sm.Ok(id=msg.id))
            case cm.GetStats():
                self.send(await self._stats(msg))
            case cm.GetReplay():
                await self._replay(msg)
            case cm.GetAnalysis() | cm.GetAccuracy():
                self._start_analysis(msg)
            case cm.GetRecords():
                if self.actor is None or self.seat is None:
                    raise NotAllowed("join a seat at a table to fetch its hand records")
                self.send(await self._finished_records(self.actor.table_id, msg))
            case _:
                return False
        return True

    async def _stats(self, msg: cm.GetStats) -> sm.Stats:
        stats = await self.lobby.store.get_stats(self.player_id)
        return sm.Stats(
            id=msg.id,
            games=stats.games,
            wins=stats.wins,
            hands=stats.hands,
            average_points=round(stats.average_points, 2),
            moons=stats.moons,
            queens=stats.queens,
        )

    async def _replay(self, msg: cm.GetReplay) -> None:
        if self.actor is None:
            raise NotAllowed("join or watch a table to replay its hands")
        # Records first, then the state, as for get_records.
        records = await self.lobby.store.hand_records(self.actor.table_id)
        stored = await self.lobby.store.load_table(self.actor.table_id)
        state = stored.state if stored else None
        self.send(hand_replay(records, state, msg, self.seat))

    def _start_analysis(self, msg: cm.GetAnalysis | cm.GetAccuracy) -> None:
        if self.actor is None:
            raise NotAllowed("join a seat at a table to review its hands")
        if self.seat is None:
            raise NotAllowed("a spectator has no decisions to review")
        # A review takes seconds of the bot workers' time: it runs beside
        # this connection's other requests, which go on.
        task = asyncio.create_task(
            self._serve(msg, self._analysis(msg, self.actor.table_id, self.seat))
        )
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    async def _analysis(
        self, msg: cm.GetAnalysis | cm.GetAccuracy, table_id: str, seat: int
    ) -> None:
        """Answer ``get_analysis`` or ``get_accuracy`` (server.hand_analyses)."""
        # Records first, then the state, as for get_records.
        records = await self.lobby.store.hand_records(table_id)
        stored = await self.lobby.store.load_table(table_id)
        state = stored.state if stored else None
        analyses = self.lobby.analyses
        key = self.player_id or self.conn_id
        if isinstance(msg, cm.GetAnalysis):
            self.send(await analyses.hand_analysis(table_id, records, state, msg, seat, key))
        else:
            self.send(await analyses.game_accuracy(table_id, records, state, msg, key))

    async def _create_table(self, msg: cm.CreateTable) -> None:
        """Create a table within the creation budgets of this client address
        and player and the server's caps (``Lobby.admit_table``): a refusal
        leaves the player where they were. A request repeated with its id
        (its reply was lost) is answered with the table it made
        (server.created_tables), unless that table is gone."""
        made = self.lobby.created.made(self.player_id, msg.id)
        if made is not None:
            try:
                actor = await self.lobby.actor_for_id(made)
            except NotFound:
                pass  # expired or deleted since: make a new one
            else:
                await self._switch_to(actor)
                await actor.call(Attach(self, msg, "again", program=self.program))
                return
        await self.lobby.admit_table(self.address, self.player_id)
        try:
            await self._leave_table()
            await self.lobby.create_table(self, msg, program=self.program)
        except BaseException:
            self.lobby.refund_table(self.address, self.player_id)
            raise

    async def _finished_records(self, table_id: str, msg: cm.GetRecords) -> sm.Records:
        """The records of a finished game of the table (``server.finished_games``).
        The records are read before the table's state, which says whether
        their last game is still being played: that order never lets a hand
        of the game in play through."""
        store = self.lobby.store
        records = await store.hand_records(table_id)
        stored = await store.load_table(table_id)
        # A quarter of the send queue: the reply fits beside what else waits.
        budget = self.config.send_queue_bytes // 4
        return records_reply(records, stored.state if stored else None, msg, budget)

    def _hello(self, msg: cm.Hello) -> None:
        if self._said_hello and not self._may_rename(msg):
            # Who a connection is (its player id) is settled by the first
            # hello, and a table knows its players by the name they came
            # with: nothing else changes it.
            raise HelloRepeated(
                "this connection has already said hello; away from a table a repeated"
                " hello may only change your name, with the same player token"
            )
        if msg.version != PROTOCOL_VERSION:
            raise BadVersion(
                f"this server speaks protocol version {PROTOCOL_VERSION}, not {msg.version}"
            )
        token = msg.player_token or secrets.token_urlsafe(24)
        refusal = self.lobby.bans.refusal(player=player_id_of(token))
        if refusal is not None:
            self.close(1008, refusal)
            return
        self.name = msg.name
        self.program = msg.program
        self.player_id = player_id_of(token)
        self._said_hello = True
        self.send(
            sm.Welcome(
                id=msg.id,
                version=PROTOCOL_VERSION,
                player_id=self.player_id,
                player_token=token,
                server=self.config.server_name,
                server_version=package_version(),
            )
        )

    def _may_rename(self, msg: cm.Hello) -> bool:
        """A repeated hello that only renames: the same player (token) and
        protocol, from a connection at no table. The browser client renames
        this way before creating or joining a table."""
        return (
            self.actor is None
            and msg.version == PROTOCOL_VERSION
            and msg.player_token is not None
            and player_id_of(msg.player_token) == self.player_id
        )

    async def _enter(self, msg: cm.JoinTable | cm.Watch, mode: Literal["join", "watch"]) -> None:
        """Join or watch a table found by its invite link or its code. A
        link that names no table, or whose secret is wrong, counts as a
        failed lookup of this address, like a wrong code."""
        if msg.invite is None:
            actor = await self._find_by_code(msg.code)
        else:
            table_id = table_id_of_invite(msg.invite)
            if table_id is None or not await self.lobby.invite_is_valid(table_id, msg.invite):
                self._missed("invite")
                raise NotFound("that invite link is not valid; ask for a new one")
            actor = await self.lobby.actor_for_id(table_id)
            self._count_lookup("found")
        await self._switch_to(actor)
        await actor.call(Attach(self, msg, mode, program=self.program))

    async def _find_by_code(self, code: str) -> TableHandle:
        """The table an invite code names, within this address's budget of
        failed lookups (``_by_code``)."""
        return await self._by_code(self.lobby.actor_for_code(code))

    async def _by_code(self, lookup: Coroutine[Any, Any, Found]) -> Found:
        """What ``lookup`` (of a table by an invite code) finds, within this
        address's budget of failed lookups (server.address_guard): while the
        address must wait, every lookup by code is refused, found or not,
        and a ``NotFound`` counts as a miss. Joining, watching, knocking and
        asking for a table's facts all look codes up through here, so none
        of them is a cheaper way to guess codes."""
        wait = self.lobby.guard.lookup_wait(self.address)
        if wait > 0:
            lookup.close()  # never started: nothing was looked up
            self._count_lookup("refused")
            raise Throttled(
                f"too many wrong invite codes from your address; try again in {wait:.0f} s",
                wait,
            )
        # Counted from now, not from the store's answer: see lookup_wait.
        self.lobby.guard.lookup_started(self.address)
        try:
            found = await lookup
        except NotFound:
            self._missed("code")
            raise
        finally:
            self.lobby.guard.lookup_ended(self.address)
        self._count_lookup("found")
        return found

    async def _table_facts(self, msg: cm.GetTableFacts) -> sm.TableFacts:
        """Answer ``get_table_facts``: the table found as ``join_table``
        finds it (by invite link, else by code within the address's
        budget), read without taking it over (``Lobby.peek_table``)."""
        if msg.invite is None:
            state = await self._by_code(self._peek_by_code(msg.code))
        else:
            table_id = table_id_of_invite(msg.invite)
            if table_id is None or not await self.lobby.invite_is_valid(table_id, msg.invite):
                self._missed("invite")
                raise NotFound("that invite link is not valid; ask for a new one")
            state = await self.lobby.peek_table(table_id)
            self._count_lookup("found")
        return table_facts_reply(state, msg.id)

    async def _peek_by_code(self, code: str) -> TableState:
        return await self.lobby.peek_table(await self.lobby.table_id_for_code(code))

    def _missed(self, what: str) -> None:
        self.lobby.guard.miss(self.address)
        self._count_lookup(f"missed_{what}")

    def _count_lookup(self, result: str) -> None:
        if self.lobby.metrics is not None:
            self.lobby.metrics.code_lookups.labels(result).inc()

    async def _switch_to(self, actor: TableHandle) -> None:
        if self.actor is not None and self.actor is not actor:
            await self._leave_table()

    async def _leave_table(self) -> None:
        if self.actor is not None:
            actor, self.actor, self.seat = self.actor, None, None
            await actor.call(Detach(self))

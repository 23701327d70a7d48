"""The client session every client of ours uses (terminal UI, headless
commands, tests, benchmarks).

What it does is decided by ``SessionMachine`` (``client/session_machine.py``,
sans-I/O; docs/architecture.md, The client session, shows its phases); this
module is its asyncio adapter, with the API the clients use.

It connects, says hello, numbers requests, matches replies to requests, keeps
the last event number, and when the connection drops it reconnects with
jittered backoff (common.retry), says hello again with the same player token,
resumes its seat with the seat token and re-sends requests still waiting for
a reply under their original ids (the server does not apply a repeated id
twice). A request
refused as ``rate_limited`` is sent again after the server's ``retry_after``,
and for a moment after a refusal every request waits its turn, one per
``retry_after``, so the session stays within the server's budget.

Events and snapshots arrive on ``events()``; replies are returned by
``request()``. Tokens can be kept in a session file so that ``hearts resume``
or a restarted command reattaches. A saved seat is the player's: a session
that starts by resuming it leaves the file exactly as it was until the server
takes the seat back, so a resume refused (a server that does not know the
table) loses nothing; one that hosts or joins another table instead
(``resume_saved=False``) keeps it in the file until the server grants the new
seat, so a wrong code loses nothing either. A seat the host took away
(``kicked``) is forgotten and never resumed.

Finding a table by its code is budgeted by the server per client address:
``request_once`` raises a lookup the address must wait for at once (with
``retry_after``), to be told to the player, instead of waiting it out. At a table
whose host approves who sits, ``knock`` asks the host and waits for the
answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from common.ws_adapter import (
    ClientConnection,
    ConnectionClosed,
    InvalidHandshake,
    InvalidURI,
    connect,
)
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_server, encode
from protocol.errors import UnknownType
from protocol.exchanges import REPLY_TYPES

from . import session_states as sx
from .pacing import PACING_SECONDS
from .saved_session import (
    DEFAULT_NAME,
    DEFAULT_SERVER,
    SavedSession,
    default_session_file,
    resume_target,
)
from .session_machine import (
    GONE_FOR_GOOD,
    MAX_PACED_WAIT,
    NOT_HERE,
    SessionMachine,
    SessionSettings,
)

__all__ = [
    "DEFAULT_NAME",
    "DEFAULT_SERVER",
    "GONE_FOR_GOOD",
    "KNOCK_AGAIN_SECONDS",
    "MAX_PACED_WAIT",
    "NOT_HERE",
    "PACING_SECONDS",
    "REPLY_TYPES",
    "ClientSession",
    "Reconnected",
    "RequestFailed",
    "SavedSession",
    "SessionClosed",
    "default_session_file",
    "resume_target",
]

log = logging.getLogger("hearts.client")

# While waiting for a host's answer, knock again this often (see ``knock``).
KNOCK_AGAIN_SECONDS = 10.0
# What opening a connection may raise when the server is not there (or not
# a WebSocket server, or the URL is wrong).
_CANNOT_OPEN = (OSError, InvalidHandshake, InvalidURI, TimeoutError)


class RequestFailed(Exception):
    """The server refused a request: ``code`` and ``message`` from its
    ``error``, with ``rate_limited`` (and a refused table's
    ``too_many_tables``, ``server_full``) the seconds it asks us to wait,
    with ``not_now`` (and those two) its ``reason`` (which case), if it
    named one."""

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: float | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.reason = reason


class SessionClosed(Exception):
    """The session was closed (or could not reconnect in time)."""


class ClientSession:
    """A connection to a Hearts server that survives drops: the asyncio
    side of ``SessionMachine`` (``client/session_machine.py``), which
    decides; this class opens and reads sockets, keeps time and the
    futures its callers wait on, and carries out the machine's effects."""

    def __init__(
        self,
        url: str,
        name: str,
        session_file: Path | None = None,
        reconnect: bool = True,
        max_backoff: float = 5.0,
        give_up_after: float = 120.0,
        resume_saved: bool = True,
        program: bool = False,
    ) -> None:
        # Several servers may be given, comma-separated (processes sharing one
        # Redis): a reconnect tries the next one when the current one is down.
        settings = SessionSettings(url, name, program, reconnect, max_backoff, give_up_after)
        self._machine = SessionMachine(
            settings,
            SavedSession.load(session_file),
            id_prefix=secrets.token_hex(4),
            rng=random.Random(),
            resume_saved=resume_saved,
        )
        self.server = url  # as given (all of them): saved with the seat
        self.name = name
        self.session_file = session_file
        self.knock_again_every = KNOCK_AGAIN_SECONDS
        self.connected = asyncio.Event()
        self._knocking: tuple[str, asyncio.Future[sm.KnockAnswered]] | None = None
        self._replies: dict[str, asyncio.Future[BaseModel]] = {}
        self._events: asyncio.Queue[BaseModel | None] = asyncio.Queue()
        self._opened: asyncio.Future[None] | None = None
        self._resumed: asyncio.Future[None] | None = None
        self._ws: ClientConnection | None = None
        self._ws_conn = 0  # the machine's number of ``_ws``
        self._outbox: asyncio.Queue[bytes] | None = None
        self._last_error: BaseException | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: set[asyncio.TimerHandle] = set()
        self._apply: dict[type[Any], Callable[[Any], None]] = {
            sx.OpenSocket: self._open_socket,
            sx.CloseSocket: self._close_socket,
            sx.Send: self._send,
            sx.Wake: self._wake,
            sx.Resolve: self._resolve,
            sx.Refused: self._refused,
            sx.Abort: self._abort,
            sx.Deliver: lambda e: self._events.put_nowait(e.message),
            sx.KnockHeard: self._knock_heard,
            sx.Persist: lambda e: e.saved.save(self.session_file),
            sx.Opened: lambda _: _settle(self._opened, None),
            sx.Reopened: self._reopened,
            sx.ConnectFailed: self._connect_failed,
            sx.ResumeSettled: self._resume_settled,
            sx.Ended: self._ended,
        }

    # -- what the machine knows ----------------------------------------------------

    @property
    def saved(self) -> SavedSession:
        """Who we are and where we sit (what the session file keeps)."""
        return self._machine.saved

    @property
    def seat(self) -> int | None:
        """Our seat at the current table."""
        return self.saved.seat

    @property
    def table_id(self) -> str | None:
        """The table we sit at."""
        return self.saved.table_id

    @property
    def code(self) -> str | None:
        """The current table's invite code."""
        return self.saved.code

    @property
    def url(self) -> str:
        """The server we are connected to (or trying next)."""
        return self._machine.url

    @property
    def player_id(self) -> str:
        """Our public player id (from the server's welcome)."""
        return self._machine.player_id

    @property
    def join_path(self) -> str:
        """The link of the table we are at (``Seated.join_path``): with the
        invite secret for a player, the bare code for a spectator."""
        return self._machine.join_path

    @property
    def last_view(self) -> Any:
        """The newest ``SeatView`` received (None before the first)."""
        return self._machine.last_view

    # -- public API ----------------------------------------------------------------

    async def connect(self) -> None:
        """Connect and say hello, and resume a saved seat if there is one.
        With several servers, the first one that answers.

        Resuming, it returns once the server has taken the seat back; a
        refusal for good (the server does not know the table, the token is
        void) raises ``RequestFailed`` and leaves the session file as it
        was. Passing trouble is retried as after a drop."""
        loop = asyncio.get_running_loop()
        self._opened = loop.create_future()
        self._feed(sx.Start())
        if self._machine.resume_pending:
            self._resumed = loop.create_future()
        await self._opened
        if self._resumed is not None:
            await self._resumed

    async def close(self) -> None:
        """Close the connection and stop reconnecting."""
        self._feed(sx.Close())
        if self._ws is not None:
            await self._ws.close()
        for timer in self._timers:
            timer.cancel()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def next_id(self) -> str:
        """A request id unique to this session (safe to repeat after a drop)."""
        return self._machine.next_id()

    async def request(self, message: cm.Request, timeout: float = 30.0) -> BaseModel:
        """Send a request (its ``id`` must come from ``next_id``) and wait for
        its reply, at most ``timeout`` seconds; raises ``RequestFailed`` on
        an ``error`` reply. A request refused as ``rate_limited`` is sent
        again (same id) when the server says, if that is within ``timeout``;
        otherwise the refusal is raised at once (its sentence says how long
        to wait). A request made while the connection is down is sent once
        we are back at our table."""
        return await self._ask(message, timeout, once=False)

    async def request_once(self, message: cm.Request, timeout: float = 30.0) -> BaseModel:
        """Like ``request``, but a lookup the server makes wait is refused at
        once: ``RequestFailed`` with its ``retry_after``. For finding a table
        by its code (``join_table``, ``watch``, ``knock``): while an
        address's budget of wrong codes is spent every lookup is refused, for
        up to minutes, and the player is to be told how long rather than kept
        waiting. Only the connection's own request budget (a wait of a
        tenth of a second or less) is waited out, as ``request`` does."""
        return await self._ask(message, timeout, once=True)

    async def _ask(self, message: cm.Request, timeout: float, once: bool) -> BaseModel:
        rid = str(message.id)
        reply: asyncio.Future[BaseModel] = asyncio.get_running_loop().create_future()
        self._replies[rid] = reply
        try:
            self._feed(sx.RequestMade(message, timeout, once))
            return await asyncio.wait_for(reply, timeout)
        finally:
            self._replies.pop(rid, None)
            self._feed(sx.RequestAbandoned(rid))  # a no-op once it was answered

    async def knock(self, code: str) -> sm.KnockAnswered:
        """Ask the host of table ``code`` to let us sit (after ``join_table``
        answered ``knock_required``) and wait for the answer, as long as it
        takes: cancel to stop waiting. A refusal of the knock itself raises
        ``RequestFailed``.

        The knock is kept with the table, but the answer goes only to the
        connection that knocked while the table is in memory: after a
        reconnect, and every ``knock_again_every`` seconds (a table nobody
        watches leaves memory), we knock again. Still waiting, that changes
        nothing; let in meanwhile, the server answers at once."""
        answer: asyncio.Future[sm.KnockAnswered] = asyncio.get_running_loop().create_future()
        self._knocking = (code, answer)
        try:
            await self.request_once(cm.Knock(id=self.next_id(), code=code))
            while True:
                with contextlib.suppress(TimeoutError):
                    return await asyncio.wait_for(asyncio.shield(answer), self.knock_again_every)
                await self._knock_again()
        finally:
            if self._knocking is not None and self._knocking[1] is answer:
                self._knocking = None

    async def _knock_again(self) -> None:
        """Knock again for the answer we still wait for. A throttled address
        or a lost reply waits for the next time; a refusal for good (the
        table is gone, the host removed us) or a closed session ends the
        wait."""
        if self._knocking is None:
            return
        code, answer = self._knocking
        try:
            await self.request_once(cm.Knock(id=self.next_id(), code=code))
        except TimeoutError:
            return
        except (RequestFailed, SessionClosed) as exc:
            if isinstance(exc, RequestFailed) and exc.code == "rate_limited":
                return
            _fail(answer, exc)

    async def events(self) -> AsyncIterator[BaseModel]:
        """Table events and snapshots, in arrival order, until closed."""
        while True:
            item = await self._events.get()
            if item is None:
                return
            yield item

    def has_events(self) -> bool:
        """Whether ``events`` has more to give at once (arrived, not yet taken)."""
        return not self._events.empty()

    def forget_table(self) -> None:
        """Drop the saved seat, in the file too (after game over, leaving,
        being removed by the host, or before taking another seat)."""
        self._feed(sx.ForgetTable())

    # -- driving the machine -------------------------------------------------------

    def _feed(self, event: sx.Event) -> None:
        """Hand ``event`` to the machine, now, and carry out what it says."""
        for effect in self._machine.handle(event, asyncio.get_running_loop().time()):
            self._apply[type(effect)](effect)
        if self._machine.connected:
            self.connected.set()
        else:
            self.connected.clear()

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of its own (kept referenced until done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _open_socket(self, effect: sx.OpenSocket) -> None:
        self._in_background(self._run_socket(effect.conn, effect.url))

    async def _run_socket(self, conn: int, url: str) -> None:
        """Open connection ``conn``, then read it until it ends, telling the
        machine each step; a writer task sends what the machine says, in
        order."""
        try:
            ws = await connect(url, max_size=4 * 1024 * 1024, open_timeout=10)
        except _CANNOT_OPEN as exc:
            self._last_error = exc
            self._feed(sx.SocketFailed(conn))
            return
        outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._ws, self._ws_conn, self._outbox = ws, conn, outbox
        writer = asyncio.get_running_loop().create_task(_write(ws, outbox))
        try:
            self._feed(sx.SocketOpened(conn))
            await self._read(ws, conn)
        except (ConnectionClosed, OSError) as exc:
            self._last_error = exc
        finally:
            writer.cancel()
        if self._ws is ws:
            self._ws, self._outbox = None, None
        self._feed(sx.ConnectionLost(conn))

    async def _read(self, ws: ClientConnection, conn: int) -> None:
        async for frame in ws:
            try:
                message = decode_server(frame)
            except UnknownType as exc:
                # A newer server's message: ignored, as the protocol's
                # compatibility rule says.
                log.debug("ignoring a message of unknown type: %s", exc)
                continue
            self._feed(sx.MessageIn(conn, message))

    def _send(self, effect: sx.Send) -> None:
        if self._outbox is not None and effect.conn == self._ws_conn:
            self._outbox.put_nowait(encode(effect.message))

    def _close_socket(self, effect: sx.CloseSocket) -> None:
        if self._ws is not None and effect.conn == self._ws_conn:
            self._in_background(self._ws.close(1000, effect.reason))

    def _wake(self, effect: sx.Wake) -> None:
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._timers.discard(timer)
            self._feed(effect.event)

        timer = loop.call_at(effect.at, fire)
        self._timers.add(timer)

    def _resolve(self, effect: sx.Resolve) -> None:
        _settle(self._replies.get(effect.rid), effect.reply)

    def _refused(self, effect: sx.Refused) -> None:
        error = effect.error
        failed = RequestFailed(error.code, error.message, effect.retry_after, error.reason)
        _fail(self._replies.get(effect.rid), failed)

    def _abort(self, effect: sx.Abort) -> None:
        _fail(self._replies.get(effect.rid), SessionClosed("the session was closed"))

    def _knock_heard(self, effect: sx.KnockHeard) -> None:
        # Only the knock we wait for is answered (an answer to one we
        # stopped waiting for is dropped).
        if self._knocking is not None and _same_code(self._knocking[0], effect.answer.code):
            _settle(self._knocking[1], effect.answer)

    def _reopened(self, _: sx.Reopened) -> None:
        log.info("reconnected to %s", self.url)
        self._events.put_nowait(_Reconnected())
        if self._knocking is not None:
            self._in_background(self._knock_again())

    def _connect_failed(self, effect: sx.ConnectFailed) -> None:
        refusal = effect.refusal
        error: BaseException
        if refusal is not None:
            error = RequestFailed(refusal.code, refusal.message)
        else:
            error = self._last_error or SessionClosed("no server answered")
        _fail(self._opened, error)
        if self._resumed is not None:
            self._resumed.cancel()  # connect raises the error above, not this

    def _resume_settled(self, effect: sx.ResumeSettled) -> None:
        refusal = effect.refusal
        if refusal is None:
            _settle(self._resumed, None)
        else:
            _fail(self._resumed, RequestFailed(refusal.code, refusal.message))

    def _ended(self, _: sx.Ended) -> None:
        closed = SessionClosed("the session was closed")
        _fail(self._opened, SessionClosed("no server took us in"))
        _fail(self._resumed, SessionClosed("no server took the saved seat back"))
        if self._knocking is not None:
            _fail(self._knocking[1], closed)
        self._events.put_nowait(None)


async def _write(ws: ClientConnection, outbox: asyncio.Queue[bytes]) -> None:
    """Send the connection's frames one after another, in order, until it
    closes (the reader sees that)."""
    with contextlib.suppress(ConnectionClosed, OSError):
        while True:
            await ws.send(await outbox.get())


def _settle(future: asyncio.Future[Any] | None, value: Any) -> None:
    if future is not None and not future.done():
        future.set_result(value)


def _fail(future: asyncio.Future[Any] | None, error: BaseException) -> None:
    if future is not None and not future.done():
        future.set_exception(error)


def _same_code(typed: str, code: str) -> bool:
    """Whether an invite code as typed (``abc-def``) is ``code``."""
    return "".join(ch for ch in typed.upper() if ch.isalnum()) == code


class _Reconnected(BaseModel):
    """Put on the event stream after a reconnect (for UIs to show it)."""

    type: str = "reconnected"


Reconnected = _Reconnected

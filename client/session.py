"""The client session every client of ours uses (terminal UI, headless
commands, tests, benchmarks).

It connects, says hello, numbers requests, matches replies to requests, keeps
the last event number, and when the connection drops it reconnects with
jittered backoff (common.retry), says hello again with the same player token, resumes its seat with
the seat token and re-sends requests still waiting for a reply under their
original ids (the server does not apply a repeated id twice). A request
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
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from common.retry import Backoff
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_server, encode
from protocol.common import PROTOCOL_VERSION
from protocol.errors import UnknownType

log = logging.getLogger("hearts.client")

REPLY_TYPES = (
    sm.Welcome,
    sm.Ok,
    sm.Error,
    sm.Seated,
    sm.Tables,
    sm.Records,
    sm.Advice,
    sm.HandReplay,
    sm.Stats,
)
# After a ``rate_limited`` refusal every send waits its turn, one per
# ``retry_after``, for this long: a client that went over its budget once is
# likely to again, and sending all at once would be refused again.
PACING_SECONDS = 1.0
# The connection's budget asks for waits of one request's share of its rate
# (4 ms at 300/s; 0.1 s would mean a budget of 10 a second). A longer
# ``retry_after`` is about that request alone (an address waiting after
# wrong invite codes, a second or more): the others are not held.
MAX_PACED_WAIT = 0.1
# Refusals of a resume that mean the seat is gone for good (any other one is
# passing trouble: the table changing hands, the store restarting).
GONE_FOR_GOOD = frozenset({"bad_token", "no_such_table", "kicked"})
# Refusals of one server, not of the seat: a newer release stored the
# table (a rolling upgrade is under way). A saved seat resumed on connect
# is refused (the file stays as it was); a session already at the table
# keeps its seat and tries again, as after any passing trouble.
NOT_HERE = frozenset({"table_too_new"})
# What ``hearts serve`` listens on, and the name of a player who gave none.
DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"
DEFAULT_NAME = "Player"
# While waiting for a host's answer, knock again this often (see ``knock``).
KNOCK_AGAIN_SECONDS = 10.0


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


def default_session_file() -> Path:
    """``$XDG_CONFIG_HOME/hearts/session.json`` (``~/.config`` by default)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hearts" / "session.json"


def resume_target(saved: SavedSession, server: str | None, name: str | None) -> tuple[str, str]:
    """Where and as whom a saved seat is resumed: the server and name asked
    for, else the ones saved with the seat (else the defaults)."""
    return server or saved.server or DEFAULT_SERVER, name or saved.name or DEFAULT_NAME


@dataclass
class SavedSession:
    """What the session file keeps: who we are and where we sit."""

    server: str = ""
    name: str = ""
    player_token: str | None = None
    table_id: str | None = None
    code: str | None = None
    seat: int | None = None
    seat_token: str | None = None
    last_seq: int = 0
    watching: bool = False  # a spectator of ``code``: watch again after a drop

    @classmethod
    def load(cls, path: Path | None) -> SavedSession:
        """Read the file; an empty session if missing or unreadable."""
        if path is None or not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text())
            return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
        except (OSError, ValueError, TypeError):
            return cls()

    def save(self, path: Path | None) -> None:
        """Write the file (private: it holds secrets)."""
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.__dict__, indent=1))
        tmp.chmod(0o600)
        tmp.replace(path)


@dataclass
class _Pending:
    message: BaseModel
    future: asyncio.Future[BaseModel] = field(repr=False)


class ClientSession:
    """A connection to a Hearts server that survives drops."""

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
        self.urls = [u.strip() for u in url.split(",") if u.strip()]
        self.url = self.urls[0]
        self.server = url  # as given (all of them): saved with the seat
        self.name = name
        # Our hello says we are a program playing by itself (``hearts bot``):
        # the server shows our seat as such.
        self.program = program
        self.session_file = session_file
        self.saved = SavedSession.load(session_file)
        # A saved seat is resumed on connect (unless ``resume_saved`` is
        # False: we host or join another table). Until the server takes it
        # back, or grants the new seat, nothing is written: the file keeps
        # the seat, its tokens, name and server byte for byte if the resume
        # or the join is refused, so the player can still go back to it.
        self._unconfirmed = bool(self.saved.table_id and self.saved.seat_token)
        if not resume_saved:
            self._clear_table()  # in memory only: neither resumed nor watched again
        # The link of the table we are at (``Seated.join_path``): with the
        # invite secret for a player, the bare code for a spectator.
        self.join_path = ""
        self._knocking: tuple[str, asyncio.Future[sm.KnockAnswered]] | None = None
        self.knock_again_every = KNOCK_AGAIN_SECONDS
        self._resumed: asyncio.Future[sm.Error | None] | None = None
        self.reconnect = reconnect
        self.max_backoff = max_backoff
        self.give_up_after = give_up_after
        self.player_id = ""
        self.connected = asyncio.Event()
        self.last_view: sm.SeatView | None = None  # type: ignore[name-defined]
        self._ws: ClientConnection | None = None
        self._prefix = secrets.token_hex(4)
        self._counter = 0
        self._pending: dict[str, _Pending] = {}
        self._rejoin_id: str | None = None  # the resume/watch sent after a reconnect
        self._rejoin_failures = 0
        self._opening = False  # a (re)connection is saying hello: requests wait
        self._background: set[asyncio.Task[None]] = set()
        self._events: asyncio.Queue[BaseModel | None] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None
        self._closed = False
        # Pacing after a rate_limited refusal (loop times): see _take_turn.
        self._paced_until = 0.0
        self._next_slot = 0.0
        self._spacing = 0.0

    # -- public API ----------------------------------------------------------

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

    async def connect(self) -> None:
        """Connect and say hello, and resume a saved seat if there is one.
        With several servers, the first one that answers.

        Resuming, it returns once the server has taken the seat back; a
        refusal for good (the server does not know the table, the token is
        void) raises ``RequestFailed`` and leaves the session file as it
        was. Passing trouble is retried as after a drop."""
        if self._unconfirmed and self.saved.table_id:
            self._resumed = asyncio.get_running_loop().create_future()
        for i, url in enumerate(self.urls):
            self.url = url
            try:
                await self._open()
                break
            except (OSError, InvalidHandshake, TimeoutError):
                if i == len(self.urls) - 1:
                    raise
        self._reader = asyncio.create_task(self._read_forever())
        if self._resumed is not None:
            await self._await_resume(self._resumed, self._reader)

    @staticmethod
    async def _await_resume(
        resumed: asyncio.Future[sm.Error | None], reader: asyncio.Task[None]
    ) -> None:
        await asyncio.wait((resumed, reader), return_when=asyncio.FIRST_COMPLETED)
        if not resumed.done():
            raise SessionClosed("no server took the saved seat back")
        refusal = resumed.result()
        if refusal is not None:
            raise RequestFailed(refusal.code, refusal.message)

    async def _resend_pending(self) -> None:
        """Send again every request still waiting for its reply (the server
        answers a repeated id without applying it twice)."""
        ws = self._ws
        if ws is None:
            return
        for pending in list(self._pending.values()):
            with contextlib.suppress(ConnectionClosed):
                await ws.send(encode(pending.message))

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of its own (kept referenced until done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _spawn_resend(self) -> None:
        self._in_background(self._resend_pending())

    def _drop_connection(self) -> None:
        """Close the socket; the reader reconnects and rejoins."""
        if self._ws is not None:
            self._in_background(self._ws.close(1000, "rejoining"))

    async def close(self) -> None:
        """Close the connection and stop reconnecting."""
        self._closed = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
        if self._knocking is not None and not self._knocking[1].done():
            self._knocking[1].set_exception(SessionClosed("the session was closed"))
        for pending in self._pending.values():
            if pending.future.done():
                continue
            if isinstance(pending.message, cm.Resume | cm.Watch):
                pending.future.cancel()  # nobody awaits a rejoin's reply
            else:
                pending.future.set_exception(SessionClosed("the session was closed"))
        self._events.put_nowait(None)

    def next_id(self) -> str:
        """A request id unique to this session (safe to repeat after a drop)."""
        self._counter += 1
        return f"{self._prefix}-{self._counter}"

    async def request(self, message: cm.Request, timeout: float = 30.0) -> BaseModel:
        """Send a request (its ``id`` must come from ``next_id``) and wait for
        its reply; raises ``RequestFailed`` on an ``error`` reply. A request
        refused as ``rate_limited`` is sent again (same id) when the server
        says, if that is within ``timeout`` seconds; otherwise the refusal
        is raised at once (its sentence says how long to wait)."""
        rid = str(message.id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            future: asyncio.Future[BaseModel] = loop.create_future()
            self._pending[rid] = _Pending(message, future)
            await self._send(message)
            try:
                reply = await asyncio.wait_for(future, timeout)
            finally:
                self._pending.pop(rid, None)
            if not (isinstance(reply, sm.Error) and reply.code == "rate_limited"):
                break
            # Nothing changed: the same id may be sent again, once the server
            # says so (_send waits for our turn).
            wait = 0.1 if reply.retry_after is None else reply.retry_after
            if loop.time() + wait >= deadline:
                break
            if wait > MAX_PACED_WAIT:
                await asyncio.sleep(wait)  # the server's retry_after for this request alone
            else:
                self._slow_down(wait)
        if isinstance(reply, sm.Error):
            # A rate_limited wait was ours to spend (above); a refused
            # table's is the player's to be told.
            told = None if reply.code == "rate_limited" else reply.retry_after
            raise RequestFailed(reply.code, reply.message, told, reply.reason)
        if isinstance(reply, sm.Seated):
            self._seated(reply)
        return reply

    async def request_once(self, message: cm.Request, timeout: float = 30.0) -> BaseModel:
        """Like ``request``, but a lookup the server makes wait is refused at
        once: ``RequestFailed`` with its ``retry_after``. For finding a table
        by its code (``join_table``, ``watch``, ``knock``): while an
        address's budget of wrong codes is spent every lookup is refused, for
        up to minutes, and the player is to be told how long rather than kept
        waiting. Only the connection's own request budget (a wait of a
        tenth of a second or less) is waited out, as ``request`` does."""
        rid = str(message.id)
        loop = asyncio.get_running_loop()
        while True:
            future: asyncio.Future[BaseModel] = loop.create_future()
            self._pending[rid] = _Pending(message, future)
            await self._send(message)
            try:
                reply = await asyncio.wait_for(future, timeout)
            finally:
                self._pending.pop(rid, None)
            if not (isinstance(reply, sm.Error) and reply.code == "rate_limited"):
                break
            wait = 0.1 if reply.retry_after is None else reply.retry_after
            if wait > MAX_PACED_WAIT:
                break
            self._slow_down(wait)  # the same id goes again in its turn (_send)
        if isinstance(reply, sm.Error):
            raise RequestFailed(reply.code, reply.message, reply.retry_after, reply.reason)
        if isinstance(reply, sm.Seated):
            self._seated(reply)
        return reply

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
            if not answer.done():
                answer.set_exception(exc)

    async def events(self) -> AsyncIterator[BaseModel]:
        """Table events and snapshots, in arrival order, until closed."""
        while True:
            item = await self._events.get()
            if item is None:
                return
            yield item

    def forget_table(self) -> None:
        """Drop the saved seat, in the file too (after game over, leaving,
        being removed by the host, or before taking another seat)."""
        self._clear_table()
        self._unconfirmed = False
        self._persist()

    # -- internals -------------------------------------------------------------

    def _clear_table(self) -> None:
        self.saved.table_id = self.saved.code = self.saved.seat_token = None
        self.saved.seat = None
        self.saved.last_seq = 0
        self.saved.watching = False

    def _persist(self) -> None:
        """Write the session file (as who and where we are now), unless it
        holds a saved seat the server has not taken back yet."""
        if self._unconfirmed:
            return
        self.saved.server = self.server
        self.saved.name = self.name
        self.saved.save(self.session_file)

    def _seat_lost(self, refusal: sm.Error) -> None:
        """A rejoin was refused for good. A seat resumed on connect that the
        server never took back stays in the file as it was (``connect``
        raises); one we held in this session is forgotten."""
        if self._unconfirmed:
            self._clear_table()  # in memory only: no more resume attempts
            if self._resumed is not None and not self._resumed.done():
                self._resumed.set_result(refusal)
            return
        self.forget_table()
        self._events.put_nowait(refusal)

    def _rejoined(self) -> None:
        """The server took the saved seat back: from now on the file follows."""
        if self._unconfirmed:
            self._unconfirmed = False
            self._persist()
        if self._resumed is not None and not self._resumed.done():
            self._resumed.set_result(None)

    def _seated(self, reply: sm.Seated) -> None:
        if reply.table_id != self.saved.table_id:
            self.saved.last_seq = 0
        self.saved.table_id = reply.table_id
        self.saved.code = reply.code
        self.saved.seat = reply.seat
        self.join_path = reply.join_path
        # A spectator holds no seat: a token kept from an earlier seat must
        # not be used to resume after a drop (we watch again instead).
        self.saved.watching = reply.seat is None
        if reply.seat is None:
            self.saved.seat_token = None
        elif reply.seat_token:
            self.saved.seat_token = reply.seat_token
        if reply.seat is None and self._unconfirmed:
            return  # watching is no seat: the file keeps the saved one
        self._unconfirmed = False  # a seat taken in this session: the file follows
        self._persist()

    def _slow_down(self, wait: float) -> None:
        """A request was refused over the connection's budget: no send before
        ``wait``, then one send per that interval for ``PACING_SECONDS``."""
        now = asyncio.get_running_loop().time()
        pacing = now < self._paced_until
        self._spacing = max(wait, self._spacing) if pacing else wait
        self._next_slot = max(self._next_slot, now + wait)
        self._paced_until = now + wait + PACING_SECONDS

    async def _take_turn(self) -> None:
        """While pacing, wait for this send's slot (each send takes the next
        one, ``_spacing`` apart), so queued requests do not all go at once."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now >= self._paced_until:
            return
        slot = max(now, self._next_slot)
        self._next_slot = slot + self._spacing
        if slot > now:
            await asyncio.sleep(slot - now)  # the server's retry_after, not synchronisation

    async def _send(self, message: BaseModel) -> None:
        await self._take_turn()
        if self._ws is None or self._opening or self._rejoin_id is not None:
            return  # sent (again) once we are connected and seated again
        with contextlib.suppress(ConnectionClosed):
            await self._ws.send(encode(message))

    async def _open(self) -> None:
        # Until hello is answered and the rejoin sent, a request would reach
        # the server before we are back at our table ("join a table first"):
        # requests made meanwhile wait, pending, and are sent after.
        self._opening = True
        try:
            await self._handshake()
        finally:
            self._opening = False
        if self._rejoin_id is None:
            # With a rejoin in flight the other requests wait for its answer:
            # sent now, they would reach the server before we are seated again.
            await self._resend_pending()
        self.connected.set()

    async def _handshake(self) -> None:
        """Connect, say hello, and send the resume (or watch) that takes us
        back to our table, if any."""
        self._ws = await connect(self.url, max_size=4 * 1024 * 1024, open_timeout=10)
        hello = cm.Hello(
            id=self.next_id(),
            version=PROTOCOL_VERSION,
            name=self.name,
            player_token=self.saved.player_token,
            client="hearts-python",
            program=self.program,
        )
        await self._ws.send(encode(hello))
        while True:
            reply = decode_server(await self._ws.recv())
            if isinstance(reply, sm.Error):
                raise RequestFailed(reply.code, reply.message)
            if isinstance(reply, sm.Welcome):
                break
        self.player_id = reply.player_id
        self.saved.player_token = reply.player_token
        self._persist()
        if self._rejoin_id is not None:
            # The previous connection's rejoin went unanswered: this one
            # replaces it (both would replay the same events), after a
            # backoff (a process handing over may send us round in circles).
            self._pending.pop(self._rejoin_id, None)
            self._rejoin_id = None
            self._rejoin_failures += 1
        rejoin: cm.Resume | cm.Watch | None = None
        if self.saved.table_id and self.saved.seat_token:
            rejoin = cm.Resume(
                id=self.next_id(),
                table_id=self.saved.table_id,
                seat_token=self.saved.seat_token,
                last_seq=self.saved.last_seq,
            )
        elif self.saved.watching and self.saved.code:
            rejoin = cm.Watch(id=self.next_id(), code=self.saved.code)
        if rejoin is not None:
            if self._rejoin_failures:
                # Backoff between refused rejoins (not synchronisation).
                await asyncio.sleep(self._backoff().delay(self._rejoin_failures))
            future: asyncio.Future[BaseModel] = asyncio.get_running_loop().create_future()
            self._rejoin_id = str(rejoin.id)
            self._pending[self._rejoin_id] = _Pending(rejoin, future)
            await self._ws.send(encode(rejoin))

    async def _read_forever(self) -> None:
        while not self._closed:
            ws = self._ws
            try:
                if ws is None:
                    raise ConnectionClosed(None, None)
                async for frame in ws:
                    try:
                        message = decode_server(frame)
                    except UnknownType as exc:
                        # A newer server's message: ignored, as the
                        # protocol's compatibility rule says.
                        log.debug("ignoring a message of unknown type: %s", exc)
                        continue
                    self._dispatch(message)
                raise ConnectionClosed(None, None)
            except (ConnectionClosed, OSError):
                self.connected.clear()
                if self._closed or not self.reconnect:
                    break
                await self._reconnect()
        self._events.put_nowait(None)

    def _backoff(self) -> Backoff:
        """The schedule of this session's retries: from 0.1 s, doubling, at
        most ``max_backoff``, jittered (clients dropped together, by a
        server restart, do not all come back at once)."""
        return Backoff(0.1, max(0.1, self.max_backoff))

    async def _reconnect(self) -> None:
        backoff = self._backoff()
        while not self._closed:
            try:
                await self._open()
                log.info("reconnected to %s", self.url)
                self._events.put_nowait(_Reconnected())
                if self._knocking is not None:
                    self._in_background(self._knock_again())
                return
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, TimeoutError):
                self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
                if backoff.waited > self.give_up_after:
                    self._closed = True
                    return
                await asyncio.sleep(backoff.next())  # between attempts (not synchronisation)
            except RequestFailed as exc:
                if exc.code in GONE_FOR_GOOD:
                    self._seat_lost(sm.Error(code=exc.code, message=exc.message))
                    continue
                # Any other refusal of hello (rate limit, a server busy
                # restarting): wait and try again, never kill the reader.
                log.warning("reconnect refused (%s); retrying", exc.code)
                await asyncio.sleep(backoff.next())
                if backoff.waited > self.give_up_after:
                    self._closed = True
                    return

    def _dispatch(self, msg: Any) -> None:
        if isinstance(msg, REPLY_TYPES):
            pending = self._pending.get(str(msg.id)) if msg.id is not None else None
            if pending is not None and not pending.future.done():
                if str(msg.id) == self._rejoin_id:
                    # Our own resume or watch after a reconnect: nobody awaits it.
                    self._rejoin_id = None
                    self._pending.pop(str(msg.id), None)
                    if isinstance(msg, sm.Seated):
                        self.join_path = msg.join_path
                    if not isinstance(msg, sm.Error):
                        self._rejoin_failures = 0
                        self._rejoined()
                        self._spawn_resend()
                    elif msg.code in GONE_FOR_GOOD or (msg.code in NOT_HERE and self._unconfirmed):
                        self._seat_lost(msg)
                        self._spawn_resend()  # they will be refused: their callers hear why
                    else:
                        # Passing trouble (the table changing hands, the store
                        # restarting): keep the seat, reconnect and try again.
                        self._rejoin_failures += 1
                        self._drop_connection()
                    return
                pending.future.set_result(msg)
            elif isinstance(msg, sm.Error):
                self._events.put_nowait(msg)
            return
        if isinstance(msg, sm.KnockAnswered):
            # Only the knock we wait for is answered (an answer to one we
            # stopped waiting for is dropped).
            if self._knocking is not None:
                code, answer = self._knocking
                if _same_code(code, msg.code) and not answer.done():
                    answer.set_result(msg)
            return
        if isinstance(msg, sm.Kicked):
            # The host removed us: the seat token is void and the table sends
            # nothing more. Never resume (or watch) it again.
            if msg.table_id == self.saved.table_id:
                self.forget_table()
            self._events.put_nowait(msg)
            return
        seq = getattr(msg, "seq", None)
        if isinstance(seq, int) and seq > self.saved.last_seq:
            self.saved.last_seq = seq
        if isinstance(msg, sm.Snapshot):
            self.last_view = msg.view
        self._events.put_nowait(msg)


def _same_code(typed: str, code: str) -> bool:
    """Whether an invite code as typed (``abc-def``) is ``code``."""
    return "".join(ch for ch in typed.upper() if ch.isalnum()) == code


class _Reconnected(BaseModel):
    """Put on the event stream after a reconnect (for UIs to show it)."""

    type: str = "reconnected"


Reconnected = _Reconnected

"""The client session as a state machine: events in, effects out, no I/O.

``SessionMachine`` decides everything ``ClientSession`` (``client/session.py``)
does: when to open a socket and to which server, what to send (hello, the
resume or watch that takes us back to our table, requests, their resends),
which reply settles which request, when to wait (reconnect back-off, a
refused rejoin, rate-limit pacing), when to give up, and when the session
file is written. It never touches a socket, a clock or asyncio: the adapter
feeds it ``Event`` values with the time (``handle(event, now)``) and carries
out the ``Effect`` values it returns, in order. A ``Wake`` effect asks for
its event to be fed back at a given time.

The phases, the events, the effects and which event may move the machine
from which phase to which are data, in ``client/session_states.py``
(``TRANSITIONS``, shown in docs/architecture.md): an event a phase does not
expect is a bug of the adapter and raises ``SessionMachineError``, and a
handler that tries a move the table does not list raises too.

Events of an old connection (a reader still draining a socket we gave up on)
carry its number and are dropped: only the current connection counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel

from common.retry import Backoff
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import PROTOCOL_VERSION
from protocol.exchanges import REPLY_TYPES

from .pacing import Pacer
from .saved_session import SavedSession
from .session_states import (
    TRANSITIONS,
    Abort,
    Close,
    CloseSocket,
    ConnectFailed,
    ConnectionLost,
    Deliver,
    Effect,
    Ended,
    Event,
    ForgetTable,
    KnockHeard,
    MessageIn,
    Opened,
    OpenSocket,
    Persist,
    Phase,
    Refused,
    RejoinDue,
    Reopened,
    RequestAbandoned,
    RequestMade,
    Resolve,
    ResumeSettled,
    RetryDue,
    Send,
    SendDue,
    SessionMachineError,
    SocketFailed,
    SocketOpened,
    Start,
    Wake,
)

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


@dataclass(frozen=True)
class SessionSettings:
    """How the session connects: ``server`` as given (several URLs,
    comma-separated: processes sharing one store), our name, whether we are
    a program playing by itself, and the reconnect policy."""

    server: str
    name: str
    program: bool = False
    reconnect: bool = True
    max_backoff: float = 5.0
    give_up_after: float = 120.0

    @property
    def urls(self) -> list[str]:
        """The servers, in the order they are tried."""
        return [u.strip() for u in self.server.split(",") if u.strip()]


@dataclass
class _Pending:
    """A request waiting for its reply; ``due``: the time its next send
    waits for (None: sent, or waiting for a connection)."""

    message: cm.Request
    once: bool
    deadline: float
    due: float | None = None


class SessionMachine:
    """The session's decisions; see the module docstring."""

    def __init__(
        self,
        settings: SessionSettings,
        saved: SavedSession,
        *,
        id_prefix: str,
        rng: random.Random,
        resume_saved: bool = True,
    ) -> None:
        self.settings = settings
        self.urls = settings.urls or [settings.server]
        self.url = self.urls[0]
        self.saved = saved
        self.phase = Phase.IDLE
        self.conn = 0  # the current connection's number
        self.player_id = ""
        # The link of the table we are at (``Seated.join_path``): with the
        # invite secret for a player, the bare code for a spectator.
        self.join_path = ""
        self.last_view: Any = None  # the newest SeatView
        # A saved seat is resumed on connect (unless ``resume_saved`` is
        # False: we host or join another table). Until the server takes it
        # back, or grants the new seat, nothing is written: the file keeps
        # the seat, its tokens, name and server byte for byte if the resume
        # or the join is refused, so the player can still go back to it.
        self.unconfirmed = bool(saved.table_id and saved.seat_token)
        if not resume_saved:
            saved.clear_table()  # in memory only: neither resumed nor watched again
        self.resume_pending = False  # connect() waits for the saved seat
        self.ever_opened = False
        self.pending: dict[str, _Pending] = {}
        self.rejoin: cm.Resume | cm.Watch | None = None  # sent, unanswered
        self.rejoin_failures = 0
        self.pacer = Pacer()
        self._rng = rng
        self._backoff = self._new_backoff()
        self._prefix = id_prefix
        self._counter = 0
        self._out: list[Effect] = []
        self._handlers: Mapping[type[Any], Callable[[Any, float], Phase]] = {
            Start: self._start,
            SocketOpened: self._socket_opened,
            SocketFailed: self._attempt_failed,
            MessageIn: self._message_in,
            ConnectionLost: self._connection_lost,
            RejoinDue: self._rejoin_due,
            RetryDue: self._retry_due,
            RequestMade: self._request_made,
            SendDue: self._send_due,
            RequestAbandoned: self._request_abandoned,
            ForgetTable: self._forget_table,
            Close: self._close,
        }

    # -- driving -------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether we are connected and welcomed."""
        return self.phase in (Phase.REJOINING, Phase.READY)

    def next_id(self) -> str:
        """A request id unique to this session (safe to repeat after a drop)."""
        self._counter += 1
        return f"{self._prefix}-{self._counter}"

    def handle(self, event: Event, now: float) -> list[Effect]:
        """Apply ``event`` (at time ``now``) and return what to do, in order."""
        if self._stale(event):
            if isinstance(event, SocketOpened):
                return [CloseSocket(event.conn, "replaced")]
            return []
        allowed = TRANSITIONS[self.phase].get(type(event))
        if allowed is None:
            raise SessionMachineError(f"{type(event).__name__} while {self.phase.value}")
        self._out = []
        if self.phase is Phase.CLOSED and not isinstance(event, RequestMade | Close):
            return self._out  # nothing more happens (timers the adapter could not stop)
        target = self._handlers[type(event)](event, now)
        if target not in allowed:
            raise SessionMachineError(
                f"{type(event).__name__} may not move {self.phase.value} to {target.value}"
            )
        self.phase = target
        return self._out

    def _stale(self, event: Event) -> bool:
        conn = getattr(event, "conn", None)
        return conn is not None and conn != self.conn

    def _emit(self, effect: Effect) -> None:
        self._out.append(effect)

    def _send(self, message: BaseModel) -> None:
        self._emit(Send(self.conn, message))

    def _new_backoff(self) -> Backoff:
        """The schedule of retries: from 0.1 s, doubling, at most
        ``max_backoff``, jittered (clients dropped together, by a server
        restart, do not all come back at once)."""
        return Backoff(0.1, max(0.1, self.settings.max_backoff), rng=self._rng)

    # -- connecting ----------------------------------------------------------------

    def _start(self, _: Start, now: float) -> Phase:
        self.resume_pending = bool(self.unconfirmed and self.saved.table_id)
        return self._open()

    def _open(self) -> Phase:
        self.conn += 1
        self._emit(OpenSocket(self.conn, self.url))
        return Phase.CONNECTING

    def _socket_opened(self, _: SocketOpened, now: float) -> Phase:
        self._send(
            cm.Hello(
                id=self.next_id(),
                version=PROTOCOL_VERSION,
                name=self.settings.name,
                player_token=self.saved.player_token,
                client="hearts-python",
                program=self.settings.program,
            )
        )
        return Phase.GREETING

    def _attempt_failed(self, _: SocketFailed | ConnectionLost, now: float) -> Phase:
        """An attempt to connect failed: on the first connect the next server
        is tried (none left: ``connect`` fails); later, the next server after
        a back-off, until ``give_up_after``."""
        if not self.ever_opened:
            index = self.urls.index(self.url) + 1
            if index < len(self.urls):
                self.url = self.urls[index]
                return self._open()
            self._emit(ConnectFailed(None))
            return self._end()
        self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
        return self._retry_later(now)

    def _retry_later(self, now: float) -> Phase:
        if self._backoff.waited > self.settings.give_up_after:
            return self._end()
        self._emit(Wake(now + self._backoff.next(), RetryDue()))
        return Phase.BACKING_OFF

    def _retry_due(self, _: RetryDue, now: float) -> Phase:
        return self._open()

    def _greeted(self, msg: BaseModel, now: float) -> Phase:
        if isinstance(msg, sm.Error):
            return self._hello_refused(msg, now)
        if not isinstance(msg, sm.Welcome):
            return Phase.GREETING  # nothing else counts before the welcome
        self.player_id = msg.player_id
        self.saved.player_token = msg.player_token
        self._persist()
        self._emit(Reopened() if self.ever_opened else Opened())
        self.ever_opened = True
        rejoin = self._rejoin_message()
        if rejoin is None:
            return self._ready()
        self.rejoin = rejoin
        if self.rejoin_failures:
            # A back-off between refused rejoins (a process handing over
            # may send us round in circles).
            delay = self._new_backoff().delay(self.rejoin_failures)
            self._emit(Wake(now + delay, RejoinDue(self.conn)))
        else:
            self._send(rejoin)
        return Phase.REJOINING

    def _drop_socket(self, reason: str) -> None:
        """Close the current connection; whatever it still says is stale."""
        self._emit(CloseSocket(self.conn, reason))
        self.conn += 1

    def _hello_refused(self, refusal: sm.Error, now: float) -> Phase:
        self._drop_socket("hello refused")
        if not self.ever_opened:
            self._emit(ConnectFailed(refusal))
            return self._end()
        if refusal.code in GONE_FOR_GOOD:
            self._seat_lost(refusal)
            return self._open()
        # Any other refusal (rate limit, a server busy restarting): wait
        # and try again.
        return self._retry_later(now)

    def _rejoin_message(self) -> cm.Resume | cm.Watch | None:
        """The resume (or watch) that takes us back to our table, if any."""
        if self.saved.table_id and self.saved.seat_token:
            return cm.Resume(
                id=self.next_id(),
                table_id=self.saved.table_id,
                seat_token=self.saved.seat_token,
                last_seq=self.saved.last_seq,
            )
        if self.saved.watching and self.saved.code:
            return cm.Watch(id=self.next_id(), code=self.saved.code)
        return None

    def _rejoin_due(self, _: RejoinDue, now: float) -> Phase:
        if self.rejoin is not None:
            self._send(self.rejoin)
        return Phase.REJOINING

    def _rejoin_answered(self, msg: BaseModel, now: float) -> Phase:
        self.rejoin = None
        if isinstance(msg, sm.Seated):
            self.join_path = msg.join_path
        if not isinstance(msg, sm.Error):
            self.rejoin_failures = 0
            self._rejoined()
            return self._ready()
        if msg.code in GONE_FOR_GOOD or (msg.code in NOT_HERE and self.unconfirmed):
            self._seat_lost(msg)
            return self._ready()  # the requests will be refused: their callers hear why
        # Passing trouble (the table changing hands, the store restarting):
        # keep the seat, connect again and try again.
        self.rejoin_failures += 1
        self._drop_socket("rejoining")
        self._backoff = self._new_backoff()
        return self._open()

    def _ready(self) -> Phase:
        """Requests made while we were away go now (the server answers a
        repeated id without applying it twice)."""
        for pending in self.pending.values():
            if pending.due is None:
                self._send(pending.message)
        return Phase.READY

    def _connection_lost(self, event: ConnectionLost, now: float) -> Phase:
        if self.phase is Phase.GREETING:
            return self._attempt_failed(event, now)
        if self.rejoin is not None:
            # Unanswered: the next connection's rejoin replaces it, after a
            # back-off.
            self.rejoin = None
            self.rejoin_failures += 1
        if not self.settings.reconnect:
            return self._end()
        self._backoff = self._new_backoff()
        return self._open()

    def _end(self) -> Phase:
        for rid in self.pending:
            self._emit(Abort(rid))
        self.pending.clear()
        self.rejoin = None
        self._drop_socket("closed")
        self._emit(Ended())
        return Phase.CLOSED

    def _close(self, _: Close, now: float) -> Phase:
        if self.phase is Phase.CLOSED:
            return Phase.CLOSED
        return self._end()

    # -- messages --------------------------------------------------------------------

    def _message_in(self, event: MessageIn, now: float) -> Phase:
        msg = event.message
        if self.phase is Phase.GREETING:
            return self._greeted(msg, now)
        if isinstance(msg, REPLY_TYPES):
            return self._reply(msg, now)
        if isinstance(msg, sm.KnockAnswered):
            self._emit(KnockHeard(msg))
        elif isinstance(msg, sm.Kicked):
            # The host removed us: the seat token is void and the table
            # sends nothing more. Never resume (or watch) it again.
            if msg.table_id == self.saved.table_id:
                self._drop_table()
            self._emit(Deliver(msg))
        else:
            self._table_message(msg)
        return self.phase

    def _table_message(self, msg: BaseModel) -> None:
        seq = getattr(msg, "seq", None)
        if isinstance(seq, int) and seq > self.saved.last_seq:
            self.saved.last_seq = seq
        if isinstance(msg, sm.Snapshot):
            self.last_view = msg.view
        self._emit(Deliver(msg))

    def _reply(self, msg: Any, now: float) -> Phase:
        rid = None if msg.id is None else str(msg.id)
        if self.rejoin is not None and rid == str(self.rejoin.id):
            return self._rejoin_answered(msg, now)
        pending = self._awaiting(rid)
        if rid is None or pending is None:
            if isinstance(msg, sm.Error):
                self._emit(Deliver(msg))  # a refusal of no request of ours
        elif isinstance(msg, sm.Error) and msg.code == "rate_limited":
            self._rate_limited(rid, pending, msg, now)
        else:
            self._settle(rid, msg, pending.once)
        return self.phase

    def _awaiting(self, rid: str | None) -> _Pending | None:
        """The request ``rid`` if it was sent and waits for its reply."""
        pending = self.pending.get(rid) if rid is not None else None
        return pending if pending is not None and pending.due is None else None

    def _rate_limited(self, rid: str, pending: _Pending, refusal: sm.Error, now: float) -> None:
        """Nothing changed: the same id may be sent again once the server
        says so, if that is within the caller's patience. A ``once`` request
        is refused at once with a wait longer than the connection's own."""
        wait = 0.1 if refusal.retry_after is None else refusal.retry_after
        too_long = wait > MAX_PACED_WAIT
        if (pending.once and too_long) or now + wait >= pending.deadline:
            self._settle(rid, refusal, pending.once)
        elif too_long:
            # The server's retry_after for this request alone: the others go on.
            self._wait_for_turn(rid, pending, now + wait)
        else:
            self.pacer.slow_down(now, wait)
            self._send_in_turn(rid, pending, now)

    def _settle(self, rid: str, reply: BaseModel, once: bool) -> None:
        del self.pending[rid]
        if isinstance(reply, sm.Error):
            # A rate_limited wait was ours to spend (unless ``once``); a
            # refused table's is the player's to be told.
            ours = reply.code == "rate_limited" and not once
            self._emit(Refused(rid, reply, None if ours else reply.retry_after))
            return
        if isinstance(reply, sm.Seated):
            self._seated(reply)
        self._emit(Resolve(rid, reply))

    # -- requests --------------------------------------------------------------------

    def _request_made(self, event: RequestMade, now: float) -> Phase:
        rid = str(event.message.id)
        if self.phase is Phase.CLOSED:
            self._emit(Abort(rid))
            return Phase.CLOSED
        pending = _Pending(event.message, event.once, now + event.timeout)
        self.pending[rid] = pending
        if self.phase is Phase.READY:
            self._send_in_turn(rid, pending, now)
        # Otherwise it waits, pending, and goes once we are back at our table
        # (sent before, it would reach the server before we are seated again).
        return self.phase

    def _send_in_turn(self, rid: str, pending: _Pending, now: float) -> None:
        slot = self.pacer.take_turn(now)
        if slot > now:
            self._wait_for_turn(rid, pending, slot)
        else:
            self._send(pending.message)

    def _wait_for_turn(self, rid: str, pending: _Pending, at: float) -> None:
        pending.due = at
        self._emit(Wake(at, SendDue(rid)))

    def _send_due(self, event: SendDue, now: float) -> Phase:
        pending = self.pending.get(event.rid)
        if pending is None or pending.due is None:
            return self.phase
        pending.due = None
        if self.phase is Phase.READY:
            self._send(pending.message)
        return self.phase  # not ready: it goes with the others once we are

    def _request_abandoned(self, event: RequestAbandoned, now: float) -> Phase:
        self.pending.pop(event.rid, None)
        return self.phase

    # -- the saved seat ------------------------------------------------------------

    def _forget_table(self, _: ForgetTable, now: float) -> Phase:
        self._drop_table()
        return self.phase

    def _drop_table(self) -> None:
        """Forget the seat, in the file too."""
        self.saved.clear_table()
        self.unconfirmed = False
        self._persist()

    def _persist(self) -> None:
        """Write the session file (as who and where we are now), unless it
        holds a saved seat the server has not taken back yet."""
        if self.unconfirmed:
            return
        self.saved.server = self.settings.server
        self.saved.name = self.settings.name
        self._emit(Persist(replace(self.saved)))

    def _settle_resume(self, refusal: sm.Error | None) -> None:
        if self.resume_pending:
            self.resume_pending = False
            self._emit(ResumeSettled(refusal))

    def _seat_lost(self, refusal: sm.Error) -> None:
        """A rejoin was refused for good. A seat resumed on connect that the
        server never took back stays in the file as it was (``connect``
        raises); one we held in this session is forgotten."""
        if self.unconfirmed:
            self.saved.clear_table()  # in memory only: no more resume attempts
            self._settle_resume(refusal)
            return
        self._drop_table()
        self._emit(Deliver(refusal))

    def _rejoined(self) -> None:
        """The server took the saved seat back: from now on the file follows."""
        if self.unconfirmed:
            self.unconfirmed = False
            self._persist()
        self._settle_resume(None)

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
        if reply.seat is None and self.unconfirmed:
            return  # watching is no seat: the file keeps the saved one
        self.unconfirmed = False  # a seat taken in this session: the file follows
        self._persist()

"""The client session's vocabulary, as data: its phases, the events the
adapter feeds ``SessionMachine`` (``client/session_machine.py``), the
effects it returns, and ``TRANSITIONS``, which event may move the machine
from which phase to which (shown in docs/architecture.md).

Events of a connection carry its number (``conn``): the machine drops those
of a connection it already left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from protocol import client_messages as cm
from protocol import server_messages as sm

from .saved_session import SavedSession


class SessionMachineError(Exception):
    """The adapter fed an event the current phase does not expect (a bug)."""


class Phase(Enum):
    """Where the session is."""

    IDLE = "idle"  # made, not connected yet
    CONNECTING = "connecting"  # a socket is being opened
    GREETING = "greeting"  # hello sent, waiting for welcome
    REJOINING = "rejoining"  # the resume (or watch) is on its way: requests wait
    READY = "ready"  # requests go as they are made
    BACKING_OFF = "backing off"  # waiting before the next attempt to connect
    CLOSED = "closed"  # closed, gave up, or could not connect


# -- events (fed in) -------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """``connect()`` was called."""


@dataclass(frozen=True)
class SocketOpened:
    """Connection ``conn`` opened."""

    conn: int


@dataclass(frozen=True)
class SocketFailed:
    """Connection ``conn`` could not be opened (refused, no such host,
    a timeout, a handshake the server turned down)."""

    conn: int


@dataclass(frozen=True)
class MessageIn:
    """A message arrived on connection ``conn``."""

    conn: int
    message: BaseModel


@dataclass(frozen=True)
class ConnectionLost:
    """Connection ``conn`` closed or broke."""

    conn: int


@dataclass(frozen=True)
class RejoinDue:
    """The wait before re-sending a refused rejoin on ``conn`` is over."""

    conn: int


@dataclass(frozen=True)
class RetryDue:
    """The back-off before the next attempt to connect is over."""


@dataclass(frozen=True)
class RequestMade:
    """A caller sends ``message`` and waits ``timeout`` seconds for its reply;
    ``once``: a lookup the server makes wait is refused at once."""

    message: cm.Request
    timeout: float
    once: bool = False


@dataclass(frozen=True)
class SendDue:
    """Request ``rid``'s turn to be sent (again) has come."""

    rid: str


@dataclass(frozen=True)
class RequestAbandoned:
    """The caller stopped waiting for request ``rid`` (timed out, cancelled)."""

    rid: str


@dataclass(frozen=True)
class ForgetTable:
    """Drop the saved seat, in the file too."""


@dataclass(frozen=True)
class Close:
    """``close()`` was called."""


Event = (
    Start
    | SocketOpened
    | SocketFailed
    | MessageIn
    | ConnectionLost
    | RejoinDue
    | RetryDue
    | RequestMade
    | SendDue
    | RequestAbandoned
    | ForgetTable
    | Close
)

# -- effects (returned) ----------------------------------------------------------


@dataclass(frozen=True)
class OpenSocket:
    """Open connection number ``conn`` to ``url``."""

    conn: int
    url: str


@dataclass(frozen=True)
class CloseSocket:
    """Close connection ``conn`` (if it is still open)."""

    conn: int
    reason: str


@dataclass(frozen=True)
class Send:
    """Send ``message`` on connection ``conn``, after anything sent before."""

    conn: int
    message: BaseModel


@dataclass(frozen=True)
class Wake:
    """Feed ``event`` back at time ``at``."""

    at: float
    event: Event


@dataclass(frozen=True)
class Resolve:
    """Request ``rid`` is answered with ``reply``."""

    rid: str
    reply: BaseModel


@dataclass(frozen=True)
class Refused:
    """Request ``rid`` is refused with ``error``; ``retry_after``: the wait
    to tell the caller (None when it was ours to spend)."""

    rid: str
    error: sm.Error
    retry_after: float | None


@dataclass(frozen=True)
class Abort:
    """Request ``rid`` will get no reply: the session is closed."""

    rid: str


@dataclass(frozen=True)
class Deliver:
    """Put ``message`` on the event stream."""

    message: BaseModel


@dataclass(frozen=True)
class KnockHeard:
    """A host answered a knock (the adapter knows which one it waits for)."""

    answer: sm.KnockAnswered


@dataclass(frozen=True)
class Persist:
    """Write ``saved`` to the session file."""

    saved: SavedSession


@dataclass(frozen=True)
class Opened:
    """The first connection said welcome (``connect()`` may return)."""


@dataclass(frozen=True)
class Reopened:
    """A later connection said welcome: we are back."""


@dataclass(frozen=True)
class ConnectFailed:
    """No server could be reached at all, or the first hello was refused
    (``refusal``)."""

    refusal: sm.Error | None


@dataclass(frozen=True)
class ResumeSettled:
    """The seat saved before connecting was taken back (``refusal`` None)
    or refused."""

    refusal: sm.Error | None


@dataclass(frozen=True)
class Ended:
    """The session is over: no more events, no more replies."""


Effect = (
    OpenSocket
    | CloseSocket
    | Send
    | Wake
    | Resolve
    | Refused
    | Abort
    | Deliver
    | KnockHeard
    | Persist
    | Opened
    | Reopened
    | ConnectFailed
    | ResumeSettled
    | Ended
)

# -- the transition table --------------------------------------------------------

_P = Phase
# Events every phase accepts. The phase stays (a request is only recorded
# until there is a connection to send it on), but for ``Close``.
_ANYWHERE: Mapping[type[Any], frozenset[Phase]] = {
    RequestMade: frozenset(),
    SendDue: frozenset(),
    RequestAbandoned: frozenset(),
    ForgetTable: frozenset(),
    Close: frozenset({_P.CLOSED}),
}
_MOVES: Mapping[Phase, Mapping[type[Any], frozenset[Phase]]] = {
    _P.IDLE: {Start: frozenset({_P.CONNECTING})},
    _P.CONNECTING: {
        SocketOpened: frozenset({_P.GREETING}),
        SocketFailed: frozenset({_P.CONNECTING, _P.BACKING_OFF, _P.CLOSED}),
    },
    _P.GREETING: {
        MessageIn: frozenset(
            {_P.GREETING, _P.REJOINING, _P.READY, _P.CONNECTING, _P.BACKING_OFF, _P.CLOSED}
        ),
        ConnectionLost: frozenset({_P.CONNECTING, _P.BACKING_OFF, _P.CLOSED}),
    },
    _P.REJOINING: {
        RejoinDue: frozenset({_P.REJOINING}),
        MessageIn: frozenset({_P.REJOINING, _P.READY, _P.CONNECTING}),
        ConnectionLost: frozenset({_P.CONNECTING, _P.CLOSED}),
    },
    _P.READY: {
        MessageIn: frozenset({_P.READY}),
        ConnectionLost: frozenset({_P.CONNECTING, _P.CLOSED}),
    },
    _P.BACKING_OFF: {RetryDue: frozenset({_P.CONNECTING})},
    # Closed, a back-off timer that fired anyway changes nothing (the events
    # of connections are all stale by then: a socket that opens is closed).
    _P.CLOSED: {RetryDue: frozenset()},
}
TRANSITIONS: Mapping[Phase, Mapping[type[Any], frozenset[Phase]]] = MappingProxyType(
    {
        phase: MappingProxyType(
            {
                event: targets or frozenset({phase})
                for event, targets in {**_ANYWHERE, **_MOVES[phase]}.items()
            }
        )
        for phase in Phase
    }
)

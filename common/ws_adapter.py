"""The one door to the ``websockets`` library.

Server, client and tools code import websockets only from here (the tests'
own raw clients use the library directly, as any client would), and every piece of
the library that is not its documented connection API (the transport under a
connection, its sans-I/O protocol object and state, the opening handshake's
request and response) is touched only by the functions below. The major
version is pinned in pyproject.toml; on an upgrade, this module and
``tests/common/test_ws_adapter.py`` (which exercises each function on a real
connection and checks every name in ``INTERNALS`` exists) are what to check.
"""

from __future__ import annotations

from asyncio.trsock import TransportSocket
from collections.abc import Iterable, Mapping

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidStatus,
    InvalidURI,
    WebSocketException,
)
from websockets.http11 import Request, Response
from websockets.protocol import State

__all__ = [
    "INTERNALS",
    "ClientConnection",
    "ConnectionClosed",
    "Headers",
    "InvalidHandshake",
    "InvalidStatus",
    "InvalidURI",
    "Request",
    "Response",
    "Server",
    "ServerConnection",
    "WebSocketException",
    "abort",
    "broadcast",
    "connect",
    "forget_handshake",
    "handshake_headers",
    "peer_host",
    "raw_socket",
    "serve",
    "write_at_once",
]

# Every attribute beyond the documented connection API this module reads,
# as (owner, attribute): the test checks each exists in the installed release.
INTERNALS: tuple[tuple[type, str], ...] = (
    (ServerConnection, "transport"),
    (ServerConnection, "protocol"),
    (ServerConnection, "request"),
    (ServerConnection, "response"),
    (ServerConnection, "remote_address"),
    (State, "OPEN"),
    (Request, "headers"),
    (Response, "headers"),
)


def abort(ws: ServerConnection) -> None:
    """Drop the connection's socket now, without the closing handshake."""
    ws.transport.abort()


def write_at_once(ws: ServerConnection, frames: Iterable[bytes]) -> bool:
    """Write ``frames`` (binary messages) straight to the socket when nothing
    is waiting to be written before them: what websockets' ``broadcast``
    does for one frame, for all of them (the protocol frames each message,
    the transport gets their bytes in one piece, no task). Whether they went
    this way; False: the caller queues them for its writer. A socket gone
    under us raises ``OSError``-like errors the caller's reader will see."""
    if ws.transport.get_write_buffer_size() != 0 or ws.protocol.state is not State.OPEN:
        return False
    protocol = ws.protocol
    for frame in frames:
        protocol.send_binary(frame)
    ws.transport.write(b"".join(protocol.data_to_send()))
    return True


def raw_socket(ws: ServerConnection) -> TransportSocket | None:
    """The connection's socket (asyncio's view of it, enough to set its
    options), if it still has one."""
    sock: TransportSocket | None = ws.transport.get_extra_info("socket")
    return sock


def peer_host(ws: ServerConnection) -> str:
    """The address the connection comes from (``?`` if unknown)."""
    return str(ws.remote_address[0]) if ws.remote_address else "?"


def handshake_headers(ws: ServerConnection) -> Mapping[str, str]:
    """The headers of the connection's opening request (empty once forgotten)."""
    return ws.request.headers if ws.request is not None else {}


def forget_handshake(ws: ServerConnection) -> None:
    """Drop the opening handshake's headers. The request itself stays:
    websockets takes a connection without one for one still in its
    handshake."""
    if ws.request is not None:
        ws.request.headers.clear()
    if ws.response is not None:
        ws.response.headers.clear()

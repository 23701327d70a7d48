"""A minimal HTTP/1.1 listener for the operator's side ports: the metrics
listener (``--metrics-listen``) and the admin API (``--admin-listen``).

The game port is websockets' server, whose HTTP side answers GET only; the
admin API needs POST with a JSON body, so these listeners parse HTTP
themselves, as little as they need: one request per connection (the reply
says ``Connection: close``), a bounded head and body, and a deadline for the
whole request, so a client that sends slowly or too much cannot hold the
listener. Every request gets an access line (``hearts.access``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus

from .lifecycle_log import log_access

log = logging.getLogger("hearts.http")

MAX_HEAD = 16 * 1024
MAX_BODY = 64 * 1024
REQUEST_SECONDS = 10.0
"""A request must arrive whole within this long."""


@dataclass(frozen=True)
class PlainRequest:
    """One request: method, path (without the query), headers (names in
    lower case), body, and the peer's address."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    peer: str


@dataclass(frozen=True)
class PlainResponse:
    """What to answer."""

    status: HTTPStatus
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)


def json_response(status: HTTPStatus, data: object) -> PlainResponse:
    """A JSON body (one line, UTF-8)."""
    return PlainResponse(status, json.dumps(data, ensure_ascii=False).encode() + b"\n")


Handler = Callable[[PlainRequest], Awaitable[PlainResponse]]


class _BadRequest(Exception):
    pass


async def _read_request(reader: asyncio.StreamReader, peer: str) -> PlainRequest:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.LimitOverrunError:
        raise _BadRequest("request head too large") from None
    except asyncio.IncompleteReadError:
        raise _BadRequest("incomplete request") from None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise _BadRequest("not an HTTP/1.x request")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise _BadRequest("malformed header")
        headers[name.strip().lower()] = value.strip()
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        raise _BadRequest("bad Content-Length") from None
    if not 0 <= length <= MAX_BODY:
        raise _BadRequest("body too large")
    if "chunked" in headers.get("transfer-encoding", "").lower():
        raise _BadRequest("chunked bodies are not accepted; send Content-Length")
    try:
        body = await reader.readexactly(length) if length else b""
    except asyncio.IncompleteReadError:
        raise _BadRequest("incomplete body") from None
    return PlainRequest(parts[0].upper(), parts[1].split("?", 1)[0], headers, body, peer)


def _encode(response: PlainResponse) -> bytes:
    head = [
        f"HTTP/1.1 {response.status.value} {response.status.phrase}",
        f"Content-Type: {response.content_type}",
        f"Content-Length: {len(response.body)}",
        "Cache-Control: no-store",
        "X-Content-Type-Options: nosniff",
        "Connection: close",
        *(f"{name}: {value}" for name, value in response.headers.items()),
    ]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + response.body


async def start_plain_http(host: str, port: int, handler: Handler, name: str) -> asyncio.Server:
    """Listen on ``host:port`` (0: a free port) and answer every request with
    ``handler``; ``name`` goes in the access lines (``metrics``, ``admin``)."""

    async def serve_one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        started = time.monotonic()
        peer_info = writer.get_extra_info("peername")
        peer = str(peer_info[0]) if peer_info else "?"
        path, status = "?", HTTPStatus.BAD_REQUEST
        try:
            try:
                async with asyncio.timeout(REQUEST_SECONDS):
                    request = await _read_request(reader, peer)
                path = request.path
                response = await handler(request)
            except _BadRequest as exc:
                response = json_response(HTTPStatus.BAD_REQUEST, {"error": str(exc)})
            except TimeoutError:
                response = json_response(HTTPStatus.REQUEST_TIMEOUT, {"error": "request timeout"})
            except Exception:  # a bug in one request must not stop the listener
                log.exception("%s listener: request failed", name)
                response = json_response(
                    HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal error; see the log"}
                )
            status = response.status
            writer.write(_encode(response))
            async with asyncio.timeout(REQUEST_SECONDS):
                await writer.drain()
        except (ConnectionError, TimeoutError):
            pass  # the client went away: nothing to answer
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
            log_access(name, path, peer, int(status), time.monotonic() - started)

    return await asyncio.start_server(serve_one, host, port, limit=MAX_HEAD)


def split_listen(spec: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9000`` for IPv6) as host and port;
    ``ValueError`` with a sentence otherwise."""
    host, sep, port = spec.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{spec!r} is not HOST:PORT")
    host = host.strip("[]") or "127.0.0.1"
    return host, int(port)

"""``common/ws_adapter.py`` on a real WebSocket connection over 127.0.0.1:
each function that reaches past websockets' documented connection API does
what the server relies on, every internal it names exists in the installed
release, and that release is the major version pyproject.toml pins."""

from __future__ import annotations

import asyncio
import re
import socket
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import websockets

from common import ws_adapter as wa

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_websockets_is_the_pinned_major_version() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in dependencies if re.match(r"websockets\b", d)]
    found = re.fullmatch(r"websockets>=(\d+)(?:\.\d+)*,<(\d+)", pin.replace(" ", ""))
    assert found is not None, f"the websockets pin has no upper bound: {pin}"
    low, high = int(found[1]), int(found[2])
    assert high == low + 1  # one major version
    assert int(websockets.__version__.split(".")[0]) == low


def test_our_code_imports_websockets_only_through_the_adapter() -> None:
    for package in ("server", "client", "common", "tools"):
        for path in (ROOT / package).rglob("*.py"):
            if path.name == "ws_adapter.py":
                continue
            text = path.read_text()
            assert not re.search(r"^\s*(from|import) websockets\b", text, re.M), path


class Served:
    """One live connection: the server's end as the handler got it."""

    def __init__(self) -> None:
        self.connection: asyncio.Future[wa.ServerConnection] = (
            asyncio.get_running_loop().create_future()
        )
        self.done = asyncio.Event()

    async def handler(self, ws: wa.ServerConnection) -> None:
        """Hand the connection to the test and hold it open until told."""
        self.connection.set_result(ws)
        await self.done.wait()


@pytest.fixture
async def live() -> AsyncIterator[tuple[Served, wa.ClientConnection]]:
    """A server on 127.0.0.1 and a client connected to it (with a header)."""
    served = Served()
    server = await wa.serve(served.handler, "127.0.0.1", 0)
    port = next(iter(server.sockets)).getsockname()[1]
    client = await wa.connect(
        f"ws://127.0.0.1:{port}/ws", additional_headers={"X-Probe": "yes"}, open_timeout=10
    )
    try:
        yield served, client
    finally:
        served.done.set()
        await client.close()
        server.close()
        await server.wait_closed()


async def test_every_internal_named_exists_on_a_live_connection(
    live: tuple[Served, wa.ClientConnection],
) -> None:
    served, _ = live
    ws = await asyncio.wait_for(served.connection, 10)
    instances: dict[type, object] = {
        wa.ServerConnection: ws,
        wa.Request: ws.request,
        wa.Response: ws.response,
    }
    for owner, attribute in wa.INTERNALS:
        assert hasattr(instances.get(owner, owner), attribute), f"{owner.__name__}.{attribute}"


async def test_the_handshake_peer_and_socket_are_read_and_forgotten(
    live: tuple[Served, wa.ClientConnection],
) -> None:
    served, _ = live
    ws = await asyncio.wait_for(served.connection, 10)
    assert wa.peer_host(ws) == "127.0.0.1"
    assert wa.handshake_headers(ws)["X-Probe"] == "yes"
    sock = wa.raw_socket(ws)
    assert sock is not None
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)  # what the server does
    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) >= 8192
    wa.forget_handshake(ws)
    assert dict(wa.handshake_headers(ws)) == {}
    assert ws.response is not None and not list(ws.response.headers.items())


async def test_frames_written_at_once_arrive_in_order(
    live: tuple[Served, wa.ClientConnection],
) -> None:
    served, client = live
    ws = await asyncio.wait_for(served.connection, 10)
    assert wa.write_at_once(ws, [b"one", b"two", b"three"])
    got = [await asyncio.wait_for(client.recv(), 10) for _ in range(3)]
    assert got == [b"one", b"two", b"three"]


async def test_abort_drops_the_socket_without_a_closing_handshake(
    live: tuple[Served, wa.ClientConnection],
) -> None:
    served, client = live
    ws = await asyncio.wait_for(served.connection, 10)
    wa.abort(ws)
    with pytest.raises(wa.ConnectionClosed) as closed:
        await asyncio.wait_for(client.recv(), 10)
    assert closed.value.rcvd is None  # no close frame came: the socket was dropped

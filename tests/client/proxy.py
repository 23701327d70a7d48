"""A TCP proxy for the client's tests: in front of a real server, it can
refuse new connections for a while (reconnects fail) and let them through
again."""

from __future__ import annotations

import asyncio
import contextlib


class Proxy:
    """A TCP proxy in front of the server. ``refuse()`` makes new
    connections close at once (reconnects fail); ``allow()`` undoes it."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.accepting = True
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        """The WebSocket URL through the proxy."""
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> None:
        """Listen on a free port."""
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Stop listening and forwarding."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def refuse(self) -> None:
        """Close new connections at once."""
        self.accepting = False

    def allow(self) -> None:
        """Forward new connections again."""
        self.accepting = True

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.accepting:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                dst.close()

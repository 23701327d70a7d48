"""A Redis connection on which commands are pipelined: the commit path of
``RedisStore``.

redis-py takes a connection from its pool for every command, sends it and
reads its reply before the connection serves anyone else; per commit that
was ~90 us of the server's CPU (the pool, the command packer, the retry
wrapper, the reply parser, in Python) and a round trip of its own. Here
every table commits on one connection: a command is packed by hiredis and
written at once, replies come back in the order the commands were sent
(Redis answers each connection in order) and are matched to their callers
in that order, and replies that arrive together are parsed in one go (~15
us per commit; ``hearts bench server``'s Redis phase, docs/architecture.md).

Failures look like redis-py's, so ``RedisStore``'s retry policy applies
unchanged: a lost connection fails every command in flight with
``ConnectionError`` (whether Redis ran them is unknown, as with redis-py;
the store resends only what is safe to repeat) and the next command
reconnects; a command without a reply within ``timeout`` drops the
connection (later replies could no longer be matched) and raises
``TimeoutError``; an error reply raises ``ResponseError`` (``NoScriptError``
for NOSCRIPT, after which ``script`` loads the script and sends it again).

It speaks to ``redis://`` and ``rediss://`` (TLS; with user, password and
database) and ``unix://`` addresses, and to a Sentinel set's master
(``resolve`` asks the sentinels where it is at every connect). A master
that has become a replica answers writes with ``READONLY``: the lane then
drops the connection and raises ``ConnectionError``, so the next command
reconnects to whichever node is master now.

**Waiting for replicas** (``script_then_wait``). ``WAIT n ms`` answers once
``n`` replicas hold every write this connection sent before it. Commits
written in one turn of the event loop share one ``WAIT`` sent after them
all: one round trip to the replicas for the lot, not one each.
"""

from __future__ import annotations

import asyncio
import hashlib
import ssl
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import hiredis
from redis.asyncio.connection import SSLConnection, parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

Arg = bytes | str | int


class _Replies(asyncio.Protocol):
    """The connection's protocol: replies matched, in order, to the
    commands waiting for them."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self._reader = hiredis.Reader()
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # a stream connection
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        while True:
            try:
                reply = self._reader.gets()
            except hiredis.ProtocolError as exc:  # not Redis, or a broken stream
                self._fail(RedisConnectionError(f"bad reply from Redis: {exc}"))
                if self.transport is not None:
                    self.transport.abort()
                return
            if reply is False:
                return
            if not self.waiting:  # a reply nobody asked for: the stream is off
                self._fail(RedisConnectionError("a reply nobody waited for"))
                if self.transport is not None:
                    self.transport.abort()
                return
            future = self.waiting.popleft()
            if future.done():  # its caller gave up (timed out or was cancelled)
                continue
            if isinstance(reply, hiredis.ReplyError):
                message = str(reply)
                if message.startswith("READONLY"):
                    # A failover made our node a replica: start afresh.
                    future.set_exception(RedisConnectionError("the Redis master moved"))
                    self._fail(RedisConnectionError("the Redis master moved"))
                    if self.transport is not None:
                        self.transport.abort()
                    return
                error = NoScriptError if message.startswith("NOSCRIPT") else ResponseError
                future.set_exception(error(message))
            else:
                future.set_result(reply)

    def usable(self) -> bool:
        """Whether commands may still be sent (not lost, not closing)."""
        return not self.lost and self.transport is not None and not self.transport.is_closing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(RedisConnectionError("the connection to Redis was lost"))

    def _fail(self, error: Exception) -> None:
        self.lost = True
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)


class RedisLane:
    """One pipelined connection to Redis (see the module docstring)."""

    def __init__(
        self,
        settings: dict[str, Any],
        timeout: float,
        resolve: Callable[[], Awaitable[tuple[str, int]]] | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        """``settings``: ``parse_url``'s of a ``redis://`` or ``unix://``
        address. ``timeout`` bounds connecting and each command's reply.
        ``resolve``, if given, names the host and port at every connect
        (a Sentinel set's master). ``tls``: connect with TLS (the host name
        checked against the certificate as the context says)."""
        self._settings = settings
        self._tls = tls
        self._timeout = timeout
        self._resolve = resolve
        self._protocol: _Replies | None = None
        self._connecting: asyncio.Task[_Replies] | None = None
        self._shas: dict[str, str] = {}
        # The WAIT to be written at the end of this turn of the loop:
        # (connection, replicas, ms, its reply).
        self._wait: tuple[_Replies, int, int, asyncio.Future[Any]] | None = None

    @classmethod
    def for_url(cls, url: str, timeout: float) -> RedisLane:
        """A lane to ``url`` (``rediss://``: with TLS as redis-py would
        make it from the URL's ``ssl_ca_certs``, ``ssl_cert_reqs`` and
        ``ssl_check_hostname``)."""
        settings = dict(parse_url(url))
        tls = None
        if settings.get("connection_class") is SSLConnection:
            reqs = str(settings.get("ssl_cert_reqs") or "required").lower()
            check = str(settings.get("ssl_check_hostname", "true")).lower() not in ("false", "0")
            ca = settings.get("ssl_ca_certs")
            tls = tls_context(str(ca) if ca else None, verify=reqs != "none", check=check)
        return cls(settings, timeout, tls=tls)

    async def call(self, *args: Arg) -> Any:
        """Send one command and return its reply (see the module docstring
        for the errors)."""
        protocol = await self._connected()
        return await self._send(protocol, args)

    async def script(self, source: str, keys: list[str], args: list[Arg]) -> Any:
        """Run a Lua script by its SHA1, loading it first if Redis does not
        know it (a restarted or flushed Redis)."""
        sha = self._shas.get(source)
        if sha is None:
            sha = self._shas[source] = hashlib.sha1(source.encode()).hexdigest()
        try:
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)
        except NoScriptError:
            await self.call("SCRIPT", "LOAD", source)
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)

    async def script_then_wait(
        self, source: str, keys: list[str], args: list[Arg], replicas: int, wait_ms: int
    ) -> tuple[Any, int]:
        """Run a script, then ``WAIT replicas wait_ms`` on the same
        connection (shared with the commands written in the same turn of
        the loop); the script's reply and how many replicas hold it."""
        protocol = await self._connected()
        sha = self._shas.get(source)
        if sha is None:
            sha = self._shas[source] = hashlib.sha1(source.encode()).hexdigest()
        # Written now, before the WAIT that is written at the end of the turn.
        written = self._write(protocol, ("EVALSHA", sha, len(keys), *keys, *args))
        confirmed = self._shared_wait(protocol, replicas, wait_ms)
        try:
            reply = await self._reply(protocol, written)
        except NoScriptError:
            await self.call("SCRIPT", "LOAD", source)
            return await self.script_then_wait(source, keys, args, replicas, wait_ms)
        return reply, int(await confirmed)

    def _shared_wait(self, protocol: _Replies, replicas: int, wait_ms: int) -> asyncio.Future[Any]:
        """The ``WAIT`` that will follow every command written so far in this
        turn of the loop on this connection: written when the turn is over."""
        pending = self._wait
        if pending is not None and pending[0] is protocol and pending[1:3] == (replicas, wait_ms):
            return pending[3]
        loop = asyncio.get_running_loop()
        shared: asyncio.Future[Any] = loop.create_future()
        # A caller whose script failed never awaits the WAIT: its error is
        # marked as seen here, or asyncio would log it as never retrieved.
        shared.add_done_callback(lambda done: done.cancelled() or done.exception())
        self._wait = (protocol, replicas, wait_ms, shared)

        def send() -> None:
            if self._wait is not None and self._wait[3] is shared:
                self._wait = None
            try:
                written = self._write(protocol, ("WAIT", replicas, wait_ms))
            except RedisConnectionError as exc:
                shared.set_exception(exc)
                return
            # WAIT holds this connection until the replicas answer: its
            # reply's deadline is the wait's own plus the usual timeout.
            waiting = asyncio.ensure_future(self._reply(protocol, written, wait_ms / 1000))

            def settle(done: asyncio.Future[Any]) -> None:
                if shared.done():
                    return
                error = None if done.cancelled() else done.exception()
                if done.cancelled():
                    shared.set_exception(RedisConnectionError("the connection to Redis was lost"))
                elif error is not None:
                    shared.set_exception(error)
                else:
                    shared.set_result(done.result())

            waiting.add_done_callback(settle)

        loop.call_soon(send)
        return shared

    async def aclose(self) -> None:
        """Close the connection (a later call opens a new one)."""
        if self._connecting is not None:
            self._connecting.cancel()
            await asyncio.gather(self._connecting, return_exceptions=True)
            self._connecting = None
        protocol, self._protocol = self._protocol, None
        if protocol is not None and protocol.transport is not None:
            protocol.transport.close()

    async def _send(self, protocol: _Replies, args: tuple[Arg, ...]) -> Any:
        return await self._reply(protocol, self._write(protocol, args))

    def _write(self, protocol: _Replies, args: tuple[Arg, ...]) -> asyncio.Future[Any]:
        """Write a command now; the future its reply will settle."""
        transport = protocol.transport
        if transport is None or not protocol.usable():
            raise RedisConnectionError("the connection to Redis was lost")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        protocol.waiting.append(future)
        transport.write(hiredis.pack_command(args))  # type: ignore[arg-type]
        return future

    async def _reply(
        self, protocol: _Replies, future: asyncio.Future[Any], extra_time: float = 0.0
    ) -> Any:
        """A written command's reply, within the timeout (plus ``extra_time``)."""
        try:
            async with asyncio.timeout(self._timeout + extra_time):
                return await future
        except TimeoutError:
            # Replies to come can no longer be matched: start afresh.
            if protocol.transport is not None:
                protocol.transport.abort()
            raise RedisTimeoutError("Redis did not answer in time") from None

    async def _connected(self) -> _Replies:
        protocol = self._protocol
        if protocol is not None and protocol.usable():
            return protocol
        if self._connecting is None:
            self._connecting = asyncio.create_task(self._connect())
        task = self._connecting
        try:
            # Shielded: one caller cancelled must not cancel the others' connect.
            return await asyncio.shield(task)
        finally:
            if task.done() and self._connecting is task:
                self._connecting = None

    async def _connect(self) -> _Replies:
        settings = self._settings
        try:
            async with asyncio.timeout(self._timeout):
                protocol = await self._open()
        except (OSError, TimeoutError) as exc:  # ssl.SSLError is an OSError
            raise RedisConnectionError(f"could not connect to Redis: {exc}") from exc
        password, username = settings.get("password"), settings.get("username")
        try:
            if password is not None:
                auth: tuple[Arg, ...] = (username, password) if username else (password,)
                await self._send(protocol, ("AUTH", *auth))
            db = int(settings.get("db") or 0)
            if db:
                await self._send(protocol, ("SELECT", db))
        except BaseException:
            if protocol.transport is not None:
                protocol.transport.close()
            raise
        self._protocol = protocol
        return protocol

    async def _open(self) -> _Replies:
        """The connection: a Unix socket, or TCP (TLS where asked) to the
        address given or found (the master a Sentinel names now)."""
        loop = asyncio.get_running_loop()
        settings = self._settings
        if "path" in settings:
            _, protocol = await loop.create_unix_connection(_Replies, settings["path"])
            return protocol
        if self._resolve is not None:
            host, port = await self._resolve()
        else:
            host, port = settings.get("host", "localhost"), settings.get("port", 6379)
        tls: dict[str, Any] = {}
        if self._tls is not None:
            tls = {"ssl": self._tls, "server_hostname": host}
        _, protocol = await loop.create_connection(_Replies, host, port, **tls)
        return protocol


def tls_context(ca: str | None, verify: bool = True, check: bool = True) -> ssl.SSLContext:
    """A client TLS context: the system's CAs, or the file ``ca``;
    ``verify`` False takes any certificate (``ssl_cert_reqs=none``),
    ``check`` False does not match the host name against it."""
    context = ssl.create_default_context(cafile=ca)
    context.check_hostname = verify and check
    if not verify:
        context.verify_mode = ssl.CERT_NONE
    return context

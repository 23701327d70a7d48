"""Starting and stopping a server: store, bots, lobby, HTTP and WebSocket on
one port; the operator's metrics and admin listeners on ports of their own."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus

from common.retry import Backoff
from common.ws_adapter import (
    Server,
    ServerConnection,
    forget_handshake,
    handshake_headers,
    peer_host,
    serve,
)

from .admin import AdminApi
from .bot_runner import BotRunner
from .cluster import Cluster
from .config import ServerConfig
from .connection import Connection, close_or_abort
from .http import HttpRoutes
from .lifecycle_log import log_access
from .lobby import Lobby
from .metrics import Metrics
from .plain_http import (
    Handler,
    PlainRequest,
    PlainResponse,
    json_response,
    split_listen,
    start_plain_http,
)
from .store import RedisStore, open_store, store_label
from .store.base import StoreError, TableStore
from .version import package_version

log = logging.getLogger("hearts.server")
# The start-up line: at INFO whatever the other loggers' levels (see
# server.logs), so "serving …" is always there to be seen.
banner_log = logging.getLogger("hearts.serving")


@dataclass
class RunningServer:
    """A started server; ``close()`` stops it."""

    config: ServerConfig
    store: TableStore
    bots: BotRunner
    lobby: Lobby
    ws_server: Server
    host: str
    port: int
    cluster: Cluster | None = None
    metrics: Metrics | None = None
    # Our connections on the game port (a notice goes to each).
    connections: set[Connection] = field(default_factory=set)
    # The operator's listeners (None: off) and the port each got.
    metrics_server: asyncio.Server | None = None
    admin_server: asyncio.Server | None = None
    _closing: set[asyncio.Task[bool]] = field(default_factory=set)

    @property
    def url(self) -> str:
        """The WebSocket URL clients connect to."""
        return f"ws://{self.host}:{self.port}/ws"

    @staticmethod
    def listener_port(server: asyncio.Server | None) -> int | None:
        """The port an operator's listener got (None: not listening)."""
        if server is None or not server.sockets:
            return None
        return int(server.sockets[0].getsockname()[1])

    async def drain(self) -> int:
        """Take no new tables and hand this process's tables over (leases
        back, every client told to resume, so it lands on another process),
        while the listeners stay up: /readyz says 503 from now on, so the
        load balancer sends nobody new here. For rolling restarts: drain,
        then stop the process. Returns how many tables were handed over."""
        handed = len(self.lobby.actors)
        await self.lobby.close()
        self._close_clients()
        await asyncio.gather(*self._closing, return_exceptions=True)
        return handed

    def _close_clients(self) -> None:
        # 1012, "service restart": the clients reconnect (to another
        # process behind the load balancer) and resume.
        for conn in list(self.ws_server.connections):
            # Bounded: a client that reads nothing must not hold the stop.
            task = asyncio.create_task(
                close_or_abort(conn, 1012, "server restarting; resume", self.config.close_timeout)
            )
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        """Hand the tables over (leases back, their clients told to resume
        elsewhere), close the other connections, then stop the bus and
        release the store and bot workers."""
        # Stop listening first: a client told to resume elsewhere must not
        # land here again (the load balancer moves on to another replica).
        self.ws_server.close(close_connections=False)
        for side in (self.admin_server, self.metrics_server):
            if side is not None:
                side.close()
        await self.lobby.close()
        self._close_clients()
        await self.ws_server.wait_closed()
        await asyncio.gather(*self._closing, return_exceptions=True)
        if self.cluster is not None:
            await self.cluster.stop()
        await self.store.close()
        self.bots.close()


async def start_server(
    config: ServerConfig, bots: BotRunner | None = None, store: TableStore | None = None
) -> RunningServer:
    """Start serving; port 0 picks a free port (see ``RunningServer.port``).
    ``store`` overrides the one the configuration names (embedding, tests);
    either way the server owns it from here and closes it on ``close()``."""
    if store is None:
        url = config.effective_store_url
        if url is not None and url.startswith("sqlite://"):
            # Opening the file (and migrating it) touches the disk: not on the loop.
            store = await asyncio.to_thread(open_store, url)
        else:
            store = open_store(url, config.redis_replicas)
    try:
        return await _start_on(store, config, bots)
    except BaseException:
        # An embedded store holds its file's lock until closed: give it back,
        # or a retry in this process would find the file "in use".
        await store.close()
        raise


async def _start_on(
    store: TableStore, config: ServerConfig, given_bots: BotRunner | None
) -> RunningServer:
    """``start_server`` once the store is open; on failure, what it started
    is stopped again (the caller closes the store)."""
    if isinstance(store, RedisStore):
        await store.prepare()  # Redis too old, or tables in the older layout
    bots = given_bots or BotRunner(config.bot_workers, config.bot_budget_ms)
    cluster: Cluster | None = None
    if isinstance(store, RedisStore):
        # With Redis, tables are leased so several processes can share it.
        cluster = Cluster(
            store.redis,
            store.keys,
            config.lease_ms,
            bus=store.bus_redis,
            scripts=store.per_master_scripts(),
        )
    metrics = Metrics(package_version())
    lobby = Lobby(store, bots, config, cluster, metrics)
    connections: set[Connection] = set()
    metrics.watch(lobby.table_gauges)
    if isinstance(store, RedisStore):
        redis_store = store
        metrics.watch_replicas(
            lambda: (redis_store.waiting_on_replicas, redis_store.replicas_behind)
        )
    try:
        if cluster is not None:
            cluster.on_lost = lobby.lost
            cluster.on_resubscribed = lobby.resync_forwarded_clients
            await cluster.start(lobby.on_bus)
            log.info("cluster member %s (lease %d ms)", cluster.process_id, config.lease_ms)
        resumed = await lobby.resume_all()
        if resumed:
            log.info("resumed %d tables from the store", resumed)
        lobby.start_watchdog()

        async def ready() -> bool:
            if lobby.closing:  # handing tables over: send no one new here
                return False
            try:
                # Bounded: a store that hangs (a stopped Redis) must not
                # hang the probe, which wants an answer in a second or two.
                async with asyncio.timeout(config.ready_timeout):
                    await store.ping()
            except Exception:  # any failure means "not ready"; the probe must answer
                return False
            return True

        async def handler(ws: ServerConnection) -> None:
            started = time.monotonic()
            conn = Connection(ws, lobby, config)
            forget_handshake(ws)
            refusal = lobby.bans.refusal(address=conn.address)
            try:
                if refusal is not None:
                    await ws.close(1008, refusal)
                    return
                if not lobby.guard.connect(conn.address):
                    metrics.address_refusals.labels("too_many_connections").inc()
                    log.warning("refused a connection from %s: too many open", conn.address)
                    await ws.close(1008, "too many connections from your address")
                    return
                connections.add(conn)
                try:
                    await conn.run()
                finally:
                    connections.discard(conn)
                    lobby.guard.disconnect(conn.address)
            finally:
                log_access("websocket", "/ws", conn.address, 101, time.monotonic() - started)

        routes = HttpRoutes(
            ready,
            # With a listener of its own, /metrics leaves the public port.
            metrics=metrics.render if config.metrics_listen is None else None,
            allowed_origins=config.allowed_origins,
            address_of=lambda ws: lobby.guard.address_of(peer_host(ws), handshake_headers(ws)),
        )
        ws_server = await serve(
            handler,
            config.host,
            config.port,
            process_request=routes,
            process_response=routes.process_response,
            max_size=config.transport_max_bytes,
            max_queue=64,
            # Bounded writes: the writer waits above write_limit (and a full
            # send queue drops the client); closing gives up after close_timeout.
            write_limit=config.write_limit,
            close_timeout=config.close_timeout,
            # Frames are small msgpack maps: deflate costs more CPU than it saves.
            compression=None,
        )
    except BaseException:
        # The port was taken, the store failed…: the resumed tables stop
        # before their store closes under them.
        try:
            await lobby.close()
            if cluster is not None:
                await cluster.stop()
        except Exception:  # the start's own error is the one to raise
            log.exception("stopping after a failed start failed too")
        if given_bots is None:
            bots.close()
        raise
    sock = next(iter(ws_server.sockets))
    host, port = sock.getsockname()[:2]
    running = RunningServer(
        config, store, bots, lobby, ws_server, host, port, cluster, metrics, connections
    )
    try:
        await _start_side_listeners(running, ready)
    except BaseException:
        await running.close()
        raise
    return running


async def _start_side_listeners(running: RunningServer, ready: ReadyCheck) -> None:
    """The metrics and admin listeners the configuration asks for."""
    config = running.config
    if config.metrics_listen is not None and running.metrics is not None:
        host, port = split_listen(config.metrics_listen)
        running.metrics_server = await start_plain_http(
            host, port, metrics_handler(running.metrics, ready), "metrics"
        )
    if config.admin_listen is not None and config.admin_token:
        host, port = split_listen(config.admin_listen)
        api = AdminApi(running, config.admin_token)
        running.admin_server = await start_plain_http(host, port, api.handle, "admin")


ReadyCheck = Callable[[], Awaitable[bool]]


def metrics_handler(metrics: Metrics, ready: ReadyCheck) -> Handler:
    """The metrics listener's answers: /metrics, and the probes /healthz and
    /readyz (so a cluster may probe the operator's port instead)."""

    async def handle(request: PlainRequest) -> PlainResponse:
        if request.method != "GET":
            return json_response(HTTPStatus.METHOD_NOT_ALLOWED, {"error": "GET only"})
        if request.path == "/metrics":
            return PlainResponse(
                HTTPStatus.OK, metrics.render(), "text/plain; version=0.0.4; charset=utf-8"
            )
        if request.path == "/healthz":
            return json_response(HTTPStatus.OK, {"status": "ok", "version": package_version()})
        if request.path == "/readyz":
            ok = await ready()
            return json_response(
                HTTPStatus.OK if ok else HTTPStatus.SERVICE_UNAVAILABLE,
                {"status": "ready" if ok else "store unavailable"},
            )
        return json_response(HTTPStatus.NOT_FOUND, {"error": "not found"})

    return handle


def tune_gc() -> None:
    """Garbage-collector settings for a serving process.

    A server allocates many short-lived objects per action (views, frames):
    what exists at start-up is moved out of the collector's way and the young
    generation is collected less often, since the tail latency is the
    collector's (measured with ``hearts bench server``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def raise_open_files_limit() -> int | None:
    """Raise this process's limit of open files (``RLIMIT_NOFILE``) from its
    soft value to the hard one, and return it (None where there is no such
    limit). Every client is a socket: the usual soft limit of 1,024 would
    refuse connections long before memory or CPU run out (a process holds
    10,000 idle seated connections in ~150 MiB; README, Measured), while the
    hard limit, which only the operator can raise (``ulimit -Hn``,
    systemd's ``LimitNOFILE``, the container runtime's ``nofile``), is
    usually 524,288 or more."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    # An unlimited hard limit (not on Linux, whose kernel caps it): ask for
    # a million rather than for infinity, which the kernel may refuse.
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if target <= soft:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError) as exc:  # a sandbox may refuse: keep what we have
        log.warning("could not raise the open files limit from %d: %s", soft, exc)
        return soft
    return target


class StoreUnavailable(Exception):
    """The store did not answer within ``--store-wait``: one sentence, to
    print as it is."""


def _why_store_failed(exc: BaseException) -> str:
    """What went wrong reaching the store, in a few words (never a
    password): redis-py's cause tells a refused password from a down server."""
    cause = exc.__cause__
    name = type(cause).__name__ if cause is not None else ""
    if "Authentication" in name or "NoPermission" in name or "AuthorizationError" in name:
        return "it refused our password"
    if isinstance(exc, TimeoutError) or "unreachable" in str(exc):
        return "it does not answer"
    return str(exc) or type(exc).__name__


async def wait_for_store(store: TableStore, label: str, patience: float) -> None:
    """Return once ``store`` answers; while it is down or refuses us, say so
    in one line and try again with jittered backoff, for up to ``patience``
    seconds, then raise ``StoreUnavailable`` (a container that starts before
    its Redis waits for it, rather than crash-looping)."""
    backoff = Backoff(0.5, 5.0)
    started = time.monotonic()
    while True:
        try:
            async with asyncio.timeout(5.0):
                await store.ping()
            return
        except (StoreError, TimeoutError) as exc:
            why = _why_store_failed(exc)
            if why == "it does not answer" and isinstance(store, RedisStore):
                # Which part does not answer: the sentinels, a service they
                # do not know, a master, a Cluster's nodes.
                with contextlib.suppress(Exception):
                    why = await store.target.diagnose(2.0)
            left = patience - (time.monotonic() - started)
            if left <= 0:
                raise StoreUnavailable(
                    f"the table store ({label}) cannot be used: {why}; gave up after "
                    f"{time.monotonic() - started:.0f} s (--store-wait {patience:g})"
                ) from None
            delay = min(backoff.next(), left)
            log.warning(
                "the table store (%s) cannot be used: %s; trying again in %.1f s",
                label,
                why,
                delay,
                extra={"fields": {"event": "store_waiting"}},
            )
            await asyncio.sleep(delay)


async def serve_forever(config: ServerConfig, store_wait: float = 0.0) -> None:
    """Run until SIGINT/SIGTERM, waiting up to ``store_wait`` seconds at
    start-up for a store that is down (``StoreUnavailable`` after that)."""
    open_files = raise_open_files_limit()
    url = config.effective_store_url
    label = store_label(url)
    if url is not None and url.startswith("sqlite://"):
        store = await asyncio.to_thread(open_store, url)
    else:
        store = open_store(url)
    try:
        await wait_for_store(store, label.removeprefix("in "), store_wait)
    except BaseException:
        await store.close()
        raise
    server = await start_server(config, store=store)
    # The signals are ours before the start-up line says "serving": a stop
    # sent as soon as it is seen is a clean handover, not a kill.
    stop = asyncio.get_running_loop().create_future()

    def request_stop() -> None:
        # A second signal while handing over must not raise in the loop.
        if not stop.done():
            stop.set_result(None)

    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, request_stop)
    tune_gc()
    limit = f", up to {open_files} open files (clients)" if open_files is not None else ""
    sides = ""
    metrics_port = server.listener_port(server.metrics_server)
    admin_port = server.listener_port(server.admin_server)
    if metrics_port is not None:
        sides += f", metrics on port {metrics_port}"
    if admin_port is not None:
        sides += f", admin API on port {admin_port}"
    banner_log.info(
        "serving http://%s:%d/ (WebSocket %s), tables %s%s%s",
        server.host,
        server.port,
        server.url,
        label,
        limit,
        sides,
        extra={
            "fields": {
                "event": "serving",
                "url": f"http://{server.host}:{server.port}/",
                "store": label,
                "version": package_version(),
                "open_files": open_files,
                "metrics_port": metrics_port,
                "admin_port": admin_port,
            }
        },
    )
    try:
        await stop
    finally:
        await server.close()

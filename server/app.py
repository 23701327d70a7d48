"""Starting and stopping a server: store, bots, lobby, HTTP and WebSocket on one port."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from dataclasses import dataclass, field

from websockets.asyncio.server import Server, ServerConnection, serve

from .bot_runner import BotRunner
from .cluster import Cluster
from .config import ServerConfig
from .connection import Connection, close_or_abort
from .http import HttpRoutes
from .lobby import Lobby
from .metrics import Metrics
from .store import RedisStore, open_store, store_label
from .store.base import TableStore

log = logging.getLogger("hearts.server")


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
    _closing: set[asyncio.Task[bool]] = field(default_factory=set)

    @property
    def url(self) -> str:
        """The WebSocket URL clients connect to."""
        return f"ws://{self.host}:{self.port}/ws"

    async def close(self) -> None:
        """Hand the tables over (leases back, their clients told to resume
        elsewhere), close the other connections, then stop the bus and
        release the store and bot workers."""
        # Stop listening first: a client told to resume elsewhere must not
        # land here again (the load balancer moves on to another replica).
        self.ws_server.close(close_connections=False)
        await self.lobby.close()
        # 1012, "service restart": the other clients reconnect (to another
        # process behind the load balancer) and resume.
        for conn in list(self.ws_server.connections):
            # Bounded: a client that reads nothing must not hold the stop.
            self._closing.add(
                asyncio.create_task(
                    close_or_abort(
                        conn, 1012, "server restarting; resume", self.config.close_timeout
                    )
                )
            )
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
        cluster = Cluster(store.redis, store.keys, config.lease_ms)
    metrics = Metrics()
    lobby = Lobby(store, bots, config, cluster, metrics)
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
                await store.ping()
            except Exception:  # any failure means "not ready"; the probe must answer
                return False
            return True

        async def handler(ws: ServerConnection) -> None:
            conn = Connection(ws, lobby, config)
            _forget_handshake(ws)
            if not lobby.guard.connect(conn.address):
                metrics.address_refusals.labels("too_many_connections").inc()
                log.warning("refused a connection from %s: too many open", conn.address)
                await ws.close(1008, "too many connections from your address")
                return
            try:
                await conn.run()
            finally:
                lobby.guard.disconnect(conn.address)

        ws_server = await serve(
            handler,
            config.host,
            config.port,
            process_request=HttpRoutes(ready, metrics=metrics.render),
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
    return RunningServer(config, store, bots, lobby, ws_server, host, port, cluster)


def _forget_handshake(ws: ServerConnection) -> None:
    """Drop the opening handshake's headers once the connection has read
    what it needs from them (its address): nothing reads them again, and
    kept for the connection's life they were a sixth of what an idle
    connection cost (about 4 KiB). The request itself stays: websockets
    takes a connection without one for one still in its handshake."""
    if ws.request is not None:
        ws.request.headers.clear()
    if ws.response is not None:
        ws.response.headers.clear()


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


async def serve_forever(config: ServerConfig) -> None:
    """Run until SIGINT/SIGTERM."""
    open_files = raise_open_files_limit()
    server = await start_server(config)
    tune_gc()
    limit = f", up to {open_files} open files (clients)" if open_files is not None else ""
    print(
        f"hearts: serving http://{server.host}:{server.port}/ (WebSocket {server.url}),"
        f" tables {store_label(config.effective_store_url)}{limit}",
        flush=True,
    )
    stop = asyncio.get_running_loop().create_future()

    def request_stop() -> None:
        # A second signal while handing over must not raise in the loop.
        if not stop.done():
            stop.set_result(None)

    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, request_stop)
    try:
        await stop
    finally:
        await server.close()

"""Server settings: every limit and delay in one place, with the defaults
docs/protocol.md documents."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ServerConfig:
    """How a server runs. All times in seconds."""

    host: str = "127.0.0.1"
    port: int = 8765
    # Where tables live, as a store URL (server.store.open_store): memory://,
    # sqlite:///path/to/file, redis://host:port/db,
    # redis+sentinel://host:port[,host:port…]/service[/db] or
    # redis+cluster://host:port[,host:port…]. None: redis_url if
    # given, else memory (the in-process servers of tests and `hearts play`;
    # `hearts serve` passes SQLite by default).
    store_url: str | None = None
    redis_url: str | None = None  # the older spelling of store_url=redis://…
    # Seats and pacing
    grace_seconds: float = 60.0
    next_hand_delay: float | None = None  # None: wait until every human is ready
    # Real seconds per second of a table's turn timer: 1 in play; tests
    # make it small so a 15 s timer runs out in a fraction of a second.
    turn_timer_scale: float = 1.0
    # Limits
    max_frame_bytes: int = 16 * 1024
    transport_max_bytes: int = 64 * 1024
    # Requests per connection: a token bucket. The fastest legitimate clients
    # we know answer every snapshot at once at a table of three Easy bots:
    # ``hearts host --autoplay easy`` and a raw client both averaged ~130
    # requests/s over an 80-hand game on a 2-core machine (~150/s over five
    # seconds), peaking at ~200/s over a second and ~310/s over a tenth.
    # On a quiet machine the same game runs faster: at 300/s, burst 600, it
    # was refused once (2026-12-01). 1,000/s leaves room for a server several
    # times as fast and still bounds a flooding connection (a request costs
    # the server tens of microseconds); the burst covers the peaks many
    # times over. A refused request is told when to retry (``retry_after``).
    rate_per_second: float = 1000.0
    rate_burst: float = 2000.0
    # Refusals are forgiven at ``strikes_forgiven_per_second``; a connection
    # that collects more than ``max_strikes`` keeps sending while told to
    # wait, and is closed (1008). A client honouring retry_after never is.
    max_strikes: int = 50
    strikes_forgiven_per_second: float = 5.0
    # Creating tables (server.table_budget): a budget per client address and
    # one per player, each a burst refilled at a rate; 0 turns one off. A
    # person creating a table every 5 s for ever is never refused; a script
    # gets the burst, then the address's rate (docs/deploy.md, Budgets).
    tables_burst_per_address: int = 20
    tables_per_minute_per_address: float = 20.0
    tables_burst_per_player: int = 12
    tables_per_minute_per_player: float = 12.0
    # Caps on what the server holds (server.table_capacity); 0 turns one
    # off. New tables are refused at a cap; games in progress go on.
    max_tables_per_process: int = 1000
    max_live_tables: int = 20_000
    # The store's size in MiB: Redis' maxmemory when it has one, else this;
    # SQLite's file may grow to this (1 GiB when None). New tables are
    # refused once the store is at store_fill_limit of its size.
    store_size_mb: int | None = None
    store_fill_limit: float = 0.8
    # Per client address (server.address_guard): open connections, and
    # invite-code lookups that named no table (free ones, then waits that
    # double up to a cap). Proxies whose forwarding headers are believed.
    max_connections_per_address: int = 64
    free_code_misses: int = 5
    max_code_wait: float = 300.0
    trusted_proxies: tuple[str, ...] = ()
    # Web pages (origins) that may open the WebSocket besides the server's
    # own host and clients sending no Origin; "*" allows any (server.http).
    allowed_origins: tuple[str, ...] = ()
    # What may wait for one client: our queue in bytes (a resume's replay of
    # the whole 2,000-event log, ~100 KB, fits), then websockets' transport
    # buffer (write_limit) and the kernel's send buffer (socket_send_buffer;
    # Linux doubles the value, and without it autotunes up to 4 MB). A full
    # queue means the client stopped reading: it is dropped (and resumes).
    send_queue_bytes: int = 512 * 1024
    write_limit: int = 32 * 1024
    socket_send_buffer: int | None = 64 * 1024
    # A hang-up's closing handshake waits this long for the client, then the
    # socket is aborted (a client that reads nothing never answers).
    close_timeout: float = 2.0
    # Bots
    bot_workers: int | None = None  # None: one per core
    bot_budget_ms: int = 900
    # Hand reviews (server.hand_analyses): deals per decision; each player
    # may have analysis_burst seat-hands reviewed at once, refilled at
    # analysis_per_minute; the process reviews at most analysis_max_pending
    # seat-hands at a time.
    analysis_worlds: int = 300
    analysis_burst: int = 60
    analysis_per_minute: float = 20.0
    analysis_max_pending: int = 80
    # Tests: every new table's seed (its deals and its bots' choices), so a
    # test can pick a deal where what it checks happens early. None: random.
    table_seed: int | None = None
    # Storage
    store_patience: float = 15.0  # seconds a commit keeps retrying an unreachable store
    lease_ms: int = 4000  # scale-out: a table's lease lifetime (renewed every third)
    # Redis replicas that must hold a commit before it is acknowledged
    # (WAIT); None: 1 on Sentinel and Cluster, 0 on one Redis.
    redis_replicas: int | None = None
    # How long a table lives in the store: a game over, a table whose game
    # runs (from its start or last finished hand), one whose game never
    # started (from its creation).
    finished_ttl: int = 24 * 3600
    table_ttl: int = 7 * 24 * 3600
    unstarted_table_ttl: int = 6 * 3600
    server_name: str = "hearts"
    # /readyz answers within this long whatever the store does (503 when
    # its ping has not come back): probes time out at 1-2 s.
    ready_timeout: float = 1.5
    # Operators' listeners, "HOST:PORT" (None: off). With metrics_listen,
    # /metrics is served there and no longer on the game port; the admin
    # API (server.admin) needs admin_token.
    metrics_listen: str | None = None
    admin_listen: str | None = None
    admin_token: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.store_url is not None and self.redis_url not in (None, self.store_url):
            raise ValueError("give the store URL once: store_url or redis_url, not both")
        if self.admin_listen is not None and not self.admin_token:
            raise ValueError("the admin listener needs a token")

    @property
    def effective_store_url(self) -> str | None:
        """The store URL in effect: ``store_url``, else ``redis_url`` (None: memory)."""
        return self.store_url if self.store_url is not None else self.redis_url

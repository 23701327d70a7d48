"""Server settings: every limit and delay in one place, with the defaults
docs/protocol.md documents."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerConfig:
    """How a server runs. All times in seconds."""

    host: str = "127.0.0.1"
    port: int = 8765
    # Where tables live, as a store URL (server.store.open_store): memory://,
    # sqlite:///path/to/file or redis://host:port/db. None: redis_url if
    # given, else memory (the in-process servers of tests and `hearts play`;
    # `hearts serve` passes SQLite by default).
    store_url: str | None = None
    redis_url: str | None = None  # the older spelling of store_url=redis://…
    # Seats and pacing
    grace_seconds: float = 60.0
    next_hand_delay: float | None = None  # None: wait until every human is ready
    # Limits
    max_frame_bytes: int = 16 * 1024
    transport_max_bytes: int = 64 * 1024
    # A seat acts at most once per card played, but bots play instantly, so a
    # fast scripted client can legitimately send dozens of requests a second.
    rate_per_second: float = 50.0
    rate_burst: float = 100.0
    max_strikes: int = 50  # refused frames over the rate before we hang up
    max_tables_per_connection: int = 4
    # Per client address (server.address_guard): open connections, and
    # invite-code lookups that named no table (free ones, then waits that
    # double up to a cap). Proxies whose forwarding headers are believed.
    max_connections_per_address: int = 64
    free_code_misses: int = 5
    max_code_wait: float = 300.0
    trusted_proxies: tuple[str, ...] = ()
    send_queue: int = 256
    # Bots
    bot_workers: int | None = None  # None: one per core
    bot_budget_ms: int = 900
    # Storage
    store_patience: float = 15.0  # seconds a commit keeps retrying an unreachable store
    lease_ms: int = 4000  # scale-out: a table's lease lifetime (renewed every third)
    finished_ttl: int = 24 * 3600
    table_ttl: int = 7 * 24 * 3600
    server_name: str = "hearts"

    def __post_init__(self) -> None:
        if self.store_url is not None and self.redis_url not in (None, self.store_url):
            raise ValueError("give the store URL once: store_url or redis_url, not both")

    @property
    def effective_store_url(self) -> str | None:
        """The store URL in effect: ``store_url``, else ``redis_url`` (None: memory)."""
        return self.store_url if self.store_url is not None else self.redis_url

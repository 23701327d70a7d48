"""Server settings: every limit and delay in one place, with the defaults
docs/protocol.md documents."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerConfig:
    """How a server runs. All times in seconds."""

    host: str = "127.0.0.1"
    port: int = 8765
    redis_url: str | None = None
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

"""``hearts serve``: run the table server."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from server.app import serve_forever
    from server.config import ServerConfig
    from server.logs import configure_logging

    configure_logging(args.log_level, args.log_format)
    from server.address_guard import parse_networks

    try:
        parse_networks(args.trusted_proxy)
    except ValueError as exc:
        print(f"hearts serve: --trusted-proxy: {exc}", file=sys.stderr)
        return 2
    config = ServerConfig(
        host=args.host,
        port=args.port,
        redis_url=args.redis,
        grace_seconds=args.grace,
        next_hand_delay=args.next_hand_delay,
        bot_workers=args.bot_workers,
        bot_budget_ms=args.bot_budget_ms,
        lease_ms=args.lease_ms,
        trusted_proxies=tuple(args.trusted_proxy),
        max_connections_per_address=args.max_connections_per_address,
    )
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how one stops a server
        asyncio.run(serve_forever(config))
    return 0

"""``hearts serve``: run the table server."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from pathlib import Path
from typing import Any


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to ``hearts``'s subparsers."""
    serve: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="run the table server (WebSocket, browser client, /healthz)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument(
        "--store",
        choices=("sqlite", "memory", "redis"),
        default=None,
        help="where tables live: sqlite (the default: one file under --data, games survive "
        "a restart), memory (lost when the server stops) or redis (needs --redis)",
    )
    serve.add_argument(
        "--data",
        metavar="DIR",
        default=None,
        help="with the sqlite store: its folder, created if missing "
        "(default: $XDG_DATA_HOME/hearts, else ~/.local/share/hearts)",
    )
    serve.add_argument(
        "--synchronous",
        choices=("normal", "full"),
        default=None,
        help="with the sqlite store: normal (the default) loses nothing acknowledged when the "
        "server crashes; full also fsyncs every commit, for power loss, at a cost in actions/s",
    )
    serve.add_argument(
        "--redis", metavar="URL", help="store tables in Redis at URL (implies --store redis)"
    )
    serve.add_argument("--grace", type=float, default=60.0, help="seconds a dropped seat is held")
    serve.add_argument(
        "--next-hand-delay",
        type=float,
        default=None,
        help="deal after S seconds even if not all ready",
    )
    serve.add_argument(
        "--bot-workers", type=int, default=None, help="bot processes (default: cores)"
    )
    serve.add_argument("--bot-budget-ms", type=int, default=900, help="Hard bot time per move")
    serve.add_argument(
        "--lease-ms", type=int, default=4000, help="with --redis: a table lease's lifetime"
    )
    serve.add_argument(
        "--redis-replicas",
        type=int,
        default=None,
        metavar="N",
        help="with --redis: acknowledge a move only once N replicas hold it (WAIT); "
        "default 1 with redis+sentinel:// and redis+cluster://, 0 with one Redis",
    )
    serve.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="CIDR",
        help="a reverse proxy whose X-Forwarded-For is believed (repeatable; none by default)",
    )
    serve.add_argument(
        "--max-connections-per-address",
        type=int,
        default=64,
        help="open connections one client address (an IPv4 address, an IPv6 /64) may hold",
    )
    serve.add_argument("--log-level", default="INFO")
    serve.add_argument("--log-format", choices=("text", "json"), default="text")
    serve.set_defaults(run=run_serve)
    return serve


class ServeArgsError(ValueError):
    """Flags of ``hearts serve`` that do not go together."""


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/hearts``, or ``~/.local/share/hearts`` when that is
    unset, empty or relative (as the XDG base directory rules say)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "hearts"


def store_url_of(args: argparse.Namespace) -> str:
    """The store URL the flags ask for: SQLite under ``--data`` unless
    ``--store memory``, or Redis with ``--redis URL``."""
    from server.store.sqlite_store import DEFAULT_FILE_NAME

    store = args.store or ("redis" if args.redis else "sqlite")
    if args.redis and store != "redis":
        raise ServeArgsError(f"--redis stores tables in Redis; it cannot go with --store {store}")
    for flag, value in (("--data", args.data), ("--synchronous", args.synchronous)):
        if value is not None and store != "sqlite":
            raise ServeArgsError(f"{flag} is for the sqlite store, not the {store} store")
    if store == "redis":
        if not args.redis:
            raise ServeArgsError("--store redis needs --redis URL")
        from server.store.redis_target import parse_redis_url

        try:
            parse_redis_url(str(args.redis))
        except ValueError as exc:
            raise ServeArgsError(f"--redis: {exc}") from None
        if args.redis_replicas is not None and args.redis_replicas < 0:
            raise ServeArgsError("--redis-replicas must be 0 or more")
        return str(args.redis)
    if args.redis_replicas is not None:
        raise ServeArgsError(f"--redis-replicas is for the redis store, not the {store} store")
    if store == "memory":
        return "memory://"
    folder = Path(args.data).expanduser() if args.data is not None else default_data_dir()
    path = (folder / DEFAULT_FILE_NAME).absolute()
    if "?" in str(path):  # the store URL's query would start there
        raise ServeArgsError("the --data folder's path cannot contain '?'")
    return f"sqlite://{path}?synchronous={args.synchronous or 'normal'}"


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 for flags that contradict each other, 1
    when the store cannot be opened (its folder not writable, or another
    server using it)."""
    from server.app import serve_forever
    from server.config import ServerConfig
    from server.logs import configure_logging
    from server.store import StoreError

    try:
        store = store_url_of(args)
    except ServeArgsError as exc:
        print(f"hearts serve: {exc}", file=sys.stderr)
        return 2
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
        store_url=store,
        grace_seconds=args.grace,
        next_hand_delay=args.next_hand_delay,
        bot_workers=args.bot_workers,
        bot_budget_ms=args.bot_budget_ms,
        lease_ms=args.lease_ms,
        redis_replicas=args.redis_replicas,
        trusted_proxies=tuple(args.trusted_proxy),
        max_connections_per_address=args.max_connections_per_address,
    )
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how one stops a server
            asyncio.run(serve_forever(config))
    except StoreError as exc:
        print(f"hearts serve: {exc}", file=sys.stderr)
        return 1
    return 0

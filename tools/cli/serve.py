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
    add_budget_options(serve)
    serve.add_argument("--log-level", default="INFO")
    serve.add_argument("--log-format", choices=("text", "json"), default="text")
    serve.set_defaults(run=run_serve)
    return serve


def add_budget_options(serve: argparse.ArgumentParser) -> None:
    """The budgets and caps on new tables (docs/deploy.md, "Budgets and caps")."""
    from server.config import ServerConfig

    defaults = ServerConfig()
    budgets = serve.add_argument_group(
        "budgets and caps on new tables", "a refused table is told when to try again; 0 = no limit"
    )
    budgets.add_argument(
        "--tables-burst-per-address",
        type=int,
        default=defaults.tables_burst_per_address,
        metavar="N",
        help="tables one client address may create at once (default: %(default)s)",
    )
    budgets.add_argument(
        "--tables-per-minute-per-address",
        type=float,
        default=defaults.tables_per_minute_per_address,
        metavar="R",
        help="how fast an address's budget refills, tables a minute (default: %(default)s)",
    )
    budgets.add_argument(
        "--tables-burst-per-player",
        type=int,
        default=defaults.tables_burst_per_player,
        metavar="N",
        help="tables one player may create at once (default: %(default)s)",
    )
    budgets.add_argument(
        "--tables-per-minute-per-player",
        type=float,
        default=defaults.tables_per_minute_per_player,
        metavar="R",
        help="how fast a player's budget refills, tables a minute (default: %(default)s)",
    )
    budgets.add_argument(
        "--max-tables-per-process",
        type=int,
        default=defaults.max_tables_per_process,
        metavar="N",
        help="tables this process may run at once (default: %(default)s)",
    )
    budgets.add_argument(
        "--max-live-tables",
        type=int,
        default=defaults.max_live_tables,
        metavar="N",
        help="tables the store may hold, every process's, until they expire (default: %(default)s)",
    )
    budgets.add_argument(
        "--store-size-mb",
        type=int,
        default=defaults.store_size_mb,
        metavar="MB",
        help="the store's size: Redis' maxmemory when it has one, else this; the SQLite file"
        " may grow to this (default: 1024 for SQLite)",
    )
    budgets.add_argument(
        "--store-fill-limit",
        type=float,
        default=defaults.store_fill_limit,
        metavar="F",
        help="refuse new tables once the store is at this fraction of its size"
        " (default: %(default)s)",
    )
    budgets.add_argument(
        "--unstarted-table-ttl",
        type=int,
        default=defaults.unstarted_table_ttl,
        metavar="S",
        help="seconds a table whose game never started lives after its creation"
        " (default: %(default)s)",
    )


def budget_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The ``ServerConfig`` fields of ``add_budget_options``."""
    return {
        "tables_burst_per_address": args.tables_burst_per_address,
        "tables_per_minute_per_address": args.tables_per_minute_per_address,
        "tables_burst_per_player": args.tables_burst_per_player,
        "tables_per_minute_per_player": args.tables_per_minute_per_player,
        "max_tables_per_process": args.max_tables_per_process,
        "max_live_tables": args.max_live_tables,
        "store_size_mb": args.store_size_mb,
        "store_fill_limit": args.store_fill_limit,
        "unstarted_table_ttl": args.unstarted_table_ttl,
    }


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
        return str(args.redis)
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
        trusted_proxies=tuple(args.trusted_proxy),
        max_connections_per_address=args.max_connections_per_address,
        **budget_settings(args),
    )
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how one stops a server
            asyncio.run(serve_forever(config))
    except StoreError as exc:
        print(f"hearts serve: {exc}", file=sys.stderr)
        return 1
    return 0

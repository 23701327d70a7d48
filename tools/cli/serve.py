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
        "serve",
        help="run the table server (WebSocket, browser client, /healthz)",
        # Every option also from HEARTS_<OPTION> and the --config file
        # (tools/cli/layered.py); --help names each default.
        env_prefix="HEARTS_",
        epilog="Every option can also be set by the environment variable HEARTS_<OPTION> "
        "(upper case, dashes as underscores: HEARTS_PORT, HEARTS_REDIS_URL_FILE) or in a "
        "TOML file given by --config (keys as the options: port = 8765). The command line "
        "wins over the environment, the environment over the file.",
    )
    serve.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help="a TOML file of options (keys as the options, without their dashes)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address the game port listens on")
    serve.add_argument("--port", type=int, default=8765, help="the game port (HTTP and /ws)")
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
    serve.add_argument(
        "--redis-url-file",
        metavar="FILE",
        default=None,
        help="read --redis's URL from FILE (a Secret mount), so no password is on a command line",
    )
    serve.add_argument(
        "--store-wait",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="at start-up, keep retrying a store that is down or refuses us this long, then exit 1",
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
    serve.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web page origin (https://play.example.com) whose pages may open the WebSocket, "
        "besides the server's own host and clients that send no Origin; * allows any "
        "(repeatable)",
    )
    serve.add_argument(
        "--metrics-listen",
        metavar="HOST:PORT",
        default=None,
        help="serve /metrics on this separate listener only (none: on the game port)",
    )
    serve.add_argument(
        "--admin-listen",
        metavar="HOST:PORT",
        default=None,
        help="serve the admin API (hearts admin) on this separate listener (off by default)",
    )
    serve.add_argument(
        "--admin-token-file",
        metavar="FILE",
        default=None,
        help="the admin API's bearer token, read from FILE (needed with --admin-listen)",
    )
    add_budget_options(serve)
    serve.add_argument(
        "--log-level",
        action="append",
        default=["info"],
        metavar="[LOGGER=]LEVEL",
        help="a level for every logger, or for one and its children "
        "(hearts.access=warning); repeatable, or comma-separated",
    )
    serve.add_argument(
        "--log-format", choices=("text", "json"), default="text", help="log line format"
    )
    serve.set_defaults(run=run_serve)
    return serve


# (ServerConfig field, type, metavar, help): each is the flag --field-name.
_BUDGET_OPTIONS: tuple[tuple[str, type[int] | type[float], str, str], ...] = (
    (
        "tables_burst_per_address",
        int,
        "N",
        "tables one client address may create at once (default: %(default)s)",
    ),
    (
        "tables_per_minute_per_address",
        float,
        "R",
        "how fast an address's budget refills, tables a minute (default: %(default)s)",
    ),
    (
        "tables_burst_per_player",
        int,
        "N",
        "tables one player may create at once (default: %(default)s)",
    ),
    (
        "tables_per_minute_per_player",
        float,
        "R",
        "how fast a player's budget refills, tables a minute (default: %(default)s)",
    ),
    (
        "max_tables_per_process",
        int,
        "N",
        "tables this process may run at once (default: %(default)s)",
    ),
    (
        "max_live_tables",
        int,
        "N",
        "tables the store may hold, every process's, until they expire (default: %(default)s)",
    ),
    (
        "store_size_mb",
        int,
        "MB",
        "the store's size: Redis' maxmemory when it has one, else this; the SQLite file"
        " may grow to this (default: 1024 for SQLite)",
    ),
    (
        "store_fill_limit",
        float,
        "F",
        "refuse new tables once the store is at this fraction of its size (default: %(default)s)",
    ),
    (
        "unstarted_table_ttl",
        int,
        "S",
        "seconds a table whose game never started lives after its creation (default: %(default)s)",
    ),
    (
        "analysis_worlds",
        int,
        "N",
        "hand reviews (get_analysis): deals sampled per decision (default: %(default)s)",
    ),
    (
        "analysis_burst",
        int,
        "N",
        "hands one player may have reviewed at once (default: %(default)s)",
    ),
    (
        "analysis_per_minute",
        float,
        "R",
        "how fast a player's review budget refills (default: %(default)s)",
    ),
    (
        "analysis_max_pending",
        int,
        "N",
        "hands this process reviews at a time at most (default: %(default)s)",
    ),
)


def add_budget_options(serve: argparse.ArgumentParser) -> None:
    """The budgets and caps on new tables (docs/deploy.md, "Budgets and caps")."""
    from server.config import ServerConfig

    defaults = ServerConfig()
    budgets = serve.add_argument_group(
        "budgets and caps on new tables", "a refused table is told when to try again; 0 = no limit"
    )
    for name, kind, metavar, text in _BUDGET_OPTIONS:
        budgets.add_argument(
            "--" + name.replace("_", "-"),
            type=kind,
            default=getattr(defaults, name),
            metavar=metavar,
            help=text,
        )


def budget_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The ``ServerConfig`` fields of ``add_budget_options``."""
    return {name: getattr(args, name) for name, *_ in _BUDGET_OPTIONS}


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
    store = args.store or ("redis" if args.redis else "sqlite")
    _check_store_flags(args, store)
    if store == "redis":
        return _redis_url_of(args)
    if store == "memory":
        return "memory://"
    return _sqlite_url_of(args)


def _check_store_flags(args: argparse.Namespace, store: str) -> None:
    """``ServeArgsError`` for a flag of another store than ``store``."""
    if args.redis and store != "redis":
        raise ServeArgsError(f"--redis stores tables in Redis; it cannot go with --store {store}")
    for flag, value in (("--data", args.data), ("--synchronous", args.synchronous)):
        if value is not None and store != "sqlite":
            raise ServeArgsError(f"{flag} is for the sqlite store, not the {store} store")
    if store != "redis" and args.redis_replicas is not None:
        raise ServeArgsError(f"--redis-replicas is for the redis store, not the {store} store")


def _redis_url_of(args: argparse.Namespace) -> str:
    from server.store.redis_target import parse_redis_url

    if not args.redis:
        raise ServeArgsError("--store redis needs --redis URL")
    try:
        parse_redis_url(str(args.redis))
    except ValueError as exc:
        raise ServeArgsError(f"--redis: {exc}") from None
    if args.redis_replicas is not None and args.redis_replicas < 0:
        raise ServeArgsError("--redis-replicas must be 0 or more")
    return str(args.redis)


def _sqlite_url_of(args: argparse.Namespace) -> str:
    from server.store.sqlite_store import DEFAULT_FILE_NAME

    folder = Path(args.data).expanduser() if args.data is not None else default_data_dir()
    path = (folder / DEFAULT_FILE_NAME).absolute()
    if "?" in str(path):  # the store URL's query would start there
        raise ServeArgsError("the --data folder's path cannot contain '?'")
    return f"sqlite://{path}?synchronous={args.synchronous or 'normal'}"


def read_secret(path: str, flag: str) -> str:
    """The one-line secret in the file ``path`` (a Kubernetes Secret mount,
    a file only the service user reads), without its line end."""
    try:
        value = Path(path).expanduser().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ServeArgsError(f"{flag} {path}: {reason}") from None
    if not value:
        raise ServeArgsError(f"{flag} {path} is empty")
    return value


def resolve_secrets(args: argparse.Namespace) -> str | None:
    """Read the secrets the flags name by file: ``--redis-url-file`` becomes
    ``args.redis``; returns the admin token (None: no admin listener)."""
    if args.redis_url_file is not None:
        if args.redis:
            raise ServeArgsError("give the Redis URL once: --redis or --redis-url-file")
        args.redis = read_secret(args.redis_url_file, "--redis-url-file")
    if (args.admin_listen is None) != (args.admin_token_file is None):
        raise ServeArgsError("--admin-listen and --admin-token-file go together")
    if args.admin_token_file is None:
        return None
    token = read_secret(args.admin_token_file, "--admin-token-file")
    if len(token) < 16:
        raise ServeArgsError("the admin token must have at least 16 characters")
    return token


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 for flags that contradict each other, 1
    when the store cannot be opened (its folder not writable, or another
    server using it) or stays unreachable for ``--store-wait`` seconds."""
    from server.app import StoreUnavailable, serve_forever
    from server.config import ServerConfig
    from server.logs import configure_logging, parse_levels
    from server.plain_http import split_listen
    from server.store import StoreError

    try:
        admin_token = resolve_secrets(args)
        store = store_url_of(args)
        parse_levels(args.log_level)
        for flag, spec in (
            ("--metrics-listen", args.metrics_listen),
            ("--admin-listen", args.admin_listen),
        ):
            if spec is not None:
                try:
                    split_listen(spec)
                except ValueError as exc:
                    raise ServeArgsError(f"{flag}: {exc}") from None
    except (ServeArgsError, ValueError) as exc:
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
        allowed_origins=tuple(args.allowed_origin),
        metrics_listen=args.metrics_listen,
        admin_listen=args.admin_listen,
        admin_token=admin_token,
        **budget_settings(args),
    )
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how one stops a server
            asyncio.run(serve_forever(config, store_wait=args.store_wait))
    except (StoreError, StoreUnavailable) as exc:
        print(f"hearts serve: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a port in use, an address not ours
        print(f"hearts serve: cannot listen: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0

"""Entry point of the ``hearts`` command.

Each subcommand lives in its own module and is imported only when used, so
``hearts verify`` does not pay for the server, Textual or Redis.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="hearts", description="Hearts with friends and bots: server, clients and tools."
    )
    from server.version import DISTRIBUTION, package_version

    parser.add_argument(
        "--version", action="version", version=f"{DISTRIBUTION} {package_version()}"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    verify = sub.add_parser("verify", help="check hand records (JSON Lines) against the rules")
    verify.add_argument("file", help="a file of JSON Lines hand records, or - for stdin")

    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="bench", required=True, metavar="WHAT")
    bench_engine = bench_sub.add_parser("engine", help="random full hands per second")
    bench_engine.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    bench_engine.add_argument("--seed", type=int, default=1)
    bench_engine.add_argument("--json", action="store_true", help="print one JSON object")
    from .bench_server import add_bench_server_parser

    add_bench_server_parser(bench_sub)
    from .bench_guess import add_bench_guess_parser

    add_bench_guess_parser(bench_sub)
    from .arena import add_arena_parser

    add_arena_parser(sub)

    serve = sub.add_parser(
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
        help="open connections one client address may hold",
    )
    serve.add_argument("--log-level", default="INFO")
    serve.add_argument("--log-format", choices=("text", "json"), default="text")

    from ..tui.commands import add_invite_argument, add_tui_arguments, add_watch_arguments
    from .headless import add_headless_arguments

    play = sub.add_parser("play", help="a quick game against three bots (starts its own server)")
    add_tui_arguments(play, play=True)

    host = sub.add_parser("host", help="create a table and play it")
    add_headless_arguments(host)
    add_tui_arguments(host)
    host.add_argument(
        "--seats", default="open,open,open", help="other seats from your left: open or a bot level"
    )
    host.add_argument("--rules", help="rules as JSON or key=value,… (e.g. moon=choice,end_at=50)")
    host.add_argument("--public", action="store_true", help="list the table in the lobby")
    host.add_argument(
        "--approval",
        action="store_true",
        help="ask me before someone sits (players with only the code knock; the link seats them)",
    )
    host.add_argument("--table-name", default="")
    join = sub.add_parser(
        "join", help="join a table by its invite code or link (none: the public tables)"
    )
    join.add_argument(
        "code", nargs="?", default="", help="ABC-DEF, or the link http://HOST:PORT/t/CODE#k=…"
    )
    add_invite_argument(join)
    join.add_argument("--seat", type=int, default=None)
    add_headless_arguments(join)
    add_tui_arguments(join)
    resume = sub.add_parser("resume", help="reattach to the seat in your session file")
    add_headless_arguments(resume)
    add_tui_arguments(resume)
    add_watch_arguments(sub.add_parser("watch", help="watch a table as a spectator"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hearts`` command; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.command in ("join", "watch"):
        problem = take_table_ref(args)
        if problem is not None:
            print(f"hearts {args.command}: {problem}", file=sys.stderr)
            return 2
    if args.command == "verify":
        from .verify import run_verify

        return run_verify(args.file)
    if args.command == "bench" and args.bench == "engine":
        from .bench_engine import run_bench_engine

        return run_bench_engine(seconds=args.seconds, seed=args.seed, as_json=args.json)
    if args.command == "play":
        from ..tui.commands import run_play

        return run_play(args)
    if args.command == "bench" and args.bench == "guess":
        from .bench_guess import run_bench_guess

        return run_bench_guess(args)
    if args.command == "bench" and args.bench == "server":
        from .bench_server import run_bench_server

        return run_bench_server(args)
    if args.command in ("host", "join", "resume", "watch"):
        if getattr(args, "autoplay", None):
            if args.command == "join" and not args.code:
                print("hearts join: --autoplay needs an invite code", file=sys.stderr)
                return 2
            from .headless import run_headless

            return run_headless(args.command, args)
        from ..tui.commands import run_interactive

        return run_interactive(args.command, args)
    if args.command == "arena":
        from .arena import run_arena

        return run_arena(args)
    if args.command == "serve":
        from .serve import run_serve

        return run_serve(args)
    raise SystemExit(f"hearts: unknown command {args.command}")  # argparse prevents this


def take_table_ref(args: argparse.Namespace) -> str | None:
    """``hearts join``/``watch``: a code, or a link giving the code, the
    invite secret and the server (``--server`` and ``--invite`` still win).
    Sets ``args.code``, ``args.invite`` and ``args.server``; what is wrong,
    if anything (never repeating what was typed: it may hold the secret)."""
    from ..invite import BadTableRef, parse_table_ref

    if not args.code:
        return "--invite needs a code or a link" if args.invite else None
    try:
        ref = parse_table_ref(args.code, args.invite)
    except BadTableRef as exc:
        return str(exc)
    args.code, args.invite = ref.code, ref.invite
    args.server = args.server or ref.server
    return None


if __name__ == "__main__":
    sys.exit(main())

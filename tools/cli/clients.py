"""``hearts play``, ``host``, ``join``, ``resume`` and ``watch``: the clients.

The terminal UI (``client.tui``) or, with ``--autoplay``, the headless client
(``client.headless``). This is where the command composes a client with a
server: ``hearts play`` without ``--server`` hands the app a way to start
one in-process (``tools.local_server``), so the client package never
imports the server.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_client_parsers(subparsers: Any) -> None:
    """Add ``play``, ``host``, ``join``, ``resume`` and ``watch`` to
    ``hearts``'s subparsers."""
    from client.headless import add_headless_arguments
    from client.tui.commands import add_invite_argument, add_tui_arguments, add_watch_arguments

    play = subparsers.add_parser(
        "play", help="a quick game against three bots (starts its own server)"
    )
    add_tui_arguments(play, play=True)
    play.set_defaults(run=run_play)

    host = subparsers.add_parser("host", help="create a table and play it")
    add_headless_arguments(host)
    add_tui_arguments(host)
    host.add_argument(
        "--seats",
        default="open,open,open",
        help="other seats from your left: open or a bot level (seats not named are open)",
    )
    host.add_argument(
        "--rules",
        help="rules as JSON or key=value,… (e.g. moon=choice,end_at=50 or variant=widow,players=5)",
    )
    host.add_argument("--public", action="store_true", help="list the table in the lobby")
    host.add_argument(
        "--approval",
        action="store_true",
        help="ask me before someone sits (players with only the code knock; the link seats them)",
    )
    host.add_argument(
        "--turn-timer",
        type=int,
        choices=(15, 30, 60),
        default=None,
        help="seconds per move; when they run out a bot moves for that player (default: no limit)",
    )
    host.add_argument("--table-name", default="")
    host.set_defaults(run=run_client)
    join = subparsers.add_parser(
        "join", help="join a table by its invite code or link (none: the public tables)"
    )
    join.add_argument(
        "code", nargs="?", default="", help="ABC-DEF, or the link http://HOST:PORT/t/CODE#k=…"
    )
    add_invite_argument(join)
    join.add_argument("--seat", type=int, default=None)
    add_headless_arguments(join)
    add_tui_arguments(join)
    join.set_defaults(run=run_client)
    resume = subparsers.add_parser("resume", help="reattach to the seat in your session file")
    add_headless_arguments(resume)
    add_tui_arguments(resume)
    resume.set_defaults(run=run_client)
    watch = subparsers.add_parser("watch", help="watch a table as a spectator")
    add_watch_arguments(watch)
    watch.set_defaults(run=run_client)


def run_play(args: argparse.Namespace) -> int:
    """``hearts play``: a quick game against three bots, on a server started
    in-process unless ``--server`` names one."""
    from client.tui.commands import run_play

    from ..local_server import saved_play_server
    from .serve import default_data_dir

    # The game is kept under the data folder (hearts serve's, by default),
    # so that the next hearts play can offer to continue it.
    data = Path(args.data).expanduser() if args.data else default_data_dir()
    return run_play(args, saved_play_server(data))


def run_client(args: argparse.Namespace) -> int:
    """``hearts host``/``join``/``resume``/``watch``: headless with
    ``--autoplay``, else in the terminal UI."""
    command: str = args.command
    if command in ("join", "watch"):
        problem = take_table_ref(args)
        if problem is not None:
            print(f"hearts {command}: {problem}", file=sys.stderr)
            return 2
    if getattr(args, "autoplay", None):
        if command == "join" and not args.code:
            print("hearts join: --autoplay needs an invite code", file=sys.stderr)
            return 2
        from client.headless import run_headless

        return run_headless(command, args)
    from client.tui.commands import run_interactive

    return run_interactive(command, args)


def take_table_ref(args: argparse.Namespace) -> str | None:
    """``hearts join``/``watch``: a code, or a link giving the code, the
    invite secret and the server (``--server`` and ``--invite`` still win).
    Sets ``args.code``, ``args.invite`` and ``args.server``; what is wrong,
    if anything (never repeating what was typed: it may hold the secret)."""
    from client.invite import BadTableRef, parse_table_ref

    if not args.code:
        return "--invite needs a code or a link" if args.invite else None
    try:
        ref = parse_table_ref(args.code, args.invite)
    except BadTableRef as exc:
        return str(exc)
    args.code, args.invite = ref.code, ref.invite
    args.server = args.server or ref.server
    return None

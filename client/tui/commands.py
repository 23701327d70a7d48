"""Wiring into the ``hearts`` command: arguments and entry points.

``hearts play`` runs ``run_play``; ``hearts host``/``join``/``resume``
without ``--autoplay`` and ``hearts watch`` run ``run_interactive``. This module imports only
argparse at load time (the parser is built for every subcommand); Textual
and the session are imported when a game starts. The server of ``hearts
play`` is the command's to start (``tools.cli.clients``): ``run_play`` is
handed how.

Textual comes with the ``tui`` extra (``pip install 'hearts-online[tui]'``):
a server-only install has no terminal client, and says so instead of failing
on the import.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .launch import Launch, StartServer

LANG_CHOICES = ("en", "uk", "ru")
TUI_EXTRA = "hearts-online[tui]"
HEADLESS = ("host", "join", "resume")
"""The commands that also run without Textual, with ``--autoplay``."""


def textual_missing(command: str) -> bool:
    """Whether Textual is not installed; if so, tell the user how to get it
    (on stderr, naming ``hearts COMMAND``)."""
    if importlib.util.find_spec("textual") is not None:
        return False
    headless = " (or let a bot play: --autoplay LEVEL)" if command in HEADLESS else ""
    print(
        f"hearts {command}: the terminal client needs Textual, which is not installed: "
        f"pip install '{TUI_EXTRA}'{headless}",
        file=sys.stderr,
    )
    return True


def add_tui_arguments(parser: argparse.ArgumentParser, *, play: bool = False) -> None:
    """The terminal client's options. For ``hearts play`` (``play=True``)
    also the quick game's own: name, bots, rules, optional server."""
    parser.add_argument(
        "--lang", choices=LANG_CHOICES, default=None, help="language (default: the locale's)"
    )
    parser.add_argument("--fast", action="store_true", help="fast play: shorter pauses")
    parser.add_argument("--log", metavar="FILE", help="write the client's log here")
    if play:
        parser.add_argument("--name", default="Player", help="your name at the table")
        parser.add_argument(
            "--bots",
            default=None,
            metavar="LEVELS",
            help="easy, medium or hard for all three bots, or three levels from your left "
            "(e.g. easy,medium,hard)",
        )
        parser.add_argument(
            "--rules", help="rules as JSON or key=value,… (e.g. moon=choice,end_at=50)"
        )
        parser.add_argument(
            "--server",
            default=None,
            help="play on this server (WebSocket URL) instead of starting one in-process",
        )
        parser.add_argument(
            "--session-file",
            metavar="FILE",
            help="with --server: where your seat is kept for `hearts resume` "
            "(default: the one hearts host and join use)",
        )
        parser.add_argument(
            "--bot-budget-ms", type=int, default=900, help="Hard bots' time per move"
        )
        parser.add_argument(
            "--data",
            metavar="DIR",
            default=None,
            help="where the game is kept to continue it next time, without --server "
            "(default: $XDG_DATA_HOME/hearts, else ~/.local/share/hearts)",
        )


def add_invite_argument(parser: argparse.ArgumentParser) -> None:
    """``--invite SECRET``: the secret of an invite link, given apart."""
    parser.add_argument(
        "--invite",
        metavar="SECRET",
        default=None,
        help="the invite link's secret (the part after #k=): sit at once, never throttled",
    )


def add_watch_arguments(parser: argparse.ArgumentParser) -> None:
    """``hearts watch CODE``: the table to watch (a code or its link), the
    server, a name (a spectator's chat lines carry it) and the terminal
    client's options."""
    parser.add_argument(
        "code", help="the table's invite code (ABC-DEF) or link (http://HOST:PORT/t/CODE…)"
    )
    add_invite_argument(parser)
    parser.add_argument(
        "--server",
        default=None,
        help="the server's WebSocket URL (default: the link's, else ws://127.0.0.1:8765/ws)",
    )
    parser.add_argument("--name", default="Player", help="your name in the chat")
    parser.add_argument(
        "--session-file", metavar="FILE", help="where your player token is kept (read only)"
    )
    add_tui_arguments(parser)


def _settings_and_app(args: argparse.Namespace, launch: Launch) -> int:
    from .app import HeartsApp
    from .settings import Settings, default_settings_file
    from .stats import default_stats_file

    _quiet_logging(getattr(args, "log", None))
    path = default_settings_file()
    settings = Settings.load(path)
    if getattr(args, "lang", None):
        settings.language = args.lang
    if getattr(args, "fast", False):
        settings.fast = True
    app = HeartsApp(launch, settings, settings_path=path, stats_path=default_stats_file())
    app.run()
    return app.return_code or 0


def _quiet_logging(path: str | None) -> None:
    """Log lines would scribble over the screen: send them to a file or
    nowhere."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    if path:
        logging.basicConfig(
            filename=path, level=logging.INFO, format="%(asctime)s %(name)s %(message)s"
        )
    else:
        root.addHandler(logging.NullHandler())
        logging.getLogger("hearts").propagate = False
        logging.getLogger("hearts").addHandler(logging.NullHandler())


def play_session_file(args: argparse.Namespace) -> Path | None:
    """Where ``hearts play`` keeps the seat for ``hearts resume``: on
    ``--server``, the session file host and join use (or ``--session-file``),
    so that a player who quits comes back; None on its own server, which
    keeps the game in its data folder and offers it back itself.

    Raises ValueError for ``--session-file`` without ``--server``."""
    if not args.server:
        if args.session_file:
            raise ValueError(
                "--session-file goes with --server (its own server keeps the game in --data)"
            )
        return None
    from client.session import default_session_file

    return Path(args.session_file) if args.session_file else default_session_file()


def run_play(args: argparse.Namespace, local_server: StartServer | None = None) -> int:
    """``hearts play``: a quick game against three bots; ``local_server``
    starts the server to play on when ``--server`` names none."""
    if textual_missing("play"):
        return 2
    from ..rules_option import table_rules
    from .launch import Launch, parse_seats

    try:
        seats = parse_seats(args.bots or "medium")
        rules = table_rules(args.rules)
        session_file = play_session_file(args)
    except ValueError as exc:
        print(f"hearts play: {exc}", file=sys.stderr)
        return 2
    launch = Launch(
        mode="play",
        server=args.server,
        session_file=session_file,
        name=args.name,
        seats=seats,
        rules=rules,
        bot_budget_ms=args.bot_budget_ms,
        bot_workers=min(3, os.cpu_count() or 1),  # three bots at most think at once
        local_server=local_server,
        # Said when a kept game is offered: they shape a new game only.
        new_game_options=tuple(
            option for option, value in (("--bots", args.bots), ("--rules", args.rules)) if value
        ),
    )
    return _settings_and_app(args, launch)


def run_interactive(command: str, args: argparse.Namespace) -> int:
    """``hearts host``/``join``/``resume``/``watch`` in the terminal UI."""
    if textual_missing(command):
        return 2
    from client.session import default_session_file

    from ..rules_option import table_rules
    from .launch import Launch, Mode, parse_seats

    session_file = Path(args.session_file) if args.session_file else default_session_file()
    try:
        seats = parse_seats(getattr(args, "seats", "open,open,open"), default="open")
        rules = table_rules(getattr(args, "rules", None))
    except ValueError as exc:
        print(f"hearts {command}: {exc}", file=sys.stderr)
        return 2
    modes: dict[str, Mode] = {"host": "host", "join": "join", "watch": "watch"}
    launch = Launch(
        mode=modes.get(command, "resume"),
        server=args.server,
        name=args.name,
        seats=seats,
        rules=rules,
        table_name=getattr(args, "table_name", ""),
        public=getattr(args, "public", False),
        approval=getattr(args, "approval", False),
        turn_seconds=getattr(args, "turn_timer", None),
        code=getattr(args, "code", ""),
        invite=getattr(args, "invite", None),
        seat=getattr(args, "seat", None),
        session_file=session_file,
    )
    return _settings_and_app(args, launch)

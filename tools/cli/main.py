"""Entry point of the ``hearts`` command: its parser and the dispatch.

Each subcommand (or family of them) has its own module in ``tools.cli`` that
adds its parser and names the function that runs it (``run`` in the parsed
arguments); a module imports what it runs (the server, Textual, Redis) only
when it runs, so ``hearts verify`` does not pay for the server or Textual.

=========================================  ===============================
``hearts verify``                          ``tools/cli/verify.py``
``hearts analyse``                         ``tools/cli/analyse.py`` -> ``bots/review/``
``hearts bench engine|server|guess``       ``tools/cli/bench.py`` -> ``tools/bench/``
``hearts arena``                           ``tools/cli/arena.py`` -> ``tools/arena/``
``hearts serve``                           ``tools/cli/serve.py`` -> ``server/``
``hearts admin``                           ``tools/cli/admin.py`` (HTTP to ``server/admin.py``)
``hearts play|host|join|resume|watch``     ``tools/cli/clients.py`` -> ``client/``
``hearts bot``                             ``tools/cli/bot.py`` -> ``client/bot_client.py``
=========================================  ===============================
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .admin import add_admin_parser
from .analyse import add_analyse_parser
from .arena import add_arena_parser
from .bench import add_bench_parser
from .bot import add_bot_parser
from .clients import add_client_parsers
from .layered import LayeredParser
from .serve import add_serve_parser
from .verify import add_verify_parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="hearts", description="Hearts with friends and bots: server, clients and tools."
    )
    from server.version import DISTRIBUTION, package_version

    parser.add_argument(
        "--version", action="version", version=f"{DISTRIBUTION} {package_version()}"
    )
    # LayeredParser: a subcommand made with ``env_prefix`` also reads its
    # options from the environment and a TOML file (``hearts serve``).
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=LayeredParser)
    # In the order `hearts --help` lists them.
    add_verify_parser(sub)
    add_analyse_parser(sub)
    add_bench_parser(sub)
    add_arena_parser(sub)
    add_serve_parser(sub)
    add_admin_parser(sub)
    add_client_parsers(sub)
    add_bot_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hearts`` command; returns the exit status. Without a
    command it lists the commands (``hearts play`` first for a player) and
    returns 2, as for any other usage error."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        print("\nTo play at once against three bots: hearts play", file=sys.stderr)
        return 2
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":  # bot worker processes re-import this module
    sys.exit(main())

"""``hearts bot``: a bot of one's own plays a seat at a table
(``client.bot_client``)."""

from __future__ import annotations

import argparse
from typing import Any


def add_bot_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``bot`` to ``hearts``'s subparsers."""
    from client.bot_client import add_bot_arguments

    p: argparse.ArgumentParser = subparsers.add_parser(
        "bot", help="a bot of yours (pkg.module:factory) plays a seat at a table"
    )
    add_bot_arguments(p)
    p.set_defaults(run=_run)
    return p


def _run(args: argparse.Namespace) -> int:
    from client.bot_client import run_bot_command

    return run_bot_command(args)

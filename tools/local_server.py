"""The in-process server of ``hearts play``.

``hearts play`` starts the same server ``hearts serve`` runs, on a free
local port inside the terminal app's own event loop; the app then creates a
table with three bots and starts it, so a quick game goes through exactly
the path a networked one does. The app gets this function from the command
(``Launch.local_server``): the client package never imports the server.
"""

from __future__ import annotations

import contextlib
import sys

from client.tui.launch import Launch
from server.app import RunningServer, start_server
from server.config import ServerConfig


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with the real stderr.

    The bot workers' pool starts it on first use, handing it
    ``sys.stderr.fileno()``; under Textual ``sys.stderr`` is a capture object
    without a file descriptor and the start fails. Once started (once per
    process) the tracker is reused."""
    from multiprocessing import resource_tracker

    real = sys.__stderr__
    with contextlib.redirect_stderr(real) if real is not None else contextlib.nullcontext():
        resource_tracker.ensure_running()


async def start_play_server(launch: Launch) -> RunningServer:
    """A server on a free port of 127.0.0.1, in this event loop, with the
    bots' budget and workers ``launch`` asks for."""
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        bot_workers=launch.bot_workers,
        bot_budget_ms=launch.bot_budget_ms,
        server_name="hearts-play",
    )
    start_resource_tracker()
    return await start_server(config)

"""The in-process server of ``hearts play``.

``hearts play`` starts the same server ``hearts serve`` runs, on a free
local port inside the terminal app's own event loop; the app then creates a
table with three bots and starts it, so a quick game goes through exactly
the path a networked one does. The app gets this function from the command
(``Launch.local_server``): the client package never imports the server.

The command's server keeps its tables in a SQLite file of its own under the
data folder (``play.sqlite3``, beside ``hearts serve``'s file) and hands the
app a session file beside it (``play-session.json``): quit mid-game, run
``hearts play`` again, and the app offers to continue that game. The seat is
saved by table and token, never by the port, which differs each run. A
second ``hearts play`` running meanwhile finds the file locked (the store's
``flock``) and takes the next one (``play-2.sqlite3``…), so both keep their
own game.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path

from client.tui.launch import Launch, StartServer
from server.app import RunningServer, start_server
from server.config import ServerConfig
from server.store.sqlite_store import StoreLocked

PLAY_SLOTS = 8
"""How many ``hearts play`` can keep a game each at once under one folder."""


@dataclass(frozen=True)
class PlayServer:
    """A started ``hearts play`` server and the session file of its game
    (None: the server keeps nothing, there is no game to come back to)."""

    running: RunningServer
    session_file: Path | None = None

    @property
    def url(self) -> str:
        """The WebSocket URL to connect to."""
        return self.running.url

    async def close(self) -> None:
        """Stop the server (its store is closed with it)."""
        await self.running.close()


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


def _config(launch: Launch, store_url: str | None) -> ServerConfig:
    return ServerConfig(
        host="127.0.0.1",
        port=0,
        store_url=store_url,
        bot_workers=launch.bot_workers,
        bot_budget_ms=launch.bot_budget_ms,
        server_name="hearts-play",
    )


async def start_play_server(launch: Launch) -> PlayServer:
    """A server on a free port of 127.0.0.1, in this event loop, with the
    bots' budget and workers ``launch`` asks for, keeping its tables in
    memory (nothing to come back to)."""
    start_resource_tracker()
    return PlayServer(await start_server(_config(launch, None)))


def slot_files(data_dir: Path, slot: int) -> tuple[Path, Path]:
    """The store file and the session file of ``hearts play``'s game number
    ``slot`` (1: ``play.sqlite3`` and ``play-session.json``; then
    ``play-2.sqlite3``…)."""
    stem = "play" if slot == 1 else f"play-{slot}"
    return data_dir / f"{stem}.sqlite3", data_dir / f"{stem}-session.json"


def saved_play_server(data_dir: Path) -> StartServer:
    """How ``hearts play`` starts its server: as ``start_play_server``, with
    its tables in the first of the SQLite files under ``data_dir`` that no
    other ``hearts play`` holds, and that file's session file. If all are
    held, a server in memory (the game is not kept)."""

    async def start(launch: Launch) -> PlayServer:
        start_resource_tracker()
        for slot in range(1, PLAY_SLOTS + 1):
            store_file, session_file = slot_files(data_dir, slot)
            if "?" in str(store_file.absolute()):  # the store URL's query would start there
                break
            try:
                running = await start_server(_config(launch, f"sqlite://{store_file.absolute()}"))
            except StoreLocked:
                continue  # another hearts play is using it: the next one
            return PlayServer(running, session_file)
        return PlayServer(await start_server(_config(launch, None)))

    return start

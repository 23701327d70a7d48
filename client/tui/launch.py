"""What the app connects to and does first, and the in-process server of
``hearts play``.

``hearts play`` starts the same server ``hearts serve`` runs, on a free
local port inside the app's own event loop, creates a table with three bots
and starts it, so a quick game goes through exactly the path a networked
one does.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit, urlunsplit

from protocol.common import RulesModel, SeatSpec

if TYPE_CHECKING:
    from server.app import RunningServer

Mode = Literal["play", "host", "join", "resume", "watch"]
BOT_LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Launch:
    """How the app starts: the command and its options."""

    mode: Mode
    # None: play starts one in-process, resume asks the saved seat's server,
    # the others the default one.
    server: str | None = None
    name: str | None = None  # None: resume takes the saved name, the others "Player"
    seats: tuple[SeatSpec, SeatSpec, SeatSpec] = ("open", "open", "open")
    rules: RulesModel = field(default_factory=RulesModel)
    table_name: str = ""
    public: bool = False
    approval: bool = False  # host: ask me before someone sits
    code: str = ""  # join/watch; join without one lists the public tables
    invite: str | None = field(default=None, repr=False)  # the invite link's secret
    seat: int | None = None
    session_file: Path | None = None
    ask_setup: bool = True  # host: show the form before creating the table
    bot_budget_ms: int = 900
    bot_workers: int | None = 1
    max_backoff: float = 5.0


def join_url(ws_url: str, code: str) -> str:
    """``ws://host:port/ws`` and ``ABCDEF`` → ``http://host:port/t/ABCDEF``."""
    parts = urlsplit(ws_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return urlunsplit((scheme, parts.netloc, f"/t/{code}", "", ""))


def parse_seats(text: str, default: SeatSpec = "medium") -> tuple[SeatSpec, SeatSpec, SeatSpec]:
    """``medium`` (all three) or ``easy,open,hard`` (from your left)."""
    parts = [p.strip().lower() for p in text.split(",") if p.strip()] or [default]
    if len(parts) == 1:
        parts *= 3
    if len(parts) != 3:
        raise ValueError("give one level, or three separated by commas")
    allowed = ("open", *BOT_LEVELS)
    for part in parts:
        if part not in allowed:
            raise ValueError(f"unknown seat {part!r}: use {', '.join(allowed)}")
    return parts[0], parts[1], parts[2]  # type: ignore[return-value]  # checked above


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


async def start_local_server(launch: Launch) -> RunningServer:
    """A server on a free port of 127.0.0.1, in this event loop."""
    from server.app import start_server
    from server.config import ServerConfig

    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        bot_workers=launch.bot_workers,
        bot_budget_ms=launch.bot_budget_ms,
        server_name="hearts-play",
    )
    start_resource_tracker()
    return await start_server(config)

"""What the app connects to and does first.

``Launch`` is the command's wish: play a quick game, host, join, resume or
watch, with which name, seats and rules. ``hearts play`` without a server
plays on one started in-process, in the app's own event loop; the command
gives the app how to start it (``local_server``, from
``tools.local_server``), so this package never imports the server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

from protocol.common import RulesModel, SeatSpec

Mode = Literal["play", "host", "join", "resume", "watch"]
BOT_LEVELS = ("easy", "medium", "hard")


class LocalServer(Protocol):
    """A server started for this app alone (``hearts play``): the app
    connects to ``url``, keeps its seat in ``session_file`` (if any) to come
    back to it next time, and closes the server when it ends."""

    @property
    def url(self) -> str:
        """The WebSocket URL to connect to."""
        ...

    @property
    def session_file(self) -> Path | None:
        """Where this server's game is saved for the next ``hearts play``
        (None: the server keeps nothing)."""
        ...

    async def close(self) -> None:
        """Stop the server."""
        ...


StartServer = Callable[["Launch"], Awaitable[LocalServer]]
"""Starts the in-process server of ``hearts play`` for a ``Launch``."""


@dataclass(frozen=True)
class Launch:
    """How the app starts: the command and its options."""

    mode: Mode
    # None: play starts one in-process, resume asks the saved seat's server,
    # the others the default one.
    server: str | None = None
    name: str | None = None  # None: resume takes the saved name, the others "Player"
    seats: tuple[SeatSpec, ...] = ("open", "open", "open")
    rules: RulesModel = field(default_factory=RulesModel)
    table_name: str = ""
    public: bool = False
    approval: bool = False  # host: ask me before someone sits
    turn_seconds: int | None = None  # host: the turn timer (15, 30 or 60 s per move)
    code: str = ""  # join/watch; join without one lists the public tables
    invite: str | None = field(default=None, repr=False)  # the invite link's secret
    seat: int | None = None
    session_file: Path | None = None
    ask_setup: bool = True  # host: show the form before creating the table
    bot_budget_ms: int = 900
    bot_workers: int | None = 1
    max_backoff: float = 5.0
    # play: the options given that only a new game takes (``--bots``,
    # ``--rules``): the offer to continue a kept game says so.
    new_game_options: tuple[str, ...] = ()
    # How ``hearts play`` starts its own server when ``server`` is None.
    local_server: StartServer | None = field(default=None, repr=False, compare=False)


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


async def start_local_server(launch: Launch) -> LocalServer:
    """The in-process server of ``hearts play``, started as the command said
    (``launch.local_server``)."""
    if launch.local_server is None:
        raise RuntimeError("hearts play without --server needs a way to start a local server")
    return await launch.local_server(launch)

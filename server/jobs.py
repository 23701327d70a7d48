"""What goes into a table actor's inbox, and the two sides that exchange it.

Everything that changes a table is a job (docs/architecture.md property 2):
one small frozen dataclass per kind, handled by one ``match`` in
``TableActor._handle``. Jobs from a client carry its connection (a
``Watcher``) and, for a request, the decoded message; the actor's own jobs
(bot moves, timers) carry only what they need.

A connection holds a ``TableHandle``: the ``TableActor`` when this process
runs the table, a ``RemoteTable`` (server.remote) when another one does.
Both take the same jobs; a remote one sends them over the cluster bus
(server.bus says how each travels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol

from pydantic import BaseModel

from protocol import client_messages as cm

from .bot_runner import BotMove

AttachMode = Literal["host", "join", "watch", "resume", "again"]
"""``again``: a ``create_table`` repeated with its id, answered with the
table it made (server.created_tables)."""


class TableHandle(Protocol):
    """A table as a connection reaches it: here, or at its owner."""

    @property
    def table_id(self) -> str:
        """The table's id."""
        ...

    def post(self, job: Job) -> None:
        """Queue a job (never blocks)."""

    async def call(self, job: Job) -> None:
        """Queue a job and wait until it has been applied or refused;
        ``OwnerGone`` if the table moved."""


class Watcher(Protocol):
    """A connection attached to a table (player or spectator)."""

    name: str
    player_id: str
    conn_id: str

    def send(self, message: BaseModel) -> None:
        """Queue a message; never blocks."""

    def send_frame(self, frame: bytes) -> None:
        """Queue an already encoded (and redacted) frame; never blocks."""

    def send_frames(self, frames: Sequence[bytes]) -> None:
        """Queue encoded (and redacted) frames in order; never blocks."""

    def attached(self, table: TableHandle, seat: int | None) -> None:
        """The table attached this connection at ``seat``."""

    def removed(self, table: TableHandle) -> None:
        """The table removed this connection (kicked): it is no longer
        attached anywhere and gets no more frames from it."""

    def close(self) -> None:
        """Drop the client (it resumes, possibly with another process)."""


# -- from a connection -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attach:
    """A connection comes to the table: its host (``token`` is the seat
    token the lobby made; it never leaves this process), a player joining,
    a spectator, or a player resuming a seat."""

    kind: ClassVar[str] = "attach"
    conn: Watcher
    message: cm.CreateTable | cm.JoinTable | cm.Watch | cm.Resume
    mode: AttachMode
    token: str = ""
    # The connection's hello said it is a program, not a person: the seat
    # it takes or resumes is marked so.
    program: bool = False


@dataclass(frozen=True, slots=True)
class Knock:
    """A player with the code asks the host to let them in."""

    kind: ClassVar[str] = "knock"
    conn: Watcher
    message: cm.Knock


@dataclass(frozen=True, slots=True)
class Request:
    """A table request (play a card, take a seat, chat…) from an attached
    connection."""

    kind: ClassVar[str] = "request"
    conn: Watcher
    message: cm.ClientMessage


@dataclass(frozen=True, slots=True)
class Detach:
    """The connection left the table or closed."""

    kind: ClassVar[str] = "detach"
    conn: Watcher


# -- from the actor itself -------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotMoved:
    """A bot decided ``move`` for ``seat`` (server.table_duties)."""

    kind: ClassVar[str] = "bot_move"
    seat: int
    move: BotMove


@dataclass(frozen=True, slots=True)
class GraceOver:
    """An away player's grace countdown ran out: a bot covers the seat."""

    kind: ClassVar[str] = "grace"
    seat: int


@dataclass(frozen=True, slots=True)
class TurnOver:
    """The turn timer of ``seat`` ran out on turn ``turn``
    (server.turn_timer): its fallback bot is asked for the move."""

    kind: ClassVar[str] = "turn_over"
    seat: int
    turn: tuple[int, str, int]


@dataclass(frozen=True, slots=True)
class TimedOutMove:
    """The fallback bot's move for ``seat`` whose time ran out on ``turn``."""

    kind: ClassVar[str] = "timed_out_move"
    seat: int
    turn: tuple[int, str, int]
    move: BotMove


@dataclass(frozen=True, slots=True)
class AutoDeal:
    """Deal hand ``hand`` + 1 (the pause between hands ended, or no human is
    left to press ready); stale if the game moved on."""

    kind: ClassVar[str] = "auto_deal"
    hand: int


@dataclass(frozen=True, slots=True)
class Tick:
    """Put right what a commit the store refused left behind."""

    kind: ClassVar[str] = "tick"


@dataclass(frozen=True, slots=True)
class ResumeDuties:
    """The table was loaded from the store: its humans count as away until
    they resume, and bots carry on."""

    kind: ClassVar[str] = "resume_duties"


Job = (
    Attach
    | Knock
    | Request
    | Detach
    | BotMoved
    | GraceOver
    | TurnOver
    | TimedOutMove
    | AutoDeal
    | Tick
    | ResumeDuties
)
"""Every job a table actor takes."""

FromConnection = Attach | Knock | Request | Detach
"""The jobs a connection sends, which another process may forward (server.bus)."""

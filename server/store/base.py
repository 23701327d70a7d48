"""What every table store offers (memory, SQLite and Redis implement it).

A table is stored as one opaque state blob (bytes) under a version number,
plus a capped log of its numbered events (bytes each). ``commit`` writes the
new state and the events of one accepted intent together, and only if the
stored version is still the one the writer read (compare-and-set): two
writers can never both win, and an intent is acknowledged only after
``commit`` returned. Beside the tables, a store keeps the invite-code index,
the list of public tables waiting for players, per-player statistics, the
finished hands' records and the reviews made of them (``save_review``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.errors import ServerFault


class StoreError(ServerFault):
    """The store failed (connection lost, bad data): a fault on our side."""

    code = "store_unavailable"


class StoreConflict(StoreError):
    """The stored version moved on: another writer committed first."""

    code = "store_conflict"


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as loaded: its state blob, version and last event number."""

    table_id: str
    version: int
    state: bytes
    last_seq: int


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One logged event: its number (1, 2, …) and its encoded body."""

    seq: int
    body: bytes


@dataclass(frozen=True, slots=True)
class PublicTable:
    """A public table's lobby entry (what the listing shows)."""

    table_id: str
    code: str
    summary: bytes


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Per-player totals over finished games and hands."""

    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    moons: int = 0
    queens: int = 0

    @property
    def average_points(self) -> float:
        """Average points per hand (0.0 before any hand)."""
        return self.points / self.hands if self.hands else 0.0


@dataclass(frozen=True, slots=True)
class StatsDelta:
    """What one finished hand (or game) adds to a player's statistics."""

    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    moons: int = 0
    queens: int = 0


@dataclass(frozen=True, slots=True)
class CommitRequest:
    """One commit of ``TableStore.commit``: if the stored version of
    ``table_id`` is ``expected_version`` (and, when ``owner`` is given,
    that process holds the table's lease), write ``state`` at version
    ``expected_version + 1``, append ``events`` to the log, numbered after
    the last one, ``records`` (finished hands) to the table's hand records
    and ``stats`` to the players' statistics; with ``running`` given, add
    the table to (True) or remove it from (False) the running tables.
    ``token`` names this commit: a retry of it (same token) whose first
    attempt applied reports that attempt's result instead of a conflict."""

    table_id: str
    expected_version: int
    state: bytes
    events: Sequence[bytes] = ()
    owner: str | None = None
    running: bool | None = None
    records: Sequence[bytes] = ()
    stats: Mapping[str, StatsDelta] = field(default_factory=dict)
    token: str | None = None


class TableStore(Protocol):
    """The storage interface of the server. All methods may raise ``StoreError``."""

    async def create_table(self, table_id: str, code: str, state: bytes) -> None:
        """Store a new table at version 1 with no events and index its invite
        ``code``. Raises ``StoreConflict`` if the id or the code is taken."""

    async def load_table(self, table_id: str) -> StoredTable | None:
        """The stored table, or None if unknown or expired."""

    async def commit(self, request: CommitRequest) -> tuple[int, int]:
        """Atomically apply ``request`` (see ``CommitRequest``): all of it
        or nothing. Returns ``(new_version, last_seq)``. Raises
        ``StoreConflict`` when the version moved on, the table is unknown or
        the owner lost its lease (nothing written)."""

    async def events_since(self, table_id: str, after_seq: int) -> list[StoredEvent] | None:
        """Logged events numbered above ``after_seq``, in order; None when the
        log no longer reaches back that far (it is capped): the caller then
        sends a fresh snapshot instead."""

    async def table_id_for_code(self, code: str) -> str | None:
        """The table an invite code names, or None."""

    async def set_public(self, table_id: str, code: str, summary: bytes | None) -> None:
        """List the table in the lobby with ``summary``, or unlist it (None)."""

    async def list_public(self, limit: int = 50) -> list[PublicTable]:
        """Public tables waiting for players, newest first."""

    async def expire_table(self, table_id: str, seconds: int) -> None:
        """Let the table (state, log, code, records, reviews) vanish after ``seconds``
        (finished or abandoned tables)."""

    async def hand_records(self, table_id: str) -> list[bytes]:
        """The table's finished hand records, oldest first."""

    async def save_review(self, table_id: str, key: str, review: bytes) -> None:
        """Keep ``review`` (a hand review, ``server.stored_reviews``) with
        the table under ``key``, replacing what was kept there. It lives as
        long as the table's hand records: it vanishes when the table expires
        (even when the table was set to expire before the review was kept)
        and a new table given the same id starts without it. For a table
        that is unknown or expired nothing is kept, and no error is raised:
        a review can always be made again from the records."""

    async def load_reviews(self, table_id: str, keys: Sequence[str]) -> list[bytes | None]:
        """The reviews kept with the table under ``keys``, in their order:
        None for each key nothing is kept under (every one for a table that
        is unknown or expired)."""

    async def get_stats(self, player_id: str) -> PlayerStats:
        """A player's statistics (zeros for an unknown player)."""

    async def table_ids(self) -> list[str]:
        """Every stored table id."""

    async def running_ids(self) -> list[str]:
        """The live tables whose last commit said a game is running: the
        ones a server must run even with nobody connected (bots play on),
        resumed after a restart or an owner's death."""

    async def ping(self) -> None:
        """Raise ``StoreError`` unless the store answers (readiness)."""

    async def close(self) -> None:
        """Release connections."""

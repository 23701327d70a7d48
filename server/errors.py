"""Errors the server answers with (a branch of engine.errors' tree)::

    ClientError
    ├── HelloRequired     hello_required    a request before ``hello``
    ├── HelloRepeated     hello_repeated    a repeated ``hello`` that is not a rename
    ├── AuthError         bad_token         a seat token that proves nothing
    ├── NotFound          no_such_table     unknown code or table id
    ├── NotAllowed        not_allowed       not the host, not seated, …
    │   ├── Kicked        kicked            the host removed you from this table
    │   └── KnockRequired knock_required    the host approves who sits: knock
    ├── TableFull         table_full        no open seat / the seat is taken
    ├── NotNow            not_now           the table is not in the right state
    │   └── ClaimRefused  claim_refused     a claim that does not hold (or not provably yet)
    ├── BadRules          bad_rules         rules options that cannot be played
    ├── TableTooNew       table_too_new     the stored table is in a format this release cannot read
    ├── LimitError        rate_limited, too_many_tables, slow_consumer
    │   ├── Throttled     rate_limited      wait ``retry_after`` seconds first
    │   └── TableRefused  too_many_tables, server_full: no new table now
    │                                       (``reason``, ``retry_after``)
    ServerFault
    ├── OwnerGone         owner_gone        the table moved to another process: resume
    ├── UnknownEvent                        an event the registry (server.event_kinds) lacks
    └── StoreError, StoreConflict           (server.store.base)

Client errors carry a stable ``code`` and a sentence; server faults reach
clients only as ``internal_error`` ("something went wrong on our side").
"""

from __future__ import annotations

from engine.errors import ClientError, ServerFault
from protocol.refusals import NotNowReason


class HelloRequired(ClientError):
    """The connection has not said hello yet."""

    code = "hello_required"


class HelloRepeated(ClientError):
    """The connection has already said hello: who it is does not change, and
    at a table neither does its name."""

    code = "hello_repeated"


class AuthError(ClientError):
    """A seat token that does not prove a seat of that table."""

    code = "bad_token"


class NotFound(ClientError):
    """No such table (unknown code or id, or it has expired)."""

    code = "no_such_table"


class NotAllowed(ClientError):
    """You may not do that here (not the host, not seated, a spectator…)."""

    code = "not_allowed"


class Kicked(NotAllowed):
    """The host removed this player from the table (until allowed back)."""

    code = "kicked"


class KnockRequired(NotAllowed):
    """The table asks its host before anyone sits; the player has only the
    code (not the invite link) and has not been let in: knock first."""

    code = "knock_required"


class TableFull(ClientError):
    """No open seat, or the seat asked for is taken."""

    code = "table_full"


class NotNow(ClientError):
    """The table is not in a state where that makes sense. ``reason``, a
    stable key (docs/protocol.md, "Errors"), says which case, so a client
    can tell the player in their language what is not possible now; None
    when no case is named (the ``error`` frame then has no ``reason``)."""

    code = "not_now"

    def __init__(self, message: str, reason: NotNowReason | None = None) -> None:
        super().__init__(message)
        self.reason: NotNowReason | None = reason


class ClaimRefused(NotNow):
    """A claim of every trick left that the others could defeat, or that
    has too many cards left to check."""

    code = "claim_refused"


class LimitError(ClientError):
    """A limit was hit; ``code`` says which."""

    code = "rate_limited"

    def __init__(self, message: str, code: str = "rate_limited") -> None:
        super().__init__(message)
        self.code = code


class Throttled(LimitError):
    """Too many failed invite-code lookups from this address: wait
    ``retry_after`` seconds (the reply says so)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TableRefused(LimitError):
    """A new table is refused: the creation budget of the player or of the
    client address is spent (``too_many_tables``), or the server holds as
    many tables as it may (``server_full``). ``reason`` is a stable key
    (docs/protocol.md, "Errors"), ``retry_after`` the seconds after which a
    table may be created again."""

    def __init__(self, message: str, code: str, reason: str, retry_after: float) -> None:
        super().__init__(message, code)
        self.reason = reason
        self.retry_after = retry_after


class BadRules(ClientError):
    """Rules options that cannot be played together."""

    code = "bad_rules"


class OwnerGone(ServerFault):
    """The process that ran the table stopped, or stopped answering: the
    client resumes, and whichever process it reaches takes the table."""

    code = "owner_gone"


class UnknownEvent(ServerFault):
    """An event of a kind the registry (``server.event_kinds``) does not
    know, or stored JSON that is no event: a bug, or a log written by a
    newer release. Logged, never sent."""


class TableTooNew(ClientError):
    """The stored table was written by a newer release of the server, in a
    format this one cannot read (a rolling upgrade is under way), or it
    cannot be read at all. Nothing was changed: the stored state stays as
    it was for a server that can run it (server.state_format)."""

    code = "table_too_new"

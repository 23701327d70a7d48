"""The stored table state's format: its number, the migrations from every
earlier one, and what a reader refuses (docs/deploy.md, "Rolling
upgrades").

Every state blob this release writes carries two top-level integers:
``format``, the format it is written in (``FORMAT``), and
``readable_from``, the oldest format whose readers may read it
(``READABLE_FROM``): a later format that only adds what older readers may
ignore keeps ``readable_from`` where it was, one they must not read raises
it. A reader of format R reads a blob of format F:

- F <= R: migrated up, one format at a time (``MIGRATIONS``). A field the
  format does not have (at the top or in a seat) means a newer release
  wrote it, or the blob is damaged: refused.
- F > R and ``readable_from`` <= R: the additions R does not know are left
  out (a forward-compatible read).
- F > R and ``readable_from`` > R: refused.

A refusal is ``TableTooNew`` (a ``ClientError``: the client is told why,
nothing is written, the server carries on).

The formats:

1. The blobs stored before formats were numbered: no ``format`` key. Some
   of their fields came later (the chat, kicked players, the invite
   secret, approval, knocks, let-in players and the turn timer at the top;
   ``program`` and ``covered_discarded`` in a seat), so older blobs lack
   them; the reader filled them with ``data.get`` defaults.
2. Format 1 with every field present, plus ``format`` and
   ``readable_from``, and when the table was created and last moved
   (``created_at``, ``moved_at``: Unix seconds, 0 for a format-1 blob,
   which never kept them); in a seat, the moves a bot made in its player's
   name one by one (``covered_moves``, empty for a format-1 blob). A format-1 reader (the release before) reads it: it
   reads the fields it knows and ignores new top-level ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from .errors import TableTooNew

FORMAT = 2
"""The format this release writes."""

READABLE_FROM = 1
"""The oldest format whose readers may read what this release writes."""

_TABLE_1 = frozenset(
    {
        "table_id",
        "code",
        "name",
        "public",
        "rules",
        "seed",
        "seats",
        "host_seat",
        "status",
        "game",
        "games_played",
        "seq",
        "chat",
        "kicked",
        "invite",
        "approval",
        "knocks",
        "admitted",
        "turn_seconds",
    }
)
_SEAT_1 = frozenset(
    {
        "kind",
        "name",
        "bot_level",
        "player_id",
        "token_hash",
        "connected",
        "away",
        "covering",
        "ready",
        "program",
        "recent",
        "covered_played",
        "covered_passed",
        "covered_moon",
        "covered_discarded",
    }
)

TABLE_FIELDS: Mapping[int, frozenset[str]] = MappingProxyType(
    {1: _TABLE_1, 2: _TABLE_1 | {"format", "readable_from", "created_at", "moved_at"}}
)
"""The top-level fields of each format."""

SEAT_FIELDS: Mapping[int, frozenset[str]] = MappingProxyType(
    {1: _SEAT_1, 2: _SEAT_1 | {"covered_moves"}}
)
"""A stored seat's fields in each format."""

# Format 1's fields that its older blobs may lack, with the value they meant.
_TABLE_DEFAULTS_1: Mapping[str, Any] = MappingProxyType(
    {
        "chat": [],
        "kicked": [],
        "invite": "",
        "approval": False,
        "knocks": {},
        "admitted": [],
        "turn_seconds": None,
    }
)
_SEAT_DEFAULTS_1: Mapping[str, Any] = MappingProxyType(
    {"program": False, "covered_discarded": [], "recent": []}
)
# Format 2's seat fields that format 1 never had.
_SEAT_NEW_2: Mapping[str, Any] = MappingProxyType({"covered_moves": []})


def _from_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: every field present, and the format stated."""
    out: dict[str, Any] = {
        "format": 2,
        "readable_from": 1,
        "created_at": 0.0,
        "moved_at": 0.0,
        **data,
    }
    for name, default in _TABLE_DEFAULTS_1.items():
        out.setdefault(name, _copy(default))
    out["seats"] = [
        {**{k: _copy(v) for k, v in {**_SEAT_DEFAULTS_1, **_SEAT_NEW_2}.items()}, **seat}
        for seat in data["seats"]
    ]
    return out


def _copy(value: Any) -> Any:
    return type(value)() if isinstance(value, list | dict) else value


MIGRATIONS: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = MappingProxyType(
    {1: _from_1}
)
"""Format n -> n + 1, for every n below ``FORMAT``."""


def stamp(data: dict[str, Any]) -> dict[str, Any]:
    """A state as this release stores it: ``format`` and ``readable_from``
    first, then its fields."""
    return {"format": FORMAT, "readable_from": READABLE_FROM, **data}


def read(data: Any, reader: int = FORMAT) -> dict[str, Any]:
    """A stored state (parsed JSON) as a reader of format ``reader`` reads
    it: in format ``reader``, or ``TableTooNew``. ``reader`` is this
    release's format but in tests, which read as the release before would."""
    if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
        raise TableTooNew(_DAMAGED)
    state: dict[str, Any] = data
    written = state.get("format", 1)
    if not isinstance(written, int) or isinstance(written, bool) or written < 1:
        raise TableTooNew(_DAMAGED)
    if written > reader:
        oldest = state.get("readable_from", written)
        if not isinstance(oldest, int) or oldest > reader:
            raise TableTooNew(_NEWER)
        # Forward-compatible: what this reader's format does not have is
        # left out, and the blob is read as one of its own format.
        state = _known_only(state, reader)
        written = reader
    else:
        _refuse_unknown(state, written)
    while written < reader:
        state = MIGRATIONS[written](state)
        written += 1
    return state


_NEWER = (
    "this table was saved by a newer release of the server, which this server cannot "
    "run; try again when the servers are upgraded"
)
_DAMAGED = "this server cannot read this table's stored state"


def _refuse_unknown(data: dict[str, Any], written: int) -> None:
    """A field a format does not have: a newer release wrote it (with no
    ``format`` of its own to say so), or the blob is damaged."""
    if not set(data) - {"format", "readable_from"} <= TABLE_FIELDS[written]:
        raise TableTooNew(_NEWER)
    for seat in data["seats"]:
        if not isinstance(seat, dict) or not set(seat) <= SEAT_FIELDS[written]:
            raise TableTooNew(_NEWER)


def _known_only(data: dict[str, Any], reader: int) -> dict[str, Any]:
    """``data`` with only the fields format ``reader`` has."""
    table_fields, seat_fields = TABLE_FIELDS[reader], SEAT_FIELDS[reader]
    out = {k: v for k, v in data.items() if k in table_fields}
    out["seats"] = [
        {k: v for k, v in seat.items() if k in seat_fields}
        for seat in data["seats"]
        if isinstance(seat, dict)
    ]
    if "format" in table_fields:
        out["format"] = reader
    return out

"""Operators' log lines: one structured line per lifecycle event of a
table or a player, and one access line per HTTP request and WebSocket.

Every lifecycle line is logged by ``hearts.events`` at INFO with the field
``event`` and, where they apply, ``table``, ``variant``, ``player`` (the
public player id, a hash: never a token), ``address`` (the client's, as
seen through the trusted proxies) and ``process`` (the cluster member id, or
host:pid for a lone process). Access lines go to ``hearts.access``, so
``--log-level hearts.access=warning`` silences health checks and keeps the
rest.

| event | when |
| --- | --- |
| ``table_created`` | a player created a table |
| ``game_started`` | the host started the game |
| ``game_over`` | the game ended |
| ``table_closed`` | an operator closed or purged a table |
| ``player_joined`` / ``player_left`` | a player sat down / gave up their seat |
| ``player_away`` / ``player_reconnected`` | a seat's connection dropped / came back |
| ``player_kicked`` | the host or an operator removed a player |
| ``bot_covered`` | a bot started playing for an away player |
| ``lease_moved`` | this process took a table over (its owner stopped or died) |
| ``budget_refused`` | a budget or cap refused a request |
| ``admin_action`` | an operator's command on the admin listener |
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .logged_events import GameOver, GameStarted, LoggedEvent, SeatChanged

if TYPE_CHECKING:
    from .table_state import TableState

events_log = logging.getLogger("hearts.events")
access_log = logging.getLogger("hearts.access")

LONE_PROCESS = f"{socket.gethostname()}:{os.getpid()}"
"""``process`` of a server that is not a cluster member."""

# A seat's change in a committed ``seat_changed`` event, as a lifecycle event.
_SEAT_CHANGES = {
    "joined": "player_joined",
    "left": "player_left",
    "kicked": "player_kicked",
    "away": "player_away",
    "connected": "player_reconnected",
    "covering": "bot_covered",
}


def lifecycle(event: str, message: str, **fields: Any) -> None:
    """Log one lifecycle line (fields that are None are left out)."""
    if not events_log.isEnabledFor(logging.INFO):
        return
    data = {"event": event, **{k: v for k, v in fields.items() if v is not None}}
    events_log.info(message, extra={"fields": data})


def log_committed(
    state: TableState,
    events: Iterable[LoggedEvent],
    *,
    process: str | None,
    address: str | None,
    player: str | None,
) -> None:
    """The lifecycle lines of a commit's events on the table ``state`` is
    now (``address`` and ``player``: the client whose request made them, if
    one did)."""
    if not events_log.isEnabledFor(logging.INFO):
        return
    table = state.table_id
    common = {"table": table, "variant": state.rules.variant, "process": process or LONE_PROCESS}
    for e in events:
        if isinstance(e, GameStarted | GameOver):
            lifecycle(e.kind, f"table {table}: {e.kind.replace('_', ' ')}", **common)
        elif isinstance(e, SeatChanged):
            _log_seat_change(state, e, common, address=address, player=player)


def _log_seat_change(
    state: TableState,
    e: SeatChanged,
    common: dict[str, Any],
    *,
    address: str | None,
    player: str | None,
) -> None:
    event = _SEAT_CHANGES.get(e.change)
    number = (e.seat or {}).get("seat")
    if event is None or not isinstance(number, int) or not 0 <= number < len(state.seats):
        return
    # Once a player left or was kicked, a bot (or nobody) has the seat:
    # the one who left asked, the one kicked is the last on the list.
    who = state.seats[number].player_id or None
    if event == "player_left":
        who = player
    elif event == "player_kicked" and state.kicked:
        who = state.kicked[-1][0]
    # Timers and bots, not a client, make away and covering changes.
    by_client = event not in ("player_away", "bot_covered")
    lifecycle(
        event,
        f"table {state.table_id}: seat {number} {e.change}",
        **common,
        seat=number,
        player=who,
        address=address if by_client else None,
    )


def log_access(kind: str, path: str, address: str, status: int, seconds: float) -> None:
    """One access line: an HTTP request answered, or a WebSocket closed
    (status 101, its duration the connection's life)."""
    if not access_log.isEnabledFor(logging.INFO):
        return
    duration_ms = round(seconds * 1000, 1)
    access_log.info(
        "%s %s %s %d %.1f ms",
        address,
        kind,
        path,
        status,
        duration_ms,
        extra={
            "fields": {
                "event": "access",
                "kind": kind,
                "path": path,
                "address": address,
                "status": status,
                "duration_ms": duration_ms,
            }
        },
    )

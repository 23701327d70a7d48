"""Redaction on the server: its table state turned into what a seat may see.

What a seat may see is decided in one place, ``protocol.seat_view`` (the
same function the arena and bots of one's own use); this module turns the
server's ``TableState`` into the public facts that function takes
(``table_facts``), keeps the table's finished tricks between views
(``TableState.trick_cache``). Logged events, which may hold every hand,
are redacted by the registry of event kinds (``server.event_kinds``
``redact_event``; docs/architecture.md, property 3). Spectators
(``seat=None``) get only the public part.
"""

from __future__ import annotations

import time
from typing import Any, cast

from protocol import seat_view as views
from protocol import server_messages as sm
from protocol.common import BotLevel
from protocol.seat_view import SeatFacts, TableFacts
from protocol.view import SeatView

from .table_state import TableState

# Views are built in their wire form after every action and the fan-out
# encodes them as they are (see protocol.seat_view); what is made here per
# action is only the facts: a few small slotted objects (~3 us a table).


def table_facts(table: TableState) -> TableFacts:
    """The public facts about ``table`` that its game does not hold, as of
    now (an away seat's ``cover_in`` counts down from its deadline)."""
    deadlines = table.cover_deadlines
    turns = table.turn_deadlines
    now = time.monotonic() if deadlines or turns else 0.0
    # Positional arguments, in SeatFacts' field order: this runs for every
    # view the fan-out builds.
    seats = tuple(
        SeatFacts(
            seat.kind,
            seat.name,
            cast("BotLevel | None", seat.bot_level) if seat.kind == "bot" else None,
            seat.connected or seat.kind == "bot",
            seat.away,
            seat.covering,
            seat.ready,
            round(max(0.0, deadlines[i] - now), 1) if i in deadlines else None,
            seat.program,
            round(max(0.0, turns[i] - now), 1) if i in turns else None,
        )
        for i, seat in enumerate(table.seats)
    )
    return TableFacts(
        rules=table.rules,
        seats=seats,
        table_id=table.table_id,
        code=table.code,
        name=table.name,
        public=table.public,
        seq=table.seq,
        host_seat=table.host_seat,
        status=table.status,
        paused=table.is_paused(),
        kicked=tuple((pid, name) for pid, name in table.kicked),
        approval=table.approval,
        knocks=tuple(table.knocks.items()),
        turn_seconds=table.turn_seconds,
    )


def seat_info(table: TableState, i: int) -> dict[str, Any]:
    """The public description of seat ``i`` (a ``SeatInfo``'s wire form)."""
    return views.seat_info(table.game, table_facts(table), i)


def public_view(table: TableState) -> dict[str, Any]:
    """A spectator's view in its wire form (``protocol.seat_view.public_view``):
    build it once when many views of one moment are needed. Never mutate it."""
    return views.public_view(table.game, table_facts(table), table.trick_cache)


def table_facts_reply(table: TableState, request_id: int | str) -> sm.TableFacts:
    """The ``table_facts`` reply about ``table``: picked from a spectator's
    view (``public_view``), so it can hold nothing a spectator may not see,
    and less (no kicked players' ids, no scores, no cards)."""
    view = views.public_view(None, table_facts(table))
    seats = view["seats"]
    return sm.TableFacts(
        id=request_id,
        code=view["code"],
        name=view["name"],
        host=seats[view["host_seat"]]["name"],
        host_seat=view["host_seat"],
        public=view["public"],
        rules=view["rules"],
        status=view["status"],
        seats=tuple(
            sm.TableFactsSeat(
                seat=s["seat"],
                kind=s["kind"],
                name=s["name"],
                bot_level=s.get("bot_level"),
                program=s.get("program", False),
            )
            for s in seats
        ),
        approval=view["approval"],
        turn_seconds=view["turn_seconds"],
    )


def wire_views(
    table: TableState, seats: set[int | None], public: dict[str, Any] | None = None
) -> dict[int | None, dict[str, Any]]:
    """The wire form of each of ``seats``' views; ``public`` is
    ``public_view(table)`` of this same moment, when the caller has it."""
    facts = table_facts(table) if public is None else _private_facts(table)
    return views.wire_views(table.game, facts, seats, public, table.trick_cache)


def seat_view(
    table: TableState, seat: int | None, public: dict[str, Any] | None = None
) -> SeatView:
    """Everything ``seat`` may know now (``None``: a spectator), as a model
    validated from the wire form: what a bot gets is what a client would be
    sent. ``public`` is ``public_view(table)`` of this same moment, when the
    caller has it."""
    facts = table_facts(table) if public is None else _private_facts(table)
    return views.seat_view(table.game, facts, seat, public, table.trick_cache)


def _private_facts(table: TableState) -> TableFacts:
    """The facts a seat's private part reads (the rules, the host, who
    knocks): enough when the public part is built already, and the fan-out
    does not pay for the seats' facts twice."""
    return TableFacts(
        rules=table.rules, seats=(), host_seat=table.host_seat, knocks=tuple(table.knocks.items())
    )

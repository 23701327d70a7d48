"""Redaction on the server: its table state turned into what a seat may see.

What a seat may see is decided in one place, ``protocol.seat_view`` (the
same function the arena and bots of one's own use); this module turns the
server's ``TableState`` into the public facts that function takes
(``table_facts``), keeps the table's finished tricks between views
(``TableState.trick_cache``), and redacts logged events, which may hold
every hand: ``redact_event`` turns one into what one seat may be sent, or
None (docs/architecture.md, property 3). Spectators (``seat=None``) get only
the public part.
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


PRIVATE_EVENTS = frozenset(
    {
        "hand_dealt",
        "cards_passed",
        "bot_covered",
        "widow_taken",
        "widow_discarded",
        "cards_drawn",
        "rest_taken",
    }
)
"""Logged events whose redaction depends on the seat; every other event is
the same for everybody."""


def redact_event(event: dict[str, Any], seat: int | None) -> sm.TableEvent | None:
    """What ``seat`` may be sent of one logged event (None: nothing)."""
    kind = event["type"]
    if kind == "hand_dealt":
        cards = tuple(event["hands"][seat]) if seat is not None else ()
        return sm.HandDealt(
            seq=event["seq"],
            hand_number=event["hand_number"],
            direction=event["direction"],
            cards=cards,
            # Never which cards lie face down: how many (events logged
            # before variants existed have no stock).
            stock_count=len(event.get("stock", ())),
        )
    if kind == "cards_passed":
        if seat is None or seat != event["receiver"]:
            return None
        return sm.CardsReceived(
            seq=event["seq"], from_seat=event["giver"], cards=tuple(event["cards"])
        )
    face_down = _FACE_DOWN_EVENTS.get(kind)
    if face_down is not None:
        # Face-down cards: their owner sees them, everybody else how many.
        own = seat is not None and seat == event["seat"]
        return face_down(  # type: ignore[no-any-return]
            seq=event["seq"],
            seat=event["seat"],
            count=len(event["cards"]),
            cards=tuple(event["cards"]) if own else (),
        )
    if kind == "bot_covered":
        # What a bot played in a player's name shows that player's cards.
        if seat is None or seat != event["seat"]:
            return None
        return sm.BotCovered.model_validate(event)
    model = _PUBLIC_EVENTS.get(kind)
    if model is None:
        return None
    return model.model_validate(event)  # type: ignore[no-any-return]


_FACE_DOWN_EVENTS: dict[str, Any] = {
    "widow_taken": sm.WidowTaken,
    "widow_discarded": sm.WidowDiscarded,
    "cards_drawn": sm.CardsDrawn,
    "rest_taken": sm.RestTaken,
}

_PUBLIC_EVENTS: dict[str, Any] = {
    "seat_changed": sm.SeatChanged,
    "game_started": sm.GameStarted,
    "pass_locked": sm.PassLocked,
    "play_begins": sm.PlayBegins,
    "card_played": sm.CardPlayed,
    "hearts_broken": sm.HeartsBroken,
    "trick_won": sm.TrickWon,
    "plays_undone": sm.PlaysUndone,
    "claim_made": sm.ClaimMade,
    "trick_carried": sm.TrickCarried,
    "seat_out": sm.SeatOut,
    "leftover_taken": sm.LeftoverTaken,
    "moon_choice_needed": sm.MoonChoiceNeeded,
    "hand_scored": sm.HandScored,
    "game_over": sm.GameOver,
    "chat_message": sm.ChatMessage,
}

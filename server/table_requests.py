"""A table request from a client, as intents: the "request → intent" hop of
one play (docs/architecture.md, "The path of one play").

``apply_request`` maps each table message (``play_card``, ``take_seat``,
``chat``…) to its intent in server.table_intents, which checks it and
changes the state, and says what changes for the table's connections once
the events are committed (never before: see server.table_watchers).
"""

from __future__ import annotations

from collections.abc import Callable

from protocol import client_messages as cm

from . import table_claims, table_undo
from . import table_intents as intents
from .errors import NotAllowed
from .jobs import Watcher
from .logged_events import Events
from .table_state import TableState
from .table_watchers import TableWatchers

# How many recent request ids a seat remembers, to answer a repeat (a client
# re-sending after a reconnect) without applying it twice.
RECENT_REQUESTS = 32

AfterCommit = list[Callable[[], None]]
"""Changes to who is attached where, applied only once the commit succeeded."""


def apply_request(
    state: TableState, watchers: TableWatchers, conn: Watcher, msg: cm.ClientMessage
) -> tuple[Events, AfterCommit]:
    """The events of ``conn``'s request ``msg`` (state changed), and what
    changes for the connections after the commit; ``ClientError`` (nothing
    changed) if it may not be done. A request id the seat has already seen
    applied is answered without being applied again."""
    if conn not in watchers:
        raise NotAllowed("you are not at this table")
    seat = watchers.seat_of(conn)
    key = f"{type(msg).__name__}:{msg.id}"
    held = state.seats[seat] if seat is not None else None
    if held is not None and key in held.recent:
        return [], []  # a repeat (after a reconnect): not applied twice
    events, after = _intent(state, watchers, seat, conn, msg)
    # Remembered on the seat the player holds now: ``take_seat`` moves it.
    if held is not None and events and held.kind == "human" and held in state.seats:
        held.recent.append(key)
        del held.recent[:-RECENT_REQUESTS]
    return events, after


def _intent(
    s: TableState, watchers: TableWatchers, seat: int | None, conn: Watcher, msg: cm.ClientMessage
) -> tuple[Events, AfterCommit]:
    """The intent of one table message; ``NotAllowed`` for a message that
    is no table action."""
    events = _hand_intent(s, seat, msg)
    if events is None:
        events = _table_intent(s, seat, conn, msg)
    if events is not None:
        return events, []
    return _moving_intent(s, watchers, seat, conn, msg)


def _hand_intent(s: TableState, seat: int | None, msg: cm.ClientMessage) -> Events | None:
    """The intent of a move in the hand (a pass, a card, a widow discard,
    a moon choice, a claim or an undo); None for any other message."""
    match msg:
        case cm.PassCards():
            return intents.pass_cards(s, seat, msg.cards)
        case cm.PlayCard():
            return intents.play_card(s, seat, msg.card)
        case cm.DiscardWidow():
            return intents.discard_widow(s, seat, msg.cards)
        case cm.MoonChoice():
            return intents.choose_moon(s, seat, msg.choice)
        case cm.Claim():
            return table_claims.claim(s, seat)
        case cm.Undo():
            return table_undo.undo(s, seat)
    return None


def _table_intent(
    s: TableState, seat: int | None, conn: Watcher, msg: cm.ClientMessage
) -> Events | None:
    """The intent of a table action that moves no connection (starting a
    game, bots, letting a player back, chat); None for any other message."""
    match msg:
        case cm.Ready():
            return intents.ready(s, seat)
        case cm.StartGame():
            return intents.start_game(s, seat)
        case cm.Rematch():
            return intents.rematch(s, seat)
        case cm.AddBot():
            return intents.add_bot(s, seat, msg.seat, msg.level)
        case cm.RemoveBot():
            return intents.remove_bot(s, seat, msg.seat)
        case cm.AllowBack():
            return intents.allow_back(s, seat, msg.player_id)
        case cm.Chat():
            return intents.chat(s, seat, conn.name, msg.text)
    return None


def _moving_intent(
    s: TableState, watchers: TableWatchers, seat: int | None, conn: Watcher, msg: cm.ClientMessage
) -> tuple[Events, AfterCommit]:
    """The intent of a seat change that moves connections once committed
    (taking or leaving a seat, a kick, an answered knock); ``NotAllowed``
    for any other message: it is no table action."""
    match msg:
        case cm.TakeSeat():
            events = intents.move_seat(s, seat, msg.seat)
            return events, [lambda: watchers.reattach(conn, msg.seat)]
        case cm.LeaveSeat():
            events = intents.leave_seat(s, seat)
            return events, [lambda: watchers.reattach(conn, None)]
        case cm.Kick():
            player_id = s.seats[msg.seat].player_id if 0 <= msg.seat < s.players else None
            events = intents.kick(s, seat, msg.seat)
            return events, [lambda: watchers.remove_kicked(msg.seat, player_id)]
        case cm.AnswerKnock():
            events = intents.answer_knock(s, seat, msg.player_id, msg.accept)
            return events, [lambda: watchers.answer_knock(msg.player_id, s.code, msg.accept)]
    raise NotAllowed(f"{msg.type} is not a table action")

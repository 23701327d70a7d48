"""What each job other than a table request does to a table (requests are in
server.table_requests): connections attaching, knocking and leaving, and
the actor's own jobs (a bot's move, the next deal, putting right what a
refused commit left behind, resuming after a load).

Each function checks, then changes the state and returns its events (or
raises ``ClientError`` with nothing changed). Who is attached where changes
only in the after-commit actions it returns, or, for a leaving connection,
at once (nothing to roll back: it is gone either way).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import NamedTuple

from pydantic import BaseModel

from engine.errors import ClientError
from protocol import client_messages as cm
from protocol import server_messages as sm

from . import table_intents as intents
from .bot_runner import BotMove, move_value
from .errors import AuthError
from .jobs import Attach, Knock, Watcher
from .logged_events import Events
from .table_fan_out import send_chat_history, send_snapshot
from .table_state import TableState
from .table_watchers import TableWatchers

log = logging.getLogger("hearts.table")


class Outcome(NamedTuple):
    """What a job produced. After its events are committed: ``relink``
    changes who is attached where (before the fan-out, which must see it),
    ``reply`` goes to the requester, the events fan out, then ``after`` runs."""

    events: Events
    reply: BaseModel | None = None
    relink: tuple[Callable[[], None], ...] = ()
    after: tuple[Callable[[], None], ...] = ()


def attach(state: TableState, watchers: TableWatchers, job: Attach) -> Outcome:
    """A connection comes: the host (with the token the lobby made), a new
    player, a player resuming with a seat token, or a spectator."""
    conn, msg = job.conn, job.message
    events: Events = []
    token = ""
    seat: int | None
    match job.mode, msg:
        case "join", cm.JoinTable():
            intents.admit(state, conn.player_id, msg.invite)
            seat, token, events = intents.sit(
                state, conn.name, conn.player_id, msg.seat, program=job.program
            )
            if not events:
                # The player's own seat again (a repeated join): they are
                # back, as with a resume, whether or not they had dropped.
                events = _come_back(state, watchers, job, seat)
        case "host", cm.CreateTable():
            seat, token = 0, job.token
        case "again", cm.CreateTable():
            # A create_table repeated with its id: its table, the player's
            # seat there (a new token), as a repeated join_table would.
            seat, token, events = intents.sit(
                state, conn.name, conn.player_id, None, program=job.program
            )
            if not events:
                events = _come_back(state, watchers, job, seat)
        case "watch", cm.Watch():
            intents.admit(state, conn.player_id, msg.invite)
            seat = None
        case "resume", cm.Resume():
            seat = state.seat_of_token(msg.seat_token)
            if seat is None:
                raise AuthError("that seat token does not belong to this table")
            events = _come_back(state, watchers, job, seat)
        case _:
            raise ValueError(f"cannot {job.mode} with a {msg.type} message")
    reply = sm.Seated(
        id=msg.id,
        table_id=state.table_id,
        code=state.code,
        seat=seat,
        seat_token=token,
        join_path=join_path(state, seat),
    )

    def attach() -> None:
        watchers.attach(conn, seat, program=job.program)
        if job.mode != "resume":  # a resume gets its missed events, then a snapshot
            send_chat_history(state, conn)
            send_snapshot(state, conn, seat)

    return Outcome(events, reply, after=(attach,))


def _come_back(state: TableState, watchers: TableWatchers, job: Attach, seat: int) -> Events:
    """``job``'s connection shows its seat again: the seat is connected, and
    marked a program's only if no person shows it (server.table_watchers)."""
    program = job.program and watchers.only_programs(seat, besides=job.conn)
    return intents.set_connected(state, seat, True, program=program)


def join_path(state: TableState, seat: int | None) -> str:
    """The link a player shares: with the invite secret for players (whoever
    has it sits at once), the bare code for spectators."""
    path = f"/t/{state.code}"
    if seat is not None and state.invite:
        path += f"#k={state.invite_link()}"
    return path


def knock(state: TableState, watchers: TableWatchers, job: Knock) -> Outcome:
    """A player with the code asks the host to let them in (the knock is
    stored and the host's view shows it). One already let in is told so at
    once."""
    conn = job.conn
    events = intents.knock(state, conn.player_id, conn.name)
    watchers.knocking(conn)
    after: tuple[Callable[[], None], ...] = ()
    if conn.player_id in state.admitted:
        after = (lambda: watchers.answer_knock(conn.player_id, state.code, True),)
    return Outcome(events, sm.Ok(id=job.message.id), after=after)


def detach(state: TableState, watchers: TableWatchers, conn: Watcher) -> Events:
    """A connection left: its seat is away if no other connection shows it."""
    if conn not in watchers:
        return []
    seat = watchers.detach(conn)
    if seat is None:
        return []
    if seat in watchers.seats():
        # Another connection still holds the seat: its mark follows those
        # left (a person's tab closed, their program plays on).
        return intents.set_connected(state, seat, True, program=watchers.only_programs(seat))
    # A grace countdown starts (TableDuties.sync_grace) if another human is
    # here; alone, the table pauses.
    return intents.set_connected(state, seat, False)


def bot_moved(state: TableState, seat: int, move: BotMove) -> Events:
    """A bot's decision for ``seat``, played if it is still the seat's to
    make (a bot whose move is refused decides again: the duties ask it)."""
    if seat not in intents.seats_to_decide(state):
        return []  # stale: the human came back or the phase moved on
    try:
        events = intents.make_move(state, seat, move.kind, move_value(move))
        intents.bot_acted(state, seat, move.kind, move_value(move))
    except ClientError as exc:
        log.warning("table %s: bot move refused (%s); recomputing", state.table_id, exc)
        return []
    return events


def auto_deal(state: TableState, hand: int) -> Events:
    """Deal the next hand, unless the game moved on since hand ``hand``."""
    game = state.game
    if state.status != "between_hands" or not game or game.hand_number != hand:
        return []
    return intents.deal(state)


def tick(state: TableState, watchers: TableWatchers) -> Events:
    """Put right what a refused commit left behind: a seat marked connected
    whose connections are gone (or the other way round) is corrected, and
    the actor then runs the duties (a bot whose move was not saved decides
    again)."""
    attached = watchers.occupied()
    events: Events = []
    for i, s in enumerate(state.seats):
        if s.kind == "human" and s.connected != (i in attached):
            events += intents.set_connected(state, i, i in attached)
    return events


def resume_duties(state: TableState) -> Events:
    """After a load: humans are not connected until they resume. The table
    stays paused until one of them does (grace timers run only while a
    human is here)."""
    events: Events = []
    for i, s in enumerate(state.seats):
        if s.kind == "human" and s.connected:
            events += intents.set_connected(state, i, False)
    return events

"""Sending a table's committed events to its connections: the "fan-out" hop
of one play (docs/architecture.md, "The path of one play").

Each connection gets the events its seat may see (server.event_kinds decides)
and then one snapshot of its view. Frames are built and encoded once per
seat, however many connections show it, and public events once for all.
A resuming connection gets what it missed from the table's stored log.
"""

from __future__ import annotations

import logging
from typing import Any

from protocol import server_messages as sm
from protocol.codec import encode, encode_snapshot, encode_snapshots

from .errors import UnknownEvent
from .event_kinds import parse_event, per_seat, redact_event
from .jobs import Watcher
from .logged_events import Logged
from .redaction import public_view, wire_views
from .store.base import TableStore
from .table_state import TableState
from .table_watchers import TableWatchers

log = logging.getLogger("hearts.table")


def _frame(message: sm.TableEvent | None) -> bytes | None:
    return encode(message) if message is not None else None


def fan_out(
    state: TableState, watchers: TableWatchers, events: list[Logged]
) -> dict[str, Any] | None:
    """Send each watcher its redacted events, then a snapshot, all of a
    connection's frames in one go (``Watcher.send_frames``: one write).
    Returns the public part of the views it built (None if nobody watches),
    which the bots of this same moment share (server.table_duties)."""
    if not len(watchers):
        return None
    public = public_view(state)
    # Per event: whether its copy depends on the seat (an event of a kind
    # the registry lacks raises UnknownEvent here: logged, never sent).
    private = [per_seat(e) for e in events]
    shared: list[bytes | None] = [
        None if own else _frame(redact_event(e, None))
        for e, own in zip(events, private, strict=True)
    ]
    views = wire_views(state, watchers.seats(), public)
    # What every seat's snapshot shares is packed once (protocol.codec).
    snapshots = encode_snapshots(state.seq, public, views)
    by_seat: dict[int | None, list[bytes]] = {}
    for conn, seat in watchers.items():
        frames = by_seat.get(seat, [])
        if seat not in by_seat:
            for e, own, frame in zip(events, private, shared, strict=True):
                if own:
                    frame = _frame(redact_event(e, seat))
                if frame is not None:
                    frames.append(frame)
            frames.append(snapshots[seat])
            by_seat[seat] = frames
        conn.send_frames(frames)
    return public


def send_snapshot(state: TableState, conn: Watcher, seat: int | None) -> None:
    """``seat``'s view of the table now, to ``conn``."""
    view = wire_views(state, {seat})[seat]
    conn.send_frame(encode_snapshot(state.seq, view))


def send_chat_history(state: TableState, conn: Watcher) -> None:
    """The table's recent chat (public: every seat and spectator gets it all)."""
    lines = tuple(
        sm.ChatMessage(seq=seq, seat=seat, name=name, text=text)
        for seq, seat, name, text in state.chat
    )
    conn.send(sm.ChatHistory(lines=lines))


async def replay(
    store: TableStore, state: TableState, conn: Watcher, seat: int | None, after: int
) -> None:
    """Send a resuming connection the events its seat missed since ``after``
    (from the stored log), the recent chat (a client that restarted kept
    none), then a snapshot."""
    stored = await store.events_since(state.table_id, after)
    for item in stored or []:
        try:
            msg = redact_event(parse_event(item.body), seat)
        except UnknownEvent as exc:
            # Never sent; the snapshot that follows shows the table as it is.
            log.error("table %s: event %d not replayed: %s", state.table_id, item.seq, exc)
            continue
        if msg is not None:
            conn.send(msg)
    send_chat_history(state, conn)
    send_snapshot(state, conn, seat)

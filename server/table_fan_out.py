"""Sending a table's committed events to its connections: the "fan-out" hop
of one play (docs/architecture.md, "The path of one play").

Each connection gets the events its seat may see (server.redaction decides)
and then one snapshot of its view. Frames are built and encoded once per
seat, however many connections show it, and public events once for all.
A resuming connection gets what it missed from the table's stored log.
"""

from __future__ import annotations

import json
from typing import Any

from protocol import server_messages as sm
from protocol.codec import encode, encode_snapshot, encode_snapshots

from .jobs import Watcher
from .redaction import PRIVATE_EVENTS, public_view, redact_event, wire_views
from .store.base import TableStore
from .table_intents import Events
from .table_state import TableState
from .table_watchers import TableWatchers


def _frame(message: sm.TableEvent | None) -> bytes | None:
    return encode(message) if message is not None else None


def fan_out(state: TableState, watchers: TableWatchers, events: Events) -> dict[str, Any] | None:
    """Send each watcher its redacted events, then a snapshot, all of a
    connection's frames in one go (``Watcher.send_frames``: one write).
    Returns the public part of the views it built (None if nobody watches),
    which the bots of this same moment share (server.table_duties)."""
    if not len(watchers):
        return None
    public = public_view(state)
    shared: list[bytes | None] = [
        None if e["type"] in PRIVATE_EVENTS else _frame(redact_event(e, None)) for e in events
    ]
    views = wire_views(state, watchers.seats(), public)
    # What every seat's snapshot shares is packed once (protocol.codec).
    snapshots = encode_snapshots(state.seq, public, views)
    by_seat: dict[int | None, list[bytes]] = {}
    for conn, seat in watchers.items():
        frames = by_seat.get(seat, [])
        if seat not in by_seat:
            for e, frame in zip(events, shared, strict=True):
                if e["type"] in PRIVATE_EVENTS:
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
        msg = redact_event(json.loads(item.body), seat)
        if msg is not None:
            conn.send(msg)
    send_chat_history(state, conn)
    send_snapshot(state, conn, seat)

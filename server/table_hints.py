"""A hint on request: what the Medium bot would do in the asking seat, from
that seat's own view (the same ``SeatView`` the seat is sent, so a hint never
knows more than the player). Medium decides in about a millisecond, so the
hint is computed on the table's task like any other request; nothing changes
at the table and nobody else is told. Requests are limited by the
connection's token bucket like every other frame."""

from __future__ import annotations

import random

from bots.api import NothingToDecide, decide
from protocol import client_messages as cm
from protocol import server_messages as sm

from .errors import NotAllowed, NotNow
from .jobs import Watcher
from .redaction import seat_view
from .table_state import TableState
from .table_watchers import TableWatchers

HINT_LEVEL = "medium"
"""The bot whose advice a hint gives: careful, quick and deterministic."""


def advise(state: TableState, watchers: TableWatchers, conn: Watcher, msg: cm.Hint) -> sm.Advice:
    """The Medium bot's choice for ``conn``'s seat now; ``NotAllowed`` for a
    spectator, ``NotNow`` when nothing is asked of the seat or it is asked
    for a widow discard."""
    if conn not in watchers:
        raise NotAllowed("you are not at this table")
    seat = watchers.seat_of(conn)
    if seat is None:
        raise NotAllowed("spectators get no hints")
    view = seat_view(state, seat)
    # The seed only matters to levels that draw at random; Medium does not,
    # so the same view always gets the same advice.
    try:
        d = decide(view, HINT_LEVEL, random.Random(state.seq))
    except NothingToDecide:
        raise NotNow("nothing is asked of your seat right now", "hint_nothing_asked") from None
    if d.kind == "pass":
        return sm.Advice(id=msg.id, kind="pass", cards=d.cards)
    if d.kind == "play":
        return sm.Advice(id=msg.id, kind="play", cards=(d.card,) if d.card else ())
    if d.kind == "moon_choice":
        return sm.Advice(id=msg.id, kind="moon_choice", choice=d.moon)
    # The widow discard: the wire's advice has no kind for it, and answering
    # with another kind would be read as a moon choice (the browser shows any
    # kind but pass and play so), so none is given.
    raise NotNow(
        "hints cover passes, plays and the moon choice, not the widow discard", "hint_widow"
    )

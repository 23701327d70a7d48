"""The fan-out's fast path (``redaction.wire_views`` + ``codec.encode_snapshot``
or ``codec.encode_snapshots``)
sends exactly the bytes the model path would (``encode(Snapshot(view=
seat_view(...)))``) for every seat and for spectators, in every phase: it
is an optimisation of the one redaction function, never a second one."""

from __future__ import annotations

import random

from engine.rules import Rules
from protocol import server_messages as sm
from protocol.codec import decode_server, encode, encode_snapshot, encode_snapshots
from server.redaction import public_view, seat_view, wire_views
from server.table_state import TableState

from ..bots.support import random_table

SEATS: set[int | None] = {None, 0, 1, 2, 3}


def _same_bytes(table: TableState) -> None:
    public = public_view(table)
    views = wire_views(table, SEATS, public)
    # The fan-out's frames, packing what the views share once.
    shared = encode_snapshots(table.seq, public, views)
    for seat in SEATS:
        model = sm.Snapshot(seq=table.seq, view=seat_view(table, seat))
        fast = encode_snapshot(table.seq, views[seat])
        assert fast == encode(model), (seat, table.hand_phase())
        assert shared[seat] == fast, (seat, table.hand_phase())
        # And it reads back as a valid model (validated, not constructed).
        decoded = decode_server(fast)
        assert isinstance(decoded, sm.Snapshot) and decoded.view.seat == seat


def test_the_fast_path_sends_the_model_paths_bytes_in_every_phase() -> None:
    rng = random.Random(11)
    for seed in range(120):
        rules = Rules(moon=rng.choice(["add", "subtract", "choice"]))
        table = random_table(seed, rules, plays=rng.randrange(-1, 53))
        table.seq = seed
        _same_bytes(table)


def test_the_fast_path_for_a_table_with_no_game_yet() -> None:
    table = random_table(0, plays=0)
    table.game = None
    table.status = "waiting"
    _same_bytes(table)

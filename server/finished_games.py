"""The hand records a seat may fetch (``get_records``): its table's finished
games, one game per reply, a bounded amount at a time.

A hand record holds every seat's deal and pass and every face-down card (the
widow and its discard, the stock in order, the rest). While its game is
played, those are hidden from the other seats (docs/architecture.md property
3), so a game's records are given out only once the game is over; the
finished hands of the game in play are reviewed through ``get_replay``,
redacted for the asking seat (``server.hand_replays``).

Which records belong to which game: the table keeps the records of every game
it played, oldest first, each game numbered from hand 1, so a game starts at
each record of hand 1. Only the last of them can be the game in play, and
the table's stored state says whether it is: its game is not over and has
ended ``k >= 1`` hands. The records are read *before* the state, so whatever
game is in play when the state is read has at most ``k`` hands among them;
the last run of records is left out when it is that short. Read the other
way round, a hand ending between the two reads could slip in unnoticed. (In
that rare race a finished game of at most ``k`` hands may be left out of
this one reply, never the other way.)

How much: one game per reply, the latest finished one unless the request
names another, and at most ``budget`` bytes of record text: a table that
played for days holds far more than a client's send queue takes (a client
whose queue fills is dropped), and so may one long game (``end_at`` up to
1000 hands). ``next_hand`` says where the rest of the game starts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from protocol import client_messages as cm
from protocol import server_messages as sm

from .errors import NotNow
from .table_state import TableState

# A record's hand number. The records are the server's own
# (``engine.record.hand_record``: ``"hand"`` is a key at the top level only,
# nothing inside ``rules`` or the card lists is named so), and every one of
# the table's is read at each request: a pattern finds the number twenty
# times faster than parsing the record would.
_HAND = re.compile(rb'"hand"\s*:\s*(\d+)')


def hand_number(record: bytes) -> int:
    """The hand number of a stored record (1 when it names none, as a hand
    record's ``hand`` defaults to 1)."""
    found = _HAND.search(record)
    return int(found.group(1)) if found else 1


def games_of(records: Sequence[bytes]) -> list[Sequence[bytes]]:
    """The records split into games, oldest first: a game starts at each
    record of hand 1 (and at the first record)."""
    starts = [i for i, record in enumerate(records) if i == 0 or hand_number(record) == 1]
    ends = [*starts[1:], len(records)] if starts else []
    return [records[a:b] for a, b in zip(starts, ends, strict=True)]


def finished_games(records: Sequence[bytes], state: bytes | None) -> list[Sequence[bytes]]:
    """The games of ``records`` that are over, given the table's stored
    ``state`` read *after* them (None: the table is gone, nothing is told)."""
    if state is None:
        return []
    games = games_of(records)
    in_play = TableState.hands_in_play(state)
    if in_play and games and len(games[-1]) <= in_play:
        games.pop()
    return games


def records_reply(
    records: Sequence[bytes], state: bytes | None, request: cm.GetRecords, budget: int
) -> sm.Records:
    """The reply to ``request``: the hands of the finished game it asks for
    (the latest by default) from ``from_hand`` on, as many as fit in
    ``budget`` bytes (always one at least); ``NotNow`` for a game that is
    not finished (being played, or not begun)."""
    games = finished_games(records, state)
    number = request.game or len(games)
    if number > len(games):
        raise NotNow(f"game {number} of this table is not finished", "records_not_finished")
    if number == 0:
        return sm.Records(id=request.id, records=(), game=None, games=0)
    hands = games[number - 1]
    chosen: list[str] = []
    size = 0
    at = request.from_hand - 1
    while at < len(hands) and (not chosen or size + len(hands[at]) <= budget):
        chosen.append(hands[at].decode())
        size += len(hands[at])
        at += 1
    return sm.Records(
        id=request.id,
        records=tuple(chosen),
        game=number,
        games=len(games),
        next_hand=at + 1 if at < len(hands) else None,
    )

"""Which table each recent ``create_table`` made, so that one repeated with
its id (its reply was lost to a drop) is answered with the same table
rather than making a second one.

Per player (the player id from the token of their ``hello``), for
``CREATED_REMEMBERED_SECONDS``, at most ``CREATED_REMEMBERED`` entries (the
oldest go first), in the memory of the process that created the table: a
restart forgets them (a client then finds its table as after any restart,
by resuming it).
"""

from __future__ import annotations

import time
from collections import OrderedDict

CREATED_REMEMBERED_SECONDS = 600
CREATED_REMEMBERED = 10_000


class CreatedTables:
    """Recent ``create_table`` requests: (player id, request id) → table id."""

    def __init__(
        self, seconds: float = CREATED_REMEMBERED_SECONDS, size: int = CREATED_REMEMBERED
    ) -> None:
        self._seconds = seconds
        self._size = size
        self._made: OrderedDict[tuple[str, int | str], tuple[str, float]] = OrderedDict()

    def remember(self, player_id: str, request_id: int | str, table_id: str) -> None:
        """``player_id``'s request ``request_id`` made ``table_id``."""
        self._forget_old()
        self._made[(player_id, request_id)] = (table_id, time.monotonic() + self._seconds)
        while len(self._made) > self._size:
            self._made.popitem(last=False)

    def made(self, player_id: str, request_id: int | str) -> str | None:
        """The table ``player_id``'s request ``request_id`` made, if recent."""
        self._forget_old()
        found = self._made.get((player_id, request_id))
        return found[0] if found is not None else None

    def _forget_old(self) -> None:
        now = time.monotonic()
        while self._made:
            key, (_, until) = next(iter(self._made.items()))
            if until > now:
                return
            del self._made[key]

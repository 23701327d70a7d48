"""Who is attached to one table, where: each connection's seat (None: a
spectator), and the connections knocking at the door.

Owned by the table's actor and changed only by it, after a commit: were a
connection moved first and the commit then refused, it would show a seat it
does not hold, and be sent that seat's cards.
"""

from __future__ import annotations

from collections.abc import Iterator

from protocol import server_messages as sm

from .jobs import TableHandle, Watcher


class TableWatchers:
    """The connections attached to one table, and who knocks."""

    __slots__ = ("_knockers", "_programs", "_seats", "_table")

    def __init__(self, table: TableHandle) -> None:
        self._table = table
        self._seats: dict[Watcher, int | None] = {}
        # Connections whose hello said they are programs, not people.
        self._programs: set[Watcher] = set()
        # Connections knocking at the door, by player id.
        self._knockers: dict[str, Watcher] = {}

    def __contains__(self, conn: Watcher) -> bool:
        return conn in self._seats

    def __len__(self) -> int:
        return len(self._seats)

    def items(self) -> Iterator[tuple[Watcher, int | None]]:
        """Each connection and its seat (a copy: safe to change while iterating)."""
        return iter(list(self._seats.items()))

    def seat_of(self, conn: Watcher) -> int | None:
        """The seat ``conn`` shows (None: watching, or not attached)."""
        return self._seats.get(conn)

    def seats(self) -> set[int | None]:
        """Every seat shown by some connection (None: spectators)."""
        return set(self._seats.values())

    def occupied(self) -> set[int]:
        """Seats with at least one connection."""
        return {seat for seat in self._seats.values() if seat is not None}

    def attach(self, conn: Watcher, seat: int | None, program: bool = False) -> None:
        """``conn`` shows ``seat`` from now on, as the newest watcher;
        ``program``: its hello said it is a program."""
        self._seats.pop(conn, None)
        self._seats[conn] = seat
        if program:
            self._programs.add(conn)
        else:
            self._programs.discard(conn)
        conn.attached(self._table, seat)

    def detach(self, conn: Watcher) -> int | None:
        """``conn`` left; the seat it showed."""
        self._programs.discard(conn)
        return self._seats.pop(conn)

    def only_programs(self, seat: int, besides: Watcher | None = None) -> bool:
        """Whether every connection showing ``seat`` (other than ``besides``)
        is a program (true when none does): a seat a person shows is a
        person's, whatever programs show it too."""
        return all(
            conn in self._programs
            for conn, at in self._seats.items()
            if at == seat and conn is not besides
        )

    def reattach(self, conn: Watcher, seat: int | None) -> None:
        """After a committed seat change: ``conn`` now shows ``seat``."""
        if conn in self._seats:
            self._seats[conn] = seat
            conn.attached(self._table, seat)

    def remove_kicked(self, seat: int, player_id: str | None) -> None:
        """After a committed kick: every connection of the kicked player (at
        the seat, or watching under the same player id) is told and removed
        from the table; it gets no more frames from it."""
        for conn, at in list(self._seats.items()):
            if at == seat or (player_id and conn.player_id == player_id):
                del self._seats[conn]
                conn.send(
                    sm.Kicked(
                        table_id=self._table.table_id,
                        message="the host removed you from this table",
                    )
                )
                conn.removed(self._table)

    def drop_all(self) -> None:
        """Close every attached client (the table moved to another process)."""
        for conn in list(self._seats):
            conn.close()
        self._seats.clear()

    def knocking(self, conn: Watcher) -> None:
        """``conn`` knocks: it is told the host's answer while it stays."""
        self._knockers[conn.player_id] = conn

    def answer_knock(self, player_id: str, code: str, accept: bool) -> None:
        """The host's answer, to the knocking connection if it is still here
        (one that left finds out when it joins: let in, or told to knock)."""
        knocker = self._knockers.pop(player_id, None)
        if knocker is not None:
            knocker.send(
                sm.KnockAnswered(
                    table_id=self._table.table_id,
                    code=code,
                    accepted=accept,
                    message="the host let you in: join now"
                    if accept
                    else "the host did not let you in",
                )
            )

"""Seat arithmetic and names.

Seats are numbered in play order (clockwise). The seat on a player's left is
the next one to play (docs/rules.md "Seats and direction"). With four players the
seed's compass names are used: you sit South, West is on your left, North
across, East on your right.
"""

from __future__ import annotations

_COMPASS = {
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
}


def left_of(seat: int, players: int) -> int:
    """The seat on ``seat``'s left: the next to play."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The seat on ``seat``'s right: the previous to play."""
    return (seat - 1) % players


def across_from(seat: int, players: int) -> int:
    """The seat across the table (even player counts)."""
    return (seat + players // 2) % players


def seat_name(seat: int, players: int) -> str:
    """``"West"`` for seat 1 of 4; ``"seat 5"`` where no compass name fits."""
    names = _COMPASS.get(players)
    return names[seat] if names else f"seat {seat + 1}"

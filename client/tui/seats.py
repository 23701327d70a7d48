"""Where each seat sits on the screen and what to call it.

You sit at the bottom; the seat to your left (the next one in play order,
``seat + 1``) is drawn on the left, then across, then right. A seat is
called by its one name (``SeatInfo.name``, the same on every screen at the
table: the server names bots); where it sits from you is said apart from
it, by an arrow and left/across/right, never as its name.
"""

from __future__ import annotations

from typing import Final, Literal

from protocol.view import SeatView

Position = Literal["bottom", "left", "across", "right"]
POSITIONS: Final[tuple[Position, ...]] = ("bottom", "left", "across", "right")
NAME_WIDTH: Final = 4  # a short name's columns (score table, trick history)


def my_seat(view: SeatView) -> int:
    """The seat drawn at the bottom (seat 0 for a spectator)."""
    return view.seat if view.seat is not None else 0


def position_of(view: SeatView, seat: int) -> Position:
    """Where ``seat`` is drawn."""
    n = len(view.seats)
    return POSITIONS[(seat - my_seat(view)) % n] if n == 4 else "bottom"


def seat_at(view: SeatView, position: Position) -> int:
    """The seat drawn at ``position``."""
    return (my_seat(view) + POSITIONS.index(position)) % len(view.seats)


def place_key(view: SeatView, seat: int) -> str:
    """The i18n key of where the seat sits from you (``place.left``: "←
    left"); at a table of any other size than four, of its number
    (``compass.seat5``)."""
    if len(view.seats) != 4:
        return f"compass.seat{seat + 1}"
    return "place." + position_of(view, seat)


def short_names(view: SeatView, width: int = NAME_WIDTH) -> dict[int, str]:
    """Each seat's name cut to ``width`` columns, for the narrow columns of
    the score table and the trick history: the same on every screen. Two
    names that would read the same cut end in their seat's number instead."""
    cut = {i: (info.name or str(i + 1))[:width].strip() for i, info in enumerate(view.seats)}
    for i, short in cut.items():
        if list(cut.values()).count(short) > 1:
            number = str(i + 1)
            cut[i] = short[: max(1, width - len(number))] + number
    return cut


def play_order(view: SeatView) -> list[int]:
    """Every seat in play order, from the one drawn at the bottom."""
    n = len(view.seats)
    return [(my_seat(view) + k) % n for k in range(n)]


def seat_keys(view: SeatView) -> str:
    """The keys of the host's seat menus, as the prompt and the key line
    say them: ``1 2 3`` at four seats (``1 2`` at three), ``1–9`` at ten."""
    others = len(view.seats) - 1
    return " ".join(str(k) for k in range(1, others + 1)) if others <= 3 else f"1–{others}"

"""Where each seat sits on the screen and what to call it.

You sit at the bottom; the seat to your left (the next one in play order,
``seat + 1``) is drawn on the left, then across, then right, as the rules
page describes: West on your left, North across, East on your right.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal

from protocol.view import SeatInfo, SeatView

Position = Literal["bottom", "left", "across", "right"]
POSITIONS: Final[tuple[Position, ...]] = ("bottom", "left", "across", "right")
COMPASS: Final[Mapping[Position, str]] = MappingProxyType(
    {
        "bottom": "south",
        "left": "west",
        "across": "north",
        "right": "east",
    }
)
STANDARD_BOT_NAMES: Final = frozenset({"Easy bot", "Medium bot", "Hard bot"})


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


def compass_key(view: SeatView, seat: int) -> str:
    """The i18n key of the seat's compass name (``compass.west``); at a
    table of any other size than four, of its number (``compass.seat5``)."""
    if len(view.seats) != 4:
        return f"compass.seat{seat + 1}"
    return "compass." + COMPASS[position_of(view, seat)]


def abbr_key(view: SeatView, seat: int) -> str:
    """The i18n key of the seat's one- or two-letter compass abbreviation
    (its number at a table of any other size than four)."""
    if len(view.seats) != 4:
        return f"abbr.seat{seat + 1}"
    return "abbr." + COMPASS[position_of(view, seat)]


def play_order(view: SeatView) -> list[int]:
    """Every seat in play order, from the one drawn at the bottom."""
    n = len(view.seats)
    return [(my_seat(view) + k) % n for k in range(n)]


def seat_keys(view: SeatView) -> str:
    """The keys of the host's seat menus, as the prompt and the key line
    say them: ``1 2 3`` at four seats (``1 2`` at three), ``1–9`` at ten."""
    others = len(view.seats) - 1
    return " ".join(str(k) for k in range(1, others + 1)) if others <= 3 else f"1–{others}"


def uses_compass_name(info: SeatInfo) -> bool:
    """Bots with the server's standard names are called by their compass
    name (three "Medium bot"s would be impossible to tell apart)."""
    return info.kind == "bot" and info.name in STANDARD_BOT_NAMES

"""``SeatView``: everything one seat may know about its table, and nothing more.

Every view is built by one function, ``protocol.seat_view.seat_view`` (the
server calls it through ``server.redaction``); bots receive the same model
as human clients. A spectator's view has ``seat = None`` and no hidden cards
at all.
"""

from __future__ import annotations

from typing import Literal

from .common import BotLevel, Card, RulesModel, WireModel

TableStatus = Literal["waiting", "playing", "between_hands", "game_over"]
HandPhase = Literal["pass", "play", "moon_choice", "done"]
PassDirection = Literal["left", "right", "across", "hold"]
SeatKind = Literal["open", "human", "bot"]


class SeatInfo(WireModel):
    """One seat as everybody sees it."""

    seat: int
    kind: SeatKind
    name: str
    bot_level: BotLevel | None = None
    host: bool = False
    connected: bool = False
    away: bool = False
    bot_covering: bool = False
    cards_left: int = 0
    points_hand: int = 0
    passed: bool = False
    ready: bool = False
    # Seconds (as of this message) until a bot covers this away seat: a
    # countdown clients show. None when no countdown runs (the seat is here,
    # already covered, or the table is paused with no human present).
    cover_in: float | None = None
    # A "human" seat played by a program of the player's own (its hello said
    # ``program``), not by a person: clients mark it, and it does not count
    # as a person for the pause rule.
    program: bool = False


class PlayedCard(WireModel):
    """A card on the table and who played it."""

    seat: int
    card: Card


class TrickRecord(WireModel):
    """A finished trick of this hand: who led, the cards, who won."""

    leader: int
    cards: tuple[PlayedCard, ...]
    winner: int
    points: int


class HandResult(WireModel):
    """A finished hand's line in the score table."""

    hand_number: int
    points: tuple[int, ...]
    shooter: int | None = None
    moon_choice: Literal["add", "subtract"] | None = None


class KickedPlayer(WireModel):
    """A player the host removed; they cannot join again until the host
    allows them back (``allow_back``)."""

    player_id: str
    name: str


class Knocker(WireModel):
    """Someone who found the code and asks the host to let them sit."""

    player_id: str
    name: str


class SeatView(WireModel):
    """What ``seat`` may know now. ``seq`` is the number of the last event
    included; later events apply on top of it."""

    table_id: str
    code: str
    name: str
    public: bool
    rules: RulesModel
    seq: int
    seat: int | None
    host_seat: int
    seats: tuple[SeatInfo, ...]
    status: TableStatus
    hand_number: int = 0
    phase: HandPhase | None = None
    pass_direction: PassDirection | None = None
    hand: tuple[Card, ...] = ()
    passed: tuple[Card, ...] = ()
    passed_to: int | None = None
    received: tuple[Card, ...] = ()
    received_from: int | None = None
    received_marked: bool = False
    legal: tuple[Card, ...] = ()
    turn: int | None = None
    trick_leader: int | None = None
    trick: tuple[PlayedCard, ...] = ()
    tricks: tuple[TrickRecord, ...] = ()
    hearts_broken: bool = False
    points_hand: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    hands: tuple[HandResult, ...] = ()
    moon_shooter: int | None = None
    winner: int | None = None
    # No human is connected: nothing moves (no bot covers, no timer runs)
    # until a player comes back.
    paused: bool = False
    kicked: tuple[KickedPlayer, ...] = ()
    # The host asks to approve who sits ("ask me before someone sits").
    approval: bool = False
    # Host only: players waiting for an answer (``answer_knock``).
    knocks: tuple[Knocker, ...] = ()

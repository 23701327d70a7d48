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
HandPhase = Literal["pass", "play", "widow", "moon_choice", "done"]
PassDirection = Literal["left", "right", "across", "hold"]
SeatKind = Literal["open", "human", "bot"]


class SeatInfo(WireModel):
    """One seat as everybody sees it.

    ``name`` is the seat's one name, the same in every view of the table
    (every seat's, a spectator's, a program's): clients call the seat by it
    everywhere, never by where it sits from them. A person's is the name of
    their hello, with a number when another seat is called that already
    ("Alex 2"); a bot's is given by the server when it takes the seat, from
    a fixed list of first names read the same in English, Ukrainian and
    Russian (never translated), chosen from the table's seed and the seat,
    unique at the table and kept over restarts; a bot that takes over from
    a player who left mid-game is "NAME (bot)". ``bot_level`` is the bot's
    level, shown beside the name. Empty for an open seat."""

    seat: int
    kind: SeatKind
    name: str
    bot_level: BotLevel | None = None
    host: bool = False
    connected: bool = False
    away: bool = False
    bot_covering: bool = False
    cards_left: int = 0
    # Points of the cards this seat has taken face up this hand; cards taken
    # face down (a widow discard, a cancellation rest) count only once the
    # hand is over.
    points_hand: int = 0
    passed: bool = False
    # Domino Hearts: cards drawn from the stock this hand (what was drawn is
    # the seat's secret), and whether the seat has played its last card and
    # dropped out.
    drawn: int = 0
    out: bool = False
    # How many cards lie face down in this seat's taken pile (the widow
    # discard, the cancellation rest): the cards themselves only it sees.
    hidden_taken: int = 0
    ready: bool = False
    # Seconds (as of this message) until a bot covers this away seat: a
    # countdown clients show. None when no countdown runs (the seat is here,
    # already covered, or the table is paused with no human present).
    cover_in: float | None = None
    # A "human" seat played by a program of the player's own (its hello said
    # ``program``), not by a person: clients mark it, and it does not count
    # as a person for the pause rule.
    program: bool = False
    # Seconds (as of this message) this seat has left for its move at a
    # table with a turn timer; when they run out a bot moves for it. None
    # when no turn timer runs for the seat (not its turn, a bot, paused).
    turn_in: float | None = None


class PlayedCard(WireModel):
    """A card on the table and who played it."""

    seat: int
    card: Card


class TrickRecord(WireModel):
    """A finished trick of this hand: who led, the cards with the seats that
    played them (in play order; a seat that dropped out plays no more), who
    won. Cancellation Hearts: ``cancelled`` are the cards that cancelled
    (identical pairs); a trick with no card of the led suit standing is
    carried: its ``winner`` is null, its ``points`` 0, and its cards go, as
    ``carried_in``, to the winner of the next trick that has one (whose
    ``points`` count them)."""

    leader: int
    cards: tuple[PlayedCard, ...]
    winner: int | None
    points: int
    cancelled: tuple[Card, ...] = ()
    carried_in: tuple[Card, ...] = ()


class HandResult(WireModel):
    """A finished hand's line in the score table."""

    hand_number: int
    points: tuple[int, ...]
    shooter: int | None = None
    moon_choice: Literal["add", "subtract", "jackpot", "transfer"] | None = None


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
    # Hearts with a widow: who took the widow (the first trick's winner);
    # in the "widow" phase that seat discards ``discard_count`` cards
    # (``discard``) and its ``legal`` is its whole hand. ``widow`` are the
    # cards it took and ``discarded`` those it put down: its own view only.
    widow_seat: int | None = None
    discard_count: int = 0
    widow: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()
    # Face-down cards not yet taken: the widow, the domino stock, the
    # cancellation rest (how many; never which).
    stock_count: int = 0
    # Your own face-down taken cards (a widow discard, a cancellation rest).
    hidden_taken: tuple[Card, ...] = ()
    turn: int | None = None
    trick_leader: int | None = None
    trick: tuple[PlayedCard, ...] = ()
    # Cancellation Hearts: cards of carried tricks waiting for the next
    # trick's winner.
    carried: tuple[Card, ...] = ()
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
    # The table's turn timer (seconds per move, chosen by the host), or None.
    turn_seconds: int | None = None
    # Host only: players waiting for an answer (``answer_knock``).
    knocks: tuple[Knocker, ...] = ()

"""Building views: what one seat may know of a game, and nothing more.

The one place that decides what a seat sees (docs/architecture.md, property
3). It takes the engine's ``Game`` (the whole truth, every hand included)
and the public facts about the table that the game does not hold (who sits
where, who is connected or away, whose turn the host is, ...) as plain data
(``TableFacts``, ``SeatFacts``), and gives the ``SeatView`` of one seat, or
of a spectator (``seat=None``). What a seat may know (docs/rules.md): its own
hand, the cards it passed and where, the cards it received and from whom,
every card played, who took what, and everything public about the seats.
Face-down cards (the widow, the domino stock, the cancellation rest, a
widow discard, cards drawn) are known only to whoever holds or took them;
everybody else sees how many.

The server turns its table state into these facts (``server.redaction``)
and the arena (``tools.arena``) writes them for its bots; a bot of your own
can be tried the same way::

    import random

    from engine.game import Game
    from engine.rules import Rules
    from protocol.seat_view import SeatFacts, TableFacts, seat_view

    rules = Rules()
    game = Game(rules)
    game.start_hand(random.Random(1))          # any engine game, at any point
    table = TableFacts(rules, tuple(SeatFacts(name=f"Bot {i}") for i in range(4)))
    view = seat_view(game, table, seat=2)      # what seat 2 may know now

Views are built in their wire form (``SeatView.model_dump(mode="json")``:
plain dicts, lists and scalars, keys in the models' field order) without
any pydantic model, because the server builds them after every action: the
fan-out encodes them as they are (``protocol.codec.encode_snapshot``), and
the ``SeatView`` a bot gets is validated from the same dict. One builder for
both, so what a bot sees and what a client is sent cannot differ;
tests/server/test_redaction_wire.py holds the bytes to those of the models.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from engine.cards import card_text, cards_of
from engine.game import Game
from engine.hand import Hand, Phase
from engine.rules import Rules
from engine.variant_hand import VariantHand

from .common import BotLevel, RulesModel
from .view import SeatInfo, SeatKind, SeatView, TableStatus, TrickRecord

__all__ = [
    "SeatFacts",
    "TableFacts",
    "TrickCache",
    "public_view",
    "seat_info",
    "seat_view",
    "wire_views",
]


# Facts are made for every view the server builds: plain slotted classes,
# built in a quarter of the time a frozen dataclass takes. Make new facts
# for each moment rather than changing these.


@dataclass(slots=True)
class SeatFacts:
    """What everybody may know about one seat that the game does not say.

    ``connected`` is what others are shown (a bot is always connected);
    ``away``: a human dropped and is being waited for; ``bot_covering``: a
    bot plays for that away human now; ``cover_in``: seconds until a bot
    starts covering (a countdown others see), None when none runs;
    ``ready``: ready for the next hand; ``program``: a ``human`` seat played
    by a player's own program, not a person."""

    kind: SeatKind = "bot"
    name: str = ""
    bot_level: BotLevel | None = None
    connected: bool = True
    away: bool = False
    bot_covering: bool = False
    ready: bool = False
    cover_in: float | None = None
    program: bool = False
    turn_in: float | None = None


@dataclass(slots=True)
class TableFacts:
    """What everybody may know about a table that the game does not say,
    one ``SeatFacts`` per seat (``rules.players`` of them).

    ``seq`` is the number of the last event the view includes; ``status``
    the table's (``waiting``, ``playing``, ``between_hands``,
    ``game_over``); ``paused``: no human is connected, so nothing moves;
    ``kicked``: (player id, name) of those the host removed; ``approval``:
    the host approves who sits; ``knocks``: (player id, name) of those
    waiting for the host's answer, shown to the host's seat only."""

    rules: Rules
    seats: tuple[SeatFacts, ...]
    table_id: str = ""
    code: str = ""
    name: str = ""
    public: bool = False
    seq: int = 0
    host_seat: int = 0
    status: TableStatus = "playing"
    paused: bool = False
    kicked: tuple[tuple[str, str], ...] = ()
    approval: bool = False
    knocks: tuple[tuple[str, str], ...] = ()
    turn_seconds: int | None = None


class TrickCache:
    """The finished tricks of the hand under way, kept between views.

    Finished tricks never change, so each is put in its wire form once and
    validated once (most of a bot's view's validation). Keep one per table
    for as long as the table lives and pass it to every call; without one,
    every view builds its tricks again (the same result, slower)."""

    __slots__ = ("_hand", "_models", "_wire")

    def __init__(self) -> None:
        self._hand: Hand | None = None
        self._wire: list[dict[str, Any]] = []
        self._models: list[TrickRecord] = []

    def wire(self, hand: Hand) -> list[dict[str, Any]]:
        """``hand``'s finished tricks in their wire form. The list is shared
        by the views of this moment: never mutate it."""
        # The hand object itself is the key (held, so its identity cannot
        # be reused): a new hand, or a table restored from its store, starts
        # afresh.
        if hand is not self._hand or len(self._wire) > len(hand.history):
            self._hand, self._wire, self._models = hand, [], []
        built = self._wire
        if len(built) < len(hand.history):
            n = hand.players
            penalty = hand.rules.tables.penalty
            # A new list: views already built keep the one they were given.
            if isinstance(hand, VariantHand):
                self._wire = built + [
                    _variant_trick(hand, k) for k in range(len(built), len(hand.history))
                ]
            else:
                self._wire = built + [
                    {
                        "leader": leader,
                        "cards": _played(leader, cards, n),
                        "winner": winner,
                        "points": sum(penalty[c] for c in cards),
                        "cancelled": [],
                        "carried_in": [],
                    }
                    for leader, cards, winner in hand.history[len(built) :]
                ]
        return self._wire

    def models(self, hand: Hand) -> tuple[TrickRecord, ...]:
        """``hand``'s finished tricks as models, each validated once."""
        wire = self.wire(hand)
        models = self._models
        models.extend(TrickRecord.model_validate(t) for t in wire[len(models) :])
        return tuple(models)


def _variant_trick(hand: VariantHand, k: int) -> dict[str, Any]:
    """Finished trick ``k`` of a variant hand in its wire form: the seats
    that really played it (Domino: seats drop out), what cancelled, and
    what a carried trick's winner took along."""
    leader, cards, winner = hand.history[k]
    penalty = hand.rules.tables.penalty
    carried_in = cards_of(hand.carried_taken[k])
    return {
        "leader": leader,
        "cards": [
            {"seat": s, "card": card_text(c)}
            for s, c in zip(hand.trick_seats(k), cards, strict=True)
        ],
        "winner": winner if winner >= 0 else None,
        "points": (
            sum(penalty[c] for c in cards) + sum(penalty[c] for c in carried_in)
            if winner >= 0
            else 0
        ),
        "cancelled": [card_text(c) for c in hand.trick_cancelled(k)],
        "carried_in": [card_text(c) for c in carried_in],
    }


def _template(model: type[BaseModel]) -> dict[str, Any]:
    """Every field of ``model`` in order, with its default (None for the
    required ones, which the builder always sets)."""
    return {
        name: None if f.is_required() else f.get_default(call_default_factory=True)
        for name, f in model.model_fields.items()
    }


_VIEW = _template(SeatView)
_SEAT = _template(SeatInfo)


@functools.lru_cache(maxsize=64)
def _rules_model(rules: Rules) -> RulesModel:
    return RulesModel.from_rules(rules)


@functools.lru_cache(maxsize=64)
def _rules_wire(rules: Rules) -> dict[str, Any]:
    wire: dict[str, Any] = _rules_model(rules).model_dump(mode="json")
    return wire


def _texts(mask: int) -> list[str]:
    return [card_text(c) for c in cards_of(mask)]


def _played(leader: int, cards: tuple[int, ...] | list[int], n: int) -> list[dict[str, Any]]:
    return [{"seat": (leader + k) % n, "card": card_text(c)} for k, c in enumerate(cards)]


def _check_seats(table: TableFacts) -> None:
    n = table.rules.players
    if len(table.seats) != n:
        raise ValueError(f"the table has {n} seats, not {len(table.seats)} SeatFacts")


def _check_seat(table: TableFacts, seat: int | None) -> None:
    n = table.rules.players
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"no seat {seat} at a table of {n}")


def seat_info(
    game: Game | None, table: TableFacts, seat: int, points: list[int] | None = None
) -> dict[str, Any]:
    """The public description of ``seat`` (a ``SeatInfo``'s wire form).
    ``points`` is the hand's ``points_taken()`` when the caller has it."""
    _check_seats(table)
    _check_seat(table, seat)
    return _seat_info(game.hand if game else None, table, seat, points)


def _seat_info(
    hand: Hand | None, table: TableFacts, i: int, points: list[int] | None
) -> dict[str, Any]:
    facts = table.seats[i]
    info = dict(_SEAT)
    info["seat"] = i
    info["kind"] = facts.kind
    info["name"] = facts.name
    info["bot_level"] = facts.bot_level
    info["host"] = i == table.host_seat
    info["connected"] = facts.connected
    info["away"] = facts.away
    info["bot_covering"] = facts.bot_covering
    if hand is not None:
        info["cards_left"] = hand.hands[i].bit_count()
        info["points_hand"] = (points if points is not None else _public_points(hand))[i]
        info["passed"] = hand.phase is Phase.PASS and hand.passes[i] is not None
        if isinstance(hand, VariantHand):
            info["drawn"] = sum(len(cards) for s, cards in hand.draws if s == i)
            info["out"] = (
                hand.rules.tables.deal_kind == "domino"
                and hand.phase is Phase.PLAY
                and not hand.hands[i]
            )
            info["hidden_taken"] = hand.hidden_taken[i].bit_count()
    info["ready"] = facts.ready
    info["cover_in"] = facts.cover_in
    info["program"] = facts.program
    info["turn_in"] = facts.turn_in
    return info


def public_view(
    game: Game | None, table: TableFacts, tricks: TrickCache | None = None
) -> dict[str, Any]:
    """A spectator's view in its wire form: the part of every seat's view
    that is the same for all seats. ``wire_views`` and ``seat_view`` add one
    seat's private part; build this once when many views of one moment are
    needed (a fan-out, bots deciding). Never mutate it: its parts are shared
    (finished tricks are kept in ``tricks`` between views)."""
    _check_seats(table)
    hand: Hand | None = game.hand if game else None
    n = table.rules.players
    points = _public_points(hand) if hand is not None else None
    view = dict(_VIEW)
    view["table_id"] = table.table_id
    view["code"] = table.code
    view["name"] = table.name
    view["public"] = table.public
    view["rules"] = _rules_wire(table.rules)
    view["seq"] = table.seq
    view["host_seat"] = table.host_seat
    view["seats"] = [_seat_info(hand, table, i, points) for i in range(n)]
    view["status"] = table.status
    view["paused"] = table.paused
    view["kicked"] = [{"player_id": pid, "name": name} for pid, name in table.kicked]
    view["approval"] = table.approval
    view["turn_seconds"] = table.turn_seconds
    if game is not None:
        view["totals"] = list(game.totals)
        view["hands"] = [_hand_score(game, k) for k in range(len(game.hand_scores))]
        view["winner"] = game.winner
    if hand is not None and points is not None:
        _add_hand_public(view, hand, points, tricks, n)
    return view


def _hand_score(game: Game, k: int) -> dict[str, Any]:
    """Finished hand ``k``'s line of the score sheet."""
    return {
        "hand_number": k + 1,
        "points": list(game.hand_scores[k]),
        "shooter": game.shooters[k] if k < len(game.shooters) else None,
        "moon_choice": game.moon_choices[k] if k < len(game.moon_choices) else None,
    }


def _add_hand_public(
    view: dict[str, Any], hand: Hand, points: list[int], tricks: TrickCache | None, n: int
) -> None:
    """The hand in play as every seat sees it."""
    playing = hand.phase is Phase.PLAY
    view["hand_number"] = hand.hand_number
    view["phase"] = hand.phase.value
    view["pass_direction"] = hand.direction
    view["turn"] = hand.turn if playing else None
    view["trick_leader"] = hand.leader if playing else None
    view["trick"] = _played(hand.leader, hand.trick, n)
    view["tricks"] = (tricks or TrickCache()).wire(hand)
    if isinstance(hand, VariantHand):
        _variant_public(hand, view)
    view["hearts_broken"] = hand.broken
    view["points_hand"] = points
    if hand.phase in (Phase.MOON_CHOICE, Phase.DONE):
        view["moon_shooter"] = hand.shooter


def _public_points(hand: Hand) -> list[int]:
    """Each seat's points as everybody may know them: cards taken face down
    (a widow discard, a cancellation rest) count only once the hand is over,
    or their points would tell what they are."""
    points = hand.points_taken()
    if hand.phase in (Phase.MOON_CHOICE, Phase.DONE) or not any(hand.hidden_taken):
        return points
    penalty = hand.rules.tables.penalty
    return [
        p - sum(penalty[c] for c in cards_of(hidden))
        for p, hidden in zip(points, hand.hidden_taken, strict=True)
    ]


def _variant_public(hand: VariantHand, view: dict[str, Any]) -> None:
    """The public facts of the widow, the stock and two decks, laid over
    ``view``: who plays the trick under way, how many cards lie face down,
    who took the widow, what carried tricks wait for a winner."""
    view["trick"] = [
        {"seat": s, "card": card_text(c)}
        for s, c in zip(hand.current_trick_seats(), hand.trick, strict=True)
    ]
    view["stock_count"] = len(hand.stock)
    view["widow_seat"] = hand.widow_seat
    view["carried"] = _texts(hand.carried)
    if hand.phase is Phase.WIDOW:
        view["turn"] = hand.widow_seat
        view["discard_count"] = len(hand.dealt_stock)


def wire_views(
    game: Game | None,
    table: TableFacts,
    seats: Iterable[int | None],
    public: dict[str, Any] | None = None,
    tricks: TrickCache | None = None,
) -> dict[int | None, dict[str, Any]]:
    """The wire form (``SeatView.model_dump(mode="json")``) of each of
    ``seats``' views (None: a spectator): the public part (``public``, or
    ``public_view`` built once) with the seat and its private part laid
    over a copy. With ``public`` given, only the ``rules``, ``host_seat``
    and ``knocks`` of ``table`` are read (the seats' facts are in it)."""
    base = public if public is not None else public_view(game, table, tricks)
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        _check_seat(table, seat)
        view = dict(base)
        view["seat"] = seat
        view.update(_private_part(game, table, seat))
        out[seat] = view
    return out


def seat_view(
    game: Game | None,
    table: TableFacts,
    seat: int | None,
    public: dict[str, Any] | None = None,
    tricks: TrickCache | None = None,
) -> SeatView:
    """Everything ``seat`` may know now (``None``: a spectator), as a model.

    ``game`` is the table's game (None before the first deal), ``table`` the
    public facts of this same moment; ``public`` is ``public_view(game,
    table)`` of this moment when the caller has it (then only the
    ``rules``, ``host_seat`` and ``knocks`` of ``table`` are read),
    ``tricks`` the table's ``TrickCache``. The model is validated from the wire form: what a bot
    gets is exactly what a client would be sent. Raises ``ValueError`` when
    the facts do not fit the rules (one ``SeatFacts`` per seat) or there is
    no such seat."""
    cache = tricks if tricks is not None else TrickCache()
    wire = wire_views(game, table, (seat,), public, cache)[seat]
    # Validated, with what never changes given as models already (accepted
    # as they are: pydantic does not revalidate instances).
    hand = game.hand if game else None
    wire["tricks"] = cache.models(hand) if hand is not None else ()
    wire["rules"] = _rules_model(table.rules)
    return SeatView.model_validate(wire)


def _private_part(game: Game | None, table: TableFacts, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` may see: its cards, its pass, what it received, its
    legal moves, the widow it took and its discard, its face-down taken
    cards; the host also sees who knocks."""
    part: dict[str, Any] = {}
    if seat is None:
        return part
    if seat == table.host_seat and table.knocks:
        part["knocks"] = [{"player_id": pid, "name": name} for pid, name in table.knocks]
    hand = game.hand if game else None
    if hand is not None:
        part.update(_hand_part(hand, seat))
    return part


def _hand_part(hand: Hand, seat: int) -> dict[str, Any]:
    """A seat's own cards: its hand, its pass, what it received, its legal
    moves (in the widow phase, the widow's taker may discard any card), the
    widow and its discard, its face-down taken cards."""
    part: dict[str, Any] = {"hand": _texts(hand.hands[seat])}
    passed = hand.passes[seat]
    if passed is not None:
        part["passed"] = _texts(passed)
        part["passed_to"] = hand.receiver_of(seat)
    if hand.phase is not Phase.PASS and hand.offset:
        part["received"] = _texts(hand.received[seat])
        part["received_from"] = hand.giver_to(seat)
        part["received_marked"] = hand.trick_index == 0 and hand.phase is Phase.PLAY
    legal = _legal_mask(hand, seat, passed is None)
    if legal is not None:
        part["legal"] = part["hand"] if legal == hand.hands[seat] else _texts(legal)
    if hand.VARIANT_STEPS:
        _add_variant_part(part, hand, seat)
    return part


def _legal_mask(hand: Hand, seat: int, yet_to_pass: bool) -> int | None:
    """The seat's legal cards (its whole hand when passing, and for the
    widow's taker discarding), None when it has no move."""
    phase = hand.phase
    if phase is Phase.PASS:
        return hand.hands[seat] if yet_to_pass else None
    if phase is Phase.PLAY:
        return hand.legal_mask(seat) if hand.turn == seat else None
    if phase is Phase.WIDOW and hand.widow_seat == seat:
        return hand.hands[seat]
    return None


def _add_variant_part(part: dict[str, Any], hand: Hand, seat: int) -> None:
    # Face-down cards the seat took (Domino's draws, a widow's cards) and,
    # for the widow's taker, the widow and its own discard.
    if hand.hidden_taken[seat]:
        part["hidden_taken"] = _texts(hand.hidden_taken[seat])
    if hand.widow_seat == seat and hand.rules.tables.deal_kind == "widow":
        part["widow"] = [card_text(c) for c in sorted(hand.dealt_stock)]
        if hand.discard is not None:
            part["discarded"] = _texts(hand.discard)

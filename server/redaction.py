"""Redaction: the only code that decides what a seat may see.

``seat_view`` builds every ``SeatView`` (players, bots and spectators alike)
from the full ``TableState``; ``redact_event`` turns one logged event (which
may hold every hand) into what one seat may be sent, or None. What a seat may
know (docs/rules.md, docs/architecture.md property 3): its own hand, the cards it passed and
where, the cards it received and from whom, every card played, who took what
and everything public about the seats. Spectators (``seat=None``) get only the
public part. Nothing else in the project builds views.
"""

from __future__ import annotations

import functools
import time
from typing import Any

from engine.cards import card_text, cards_of
from engine.hand import Hand, Phase
from engine.rules import Rules
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import (
    HandResult,
    KickedPlayer,
    Knocker,
    PlayedCard,
    SeatInfo,
    SeatView,
    TrickRecord,
)

from .table_state import TableState

# Views are built from the server's own state, after every action, for every
# seat: the models are constructed without re-validating what we built
# (model_construct), which is most of a view's cost. Tests validate views.


@functools.lru_cache(maxsize=64)
def _rules_model(rules: Rules) -> RulesModel:
    return RulesModel.from_rules(rules)


def _texts(mask: int) -> tuple[str, ...]:
    return tuple(card_text(c) for c in cards_of(mask))


def seat_info(table: TableState, i: int) -> SeatInfo:
    """The public description of seat ``i``."""
    seat = table.seats[i]
    hand = table.game.hand if table.game else None
    deadline = table.cover_deadlines.get(i)
    return SeatInfo.model_construct(
        seat=i,
        kind=seat.kind,
        name=seat.name,
        bot_level=seat.bot_level if seat.kind == "bot" else None,
        host=i == table.host_seat,
        connected=seat.connected or seat.kind == "bot",
        away=seat.away,
        bot_covering=seat.covering,
        cards_left=hand.hands[i].bit_count() if hand else 0,
        points_hand=hand.points_taken()[i] if hand else 0,
        passed=bool(hand and hand.phase is Phase.PASS and hand.passes[i] is not None),
        ready=seat.ready,
        cover_in=None if deadline is None else round(max(0.0, deadline - time.monotonic()), 1),
    )


def _played(leader: int, cards: tuple[int, ...] | list[int], n: int) -> tuple[PlayedCard, ...]:
    return tuple(
        PlayedCard.model_construct(seat=(leader + k) % n, card=card_text(c))
        for k, c in enumerate(cards)
    )


def _tricks(table: TableState, hand: Hand) -> tuple[TrickRecord, ...]:
    """This hand's finished tricks on the wire, reusing those already built."""
    cache = table.trick_cache
    key = (table.games_played, hand.hand_number)
    built: tuple[TrickRecord, ...] = cache.get(key, ())
    if len(built) > len(hand.history):
        built = ()
    if len(built) < len(hand.history):
        n = table.players
        built += tuple(
            TrickRecord.model_construct(
                leader=leader,
                cards=_played(leader, cards, n),
                winner=winner,
                points=sum(hand.rules.tables.penalty[c] for c in cards),
            )
            for leader, cards, winner in hand.history[len(built) :]
        )
        cache.clear()
        cache[key] = built
    return built


def public_view(table: TableState) -> dict[str, Any]:
    """The part of every seat's view that is the same for all seats (and is
    all a spectator gets). ``seat_view`` adds one seat's private part; build
    this once when many views of one moment are needed (a fan-out)."""
    game = table.game
    hand: Hand | None = game.hand if game else None
    n = table.players
    view: dict[str, Any] = {
        "table_id": table.table_id,
        "code": table.code,
        "name": table.name,
        "public": table.public,
        "rules": _rules_model(table.rules),
        "seq": table.seq,
        "seat": None,
        "host_seat": table.host_seat,
        "seats": tuple(seat_info(table, i) for i in range(n)),
        "status": table.status,
        "paused": table.is_paused(),
        "kicked": tuple(
            KickedPlayer.model_construct(player_id=pid, name=name) for pid, name in table.kicked
        ),
        "approval": table.approval,
    }
    if game is not None:
        view["totals"] = tuple(game.totals)
        view["hands"] = tuple(
            HandResult.model_construct(
                hand_number=k + 1,
                points=pts,
                shooter=game.shooters[k] if k < len(game.shooters) else None,
                moon_choice=game.moon_choices[k] if k < len(game.moon_choices) else None,
            )
            for k, pts in enumerate(game.hand_scores)
        )
        view["winner"] = game.winner
    if hand is not None:
        view.update(
            {
                "hand_number": hand.hand_number,
                "phase": hand.phase.value,
                "pass_direction": hand.direction,
                "turn": hand.turn if hand.phase is Phase.PLAY else None,
                "trick_leader": hand.leader if hand.phase is Phase.PLAY else None,
                "trick": _played(hand.leader, hand.trick, n),
                "tricks": _tricks(table, hand),
                "hearts_broken": hand.broken,
                "points_hand": tuple(hand.points_taken()),
                "moon_shooter": hand.shooter
                if hand.phase in (Phase.MOON_CHOICE, Phase.DONE)
                else None,
            }
        )
    return view


def seat_view(
    table: TableState, seat: int | None, public: dict[str, Any] | None = None
) -> SeatView:
    """Everything ``seat`` may know now (``None``: a spectator). ``public``
    is ``public_view(table)`` of this same moment, when the caller has it."""
    view = dict(public if public is not None else public_view(table))
    view["seat"] = seat
    view.update(_private_part(table, seat, wire=False))
    return SeatView.model_construct(**view)


def wire_views(
    table: TableState, seats: set[int | None], public: dict[str, Any] | None = None
) -> dict[int | None, dict[str, Any]]:
    """The wire form (``SeatView.model_dump(mode="json")``) of ``seat_view``
    for each of ``seats``, built for a fan-out: the public part is dumped
    once (as a spectator's view) and each seat's private part, plain values
    already, is laid over a copy. Same content and key order as dumping each
    seat's model (a test compares the encoded bytes); what a seat gets is
    still decided only by ``seat_view``'s rules, here and there."""
    base = seat_view(table, None, public).model_dump(mode="json")
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        view = dict(base)
        view["seat"] = seat
        view.update(_private_part(table, seat, wire=True))
        out[seat] = view
    return out


def _private_part(table: TableState, seat: int | None, wire: bool) -> dict[str, Any]:
    """What only ``seat`` may see: its cards, its pass, what it received, its
    legal moves; the host also sees who knocks. ``wire``: plain values (the
    JSON form) instead of models."""
    part: dict[str, Any] = {}
    if seat is None:
        return part
    if seat == table.host_seat and table.knocks:
        part["knocks"] = tuple(
            {"player_id": pid, "name": name}
            if wire
            else Knocker.model_construct(player_id=pid, name=name)
            for pid, name in table.knocks.items()
        )
    hand = table.game.hand if table.game else None
    if hand is not None:
        part.update(_hand_part(hand, seat))
    return part


def _hand_part(hand: Hand, seat: int) -> dict[str, Any]:
    """A seat's own cards: its hand, its pass, what it received, its legal
    moves."""
    part: dict[str, Any] = {"hand": _texts(hand.hands[seat])}
    passed = hand.passes[seat]
    if passed is not None:
        part["passed"] = _texts(passed)
        part["passed_to"] = hand.receiver_of(seat)
    if hand.phase is not Phase.PASS and hand.offset:
        part["received"] = _texts(hand.received[seat])
        part["received_from"] = hand.giver_to(seat)
        part["received_marked"] = hand.trick_index == 0 and hand.phase is Phase.PLAY
    if hand.phase is Phase.PASS and passed is None:
        part["legal"] = part["hand"]
    elif hand.phase is Phase.PLAY and hand.turn == seat:
        part["legal"] = _texts(hand.legal_mask(seat))
    return part


PRIVATE_EVENTS = frozenset({"hand_dealt", "cards_passed", "bot_covered"})
"""Logged events whose redaction depends on the seat; every other event is
the same for everybody."""


def redact_event(event: dict[str, Any], seat: int | None) -> sm.TableEvent | None:
    """What ``seat`` may be sent of one logged event (None: nothing)."""
    kind = event["type"]
    if kind == "hand_dealt":
        cards = tuple(event["hands"][seat]) if seat is not None else ()
        return sm.HandDealt(
            seq=event["seq"],
            hand_number=event["hand_number"],
            direction=event["direction"],
            cards=cards,
        )
    if kind == "cards_passed":
        if seat is None or seat != event["receiver"]:
            return None
        return sm.CardsReceived(
            seq=event["seq"], from_seat=event["giver"], cards=tuple(event["cards"])
        )
    if kind == "bot_covered":
        # What a bot played in a player's name shows that player's cards.
        if seat is None or seat != event["seat"]:
            return None
        return sm.BotCovered.model_validate(event)
    model = _PUBLIC_EVENTS.get(kind)
    if model is None:
        return None
    return model.model_validate(event)  # type: ignore[no-any-return]


_PUBLIC_EVENTS: dict[str, Any] = {
    "seat_changed": sm.SeatChanged,
    "game_started": sm.GameStarted,
    "pass_locked": sm.PassLocked,
    "play_begins": sm.PlayBegins,
    "card_played": sm.CardPlayed,
    "hearts_broken": sm.HeartsBroken,
    "trick_won": sm.TrickWon,
    "moon_choice_needed": sm.MoonChoiceNeeded,
    "hand_scored": sm.HandScored,
    "game_over": sm.GameOver,
    "chat_message": sm.ChatMessage,
}

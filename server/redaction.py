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

from pydantic import BaseModel

from engine.cards import card_text, cards_of
from engine.hand import Hand, Phase
from engine.rules import Rules
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import SeatInfo, SeatView, TrickRecord

from .table_state import TableState

# Views are built from the server's own state after every action, in their
# wire form (``SeatView.model_dump(mode="json")``: plain dicts, lists and
# scalars, keys in the models' field order) without any pydantic model: the
# fan-out encodes them as they are, and the ``SeatView`` a bot gets is
# validated from the same dict. One builder for both, so what a bot sees and
# what a client is sent cannot differ; tests/server/test_redaction_wire.py
# holds the bytes to those of the models.


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


def seat_info(table: TableState, i: int, points: list[int] | None = None) -> dict[str, Any]:
    """The public description of seat ``i`` (a ``SeatInfo``'s wire form).
    ``points`` is the hand's ``points_taken()`` when the caller has it."""
    seat = table.seats[i]
    hand = table.game.hand if table.game else None
    deadline = table.cover_deadlines.get(i)
    info = dict(_SEAT)
    info["seat"] = i
    info["kind"] = seat.kind
    info["name"] = seat.name
    info["bot_level"] = seat.bot_level if seat.kind == "bot" else None
    info["host"] = i == table.host_seat
    info["connected"] = seat.connected or seat.kind == "bot"
    info["away"] = seat.away
    info["bot_covering"] = seat.covering
    if hand is not None:
        info["cards_left"] = hand.hands[i].bit_count()
        info["points_hand"] = (points if points is not None else hand.points_taken())[i]
        info["passed"] = hand.phase is Phase.PASS and hand.passes[i] is not None
    info["ready"] = seat.ready
    if deadline is not None:
        info["cover_in"] = round(max(0.0, deadline - time.monotonic()), 1)
    return info


def _played(leader: int, cards: tuple[int, ...] | list[int], n: int) -> list[dict[str, Any]]:
    return [{"seat": (leader + k) % n, "card": card_text(c)} for k, c in enumerate(cards)]


def _tricks(table: TableState, hand: Hand) -> list[dict[str, Any]]:
    """This hand's finished tricks on the wire, reusing those already built."""
    return _finished_tricks(table, hand)[0]


def _finished_tricks(
    table: TableState, hand: Hand
) -> tuple[list[dict[str, Any]], list[TrickRecord]]:
    """This hand's finished tricks on the wire, and the models of those a
    view was validated with so far: finished tricks never change, so each is
    built once and validated once (most of a bot's view's validation)."""
    cache = table.trick_cache
    key = (table.games_played, hand.hand_number)
    built, models = cache.get(key, ([], []))
    if len(built) > len(hand.history):
        built, models = [], []
    if len(built) < len(hand.history):
        n = table.players
        built = built + [
            {
                "leader": leader,
                "cards": _played(leader, cards, n),
                "winner": winner,
                "points": sum(hand.rules.tables.penalty[c] for c in cards),
            }
            for leader, cards, winner in hand.history[len(built) :]
        ]
        cache.clear()
        cache[key] = (built, models)
    return built, models


def _trick_models(table: TableState) -> tuple[TrickRecord, ...]:
    """The models of the current hand's finished tricks (see ``_finished_tricks``)."""
    hand = table.game.hand if table.game else None
    if hand is None:
        return ()
    built, models = _finished_tricks(table, hand)
    models.extend(TrickRecord.model_validate(t) for t in built[len(models) :])
    return tuple(models)


def public_view(table: TableState) -> dict[str, Any]:
    """A spectator's view in its wire form: the part of every seat's view
    that is the same for all seats. ``wire_views`` and ``seat_view`` add one
    seat's private part; build this once when many views of one moment are
    needed (a fan-out, bots deciding). Never mutate it: its parts are shared
    (finished tricks are cached between views)."""
    game = table.game
    hand: Hand | None = game.hand if game else None
    n = table.players
    points = hand.points_taken() if hand is not None else None
    view = dict(_VIEW)
    view["table_id"] = table.table_id
    view["code"] = table.code
    view["name"] = table.name
    view["public"] = table.public
    view["rules"] = _rules_wire(table.rules)
    view["seq"] = table.seq
    view["host_seat"] = table.host_seat
    view["seats"] = [seat_info(table, i, points) for i in range(n)]
    view["status"] = table.status
    view["paused"] = table.is_paused()
    view["kicked"] = [{"player_id": pid, "name": name} for pid, name in table.kicked]
    view["approval"] = table.approval
    if game is not None:
        view["totals"] = list(game.totals)
        view["hands"] = [
            {
                "hand_number": k + 1,
                "points": list(pts),
                "shooter": game.shooters[k] if k < len(game.shooters) else None,
                "moon_choice": game.moon_choices[k] if k < len(game.moon_choices) else None,
            }
            for k, pts in enumerate(game.hand_scores)
        ]
        view["winner"] = game.winner
    if hand is not None and points is not None:
        playing = hand.phase is Phase.PLAY
        view["hand_number"] = hand.hand_number
        view["phase"] = hand.phase.value
        view["pass_direction"] = hand.direction
        view["turn"] = hand.turn if playing else None
        view["trick_leader"] = hand.leader if playing else None
        view["trick"] = _played(hand.leader, hand.trick, n)
        view["tricks"] = _tricks(table, hand)
        view["hearts_broken"] = hand.broken
        view["points_hand"] = points
        if hand.phase in (Phase.MOON_CHOICE, Phase.DONE):
            view["moon_shooter"] = hand.shooter
    return view


def seat_view(
    table: TableState, seat: int | None, public: dict[str, Any] | None = None
) -> SeatView:
    """Everything ``seat`` may know now (``None``: a spectator), as a model
    (validated from the wire form: what a bot gets is what a client would
    be sent). ``public`` is ``public_view(table)`` of this same moment, when
    the caller has it."""
    wire = wire_views(table, {seat}, public)[seat]
    # Validated, with what never changes given as models already (accepted
    # as they are: pydantic does not revalidate instances).
    wire["tricks"] = _trick_models(table)
    wire["rules"] = _rules_model(table.rules)
    return SeatView.model_validate(wire)


def wire_views(
    table: TableState, seats: set[int | None], public: dict[str, Any] | None = None
) -> dict[int | None, dict[str, Any]]:
    """The wire form (``SeatView.model_dump(mode="json")``) of each of
    ``seats``' views: the public part (``public_view``, built once) with the
    seat and its private part laid over a copy."""
    base = public if public is not None else public_view(table)
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        view = dict(base)
        view["seat"] = seat
        view.update(_private_part(table, seat))
        out[seat] = view
    return out


def _private_part(table: TableState, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` may see: its cards, its pass, what it received, its
    legal moves; the host also sees who knocks."""
    part: dict[str, Any] = {}
    if seat is None:
        return part
    if seat == table.host_seat and table.knocks:
        part["knocks"] = [{"player_id": pid, "name": name} for pid, name in table.knocks.items()]
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

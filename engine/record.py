"""Hand records: write a hand as JSON, read one back, replay and verify it.

The format is documented in docs/hand-record.md::

    {"rules": {...}, "hand": 1, "deal": [[13 cards], ...], "stock": [cards],
     "passes": [[3 cards], ...], "plays": ["2C", ...], "discard": [cards],
     "moon_choice": "add" | "subtract"}

(``stock`` only where the variant deals face-down cards, ``discard`` only in
Hearts with a widow once the widow's taker discarded; a record without
``rules.variant`` is the standard game.)

A record may be partial (passes missing or incomplete, fewer plays); a
replay stops where the record stops. The same replay restores a stored table
(``game_from_json``), so what the server persists is exactly what
``hearts verify`` checks.
"""

from __future__ import annotations

import functools
from typing import Any

from .cards import card, card_text, cards_of, mask_of
from .dealing import new_hand
from .errors import BadMoonChoice, RecordError, RuleViolation, WrongPhase
from .game import Game
from .hand import Hand, Phase
from .rules import Rules, RulesError


@functools.lru_cache(maxsize=256)
def _texts_of(masks: tuple[int | None, ...]) -> tuple[tuple[str, ...] | None, ...]:
    # A hand's deal and passes never change while it is played, and a
    # server writes its record with every commit: each is spelled out once.
    return tuple(None if m is None else tuple(card_text(c) for c in cards_of(m)) for m in masks)


def hand_record(hand: Hand) -> dict[str, Any]:
    """The JSON record of ``hand`` as far as it has been played."""
    rec: dict[str, Any] = {
        "rules": hand.rules.to_json(),
        "hand": hand.hand_number,
        "deal": [_listed(texts) or [] for texts in _texts_of(tuple(hand.dealt))],
    }
    if hand.rules.tables.stock_size:
        rec["stock"] = [card_text(c) for c in hand.dealt_stock]
    if _passes_recorded(hand):
        rec["passes"] = [_listed(texts) for texts in _texts_of(tuple(hand.passes))]
    rec["plays"] = [card_text(c) for c in hand.plays]
    _add_endings(rec, hand)
    return rec


def _add_endings(rec: dict[str, Any], hand: Hand) -> None:
    # The widow's discard and the shooter's choice, once they are made.
    if hand.discard is not None:
        rec["discard"] = [card_text(c) for c in cards_of(hand.discard)]
    if hand.rules.moon == "choice" and hand.moon_choice is not None:
        rec["moon_choice"] = hand.moon_choice


def _listed(texts: tuple[str, ...] | None) -> list[str] | None:
    return None if texts is None else list(texts)


def _passes_recorded(hand: Hand) -> bool:
    # A hold hand, a variant without passing and a hand nobody has passed in
    # yet have no "passes" field (docs/hand-record.md).
    return bool(hand.offset and hand.rules.pass_count) and any(p is not None for p in hand.passes)


_FIELDS = frozenset({"rules", "hand", "deal", "stock", "passes", "plays", "discard", "moon_choice"})


def _cards(value: object, what: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of cards")
    try:
        return [card(t) for t in value]
    except (ValueError, TypeError) as exc:
        raise RecordError(f"{what}: {exc}") from None


class Illegal(Exception):
    """A record step the rules refuse: where (``step``) and why."""

    def __init__(self, step: int | str, violation: RuleViolation) -> None:
        super().__init__(violation.message)
        self.step = step
        self.violation = violation


def replay(record: object) -> Hand:
    """Rebuild the hand a record describes, as far as it goes.

    Raises ``RecordError`` for a record that cannot be read and ``Illegal``
    (with the step) for the first move the rules refuse.
    """
    if not isinstance(record, dict):
        raise RecordError("a hand record must be a JSON object")
    unknown = sorted(set(record) - _FIELDS)
    if unknown:
        raise RecordError(f"unknown record field {unknown[0]!r}")
    hand = _dealt_hand(record)
    # Every field is read before the first move is replayed, so a record
    # that cannot be read is a RecordError, never a half-replayed Illegal.
    discard = record.get("discard")
    discard_cards = None if discard is None else _cards(discard, "discard")
    play_cards = _cards(record.get("plays", []), "plays")
    passes = _passes(record.get("passes"), hand.players)
    _replay_passes(hand, passes)
    _replay_plays(hand, play_cards, discard_cards)
    _replay_moon_choice(hand, record.get("moon_choice"))
    return hand


def _dealt_hand(record: dict[str, Any]) -> Hand:
    """The hand a record's rules, number, deal and stock make, before any move."""
    try:
        rules = Rules.from_json(record.get("rules"))
    except (RulesError, TypeError) as exc:
        raise RecordError(f"rules: {exc}") from None
    number = record.get("hand", 1)
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise RecordError("hand must be a positive integer")
    deal = record.get("deal")
    if not isinstance(deal, list):
        raise RecordError("deal must be a list of hands")
    stock_cards = _cards(record.get("stock", []), "stock")
    try:
        return new_hand(rules, number, [mask_of(_cards(h, "deal")) for h in deal], stock_cards)
    except ValueError as exc:
        raise RecordError(f"deal: {exc}") from None


def _passes(passes: object, players: int) -> list[list[int] | None]:
    if passes is None:
        return []
    if not isinstance(passes, list) or len(passes) > players:
        raise RecordError(f"passes must be a list of up to {players} entries")
    return [None if p is None else _cards(p, "passes") for p in passes]


def _replay_passes(hand: Hand, passes: list[list[int] | None]) -> None:
    for seat, cards in enumerate(passes):
        if cards is None:
            continue
        try:
            hand.pass_cards(seat, cards)
        except RuleViolation as exc:
            raise Illegal("pass", exc) from None


def _replay_plays(hand: Hand, plays: list[int], discard: list[int] | None) -> None:
    # The widow's discard comes between two plays: when the taker of the
    # widow's trick is known (docs/rules.md, Hearts with a widow).
    for k, c in enumerate(plays):
        if hand.phase is Phase.WIDOW and discard is not None:
            _discard(hand, discard)
            discard = None
        try:
            hand.play(hand.turn, c)
        except RuleViolation as exc:
            raise Illegal(k, exc) from None
    if discard is not None:
        if hand.phase is not Phase.WIDOW:
            raise Illegal("discard", WrongPhase("there is no widow to discard"))
        _discard(hand, discard)


def _replay_moon_choice(hand: Hand, choice: Any) -> None:
    if choice is None:
        return
    if hand.phase is Phase.MOON_CHOICE:
        try:
            hand.choose_moon(hand.shooter if hand.shooter is not None else 0, choice)
        except RuleViolation as exc:
            raise Illegal("moon_choice", exc) from None
    elif hand.phase is Phase.DONE and choice != hand.moon_choice:
        raise Illegal("moon_choice", BadMoonChoice("there is no moon choice to make"))


def _discard(hand: Hand, cards: list[int]) -> None:
    try:
        hand.discard_widow(hand.widow_seat if hand.widow_seat is not None else 0, cards)
    except RuleViolation as exc:
        raise Illegal("discard", exc) from None


def verify_record(record: object) -> dict[str, Any]:
    """The ``hearts verify`` answer for one record (see docs/hand-record.md).

    Raises ``RecordError`` for a record that cannot be read.
    """
    try:
        hand = replay(record)
    except Illegal as exc:
        return {"ok": False, "step": exc.step, "error": exc.violation.message}
    if hand.phase is Phase.DONE:
        return {"ok": True, "complete": True, "points": list(hand.scores or ())}
    out: dict[str, Any] = {"ok": True, "complete": False, "phase": hand.phase.value}
    if hand.phase is Phase.PLAY:
        out["to_move"] = hand.turn
        out["legal"] = [card_text(c) for c in hand.legal_cards()]
    elif hand.phase is Phase.MOON_CHOICE:
        out["to_move"] = hand.shooter
    elif hand.phase is Phase.WIDOW:
        out["to_move"] = hand.widow_seat
    return out


def game_to_json(game: Game) -> dict[str, Any]:
    """The whole game as JSON: rules, totals, past hand scores, current hand."""
    return {
        "rules": game.rules.to_json(),
        "totals": list(game.totals),
        "hand_scores": [list(s) for s in game.hand_scores],
        "shooters": list(game.shooters),
        "moon_choices": list(game.moon_choices),
        "winner": game.winner,
        "hand": hand_record(game.hand) if game.hand is not None else None,
    }


def game_from_json(data: dict[str, Any]) -> Game:
    """Rebuild a game stored with ``game_to_json`` (replays the current hand)."""
    game = Game(Rules.from_json(data["rules"]))
    game.totals = [int(t) for t in data["totals"]]
    game.hand_scores = [tuple(int(p) for p in s) for s in data["hand_scores"]]
    game.shooters = list(data.get("shooters") or [None] * len(game.hand_scores))
    game.moon_choices = list(data.get("moon_choices") or [None] * len(game.hand_scores))
    game.winner = data.get("winner")
    if data.get("hand") is not None:
        try:
            game.hand = replay(data["hand"])
        except Illegal as exc:
            raise RecordError(f"stored hand does not replay: {exc}") from None
    return game

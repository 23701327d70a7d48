"""Undo: a player alone with bots takes back their last card.

What players of card apps expect, and what this does:

* Only at a table where no other human plays (an away or covered human
  counts as playing): a take-back would change what another person saw and
  planned for.
* On your turn, after the bots replied: the table goes back to the moment
  before your last card of this hand, taking back your card and every bot
  card played since, across the end of a trick if it ended meanwhile (you
  are in every trick, so "only within the trick" would almost never apply).
  You may undo again, one card of yours at a time, back to your first card
  of the hand.
* Never into a finished hand: once a hand is scored its record and your
  statistics are written.
* Never back past face-down cards you have seen (the widow you took, cards
  you drew from the domino stock, the cancellation rest you took): they
  would go back face down knowing what they are, and another seat could
  take them. Face-down cards a bot took go back unseen (a widow a bot took
  is put back with its discard, the hand as it was before the first trick
  ended).

The hand record stays exact: the hand is rebuilt by replaying its record
(``engine.record.replay``) without the plays taken back, so the record of
the finished hand holds only the cards that stood. The table's event log
keeps the taken-back ``card_played`` events, followed by ``plays_undone``
(who, which cards) — the log is the history of what everyone was shown.
"""

from __future__ import annotations

from engine.cards import mask_of
from engine.hand import Hand, Phase
from engine.record import hand_record, replay
from engine.variant_hand import VariantHand

from . import logged_events as logged
from .errors import NotAllowed, NotNow
from .logged_events import Events
from .table_state import TableState


def play_seats(hand: Hand) -> list[int]:
    """The seat that played each card of ``hand.plays``, in order."""
    seats: list[int] = []
    for k in range(len(hand.history)):
        seats.extend(hand.trick_seats(k))
    seats.extend(hand.current_trick_seats())
    return seats


def _undoable(table: TableState, seat: int | None) -> tuple[int, Hand, int]:
    """``seat``, its hand and the index in ``hand.plays`` of its last card;
    ``NotAllowed`` or ``NotNow`` (nothing changed) when it may not undo."""
    if seat is None:
        raise NotAllowed("take a seat first")
    others = table.seats[:seat] + table.seats[seat + 1 :]
    if any(s.kind == "human" for s in others):
        raise NotAllowed("undo is only for a table where you play with bots alone")
    hand = table.game.hand if table.game is not None else None
    if table.status != "playing" or hand is None or hand.phase is not Phase.PLAY:
        raise NotNow("there is no card to take back now", "undo_no_card")
    if hand.turn != seat:
        raise NotNow(
            "wait for your turn: then your last card can be taken back", "undo_not_your_turn"
        )
    seats = play_seats(hand)
    if seat not in seats:
        raise NotNow("you have not played a card in this hand yet", "undo_nothing_played")
    return seat, hand, len(seats) - 1 - seats[::-1].index(seat)


def seen_face_down(hand: Hand, seat: int) -> int:
    """The face-down cards ``seat`` has seen in ``hand`` so far (a mask): the
    widow it took, the cards it drew from the stock, what lies face down in
    its taken pile (its widow discard, the cancellation rest)."""
    seen = hand.hidden_taken[seat]
    if hand.widow_seat == seat and hand.rules.tables.deal_kind == "widow":
        seen |= mask_of(hand.dealt_stock)
    if isinstance(hand, VariantHand):
        for drawer, cards in hand.draws:
            if drawer == seat:
                seen |= mask_of(cards)
    return seen


def undo(table: TableState, seat: int | None) -> Events:
    """Take back ``seat``'s last card of the hand and the cards after it."""
    seat, hand, at = _undoable(table, seat)
    record = hand_record(hand)
    taken_back = record["plays"][at:]
    record["plays"] = record["plays"][:at]
    record.pop("moon_choice", None)  # made only after the last trick: never here
    if hand.history and at < len(hand.history[0][1]):
        # Back into the first trick: the widow was not taken yet, so
        # neither was its discard (a record's discard follows that trick).
        record.pop("discard", None)
    rewound = replay(record)
    if seen_face_down(rewound, seat) != seen_face_down(hand, seat):
        raise NotNow(
            "you have seen cards that lay face down since then: they cannot go back; play on",
            "undo_face_down_seen",
        )
    if table.game is not None:  # it is: _undoable found its hand
        table.game.hand = rewound
    return [logged.PlaysUndone(seat=seat, cards=tuple(taken_back), trick=rewound.trick_index)]

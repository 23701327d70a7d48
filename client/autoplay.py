"""Deciding moves for a seat from its view: bots for ``--autoplay``.

The headless commands and the terminal UI's "autoplay" use the same bots the
server seats, through the same view a human client receives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from bots.api import decide_move, needs_decision
from protocol import client_messages as cm
from protocol.view import SeatView


@dataclass(frozen=True, slots=True)
class Move:
    """A move in wire terms."""

    kind: Literal["pass", "play", "discard", "moon", "ready"]
    cards: tuple[str, ...] = ()
    card: str = ""
    choice: str = ""

    def request(self, rid: str) -> cm.Request:
        """The client request that makes this move, with request id ``rid``."""
        if self.kind == "ready":
            return cm.Ready(id=rid)
        if self.kind == "pass":
            return cm.PassCards(id=rid, cards=self.cards)
        if self.kind == "discard":
            return cm.DiscardWidow(id=rid, cards=self.cards)
        if self.kind == "moon":
            return cm.MoonChoice(id=rid, choice="subtract" if self.choice == "subtract" else "add")
        return cm.PlayCard(id=rid, card=self.card)


def needs_move(view: SeatView) -> bool:
    """Whether the seat of ``view`` has something to decide now."""
    me = view.seat
    if me is None:
        return False
    if view.status == "between_hands":
        return not view.seats[me].ready
    return view.status == "playing" and needs_decision(view) is not None


def move_shown(view: SeatView, move: Move, hand_number: int) -> bool:
    """Whether ``view`` already shows the effect of ``move``, accepted during
    hand ``hand_number``. The reply to a move arrives before the snapshot
    that shows it, so snapshots queued before that one still ask for the
    move: a player must not act on them again."""
    if view.hand_number != hand_number:
        return True
    if move.kind == "ready":
        me = view.seat
        return view.status != "between_hands" or (me is not None and view.seats[me].ready)
    if move.kind == "pass":
        return view.phase != "pass" or bool(view.passed)
    if move.kind == "moon":
        return view.phase != "moon_choice"
    if move.kind == "discard":
        return view.phase != "widow"
    return move.card not in view.hand


def choose_move(view: SeatView, level: str, rng: random.Random, budget_ms: int = 900) -> Move:
    """The move the bot ``level`` makes for this view."""
    if view.status == "between_hands":
        return Move("ready")
    move = decide_move(view, level, rng, budget_ms)
    return Move(move.kind, cards=tuple(move.cards), card=move.card, choice=move.choice)

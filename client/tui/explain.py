"""Why a card cannot be played now, said before asking the server.

The view's ``legal`` list is the authority (the server computes it with the
engine); this module only picks the sentence that explains a card outside
it, following the order the engine checks in (engine/hand.py
``verify_play``): turn, first lead, hearts not broken, follow suit, first
trick points.
"""

from __future__ import annotations

from protocol.view import SeatView

from .cards import label, suit_of
from .i18n import Msg, Term

FIRST_LEAD = "2C"  # four players: the lowest club, always dealt


def play_refusal(view: SeatView, card: str, turn_name: str = "") -> Msg | None:
    """Why ``card`` may not be played now, or None when it may.

    ``turn_name`` is how to call the seat whose turn it is."""
    me = view.seat
    if view.status != "playing" or view.phase != "play" or me is None:
        if view.phase == "pass":
            return Msg("why.passing")
        return Msg("why.not_now")
    if view.turn != me:
        return Msg("why.not_your_turn", {"name": turn_name})
    if card not in view.hand:
        return Msg("why.not_held", {"card": label(card)})
    if card in view.legal:
        return None
    if not view.trick:
        if not view.tricks:
            return Msg("why.must_lead_first", {"card": label(FIRST_LEAD)})
        return Msg("why.hearts_not_broken")
    led = suit_of(view.trick[0].card)
    if any(suit_of(c) == led for c in view.hand):
        return Msg("why.must_follow", {"suit": Term("suits." + led)})
    if view.rules.first_trick == "no_queen":
        return Msg("why.first_trick_queen")
    return Msg("why.first_trick_points")


def pass_refusal(view: SeatView, picked: int) -> Msg | None:
    """Why the pass button does nothing yet, or None when it may pass."""
    k = view.rules.pass_count
    if view.phase != "pass" or view.passed:
        return Msg("why.no_pass_now")
    if picked != k:
        return Msg("why.pick_count", {"k": k, "n": picked})
    return None

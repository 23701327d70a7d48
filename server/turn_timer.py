"""A table's turn timer: the host's choice of seconds per move.

When a timed seat's time runs out, the seat's fallback bot makes that one
move (pass, play, widow discard or moon choice), as when a bot covers an
away player, and the player is told at once what it did (a ``bot_covered`` event, sent
to that seat alone). The seat stays the player's: only the move is made.

A seat's turn is identified by a ``TurnKey`` (the hand, the phase and, while
playing, how many cards the hand has seen played): a timer that fires for a
turn that has passed meanwhile is stale and does nothing. The timer runs
only for a connected human's seat at a table that is not paused; never for
bots, covered seats or away players (their grace countdown covers them).
"""

from __future__ import annotations

from engine.errors import ClientError

from . import logged_events as logged
from . import table_intents as intents
from .bot_runner import BotMove, move_value
from .logged_events import Events
from .table_state import TableState

TurnKey = tuple[int, str, int]
"""(hand number, phase, cards played so far this hand): one seat's turn."""


def timed_turns(state: TableState) -> dict[int, TurnKey]:
    """The seats whose move the turn timer times now, with their turn."""
    game = state.game
    if (
        state.turn_seconds is None
        or game is None
        or game.hand is None
        or state.status != "playing"
        or state.is_paused()
    ):
        return {}
    hand = game.hand
    waiting = hand.waiting_seats()
    key = (hand.hand_number, hand.phase.value, len(hand.plays))
    return {
        i: key
        for i in waiting
        if (s := state.seats[i]).kind == "human" and s.connected and not s.covering
    }


def timed_out_move(state: TableState, seat: int, key: TurnKey, move: BotMove) -> Events:
    """The fallback bot's ``move`` for ``seat`` whose time ran out on turn
    ``key``: played, and the player told, if that turn is still the seat's
    to make (otherwise nothing: the player moved in time)."""
    if timed_turns(state).get(seat) != key:
        return []
    try:
        events = intents.make_move(state, seat, move.kind, move_value(move))
    except ClientError:
        return []  # the turn moved on in a way the key did not see: nothing to do
    events.append(
        logged.BotCovered(
            seat=seat,
            played=(move.card,) if move.kind == "play" else (),
            passed=move.cards if move.kind == "pass" else (),
            moon_choice=move.choice if move.kind == "moon" else None,
            discarded=move.cards if move.kind == "discard" else (),
            timed_out=True,
            moves=(intents.covered_move(state, move.kind, move_value(move)),),
        )
    )
    return events

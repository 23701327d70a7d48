"""Claiming the rest: on your turn, claim every trick left. The server
checks the claim against every hand (``engine.claim``: it must hold whatever
the others play), and if it does, plays the hand out at once, so the hand
record stays a complete, replayable record: the claimant's cards on a line
that wins every trick, each other seat's first legal card in suit order
(clubs, diamonds, hearts, spades; any card of theirs loses every trick, so
which one changes no score). ``claim_made`` comes
first and says why the claim holds, for everyone at the table. Not at a
paused table (a program's claim while every person is away would play
their hands out without them).

A refused claim changes nothing and says only that it does not hold (or
cannot be proved yet), never which card defeats it: the claimant must not
learn the others' cards from it. Even so each refusal tells a little, and
each check costs up to ``engine.claim.DEFAULT_LIMIT`` positions on the
table's task, so after a refused claim a seat may claim again only from the
next trick on.
"""

from __future__ import annotations

from engine.cards import card_text
from engine.claim import ClaimTooEarly, check_claim, claim_play
from engine.hand import Phase

from . import logged_events as logged
from . import table_intents as intents
from .errors import ClaimRefused, NotAllowed, NotNow
from .logged_events import Events
from .table_state import TableState


def claim(table: TableState, seat: int | None) -> Events:
    """``seat`` claims every trick left: proved and played out, or refused."""
    if seat is None:
        raise NotAllowed("take a seat first")
    game = table.game
    hand = game.hand if game is not None else None
    if game is None or hand is None or table.status != "playing" or hand.phase is not Phase.PLAY:
        raise NotNow("there are no tricks to claim now", "claim_no_tricks")
    if hand.turn != seat:
        raise NotNow("claim on your turn", "claim_not_your_turn")
    if table.is_paused():
        # Only a program can ask at a paused table (no person is here): a
        # claim plays every hand out, the absent people's too.
        raise NotNow("the game is paused until a player comes back: claim then", "claim_paused")
    if not hand.rules.tables.fast:
        raise NotNow("claims are checked in games with one deck and no widow only", "claim_variant")
    moment = (hand.hand_number, hand.trick_index)
    if table.seats[seat].claim_refused == moment:
        raise ClaimRefused("your claim was refused in this trick: claim again from the next one")
    try:
        proof = check_claim(hand, seat)
    except ClaimTooEarly:
        table.seats[seat].claim_refused = moment
        raise ClaimRefused(
            "too many cards are left to check every way the others could play: play on a little"
        ) from None
    if proof is None:
        table.seats[seat].claim_refused = moment
        raise ClaimRefused("your claim does not hold: the others could still take a trick")
    events: Events = [logged.ClaimMade(seat=seat, tricks=proof.tricks, reason=proof.reason)]
    while game.hand is not None and game.hand.phase is Phase.PLAY:
        current = game.hand
        events += intents.play_card(table, current.turn, card_text(claim_play(current, seat)))
    return events

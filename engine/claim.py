"""Claims: does a seat win every remaining trick whatever the others play?

A small exact search over the cards left (every hand known, as the server
knows them). The claimant's turns are OR nodes (some card keeps every trick
theirs), the others' turns AND nodes (every legal card of theirs must fail
to win a trick). Two shortcuts keep real claims small:

* **Top cards**: at the claimant's lead, if every card the claimant holds
  is above every card the others hold in its suit, each lead wins and the
  claimant leads again: the claim holds without looking further. This is
  also the sentence players are shown ("holds the top cards").
* **Equivalent cards**: cards of one hand adjacent in a suit, with no card
  of another hand between them, win or lose the same tricks; only one is
  tried (a card that breaks hearts differently stands alone).

A search that would look at more than ``limit`` positions gives up
(``ClaimTooEarly``): the claim is then refused as too early to prove. Only
the standard path (``rules.tables.fast``) is searched; the variants with a
widow, a stock or two decks are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import SUIT_MASKS, cards_of, distinct_moves
from .hand import Hand, Phase

DEFAULT_LIMIT = 5_000
"""Positions a claim check may visit: about 30 ms at most, on the table's task
(real claims, late in a hand or with top cards, take well under 1 ms)."""

ClaimReason = Literal["top_cards", "every_line"]


class ClaimTooEarly(Exception):
    """Too many cards left to check every way the others could play."""


@dataclass(frozen=True, slots=True)
class ClaimProof:
    """A claim that holds: ``reason`` says why in players' words
    (``top_cards``: the claimant holds the top cards of every suit left to
    them; ``every_line``: every way the others can play was checked)."""

    seat: int
    tricks: int
    reason: ClaimReason


def _others(hand: Hand, seat: int) -> int:
    m = 0
    for s, h in enumerate(hand.hands):
        if s != seat:
            m |= h
    return m


def holds_top_cards(hand: Hand, seat: int) -> bool:
    """Every card ``seat`` holds is above every card the others hold in its suit."""
    mine, others = hand.hands[seat], _others(hand, seat)
    for suit_mask in SUIT_MASKS:
        m, o = mine & suit_mask, others & suit_mask
        if m and o and (m & -m).bit_length() < o.bit_length():
            return False  # our lowest card of the suit is below their highest
    return True


class _Search:
    def __init__(self, seat: int, limit: int) -> None:
        self.seat = seat
        self.limit = limit
        self.visited = 0
        self.memo: dict[tuple[object, ...], bool] = {}

    def holds(self, hand: Hand) -> bool:
        if hand.phase is not Phase.PLAY:
            return True  # every trick was ours
        seat = self.seat
        if hand.turn == seat and not hand.trick and holds_top_cards(hand, seat):
            return True
        key = (tuple(hand.hands), tuple(hand.trick), hand.turn, hand.broken)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.visited += 1
        if self.visited > self.limit:
            raise ClaimTooEarly
        mover = hand.turn
        # Cards of the other hands and of the trick lie "between" ours: a
        # card on the table may split two of ours into a loser and a winner.
        theirs = 0
        for s, h in enumerate(hand.hands):
            if s != mover:
                theirs |= h
        for c in hand.trick:
            theirs |= 1 << c
        loners = hand.rules.tables.breakers if not hand.broken else 0
        moves = distinct_moves(hand.legal_mask(), theirs, loners)
        if mover == seat:
            result = any(self._after(hand, c) for c in moves)
        else:
            result = all(self._after(hand, c) for c in moves)
        self.memo[key] = result
        return result

    def _after(self, hand: Hand, card: int) -> bool:
        child = hand.copy()
        tricks = len(child.history)
        child.apply_unchecked(card)
        if len(child.history) > tricks and child.history[-1][2] != self.seat:
            return False
        return self.holds(child)


def check_claim(hand: Hand, seat: int, limit: int = DEFAULT_LIMIT) -> ClaimProof | None:
    """A proof that ``seat`` wins every trick left of ``hand`` whatever the
    others play, or None when some way of theirs takes a trick. Raises
    ``ClaimTooEarly`` when the search would pass ``limit`` positions and
    ``ValueError`` when the hand is not being played or it is not ``seat``'s
    turn, or for a hand of a variant this search does not play."""
    if not hand.rules.tables.fast:
        raise ValueError("claims are checked for the standard deck only")
    if hand.phase is not Phase.PLAY or hand.turn != seat:
        raise ValueError("a claim is made on the claimant's turn during the play")
    tricks = hand.rules.tables.hand_size - hand.trick_index
    search = _Search(seat, limit)
    if not search.holds(hand):
        return None
    top = not hand.trick and holds_top_cards(hand, seat)
    return ClaimProof(seat, tricks, "top_cards" if top else "every_line")


def claim_play(hand: Hand, seat: int, limit: int = DEFAULT_LIMIT) -> int:
    """The claimant's next card on a line that keeps every trick theirs
    (their turn, a claim that holds); for the others' turns, their lowest
    legal card (any card of theirs loses every trick, so which one is played
    changes no score)."""
    legal = hand.legal_mask()
    if hand.turn != seat:
        return (legal & -legal).bit_length() - 1
    search = _Search(seat, limit)
    for c in cards_of(legal):
        if search._after(hand, c):
            return c
    raise ValueError("the claim does not hold")

"""The hand state machine's variant steps: widow, domino stock, two decks.

``VariantHand`` is the ``Hand`` of rules whose ``RuleTables.fast`` is false
(``engine.dealing`` builds it for them). It adds what is not
data (docs/rules.md "Variants"):

* **Face-down cards** (``stock``, top first) dealt apart from the hands.
* **The widow** (``deal_kind == "widow"``): after the first trick its winner
  takes the widow into its hand (phase WIDOW) and discards as many cards
  (``discard_widow``); the discard joins its taken pile, hidden from the
  others, and it leads the second trick.
* **The domino stock** (``"domino"``): a seat that cannot follow draws from
  the stock until it can (or the stock runs out) as its turn comes; a seat
  whose hand is empty drops out (tricks are played by the seats that still
  hold cards); when fewer than two seats hold cards, the last one takes
  what is unplayed (its hand and the stock) and the hand ends.
* **Two decks** (``"rest"``): identical cards in a trick cancel and cannot
  win it; a trick with no card of the led suit left standing is carried to
  the next trick's winner, its leader leading again; the face-down rest
  joins the first winner's taken pile.

The checked actions (``play``, ``discard_widow``) verify, apply and narrate
events like ``Hand``'s; ``apply_unchecked`` (``Hand``'s, then this class's
``_after_card``) / ``discard_unchecked`` are the search path. The standard
path in ``Hand`` never runs this code.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import ClassVar

from .cards import BASE_OF, RANK_OF, SUIT_OF, cards_of, mask_of
from .errors import BadDiscard, NotYourTurn, WrongPhase
from .events import (
    CardPlayed,
    CardsDrawn,
    Event,
    HeartsBroken,
    LeftoverTaken,
    RestTaken,
    SeatOut,
    TrickCarried,
    VariantTrickWon,
    WidowDiscarded,
    WidowTaken,
)
from .hand import Hand, Phase, _accepts
from .rules import Rules
from .seats import seat_name


def deal_variant(rules: Rules, hand_number: int, rng: random.Random) -> VariantHand:
    """Deal a hand of rules with a stock or two decks: one Fisher-Yates
    shuffle of the deck on ``rng.random()``; seat ``s`` takes block ``s``
    of ``hand_size`` cards and the stock is what is left, in shuffled order
    (its first card is the top)."""
    t = rules.tables
    deck = list(t.deck_cards)
    rnd = rng.random
    for i in range(len(deck) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    size = t.hand_size
    n = t.players
    hands = [mask_of(deck[s * size : s * size + size]) for s in range(n)]
    return VariantHand(rules, hand_number, hands, deck[n * size :])


def _cancelled(trick: list[int]) -> int:
    """Cancellation Hearts: two identical cards in a trick cancel each other
    (both as a mask)."""
    cancelled = 0
    seen: dict[int, int] = {}
    for c in trick:
        base = BASE_OF[c]
        if base in seen:
            cancelled |= 1 << c | 1 << seen[base]
        seen[base] = c
    return cancelled


def _winning_position(trick: list[int], cancelled: int) -> int:
    """The position of the highest uncancelled card of the led suit, -1
    when there is none."""
    led = SUIT_OF[trick[0]]
    best = -1
    at = -1
    for i, c in enumerate(trick):
        if SUIT_OF[c] == led and not cancelled >> c & 1 and RANK_OF[c] > best:
            best, at = RANK_OF[c], i
    return at


class VariantHand(Hand):
    """A hand of Hearts with a widow, a domino stock or two decks."""

    VARIANT_STEPS: ClassVar[bool] = True

    __slots__ = (
        "cancelled",
        "carried",
        "carried_taken",
        "draws",
        "history_seats",
        "leftover",
        "rest_taken",
        "trick_order",
    )

    stock: list[int]
    # the seats due to play the current trick, in order, from its leader
    trick_order: list[int]
    history_seats: list[tuple[int, ...]]
    # per finished trick: the mask of its cards that cancelled
    cancelled: list[int]
    # cards of winnerless tricks waiting for the next trick's winner
    carried: int
    # per finished trick: the carried cards its winner took along
    carried_taken: list[int]
    # every draw from the domino stock: (seat, cards drawn in order)
    draws: list[tuple[int, tuple[int, ...]]]
    # (seat, trick index) once the cancellation rest was taken
    rest_taken: tuple[int, int] | None
    # Domino: (seat, cards) taken when play ended
    leftover: tuple[int, int] | None

    def _setup(
        self, rules: Rules, hand_number: int, hands: list[int], stock: list[int] | None = None
    ) -> None:
        self.trick_order = []
        self.history_seats = []
        self.cancelled = []
        self.carried = 0
        self.carried_taken = []
        self.draws = []
        self.rest_taken = None
        self.leftover = None
        super()._setup(rules, hand_number, hands, stock)
        self.stock = list(self.dealt_stock)  # cards are taken from it
        t = rules.tables
        if t.rotating_lead:
            self.first_lead = -1
        else:
            # the lowest club dealt to a seat (2♣, or the next when it lies
            # face down), the first deck's copy before the second's
            held = 0
            for h in hands:
                held |= h
            self.first_lead = next(
                c
                for r in range(13)
                for c in ((r, r + 52) if t.decks == 2 else (r,))
                if held >> c & 1
            )
        if self.phase is Phase.PLAY:
            self._find_leader()

    def copy(self) -> VariantHand:
        """An independent copy (for search: make a move on the copy)."""
        new = super().copy()
        assert isinstance(new, VariantHand)  # copy() builds type(self)
        new.stock = self.stock[:]
        new.trick_order = self.trick_order[:]
        new.history_seats = self.history_seats[:]
        new.cancelled = self.cancelled[:]
        new.carried = self.carried
        new.carried_taken = self.carried_taken[:]
        new.draws = self.draws[:]
        new.rest_taken = self.rest_taken
        new.leftover = self.leftover
        return new

    # -- queries ---------------------------------------------------------

    def trick_seats(self, k: int) -> tuple[int, ...]:
        """The seats that played finished trick ``k``, in play order."""
        return self.history_seats[k]

    def current_trick_seats(self) -> tuple[int, ...]:
        """The seats that played to the trick in progress, in play order."""
        return tuple(self.trick_order[: len(self.trick)])

    def trick_cancelled(self, k: int) -> tuple[int, ...]:
        """The cards of finished trick ``k`` that cancelled."""
        return tuple(cards_of(self.cancelled[k]))

    def seats_in(self) -> list[int]:
        """Seats still holding cards (Domino Hearts: the others dropped out)."""
        return [s for s, h in enumerate(self.hands) if h]

    def points_taken(self) -> list[int]:
        """Raw points each seat has taken so far this hand (before moon)."""
        sp = self.rules.tables.suit_penalty
        out = []
        for m in self.taken:
            p = 0
            while m:
                p += (
                    sp[0][m & 0x1FFF]
                    + sp[1][m >> 13 & 0x1FFF]
                    + sp[2][m >> 26 & 0x1FFF]
                    + sp[3][m >> 39 & 0x1FFF]
                )
                m >>= 52  # the second deck's copies cost the same
            out.append(p)
        return out

    # -- playing ---------------------------------------------------------

    def _find_leader(self) -> None:
        if self.first_lead < 0:
            self._lead((self.hand_number - 1) % self.players)
            return
        bit = 1 << self.first_lead
        for seat, h in enumerate(self.hands):
            if h & bit:
                self._lead(seat)
                return

    def _lead(self, seat: int) -> None:
        n = self.players
        self.turn = self.leader = seat
        order = [seat]
        for i in range(1, n):
            s = (seat + i) % n
            if self.hands[s]:
                order.append(s)
        self.trick_order = order

    def play(self, seat: int, card: int) -> list[Event]:
        """Play ``card`` from ``seat``; returns what happened."""
        self.verify_play(seat, card)
        events: list[Event] = [CardPlayed(seat, card, self.trick_index)]
        was_broken = self.broken
        tricks = len(self.history)
        draws = len(self.draws)
        rest = self.rest_taken
        last_card = self.hands[seat].bit_count() == 1
        self.apply_unchecked(card)
        if self.broken and not was_broken:
            events.append(HeartsBroken(seat))
        if last_card and self.rules.tables.deal_kind == "domino":
            events.append(SeatOut(seat))
        events.extend(self._trick_event(k) for k in range(tricks, len(self.history)))
        events.extend(self._stock_events(rest is None, draws))
        events.extend(self._end_events())
        return events

    def _stock_events(self, rest_was_untaken: bool, draws: int) -> list[Event]:
        """What a card did to the face-down cards: the rest taken, the widow
        taken, Domino's draws (those from index ``draws`` on), the leftover."""
        events: list[Event] = []
        if self.rest_taken is not None and rest_was_untaken:
            events.append(RestTaken(self.rest_taken[0], self.dealt_stock))
        if self.phase is Phase.WIDOW and self.widow_seat is not None:
            events.append(WidowTaken(self.widow_seat, self.dealt_stock))
        events.extend(CardsDrawn(s, cards) for s, cards in self.draws[draws:])
        if self.leftover is not None and self.phase is not Phase.PLAY:
            events.append(LeftoverTaken(self.leftover[0], tuple(cards_of(self.leftover[1]))))
        return events

    def _trick_event(self, k: int) -> Event:
        """Finished trick ``k``: won (with what was carried into it), or
        carried on when every card of the led suit was cancelled."""
        leader, cards, winner = self.history[k]
        cancelled = tuple(cards_of(self.cancelled[k]))
        if winner < 0:
            return TrickCarried(k, leader, cards, self.history_seats[k], cancelled)
        penalty = self.rules.tables.penalty
        carried = cards_of(self.carried_taken[k])
        return VariantTrickWon(
            k,
            leader,
            winner,
            cards,
            sum(penalty[c] for c in cards) + sum(penalty[c] for c in carried),
            self.history_seats[k],
            cancelled,
            tuple(carried),
        )

    def _after_card(self, seat: int) -> None:
        if len(self.trick) < len(self.trick_order):
            self.turn = self.trick_order[len(self.trick)]
            if self.stock and self.rules.tables.deal_kind == "domino":
                self._draw_for(self.turn)
            return
        self._close_trick()

    def _draw_for(self, seat: int) -> None:
        # Domino: a seat that cannot follow draws until it can or the
        # stock is empty; the drawn cards are its own secret.
        led = self.rules.tables.suit_masks[SUIT_OF[self.trick[0]]]
        if self.hands[seat] & led:
            return
        drawn: list[int] = []
        while self.stock:
            c = self.stock.pop(0)
            self.hands[seat] |= 1 << c
            drawn.append(c)
            if led >> c & 1:
                break
        self.draws.append((seat, tuple(drawn)))

    def _close_trick(self) -> None:
        t = self.rules.tables
        trick = self.trick
        cancelled = _cancelled(trick) if t.decks == 2 else 0
        at = _winning_position(trick, cancelled)
        winner = self.trick_order[at] if at >= 0 else -1
        pile = mask_of(trick)
        self.history.append((self.leader, tuple(trick), winner))
        self.history_seats.append(tuple(self.trick_order))
        self.cancelled.append(cancelled)
        self.trick = []
        self.trick_index += 1
        if winner < 0:
            # Every card of the led suit cancelled: the trick is carried on.
            self.carried |= pile
            self.carried_taken.append(0)
            winner_or_leader = self.leader
        else:
            self.carried_taken.append(self.carried)
            self.taken[winner] |= pile | self.carried
            self.carried = 0
            if self.stock and t.deal_kind == "rest":
                self._take_rest(winner)
            winner_or_leader = winner
        if t.deal_kind == "widow" and self.trick_index == 1:
            self._take_widow(winner)
        elif t.deal_kind == "domino":
            self._after_domino_trick(winner_or_leader)
        elif self.trick_index == t.hand_size:
            self._close_last_trick()
        else:
            self._lead(winner_or_leader)

    def _take_widow(self, winner: int) -> None:
        # The first trick's winner takes the widow and discards before the
        # next lead (docs/rules.md, Hearts with a widow).
        self.widow_seat = winner
        self.hands[winner] |= mask_of(self.stock)
        self.stock = []
        self.phase = Phase.WIDOW
        self.turn = self.leader = winner
        self.trick_order = []

    def _after_domino_trick(self, winner_or_leader: int) -> None:
        # Domino Hearts: the hand ends when one seat (or none) holds cards;
        # it takes what is left. Otherwise the next seat with cards leads.
        holders = self.seats_in()
        if len(holders) < 2:
            last = holders[0] if holders else winner_or_leader
            rest = self.hands[last] | mask_of(self.stock)
            self.leftover = (last, rest)
            self.taken[last] |= rest
            self.hands[last] = 0
            self.stock = []
            self._finish()
            return
        n = self.players
        while not self.hands[winner_or_leader]:
            winner_or_leader = (winner_or_leader + 1) % n
        self._lead(winner_or_leader)

    def _close_last_trick(self) -> None:
        # Settled in docs/rules.md: a last trick nobody won, and a rest
        # nobody took, go to the last trick's leader.
        if self.carried:
            self.taken[self.leader] |= self.carried
            self.carried = 0
        if self.stock:
            self._take_rest(self.leader)
        self._finish()

    def _take_rest(self, seat: int) -> None:
        rest = mask_of(self.stock)
        self.taken[seat] |= rest
        self.hidden_taken[seat] |= rest
        self.stock = []
        self.rest_taken = (seat, self.trick_index - 1)

    # -- the widow -------------------------------------------------------

    def verify_discard(self, seat: int, cards: Iterable[int]) -> None:
        """Raise a ``RuleViolation`` unless ``seat`` may discard ``cards`` to
        its taken pile now (the widow's taker, as many cards as it took)."""
        self._check_seat(seat)
        if self.phase is not Phase.WIDOW:
            raise WrongPhase("there is no widow to discard")
        if seat != self.widow_seat:
            raise NotYourTurn(
                f"it is {seat_name(self.widow_seat or 0, self.players)}'s turn to discard"
            )
        self._check_held(seat, list(cards), len(self.dealt_stock), BadDiscard, "discard")

    def can_discard(self, seat: int, cards: Iterable[int]) -> bool:
        """Whether ``discard_widow(seat, cards)`` would be accepted."""
        return _accepts(self.verify_discard, seat, cards)

    def discard_widow(self, seat: int, cards: Iterable[int]) -> list[Event]:
        """The widow's taker discards ``cards``; it then leads trick 2."""
        cards = list(cards)
        self.verify_discard(seat, cards)
        self.discard_unchecked(mask_of(cards))
        return [WidowDiscarded(seat, tuple(sorted(cards)))]

    def discard_unchecked(self, discard: int) -> None:
        """The widow discard (a mask) without checks (search path)."""
        seat = self.widow_seat
        assert seat is not None  # only called in the WIDOW phase
        self.hands[seat] &= ~discard
        self.taken[seat] |= discard
        self.hidden_taken[seat] |= discard
        self.discard = discard
        self.phase = Phase.PLAY
        self._lead(seat)

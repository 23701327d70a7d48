"""The hand state machine: one deal from passing to the last trick.

Phases are data (``Phase``) and this module is the only one that moves a
hand between them::

      deal ──► PASS ──(every seat has locked its pass)──► PLAY ◄──► WIDOW
       │                                                   │   (widow variant:
       └──(hold hand: no passing)─────────────────────────►│    after trick 1)
                                                           │ 13 tricks (hand_size)
                        ┌──────────────────────────────────┤
                        ▼                                  ▼
              MOON_CHOICE ──(shooter chooses)──────────►  DONE

* PASS: seats lock their passes in any order and blind: nothing is exchanged
  until every seat has locked (docs/rules.md "A hand" 2). Then each seat receives
  what the seat ``offset`` places to its right passed, and the holder of the
  first-lead card (2♣) is to lead.
* PLAY: one card at a time from ``turn``. Legality is a bitmask: follow suit
  is ``hand & SUIT_MASKS[led]``; rules 5 and 6 remove banned cards unless
  nothing else is held.
* WIDOW: only in Hearts with a widow: the first trick's winner has taken
  the widow into its hand and discards as many cards (``discard``).
* MOON_CHOICE: only when the rules give the shooter the choice (moon =
  "choice"); the shooter says "add" (others +26) or "subtract" (itself -26).
* DONE: ``scores`` holds the hand's points per seat.

This class plays every variant whose rules are data alone (``RuleTables.
fast``: the standard game at 3-10 seats, Omnibus, Spot, Greek, Black
Maria). The widow, the domino stock and two decks' cancellations are
steps of ``engine.variant_hand.VariantHand``, a subclass;
``engine.dealing`` (``new_hand``, ``deal_hand``) builds whichever class the
rules need, so the standard path pays nothing for them. Both share the fields below; ``stock`` (face-down cards),
``hidden_taken`` (taken cards only their taker has seen) and ``widow_seat``
/ ``discard`` stay empty here.

For every action there is ``verify_…`` (raises a ``RuleViolation`` whose
sentence a player understands), ``can_…`` (a bool) and the action itself,
which verifies, applies and returns events. Search uses ``apply_unchecked``
and ``copy``, which skip validation and build no events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from .cards import (
    CARD_LIMIT,
    SUIT_NAMES,
    SUIT_OF,
    card_label,
    cards_of,
    mask_of,
)
from .errors import (
    BadMoonChoice,
    BadPass,
    CardNotHeld,
    FirstTrickPoints,
    HeartsNotBroken,
    MustFollowSuit,
    MustLeadFirstCard,
    NotYourTurn,
    RuleViolation,
    WrongPhase,
)
from .events import (
    CardPlayed,
    CardsPassed,
    Event,
    HandScored,
    HeartsBroken,
    MoonChoiceNeeded,
    PassLocked,
    PlayBegins,
    TrickWon,
)
from .rules import Rules, RuleTables, moon_scores
from .seats import seat_name

MOON_CHOICES = ("add", "subtract")


class Phase(StrEnum):
    """Where a hand is. The values are the wire names."""

    PASS = "pass"
    PLAY = "play"
    WIDOW = "widow"
    MOON_CHOICE = "moon_choice"
    DONE = "done"


def _check_deal(t: RuleTables, hands: Sequence[int], stock: Sequence[int]) -> None:
    """Raise ``ValueError`` unless ``hands`` and ``stock`` deal the rules'
    deck: each hand its size, every card once."""
    if len(hands) != t.players:
        raise ValueError(f"a deal needs {t.players} hands")
    seen = 0
    for h in hands:
        if h.bit_count() != t.hand_size:
            raise ValueError(f"each hand must hold {t.hand_size} cards")
        seen = _add_dealt(seen, h)
    if len(stock) != t.stock_size:
        raise ValueError(f"the stock must hold {t.stock_size} cards")
    for c in stock:
        seen = _add_dealt(seen, 1 << c)
    if seen != t.deck:
        raise ValueError("the deal does not use the rules' deck")


def _add_dealt(seen: int, cards: int) -> int:
    if cards & seen:
        raise ValueError("a card was dealt twice")
    return seen | cards


class Hand:
    """One hand of Hearts. Mutable; ``copy()`` is cheap."""

    __slots__ = (
        "broken",
        "dealt",
        "dealt_stock",
        "discard",
        "first_lead",
        "hand_number",
        "hands",
        "hidden_taken",
        "history",
        "leader",
        "moon_choice",
        "offset",
        "passes",
        "phase",
        "plays",
        "received",
        "rules",
        "scores",
        "shooter",
        "stock",
        "taken",
        "trick",
        "trick_index",
        "turn",
        "widow_seat",
    )

    # True on the subclass that plays the widow, the stock and two decks.
    VARIANT_STEPS: ClassVar[bool] = False

    rules: Rules
    hand_number: int
    offset: int
    dealt: tuple[int, ...]
    hands: list[int]
    passes: list[int | None]
    received: list[int]
    phase: Phase
    turn: int
    leader: int
    trick: list[int]
    trick_index: int
    broken: bool
    taken: list[int]
    history: list[tuple[int, tuple[int, ...], int]]
    plays: list[int]
    shooter: int | None
    moon_choice: str | None
    scores: tuple[int, ...] | None
    # Face-down cards, top first: the widow, the domino stock or the
    # cancellation rest until someone takes them (hidden from every seat).
    stock: Sequence[int]
    dealt_stock: tuple[int, ...]
    # The first trick's lead card (-1: the leader leads any card).
    first_lead: int
    # Per seat, the cards of its taken pile no other seat has seen (a widow
    # discard, a cancellation rest): redaction hides them from the others.
    hidden_taken: list[int]
    widow_seat: int | None
    discard: int | None

    def __init__(
        self, rules: Rules, hand_number: int, hands: Sequence[int], stock: Sequence[int] = ()
    ) -> None:
        """Start hand ``hand_number`` (1-based) from the given bitmask hands
        and the face-down ``stock`` (cards, top first) the variant deals.

        Raises ``ValueError`` when the hands are not a fair deal of the
        rules' deck.
        """
        t = rules.tables
        if not t.fast and not self.VARIANT_STEPS:
            # The widow, the stock and two decks are VariantHand's steps: a
            # plain Hand would play them wrongly (engine.dealing picks the class).
            raise ValueError(f"{rules.variant} needs engine.dealing.new_hand")
        if hand_number < 1:
            raise ValueError("hand numbers start at 1")
        _check_deal(t, hands, stock)
        self._setup(rules, hand_number, list(hands), list(stock))

    def _setup(
        self, rules: Rules, hand_number: int, hands: list[int], stock: list[int] | None = None
    ) -> None:
        t = rules.tables
        self.rules = rules
        self.hand_number = hand_number
        self.offset = rules.pass_offset(hand_number)
        self.dealt = tuple(hands)
        self.hands = hands
        # a tuple here: only VariantHand (which makes it a list) takes from it
        self.stock = self.dealt_stock = tuple(stock) if stock else ()
        self.first_lead = t.first_lead
        self.hidden_taken = [0] * t.players
        self.widow_seat = None
        self.discard = None
        self.passes = [None] * t.players
        self.received = [0] * t.players
        self.trick = []
        self.trick_index = 0
        self.broken = False
        self.taken = [0] * t.players
        self.history = []
        self.plays = []
        self.shooter = None
        self.moon_choice = None
        self.scores = None
        self.turn = self.leader = 0
        if self.offset == 0 or rules.pass_count == 0:
            self.phase = Phase.PLAY
            self._find_leader()
        else:
            self.phase = Phase.PASS

    @classmethod
    def deal(cls, rules: Rules, hand_number: int, rng: random.Random) -> Hand:
        """Deal a fresh hand with ``rng`` (inject a seeded ``random.Random``).

        A Fisher-Yates shuffle on ``rng.random()``: every deal equally likely
        (to float precision), the same deal for the same seed on any Python,
        and several times faster than ``random.shuffle``, which matters to the
        bots' search and the benchmarks that deal millions of hands. Each
        seat's cards are a block of the shuffled deck, so the shuffle stops
        once every block but the first is final: the first seat takes what
        is left without drawing (the same deal as the full shuffle, fewer
        random numbers), and the blocks are built as masks while shuffling.
        """
        t = rules.tables
        if not t.fast:
            raise ValueError(f"{rules.variant} needs engine.dealing.deal_hand")
        bits = list(t.deck_bits)
        rnd = rng.random
        hands = [0] * t.players
        rest = t.deck
        for seat, steps in t.deal_steps:
            m = 0
            for i, room in steps:
                # swap position i with a random j <= i; only the card that
                # lands on i matters, so the write back to i is skipped
                j = int(rnd() * room)
                m |= bits[j]
                bits[j] = bits[i]
            hands[seat] = m
            rest ^= m
        hands[0] = rest
        hand = object.__new__(cls)  # the standard path: no dispatch in __new__
        hand._setup(rules, hand_number, hands)  # a shuffle of the deck is a fair deal
        return hand

    def copy(self) -> Hand:
        """An independent copy (for search: make a move on the copy)."""
        new = object.__new__(type(self))
        new.rules = self.rules
        new.hand_number = self.hand_number
        new.offset = self.offset
        new.dealt = self.dealt
        new.stock = self.stock[:]  # a tuple's slice is itself: no copy
        new.dealt_stock = self.dealt_stock
        new.first_lead = self.first_lead
        new.hidden_taken = self.hidden_taken[:]
        new.widow_seat = self.widow_seat
        new.discard = self.discard
        new.hands = self.hands[:]
        new.passes = self.passes[:]
        new.received = self.received[:]
        new.phase = self.phase
        new.turn = self.turn
        new.leader = self.leader
        new.trick = self.trick[:]
        new.trick_index = self.trick_index
        new.broken = self.broken
        new.taken = self.taken[:]
        new.history = self.history[:]
        new.plays = self.plays[:]
        new.shooter = self.shooter
        new.moon_choice = self.moon_choice
        new.scores = self.scores
        return new

    # -- queries ---------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.tables.players

    @property
    def direction(self) -> str:
        """This hand's pass direction: left, right, across or hold."""
        return self.rules.pass_direction(self.hand_number) if self.offset else "hold"

    @property
    def led_suit(self) -> int | None:
        """The suit of the current trick, or None before its lead."""
        return SUIT_OF[self.trick[0]] if self.trick else None

    def receiver_of(self, seat: int) -> int:
        """Who receives ``seat``'s pass this hand."""
        return (seat + self.offset) % self.players

    def giver_to(self, seat: int) -> int:
        """Whose pass ``seat`` receives this hand."""
        return (seat - self.offset) % self.players

    def legal_mask(self, seat: int | None = None) -> int:
        """Cards ``seat`` (default: the seat to move) may play now; 0 if none."""
        if self.phase is not Phase.PLAY:
            return 0
        if seat is not None and seat != self.turn:
            return 0
        return self._legal(self.hands[self.turn])

    def legal_cards(self, seat: int | None = None) -> list[int]:
        """``legal_mask`` as a sorted list of cards."""
        return cards_of(self.legal_mask(seat))

    def _legal(self, h: int) -> int:
        # The mask test at the heart of the engine (docs/rules.md rules 3-6),
        # for two decks too (the tables' suit masks); with no first lead
        # card (Domino) the first leader leads anything.
        t = self.rules.tables
        if not self.trick:
            if self.trick_index == 0 and self.first_lead >= 0:
                return h & (1 << self.first_lead)
            if self.broken:
                return h
            safe = h & ~t.hearts
            return safe if safe else h
        follow = h & t.suit_masks[SUIT_OF[self.trick[0]]]
        if follow:
            return follow
        if self.trick_index == 0:
            safe = h & ~t.first_trick_banned
            if safe:
                return safe
        return h

    def legal_pass_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` may choose from for its pass (its hand), or []."""
        if not 0 <= seat < self.players or self.phase is not Phase.PASS:
            return []
        if self.passes[seat] is not None:
            return []
        return cards_of(self.hands[seat])

    def waiting_seats(self) -> list[int]:
        """The seats whose move the hand waits for: each seat yet to pass, the
        seat to play, the widow's taker to discard, the shooter to choose;
        none once the hand is over."""
        if self.phase is Phase.PASS:
            return [s for s, passed in enumerate(self.passes) if passed is None]
        if self.phase is Phase.PLAY:
            return [self.turn]
        if self.phase is Phase.WIDOW and self.widow_seat is not None:
            return [self.widow_seat]
        if self.phase is Phase.MOON_CHOICE and self.shooter is not None:
            return [self.shooter]
        return []

    def trick_seats(self, k: int) -> tuple[int, ...]:
        """The seats that played finished trick ``k``, in play order (every
        seat from its leader on; fewer where seats dropped out)."""
        leader = self.history[k][0]
        n = self.players
        return tuple((leader + i) % n for i in range(len(self.history[k][1])))

    def current_trick_seats(self) -> tuple[int, ...]:
        """The seats that played to the trick in progress, in play order."""
        n = self.players
        return tuple((self.leader + i) % n for i in range(len(self.trick)))

    def trick_cancelled(self, k: int) -> tuple[int, ...]:
        """The cards of finished trick ``k`` that cancelled (two decks only)."""
        return ()

    def points_taken(self) -> list[int]:
        """Raw points each seat has taken so far this hand (before moon)."""
        sp = self.rules.tables.suit_penalty
        return [
            sp[0][m & 0x1FFF] + sp[1][m >> 13 & 0x1FFF] + sp[2][m >> 26 & 0x1FFF] + sp[3][m >> 39]
            for m in self.taken
        ]

    # -- passing ---------------------------------------------------------

    def verify_pass(self, seat: int, cards: Iterable[int]) -> None:
        """Raise a ``RuleViolation`` unless ``seat`` may pass ``cards`` now."""
        self._check_seat(seat)
        if self.phase is not Phase.PASS:
            if self.offset == 0 or self.rules.pass_count == 0:
                raise WrongPhase("there is no passing this hand")
            raise WrongPhase("the cards have already been passed")
        if self.passes[seat] is not None:
            raise BadPass("you have already passed")
        self._check_held(seat, list(cards), self.rules.pass_count, BadPass, "pass")

    def _check_held(
        self, seat: int, cards: list[int], k: int, bad: type[RuleViolation], verb: str
    ) -> None:
        # ``k`` different cards that ``seat`` holds: a pass, a widow discard.
        if len(cards) != k:
            raise bad(f"{verb} exactly {k} cards")
        if len(set(cards)) != k:
            raise bad(f"{verb} {k} different cards")
        limit = self.rules.tables.card_limit
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < limit or not self.hands[seat] >> c & 1:
                raise CardNotHeld(f"you do not hold {_label(c, limit)}")

    def can_pass(self, seat: int, cards: Iterable[int]) -> bool:
        """Whether ``pass_cards(seat, cards)`` would be accepted."""
        return _accepts(self.verify_pass, seat, cards)

    def pass_cards(self, seat: int, cards: Iterable[int]) -> list[Event]:
        """Lock ``seat``'s pass; once every seat has, exchange and begin play."""
        cards = list(cards)
        self.verify_pass(seat, cards)
        self.passes[seat] = mask_of(cards)
        events: list[Event] = [PassLocked(seat)]
        if all(p is not None for p in self.passes):
            events.extend(self._exchange())
        return events

    def pass_all_unchecked(self, passes: Sequence[int]) -> None:
        """Exchange every seat's pass (bitmasks) at once without checks (search).

        The same exchange as ``_exchange`` without building events: the
        random-hand benchmark and search pass millions of times.
        """
        self.passes = list(passes)
        cut = len(passes) - self.offset
        # seat s receives from the seat ``offset`` places to its right
        got = [*passes[cut:], *passes[:cut]]
        self.received = got
        self.hands[:] = [h & ~p | g for h, p, g in zip(self.hands, passes, got, strict=True)]
        self.phase = Phase.PLAY
        self._find_leader()

    def _exchange(self) -> list[Event]:
        n = self.players
        passes = [p or 0 for p in self.passes]
        out: list[Event] = []
        for s in range(n):
            self.hands[s] &= ~passes[s]
        for s in range(n):
            to = (s + self.offset) % n
            self.hands[to] |= passes[s]
            self.received[to] = passes[s]
            out.append(CardsPassed(s, to, tuple(cards_of(passes[s]))))
        self.phase = Phase.PLAY
        out.append(self._begin_play())
        return out

    def _begin_play(self) -> PlayBegins:
        self._find_leader()
        return PlayBegins(self.turn)

    def _find_leader(self) -> None:
        # the holder of the first-lead card leads (no event: building a
        # frozen dataclass costs more than the search path can spare)
        bit = 1 << self.first_lead
        for seat, h in enumerate(self.hands):
            if h & bit:
                self.turn = self.leader = seat
                return

    # -- playing ---------------------------------------------------------

    def verify_play(self, seat: int, card: int) -> None:
        """Raise a ``RuleViolation`` unless ``seat`` may play ``card`` now."""
        self._check_seat(seat)
        if self.phase is not Phase.PLAY:
            raise WrongPhase(_PHASE_REFUSALS[self.phase])
        if seat != self.turn:
            raise NotYourTurn(f"it is {seat_name(self.turn, self.players)}'s turn")
        h = self.hands[seat]
        # CARD_LIMIT covers both decks; a one-deck hand never holds 52-103
        if not isinstance(card, int) or not 0 <= card < CARD_LIMIT or not h >> card & 1:
            raise CardNotHeld(f"you do not hold {_label(card, self.rules.tables.card_limit)}")
        if not self._legal(h) >> card & 1:
            raise self._refusal(h)

    def _refusal(self, h: int) -> RuleViolation:
        """Why a card held in ``h`` may not be played now (it is not legal)."""
        t = self.rules.tables
        if not self.trick:
            if self.trick_index == 0 and self.first_lead >= 0:
                return MustLeadFirstCard(
                    f"the first trick must be led with {card_label(self.first_lead)}"
                )
            return HeartsNotBroken("hearts are not broken yet")
        led = SUIT_OF[self.trick[0]]
        if h & t.suit_masks[led]:
            return MustFollowSuit(f"you must follow suit (you hold {SUIT_NAMES[led]})")
        return FirstTrickPoints(t.first_trick_refusal)

    def can_play(self, seat: int, card: int) -> bool:
        """Whether ``play(seat, card)`` would be accepted."""
        return _accepts(self.verify_play, seat, card)

    def play(self, seat: int, card: int) -> list[Event]:
        """Play ``card`` from ``seat``; returns what happened."""
        self.verify_play(seat, card)
        events: list[Event] = [CardPlayed(seat, card, self.trick_index)]
        was_broken = self.broken
        self.apply_unchecked(card)
        if self.broken and not was_broken:
            events.append(HeartsBroken(seat))
        if not self.trick or self.phase is not Phase.PLAY:
            leader, cards, winner = self.history[-1]
            events.append(
                TrickWon(
                    len(self.history) - 1,
                    leader,
                    winner,
                    cards,
                    sum(self.rules.tables.penalty[c] for c in cards),
                )
            )
            events.extend(self._end_events())
        return events

    def _end_events(self) -> list[Event]:
        """What the last trick led to: a moon choice to make, or the score."""
        if self.phase is Phase.MOON_CHOICE:
            assert self.shooter is not None  # set with the phase, never by a client
            return [MoonChoiceNeeded(self.shooter)]
        if self.phase is Phase.DONE:
            return [self._scored()]
        return []

    def apply_unchecked(self, card: int) -> None:
        """Play ``card`` for the seat to move without any check (search path)."""
        seat = self.turn
        bit = 1 << card
        self.hands[seat] ^= bit
        self.plays.append(card)
        self.trick.append(card)
        if not self.broken and bit & self.rules.tables.breakers:
            self.broken = True
        self._after_card(seat)

    def _after_card(self, seat: int) -> None:
        # The next seat to play, or the trick closed (``VariantHand`` closes
        # its tricks its own way; the card itself is taken the same).
        n = self.players
        if len(self.trick) < n:
            self.turn = (seat + 1) % n
            return
        trick = self.trick
        led = SUIT_OF[trick[0]]
        best, at = trick[0], 0
        for i in range(1, n):
            c = trick[i]
            if c > best and SUIT_OF[c] == led:
                best, at = c, i
        winner = (self.leader + at) % n
        self.taken[winner] |= mask_of(trick)
        self.history.append((self.leader, tuple(trick), winner))
        self.trick = []
        self.trick_index += 1
        self.turn = self.leader = winner
        if self.trick_index == self.rules.tables.hand_size:
            self._finish()

    def _finish(self) -> None:
        t = self.rules.tables
        moon = t.moon_cards
        self.shooter = (
            next((s for s, m in enumerate(self.taken) if m & moon == moon), None) if moon else None
        )
        if self.shooter is not None and self.rules.moon == "choice":
            self.phase = Phase.MOON_CHOICE
            return
        self.moon_choice = self.rules.moon if self.shooter is not None else None
        self._score()

    def _score(self) -> None:
        raw = self.points_taken()
        if self.shooter is not None and self.moon_choice is not None:
            raw = moon_scores(raw, self.shooter, self.rules.tables, self.moon_choice)
        self.scores = tuple(raw)
        self.phase = Phase.DONE

    def _scored(self) -> HandScored:
        assert self.scores is not None  # _score() ran: the phase is DONE
        return HandScored(self.hand_number, self.scores, self.shooter, self.moon_choice)

    # -- the widow (engine.variant_hand plays it) ------------------------

    def verify_discard(self, seat: int, cards: Iterable[int]) -> None:
        """Raise a ``RuleViolation`` unless ``seat`` may discard ``cards`` now
        (only the widow's taker may, in Hearts with a widow)."""
        self._check_seat(seat)
        raise WrongPhase("there is no widow to discard")

    def can_discard(self, seat: int, cards: Iterable[int]) -> bool:
        """Whether ``discard_widow(seat, cards)`` would be accepted."""
        return _accepts(self.verify_discard, seat, cards)

    def discard_widow(self, seat: int, cards: Iterable[int]) -> list[Event]:
        """The widow's taker discards; refused outside Hearts with a widow."""
        self.verify_discard(seat, cards)
        return []  # pragma: no cover - verify_discard always raises here

    def discard_unchecked(self, discard: int) -> None:
        """The widow discard (a mask) without checks (search path); only
        ``VariantHand`` has a widow."""
        raise WrongPhase("there is no widow to discard")

    # -- the moon choice -------------------------------------------------

    def verify_moon_choice(self, seat: int, choice: str) -> None:
        """Raise unless ``seat`` may choose ``choice`` ("add" or "subtract")."""
        self._check_seat(seat)
        if self.phase is not Phase.MOON_CHOICE:
            raise BadMoonChoice("there is no moon choice to make")
        if seat != self.shooter:
            raise BadMoonChoice("only the player who shot the moon chooses")
        if choice not in MOON_CHOICES:
            raise BadMoonChoice("choose add (others +26) or subtract (you -26)")

    def can_choose_moon(self, seat: int, choice: str) -> bool:
        """Whether ``choose_moon(seat, choice)`` would be accepted."""
        return _accepts(self.verify_moon_choice, seat, choice)

    def choose_moon(self, seat: int, choice: str) -> list[Event]:
        """The shooter's choice: "add" (others +26) or "subtract" (self -26)."""
        self.verify_moon_choice(seat, choice)
        self.moon_choice = choice
        self._score()
        return [self._scored()]

    # -- helpers ---------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RuleViolation("there is no such seat")


_PHASE_REFUSALS = {
    Phase.PASS: "cards are being passed; play starts after the pass",
    Phase.WIDOW: "the widow's taker is discarding",
    Phase.MOON_CHOICE: "the hand is over; the moon shooter is choosing the scoring",
    Phase.DONE: "the hand is over",
}


def _label(c: object, limit: int = 52) -> str:
    # a card of these rules (``limit``: 52, or 104 with two decks) by its label
    return card_label(c) if isinstance(c, int) and 0 <= c < limit else "that card"


def _accepts(verify: Callable[..., None], *args: Any) -> bool:
    try:
        verify(*args)
    except RuleViolation:
        return False
    return True

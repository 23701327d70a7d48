"""What one seat knows, as bitmasks: the ``SeatView`` turned into ints once.

Every bot starts a decision by building a ``Knowledge`` from its view. Nothing
here looks anywhere but the view, so whatever a bot derives from it is a fair
inference a human at the same seat could make:

* ``played``: every card on the table or in a finished trick;
* ``known[s]``: cards seat ``s`` surely holds (the cards we passed to it that
  it has not played yet);
* ``allowed[s]``: cards seat ``s`` may still hold. It starts as every unseen
  card and shrinks with each inference:

  - a seat that did not follow the led suit holds none of it (a void);
  - a seat that led a heart before hearts were broken held only hearts
    (docs/rules.md rule 6: otherwise the lead would have been refused);
  - a seat that discarded a first-trick-banned card (a heart or Q♠ under the
    standard rules) on the first trick held nothing but banned cards (rule 5).

  Hands only shrink during play, so a restriction learnt at one trick still
  holds for the rest of the hand.

* ``likely[s]``: ``allowed[s]`` narrowed by what a careful player's play
  suggests, not proves: a seat that discarded another card while void in
  the led suit, or played under A♠/K♠ without dropping Q♠, probably has no
  Q♠ (anyone sensible gets rid of it there). Hard samples from ``likely``
  and falls back to ``allowed`` when the two disagree with the counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import HEARTS_MASK, QUEEN_SPADES, SUIT_MASKS, SUIT_OF, card
from protocol.view import SeatView

from .rulebook import QS_BIT, Rulebook


def mask_of_texts(texts: tuple[str, ...] | list[str]) -> int:
    """The bitmask of a list of card texts (``"QS"``)."""
    m = 0
    for t in texts:
        m |= 1 << card(t)
    return m


@dataclass(slots=True)
class Knowledge:
    """One seat's knowledge of the current hand, as ints and bitmasks."""

    seat: int
    players: int
    rules: Rulebook
    phase: str | None
    hand_number: int
    pass_direction: str | None
    hand: int
    legal: int
    passed: int
    passed_to: int | None
    received: int
    received_from: int | None
    played: int
    trick: list[int]
    trick_leader: int
    turn: int | None
    trick_index: int
    broken: bool
    taken: list[int]
    points: list[int]
    cards_left: list[int]
    known: list[int]
    allowed: list[int]
    likely: list[int]
    totals: list[int]
    moon_shooter: int | None
    # Face-down cards no seat holds: the widow before the first trick ends,
    # the domino stock, the cancellation rest before a trick is won.
    stock: int = 0
    # Per seat, how many cards its taken pile holds that we never saw (the
    # widow discard, the cancellation rest); our own are in ``own_hidden``.
    hidden: list[int] = field(default_factory=list)
    # Cards of our own taken pile the others never saw (our widow discard,
    # the rest we took): not unseen to us, so never sampled.
    own_hidden: int = 0
    # Cards of finished tricks nobody won (Cancellation Hearts), waiting for
    # the next trick's winner.
    carried: int = 0
    # The seats that played to the current trick, in order (Domino Hearts:
    # seats that dropped out are skipped).
    trick_seats: list[int] = field(default_factory=list)

    @property
    def unseen(self) -> int:
        """Cards we have not seen: in the other seats' hands, the stock or
        their hidden taken cards (neither ours nor played)."""
        return self.rules.deck & ~self.hand & ~self.played & ~self.own_hidden

    @property
    def position(self) -> int:
        """How many cards are already in the current trick."""
        return len(self.trick)

    def void_suits(self, seat: int) -> list[int]:
        """Suits ``seat`` is known to hold none of (among still-unseen cards)."""
        unseen = self.unseen
        return [
            s for s in range(4) if unseen & SUIT_MASKS[s] and not self.allowed[seat] & SUIT_MASKS[s]
        ]


class _Reading:
    """What the tricks so far say about the hidden hands, read card by card:
    the cards each seat may hold (``allowed``), those it likely holds
    (``likely``), what each took, what was played, whether hearts broke."""

    def __init__(self, t: Rulebook, seat: int, hand: int, own_hidden: int) -> None:
        n = t.players
        self.t = t
        self.allowed = [t.deck & ~hand & ~own_hidden for _ in range(n)]
        self.allowed[seat] = hand
        self.likely = self.allowed[:]
        self.taken = [0] * n
        self.played = 0
        self.broken = False
        self.two_decks = t.decks == 2
        self.hearts = HEARTS_MASK | (HEARTS_MASK << 52 if self.two_decks else 0)
        # Domino Hearts: a seat may draw any card later, so a heart lead says
        # nothing lasting about the rest of its hand. (A void stays: a seat
        # that cannot follow draws until it can, so it shows a void only
        # once the stock is empty.)
        self.lead_inference = t.deal_kind != "domino"

    def read_trick(
        self, index: int, plays: list[tuple[int, int]], winner: int | None, carried_in: int
    ) -> None:
        """Trick ``index``'s plays (seat, card), in order; its winner takes
        its cards and those carried into it."""
        trick_mask = 0
        led = -1
        top = -1
        for pos, (s, c) in enumerate(plays):
            bit = 1 << c
            queen_out = not (self.played | trick_mask) & QS_BIT
            trick_mask |= bit
            if pos == 0:
                led = SUIT_OF[c]
                top = c
                self._read_lead(index, s, bit)
            elif SUIT_OF[c] != led:
                self._read_discard(index, s, c, led, queen_out)
            else:
                if queen_out and top > QUEEN_SPADES and c < QUEEN_SPADES:
                    self.likely[s] &= ~QS_BIT  # it would have dropped the queen under A/K
                top = max(top, c)
            # The engine breaks hearts the moment a breaker is played; only
            # the next lead can notice, so tracking it per card is exact.
            if bit & self.t.breakers:
                self.broken = True
        self.played |= trick_mask
        if winner is not None:
            self.taken[winner] |= trick_mask | carried_in

    def read_pass(self, view: SeatView, passed: int) -> list[int]:
        """After the tricks: where the seat's own pass went. The cards each
        seat is known to hold (the receiver's, unless hidden away)."""
        n, seat = self.t.players, view.seat
        known = [0] * n
        to = view.passed_to
        if to is not None and view.phase != "pass":
            if view.seats[to].hidden_taken:
                # The widow's taker may have put our cards face down: they
                # lie in its hand or its hidden pile, nowhere else.
                for s in range(n):
                    if s != to and s != seat:
                        self.allowed[s] &= ~passed
                        self.likely[s] &= ~passed
            else:
                known[to] = passed & ~self.played
        for s in range(n):
            if s != seat:
                self.allowed[s] = (self.allowed[s] & ~self.played) | known[s]
                self.likely[s] = (self.likely[s] & self.allowed[s]) | known[s]
        return known

    def _read_lead(self, index: int, s: int, bit: int) -> None:
        # Leading a heart before hearts broke: the seat holds only hearts.
        if self.lead_inference and index > 0 and not self.broken and bit & self.hearts:
            self.allowed[s] &= self.hearts

    def _read_discard(self, index: int, s: int, c: int, led: int, queen_out: bool) -> None:
        # Not following: void in the led suit; on the first trick a banned
        # card means nothing else was left.
        led_mask = SUIT_MASKS[led] | (SUIT_MASKS[led] << 52 if self.two_decks else 0)
        self.allowed[s] &= ~led_mask
        banned = self.t.first_trick_banned
        if index == 0 and (1 << c) & banned:
            self.allowed[s] &= banned
        if queen_out and c != QUEEN_SPADES and not (index == 0 and banned & QS_BIT):
            self.likely[s] &= ~QS_BIT  # it would have dumped the queen


def _read_tricks(reading: _Reading, view: SeatView) -> list[tuple[int, int]]:
    """Read the hand's finished tricks and the current one into
    ``reading``; the current trick's plays (seat, card)."""
    for index, trick in enumerate(view.tricks):
        plays = [(p.seat, card(p.card)) for p in trick.cards]
        reading.read_trick(index, plays, trick.winner, mask_of_texts(trick.carried_in))
    current = [(p.seat, card(p.card)) for p in view.trick]
    if current or view.trick_leader is not None:
        reading.read_trick(len(view.tricks), current, None, 0)
    return current


def _per_seat(values: tuple[int, ...], players: int) -> list[int]:
    """A view's per-seat figures, or a zero per seat when it has none yet."""
    return list(values) if values else [0] * players


def knowledge_of(view: SeatView) -> Knowledge:
    """Turn a seat's view into bitmasks and inferences (see the module doc).

    Raises ``ValueError`` for a spectator's view (no seat).
    """
    if view.seat is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    rules = Rulebook.from_model(view.rules)
    t = rules
    n = t.players
    seat = view.seat
    hand = mask_of_texts(view.hand)
    own_hidden = mask_of_texts(view.hidden_taken)
    reading = _Reading(t, seat, hand, own_hidden)
    current = _read_tricks(reading, view)
    passed = mask_of_texts(view.passed)
    received = mask_of_texts(view.received)
    known = reading.read_pass(view, passed)
    allowed, likely, played = reading.allowed, reading.likely, reading.played
    taken, broken = reading.taken, reading.broken
    cards_left = [info.cards_left for info in view.seats]
    return Knowledge(
        seat=seat,
        players=n,
        rules=rules,
        phase=view.phase,
        hand_number=view.hand_number,
        pass_direction=view.pass_direction,
        hand=hand,
        legal=mask_of_texts(view.legal),
        passed=passed,
        passed_to=view.passed_to,
        received=received,
        received_from=view.received_from,
        played=played,
        trick=[c for _, c in current],
        trick_seats=[s for s, _ in current],
        stock=view.stock_count,
        hidden=[0 if info.seat == seat else info.hidden_taken for info in view.seats],
        own_hidden=own_hidden,
        carried=mask_of_texts(view.carried),
        trick_leader=view.trick_leader if view.trick_leader is not None else 0,
        turn=view.turn,
        trick_index=len(view.tricks),
        broken=view.hearts_broken or broken,
        taken=taken,
        points=_per_seat(view.points_hand, n),
        cards_left=cards_left,
        known=known,
        allowed=allowed,
        likely=likely,
        totals=_per_seat(view.totals, n),
        moon_shooter=view.moon_shooter,
    )

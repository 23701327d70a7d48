"""A slow reference of the rules, written from docs/rules.md alone.

It shares no code with the engine: cards are their two-letter texts, hands
are sets of texts, and everything is recomputed from the list of plays. The
property tests compare the engine's bitmask answers with these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

RANKS = "23456789TJQKA"
SUITS = "CDHS"
QUEEN = "QS"


def rank(text: str) -> int:
    return RANKS.index(text[0])


def deck(players: int) -> list[str]:
    """docs/rules.md "Seat counts": 3 players lose 2♦, 5 lose 2♣ 2♦, 6 lose 2♣ 2♦
    3♣ 3♦, 7 lose 2♦ 2♣ 3♦, 8 lose 2♦ 2♣ 3♦ 3♣, 9 lose 2♦ 2♣ 3♦ 3♣ 4♦ 4♣ 5♦,
    10 lose 2♦ 2♣."""
    removed = {
        3: {"2D"},
        4: set(),
        5: {"2C", "2D"},
        6: {"2C", "2D", "3C", "3D"},
        7: {"2D", "2C", "3D"},
        8: {"2D", "2C", "3D", "3C"},
        9: {"2D", "2C", "3D", "3C", "4D", "4C", "5D"},
        10: {"2D", "2C"},
    }[players]
    return [r + s for s in SUITS for r in RANKS if r + s not in removed]


def first_lead(players: int) -> str:
    """The lowest club in the deck leads (2♣, or 3♣/4♣ when removed)."""
    return min((c for c in deck(players) if c[1] == "C"), key=rank)


def receiver(seat: int, direction: str, players: int) -> int:
    """docs/rules.md "Seats and direction": left = next seat, right = previous,
    across = the seat opposite ((i + 2) % 4 with four players; half the table
    in general, which docs/rules.md does not spell out for six)."""
    step = {"left": 1, "right": -1, "across": players // 2, "hold": 0}[direction]
    return (seat + step) % players


@dataclass
class RefOptions:
    players: int = 4
    first_trick: str = "no_points"
    queen_breaks_hearts: bool = False
    moon: str = "add"
    bonus_card: str | None = None


@dataclass
class RefState:
    """The play phase replayed from the hands after passing and the plays."""

    options: RefOptions
    hands: list[set[str]]
    taken: list[list[str]] = field(default_factory=list)
    tricks: list[tuple[int, list[str], int]] = field(default_factory=list)  # leader, cards, winner
    current: list[str] = field(default_factory=list)
    plays: list[str] = field(default_factory=list)
    leader: int = 0
    turn: int = 0

    @property
    def done(self) -> bool:
        return all(not h for h in self.hands)

    def hearts_broken(self) -> bool:
        """A heart (or Q♠ with the option) in an *earlier* trick."""
        for _, cards, _ in self.tricks:
            for c in cards:
                if c[1] == "H" or (c == QUEEN and self.options.queen_breaks_hearts):
                    return True
        return False

    def legal(self) -> set[str]:
        """docs/rules.md "A hand" 3-6."""
        hand = self.hands[self.turn]
        trick_no = len(self.tricks)
        if not self.current:
            if trick_no == 0:
                lead = first_lead(self.options.players)
                return {lead} & hand
            if self.hearts_broken():
                return set(hand)
            not_hearts = {c for c in hand if c[1] != "H"}
            return not_hearts if not_hearts else set(hand)
        led = self.current[0][1]
        follow = {c for c in hand if c[1] == led}
        if follow:
            return follow
        if trick_no == 0:
            rule = self.options.first_trick
            if rule == "no_points":
                banned = {c for c in hand if c[1] == "H" or c == QUEEN}
            elif rule == "no_queen":
                banned = {QUEEN} & hand
            else:
                banned = set()
            if hand - banned:
                return hand - banned
        return set(hand)

    def play(self, text: str) -> None:
        """Apply a play; the caller checks legality with ``legal``."""
        self.hands[self.turn].remove(text)
        self.current.append(text)
        self.plays.append(text)
        n = self.options.players
        if len(self.current) < n:
            self.turn = (self.turn + 1) % n
            return
        led = self.current[0][1]
        best = max((c for c in self.current if c[1] == led), key=rank)
        winner = (self.leader + self.current.index(best)) % n
        self.tricks.append((self.leader, self.current, winner))
        self.taken[winner].extend(self.current)
        self.current = []
        self.leader = self.turn = winner

    def raw_points(self) -> list[int]:
        """Hearts 1, Q♠ 13, the bonus card -10."""
        out = []
        for pile in self.taken:
            p = sum(1 for c in pile if c[1] == "H") + (13 if QUEEN in pile else 0)
            if self.options.bonus_card is not None and self.options.bonus_card in pile:
                p -= 10
            out.append(p)
        return out

    def shooter(self) -> int | None:
        for seat, pile in enumerate(self.taken):
            if QUEEN in pile and sum(1 for c in pile if c[1] == "H") == 13:
                return seat
        return None

    def points(self, choice: str | None = None) -> list[int]:
        """docs/rules.md 8-9 and the moon option: add = others +26, subtract = shooter -26."""
        pts = self.raw_points()
        shooter = self.shooter()
        if shooter is None:
            return pts
        how = self.options.moon if self.options.moon != "choice" else choice
        assert how in ("add", "subtract")
        pts[shooter] -= 26
        if how == "add":
            pts = [p + 26 if s != shooter else p for s, p in enumerate(pts)]
        else:
            pts[shooter] -= 26
        return pts


def start(options: RefOptions, hands: Sequence[set[str]]) -> RefState:
    """The play phase from the hands after passing: the first-lead holder leads."""
    lead = first_lead(options.players)
    leader = next(s for s, h in enumerate(hands) if lead in h)
    return RefState(
        options=options,
        hands=[set(h) for h in hands],
        taken=[[] for _ in hands],
        leader=leader,
        turn=leader,
    )

"""A whole game: hands in sequence, running totals, the end and the winner.

``Game`` owns a ``Hand`` at a time and adds what lies between hands (docs/rules.md
"A hand" 10 and the "end of game" option): after each hand the totals grow;
the game ends when the end condition holds *and* exactly one seat has the
lowest total; a tie for the lowest total plays another hand, whatever the end
condition (points or a fixed number of hands).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .dealing import deal_hand, new_hand
from .errors import WrongPhase
from .events import Event, GameOver, HandDealt, HandScored, PlayBegins
from .hand import Hand, Phase
from .rules import Rules


class Game:
    """A game of several hands. Mutable; the server keeps one per table."""

    __slots__ = ("hand", "hand_scores", "moon_choices", "rules", "shooters", "totals", "winner")

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.totals: list[int] = [0] * self.rules.players
        self.hand_scores: list[tuple[int, ...]] = []
        self.shooters: list[int | None] = []
        self.moon_choices: list[str | None] = []
        self.hand: Hand | None = None
        self.winner: int | None = None

    @property
    def over(self) -> bool:
        """Whether the game has a winner."""
        return self.winner is not None

    @property
    def hand_number(self) -> int:
        """The 1-based number of the current (or last) hand; 0 before any."""
        return self.hand.hand_number if self.hand else 0

    def can_start_hand(self) -> bool:
        """Whether a new hand may be dealt now."""
        return not self.over and (self.hand is None or self.hand.phase is Phase.DONE)

    def verify_start_hand(self) -> None:
        """Raise ``WrongPhase`` unless a new hand may be dealt."""
        if self.over:
            raise WrongPhase("the game is over")
        if self.hand is not None and self.hand.phase is not Phase.DONE:
            raise WrongPhase("the hand is still being played")

    def start_hand(
        self,
        rng: random.Random | None = None,
        hands: Sequence[int] | None = None,
        stock: Sequence[int] = (),
    ) -> list[Event]:
        """Deal the next hand from ``rng`` or from the given ``hands`` (and,
        where the variant deals one, the face-down ``stock``, top first)."""
        self.verify_start_hand()
        number = self.hand_number + 1
        if hands is not None:
            self.hand = new_hand(self.rules, number, hands, stock)
        else:
            if rng is None:
                raise ValueError("start_hand needs a seeded rng or the hands")
            self.hand = deal_hand(self.rules, number, rng)
        h = self.hand
        events: list[Event] = [HandDealt(number, h.direction, tuple(h.hands), h.dealt_stock)]
        if h.phase is Phase.PLAY:
            events.append(PlayBegins(h.turn))
        return events

    def _current(self) -> Hand:
        if self.hand is None:
            raise WrongPhase("no hand has been dealt yet")
        return self.hand

    def pass_cards(self, seat: int, cards: Iterable[int]) -> list[Event]:
        """Lock ``seat``'s pass in the current hand."""
        return self._current().pass_cards(seat, cards)

    def play(self, seat: int, card: int) -> list[Event]:
        """Play a card in the current hand; closes the hand when it ends."""
        return self._after(self._current().play(seat, card))

    def discard_widow(self, seat: int, cards: Iterable[int]) -> list[Event]:
        """The widow's taker discards in the current hand (Hearts with a widow)."""
        return self._current().discard_widow(seat, cards)

    def choose_moon(self, seat: int, choice: str) -> list[Event]:
        """The moon shooter's choice in the current hand."""
        return self._after(self._current().choose_moon(seat, choice))

    def _after(self, events: list[Event]) -> list[Event]:
        for e in events:
            if isinstance(e, HandScored):
                events.extend(self._close_hand(e.points, e.shooter, e.moon_choice))
                break
        return events

    def _close_hand(
        self, points: tuple[int, ...], shooter: int | None, moon_choice: str | None
    ) -> list[Event]:
        self.hand_scores.append(points)
        self.shooters.append(shooter)
        self.moon_choices.append(moon_choice)
        for s, p in enumerate(points):
            self.totals[s] += p
        if not self._end_reached():
            return []
        low = min(self.totals)
        if self.totals.count(low) > 1:
            return []  # a tie for the lowest total: play another hand
        self.winner = self.totals.index(low)
        return [GameOver(tuple(self.totals), self.winner)]

    def _end_reached(self) -> bool:
        if self.rules.end == "hands":
            return len(self.hand_scores) >= self.rules.end_at
        return max(self.totals) >= self.rules.end_at

"""Exact play of the last few tricks of one deal with every hand known.

In a sampled deal the last tricks are cheap to solve exactly, and doing so
removes the rollout policy's mistakes exactly where single cards decide who
eats the last hearts. Each seat picks the card that minimises its own final
points (max^n); the moon is applied at the leaves, so seats fight a moon as
hard as they should. When a seat is indifferent it picks what is worst for
the searching seat (``root``): a cautious assumption.

Cards adjacent in one hand with no card of another hand between them are
interchangeable, so only one of them is tried (Q♠ and a bonus card always on
their own, since their points differ from their neighbours').
"""

from __future__ import annotations

from engine.cards import HEARTS_MASK, SUIT_MASKS, SUIT_OF, distinct_moves

from .bits import QS_BIT
from .rulebook import Rulebook


class EndgameSolver:
    """Max^n search to the end of the hand for one fully known deal."""

    def __init__(self, rules: Rulebook, root: int) -> None:
        """``root`` is the searching seat (it breaks the others' ties)."""
        self.rules = rules
        self.root = root
        self.loners = QS_BIT | (1 << rules.bonus if rules.bonus >= 0 else 0)
        # a variant's penalty cards each stand alone (Spot: every heart differs)
        for c, p in enumerate(rules.penalty):
            if p:
                self.loners |= 1 << c
        self.nodes = 0

    def legal(self, h: int, trick: list[int], trick_index: int, broken: bool) -> int:
        """The legal cards of hand ``h`` (docs/rules.md rules 3-6)."""
        r = self.rules
        if not trick:
            if trick_index == 0:
                return h & (1 << r.first_lead)
            if broken:
                return h
            return h & ~HEARTS_MASK or h
        follow = h & SUIT_MASKS[SUIT_OF[trick[0]]]
        if follow:
            return follow
        if trick_index == 0:
            return h & ~r.first_trick_banned or h
        return h

    def solve(
        self,
        hands: list[int],
        taken: list[int],
        trick: list[int],
        leader: int,
        trick_index: int,
        broken: bool,
    ) -> list[int]:
        """Every seat's final points under max^n play from this position.

        ``hands``, ``taken`` and ``trick`` are restored before returning.
        """
        self.nodes += 1
        r = self.rules
        n = r.players
        if trick_index == r.hand_size:
            return r.hand_points(taken)
        pos = len(trick)
        turn = (leader + pos) % n
        h = hands[turn]
        legal = self.legal(h, trick, trick_index, broken)
        rest = 0
        for s in range(n):
            if s != turn:
                rest |= hands[s]
        best: list[int] | None = None
        root = self.root
        for c in distinct_moves(legal, rest, self.loners):
            res = self.play(hands, taken, trick, leader, trick_index, broken, c)
            if (
                best is None
                or res[turn] < best[turn]
                or (res[turn] == best[turn] and res[root] > best[root])
            ):
                best = res
        assert best is not None  # a seat to move always has a legal card
        return best

    def play(
        self,
        hands: list[int],
        taken: list[int],
        trick: list[int],
        leader: int,
        trick_index: int,
        broken: bool,
        card: int,
    ) -> list[int]:
        """Final points after the seat to move plays ``card`` (unchecked)
        and everyone plays on perfectly; the arguments are restored."""
        n = self.rules.players
        pos = len(trick)
        turn = (leader + pos) % n
        h = hands[turn]
        hands[turn] = h ^ (1 << card)
        trick.append(card)
        if pos + 1 < n:
            res = self.solve(hands, taken, trick, leader, trick_index, broken)
        else:
            led = SUIT_OF[trick[0]]
            top, at, tmask = trick[0], 0, 0
            for i, x in enumerate(trick):
                tmask |= 1 << x
                if x > top and SUIT_OF[x] == led:
                    top, at = x, i
            winner = (leader + at) % n
            before = taken[winner]
            taken[winner] = before | tmask
            res = self.solve(
                hands,
                taken,
                [],
                winner,
                trick_index + 1,
                broken or bool(tmask & self.rules.breakers),
            )
            taken[winner] = before
        trick.pop()
        hands[turn] = h
        return res

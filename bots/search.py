"""Hard's search: sample the hidden cards, play each candidate out, average.

For one decision the search

1. groups the legal cards into classes of equivalent cards (``candidates``):
   two cards of a suit are interchangeable when every card ranked between
   them is ours or already played; Q♠ and a bonus card always stand alone,
   because their points differ from their neighbours';
2. draws ``budget.worlds`` deals of the hidden cards (``plausible_sampler``:
   uniform over every deal consistent with the seat's knowledge, preferring
   the deals a careful reading of the play makes plausible; at the big-table
   positions too large to count, a chain whose stationary distribution is
   that uniform one, see ``bots.sampler``);
3. in each deal plays every candidate and finishes the hand with the
   heuristic playout (``bots.rollout``) — or, with ``ENDGAME_CARDS`` cards
   or fewer in our hand, solves the rest of the deal exactly
   (``bots.endgame``) — the same deals for every candidate, so the
   comparison is not drowned by the luck of the deal;
4. scores each finished deal by what the bot wants (``Objective``: its own
   points, the moon included, and the game when this hand may end it) and
   picks the candidate with the best average.

The time cap in the budget is checked after each deal, so a decision is a
function of the view and the seed alone unless the cap is reached.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import SUIT_MASKS, cards_of

from .budget import Budget, Pacer
from .endgame import EndgameSolver
from .knowledge import Knowledge
from .moon import game_ends
from .rollout import heuristic_playout
from .sampler import plausible_sampler
from .variant_rollout import template_hand, variant_playout, world_hand

ENDGAME_CARDS = 3
"""With this many cards left in our hand, deals are solved exactly."""

ENDGAME_WORLDS = 60
"""Deals sampled for an exact endgame (few hidden cards: few distinct deals)."""

ROLLOUT_NOISE = 0.0
"""Chance that an imagined player plays a random card (see bots.rollout)."""

WIN_VALUE = 60.0
"""What winning (or losing) the game is worth, in hand points, when this
hand may end it: enough to prefer the game over a few points."""


def candidates(k: Knowledge) -> list[int]:
    """One representative (the lowest) per class of equivalent legal cards.

    With a variant's penalties two neighbours are equivalent only when they
    cost the same (Spot Hearts: every heart differs); with two decks the
    copies of a card are equivalent to each other only (a second copy
    between two of our cards may still be out)."""
    pen = k.rules.penalty
    if k.rules.decks == 2:
        seen: set[int] = set()
        out: list[int] = []
        for c in cards_of(k.legal):
            if c % 52 not in seen:
                seen.add(c % 52)
                out.append(c)
        return out
    gone = k.played | k.hand
    loners = 1 << 49  # Q♠
    if k.rules.bonus >= 0:
        loners |= 1 << k.rules.bonus
    reps: list[int] = []
    for suit in range(4):
        prev = -1
        for c in cards_of(k.legal & SUIT_MASKS[suit]):
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1) if prev >= 0 else 0
            same = prev >= 0 and not between & ~gone and not (1 << c | 1 << prev) & loners
            if same and pen:
                same = pen[c] == pen[prev]
            if not same:
                reps.append(c)
            prev = c
    return reps


@dataclass(frozen=True, slots=True)
class Objective:
    """How the bot values a finished hand.

    Normally minus its own points (the moon included: a moon it shoots is 0
    or -26, one shot against it +26). When this hand may end the game, a
    game won or lost is worth ``WIN_VALUE`` on top.
    """

    seat: int
    totals: tuple[int, ...]
    endgame: bool
    end: str
    end_at: int
    hands_played: int

    def value(self, pts: list[int]) -> float:
        """The bot's value of the hand's final points per seat."""
        mine = -float(pts[self.seat])
        if not self.endgame:
            return mine
        new = [t + p for t, p in zip(self.totals, pts, strict=True)]
        if not game_ends(new, self.end, self.end_at, self.hands_played + 1):
            return mine
        others = min(v for s, v in enumerate(new) if s != self.seat)
        return mine + (WIN_VALUE if new[self.seat] < others else -WIN_VALUE)


def objective_of(k: Knowledge, hands_played: int) -> Objective:
    """The objective for this seat given the game so far."""
    r = k.rules
    totals = tuple(k.totals)
    if r.end == "hands":
        endgame = hands_played + 1 >= r.end_at
    else:
        endgame = max(totals) + 2 * r.moon_points >= r.end_at
    return Objective(k.seat, totals, endgame, r.end, r.end_at, hands_played)


def search_play(
    k: Knowledge,
    rng: random.Random,
    budget: Budget,
    hands_played: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> int:
    """The card with the best average value over sampled deals."""
    cands = candidates(k)
    if len(cands) == 1:
        return cands[0]
    sums, _ = candidate_sums(k, cands, rng, budget, objective_of(k, hands_played), clock)
    best = max(range(len(cands)), key=lambda i: (sums[i], -cands[i]))
    return cands[best]


def candidate_sums(
    k: Knowledge,
    cands: list[int],
    rng: random.Random,
    budget: Budget,
    objective: Objective,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], int]:
    """Each candidate's summed value over the same sampled deals, and how
    many deals were played (the mean is the sum over that count): the
    search's judgement of every candidate, which the review
    (``bots.review``) reads as well as the choice."""
    if k.rules.extra_steps:
        return _variant_sums(k, cands, rng, budget, objective, clock)
    sampler = plausible_sampler(k)
    rb = k.rules
    me = k.seat
    value = objective.value
    sums = [0.0] * len(cands)
    pacer = Pacer(budget.deadline(clock()), clock)
    rnd = rng.random
    taken = k.taken
    trick = k.trick
    worlds = budget.worlds
    solver: EndgameSolver | None = None
    # The exact solver's tree grows with the seats' cards together, so it
    # waits for the standard table's twelve (3 each of 4) whatever the seats.
    if k.hand.bit_count() <= ENDGAME_CARDS and sum(k.cards_left) <= ENDGAME_CARDS * 4:
        solver = EndgameSolver(rb, me)
        worlds = min(worlds, ENDGAME_WORLDS)
    done = 0
    for _ in range(worlds):
        hands = sampler.sample(rng)
        for i, c in enumerate(cands):
            if solver is not None:
                pts = solver.play(
                    hands, taken[:], trick[:], k.trick_leader, k.trick_index, k.broken, c
                )
            else:
                hs = hands[:]
                hs[me] ^= 1 << c
                tk = heuristic_playout(
                    rb,
                    hs,
                    taken[:],
                    [*trick, c],
                    k.trick_leader,
                    k.trick_index,
                    k.broken,
                    k.played | 1 << c,
                    rnd,
                    ROLLOUT_NOISE,
                )
                pts = rb.hand_points(tk)
            sums[i] += value(pts)
        done += 1
        if not pacer.another():
            break
    return sums, done


def _variant_sums(
    k: Knowledge,
    cands: list[int],
    rng: random.Random,
    budget: Budget,
    objective: Objective,
    clock: Callable[[], float],
) -> tuple[list[float], int]:
    """``candidate_sums`` for rules with a widow, a domino stock or two
    decks: each sampled world (the stock and the hidden taken cards sampled
    too) is played out as a ``VariantHand`` (``bots.variant_rollout``)."""
    rb = k.rules
    assert rb.engine is not None  # extra_steps says the engine rules are kept
    template = template_hand(rb.engine, max(k.hand_number, 1))
    sampler = plausible_sampler(k)
    value = objective.value
    sums = [0.0] * len(cands)
    pacer = Pacer(budget.deadline(clock()), clock)
    rnd = rng.random
    done = 0
    for _ in range(budget.worlds):
        hands, stock, hidden = sampler.sample_world(rng)
        world = world_hand(template, k, hands, stock, hidden)
        for i, c in enumerate(cands):
            h = world.copy()
            h.apply_unchecked(c)
            sums[i] += value(rb.hand_points(variant_playout(h, rnd, ROLLOUT_NOISE)))
        done += 1
        if not pacer.another():
            break
    return sums, done

"""Review one seat's decisions in a finished hand (``review_hand``).

For each decision of the seat — its pass, each card it played, its widow
discard, its moon choice — the hand is replayed from its record up to that
moment and the seat's view is built by the same redaction function the
server uses (``protocol.seat_view.seat_view``): its own cards, what it
passed and received, the public play. The other seats' deals and passes are
never read, so the evaluator knows exactly what the seat knew.

Each option is then judged by Hard's search, with its own budget
(``ReviewBudget``): the same sampled deals for every option, each played
out to the end of the hand, valued in the seat's own hand points. The
*loss* of a decision is the best option's mean value minus the chosen
one's, in points (never negative: the chosen option is one of those
judged). A play is judged among one card of each class of equivalent
legal cards (``bots.search.candidates``), the chosen card standing for its
class; a pass or a discard among Hard's sensible candidates plus the
chosen one, by successive halving (the chosen one is played on every deal).

The moon choice is about the game, not the hand: "add" and "subtract" move
every gap between the shooter and the others by the same points, so they
differ only where one of them ends the game; there the loss is what Hard
values a game at (``bots.search.WIN_VALUE``), otherwise nothing.

Passes are judged at plain-tricks tables (any number of seats) and with a
widow (``bots.passsearch.seat_offset``); a pass in rules with other steps
(a domino stock, two decks, a cancellation rest) would be listed unjudged
(``best`` and ``loss`` None), but none of today's such variants passes. A decision is a function of the record, the
seat, the budget and the seed alone unless ``ReviewBudget.max_ms`` caps it.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.cards import card, card_text, cards_of, mask_of
from engine.errors import RecordError
from engine.game import Game
from engine.hand import Hand, Phase
from engine.record import Illegal, replay
from protocol.seat_view import SeatFacts, TableFacts, seat_view

from ..budget import Budget
from ..knowledge import Knowledge, knowledge_of
from ..moon import choose_moon, game_ends, moon_totals
from ..passsearch import candidate_passes, judge_passes, seat_offset
from ..search import WIN_VALUE, Objective, candidate_sums, candidates
from ..widow import candidate_discards, judge_discards, plain_tricks
from .labels import Accuracy, Label, accuracy_of, label_of

ReviewKind = Literal["pass", "play", "discard", "moon_choice"]

DEFAULT_WORLDS = 1000
"""Deals sampled per decision by default: Hard's own iteration budget
(``bots.budget.Budget``), without the 0.9 s cap that usually stops Hard
short of it on a busy server (docs/bots.md "Hand review")."""

REVIEW_FORMAT = 1
"""The version of what a review says for a given record, seat, budget and
seed. A server keeps the reviews it made with their table
(``server.stored_reviews``) under a key that holds this number: raise it
whenever a change (here, in the searches this module calls, in the labels
or in a decision's wire form) could make the same inputs give another
review, and the reviews kept by earlier releases are made afresh instead
of served."""


class ReviewError(ValueError):
    """A hand that cannot be reviewed (said in a sentence for the user)."""


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """How hard the evaluator thinks per decision: ``worlds`` deals sampled
    (each played out once per option), and optionally a time cap
    ``max_ms`` per decision (then a decision may depend on the machine's
    speed as well as the seed)."""

    worlds: int = DEFAULT_WORLDS
    max_ms: int | None = None

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError("a review needs at least one world per decision")
        if self.max_ms is not None and self.max_ms < 1:
            raise ValueError("the time cap must be at least 1 ms")

    def search_budget(self) -> Budget:
        """The ``Budget`` Hard's search takes, its cap counted from now."""
        cap = None if self.max_ms is None else self.max_ms / 1000.0
        return Budget(worlds=self.worlds, max_seconds=cap, started=time.perf_counter())


@dataclass(frozen=True, slots=True)
class Judged:
    """One reviewed decision. ``chosen``/``best``: card texts (one for a
    play, several for a pass or discard) or the moon choice ("add",
    "subtract"); ``best`` and ``loss`` are None for a decision the
    evaluator does not judge; ``trick`` is the 0-based trick of a play."""

    kind: ReviewKind
    chosen: tuple[str, ...]
    best: tuple[str, ...] | None
    loss: float | None
    trick: int | None = None

    @property
    def label(self) -> Label | None:
        """inaccuracy / mistake / blunder, or None (``bots.review.labels``)."""
        return label_of(self.loss)

    def to_json(self) -> dict[str, Any]:
        """The wire form (``protocol`` ``ReviewedDecision``)."""
        return {
            "kind": self.kind,
            "chosen": list(self.chosen),
            "best": None if self.best is None else list(self.best),
            "loss": None if self.loss is None else round(self.loss, 3),
            "label": self.label,
            "trick": self.trick,
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """The review of one seat's decisions in one hand."""

    hand_number: int
    seat: int
    decisions: tuple[Judged, ...]

    @property
    def accuracy(self) -> Accuracy:
        """Mean loss per judged decision and the labels' counts."""
        return accuracy_of(d.loss for d in self.decisions)

    def to_json(self) -> dict[str, Any]:
        """The wire form (``protocol`` ``Analysis`` without its ``type``)."""
        return {
            "hand_number": self.hand_number,
            "seat": self.seat,
            "decisions": [d.to_json() for d in self.decisions],
            "accuracy": self.accuracy.to_json(),
        }


def review_hand(
    record: object,
    seat: int,
    budget: ReviewBudget | None = None,
    seed: int | str = 0,
    history: Sequence[Sequence[int]] = (),
    clock: Callable[[], float] = time.perf_counter,
) -> HandReview:
    """The review of ``seat``'s decisions in the finished hand ``record``
    (docs/hand-record.md). ``history`` is the points of the game's earlier
    hands, when known (the moon choice is judged by the game's totals);
    ``seed`` makes the sampling reproducible.

    Raises ``ReviewError`` for a record that does not verify, a hand that
    is not finished or a seat the hand does not have."""
    judge = _judge_of(record, seat, budget, seed, history, clock)
    return HandReview(judge.final.hand_number, seat, tuple(step() for step in judge.steps()))


def decision_count(record: object, seat: int) -> int:
    """How many decisions ``review_hand`` would list (``ReviewError`` as it)."""
    return len(_judge_of(record, seat, None, 0, (), time.perf_counter).steps())


def review_decision(
    record: object,
    seat: int,
    index: int,
    budget: ReviewBudget | None = None,
    seed: int | str = 0,
    history: Sequence[Sequence[int]] = (),
) -> Judged:
    """Decision ``index`` of ``review_hand``'s list alone, judged exactly as
    there (each decision has its own random stream): a server reviews a
    hand one decision at a time so that no worker is held for long."""
    steps = _judge_of(record, seat, budget, seed, history, time.perf_counter).steps()
    if not 0 <= index < len(steps):
        raise ReviewError(f"the seat has no decision {index} in this hand")
    return steps[index]()


def _judge_of(
    record: object,
    seat: int,
    budget: ReviewBudget | None,
    seed: int | str,
    history: Sequence[Sequence[int]],
    clock: Callable[[], float],
) -> _Judge:
    final = _replayed(record)
    if final.phase is not Phase.DONE:
        raise ReviewError("the hand is not finished, so it cannot be reviewed yet")
    if isinstance(seat, bool) or not 0 <= seat < final.players:
        raise ReviewError(f"seat must be 0 to {final.players - 1}, not {seat}")
    assert isinstance(record, dict)  # _replayed read it as a record
    return _Judge(record, final, seat, budget or ReviewBudget(), seed, history, clock)


def _replayed(record: object) -> Hand:
    try:
        return replay(record)
    except RecordError as exc:
        raise ReviewError(f"the record cannot be read: {exc.message}") from None
    except Illegal as exc:
        raise ReviewError(f"the record does not verify at step {exc.step}: {exc}") from None


class _Judge:
    """The decisions of one seat in one hand, judged one by one."""

    def __init__(
        self,
        record: dict[str, Any],
        final: Hand,
        seat: int,
        budget: ReviewBudget,
        seed: int | str,
        history: Sequence[Sequence[int]],
        clock: Callable[[], float],
    ) -> None:
        self.record = record
        self.final = final
        self.seat = seat
        self.budget = budget
        self.seed = seed
        self.history = [tuple(int(p) for p in h) for h in history]
        self.clock = clock
        self.rules = final.rules
        self.table = TableFacts(self.rules, tuple(SeatFacts() for _ in range(final.players)))
        n = final.players
        self.objective = Objective(seat, (0,) * n, False, self.rules.end, self.rules.end_at, 0)

    def steps(self) -> list[Callable[[], Judged]]:
        """One thunk per decision of the seat, in the hand's order: calling
        it judges that decision (the replays to find them are cheap, the
        judging is not)."""
        out: list[Callable[[], Judged]] = []
        rec = self.record
        passes = rec.get("passes")
        if passes and self.seat < len(passes) and passes[self.seat]:
            out.append(functools.partial(self._pass, [str(c) for c in passes[self.seat]]))
        plays = [str(c) for c in rec.get("plays", [])]
        out += self._play_steps(plays)
        end = self.final
        if end.shooter == self.seat and end.moon_choice is not None and "moon_choice" in rec:
            at_end = self._at(plays, with_discard=True, moon=False)
            out.append(functools.partial(self._moon, at_end, end.moon_choice))
        return out

    def _play_steps(self, plays: list[str]) -> list[Callable[[], Judged]]:
        """The seat's plays, and its widow discard where it made one."""
        out: list[Callable[[], Judged]] = []
        rec = self.record
        discard = [str(x) for x in rec.get("discard") or ()]
        widow_at = self._widow_step(plays) if "discard" in rec else None
        for i, c in enumerate(plays):
            if i == widow_at:
                # The moment the widow's taker discards, before play i.
                taken = self._at(plays[:i], with_discard=False)
                if taken.widow_seat == self.seat:
                    out.append(functools.partial(self._discard, taken, discard))
            discarded = widow_at is not None and i >= widow_at
            before = self._at(plays[:i], with_discard=discarded)
            if before.turn == self.seat:
                out.append(functools.partial(self._play, before, c, i))
        return out

    def _widow_step(self, plays: list[str]) -> int | None:
        """How many plays come before the widow's discard (None: none)."""
        for i in range(len(plays) + 1):
            if self._at(plays[:i], with_discard=False).phase is Phase.WIDOW:
                return i
        return None

    def _at(self, plays: list[str], with_discard: bool, moon: bool = True) -> Hand:
        part = {k: v for k, v in self.record.items() if k not in ("plays", "moon_choice")}
        part["plays"] = plays
        if not with_discard:
            part.pop("discard", None)
        if moon and "moon_choice" in self.record:
            part["moon_choice"] = self.record["moon_choice"]
        return _replayed(part)

    def _view_of(self, hand: Hand) -> Knowledge:
        game = Game(self.rules)
        n = hand.players
        game.hand_scores = list(self.history)
        game.totals = [sum(h[s] for h in self.history) for s in range(n)]
        game.shooters = [None] * len(self.history)
        game.moon_choices = [None] * len(self.history)
        game.hand = hand
        return knowledge_of(seat_view(game, self.table, self.seat))

    def _rng(self, what: str) -> random.Random:
        # One stream per decision: a decision's review does not depend on
        # which others were reviewed before it.
        return random.Random(f"{self.seed}:{self.final.hand_number}:{self.seat}:{what}")

    def _pass(self, chosen: list[str]) -> Judged:
        start_record = {k: v for k, v in self.record.items() if k != "passes"}
        start_record["plays"] = []
        start_record.pop("discard", None)
        start_record.pop("moon_choice", None)
        start = _replayed(start_record)
        k = self._view_of(start)
        texts = tuple(sorted(chosen, key=card))
        if seat_offset(k) is None:
            return Judged("pass", texts, None, None)
        mask = mask_of([card(c) for c in chosen])
        cands = candidate_passes(k.hand, k.rules.pass_count, k.rules.penalty)
        ranked = judge_passes(
            k, cands, self._rng("pass"), self.budget.search_budget(), self.clock, keep=mask
        )
        return Judged("pass", texts, *_best_and_loss(ranked, mask))

    def _discard(self, before: Hand, chosen: list[str]) -> Judged:
        k = self._view_of(before)
        texts = tuple(sorted(chosen, key=card))
        mask = mask_of([card(c) for c in chosen])
        cands = candidate_discards(k.hand, len(chosen), k.rules.penalty)
        ranked = judge_discards(
            k,
            cands,
            self._rng("discard"),
            self.budget.search_budget(),
            self.objective,
            self.clock,
            keep=mask,
        )
        return Judged("discard", texts, *_best_and_loss(ranked, mask))

    def _play(self, before: Hand, chosen: str, index: int) -> Judged:
        k = self._view_of(before)
        trick = k.trick_index
        # Past the widow's step the hand is plain tricks, as Hard plays it.
        k = plain_tricks(k) or k
        c = card(chosen)
        cands = candidates(k)
        mine = _class_of(k, cands, c)
        if len(cands) == 1:
            return Judged("play", (chosen,), (chosen,), 0.0, trick)
        sums, done = candidate_sums(
            k,
            cands,
            self._rng(f"play{index}"),
            self.budget.search_budget(),
            self.objective,
            self.clock,
        )
        best = max(range(len(cands)), key=lambda i: (sums[i], -cands[i]))
        # A choice as good as the best (a tie included) is the best.
        if sums[cands.index(mine)] >= sums[best]:
            return Judged("play", (chosen,), (chosen,), 0.0, trick)
        loss = (sums[best] - sums[cands.index(mine)]) / max(done, 1)
        return Judged("play", (chosen,), (card_text(cands[best]),), loss, trick)

    def _moon(self, before: Hand, chosen: str) -> Judged:
        k = self._view_of(before)
        hands_played = len(self.history)
        best = choose_moon(k, hands_played)
        loss = _moon_value(k, best, hands_played) - _moon_value(k, chosen, hands_played)
        # A choice as good as Hard's (a tie included: both choices leave the
        # game going, or both end it) is the best, as for a play.
        if best == chosen or loss <= 0:
            return Judged("moon_choice", (chosen,), (chosen,), 0.0)
        return Judged("moon_choice", (chosen,), (best,), loss)


def _best_and_loss(
    ranked: list[tuple[int, float, int]], mask: int
) -> tuple[tuple[str, ...], float]:
    """The best option's cards and the loss of ``mask`` against it, from
    successive halving's survivors (each: mask, summed value, deals); the
    chosen one is among them, played on the same deals as the best."""
    best_mask, best_sum, best_n = ranked[0]
    _, mine_sum, mine_n = next(r for r in ranked if r[0] == mask)
    mine_mean = mine_sum / max(mine_n, 1)
    best_mean = best_sum / max(best_n, 1)
    if mine_mean >= best_mean:
        return _texts(mask), 0.0
    return _texts(best_mask), best_mean - mine_mean


def _moon_value(k: Knowledge, choice: str, hands_played: int) -> float:
    """What a moon choice is worth to the shooter beyond the hand's points:
    ``WIN_VALUE`` if it ends the game won, minus that if lost, else 0."""
    me = k.seat
    new = moon_totals(k, choice)
    if not game_ends(new, k.rules.end, k.rules.end_at, hands_played + 1):
        return 0.0
    others = min(v for s, v in enumerate(new) if s != me)
    return WIN_VALUE if new[me] < others else -WIN_VALUE


def _class_of(k: Knowledge, cands: list[int], c: int) -> int:
    """The representative (``candidates``) of the class holding card ``c``:
    a class is a run of legal cards of one suit, led by its lowest."""
    if c in cands:
        return c
    if k.rules.decks == 2:
        return next(r for r in cands if r % 52 == c % 52)
    return max(r for r in cands if r // 13 == c // 13 and r < c)


def _texts(mask: int) -> tuple[str, ...]:
    return tuple(card_text(c) for c in cards_of(mask))

"""``hearts bench review``: the hand review's verdict on our bot levels, and
what one hand's review costs (docs/bots.md "Hand review").

Plays ``--hands`` hands between Easy, Medium, Hard and Medium (the line-up
rotated by one seat every hand, so each level sits everywhere; the deal
number picks the pass direction, so every direction comes up), reviews
the Easy, the first Medium and the Hard seat of every hand with
``--worlds`` deals per decision, and prints
each level's mean expected loss per decision with a 95 % interval and its
counts of labels, then the review time per seat-hand (p50, p95) and the
load average before and after, so the figures can be read for what they
are. ``--jobs`` shares the hands among processes (every hand is played
and reviewed from its own seeds, so the figures do not depend on it; the
times do). ``--time-hands`` more seat-hands are reviewed at the default budget
(``bots.review.evaluator.DEFAULT_WORLDS``) to time it.
Hard plays with ``--hard-worlds`` deals and no time cap, so a run is
reproducible from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from bots.budget import Budget
from bots.review.evaluator import DEFAULT_WORLDS, ReviewBudget, review_hand
from bots.review.labels import accuracy_of
from engine.record import hand_record
from engine.rules import Rules
from tools.arena.hands import deal_hands, mean_ci95, percentile, play_hand

LINEUP = ("easy", "medium", "hard", "medium")


def add_bench_review_parser(bench_sub: Any) -> argparse.ArgumentParser:
    """Add ``review`` to ``hearts bench``'s subcommands."""
    p: argparse.ArgumentParser = bench_sub.add_parser(
        "review", help="the hand review's mean loss per level, and its time per hand"
    )
    p.add_argument("--hands", type=int, default=200, help="hands of bot games to review")
    p.add_argument(
        "--worlds", type=int, default=300, help="review deals per decision (the server's)"
    )
    p.add_argument(
        "--hard-worlds", type=int, default=1000, help="Hard's deals per decision (its game budget)"
    )
    p.add_argument(
        "--time-hands", type=int, default=4, help="seat-hands timed at the default budget"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes sharing the hands (the figures do not change)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def review_one_hand(
    seed: int, h: int, worlds: int, hard_worlds: int
) -> tuple[dict[str, Any], list[tuple[str, float, list[float]]]]:
    """Play hand ``h`` of the run and review its Easy, first Medium and Hard
    seats: the hand's record and, per reviewed seat, (level, seconds the
    review took, the losses of its decisions). A function of its arguments
    alone, so hands can be shared among processes."""
    rules = Rules()
    n = rules.players
    levels = tuple(LINEUP[(s - h) % n] for s in range(n))
    hands, stock = deal_hands(rules, seed, h)
    hard = Budget(worlds=hard_worlds, max_seconds=None)
    hand, _ = play_hand(rules, levels, hands, h % 4 + 1, f"bench-review:{seed}:{h}", hard, stock)
    record = hand_record(hand)
    return record, _review_seats(record, levels, h, ReviewBudget(worlds=worlds), seed)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _review_star(job: tuple[int, int, int, int]) -> Any:
    return review_one_hand(*job)


@dataclass
class _Tally:
    """What the reviewed hands add up to so far."""

    losses: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    per_hand: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    seconds: list[float] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)

    def add(self, record: dict[str, Any], reviewed: list[tuple[str, float, list[float]]]) -> None:
        """Count one hand's record and its reviewed seats."""
        self.records.append(record)
        for level, took, hand_losses in reviewed:
            self.seconds.append(took)
            self.losses[level].extend(hand_losses)
            self.per_hand[level].append(statistics.fmean(hand_losses) if hand_losses else 0.0)

    def progress(self, hands: int) -> str:
        """The progress line: hands done and each level's running mean loss."""
        means = " ".join(
            f"{lv} {statistics.fmean(v):.3f}" for lv, v in sorted(self.losses.items()) if v
        )
        return f"\r{len(self.records)}/{hands} hands; mean loss {means}"


def _hand_results(stack: ExitStack, args: argparse.Namespace) -> Iterable[Any]:
    """Every hand's ``review_one_hand``, in order: in ``--jobs`` processes
    (closed with ``stack``) or in this one."""
    jobs = [(args.seed, h, args.worlds, args.hard_worlds) for h in range(args.hands)]
    if args.jobs > 1:
        pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(args.jobs))
        return pool.imap(_review_star, jobs)
    return map(_review_star, jobs)


def run_bench_review(args: argparse.Namespace) -> int:
    """Play, review and print (see the module doc)."""
    load_before = os.getloadavg()
    tally = _Tally()
    # A background run ignores SIGINT: SIGTERM stops it the same way.
    signal.signal(signal.SIGTERM, _interrupt)
    with ExitStack() as stack:
        try:
            for record, reviewed in _hand_results(stack, args):
                tally.add(record, reviewed)
                if not args.json:
                    print(tally.progress(args.hands), end="", file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            # Stopped early (SIGINT, or SIGTERM to this process): the hands
            # done are reported as the run, the default budget's timing skipped.
            args = argparse.Namespace(
                **{**vars(args), "hands": len(tally.records), "time_hands": 0}
            )
    if not args.json:
        print(file=sys.stderr)
    timed = _timed_reviews(tally.records, args.time_hands, args.seed)
    report = _report(
        args, tally.losses, tally.per_hand, tally.seconds, timed, load_before, os.getloadavg()
    )
    if args.json:
        print(json.dumps(report))
    else:
        print(_format(report))
    return 0


def _review_seats(
    record: dict[str, Any], levels: tuple[str, ...], h: int, budget: ReviewBudget, seed: int
) -> list[tuple[str, float, list[float]]]:
    """Review every seat of hand ``h`` but the table's second Medium:
    (its level, the review's seconds, its decisions' losses) per seat."""
    out: list[tuple[str, float, list[float]]] = []
    n = len(levels)
    for seat, level in enumerate(levels):
        if (seat - h) % n == len(LINEUP) - 1:
            continue  # the second Medium sits for the table only
        start = time.perf_counter()
        review = review_hand(record, seat, budget, seed=seed)
        took = time.perf_counter() - start
        out.append((level, took, [d.loss for d in review.decisions if d.loss is not None]))
    return out


def _timed_reviews(records: list[dict[str, Any]], count: int, seed: int) -> list[float]:
    """The seconds a review at the default budget takes (of the first seat)
    for each of the first ``count`` records."""
    timed: list[float] = []
    default = ReviewBudget(worlds=DEFAULT_WORLDS)
    for i in range(min(count, len(records))):
        start = time.perf_counter()
        review_hand(records[i], 0, default, seed=seed)
        timed.append(time.perf_counter() - start)
    return timed


def _report(
    args: argparse.Namespace,
    losses: dict[str, list[float]],
    per_hand: dict[str, list[float]],
    seconds: list[float],
    timed: list[float],
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> dict[str, Any]:
    levels: dict[str, Any] = {}
    for level in ("easy", "medium", "hard"):
        acc = accuracy_of(losses[level])
        # The interval is over seat-hands, the unit drawn independently.
        mean, low, high = mean_ci95(per_hand[level])
        levels[level] = {
            **acc.to_json(),
            "seat_hands": len(per_hand[level]),
            "per_hand_mean_ci95": [round(mean, 3), round(low, 3), round(high, 3)],
        }
    s = sorted(seconds)
    t = sorted(timed)
    return {
        "hands": args.hands,
        "review_worlds": args.worlds,
        "hard_worlds": args.hard_worlds,
        "seed": args.seed,
        "levels": levels,
        "review_seconds_per_seat_hand": {
            "worlds": args.worlds,
            "p50": round(percentile(s, 0.5), 3),
            "p95": round(percentile(s, 0.95), 3),
        },
        "default_budget_seconds_per_seat_hand": {
            "worlds": DEFAULT_WORLDS,
            "seat_hands": len(t),
            "p50": round(percentile(t, 0.5), 3) if t else None,
            "max": round(t[-1], 3) if t else None,
        },
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
        "cpus": os.cpu_count(),
    }


def _format(report: dict[str, Any]) -> str:
    lines = [
        f"{report['hands']} hands (Easy, Medium, Hard, Medium rotated), review "
        f"{report['review_worlds']} deals per decision, Hard {report['hard_worlds']}:",
    ]
    for level, st in report["levels"].items():
        m, lo, hi = st["per_hand_mean_ci95"]
        lines.append(
            f"  {level:<6} mean loss {st['mean_loss']:.3f} per decision "
            f"(per seat-hand {m:.3f}, 95% {lo:.3f}-{hi:.3f}); {st['decisions']} decisions, "
            f"{st['inaccuracies']} inaccuracies, {st['mistakes']} mistakes, "
            f"{st['blunders']} blunders"
        )
    r = report["review_seconds_per_seat_hand"]
    d = report["default_budget_seconds_per_seat_hand"]
    lines.append(
        f"review of one seat's hand at {r['worlds']} deals: p50 {r['p50']} s, p95 {r['p95']} s"
    )
    if d["seat_hands"]:
        lines.append(
            f"review at the default {d['worlds']} deals: p50 {d['p50']} s, max {d['max']} s "
            f"over {d['seat_hands']} seat-hands"
        )
    lines.append(
        f"load average before {report['loadavg_before']}, after {report['loadavg_after']} "
        f"on {report['cpus']} CPUs"
    )
    return "\n".join(lines)

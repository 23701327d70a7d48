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
) -> tuple[dict[str, Any], list[tuple[str, list[float], float]]]:
    """Play hand ``h`` of the run and review its Easy, first Medium and Hard
    seats: the hand's record and, per reviewed seat, (level, the losses of
    its decisions, seconds the review took). A function of its arguments
    alone, so hands can be shared among processes."""
    rules = Rules()
    n = rules.players
    levels = tuple(LINEUP[(s - h) % n] for s in range(n))
    hands, stock = deal_hands(rules, seed, h)
    hard = Budget(worlds=hard_worlds, max_seconds=None)
    hand, _ = play_hand(rules, levels, hands, h % 4 + 1, f"bench-review:{seed}:{h}", hard, stock)
    record = hand_record(hand)
    budget = ReviewBudget(worlds=worlds)
    out: list[tuple[str, list[float], float]] = []
    for seat, level in enumerate(levels):
        if (seat - h) % n == len(LINEUP) - 1:
            continue  # the second Medium sits for the table only
        start = time.perf_counter()
        review = review_hand(record, seat, budget, seed=seed)
        seconds = time.perf_counter() - start
        out.append((level, [d.loss for d in review.decisions if d.loss is not None], seconds))
    return record, out


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _review_star(job: tuple[int, int, int, int]) -> Any:
    return review_one_hand(*job)


def run_bench_review(args: argparse.Namespace) -> int:
    """Play, review and print (see the module doc)."""
    load_before = os.getloadavg()
    losses: dict[str, list[float]] = defaultdict(list)
    per_hand: dict[str, list[float]] = defaultdict(list)
    seconds: list[float] = []
    records: list[dict[str, Any]] = []
    jobs = [(args.seed, h, args.worlds, args.hard_worlds) for h in range(args.hands)]
    # A background run ignores SIGINT: SIGTERM stops it the same way.
    signal.signal(signal.SIGTERM, _interrupt)
    with ExitStack() as stack:
        if args.jobs > 1:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(args.jobs))
            results: Iterable[Any] = pool.imap(_review_star, jobs)
        else:
            results = map(_review_star, jobs)
        try:
            for h, (record, reviewed) in enumerate(results):
                records.append(record)
                for level, hand_losses, took in reviewed:
                    seconds.append(took)
                    losses[level].extend(hand_losses)
                    per_hand[level].append(statistics.fmean(hand_losses) if hand_losses else 0.0)
                if not args.json:
                    means = " ".join(
                        f"{lv} {statistics.fmean(v):.3f}" for lv, v in sorted(losses.items()) if v
                    )
                    print(
                        f"\r{h + 1}/{args.hands} hands; mean loss {means}",
                        end="",
                        file=sys.stderr,
                        flush=True,
                    )
        except KeyboardInterrupt:
            # Stopped early (SIGINT, or SIGTERM to this process): the hands
            # done are reported as the run, the default budget's timing skipped.
            args = argparse.Namespace(**{**vars(args), "hands": len(records), "time_hands": 0})
    if not args.json:
        print(file=sys.stderr)
    timed: list[float] = []
    default = ReviewBudget(worlds=DEFAULT_WORLDS)
    for i in range(min(args.time_hands, len(records))):
        start = time.perf_counter()
        review_hand(records[i], 0, default, seed=args.seed)
        timed.append(time.perf_counter() - start)
    report = _report(args, losses, per_hand, seconds, timed, load_before, os.getloadavg())
    if args.json:
        print(json.dumps(report))
    else:
        print(_format(report))
    return 0


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

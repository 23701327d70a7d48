"""``hearts analyse RECORDS.jsonl --seat N``: the review of one seat's
decisions in every hand of a file of hand records (``bots.review``).

The records are JSON Lines as the server stores them and ``hearts verify``
reads them (docs/hand-record.md). Every record is checked first, so a bad
file prints one line naming what is wrong and nothing else (exit 1): a line
that is not a record, a record that does not verify or is not finished, a
seat the hands do not have. Consecutive hands of one game (the same rules,
numbers following on) are read as a game: the moon choice is judged by
its totals.

With ``--json``: one JSON object per decision (``hand``, ``seat``,
``kind``, ``chosen``, ``best``, ``loss``, ``label``, ``trick``), then a
summary object (``"summary": true``, ``hands``, ``accuracy`` — the mean
expected loss per decision — and the counts). Otherwise a few readable
lines per hand and the summary.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from bots.review.evaluator import HandReview, ReviewBudget, ReviewError, review_hand
from bots.review.labels import accuracy_of
from engine.errors import RecordError
from engine.record import Illegal, replay

PROG = "hearts analyse"


def add_analyse_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``analyse`` to ``hearts``'s subparsers."""
    analyse: argparse.ArgumentParser = subparsers.add_parser(
        "analyse", help="review one seat's decisions in hand records (JSON Lines)"
    )
    analyse.add_argument("file", help="a file of JSON Lines hand records, or - for stdin")
    analyse.add_argument("--seat", type=int, required=True, help="the seat to review (0-based)")
    analyse.add_argument("--json", action="store_true", help="one JSON line per decision")
    analyse.add_argument(
        "--budget-ms",
        type=int,
        default=None,
        metavar="MS",
        help="cap each decision's search at MS milliseconds (default: no cap, reproducible)",
    )
    analyse.add_argument(
        "--worlds", type=int, default=None, help="deals sampled per decision (default 1000)"
    )
    analyse.add_argument("--seed", type=int, default=0, help="the sampling's seed")
    analyse.set_defaults(run=_run)
    return analyse


def _run(args: argparse.Namespace) -> int:
    if args.file == "-":
        return run_analyse(sys.stdin, sys.stdout, args)
    try:
        with open(args.file, encoding="utf-8") as stream:
            return run_analyse(stream, sys.stdout, args)
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{args.file} is not UTF-8 text")


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 1


def read_records(stream: TextIO, seat: int) -> list[tuple[int, dict[str, Any]]]:
    """Every record of ``stream`` with its line number, each checked: it
    replays to its end and has ``seat``. Raises ``ReviewError`` naming the
    line of the first that does not."""
    records: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReviewError(f"line {number}: not JSON ({exc.msg})") from None
        try:
            hand = replay(record)
        except RecordError as exc:
            raise ReviewError(f"line {number}: not a hand record ({exc.message})") from None
        except Illegal as exc:
            raise ReviewError(f"line {number}: the record does not verify ({exc})") from None
        if hand.phase.value != "done":
            raise ReviewError(f"line {number}: the hand is not finished")
        if not 0 <= seat < hand.players:
            raise ReviewError(f"line {number}: seat must be 0 to {hand.players - 1}, not {seat}")
        assert isinstance(record, dict)  # replay accepted it
        records.append((number, record))
    if not records:
        raise ReviewError("no hand records to analyse")
    return records


def run_analyse(stream: TextIO, out: TextIO, args: argparse.Namespace) -> int:
    """Review ``args.seat`` in every record of ``stream``; write to ``out``."""
    try:
        budget = ReviewBudget(
            worlds=args.worlds if args.worlds is not None else ReviewBudget().worlds,
            max_ms=args.budget_ms,
        )
    except ValueError as exc:
        return _fail(str(exc))
    try:
        records = read_records(stream, args.seat)
    except ReviewError as exc:
        return _fail(str(exc))
    reviews: list[HandReview] = []
    history: list[list[int]] = []
    previous: dict[str, Any] | None = None
    for _, record in records:
        if previous is None or not _follows(previous, record):
            history = []
        review = review_hand(record, args.seat, budget, args.seed, history)
        reviews.append(review)
        history.append(list(replay(record).scores or ()))
        previous = record
        _write_hand(out, review, args.json)
    _write_summary(out, reviews, args.seat, args.json)
    return 0


def _write_summary(out: TextIO, reviews: list[HandReview], seat: int, as_json: bool) -> None:
    """The last line: the seat's accuracy over every hand reviewed."""
    acc = accuracy_of(d.loss for r in reviews for d in r.decisions)
    if as_json:
        summary = {"summary": True, "seat": seat, "hands": len(reviews), **acc.to_json()}
        summary["accuracy"] = summary["mean_loss"]
        out.write(json.dumps(summary) + "\n")
        return
    out.write(
        f"Seat {seat}, {len(reviews)} hands, {acc.decisions} decisions: "
        f"mean loss {acc.mean_loss:.2f} points per decision; "
        f"{_count(acc.inaccuracies, 'inaccuracy', 'inaccuracies')}, "
        f"{_count(acc.mistakes, 'mistake', 'mistakes')}, "
        f"{_count(acc.blunders, 'blunder', 'blunders')}\n"
    )


def _follows(previous: dict[str, Any], record: dict[str, Any]) -> bool:
    """Whether ``record`` is the next hand of ``previous``'s game."""
    return bool(
        previous.get("rules") == record.get("rules")
        and record.get("hand", 1) == previous.get("hand", 1) + 1
    )


def _write_hand(out: TextIO, review: HandReview, as_json: bool) -> None:
    if as_json:
        for d in review.decisions:
            line = {"hand": review.hand_number, "seat": review.seat, **d.to_json()}
            out.write(json.dumps(line) + "\n")
        out.flush()
        return
    out.write(f"Hand {review.hand_number}:\n")
    for d in review.decisions:
        what = "trick " + str(d.trick + 1) if d.trick is not None else d.kind.replace("_", " ")
        chosen = " ".join(d.chosen)
        if d.loss is None or d.best is None:
            out.write(f"  {what}: {chosen} (not judged)\n")
        elif d.loss == 0.0:
            out.write(f"  {what}: {chosen} (best)\n")
        else:
            label = f", {d.label}" if d.label else ""
            out.write(f"  {what}: {chosen}; best {' '.join(d.best)}, loss {d.loss:.2f}{label}\n")
    acc = review.accuracy
    out.write(f"  mean loss {acc.mean_loss:.2f} over {acc.decisions} decisions\n")
    out.flush()


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"

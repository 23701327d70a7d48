"""Entry point of the ``hearts`` command.

Each subcommand lives in its own module and is imported only when used, so
``hearts verify`` does not pay for the server, Textual or Redis.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="hearts", description="Hearts with friends and bots: server, clients and tools."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    verify = sub.add_parser("verify", help="check hand records (JSON Lines) against the rules")
    verify.add_argument("file", help="a file of JSON Lines hand records, or - for stdin")

    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="bench", required=True, metavar="WHAT")
    bench_engine = bench_sub.add_parser("engine", help="random full hands per second")
    bench_engine.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    bench_engine.add_argument("--seed", type=int, default=1)
    bench_engine.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hearts`` command; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.command == "verify":
        from .verify import run_verify

        return run_verify(args.file)
    if args.command == "bench" and args.bench == "engine":
        from .bench_engine import run_bench_engine

        return run_bench_engine(seconds=args.seconds, seed=args.seed, as_json=args.json)
    raise SystemExit(f"hearts: unknown command {args.command}")  # argparse prevents this


if __name__ == "__main__":
    sys.exit(main())

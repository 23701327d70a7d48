"""``hearts bench engine|server|guess|review|page``: benchmarks that print figures
(``tools.bench``)."""

from __future__ import annotations

import argparse
from typing import Any


def add_bench_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``bench`` and its benchmarks to ``hearts``'s subparsers."""
    from tools.bench.guess import add_bench_guess_parser
    from tools.bench.page_load import add_bench_page_parser
    from tools.bench.review import add_bench_review_parser
    from tools.bench.server import add_bench_server_parser

    bench: argparse.ArgumentParser = subparsers.add_parser(
        "bench", help="benchmarks that print figures"
    )
    bench_sub = bench.add_subparsers(dest="bench", required=True, metavar="WHAT")
    engine = bench_sub.add_parser("engine", help="random full hands per second")
    engine.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    engine.add_argument("--seed", type=int, default=1)
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    engine.set_defaults(run=run_bench_engine)
    add_bench_server_parser(bench_sub).set_defaults(run=run_bench_server)
    add_bench_guess_parser(bench_sub).set_defaults(run=run_bench_guess)
    add_bench_review_parser(bench_sub).set_defaults(run=run_bench_review)
    add_bench_page_parser(bench_sub).set_defaults(run=run_bench_page)
    return bench


def run_bench_engine(args: argparse.Namespace) -> int:
    """``hearts bench engine``."""
    from tools.bench.engine import run_bench_engine

    return run_bench_engine(seconds=args.seconds, seed=args.seed, as_json=args.json)


def run_bench_server(args: argparse.Namespace) -> int:
    """``hearts bench server``."""
    from tools.bench.server import run_bench_server

    return run_bench_server(args)


def run_bench_guess(args: argparse.Namespace) -> int:
    """``hearts bench guess``."""
    from tools.bench.guess import run_bench_guess

    return run_bench_guess(args)


def run_bench_review(args: argparse.Namespace) -> int:
    """``hearts bench review``."""
    from tools.bench.review import run_bench_review

    return run_bench_review(args)


def run_bench_page(args: argparse.Namespace) -> int:
    """``hearts bench page``."""
    from tools.bench.page_load import run_bench_page

    return run_bench_page(args)

"""``hearts arena``: bots play hands against each other; print figures.

    hearts arena --players hard,medium,medium,medium --hands 200 --seed 1 \\
        --duplicate --jobs 2 [--json] [--rules variant=spot,players=5]
    hearts arena --players 'hard,py:mybot:make,openspiel:ismcts?sims=4500,medium'

A player is one of our levels, ``py:pkg.module:factory[?key=value&…]`` (a
bot of your own, ``bots.interface``) or ``openspiel:ismcts[?sims=N|seconds=S]``
(the ``openspiel`` extra); see ``bots.lineup``.

``--hands`` counts deals; with ``--duplicate`` each deal is played once per
rotation of the line-up (4 hands per deal). ``--games G`` plays whole games
instead. See docs/bots.md for the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arena_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``arena`` subcommand to ``hearts``'s subparsers."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "arena", help="bots play hands against each other; print figures"
    )
    p.add_argument(
        "--players",
        default="hard,medium,medium,medium",
        help="comma-separated players, one per seat: easy, medium, hard, "
        "py:pkg.module:factory[?k=v&…], openspiel:ismcts[?sims=N|seconds=S]",
    )
    p.add_argument("--hands", type=int, default=100, help="number of deals to play")
    p.add_argument(
        "--games",
        type=int,
        default=None,
        help="play this many whole games (to the rules' end) instead of single hands",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="replay every deal with the line-up rotated through every seat",
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--worlds", type=int, default=None, help="Hard: sampled deals per decision")
    p.add_argument("--max-seconds", type=float, default=None, help="Hard: time cap per decision")
    p.add_argument("--progress", action="store_true", help="show progress on stderr")
    p.add_argument(
        "--rules",
        default=None,
        help="the table's rules as JSON or key=value,… (e.g. variant=spot,players=5); "
        "the line-up needs one level per seat",
    )
    p.set_defaults(run=run_arena)
    return p


def run_arena(args: argparse.Namespace) -> int:
    """Run ``hearts arena`` with parsed ``args``; returns the exit status."""
    from bots.budget import Budget
    from engine.rules_text import parse_rules
    from tools.arena.hands import check_lineup, format_report, run_deals, summarize

    lineup = [x.strip() for x in args.players.split(",") if x.strip()]
    if args.hands < 1:
        raise SystemExit("hearts arena: --hands must be at least 1")
    try:
        rules = parse_rules(args.rules)
        check_lineup(lineup, rules.players)
        budget = None
        if args.worlds is not None or args.max_seconds is not None:
            default = Budget()
            budget = Budget(
                worlds=args.worlds if args.worlds is not None else default.worlds,
                max_seconds=args.max_seconds
                if args.max_seconds is not None
                else default.max_seconds,
            )
    except ValueError as exc:
        raise SystemExit(f"hearts arena: {exc}") from None
    if args.games is not None:
        return _run_games(args, lineup, budget, rules)
    outcomes = list(
        run_deals(
            lineup,
            args.hands,
            args.seed,
            duplicate=args.duplicate,
            jobs=args.jobs,
            budget=budget,
            rules=rules,
            progress=args.progress,
        )
    )
    report = summarize(outcomes, args.hands)
    report["rules"] = rules.to_json()
    report["lineup"] = lineup
    report["seed"] = args.seed
    report["duplicate"] = args.duplicate
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report))
    return 0


def _run_games(args: argparse.Namespace, lineup: list[str], budget: Any, rules: Any) -> int:
    from tools.arena.games import format_games_report, run_games, summarize_games

    if args.games < 1:
        raise SystemExit("hearts arena: --games must be at least 1")
    outcomes = list(
        run_games(
            lineup,
            args.games,
            args.seed,
            jobs=args.jobs,
            budget=budget,
            rules=rules,
            progress=args.progress,
        )
    )
    report = summarize_games(outcomes)
    report["rules"] = rules.to_json()
    report["lineup"] = lineup
    report["seed"] = args.seed
    print(json.dumps(report) if args.json else format_games_report(report))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the arena on its own (``python -m tools.cli.arena ARGS``)."""
    parser = argparse.ArgumentParser(prog="hearts")
    sub = parser.add_subparsers(dest="command", required=True)
    add_arena_parser(sub)
    args = sys.argv[1:] if argv is None else argv
    return run_arena(parser.parse_args(["arena", *args]))


if __name__ == "__main__":
    raise SystemExit(main())

"""Hard's pass against Medium's, on the same deals.

``python -m tools.bench.pass_search --deals 240 --worlds 400 [--rules R]``
deals ``--deals`` hands of the rules ``R`` (``key=value,…`` as for
``hearts arena --rules``; by default Hearts with a widow at four seats),
the deal number cycling through the passing hands of the pass cycle
(left, right, across at four seats; no hold), and lets seat 0 pass two
ways on each:
Medium's careful pass, and Hard's pass search (``bots.passsearch``) with
``--worlds`` (no time cap, so a run is reproducible). Every seat then
plays the hand as Medium (the others pass carefully), so the difference
is the pass's alone. Prints seat 0's mean points each way and the paired
difference with its 95 % interval, and the load average around the run
(docs/bots.md "Hard's pass with a widow", "Hard at 7–10 seats").
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from bots.budget import Budget
from bots.knowledge import knowledge_of
from bots.passing import careful_pass
from bots.passsearch import search_pass
from engine.dealing import deal_hand
from engine.rules import Rules
from engine.rules_text import parse_rules
from tools.arena.hands import arena_table, finish_hand, make_bots


def seat0_points(rules: Rules, deal: int, way: str, worlds: int) -> int:
    """Seat 0's points in deal ``deal`` when it passes ``way``."""
    levels = ("medium",) * rules.players
    passing = [i + 1 for i, d in enumerate(rules.pass_cycle) if d != "hold"]
    if not passing:
        raise ValueError("these rules never pass")
    table = arena_table(rules, levels)
    game = table.game
    game.hand = deal_hand(rules, passing[deal % len(passing)], random.Random(f"wp:{deal}"))
    hand = game.hand
    k = knowledge_of(table.view(0))
    if way == "careful":
        mine = careful_pass(k.hand, rules.pass_count, k.rules.penalty)
    else:
        mine = search_pass(k, random.Random(deal), Budget(worlds=worlds, max_seconds=None))
    game.pass_cards(0, mine)
    finish_hand(table, make_bots(levels, f"wp-bots:{deal}"), levels)
    assert hand.scores is not None  # played out
    return hand.scores[0]


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print it."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench.pass_search")
    parser.add_argument("--deals", type=int, default=240)
    parser.add_argument("--worlds", type=int, default=400, help="Hard's budget.worlds")
    parser.add_argument("--rules", default="variant=widow", help="key=value,… (hearts arena's)")
    args = parser.parse_args(argv)
    rules = parse_rules(args.rules)
    started, load = time.time(), os.getloadavg()
    careful: list[int] = []
    searched: list[int] = []
    for deal in range(args.deals):
        careful.append(seat0_points(rules, deal, "careful", args.worlds))
        searched.append(seat0_points(rules, deal, "search", args.worlds))
        print(f"\r{deal + 1}/{args.deals}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    diffs = [b - a for a, b in zip(careful, searched, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    print(
        f"{args.deals} deals of {args.rules}, Hard's pass search at {args.worlds} worlds: "
        f"careful {statistics.fmean(careful):.2f}, search {statistics.fmean(searched):.2f} "
        f"points a hand; search - careful {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]; "
        f"{time.time() - started:.0f} s, load average {load} -> {os.getloadavg()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

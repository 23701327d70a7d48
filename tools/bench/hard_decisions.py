"""Hard's decision time on real positions of any table (docs/bots.md).

``python -m tools.bench.hard_decisions --rules variant=cancellation,players=10``
plays ``--hands`` hands of Medium bots through the arena's table (every
view built as the server builds it), keeps every ``--every``-th play
decision's view, then times Hard deciding each kept view with its default
budget (1000 worlds, or ``--worlds``; 0.9 s counted from the view), one
after the other in this process. It prints the rules, the positions timed, the decision time
p50/p95/p99/max in ms and the sampler's modes (exact or approximate).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bots.api import decide, needs_decision
from bots.budget import Budget
from bots.interface import LevelBot
from bots.knowledge import knowledge_of
from bots.sampler import plausible_sampler
from engine.dealing import deal_hand
from engine.hand import Phase
from engine.rules_text import parse_rules
from protocol.view import SeatView
from tools.arena.hands import apply_decision, arena_table


def collect_views(rules_text: str, hands: int, every: int, seed: int) -> list[SeatView]:
    """Every ``every``-th view asking a seat to play, over ``hands`` hands of
    Medium bots (the first decision of a hand included)."""
    rules = parse_rules(rules_text)
    lineup = ["medium"] * rules.players
    kept: list[SeatView] = []
    seen = 0
    for number in range(hands):
        table = arena_table(rules, lineup)
        game = table.game
        game.hand = deal_hand(rules, number + 1, random.Random(f"{seed}:{number}"))
        bots = [LevelBot("medium", seed + s) for s in range(rules.players)]
        hand = game.hand
        while hand.phase is not Phase.DONE:
            for seat in hand.waiting_seats():
                view = table.view(seat)
                if needs_decision(view) == "play" and len(view.legal) > 1:
                    if seen % every == 0:
                        kept.append(view)
                    seen += 1
                d = bots[seat].decide(view)
                table.facts.seq += 1
                apply_decision(game, seat, d)
    return kept


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Time Hard on the kept views and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="players=4")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=1000, help="Hard's worlds per decision")
    args = parser.parse_args(argv)
    views = collect_views(args.rules, args.hands, args.every, args.seed)
    times: list[float] = []
    modes: dict[str, int] = {}
    for i, view in enumerate(views):
        start = time.perf_counter()
        decide(view, "hard", random.Random(i), Budget(worlds=args.worlds, started=start))
        times.append((time.perf_counter() - start) * 1000.0)
        # Built again, outside the timing, only to say which way it sampled.
        mode = plausible_sampler(knowledge_of(view)).mode
        modes[mode] = modes.get(mode, 0) + 1
    print(f"rules {args.rules}: {len(times)} positions from {args.hands} hands")
    print(
        f"hard decision ms p50 {statistics.median(times):.0f} p95 {_pct(times, 0.95):.0f}"
        f" p99 {_pct(times, 0.99):.0f} max {max(times):.0f}; sampler {modes}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Whole games in the arena: hands in sequence until the rules end the game.

Single hands (``tools.arena.hands``) measure points per hand; whole games also
exercise what only matters near the end — Hard's objective counts a game won
or lost when a hand can end it, and the moon choice is about the game score.
Game ``g`` seats the line-up rotated by ``g`` seats, so over games that are a
multiple of the player count every level sits everywhere equally often.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from bots.budget import Budget
from engine.cards import QUEEN_SPADES
from engine.rules import Rules

from .hands import arena_table, check_lineup, finish_hand, make_bots, mean_ci95, percentile


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: picklable for the pool."""

    lineup: tuple[str, ...]
    seed: int
    game: int
    budget: Budget | None
    rules: dict[str, Any]


@dataclass(slots=True)
class GameOutcome:
    """One finished game."""

    game: int
    levels: tuple[str, ...]
    totals: tuple[int, ...]
    winner: int
    hands: int
    moons: tuple[int, ...]
    queens: tuple[int, ...]
    decision_ms: tuple[tuple[float, ...], ...]


def play_game(task: GameTask) -> GameOutcome:
    """Play one whole game between the rotated line-up."""
    rules = Rules.from_json(task.rules)
    n = rules.players
    levels = tuple(task.lineup[(s - task.game) % n] for s in range(n))
    table = arena_table(rules, levels)
    game = table.game
    deal_rng = random.Random(f"arena-game:{task.seed}:{task.game}")
    # One bot per seat for the whole game (reset before each hand).
    bots = make_bots(levels, f"bot-game:{task.seed}:{task.game}", task.budget)
    moons = [0] * n
    queens = [0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    while not game.over:
        game.start_hand(deal_rng)
        hand = game.hand
        assert hand is not None  # just dealt
        for seat, t in enumerate(finish_hand(table, bots, levels)):
            times[seat].extend(t)
        if hand.shooter is not None:
            moons[hand.shooter] += 1
        for seat, m in enumerate(hand.taken):
            queens[seat] += m >> QUEEN_SPADES & 1
    assert game.winner is not None  # the loop ends with a winner
    return GameOutcome(
        game=task.game,
        levels=levels,
        totals=tuple(game.totals),
        winner=game.winner,
        hands=len(game.hand_scores),
        moons=tuple(moons),
        queens=tuple(queens),
        decision_ms=tuple(tuple(t) for t in times),
    )


def run_games(
    lineup: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    budget: Budget | None = None,
    rules: Rules | None = None,
    progress: bool = False,
) -> Iterator[GameOutcome]:
    """Play ``games`` whole games and yield them in order."""
    rules = rules or Rules()
    check_lineup(lineup, rules.players)
    tasks = [GameTask(tuple(lineup), seed, g, budget, rules.to_json()) for g in range(games)]
    done = 0
    if jobs <= 1:
        results: Iterator[GameOutcome] = map(play_game, tasks)
        for outcome in results:
            done += 1
            if progress:
                print(f"\r{done}/{games} games", end="", file=sys.stderr, flush=True)
            yield outcome
    else:
        with Pool(jobs) as pool:
            for outcome in pool.imap(play_game, tasks, chunksize=1):
                done += 1
                if progress:
                    print(f"\r{done}/{games} games", end="", file=sys.stderr, flush=True)
                yield outcome
    if progress:
        print(file=sys.stderr)


def summarize_games(outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """Per level: games, wins, win rate, mean final total (95 % CI), moons,
    Q♠ taken and decision times."""
    per: dict[str, dict[str, Any]] = {}
    for o in outcomes:
        for seat, level in enumerate(o.levels):
            st = per.setdefault(
                level, {"games": 0, "wins": 0, "totals": [], "moons": 0, "queens": 0, "ms": []}
            )
            st["games"] += 1
            st["wins"] += o.winner == seat
            st["totals"].append(float(o.totals[seat]))
            st["moons"] += o.moons[seat]
            st["queens"] += o.queens[seat]
            st["ms"].extend(o.decision_ms[seat])
    levels: dict[str, Any] = {}
    for level, st in per.items():
        mean, low, high = mean_ci95(st["totals"])
        ms = sorted(st["ms"])
        levels[level] = {
            "games": st["games"],
            "wins": st["wins"],
            "win_rate": round(st["wins"] / st["games"], 3),
            "mean_total": round(mean, 2),
            "ci95": [round(low, 2), round(high, 2)],
            "moons": st["moons"],
            "queens": st["queens"],
            "decision_ms": {
                "p50": round(percentile(ms, 0.5), 2),
                "p95": round(percentile(ms, 0.95), 2),
                "max": round(ms[-1], 2) if ms else float("nan"),
            },
        }
    return {"levels": levels, "games": len(outcomes), "hands": sum(o.hands for o in outcomes)}


def format_games_report(report: dict[str, Any]) -> str:
    """The game figures as a small text table."""
    lines = [
        f"{report['games']} games, {report['hands']} hands",
        f"{'level':8} {'seats':>6} {'wins':>6} {'win rate':>9} {'mean total':>11} "
        f"{'moons':>6} {'Q♠':>6} {'p95 ms':>8}",
    ]
    for level, f in sorted(report["levels"].items()):
        lines.append(
            f"{level:8} {f['games']:6d} {f['wins']:6d} {f['win_rate']:9.3f} "
            f"{f['mean_total']:11.2f} {f['moons']:6d} {f['queens']:6d} "
            f"{f['decision_ms']['p95']:8.1f}"
        )
    return "\n".join(lines)

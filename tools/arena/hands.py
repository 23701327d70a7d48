"""The arena: bots play hands against each other and we count.

A seat holds any bot a player spec names (``bots.lineup``): one of our
levels, a bot of one's own (``py:pkg.module:factory``) or an OpenSpiel bot
(``openspiel:ismcts?sims=4500``). Each hand runs as on the server: the
engine's ``Game``/``Hand``, every seat's ``SeatView`` built by the function
the server builds views with (``protocol.seat_view.seat_view``, here from
the arena table's public facts), every decision made by the seat's bot
(``bots.interface.Bot.decide``), checked against the view and applied
through the engine's checked actions. Bots only ever get views. Each seat's
bot is made for the hand (``reset()`` before it), from a seed of the run,
the deal, the rotation and the seat.

Hands are independent deals (hand number ``i + 1`` for deal ``i``, so the
pass direction cycles). With ``duplicate`` every deal is replayed once per
rotation of the line-up, so each level plays every seat on the same cards;
the paired differences per deal (``pairs``) then cancel most of the luck of
the deal. Results do not depend on ``jobs``: every deal and every seat's
bot has its own seed.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from bots.api import LEVELS, Decision
from bots.budget import Budget
from bots.interface import Bot, decision_problem, reset_bot
from bots.lineup import PlayerSpec, check_players
from engine.cards import QUEEN_SPADES, card
from engine.dealing import deal_hand, new_hand
from engine.game import Game
from engine.hand import Hand, Phase
from engine.rules import Rules
from protocol.common import BotLevel
from protocol.seat_view import SeatFacts, TableFacts, TrickCache, seat_view
from protocol.view import SeatView


@dataclass(frozen=True, slots=True)
class DealTask:
    """One deal to play (all its rotations): picklable for the pool."""

    lineup: tuple[str, ...]
    seed: int
    deal: int
    duplicate: bool
    budget: Budget | None
    rules: dict[str, Any]


@dataclass(slots=True)
class HandOutcome:
    """One hand played: who sat where and what happened."""

    deal: int
    rotation: int
    levels: tuple[str, ...]
    points: tuple[int, ...]
    shooter: int | None
    queen: int | None
    decision_ms: tuple[tuple[float, ...], ...]


@dataclass(slots=True)
class LevelStats:
    """Figures for one level over a run."""

    points: list[int] = field(default_factory=list)
    moons: int = 0
    queens: int = 0
    decision_ms: list[float] = field(default_factory=list)


def deal_hands(rules: Rules, seed: int, deal: int) -> tuple[list[int], list[int]]:
    """The cards of deal number ``deal`` (0-based) of a run with ``seed``:
    the hands and the face-down stock (top first; empty unless the variant
    deals one)."""
    hand = deal_hand(rules, deal + 1, random.Random(f"arena:{seed}:{deal}"))
    return hand.hands[:], list(hand.dealt_stock)


@dataclass(slots=True)
class ArenaTable:
    """A table of bots: its game, its public facts and its finished tricks,
    as the server keeps them."""

    game: Game
    facts: TableFacts
    tricks: TrickCache = field(default_factory=TrickCache)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now."""
        return seat_view(self.game, self.facts, seat, tricks=self.tricks)


def arena_seat(spec: str) -> SeatFacts:
    """The seat a player spec takes: one of our levels sits as our bots do,
    any other bot as a program (``SeatInfo.program``)."""
    if spec in LEVELS:
        return SeatFacts(kind="bot", name=f"{spec.title()} bot", bot_level=_bot_level(spec))
    return SeatFacts(kind="human", name=spec[:24], program=True)


def seed_of(text: str) -> int:
    """An integer seed drawn from a text (stable across processes)."""
    return random.Random(text).getrandbits(63)


def arena_table(rules: Rules, levels: Sequence[str]) -> ArenaTable:
    """A table of bots, as the server would show it, with a fresh game."""
    seats = tuple(arena_seat(spec) for spec in levels)
    facts = TableFacts(rules, seats, table_id="arena", code="ARENA", name="Arena")
    return ArenaTable(Game(rules), facts)


def _bot_level(level: str) -> BotLevel:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return level


def play_hand(
    rules: Rules,
    levels: Sequence[str],
    hands: Sequence[int],
    hand_number: int,
    seed: str,
    budget: Budget | None = None,
    stock: Sequence[int] = (),
) -> tuple[Hand, list[list[float]]]:
    """Play one hand between ``levels`` (player specs, one per seat) from a
    given deal (``stock``: its face-down cards, top first, where the variant
    has one); each seat's bot is made from ``seed`` and the seat.

    Returns the finished hand and each seat's decision times in ms.
    """
    table = arena_table(rules, levels)
    game = table.game
    # Independent deals: the hand number only picks the pass direction.
    game.hand = new_hand(rules, hand_number, hands, stock)
    times = finish_hand(table, make_bots(levels, seed, budget), levels)
    return game.hand, times


def make_bots(specs: Sequence[str], seed: str, budget: Budget | None = None) -> list[Bot]:
    """One fresh bot per seat, seeded from ``seed`` and the seat."""
    return [
        PlayerSpec(spec, budget).make(seed_of(f"{seed}:{seat}")) for seat, spec in enumerate(specs)
    ]


def apply_decision(game: Game, seat: int, d: Decision) -> None:
    """Play a bot's decision for ``seat`` on ``game`` (checked by the engine)."""
    if d.kind == "pass":
        game.pass_cards(seat, [card(t) for t in d.cards])
    elif d.kind == "play":
        assert d.card is not None  # a play decision carries its card
        game.play(seat, card(d.card))
    elif d.kind == "discard":
        game.discard_widow(seat, [card(t) for t in d.cards])
    else:
        assert d.moon is not None  # a moon decision carries the choice
        game.choose_moon(seat, d.moon)


def finish_hand(table: ArenaTable, bots: Sequence[Bot], names: Sequence[str]) -> list[list[float]]:
    """Let the bots play the table's current hand to its end, each decision
    from the seat's view (each bot ``reset()`` first); returns each seat's
    decision times in ms. A decision the view does not allow raises
    ``RuntimeError`` naming the player."""
    game = table.game
    assert game.hand is not None  # a hand is under way
    hand = game.hand
    times: list[list[float]] = [[] for _ in bots]
    for bot in bots:
        reset_bot(bot)
    while hand.phase is not Phase.DONE:
        for seat in hand.waiting_seats():
            view = table.view(seat)
            start = time.perf_counter()
            d = bots[seat].decide(view)
            times[seat].append((time.perf_counter() - start) * 1000.0)
            problem = decision_problem(view, d)
            if problem is not None:
                raise RuntimeError(f"{names[seat]} at seat {seat}: {problem}")
            table.facts.seq += 1
            apply_decision(game, seat, d)
    return times


def play_deal(task: DealTask) -> list[HandOutcome]:
    """Every rotation of one deal (one rotation unless duplicate)."""
    rules = Rules.from_json(task.rules)
    n = rules.players
    hands, stock = deal_hands(rules, task.seed, task.deal)
    rotations = range(n) if task.duplicate else [task.deal % n]
    out = []
    for r in rotations:
        levels = tuple(task.lineup[(s - r) % n] for s in range(n))
        hand, times = play_hand(
            rules,
            levels,
            hands,
            task.deal + 1,
            f"bot:{task.seed}:{task.deal}:{r}",
            task.budget,
            stock,
        )
        assert hand.scores is not None  # the hand is DONE
        queen = next((s for s, m in enumerate(hand.taken) if m >> QUEEN_SPADES & 1), None)
        out.append(
            HandOutcome(
                deal=task.deal,
                rotation=r,
                levels=levels,
                points=hand.scores,
                shooter=hand.shooter,
                queen=queen,
                decision_ms=tuple(tuple(t) for t in times),
            )
        )
    return out


def check_lineup(lineup: Sequence[str], players: int) -> None:
    """Raise ``ValueError`` (a ``BotSpecError``) unless ``lineup`` names one
    player per seat that can be made (see ``bots.lineup``)."""
    check_players([PlayerSpec(spec) for spec in lineup], players)


def run_deals(
    lineup: Sequence[str],
    deals: int,
    seed: int,
    duplicate: bool = False,
    jobs: int = 1,
    budget: Budget | None = None,
    rules: Rules | None = None,
    progress: bool = False,
) -> Iterator[HandOutcome]:
    """Play ``deals`` deals and yield every hand played, in deal order."""
    rules = rules or Rules()
    check_lineup(lineup, rules.players)
    tasks = [
        DealTask(tuple(lineup), seed, d, duplicate, budget, rules.to_json()) for d in range(deals)
    ]
    done = 0
    if jobs <= 1:
        results: Iterator[list[HandOutcome]] = map(play_deal, tasks)
        for outcome in results:
            done += 1
            if progress:
                print(f"\r{done}/{deals} deals", end="", file=sys.stderr, flush=True)
            yield from outcome
    else:
        with Pool(jobs) as pool:
            for outcome in pool.imap(play_deal, tasks, chunksize=1):
                done += 1
                if progress:
                    print(f"\r{done}/{deals} deals", end="", file=sys.stderr, flush=True)
                yield from outcome
    if progress:
        print(file=sys.stderr)


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95 % confidence interval (normal approximation)."""
    n = len(values)
    if not n:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of already sorted values."""
    if not sorted_values:
        return math.nan
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def summarize(outcomes: Sequence[HandOutcome], deals: int) -> dict[str, Any]:
    """The arena's figures as a JSON-able dict (see docs/bots.md)."""
    stats: dict[str, LevelStats] = {}
    per_deal: dict[int, dict[str, list[int]]] = {}
    for o in outcomes:
        for seat, level in enumerate(o.levels):
            st = stats.setdefault(level, LevelStats())
            st.points.append(o.points[seat])
            st.moons += o.shooter == seat
            st.queens += o.queen == seat
            st.decision_ms.extend(o.decision_ms[seat])
            per_deal.setdefault(o.deal, {}).setdefault(level, []).append(o.points[seat])
    levels = {level: _level_figures(st) for level, st in stats.items()}
    pairs = _pair_figures(sorted(stats), per_deal)
    return {"levels": levels, "pairs": pairs, "hands": len(outcomes), "deals": deals}


def _level_figures(st: LevelStats) -> dict[str, Any]:
    """One level's figures: its mean points per hand (with a 95% interval),
    moons, queens and decision times."""
    mean, low, high = mean_ci95([float(p) for p in st.points])
    ms = sorted(st.decision_ms)
    return {
        "hands": len(st.points),
        "mean_points": round(mean, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "moons": st.moons,
        "queens": st.queens,
        "decision_ms": {
            "p50": round(percentile(ms, 0.50), 2),
            "p95": round(percentile(ms, 0.95), 2),
            "max": round(ms[-1], 2) if ms else math.nan,
        },
    }


def _pair_figures(names: list[str], per_deal: dict[int, dict[str, list[int]]]) -> dict[str, Any]:
    """Per pair of levels ``a-b`` (a < b), the mean difference of their
    points on the deals both played (with a 95% interval)."""
    pairs: dict[str, Any] = {}
    for a in names:
        for b in names:
            if a >= b:
                continue
            diffs = [
                sum(d[a]) / len(d[a]) - sum(d[b]) / len(d[b])
                for d in per_deal.values()
                if a in d and b in d
            ]
            if diffs:
                mean, low, high = mean_ci95(diffs)
                pairs[f"{a}-{b}"] = {
                    "deals": len(diffs),
                    "mean_diff": round(mean, 3),
                    "ci95": [round(low, 3), round(high, 3)],
                }
    return pairs


def format_report(report: dict[str, Any]) -> str:
    """The figures as a small text table."""
    width = max([8, *(len(name) for name in report["levels"])])
    lines = [
        f"{report['deals']} deals, {report['hands']} hands",
        f"{'player':{width}} {'hands':>6} {'points/hand':>12} {'95% CI':>17} {'moons':>6} "
        f"{'Q♠':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}",
    ]
    for level, f in sorted(report["levels"].items()):
        ms = f["decision_ms"]
        lines.append(
            f"{level:{width}} {f['hands']:6d} {f['mean_points']:12.3f} "
            f"{f['ci95'][0]:8.3f}-{f['ci95'][1]:<8.3f} {f['moons']:6d} {f['queens']:6d} "
            f"{ms['p50']:8.1f} {ms['p95']:8.1f} {ms['max']:8.1f}"
        )
    for name, p in sorted(report["pairs"].items()):
        lines.append(
            f"{name}: {p['mean_diff']:+.3f} points/hand per deal "
            f"(95% CI {p['ci95'][0]:+.3f} .. {p['ci95'][1]:+.3f}, {p['deals']} deals)"
        )
    return "\n".join(lines)

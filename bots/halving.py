"""Successive halving: how Hard picks among a few candidate moves (a pass, a
widow discard) by playing each out on sampled deals.

Each stage plays every candidate still in the running on a share of the
deals, then keeps the best few by their summed value; the last stage keeps
one. The same deals serve every candidate of a stage (common random
numbers), so a difference between two candidates is theirs, not the deals'.
A ``keep`` candidate (the hand review's chosen move) is played on every deal
and listed at the end wherever it ranks, so the review can say how far it
was from the best.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .budget import Pacer

Stages = Sequence[tuple[float, int]]
"""(share of the deals, candidates kept after the stage), stage by stage."""


def successive_halving(
    cands: list[int],
    deals: int,
    stages: Stages,
    pacer: Pacer,
    play_deal: Callable[[list[int]], list[float]],
    keep: int = 0,
) -> list[tuple[int, float, int]]:
    """The candidates still in the running, best first, each as (candidate,
    summed value, deals played). ``play_deal(tried)`` samples one deal and
    returns each tried candidate's value on it (higher is better); the
    ``pacer`` may end the search early, after a whole deal."""
    sums = dict.fromkeys(cands, 0.0)
    plays = dict.fromkeys(cands, 0)
    if keep and keep not in sums:
        sums[keep] = 0.0
        plays[keep] = 0
    alive = list(cands)
    for share, kept in stages:
        tried = alive if not keep or keep in alive else [*alive, keep]
        in_time = _play_stage(tried, max(1, int(deals * share)), pacer, play_deal, sums, plays)
        alive.sort(key=lambda m: (-sums[m], m))
        alive = alive[:kept]
        if len(alive) == 1 or not in_time:
            break
    if keep and keep not in alive:
        alive.append(keep)
    return [(m, sums[m], plays[m]) for m in alive]


def _play_stage(
    tried: list[int],
    deals: int,
    pacer: Pacer,
    play_deal: Callable[[list[int]], list[float]],
    sums: dict[int, float],
    plays: dict[int, int],
) -> bool:
    """Play ``tried`` on ``deals`` deals, adding to ``sums`` and ``plays``;
    False when the pacer stopped the stage early."""
    for _ in range(deals):
        for m, value in zip(tried, play_deal(tried), strict=True):
            sums[m] += value
            plays[m] += 1
        if not pacer.another():
            return False
    return True

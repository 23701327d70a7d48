"""Successive halving (bots.halving): stages keep the best candidates, a kept
candidate is played on every deal, the pacer ends a search early."""

from __future__ import annotations

from bots.budget import Pacer
from bots.halving import successive_halving

STAGES = ((0.5, 2), (0.5, 1))


def by_value(tried: list[int]) -> list[float]:
    return [float(m) for m in tried]  # the candidate's own number is its value


def test_each_stage_keeps_the_best_and_the_last_keeps_one() -> None:
    played: list[list[int]] = []

    def deal(tried: list[int]) -> list[float]:
        played.append(list(tried))
        return by_value(tried)

    out = successive_halving([1, 5, 3], 4, STAGES, Pacer(None, lambda: 0.0), deal)
    assert out == [(5, 20.0, 4)]
    assert played == [[1, 5, 3], [1, 5, 3], [5, 3], [5, 3]]


def test_a_kept_candidate_is_played_on_every_deal_and_listed_last() -> None:
    out = successive_halving([1, 5, 3], 4, STAGES, Pacer(None, lambda: 0.0), by_value, keep=1)
    assert out == [(5, 20.0, 4), (1, 4.0, 4)]


def test_the_pacer_ends_the_search_after_a_whole_deal() -> None:
    now = iter(float(t) for t in range(100))
    pacer = Pacer(deadline=2.5, clock=lambda: next(now))
    out = successive_halving([1, 5, 3], 100, STAGES, pacer, by_value)
    # Deals of one second each: the second would end past the deadline.
    assert [plays for _, _, plays in out] == [1, 1]
    assert [m for m, _, _ in out] == [5, 3]

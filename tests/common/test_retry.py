"""The backoff every retry loop waits by: capped, jittered, reproducible
from a seed, and never a sleep in these tests."""

from __future__ import annotations

import random

import pytest

from common.retry import Backoff


def test_delays_stay_under_a_ceiling_that_doubles_up_to_the_cap() -> None:
    backoff = Backoff(0.1, 2.0, rng=random.Random(7))
    ceilings = [backoff.ceiling(n) for n in range(8)]
    assert ceilings == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0, 2.0])
    for ceiling in ceilings:
        assert 0.0 <= backoff.next() <= ceiling
    assert backoff.attempts == 8


def test_the_same_seed_gives_the_same_delays() -> None:
    one = Backoff(0.05, 1.0, rng=random.Random(42))
    two = Backoff(0.05, 1.0, rng=random.Random(42))
    assert [one.next() for _ in range(20)] == [two.next() for _ in range(20)]


def test_delays_are_jittered_over_the_whole_range() -> None:
    # Full jitter: at the cap, delays spread over [0, cap], not bunched at it
    # (tables that failed together do not all retry together).
    backoff = Backoff(1.0, 1.0, rng=random.Random(3))
    delays = [backoff.next() for _ in range(2000)]
    assert min(delays) < 0.05 and max(delays) > 0.95
    assert 0.45 < sum(delays) / len(delays) < 0.55
    assert len(set(delays)) == len(delays)


def test_waited_adds_up_the_delays_given_and_reset_starts_over() -> None:
    backoff = Backoff(0.1, 5.0, rng=random.Random(1))
    given = [backoff.next() for _ in range(5)]
    assert backoff.waited == pytest.approx(sum(given))
    backoff.reset()
    assert (backoff.attempts, backoff.waited) == (0, 0.0)
    assert backoff.next() <= 0.1


def test_delay_by_attempt_number_is_neither_counted_nor_bounded_by_overflow() -> None:
    backoff = Backoff(0.1, 5.0, rng=random.Random(9))
    assert backoff.delay(10_000) <= 5.0  # a long outage: no float overflow
    assert backoff.delay(-3) <= 0.1
    assert (backoff.attempts, backoff.waited) == (0, 0.0)


@pytest.mark.parametrize(
    ("first", "cap", "factor"), [(0.0, 1.0, 2.0), (2.0, 1.0, 2.0), (0.1, 1.0, 0.5)]
)
def test_a_schedule_that_could_not_back_off_is_refused(
    first: float, cap: float, factor: float
) -> None:
    with pytest.raises(ValueError):
        Backoff(first, cap, factor=factor)

"""Hard's budget: the pacer stops a search before its deadline."""

from __future__ import annotations

from bots.budget import Budget, Pacer


class _Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_pacer_stops_while_two_longest_rounds_would_still_fit() -> None:
    clock = _Clock()
    pacer = Pacer(Budget(max_seconds=1.0).deadline(clock()), clock)
    rounds = 0
    while True:
        # Rounds of 100 ms, one of 150 ms: the pacer must leave room for
        # two of the longest after the last round it allows.
        clock.now += 0.15 if rounds == 2 else 0.1
        rounds += 1
        if not pacer.another():
            break
    # After 0.65 s two rounds of 0.15 still fit (0.95); after 0.75 they do
    # not (1.05): it stops there, a whole longest round before the cap.
    assert rounds == 7
    assert clock.now + 0.15 <= 100.0 + 1.0


def test_without_a_time_cap_the_pacer_never_stops() -> None:
    clock = _Clock()
    pacer = Pacer(Budget(max_seconds=None).deadline(clock()), clock)
    for _ in range(1000):
        clock.now += 10.0
        assert pacer.another()

"""How long to wait between attempts: capped exponential backoff with full
jitter.

Every retry loop of the server and the client (a commit while the store is
unreachable, the cluster bus reconnecting and publishing, a client
reconnecting and rejoining its table) waits by one ``Backoff``. The delay
before attempt *n* (counted from 0) is drawn uniformly from
``[0, min(cap, first * factor ** n)]``: "full jitter", so that many clients
or tables that failed at the same moment (a Redis restart, a server
handing its tables over) do not all come back at the same moment either.

The schedule is sans-I/O: it draws delays from the ``random.Random`` it is
given and never sleeps or reads a clock; the caller sleeps. Tests pass a
seeded generator and check the delays without waiting.

It lives in ``common`` (below ``engine``) because the server and the client
both use it, and neither ``protocol`` (the wire) nor ``engine`` (the rules)
is its home. The libraries' own retries were weighed: websockets'
reconnecting ``connect`` retries one URL with its own schedule, where the
client rotates several servers, gives up after a while and tells refusals
from drops; redis-py's ``Retry`` retries single commands, where the server
retries a whole commit (with its token) and a pub/sub subscription.
"""

from __future__ import annotations

import random

# 2 ** 64 times any sensible first delay is past every cap: the exponent
# stops there so that a long outage never overflows a float.
_MAX_EXPONENT = 64


class Backoff:
    """The delays of one run of attempts. ``next()`` gives the delay before
    the next attempt and counts it; ``reset()`` starts over after a success."""

    __slots__ = ("_rng", "attempts", "cap", "factor", "first", "waited")

    def __init__(
        self,
        first: float,
        cap: float,
        *,
        factor: float = 2.0,
        rng: random.Random | None = None,
    ) -> None:
        if not 0 < first <= cap:
            raise ValueError(f"need 0 < first <= cap, got first={first}, cap={cap}")
        if factor < 1:
            raise ValueError(f"the factor must be at least 1, got {factor}")
        self.first = first
        self.cap = cap
        self.factor = factor
        self._rng = rng if rng is not None else random.Random()
        # Attempts waited for so far, and the seconds of their delays (a
        # loop that gives up after a while compares ``waited`` with it).
        self.attempts = 0
        self.waited = 0.0

    def ceiling(self, attempt: int) -> float:
        """The longest delay before attempt ``attempt`` (0: the first retry)."""
        exponent = min(max(attempt, 0), _MAX_EXPONENT)
        return min(self.cap, self.first * self.factor**exponent)

    def delay(self, attempt: int) -> float:
        """A delay before attempt ``attempt``, drawn in ``[0, ceiling]``;
        neither counted nor remembered (for a caller that numbers its own
        attempts)."""
        return self._rng.uniform(0.0, self.ceiling(attempt))

    def next(self) -> float:
        """The delay before the next attempt, counted in ``attempts`` and
        ``waited``."""
        wait = self.delay(self.attempts)
        self.attempts += 1
        self.waited += wait
        return wait

    def reset(self) -> None:
        """Start over: the next delay is again at most ``first``."""
        self.attempts = 0
        self.waited = 0.0

"""How many tables a client may create: a budget per client address and one
per player, each a token bucket (a burst, refilled at a steady rate).

A person plays game after game, or tries rule sets (create, leave, create
…): at that pace a bucket never runs dry, since it refills faster than
people create tables. A script creating tables as fast as it can spends the
burst at once and then gets the refill rate and no more, however many
connections it opens (the budget is the address's, not the connection's)
and whatever player tokens it makes up (the address budget holds then).

A client address is what ``server.address_guard.client_key`` makes of it
(an IPv4 address, an IPv6 /64). The player is the ``hello``'s player id;
the player budget is the smaller one, so that people sharing an address
(a household, an office behind NAT) do not spend each other's budget
before their own.

A table is paid for when its creation starts (``take``), not when it is
done: creations in flight at once (many connections) could otherwise all
pass the check. A creation that fails gets its tables back (``refund``).

The budgets live in each server process: behind N processes an address
gets at most N budgets. Entries are kept for the least recently used
``max_keys`` addresses and players; a forgotten one starts again full,
which is what it would have refilled to in the meantime anyway (an entry
is forgotten only after many others were used since).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from .address_guard import client_key

log = logging.getLogger("hearts.budget")


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    # Whether the refusal of this key has been logged since its last table
    # (a script refused a thousand times is one log line, not a thousand).
    refusal_logged: bool = False


@dataclass(frozen=True)
class BudgetRule:
    """One budget: ``burst`` tables at once, refilled at ``per_minute``.
    Either one 0 means no budget (unlimited)."""

    burst: int
    per_minute: float

    @property
    def limited(self) -> bool:
        """Whether this budget limits anything."""
        return self.burst > 0 and self.per_minute > 0


@dataclass(frozen=True)
class Refusal:
    """Why a table is refused and when one may be created again."""

    budget: str  # "player" or "address"
    retry_after: float


class _Buckets:
    """Token buckets by key under one rule, least recently used first."""

    def __init__(self, rule: BudgetRule, max_keys: int, clock: Callable[[], float]) -> None:
        self.rule = rule
        self.max_keys = max_keys
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def _refilled(self, key: str) -> _Bucket:
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = _Bucket(tokens=float(self.rule.burst), stamp=now)
            self._buckets[key] = bucket
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            rate = self.rule.per_minute / 60.0
            bucket.tokens = min(float(self.rule.burst), bucket.tokens + (now - bucket.stamp) * rate)
            bucket.stamp = now
            self._buckets.move_to_end(key)
        return bucket

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a table to spend (0: now)."""
        if not self.rule.limited:
            return 0.0
        bucket = self._refilled(key)
        if bucket.tokens >= 1.0:
            return 0.0
        return (1.0 - bucket.tokens) * 60.0 / self.rule.per_minute

    def spend(self, key: str) -> None:
        """Spend one table of ``key`` (``wait`` said 0)."""
        if self.rule.limited:
            bucket = self._refilled(key)
            bucket.tokens -= 1.0
            bucket.refusal_logged = False

    def give_back(self, key: str) -> None:
        """A table spent for nothing (its creation failed)."""
        if self.rule.limited:
            bucket = self._refilled(key)
            bucket.tokens = min(float(self.rule.burst), bucket.tokens + 1.0)

    def first_refusal(self, key: str) -> bool:
        """Whether this is the key's first refusal since its last table."""
        bucket = self._buckets.get(key)
        if bucket is None or bucket.refusal_logged:
            return False
        bucket.refusal_logged = True
        return True

    def __len__(self) -> int:
        return len(self._buckets)


TokenBuckets = _Buckets
"""Token buckets by key under one ``BudgetRule`` (the hand review's
per-player budget uses them too)."""


class CreationBudget:
    """The table-creation budgets of client addresses and players."""

    def __init__(
        self,
        per_address: BudgetRule,
        per_player: BudgetRule,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._addresses = _Buckets(per_address, max_keys, clock)
        self._players = _Buckets(per_player, max_keys, clock)

    def take(self, address: str, player_id: str) -> Refusal | None:
        """Spend a table of ``address`` and of ``player_id``, or say why not
        (nothing is spent then). The player's budget is asked first: a
        person who creates too fast is told it is theirs, not their
        network's."""
        key = client_key(address)
        waits = (
            ("player", self._players, player_id, self._players.wait(player_id)),
            ("address", self._addresses, key, self._addresses.wait(key)),
        )
        for budget, buckets, who, wait in waits:
            if wait > 0:
                if buckets.first_refusal(who):
                    log.warning(
                        "refusing new tables to %s %s for %.0f s: its budget of %d"
                        " (%.4g a minute) is spent",
                        budget,
                        address if budget == "address" else who,
                        wait,
                        buckets.rule.burst,
                        buckets.rule.per_minute,
                        extra={"event": "budget_refused", "budget": budget},
                    )
                return Refusal(budget, wait)
        self._players.spend(player_id)
        self._addresses.spend(key)
        return None

    def refund(self, address: str, player_id: str) -> None:
        """Give back the table ``take`` spent: its creation failed."""
        self._players.give_back(player_id)
        self._addresses.give_back(client_key(address))

    def tracked(self) -> tuple[int, int]:
        """How many addresses and players have an entry (bounded by ``max_keys``)."""
        return len(self._addresses), len(self._players)

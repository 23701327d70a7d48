"""Operators' bans: a player (by public id) or a client address kept out
for a while (``hearts admin ban``).

Bans live in the memory of the process that was told (each process of a
cluster has its own admin listener: ban on each). An address is banned as
its budget key (``address_guard.client_key``: an IPv4 address, an IPv6 /64),
so a client cannot step around a ban by taking the next address of its
network. Expired bans are dropped when looked at.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .address_guard import client_key


@dataclass(frozen=True, slots=True)
class Ban:
    """Who is kept out, until when (``time.monotonic()``), and why."""

    kind: str  # "player" or "address"
    who: str
    until: float
    reason: str


class Bans:
    """The bans of one process."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._bans: dict[tuple[str, str], Ban] = {}

    def ban(self, kind: str, who: str, seconds: float, reason: str) -> Ban:
        """Keep ``who`` out for ``seconds`` (a new ban replaces an old one)."""
        key = client_key(who) if kind == "address" else who
        ban = Ban(kind, key, self._clock() + seconds, reason)
        self._bans[(kind, key)] = ban
        return ban

    def lift(self, kind: str, who: str) -> bool:
        """End a ban early; whether there was one."""
        key = client_key(who) if kind == "address" else who
        return self._bans.pop((kind, key), None) is not None

    def refusal(self, *, address: str | None = None, player: str | None = None) -> str | None:
        """The sentence a banned client is closed with (None: not banned)."""
        now = self._clock()
        for kind, who in (("address", address), ("player", player)):
            if not who:
                continue
            key = client_key(who) if kind == "address" else who
            ban = self._bans.get((kind, key))
            if ban is None:
                continue
            if ban.until <= now:
                del self._bans[(kind, key)]
                continue
            left = max(1, round(ban.until - now))
            because = f" ({ban.reason})" if ban.reason else ""
            return f"banned by the operator for {left} more s{because}"[:120]
        return None

    def active(self) -> list[Ban]:
        """Bans still running."""
        now = self._clock()
        return [ban for ban in self._bans.values() if ban.until > now]

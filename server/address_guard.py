"""Limits per client address: connections, and failed invite-code lookups.

An invite code is short enough to read aloud (six characters of 31), so it
can be guessed by brute force unless guesses are scarce. The budget is kept
per address, not per connection, so reconnecting does not refill it:

* a handful of misses (codes that name no table) are free, then each
  further miss makes the address wait longer before its next lookup
  (1 s, 2 s, 4 s, … up to ``max_wait``); misses are forgiven slowly
  (one per ``forgive_every`` seconds) so an honest typo is soon forgotten;
* while an address waits, lookups by code are answered ``rate_limited`` with
  ``retry_after``, found or not, so waiting reveals nothing; only a player
  who holds the invite link's secret is let through at once (see
  ``server.connection``);
* a lookup counts from the moment it starts, not only once the store has
  answered: lookups in flight at once (one per connection, many
  connections) may not outnumber the misses still free, and past those,
  one lookup at a time is let through. Otherwise every connection of the
  address would pass the check while the store takes its time, and the
  budget would be multiplied by the connections.

The budget lives in each server process: behind a load balancer with N
processes an address gets at most N budgets, still a few answers a minute.

A client is one IPv4 address, or one IPv6 /64 (``client_key``): an IPv6
host can take any address of its /64 (privacy addresses rotate by
themselves), so counting each address apart would give it budgets at will.

Which address a connection comes from is its peer address, unless the peer
is a trusted proxy (``--trusted-proxy``): then the proxy's
``X-Forwarded-For`` (or ``X-Real-IP``) header names the client. Nothing is
trusted by default: anyone can send those headers.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

log = logging.getLogger("hearts.guard")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """``10.0.0.0/8``, ``127.0.0.1``, ``::1`` … as networks; ``ValueError``
    for anything else (a configuration mistake, reported at start-up)."""
    return tuple(ipaddress.ip_network(spec.strip(), strict=False) for spec in specs)


def _is_trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in trusted)


def client_address(peer: str, headers: Mapping[str, str], trusted: tuple[Network, ...]) -> str:
    """The address a connection comes from. Forwarding headers count only
    when ``peer`` is a trusted proxy; then the client is the rightmost
    ``X-Forwarded-For`` hop that is not itself a trusted proxy (hops further
    left were written by the client and prove nothing)."""
    if not trusted or not _is_trusted(peer, trusted):
        return peer
    forwarded = headers.get("X-Forwarded-For", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop
    real_ip = headers.get("X-Real-IP", "").strip()
    if real_ip and not hops:
        return real_ip
    return hops[0] if hops else peer


def client_key(address: str) -> str:
    """Whose budget ``address`` spends: an IPv4 address itself (also when
    seen as ``::ffff:a.b.c.d`` through an IPv6 socket), an IPv6 address its
    /64 network; anything else (not an IP address) itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class _Misses:
    count: float = 0.0
    stamp: float = 0.0
    locked_until: float = 0.0


class AddressGuard:
    """Connections and the code-lookup budget of each client address."""

    def __init__(
        self,
        trusted_proxies: Iterable[str] = (),
        max_connections: int = 64,
        free_misses: int = 5,
        base_wait: float = 1.0,
        max_wait: float = 300.0,
        forgive_every: float = 60.0,
        max_addresses: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.trusted = parse_networks(trusted_proxies)
        self.max_connections = max_connections
        self.free_misses = free_misses
        self.base_wait = base_wait
        self.max_wait = max_wait
        self.forgive_every = forgive_every
        self.max_addresses = max_addresses
        self._clock = clock
        self._connections: dict[str, int] = {}
        # Lookups by code started and not yet answered, per address.
        self._in_flight: dict[str, int] = {}
        # Least recently missed first, so the oldest entries go when full.
        self._misses: OrderedDict[str, _Misses] = OrderedDict()

    def address_of(self, peer: str, headers: Mapping[str, str]) -> str:
        """The client address of a connection from ``peer`` (see module doc)."""
        return client_address(peer, headers, self.trusted)

    # -- connections -------------------------------------------------------

    def connect(self, address: str) -> bool:
        """Count a new connection; False (not counted) when the address
        already has ``max_connections``."""
        address = client_key(address)
        count = self._connections.get(address, 0)
        if count >= self.max_connections:
            return False
        self._connections[address] = count + 1
        return True

    def disconnect(self, address: str) -> None:
        """A counted connection closed."""
        address = client_key(address)
        count = self._connections.get(address, 0) - 1
        if count > 0:
            self._connections[address] = count
        else:
            self._connections.pop(address, None)

    def connections(self, address: str) -> int:
        """Open connections of ``address``."""
        address = client_key(address)
        return self._connections.get(address, 0)

    # -- code lookups ----------------------------------------------------------

    def _entry(self, address: str, create: bool) -> _Misses | None:
        entry = self._misses.get(address)
        now = self._clock()
        if entry is not None:
            # Forgive slowly: one miss per forgive_every seconds.
            entry.count = max(0.0, entry.count - (now - entry.stamp) / self.forgive_every)
            entry.stamp = now
            if entry.count == 0.0 and entry.locked_until <= now and not create:
                del self._misses[address]
                return None
            return entry
        if not create:
            return None
        entry = _Misses(stamp=now)
        self._misses[address] = entry
        while len(self._misses) > self.max_addresses:
            self._misses.popitem(last=False)
        return entry

    def lookup_wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next lookup by code (0: now).
        Besides a lock after misses, lookups already in flight count as
        misses to come: when they could use up what is still free, the
        next one waits ``base_wait`` (by then they have been answered)."""
        address = client_key(address)
        entry = self._entry(address, create=False)
        missed = entry.count if entry is not None else 0.0
        locked = max(0.0, entry.locked_until - self._clock()) if entry is not None else 0.0
        if locked > 0:
            return locked
        in_flight = self._in_flight.get(address, 0)
        if in_flight and missed + in_flight >= self.free_misses:
            return self.base_wait
        return 0.0

    def lookup_started(self, address: str) -> None:
        """A lookup by code from ``address`` was let through (``lookup_wait``
        said 0) and is on its way to the store."""
        address = client_key(address)
        self._in_flight[address] = self._in_flight.get(address, 0) + 1

    def lookup_ended(self, address: str) -> None:
        """That lookup was answered (a miss is counted by ``miss`` first)."""
        address = client_key(address)
        left = self._in_flight.get(address, 0) - 1
        if left > 0:
            self._in_flight[address] = left
        else:
            self._in_flight.pop(address, None)

    def miss(self, address: str) -> float:
        """A lookup from ``address`` named no table: count it; returns how
        long the address must now wait (0 while misses are still free)."""
        address = client_key(address)
        entry = self._entry(address, create=True)
        assert entry is not None  # created on demand
        self._misses.move_to_end(address)
        entry.count += 1
        excess = entry.count - self.free_misses
        if excess <= 0:
            return 0.0
        wait = min(self.max_wait, self.base_wait * 2 ** (excess - 1))
        entry.locked_until = self._clock() + wait
        log.warning(
            "throttling invite-code lookups from %s for %.0f s (%d misses)",
            address,
            wait,
            round(entry.count),
        )
        return wait

"""The per-address guard's rules, with an injected clock: free misses, then
doubling waits; slow forgiveness; connection counts; whose forwarding
headers are believed."""

from __future__ import annotations

import pytest

from server.address_guard import AddressGuard, client_address, parse_networks


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_handful_of_misses_is_free_then_each_waits_twice_as_long() -> None:
    clock = Clock()
    guard = AddressGuard(free_misses=3, base_wait=1.0, max_wait=8.0, clock=clock)
    assert [guard.miss("1.2.3.4") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert guard.lookup_wait("1.2.3.4") == 0.0
    assert guard.miss("1.2.3.4") == pytest.approx(1.0)
    assert guard.lookup_wait("1.2.3.4") == pytest.approx(1.0)
    clock.now += 1.0
    assert guard.lookup_wait("1.2.3.4") == 0.0
    waits = [guard.miss("1.2.3.4") for _ in range(4)]
    assert waits[0] == pytest.approx(2.0, abs=0.05)
    assert waits[-1] == 8.0  # capped
    assert guard.lookup_wait("5.6.7.8") == 0.0  # other addresses are not touched


def test_misses_are_forgiven_slowly() -> None:
    clock = Clock()
    guard = AddressGuard(free_misses=2, forgive_every=60.0, clock=clock)
    guard.miss("a")
    guard.miss("a")
    clock.now += 60.0  # one miss forgiven: one more is free again
    assert guard.miss("a") == 0.0
    assert guard.miss("a") > 0.0


def test_lookups_in_flight_count_against_the_free_misses() -> None:
    guard = AddressGuard(free_misses=2, base_wait=1.0, clock=Clock())
    guard.lookup_started("a")
    assert guard.lookup_wait("a") == 0.0  # one free miss is still left
    guard.lookup_started("a")
    assert guard.lookup_wait("a") == 1.0  # the two in flight may use up the free ones
    assert guard.lookup_wait("b") == 0.0
    guard.lookup_ended("a")
    guard.lookup_ended("a")  # both found a table: nothing was missed
    assert guard.lookup_wait("a") == 0.0
    guard.miss("a")
    guard.lookup_started("a")
    assert guard.lookup_wait("a") == 1.0  # past one miss, one lookup at a time


def test_an_ipv6_network_of_one_subscriber_shares_one_budget() -> None:
    """One IPv6 host can take any address of its /64 (privacy addresses
    rotate on their own): the /64 is the client, or each new address
    would bring a fresh budget."""
    guard = AddressGuard(free_misses=2, max_connections=2, clock=Clock())
    guard.miss("2001:db8:1:2::1")
    guard.miss("2001:db8:1:2:aaaa::7")
    assert guard.miss("2001:db8:1:2:ffff:ffff:ffff:ffff") > 0.0
    assert guard.lookup_wait("2001:db8:1:2::99") > 0.0
    assert guard.lookup_wait("2001:db8:1:3::1") == 0.0  # the next /64: someone else
    assert guard.connect("2001:db8:1:2::1") and guard.connect("2001:db8:1:2::2")
    assert not guard.connect("2001:db8:1:2::3")
    # An IPv4 client seen through an IPv6 socket is that IPv4 address.
    guard.miss("203.0.113.5")
    guard.miss("::ffff:203.0.113.5")
    assert guard.miss("203.0.113.5") > 0.0


def test_connections_per_address_are_bounded() -> None:
    guard = AddressGuard(max_connections=2)
    assert guard.connect("a") and guard.connect("a")
    assert not guard.connect("a")
    assert guard.connect("b")
    guard.disconnect("a")
    assert guard.connections("a") == 1 and guard.connect("a")


def test_forwarding_headers_count_only_from_trusted_proxies() -> None:
    trusted = parse_networks(["127.0.0.1", "10.0.0.0/8"])
    spoofed = {"X-Forwarded-For": "6.6.6.6"}
    assert client_address("203.0.113.9", spoofed, trusted) == "203.0.113.9"
    assert client_address("127.0.0.1", spoofed, ()) == "127.0.0.1"  # nothing trusted by default
    assert client_address("127.0.0.1", spoofed, trusted) == "6.6.6.6"
    # The client wrote the leftmost hops itself: the rightmost untrusted one counts.
    chain = {"X-Forwarded-For": "1.1.1.1, 198.51.100.7, 10.0.0.5"}
    assert client_address("127.0.0.1", chain, trusted) == "198.51.100.7"
    assert client_address("127.0.0.1", {"X-Real-IP": "198.51.100.8"}, trusted) == "198.51.100.8"
    assert client_address("127.0.0.1", {}, trusted) == "127.0.0.1"
    with pytest.raises(ValueError):
        parse_networks(["not-an-address"])

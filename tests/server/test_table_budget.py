"""server.table_budget: the creation budgets of players and client
addresses, on a clock the tests move (no waiting)."""

from __future__ import annotations

import math

from server.config import ServerConfig
from server.table_budget import BudgetRule, CreationBudget


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def shipped(clock: Clock) -> CreationBudget:
    """The budgets with the shipped defaults."""
    config = ServerConfig()
    return CreationBudget(
        BudgetRule(config.tables_burst_per_address, config.tables_per_minute_per_address),
        BudgetRule(config.tables_burst_per_player, config.tables_per_minute_per_player),
        clock=clock,
    )


def test_a_person_creating_a_table_every_five_seconds_is_never_refused() -> None:
    """Game after game, or rule sets tried one after another (create,
    leave, create…): a table every 5 s, for an hour, from one player."""
    clock = Clock()
    budget = shipped(clock)
    for _ in range(720):
        assert budget.take("198.51.100.7", "player-a") is None
        clock.now += 5.0


def test_a_quick_start_of_a_dozen_tables_at_once_is_let_through() -> None:
    """Trying rule sets fast: the burst covers a dozen at once."""
    clock = Clock()
    budget = shipped(clock)
    for _ in range(12):
        assert budget.take("198.51.100.7", "player-a") is None
        clock.now += 0.5


def test_a_script_from_one_address_gets_the_burst_then_the_rate() -> None:
    """A fresh player token for each table (so the player budget never
    bites): in ten minutes of trying every tenth of a second the address
    gets its burst and 20 a minute, not more."""
    clock = Clock()
    budget = shipped(clock)
    made = 0
    for attempt in range(6000):
        if budget.take("203.0.113.9", f"script-{attempt}") is None:
            made += 1
        clock.now += 0.1
    minutes = 6000 * 0.1 / 60
    assert made <= 20 + 20 * minutes + 1
    assert made >= 20 + 20 * minutes - 1


def test_the_refusal_names_the_budget_and_when_a_table_may_be_created() -> None:
    clock = Clock()
    budget = CreationBudget(BudgetRule(50, 60.0), BudgetRule(2, 6.0), clock=clock)
    assert budget.take("198.51.100.7", "p") is None
    assert budget.take("198.51.100.7", "p") is None
    refusal = budget.take("198.51.100.7", "p")
    assert refusal is not None and refusal.budget == "player"
    assert math.isclose(refusal.retry_after, 10.0)  # one table at 6 a minute
    clock.now += refusal.retry_after - 0.5
    assert budget.take("198.51.100.7", "p") is not None
    clock.now += 0.5
    assert budget.take("198.51.100.7", "p") is None
    # Another player on the same address has a budget of their own.
    assert budget.take("198.51.100.7", "q") is None


def test_a_refusal_spends_nothing_and_a_failed_creation_is_given_back() -> None:
    clock = Clock()
    budget = CreationBudget(BudgetRule(1, 1.0), BudgetRule(5, 1.0), clock=clock)
    assert budget.take("198.51.100.7", "p") is None
    refusal = budget.take("198.51.100.7", "q")
    assert refusal is not None and refusal.budget == "address"
    # q's refused attempt did not spend q's budget: once the address can,
    # q creates at once.
    budget.refund("198.51.100.7", "p")  # p's table could not be created
    assert budget.take("198.51.100.7", "q") is None


def test_an_ipv6_host_spends_its_64s_budget_whatever_address_it_takes() -> None:
    clock = Clock()
    budget = CreationBudget(BudgetRule(3, 1.0), BudgetRule(0, 0.0), clock=clock)
    for host in ("::1", "::2", "::3"):
        assert budget.take(f"2001:db8:1:2{host}", f"p{host}") is None
    assert budget.take("2001:db8:1:2::ffff", "p-new") is not None
    assert budget.take("2001:db8:1:3::1", "p-new") is None  # another /64


def test_zero_turns_a_budget_off() -> None:
    clock = Clock()
    budget = CreationBudget(BudgetRule(0, 20.0), BudgetRule(5, 0.0), clock=clock)
    for _ in range(1000):
        assert budget.take("198.51.100.7", "p") is None


def test_entries_are_bounded() -> None:
    clock = Clock()
    budget = CreationBudget(BudgetRule(2, 1.0), BudgetRule(2, 1.0), max_keys=100, clock=clock)
    for n in range(1000):
        budget.take(f"10.0.{n // 256}.{n % 256}", f"p{n}")
    assert budget.tracked() == (100, 100)

"""server.created_tables: which table a player's create_table request made,
per player and request id, bounded in number and in time."""

from __future__ import annotations

from server.created_tables import CreatedTables


def test_a_request_is_known_per_player_and_id() -> None:
    made = CreatedTables()
    made.remember("ann", 7, "t1")
    assert made.made("ann", 7) == "t1"
    assert made.made("ann", "7") is None  # another id
    assert made.made("bea", 7) is None  # another player's request


def test_the_oldest_go_first_when_full() -> None:
    made = CreatedTables(size=2)
    for n in range(3):
        made.remember("ann", n, f"t{n}")
    assert [made.made("ann", n) for n in range(3)] == [None, "t1", "t2"]


def test_an_entry_past_its_time_is_forgotten() -> None:
    made = CreatedTables(seconds=-1.0)  # already past when remembered
    made.remember("ann", 1, "t1")
    assert made.made("ann", 1) is None

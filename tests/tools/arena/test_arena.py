"""The arena: hands between levels, duplicate rotations, figures, the CLI."""

from __future__ import annotations

import argparse
import json

import pytest

from bots.budget import Budget
from tools.arena.games import run_games, summarize_games
from tools.arena.hands import run_deals, summarize
from tools.cli.arena import add_arena_parser, run_arena


def test_duplicate_rotates_every_level_through_every_seat() -> None:
    outcomes = list(
        run_deals(
            ["hard", "easy", "easy", "medium"],
            2,
            seed=3,
            duplicate=True,
            budget=Budget(worlds=4, max_seconds=None),
        )
    )
    assert len(outcomes) == 8
    for deal in (0, 1):
        rows = [o for o in outcomes if o.deal == deal]
        assert {o.levels.index("hard") for o in rows} == {0, 1, 2, 3}
        assert all(sum(o.points) in (26, 78) for o in rows)
    report = summarize(outcomes, 2)
    assert report["hands"] == 8 and report["deals"] == 2
    hard = report["levels"]["hard"]
    assert hard["hands"] == 8
    assert hard["ci95"][0] <= hard["mean_points"] <= hard["ci95"][1]
    assert set(hard["decision_ms"]) == {"p50", "p95", "max"}
    assert "easy-hard" in report["pairs"]


def test_results_do_not_depend_on_jobs() -> None:
    budget = Budget(worlds=3, max_seconds=None)
    one = [o.points for o in run_deals(["hard", "medium", "easy", "easy"], 2, 5, budget=budget)]
    two = [
        o.points for o in run_deals(["hard", "medium", "easy", "easy"], 2, 5, jobs=2, budget=budget)
    ]
    assert one == two


def test_bad_lineups_are_refused() -> None:
    with pytest.raises(ValueError):
        list(run_deals(["hard", "medium"], 1, 1))
    with pytest.raises(ValueError):
        list(run_deals(["hard", "medium", "easy", "genius"], 1, 1))


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="hearts")
    add_arena_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "arena",
            "--players",
            "medium,easy,easy,easy",
            "--hands",
            "3",
            "--seed",
            "2",
            "--duplicate",
            "--json",
        ]
    )
    assert run_arena(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 12
    assert set(report["levels"]) == {"medium", "easy"}
    for figures in report["levels"].values():
        assert {"mean_points", "ci95", "moons", "queens", "decision_ms"} <= set(figures)


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="hearts")
    add_arena_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["arena", "--players", "easy,easy,easy,medium", "--hands", "2"])
    assert run_arena(args) == 0
    out = capsys.readouterr().out
    assert "points/hand" in out and "medium" in out


def test_whole_games() -> None:
    budget = Budget(worlds=2, max_seconds=None)
    outcomes = list(run_games(["hard", "medium", "easy", "easy"], 2, 4, budget=budget))
    assert len(outcomes) == 2
    for o in outcomes:
        assert max(o.totals) >= 100
        assert o.totals[o.winner] == min(o.totals)
        assert list(o.totals).count(min(o.totals)) == 1
    assert outcomes[0].levels != outcomes[1].levels  # the line-up rotates
    report = summarize_games(outcomes)
    assert report["games"] == 2
    assert sum(f["wins"] for f in report["levels"].values()) == 2


def test_cli_games(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="hearts")
    add_arena_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["arena", "--players", "medium,easy,easy,easy", "--games", "1", "--json"]
    )
    assert run_arena(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1 and "win_rate" in report["levels"]["medium"]


def test_the_arena_shows_bots_what_the_server_would() -> None:
    # The arena builds views from plain facts (protocol.seat_view); the
    # server from its TableState (server.redaction): the same views.
    from server.redaction import seat_view
    from tests.bots.support import random_positions
    from tools.arena.hands import arena_table

    for position in random_positions(12, seed=40):
        game = position.game
        assert game is not None
        arena = arena_table(game.rules, ["medium"] * game.rules.players)
        arena.game = game
        arena.facts.seq = position.seq
        for seat in (0, 1, 2, 3):
            assert arena.view(seat) == seat_view(position, seat)

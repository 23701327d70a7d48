"""The arena seats anything a player spec names: our levels, a bot of one's
own (``py:``, the 20-line example of docs/bots.md) and OpenSpiel's bots, in
the same duplicate format with the same figures."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from bots.budget import Budget
from bots.interface import BotSpecError, LevelBot
from bots.lineup import PlayerSpec, check_players, parse_lineup
from tools.arena.games import run_games
from tools.arena.hands import run_deals, summarize
from tools.cli.arena import add_arena_parser, run_arena

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "python-bot"
TINY = Budget(worlds=4, max_seconds=None)


@pytest.fixture
def example_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example's folder on the import path, as when run from there."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.delitem(sys.modules, "lowcard", raising=False)


def test_specs_parse_and_make_bots(example_importable: None) -> None:
    specs = parse_lineup("hard, py:lowcard:LowCard ,openspiel:random,medium", TINY)
    assert [p.spec for p in specs] == [
        "hard",
        "py:lowcard:LowCard",
        "openspiel:random",
        "medium",
    ]
    check_players(specs, 4)
    hard = specs[0].make(1)
    assert isinstance(hard, LevelBot) and hard.budget == TINY
    assert type(specs[1].make(1)).__name__ == "LowCard"
    with pytest.raises(BotSpecError, match="needs 4 players"):
        check_players(specs[:3], 4)
    for bad in ("expert", "py:nosuchmodule:make", "openspiel:alphazero", "openspiel:ismcts?sims=0"):
        with pytest.raises(BotSpecError):
            PlayerSpec(bad).make(0)


def test_a_duplicate_run_seats_our_levels_an_outside_bot_and_openspiel(
    example_importable: None,
) -> None:
    lineup = ["hard", "py:lowcard:LowCard", "openspiel:ismcts?sims=40", "medium"]
    outcomes = list(run_deals(lineup, 2, seed=5, duplicate=True, budget=TINY))
    assert len(outcomes) == 8
    for deal in (0, 1):
        rows = [o for o in outcomes if o.deal == deal]
        for spec in lineup:
            assert {o.levels.index(spec) for o in rows} == {0, 1, 2, 3}
    report = summarize(outcomes, 2)
    assert set(report["levels"]) == set(lineup)
    ismcts = report["levels"]["openspiel:ismcts?sims=40"]
    assert ismcts["hands"] == 8 and ismcts["decision_ms"]["max"] > 0
    assert "hard-openspiel:ismcts?sims=40" in report["pairs"]


def test_results_do_not_depend_on_jobs_for_reproducible_bots(example_importable: None) -> None:
    # OpenSpiel's ISMCTS is not reproducible from its seed (its first search
    # in a process differs), so its runs are not either; the others are.
    lineup = ["hard", "py:lowcard:LowCard", "openspiel:random", "easy"]
    one = list(run_deals(lineup, 2, seed=5, duplicate=True, budget=TINY))
    two = list(run_deals(lineup, 2, seed=5, duplicate=True, budget=TINY, jobs=2))
    assert [(o.levels, o.points) for o in two] == [(o.levels, o.points) for o in one]


def test_whole_games_keep_one_bot_per_seat(example_importable: None) -> None:
    lineup = ["medium", "py:lowcard:LowCard", "openspiel:random", "easy"]
    (game,) = run_games(lineup, 1, seed=2)
    assert game.winner == game.totals.index(min(game.totals)) and game.hands >= 1


def test_the_cli_prints_every_player(
    capsys: pytest.CaptureFixture[str], example_importable: None
) -> None:
    parser = argparse.ArgumentParser(prog="hearts")
    add_arena_parser(parser.add_subparsers(dest="command"))
    players = "medium,py:lowcard:LowCard,openspiel:random,easy"
    args = parser.parse_args(["arena", "--players", players, "--hands", "1", "--duplicate"])
    assert run_arena(args) == 0
    text = capsys.readouterr().out
    assert "py:lowcard:LowCard" in text and "openspiel:random" in text
    args = parser.parse_args(["arena", "--players", "medium,py:nope:x,easy,easy"])
    with pytest.raises(SystemExit, match="cannot import 'nope'"):
        run_arena(args)
    args = parser.parse_args(["arena", "--players", players, "--hands", "1", "--json"])
    assert run_arena(args) == 0
    assert json.loads(capsys.readouterr().out)["lineup"] == players.split(",")

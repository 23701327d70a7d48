"""A short run of ``hearts bench review``: each level's figures, the review
times and the load average are reported."""

from __future__ import annotations

import argparse
import json

import pytest

from tools.bench.review import run_bench_review


def test_the_review_bench_reports_each_level_and_the_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(
        hands=2, worlds=8, hard_worlds=20, time_hands=0, seed=3, json=True, jobs=1
    )
    assert run_bench_review(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["levels"]) == {"easy", "medium", "hard"}
    # Two hands: each level's seat reviewed in each (not the second Medium).
    assert [out["levels"][x]["seat_hands"] for x in ("easy", "medium", "hard")] == [2, 2, 2]
    for level in out["levels"].values():
        assert level["decisions"] >= 14 * level["seat_hands"] - 2
        mean, low, high = level["per_hand_mean_ci95"]
        assert low <= mean <= high
    assert out["review_seconds_per_seat_hand"]["p50"] > 0
    # Timing the default budget takes a while: asked for none here.
    assert out["default_budget_seconds_per_seat_hand"]["seat_hands"] == 0
    assert len(out["loadavg_before"]) == len(out["loadavg_after"]) == 3


def test_the_review_bench_gives_the_same_figures_with_two_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    figures = []
    for jobs in (1, 2):
        args = argparse.Namespace(
            hands=2, worlds=6, hard_worlds=10, time_hands=0, seed=4, json=True, jobs=jobs
        )
        assert run_bench_review(args) == 0
        figures.append(json.loads(capsys.readouterr().out)["levels"])
    assert figures[0] == figures[1]
    assert figures[0]["hard"]["decisions"] > 0

"""A short run of ``hearts bench server`` (tools/bench/server.py) so the
tool keeps working: the figures it prints are there and plausible."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from tools.bench.bots import find_knee
from tools.bench.idle import bench_idle
from tools.bench.server import PHASES, add_bench_server_parser, run_all, run_bench_server


@pytest.mark.slow
async def test_bench_phases_report_figures(tmp_path: Path) -> None:
    """One table for half a second per phase: every figure present and
    positive; the SQLite phase's scratch file is gone afterwards; an
    unreachable Redis is reported, not fatal."""
    out = await run_all(
        tables=1,
        seconds=0.5,
        redis_url="redis://127.0.0.1:1/0",
        profile_dir=None,
        data=str(tmp_path),
        synchronous="full",
        phases=("echo", "memory", "sqlite", "redis"),
    )
    assert out["echo"]["msgs_per_s"] > 0 and out["echo"]["samples"] > 0
    for kind in ("memory", "sqlite"):
        figures = out[kind]
        assert figures["actions_per_s"] > 0 and figures["samples"] > 0, kind
        assert 0 < figures["p50_ms"] <= figures["p99_ms"], kind
        assert figures["errors"] == 0  # instant players never send a refused request
        # The server process's CPU over the window (clock ticks: may be 0 in 0.5 s).
        assert figures["server_cpu_us_per_action"] >= 0 and figures["server_busy"] >= 0
    assert out["sqlite"]["synchronous"] == "full"
    assert list(tmp_path.iterdir()) == []
    assert "error" in out["redis"]
    assert set(out["bar"]) == {"p99_ratio", "p99_ok", "throughput_ratio", "throughput_ok"}
    assert set(out["targets"]) == {"memory_rate_vs_echo", "memory_p99_vs_echo"}
    assert "fairness" not in out and "knee" not in out
    assert len(out["load"]["start"]) == 3 and len(out["load"]["end"]) == 3


def test_bench_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """The parser's defaults, and a bad value refused before anything runs."""
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="bench")
    add_bench_server_parser(sub)
    args = parser.parse_args(["server"])
    assert (args.tables, args.seconds, args.redis, args.json, args.data, args.synchronous) == (
        8,
        5.0,
        "redis://127.0.0.1:6379/14",
        False,
        None,
        "normal",
    )
    args = parser.parse_args(["server", "--tables", "0", "--json"])
    assert run_bench_server(args) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and "must be positive" in printed.err


@pytest.mark.slow
async def test_bench_fairness_reports_both_levels() -> None:
    """An Easy table beside one table of Hard bots, briefly: the Easy
    table's bots moved (gaps measured, p50 <= p99), and every Hard decision
    in the window thought within its 900 ms budget plus a margin that only
    a broken pacer would exceed."""
    out = await run_all(
        tables=1,
        seconds=0.5,
        redis_url=None,
        profile_dir=None,
        phases=("fairness",),
        hard_tables=1,
        fairness_seconds=1.5,
        fairness_min_hard=3,  # a busy machine may need longer for the first ones
    )
    fairness = out["fairness"]
    assert fairness["hard_tables"] == 1
    assert fairness["easy_moves"] > 0
    assert 0 < fairness["easy_move_gap_p50_ms"] <= fairness["easy_move_gap_p99_ms"]
    assert fairness["easy_first_card_ms"] is not None and fairness["easy_first_card_ms"] > 0
    assert fairness["hard_decisions"] > 0
    assert 0 < fairness["hard_decision_p99_ms"] <= fairness["hard_decision_max_ms"] < 5000
    assert set(out["targets"]) == {"easy_move_gap_p99_ms", "hard_decision_p99_ms"}
    assert "bar" not in out  # no echo or memory phase to compare


async def test_bench_knee_probe_of_a_fixed_size() -> None:
    """``--knee-tables``: one probe of two tables of three Easy bots; own
    moves measured, plays counted (the bots' and the clients')."""
    out = await run_all(
        tables=1,
        seconds=0.5,
        redis_url=None,
        profile_dir=None,
        phases=("knee",),
        knee_tables=2,
    )
    knee = out["knee"]
    assert knee["tables"] == 2 and knee["fixed"] and knee["errors"] == 0
    assert knee["samples"] > 0 and 0 < knee["own_move_p50_ms"] <= knee["own_move_p99_ms"]
    # Each own move is one play in four: the bots played too.
    assert knee["plays_per_s"] > knee["samples"] / 0.5
    assert out["targets"] == {}  # a fixed probe is not the knee


async def test_knee_search_doubles_then_bisects() -> None:
    """The search on a made-up server whose p99 is 10 ms per table: it
    doubles from the start until a probe misses 100 ms, then bisects to
    within a sixteenth of what it met."""

    async def probe(tables: int, seconds: float) -> dict[str, Any]:
        return {
            "tables": tables,
            "own_move_p50_ms": 5.0 * tables,
            "own_move_p99_ms": 10.0 * tables,
            "plays_per_s": 40.0 * tables,
            "errors": 0,
        }

    knee = await find_knee(1.0, start=2, budget=60, probe=probe)
    assert [p["tables"] for p in knee["probes"]] == [2, 4, 8, 16, 12, 10, 11]
    assert (knee["tables"], knee["plays_per_s"], knee["first_missed"]) == (10, 400.0, 11)
    assert knee["complete"]
    # Nothing met: the knee is 0 tables.
    knee = await find_knee(1.0, start=1, budget=60, probe=probe, limit_ms=5)
    assert (knee["tables"], knee["first_missed"], len(knee["probes"])) == (0, 1, 1)


async def test_knee_search_stops_within_its_budget() -> None:
    """A probe that would not fit in what is left of the budget is not
    started, and the result says the search was cut short (each made-up
    probe takes 0.2 s of a made-up clock; the budget is 0.5 s)."""
    now = [0.0]

    async def slow_probe(tables: int, seconds: float) -> dict[str, Any]:
        now[0] += 0.2
        return {
            "tables": tables,
            "own_move_p50_ms": 1.0,
            "own_move_p99_ms": 1.0,
            "plays_per_s": 1.0,
            "errors": 0,
        }

    knee = await find_knee(1.0, start=1, budget=0.5, probe=slow_probe, clock=lambda: now[0])
    assert not knee["complete"] and len(knee["probes"]) == 2
    assert knee["tables"] == 2 and knee["first_missed"] is None
    assert knee["search_seconds"] == 0.4


async def test_bench_idle_connections() -> None:
    """``--idle``: ten seated idle connections (three tables, the last of
    two), all still open at the end; memory read; a live table measured
    alone and beside them."""
    out = await bench_idle(10, 0.5)
    assert out["connections"] == 10 and out["still_open"] == 10
    assert out["server_kib_after"] > 0 and "kib_per_connection" in out
    for key in ("alone", "beside_idle"):
        assert out[key]["samples"] > 0
        assert 0 < out[key]["own_move_p50_ms"] <= out[key]["own_move_p99_ms"]
        assert out[key]["plays_per_s"] > 0
        assert out[key]["server_cpu_us_per_play"] >= 0


def test_bench_new_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """The new options' defaults; an unknown phase and a bad size refused."""
    parser = argparse.ArgumentParser()
    add_bench_server_parser(parser.add_subparsers(dest="bench"))
    args = parser.parse_args(["server"])
    assert args.phases == PHASES and "fairness" in PHASES and "knee" in PHASES
    assert (args.hard_tables, args.fairness_seconds, args.knee_tables) == (10, 10.0, None)
    assert (args.knee_start, args.knee_budget, args.idle) == (8, 120.0, 0)
    assert parser.parse_args(["server", "--phases", "knee,echo"]).phases == ("knee", "echo")
    with pytest.raises(SystemExit):
        parser.parse_args(["server", "--phases", "knee,nope"])
    assert "phases are a comma-separated list" in capsys.readouterr().err
    assert run_bench_server(parser.parse_args(["server", "--idle", "-1"])) == 2
    assert run_bench_server(parser.parse_args(["server", "--knee-start", "0"])) == 2
    assert "must be positive" in capsys.readouterr().err

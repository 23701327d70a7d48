"""A short run of ``hearts bench server`` (client/cli/bench_server.py) so the
tool keeps working: the figures it prints are there and plausible."""

from __future__ import annotations

import argparse

import pytest

from client.cli.bench_server import add_bench_server_parser, run_all, run_bench_server


async def test_bench_phases_report_figures() -> None:
    """One table for half a second per phase: every figure present and
    positive; an unreachable Redis is reported, not fatal."""
    out = await run_all(tables=1, seconds=0.5, redis_url="redis://127.0.0.1:1/0", profile_dir=None)
    assert out["echo"]["msgs_per_s"] > 0 and out["echo"]["samples"] > 0
    memory = out["memory"]
    assert memory["actions_per_s"] > 0 and memory["samples"] > 0
    assert 0 < memory["p50_ms"] <= memory["p99_ms"]
    assert memory["errors"] == 0  # instant players never send a refused request
    assert "error" in out["redis"]
    assert set(out["bar"]) == {"p99_ratio", "p99_ok", "throughput_ratio", "throughput_ok"}


def test_bench_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """The parser's defaults, and a bad value refused before anything runs."""
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="bench")
    add_bench_server_parser(sub)
    args = parser.parse_args(["server"])
    assert (args.tables, args.seconds, args.redis, args.json) == (
        8,
        5.0,
        "redis://127.0.0.1:6379/14",
        False,
    )
    args = parser.parse_args(["server", "--tables", "0", "--json"])
    assert run_bench_server(args) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and "must be positive" in printed.err

"""A short run of ``hearts bench server`` (client/cli/bench_server.py) so the
tool keeps working: the figures it prints are there and plausible."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from client.cli.bench_server import add_bench_server_parser, run_all, run_bench_server


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
    )
    assert out["echo"]["msgs_per_s"] > 0 and out["echo"]["samples"] > 0
    for kind in ("memory", "sqlite"):
        figures = out[kind]
        assert figures["actions_per_s"] > 0 and figures["samples"] > 0, kind
        assert 0 < figures["p50_ms"] <= figures["p99_ms"], kind
        assert figures["errors"] == 0  # instant players never send a refused request
    assert out["sqlite"]["synchronous"] == "full"
    assert list(tmp_path.iterdir()) == []
    assert "error" in out["redis"]
    assert set(out["bar"]) == {"p99_ratio", "p99_ok", "throughput_ratio", "throughput_ok"}


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

"""A short run of ``hearts bench server --processes N``
(tools/bench/cluster.py): two real server processes on the test Redis,
tables spread across them, every figure there and plausible."""

from __future__ import annotations

import argparse
import os

import pytest
from redis.asyncio import Redis

from tests.redis_space import RedisSpace
from tools.bench.cluster import cluster_ok, run_cluster
from tools.bench.load import resident_kib
from tools.bench.server import add_bench_server_parser, run_bench_server


@pytest.mark.slow
@pytest.mark.subprocess
async def test_two_processes_share_the_tables_and_report_figures(redis_space: RedisSpace) -> None:
    """Four tables over two processes: each owns two, both phases play
    without a refused request, and the memory figures are there."""
    url = redis_space.url
    out = await run_cluster(processes=2, tables=4, seconds=0.5, redis_url=url)
    for phase in ("local", "spread"):
        figures = out[phase]
        assert "error" not in figures, figures
        assert figures["actions_per_s"] > 0 and figures["samples"] > 0
        assert 0 < figures["p50_ms"] <= figures["p99_ms"]
        assert figures["errors"] == 0
        assert figures["tables_per_process"] == [2, 2]
        assert figures["server_kib_per_table"] > 0 and figures["seated_kib_per_table"] > 0
        assert figures["redis_kib_per_table"] > 0
    assert cluster_ok(out)
    # Nothing is left under the run's prefix.
    client = Redis.from_url(redis_space.base)
    try:
        assert [key async for key in client.scan_iter(match=f"{redis_space.prefix}*")] == []
    finally:
        await client.aclose()


async def test_an_unreachable_redis_is_reported_not_fatal() -> None:
    out = await run_cluster(2, 1, 0.2, "redis://127.0.0.1:1/0")
    assert "error" in out["local"] and "error" in out["spread"]
    assert not cluster_ok(out)


def test_processes_needs_two_and_redis(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_bench_server_parser(parser.add_subparsers(dest="bench"))
    assert run_bench_server(parser.parse_args(["server", "--processes", "0"])) == 2
    assert "at least 2" in capsys.readouterr().err
    assert run_bench_server(parser.parse_args(["server", "--processes", "3", "--redis", ""])) == 2
    assert "needs Redis" in capsys.readouterr().err


def test_resident_memory_is_read_from_proc() -> None:
    mine = resident_kib(os.getpid())
    if os.path.exists("/proc/self/status"):
        assert mine is not None and mine > 1000
    assert resident_kib(2**30) is None

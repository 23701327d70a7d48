"""A short run of ``hearts bench page`` (tools/bench/page_load.py) so the
tool keeps working: both variants are timed, and the page it times without
preloads really had none while the page as served had them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import CHROMIUM

# Starts hearts (and Chromium) as child processes.
pytestmark = pytest.mark.subprocess


def bench(*flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.cli.main", "bench", "page", *flags],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.mark.slow
def test_a_short_run_times_the_page_with_and_without_preloads() -> None:
    done = bench("--runs", "1", "--latency-ms", "0,20", "--chromium", str(CHROMIUM), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["runs"] == 1 and set(out["figures"]) == {"0ms", "20ms"}
    for figures in out["figures"].values():
        assert figures["with"]["preloads"] > 30
        assert figures["without"]["preloads"] == 0
        for variant in ("with", "without"):
            assert 0 < figures[variant]["min_ms"] <= figures[variant]["median_ms"]
    # 20 ms a request: a first visit of some 40 modules takes longer than that.
    assert out["figures"]["20ms"]["without"]["median_ms"] > 20


def test_bad_figures_are_refused() -> None:
    for flags in (("--latency-ms", "fast"), ("--runs", "0"), ("--latency-ms", "-5")):
        done = bench(*flags)
        assert done.returncode == 2, flags
        assert "hearts bench page:" in done.stderr

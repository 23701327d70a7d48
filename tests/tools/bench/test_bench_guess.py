"""A short run of ``hearts bench guess`` (tools/bench/guess.py) so the
tool keeps working: a brute-force run from one address gets a handful of
answers, and the friend with the invite link gets in every time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Starts hearts (or other programs) as child processes.
pytestmark = pytest.mark.subprocess


@pytest.mark.slow
def test_a_short_guessing_run_reports_its_figures() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.cli.main",
            "bench",
            "guess",
            "--seconds",
            "4",
            "--connections",
            "4",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    out = json.loads(done.stdout)
    # Five free misses, then waits of 1, 2 s ...: a few answers in 4 s.
    assert 1 <= out["answered"] <= 8
    assert out["refused"] > 0
    assert out["most_answered_in_15s_after_first_burst"] <= 100
    assert out["friend_joins"] >= 1 and out["friend_join_max_ms"] is not None
    assert "throttling invite-code lookups from 127.0.0.1" in done.stderr

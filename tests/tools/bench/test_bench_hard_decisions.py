"""``python -m tools.bench.hard_decisions`` (docs/bots.md, "Sampling at big
tables") keeps working: a short run at a ten-seat Cancellation table."""

from __future__ import annotations

import re

import pytest

from tools.bench.hard_decisions import main


def test_a_short_run_times_hard_and_names_the_sampler_modes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = "variant=cancellation,players=10"
    assert main(["--rules", rules, "--hands", "1", "--every", "12", "--worlds", "2"]) == 0
    out = capsys.readouterr().out
    positions = re.search(r": (\d+) positions from 1 hands", out)
    assert positions and int(positions.group(1)) >= 3
    times = re.search(r"p50 (\d+) p95 (\d+) p99 (\d+) max (\d+); sampler \{(.*)\}", out)
    assert times, out
    p50, p95, p99, most = (int(times.group(i)) for i in range(1, 5))
    assert p50 <= p95 <= p99 <= most
    counted = sum(int(n) for n in re.findall(r"'(?:exact|approximate)': (\d+)", times.group(5)))
    assert counted == int(positions.group(1))

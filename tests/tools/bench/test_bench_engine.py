"""A short run of ``hearts bench engine``: every labelled figure is there,
and the kernel's keeps its old JSON names."""

from __future__ import annotations

import json

import pytest

from tools.bench.engine import run_bench_engine


def test_the_engine_bench_reports_each_path_labelled(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bench_engine(seconds=0.2, seed=1, as_json=True) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["checked_hands_per_s"] > 0 and out["kernel_hands_per_s"] > 0
    # The unchecked kernel does less work per hand than the checked API.
    assert out["kernel_hands_per_s"] > out["checked_hands_per_s"]
    assert out["hands_per_s"] == out["kernel_hands_per_s"]
    if out["openspiel_hands_per_s"] is not None:
        theirs = out["openspiel_hands_per_s"]
        assert out["ratio"] == round(out["kernel_hands_per_s"] / theirs, 2)
        assert out["checked_ratio"] == round(out["checked_hands_per_s"] / theirs, 2)
    assert out["rollouts_per_s"] > 0

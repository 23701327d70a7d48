"""The golden hand records of tests/data through the real `hearts verify`.

tests/data/golden_records.jsonl holds records (complete, partial, illegal,
unreadable); golden_expected.jsonl the answers, derived by hand from
docs/rules.md for the constructed ones (see tests/data/make_golden.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.cli.main", "verify", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=60,
        check=False,
    )


def golden() -> list[tuple[str, dict[str, Any]]]:
    """(record line, expected answer) for every non-blank line."""
    records = [
        line
        for line in (DATA / "golden_records.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    expected = [
        json.loads(line)
        for line in (DATA / "golden_expected.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(records) == len(expected)
    return list(zip(records, expected, strict=True))


@pytest.mark.subprocess
def test_the_golden_file_verifies_line_by_line_and_exits_2() -> None:
    done = verify(DATA / "golden_records.jsonl")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    expected = [e for _, e in golden()]
    assert len(answers) == len(expected)
    for number, (got, want) in enumerate(zip(answers, expected, strict=True), start=1):
        assert got == want, f"answer {number}"
    assert done.returncode == 2  # some lines are unreadable
    assert done.stderr == ""


def test_the_golden_file_covers_every_kind_of_answer() -> None:
    expected = [e for _, e in golden()]
    kinds = {
        "complete": any(e.get("complete") is True for e in expected),
        "pass": any(e.get("phase") == "pass" for e in expected),
        "play": any(e.get("phase") == "play" for e in expected),
        "moon_choice": any(e.get("phase") == "moon_choice" for e in expected),
        "illegal play": any(isinstance(e.get("step"), int) for e in expected),
        "bad pass": any(e.get("step") == "pass" for e in expected),
        "bad moon choice": any(e.get("step") == "moon_choice" for e in expected),
        "unreadable": any("line" in e for e in expected),
    }
    assert all(kinds.values()), kinds


@pytest.mark.subprocess
def test_only_legal_records_exit_0_and_an_illegal_one_exits_1(tmp_path: Path) -> None:
    legal = [r for r, e in golden() if e["ok"]]
    illegal = [r for r, e in golden() if not e["ok"] and "step" in e]
    path = tmp_path / "legal.jsonl"
    path.write_text("\n".join(legal) + "\n", encoding="utf-8")
    done = verify(path)
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == len(legal)
    path.write_text("\n".join([*legal, illegal[0], legal[0]]) + "\n", encoding="utf-8")
    done = verify(path)
    assert done.returncode == 1
    assert json.loads(done.stdout.splitlines()[-2])["ok"] is False
    assert json.loads(done.stdout.splitlines()[-1])["ok"] is True

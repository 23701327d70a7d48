"""`hearts analyse` (tools/cli/analyse.py): one seat's review of every hand
of a records file; bad input gets one clear line and exit 1."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bots.budget import Budget
from engine.record import hand_record
from engine.rules import Rules
from tools.arena.hands import arena_table, finish_hand, make_bots
from tools.cli.main import main

REPO = Path(__file__).resolve().parents[3]
LINEUP = ("easy", "medium", "hard", "medium")


def game_records(hands: int) -> list[dict[str, Any]]:
    """The records of the first ``hands`` hands of one bot game."""
    table = arena_table(Rules(), LINEUP)
    game = table.game
    bots = make_bots(LINEUP, "analyse-cli", Budget(worlds=40, max_seconds=None))
    deal = random.Random(5)
    out = []
    for _ in range(hands):
        game.start_hand(deal)
        finish_hand(table, bots, LINEUP)
        assert game.hand is not None
        out.append(hand_record(game.hand))
    return out


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.cli.main", "analyse", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=120,
        check=False,
    )


@pytest.mark.subprocess
def test_json_gives_one_line_per_decision_and_the_summary_last(tmp_path: Path) -> None:
    path = write(tmp_path / "game.jsonl", game_records(2))
    done = run(str(path), "--seat", "2", "--json", "--worlds", "20")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    decisions, summary = lines[:-1], lines[-1]
    # Hand 1 passes left, hand 2 right: a pass and 13 plays each.
    assert [d["hand"] for d in decisions] == [1] * 14 + [2] * 14
    assert [d["kind"] for d in decisions[:2]] == ["pass", "play"]
    assert all(d["seat"] == 2 and d["loss"] >= 0 for d in decisions)
    assert summary["summary"] is True and summary["hands"] == 2
    assert summary["decisions"] == 28
    mean = sum(d["loss"] for d in decisions) / 28
    assert summary["accuracy"] == pytest.approx(mean, abs=0.002)
    labels = [d["label"] for d in decisions]
    assert summary["blunders"] == labels.count("blunder")
    assert summary["mistakes"] == labels.count("mistake")


@pytest.mark.subprocess
def test_a_record_that_does_not_verify_is_one_line_and_exit_1(tmp_path: Path) -> None:
    good, bad = game_records(2)
    bad["plays"][1] = bad["plays"][0]  # the same card twice
    path = write(tmp_path / "bad.jsonl", [good, bad])
    done = run(str(path), "--seat", "0", "--json")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "line 2" in done.stderr and "does not verify" in done.stderr


@pytest.mark.subprocess
def test_a_seat_out_of_range_is_one_line_and_exit_1(tmp_path: Path) -> None:
    path = write(tmp_path / "game.jsonl", game_records(1))
    done = run(str(path), "--seat", "4")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.strip() == "hearts analyse: line 1: seat must be 0 to 3, not 4"


def test_text_output_names_each_trick_and_the_mean_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "game.jsonl", game_records(1))
    assert main(["analyse", str(path), "--seat", "0", "--worlds", "20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Hand 1:"
    assert out[1].startswith("  pass: ")
    assert [line.split(":")[0] for line in out[2:15]] == [f"  trick {i}" for i in range(1, 14)]
    assert out[-1].startswith("Seat 0, 1 hands, 14 decisions: mean loss ")


def test_an_unfinished_hand_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = game_records(1)[0]
    record["plays"] = record["plays"][:20]
    path = write(tmp_path / "part.jsonl", [record])
    assert main(["analyse", str(path), "--seat", "0"]) == 1
    err = capsys.readouterr().err
    assert err == "hearts analyse: line 1: the hand is not finished\n"

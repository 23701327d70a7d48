"""`hearts verify` (tools/cli/verify.py): JSON Lines in, one answer per
record out, exit status 0 / 1 / 2 as docs/hand-record.md says."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tools.cli.main import main
from tools.cli.verify import verify_lines

REPO = Path(__file__).resolve().parents[3]

CLUBS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
DIAMONDS = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
SPADES = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
HEARTS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]
# Seat 0 holds every club and leads them all; nobody can follow: a moon.
SUITS = [CLUBS, DIAMONDS, SPADES, HEARTS]
MOON = [c for trick in zip(CLUBS, DIAMONDS, SPADES, HEARTS, strict=True) for c in trick]

COMPLETE = json.dumps({"hand": 4, "deal": SUITS, "plays": MOON})
PARTIAL = json.dumps({"hand": 4, "deal": SUITS, "plays": ["2C", "2D"]})
ILLEGAL = json.dumps({"hand": 4, "deal": SUITS, "plays": ["2C", "2D", "QS"]})
NOT_JSON = '{"hand": 4, "deal": '

COMPLETE_ANSWER = {"ok": True, "complete": True, "points": [0, 26, 26, 26]}
PARTIAL_ANSWER = {
    "ok": True,
    "complete": False,
    "phase": "play",
    "to_move": 2,
    "legal": [c for c in SPADES if c != "QS"],
}
ILLEGAL_ANSWER = {"ok": False, "step": 2, "error": "no hearts or Q♠ on the first trick"}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=60,
        check=False,
    )


def answers(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def check(lines: list[str]) -> tuple[int, list[dict[str, Any]]]:
    """``verify_lines`` in process."""
    out = io.StringIO()
    status = verify_lines(io.StringIO("".join(line + "\n" for line in lines)), out)
    return status, answers(out.getvalue())


@pytest.mark.subprocess
def test_standard_input_is_read_with_a_dash() -> None:
    done = run("verify", "-", stdin=f"{COMPLETE}\n{PARTIAL}\n")
    assert done.returncode == 0
    assert answers(done.stdout) == [COMPLETE_ANSWER, PARTIAL_ANSWER]


@pytest.mark.subprocess
def test_a_file_is_read_and_answered_in_order(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(f"{PARTIAL}\n{COMPLETE}\n", encoding="utf-8")
    done = run("verify", str(path))
    assert done.returncode == 0
    assert answers(done.stdout) == [PARTIAL_ANSWER, COMPLETE_ANSWER]


@pytest.mark.subprocess
def test_a_malformed_line_does_not_stop_the_lines_after_it() -> None:
    done = run("verify", "-", stdin=f"{COMPLETE}\n{NOT_JSON}\n[]\n{PARTIAL}\n")
    assert done.returncode == 2
    assert answers(done.stdout) == [
        COMPLETE_ANSWER,
        {"ok": False, "line": 2, "error": "not JSON: Expecting value"},
        {"ok": False, "line": 3, "error": "a hand record must be a JSON object"},
        PARTIAL_ANSWER,
    ]


def test_an_illegal_record_exits_1() -> None:
    status, out = check([COMPLETE, ILLEGAL, PARTIAL])
    assert status == 1
    assert out == [COMPLETE_ANSWER, ILLEGAL_ANSWER, PARTIAL_ANSWER]


@pytest.mark.parametrize("order", [(ILLEGAL, NOT_JSON), (NOT_JSON, ILLEGAL)])
def test_an_unreadable_line_exits_2_even_with_illegal_ones(order: tuple[str, str]) -> None:
    status, out = check(list(order))
    assert status == 2
    assert len(out) == 2


def test_blank_lines_are_skipped_but_counted_in_line_numbers() -> None:
    status, out = check(["", COMPLETE, "   ", NOT_JSON])
    assert status == 2
    assert out == [COMPLETE_ANSWER, {"ok": False, "line": 4, "error": "not JSON: Expecting value"}]


def test_an_empty_input_is_all_legal() -> None:
    assert check([]) == (0, [])


def test_a_bad_card_or_deal_is_unreadable_not_illegal() -> None:
    bad_card = json.dumps({"hand": 4, "deal": SUITS, "plays": ["2C", "ZZ"]})
    short_deal = json.dumps({"hand": 4, "deal": SUITS[:3]})
    status, out = check([bad_card, short_deal])
    assert status == 2
    assert out == [
        {"ok": False, "line": 1, "error": "plays: unknown card 'ZZ'"},
        {"ok": False, "line": 2, "error": "deal: a deal needs 4 hands"},
    ]


@pytest.mark.subprocess
def test_a_file_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    done = run("verify", str(missing))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"hearts verify: cannot read {missing}:")


@pytest.mark.subprocess
def test_a_file_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"hand": 4, "deal": "\xe9"}\n')
    done = run("verify", str(path))
    assert done.returncode == 2
    assert f"{path} is not UTF-8 text" in done.stderr


def test_main_returns_the_exit_status_in_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(ILLEGAL + "\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert answers(capsys.readouterr().out) == [ILLEGAL_ANSWER]


def test_main_reads_standard_input_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(COMPLETE + "\n"))
    assert main(["verify", "-"]) == 0
    assert answers(capsys.readouterr().out) == [COMPLETE_ANSWER]


def test_verify_without_a_file_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        main(["verify"])
    assert info.value.code == 2

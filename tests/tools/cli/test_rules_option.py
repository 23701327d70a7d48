"""``--rules`` on the command line: every command reads it with the engine's
parser and refuses bad rules in one line, before doing anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.cli.arena import main as arena_main
from tools.cli.main import main

# Nothing listens on the discard port: a command that connected first would
# say it cannot reach the server instead of naming the rules.
NO_SERVER = "ws://127.0.0.1:9"


def test_unknown_rules_key_stops_the_arena_with_the_key_named() -> None:
    with pytest.raises(SystemExit) as stopped:
        arena_main(["--rules", "colour=red", "--hands", "1"])
    assert str(stopped.value).startswith("hearts arena: unknown rules key 'colour'")


def test_a_seat_count_the_variant_refuses_stops_the_arena() -> None:
    with pytest.raises(SystemExit) as stopped:
        arena_main(["--rules", "variant=black_maria,players=6", "--players", "easy," * 5 + "easy"])
    assert "Black Maria is played by" in str(stopped.value)


@pytest.mark.parametrize(
    ("rules", "says"),
    [
        ("colour=red", "hearts host: unknown rules key 'colour'"),
        ("variant=black_maria,players=6", "hearts host: Black Maria is played by"),
        ("end_at=5000", "hearts host: end_at: Input should be less than or equal to 1000"),
    ],
)
def test_hearts_host_autoplay_refuses_bad_rules_before_connecting(
    rules: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session_file = tmp_path / "session.json"
    status = main(
        [
            "host",
            "--server",
            NO_SERVER,
            "--autoplay",
            "easy",
            "--rules",
            rules,
            "--session-file",
            str(session_file),
        ]
    )
    assert status == 2
    assert capsys.readouterr().err.strip().startswith(says)
    assert not session_file.exists()


def test_hearts_play_refuses_bad_rules_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["play", "--data", str(tmp_path), "--rules", "moon=banana"])
    assert status == 2
    assert capsys.readouterr().err.strip() == "hearts play: moon must be add, subtract or choice"
    assert list(tmp_path.iterdir()) == []

"""`hearts play` flags (client/tui/commands.py): where the seat is kept
for `hearts resume` when the game is on another server."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.tui.commands import play_session_file
from tools.cli.main import build_parser, main


def kept_in(*flags: str) -> Path | None:
    return play_session_file(build_parser().parse_args(["play", *flags]))


def test_play_on_its_own_server_keeps_no_session_file() -> None:
    # Its own server keeps the game in its data folder and offers it back.
    assert kept_in() is None


def test_a_session_file_without_a_server_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="--session-file goes with --server"):
        kept_in("--session-file", "s.json")
    # The command says so on one line and exits 2, before starting anything.
    assert main(["play", "--session-file", "s.json"]) == 2
    assert "hearts play: --session-file goes with --server" in capsys.readouterr().err


def test_play_on_a_named_server_keeps_the_seat_where_host_and_join_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    server = ("--server", "ws://127.0.0.1:9/ws")
    assert kept_in(*server) == tmp_path / "config" / "hearts" / "session.json"
    assert kept_in(*server, "--session-file", str(tmp_path / "s.json")) == tmp_path / "s.json"

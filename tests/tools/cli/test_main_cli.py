"""`hearts` with no command lists the commands (and how to play at once)
instead of a bare usage error."""

from __future__ import annotations

import pytest

from tools.cli.main import main


def test_no_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    said = capsys.readouterr().err
    for command in ("verify", "serve", "play", "host", "join", "resume", "watch", "bot"):
        assert f"\n    {command} " in said, command
    assert "a quick game against three bots" in said
    assert said.rstrip().endswith("To play at once against three bots: hearts play")

"""deploy/systemd/hearts.service: systemd itself accepts the unit
(``systemd-analyze verify``, with only its program's path pointed at this
checkout's ``hearts``), its command line is real ``hearts serve`` flags, and
it has what docs/deploy.md promises: an unprivileged user, the state folder
the SQLite store uses, files for that user alone, an open files limit for
many players, nginx on the same machine as the one trusted proxy."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from tools.cli.main import build_parser

from .helpers import SYSTEMD_UNIT, require_tool


def directives() -> dict[str, list[str]]:
    """Every ``Key=value`` of the unit, by key (a key may repeat)."""
    found: dict[str, list[str]] = {}
    for raw in SYSTEMD_UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        found.setdefault(key.strip(), []).append(value.strip())
    return found


def one(key: str) -> str:
    (value,) = directives()[key]
    return value


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = require_tool("systemd-analyze")
    hearts = Path(sys.executable).parent / "hearts"
    unit = tmp_path / "hearts.service"
    text = SYSTEMD_UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/hearts/bin/hearts " in text
    unit.write_text(text.replace("/opt/hearts/bin/hearts", str(hearts)), encoding="utf-8")
    result = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "hearts.service" not in result.stderr, result.stderr  # no unknown key, no bad value


def test_it_serves_sqlite_from_its_state_folder_behind_a_local_nginx() -> None:
    command = shlex.split(one("ExecStart"))
    assert command[:2] == ["/opt/hearts/bin/hearts", "serve"]
    args = build_parser().parse_args(command[1:])  # every flag exists
    assert args.host == "127.0.0.1", "players come through nginx only"
    assert args.trusted_proxy == ["127.0.0.1"]
    assert args.redis is None and args.store in (None, "sqlite")
    assert args.data == f"/var/lib/{one('StateDirectory')}"
    assert one("StateDirectoryMode") == "0700"
    assert one("UMask") == "0077", "the tables file (and any copy it makes) for its user alone"


def test_it_runs_unprivileged_with_room_for_many_players() -> None:
    assert one("User") not in ("", "root") and one("Group") not in ("", "root")
    assert int(one("LimitNOFILE")) >= 65536
    assert one("NoNewPrivileges") == "yes"
    assert one("ProtectSystem") == "strict"
    assert one("KillSignal") == "SIGTERM", "a clean stop hands the tables over"
    assert one("Restart") == "on-failure"
    assert directives()["WantedBy"] == ["multi-user.target"]

"""What the session file keeps: who we are and where we sit.

A saved seat is the player's: ``hearts resume`` or a restarted command
reattaches with it (``client/session.py`` says when the file is written).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

# What ``hearts serve`` listens on, and the name of a player who gave none.
DEFAULT_SERVER = "ws://127.0.0.1:8765/ws"
DEFAULT_NAME = "Player"


def default_session_file() -> Path:
    """``$XDG_CONFIG_HOME/hearts/session.json`` (``~/.config`` by default)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hearts" / "session.json"


def resume_target(saved: SavedSession, server: str | None, name: str | None) -> tuple[str, str]:
    """Where and as whom a saved seat is resumed: the server and name asked
    for, else the ones saved with the seat (else the defaults)."""
    return server or saved.server or DEFAULT_SERVER, name or saved.name or DEFAULT_NAME


@dataclass
class SavedSession:
    """What the session file keeps: who we are and where we sit."""

    server: str = ""
    name: str = ""
    player_token: str | None = None
    table_id: str | None = None
    code: str | None = None
    seat: int | None = None
    seat_token: str | None = None
    last_seq: int = 0
    watching: bool = False  # a spectator of ``code``: watch again after a drop

    @classmethod
    def load(cls, path: Path | None) -> SavedSession:
        """Read the file; an empty session if missing or unreadable."""
        if path is None or not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text())
            return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
        except (OSError, ValueError, TypeError):
            return cls()

    def save(self, path: Path | None) -> None:
        """Write the file (private: it holds secrets)."""
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.__dict__, indent=1))
        tmp.chmod(0o600)
        tmp.replace(path)

    def clear_table(self) -> None:
        """Forget the table (in memory): neither resumed nor watched again."""
        self.table_id = self.code = self.seat_token = None
        self.seat = None
        self.last_seq = 0
        self.watching = False

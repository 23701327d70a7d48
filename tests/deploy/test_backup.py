"""The SQLite backup line of docs/deploy.md, run as written (paths aside)
against a real store's file while the store has it open: the copy is
readable by its owner only and holds the tables, whatever the shell's
umask."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import stat
import subprocess
from pathlib import Path

from server.store import SqliteStore

from .helpers import require_tool
from .test_docs import docs

SOURCE = "~/.local/share/hearts/hearts.sqlite3"


def backup_line() -> str:
    """The documented online backup command."""
    (line,) = re.findall(r"`(\(umask 077 && sqlite3 [^`]*\.backup [^`]*)`", docs())
    return str(line)


async def test_the_documented_backup_is_private_and_complete(tmp_path: Path) -> None:
    require_tool("sqlite3")
    store = await asyncio.to_thread(SqliteStore, tmp_path / "data" / "hearts.sqlite3")
    try:
        await store.create_table("t1", "ABCDEF", b"state with an invite secret")
        backups = tmp_path / "backups"
        backups.mkdir()
        line = backup_line()
        assert SOURCE in line and "/backups/" in line
        command = line.replace(SOURCE, str(store.path)).replace("/backups/", f"{backups}/")
        # A usual login shell's umask, which would leave the copy world-readable.
        result = await asyncio.to_thread(
            subprocess.run,
            ["bash", "-c", f"umask 022 && {command}"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr
    finally:
        await store.close()
    (copy,) = backups.iterdir()
    assert stat.S_IMODE(os.stat(copy).st_mode) == 0o600
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT id FROM tables").fetchall() == [("t1",)]

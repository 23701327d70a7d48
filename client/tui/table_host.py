"""What the table screen needs from the app that hosts it.

The screen is given its host instead of importing the app (the app imports
the screen to show it): the dependency points one way and the screen can be
driven by anything with these members.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .settings import Settings
    from .stats import Stats
    from .table_client import TableClient


class TableHost(Protocol):
    """The app as the table screen sees it."""

    @property
    def table(self) -> TableClient | None:
        """The link to the table's session (None before we are connected)."""

    @property
    def settings(self) -> Settings:
        """The player's settings (the settings dialog changes them)."""

    @property
    def stats(self) -> Stats:
        """The player's statistics (the stats screen shows them)."""

    @property
    def quick_game(self) -> bool:
        """``hearts play``: a game against bots."""

    @property
    def play_file(self) -> Path | None:
        """Where ``hearts play`` keeps this game for next time (None: it
        ends when we leave)."""

    def settings_changed(self) -> None:
        """The settings changed: save them and redraw."""

    async def leave_and_exit(self) -> None:
        """Leave the table (the seat is kept) and close the app."""

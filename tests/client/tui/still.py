"""A table screen showing a view built by the test: the real TableScreen and
its widgets, in a Textual app driven by the pilot, for states a live game
reaches only by chance (a moon, a ten-seat waiting room at a given size).
Nothing is sent: the screen has no table client."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from client.tui.i18n import Language, Translator
from client.tui.model import TableModel
from client.tui.screens.table import TableScreen
from client.tui.settings import Settings
from client.tui.stats import Stats
from client.tui.table_client import TableClient
from protocol.view import SeatView


class StillApp(App[None]):
    """The table screen over a fixed model (the app is its host)."""

    CSS_PATH = str(Path(__file__).resolve().parents[3] / "client" / "tui" / "hearts.tcss")

    def __init__(self, view: SeatView, language: Language = "en") -> None:
        super().__init__()
        self.model = TableModel(view=view, trick=view.trick, connection="online")
        self.t = Translator(language)
        self.settings = Settings(language=language)
        self.stats = Stats()
        self.screen_under_test = TableScreen(self.model, self.t, self)

    @property
    def table(self) -> TableClient | None:
        """No table client: nothing is sent."""
        return None

    @property
    def quick_game(self) -> bool:
        """Not ``hearts play``."""
        return False

    @property
    def play_file(self) -> Path | None:
        """Nothing kept."""
        return None

    def settings_changed(self) -> None:
        """Redraw (nothing is saved)."""
        self.screen_under_test.sync()

    async def leave_and_exit(self) -> None:
        """Close the app."""
        self.exit()

    def on_mount(self) -> None:
        """Show the table."""
        self.push_screen(self.screen_under_test)


async def still_text(
    view: SeatView, size: tuple[int, int], language: Language = "en", name: str = ""
) -> str:
    """What the table screen shows of ``view`` in a terminal of ``size``
    (saved as test-artifacts/tui/NAME.svg when named)."""
    from .conftest import save_svg, screen_text, wait_for

    app = StillApp(view, language)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.screen is app.screen_under_test, "the table")
        await pilot.pause()
        return save_svg(app, name) if name else screen_text(app)

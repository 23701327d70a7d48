"""The dialogs the table opens by itself: the moon choice when we shot the
moon, the game-over screen when the game ends (once: closed, it stays
closed until the next game), each closed again when the table moves on
without it (another player answered, a rematch started)."""

from __future__ import annotations

from typing import Literal

from protocol import client_messages as cm
from protocol import server_messages as sm

from ..i18n import Msg
from .dialogs import GameOverScreen, MoonScreen
from .table_moves import TableMoves
from .table_requests import game_accuracy


class TableDialogs:
    """Opens and closes the table's own dialogs over ``screen``."""

    def __init__(self, screen: TableMoves) -> None:
        self.screen = screen
        self._moon: MoonScreen | None = None
        self._over: GameOverScreen | None = None
        self._over_closed = False

    def reset(self) -> None:
        """Another table: forget the dialogs of this one."""
        self._moon = None
        self._over = None
        self._over_closed = False

    def sync(self) -> None:
        """Open or close the dialogs as the table stands now."""
        if self.screen.model.view is not None:
            self._sync_moon()
            self._sync_game_over()

    def _wants_moon(self) -> bool:
        """We shot the moon and are to choose how it scores."""
        view = self.screen.model.view
        if view is None or view.status != "playing" or view.phase != "moon_choice":
            return False
        return view.moon_shooter is not None and view.moon_shooter == view.seat

    def _sync_moon(self) -> None:
        screen = self.screen
        view = screen.model.view
        if self._wants_moon() and self._moon is None and view is not None:
            self._moon = MoonScreen(screen.t, view.rules)
            screen.app.push_screen(self._moon, self._moon_chosen)
        elif not self._wants_moon() and self._moon is not None and screen.app.screen is self._moon:
            self._moon.dismiss(None)

    def _sync_game_over(self) -> None:
        screen = self.screen
        model = screen.model
        status = model.view.status if model.view is not None else ""
        self._over_closed = self._over_closed and status == "game_over"
        if status == "game_over" and not model.lingering():
            self._open_game_over()
        elif self._over is not None and screen.app.screen is self._over:
            self._over.dismiss(None)

    def _open_game_over(self) -> None:
        """The game-over screen, unless it is up or the player closed it."""
        if self._over is not None or self._over_closed:
            return
        screen = self.screen
        # The server reviews the game for a seated player only.
        accuracy = None if screen.model.spectating() else self._game_accuracy
        self._over = GameOverScreen(screen.t, screen.model, accuracy)
        screen.app.push_screen(self._over, self._game_over_answer)

    async def _game_accuracy(self) -> sm.GameAccuracy | Msg:
        return await game_accuracy(self.screen.hearts.table)

    def _moon_chosen(self, choice: Literal["add", "subtract"] | None) -> None:
        self._moon = None
        if choice is not None:
            self.screen.send_request(lambda rid: cm.MoonChoice(id=rid, choice=choice))

    def _game_over_answer(self, answer: Literal["rematch", "quit"] | None) -> None:
        self._over = None
        self._over_closed = answer is None
        if answer == "rematch":
            self.screen.action_rematch()
        elif answer == "quit":
            self.screen.run_worker(self.screen.hearts.leave_and_exit(), group="quit")

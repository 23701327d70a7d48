"""What every part of the table screen shares: the model, the words, the
app (as ``TableHost``), and the ways to send a request, refuse a key and
redraw."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from protocol import client_messages as cm

from ..i18n import Msg, Translator
from ..model import TableModel
from ..table_host import TableHost


class TableBase(Screen[None]):
    """The table screen's state and helpers (``TableScreen`` draws it)."""

    def __init__(self, model: TableModel, t: Translator, host: TableHost) -> None:
        super().__init__()
        self.model = model
        self.t = t
        self.hearts = host  # the app, as far as the screen needs it

    def sync(self) -> None:
        """Redraw what changed in the model (``TableScreen``)."""
        raise NotImplementedError

    def send_request(self, build: Callable[[str], cm.Request], exclusive: bool = True) -> None:
        client = self.hearts.table
        if client is not None:
            self.run_worker(client.send(build, exclusive), group="requests")

    def _clear_notice(self) -> None:
        if self.model.notice is not None:
            self.model.notice = None
            self.model.changed()

    def _refuse(self, msg: Msg) -> None:
        self.model.say(msg, "error")
        self.sync()

    def _watching(self) -> bool:
        """A spectator pressed a key that would act: say why nothing happens."""
        if self.model.spectating():
            self._refuse(Msg("why.spectator"))
            return True
        return False

"""The link between a ``ClientSession`` and the ``TableModel``.

``TableClient.run`` reads the session's messages in order and applies them
to the model, pausing before another seat's card appears and while a
finished trick lingers, so bots do not play faster than the eye follows.
Pauses are skipped while catching up (the first snapshot, a resume's
replay) and can be cut short (``skip``). ``send`` makes a request and turns
a refusal into a readable notice. A spectator watches again after a
reconnect; a seat given up is forgotten. Removed by the host (``kicked``),
the session has already forgotten the table and ``on_kicked`` is called: the
app takes the player to where another table can be chosen.

The screen is redrawn (``on_change``) once the messages that arrived
together are applied, not after each: a move comes as its event and a
snapshot, a resume's replay as dozens, and every redraw works out what each
widget shows. Before every pause what has arrived so far is shown, so what
the pause lets the eye follow is on the screen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from client.session import ClientSession, Reconnected, RequestFailed, SessionClosed
from protocol import client_messages as cm
from protocol import server_messages as sm

from .i18n import Msg
from .model import TableModel
from .pacing import Pacing


class TableClient:
    """Feeds the model from a session and sends the player's requests."""

    def __init__(
        self,
        session: ClientSession,
        model: TableModel,
        pacing: Callable[[], Pacing],
        on_change: Callable[[], None],
        on_kicked: Callable[[], None] | None = None,
    ) -> None:
        self.session = session
        self.model = model
        self.pacing = pacing
        self.on_change = on_change
        self.on_kicked = on_kicked
        self.closing = False
        self._skip = asyncio.Event()
        self._shown_at = 0.0
        self._rewatch: asyncio.Task[bool] | None = None
        self._dirty = False  # applied to the model, not yet shown

    async def run(self) -> None:
        """Apply messages until the session ends."""
        loop = asyncio.get_running_loop()
        catching_up = True  # until the first snapshot: nothing to animate yet
        linger = False
        async for msg in self.session.events():
            if isinstance(msg, Reconnected):
                catching_up = True  # the replay of missed events comes at once
                self._watch_again()
            if isinstance(msg, sm.CardPlayed) and not catching_up and msg.seat != self.model.me:
                await self._pause(self.pacing().card - (loop.time() - self._shown_at))
            self.model.apply(msg)
            self._dirty = True
            if isinstance(msg, sm.Kicked) and self.on_kicked is not None:
                self._show()
                self.on_kicked()
            if isinstance(msg, sm.CardPlayed | sm.TrickWon | sm.TrickCarried):
                self._shown_at = loop.time()
            if isinstance(msg, sm.TrickWon | sm.TrickCarried):
                linger = not catching_up
            if isinstance(msg, sm.Snapshot):
                await self._snapshot_shown(linger)
                linger = catching_up = False
            if not self.session.has_events():
                self._show()
        if not self.closing:
            self.model.notice = None  # the banner says what matters now
            self.model.set_connection("lost")
            self._dirty = True
        self._show()

    def _show(self) -> None:
        """Redraw if the model changed since the last redraw."""
        if self._dirty:
            self._dirty = False
            self.on_change()

    async def _snapshot_shown(self, linger: bool) -> None:
        """After a snapshot: a finished trick stays while the new snapshot
        (hand, turn, scores) is already shown (``linger``: for the pause),
        then leaves the table; we are online again."""
        self._seat_gone()
        if self.model.holding:
            if linger:
                await self._pause(self.pacing().trick)
            self.model.release()
            self._dirty = True
            self._shown_at = asyncio.get_running_loop().time()
        if self.model.connection != "reconnecting":
            self.model.set_connection("online")

    def _seat_gone(self) -> None:
        """The snapshot has no seat for us although we kept one (we gave it
        up): the server keeps us as a spectator, and the saved seat is
        forgotten (it would no longer resume)."""
        if self.model.spectating() and self.session.saved.seat_token:
            self.session.forget_table()

    def _watch_again(self) -> None:
        """A spectator after a reconnect: the session resumes seats only, so
        ask to watch again (the table's chat and snapshot follow)."""
        view = self.model.view
        if view is None or view.seat is not None or self.session.saved.seat_token:
            return
        code = view.code
        self._rewatch = asyncio.create_task(
            self.send(lambda rid: cm.Watch(id=rid, code=code), exclusive=False)
        )

    async def leave_table(self, timeout: float = 2.0) -> None:
        """Tell the server we leave (``leave``: a seat is kept as after a
        drop). Best effort: offline, we just go."""
        with contextlib.suppress(RequestFailed, SessionClosed, TimeoutError):
            await self.session.request(cm.Leave(id=self.session.next_id()), timeout=timeout)

    def skip(self) -> None:
        """Cut the current pause short."""
        self._skip.set()

    async def _pause(self, seconds: float) -> None:
        """Show what has arrived, then wait ``seconds`` (or until ``skip``)."""
        if seconds <= 0:
            return
        self._show()
        self._skip.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._skip.wait(), seconds)

    def poll_connection(self) -> None:
        """Notice a dropped connection (the session reconnects by itself)."""
        if self.model.connection == "online" and not self.session.connected.is_set():
            self.model.set_connection("reconnecting")
            self.on_change()

    async def send(self, build: Callable[[str], cm.Request], exclusive: bool = True) -> bool:
        """Send a request built with a fresh id; False (and a notice) if it
        was refused. ``exclusive`` requests (game moves) wait for each other:
        a second one while the first is unanswered is dropped."""
        if exclusive:
            if self.model.busy:
                return False
            self.model.busy = True
        try:
            await self.session.request(build(self.session.next_id()))
            return True
        except RequestFailed as exc:
            self.model.refused(exc.code, exc.message, exc.reason)
        except (SessionClosed, TimeoutError):
            self.model.say(Msg("error.no_reply"), "error")
        finally:
            if exclusive:
                self.model.busy = False
            self.on_change()
        return False

    async def close(self) -> None:
        """Close the session (the reader ends quietly)."""
        self.closing = True
        await self.session.close()

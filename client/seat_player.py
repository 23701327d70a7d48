"""One seat played by a program until game over: what ``hearts bot`` and the
headless ``hearts host/join/resume --autoplay`` share.

``SeatPlayer.run`` reads the session's messages: each snapshot whose view
asks this seat something is answered once (``choose`` picks the move), and
never again from a snapshot older than the last accepted move (snapshots
queue up while a move is on its way, and acting on a stale one would play
out of turn). Every other message goes to ``on_message``, which ends the
run with an exit status when the game is over, the host removed the seat,
or the seat is lost for good. ``join_or_knock`` joins a table by code or
link, knocking first where the host approves who sits.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from pydantic import BaseModel

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView

from .autoplay import Move, move_shown, needs_move
from .session import GONE_FOR_GOOD, ClientSession, RequestFailed

KICKED_STATUS = 3  # the exit status of a seat the host removed
NOT_LET_IN_STATUS = 4  # the host of an approval table did not let us in


class NotLetIn(Exception):
    """The host answered our knock: not this time."""


class SeatPlayer:
    """Plays one seat until game over; subclasses say how a move is chosen
    (``choose``) and what else a message means (``on_message``)."""

    # Who is removed, in "the host removed … from the table".
    removed_who = "you"

    def __init__(self, session: ClientSession, command: str, as_json: bool) -> None:
        self.session = session
        self.command = command
        self.as_json = as_json
        self.acted_at = -1
        # The last accepted move and its hand: until a view shows it, older
        # queued snapshots must not make us move again.
        self.awaiting: tuple[Move, int] | None = None

    def emit(self, data: dict[str, object]) -> None:
        """One line on stdout: JSON with ``--json``, else ``key=value`` pairs."""
        if self.as_json:
            print(json.dumps(data, ensure_ascii=False), flush=True)
        else:
            print(" ".join(f"{k}={v}" for k, v in data.items()), flush=True)

    def say(self, sentence: str) -> None:
        """A line for whoever runs the command, on stderr (stdout is for events)."""
        print(f"hearts {self.command}: {sentence}", file=sys.stderr, flush=True)

    async def run(self) -> int:
        """Consume messages until game over; returns the exit status."""
        async for msg in self.session.events():
            if isinstance(msg, sm.Snapshot):
                await self._on_view(msg.view)
                continue
            status = await self.on_message(msg)
            if status is not None:
                return status
        return self.on_end()

    async def on_message(self, msg: BaseModel) -> int | None:
        """A message other than a snapshot; an exit status ends the run.
        Here: removed by the host, or the seat lost for good."""
        if isinstance(msg, sm.Kicked):
            # The session has forgotten the seat; the table lets us back only
            # if the host allows it: nothing to retry.
            self.say(f"the host removed {self.removed_who} from the table ({msg.message})")
            return KICKED_STATUS
        if isinstance(msg, sm.Error) and msg.code in GONE_FOR_GOOD:
            self.say(f"the seat is lost: {msg.message} ({msg.code})")
            return 1
        return None

    def on_end(self) -> int:
        """The connection ended for good before the game did."""
        return 1

    async def before_view(self, view: SeatView) -> bool:
        """Called with every view first; False: nothing more for this one."""
        return True

    async def choose(self, view: SeatView) -> Move:
        """The move for a view that asks this seat something."""
        raise NotImplementedError

    async def _on_view(self, view: SeatView) -> None:
        if not await self.before_view(view):
            return
        if self.awaiting is not None:
            if not move_shown(view, *self.awaiting):
                return  # a snapshot from before our last move was applied
            self.awaiting = None
        if not needs_move(view) or view.seq == self.acted_at:
            return
        self.acted_at = view.seq
        move = await self.choose(view)
        if await self.attempt(move.request(self.session.next_id())):
            self.awaiting = (move, view.hand_number)

    async def attempt(self, message: cm.Request) -> bool:
        """Send a request; a refusal is emitted as a ``refused`` line (a move
        the view allowed but the table had moved on from: the next snapshot
        asks again)."""
        try:
            await self.session.request(message)
        except RequestFailed as exc:
            self.emit({"type": "refused", "code": exc.code, "message": exc.message})
            return False
        return True


async def join_or_knock(
    session: ClientSession,
    code: str,
    seat: int | None,
    invite: str | None,
    knocking: Callable[[], None],
    let_in: Callable[[], None] | None = None,
) -> sm.Seated:
    """Join by code or link; at a table whose host approves who sits (the
        code alone), knock (``knocking`` is told), wait for the host, then join
    (``let_in`` is told first).
        Lookups by code are sent once: a refusal (a throttled address too) is
        raised as ``RequestFailed``, the host's no as ``NotLetIn``."""

    def join() -> cm.JoinTable:
        return cm.JoinTable(id=session.next_id(), code=code, seat=seat, invite=invite)

    try:
        reply = await session.request_once(join())
    except RequestFailed as exc:
        if exc.code != "knock_required":
            raise
        knocking()
        answer = await session.knock(code)
        if not answer.accepted:
            raise NotLetIn(answer.message) from None
        if let_in is not None:
            let_in()
        reply = await session.request_once(join())
    if not isinstance(reply, sm.Seated):
        raise RequestFailed("bad_reply", f"join_table was answered with {type(reply).__name__}")
    return reply

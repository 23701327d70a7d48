"""The Textual app: one seat at one table.

On start it connects (``hearts play`` first starts its own server), then
creates, joins, watches or resumes a table as the command asks (``hearts
join`` without a code first lists the public tables), and shows the
``TableScreen``. A ``TableClient`` applies the session's messages to the
``TableModel`` and the screen redraws from it. Leaving closes the session
(and the in-process server); a seat left mid-game can be resumed.

``hearts resume`` asks the server saved with the seat (unless told another)
under the saved name; a refusal names the server and leaves the session file
as it was. ``hearts host`` and ``hearts join`` leave a saved seat in the file
until the server grants the new one. A player the host removes is told so
and taken to the public tables, where they can join, watch or host another
table.

Joining or watching by code: at a table whose host approves who sits the
knock dialog asks the host; a server that throttles lookups by code from our
address (too many wrong codes) is not asked again until its wait is over
(the public tables count it down). The lobby shows the invite link, built
from the server's address and the ``join_path`` of our seat.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from textual import events
from textual.app import App

from client.invite import TableRef, share_link
from client.session import (
    DEFAULT_NAME,
    DEFAULT_SERVER,
    ClientSession,
    RequestFailed,
    SavedSession,
    SessionClosed,
    resume_target,
)
from common.ws_adapter import WebSocketException
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import SeatSpec
from protocol.view import SeatView

from .i18n import Msg, Translator
from .launch import Launch, LocalServer, join_url, start_local_server
from .model import TableModel, refusal_msg
from .opening import host_form, new_session, play_session
from .pacing import FAST, NORMAL, Pacing
from .screens.dialogs import ContinueGameScreen, FatalScreen
from .screens.host_setup import HostSetupScreen, TableSpec
from .screens.knock import KnockScreen
from .screens.table import TableScreen
from .screens.table_list import How, ListAnswer, Refusal, TableListScreen, Throttled
from .settings import Settings
from .stats import Stats, game_result
from .table_client import TableClient
from .unreachable import why_unreachable
from .widgets.lobby import format_code
from .widgets.too_small import cover_if_small

POLL_SECONDS = 0.25
FIRST_VIEW_SECONDS = 15.0  # how long a resumed saved game may take to show


class HeartsApp(App[None]):
    """Hearts in the terminal."""

    CSS_PATH = "hearts.tcss"
    TITLE = "Hearts"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        launch: Launch,
        settings: Settings | None = None,
        settings_path: Path | None = None,
        pacing: Pacing | None = None,
        stats_path: Path | None = None,
    ) -> None:
        super().__init__()
        self.launch = launch
        self.settings = settings or Settings()
        self.settings_path = settings_path
        self.stats_path = stats_path
        self.stats = Stats.load(stats_path)
        self.t = Translator(self.settings.language)
        self.model = TableModel()
        self.table: TableClient | None = None
        self.server: LocalServer | None = None
        self.fixed_pacing = pacing
        self.table_screen = TableScreen(self.model, self.t, self)
        self._shutdown_task: asyncio.Future[None] | None = None
        self._countdowns: tuple[int | None, ...] = ()
        self._status: str | None = None  # the table's status at the last redraw
        self._asked = False  # the table waited for our card or pass at the last redraw
        self._viewed = asyncio.Event()  # set once the model has a table view
        self._url = launch.server or DEFAULT_SERVER  # the server we connect to (``_open_session``)

    # -- life cycle ------------------------------------------------------------

    def on_mount(self) -> None:
        """Show the table and start connecting."""
        self.push_screen(self.table_screen)
        self.set_interval(POLL_SECONDS, self._poll)
        self.run_worker(self._start(), name="start")
        self.call_after_refresh(cover_if_small, self, self.t)

    def on_resize(self, event: events.Resize) -> None:
        """Cover the screen while the terminal is too small for the table."""
        cover_if_small(self, self.t)

    @property
    def quick_game(self) -> bool:
        """``hearts play``: a game against bots."""
        return self.launch.mode == "play"

    @property
    def play_file(self) -> Path | None:
        """Where ``hearts play``'s own server keeps our seat for next time
        (None: on another server, or one that keeps nothing)."""
        if self.launch.mode != "play" or self.server is None:
            return None
        return self.server.session_file

    async def on_unmount(self) -> None:
        """Close the connection and the in-process server."""
        await self.shutdown()

    async def shutdown(self) -> None:
        """Close everything we opened (once; a second call waits for the
        first). Shielded: the app's end cancels the worker that called it,
        and a server cut short in its close would keep its store's file
        (the next ``hearts play`` in this process could not take it)."""
        if self._shutdown_task is None:
            self._shutdown_task = asyncio.ensure_future(self._close_ours())
        await asyncio.shield(self._shutdown_task)

    async def _close_ours(self) -> None:
        if self.table is not None:
            await self.table.close()
        if self.server is not None:
            await self.server.close()

    async def shutdown_and_exit(self) -> None:
        """Leave the table and the app. After game over the saved seat is
        forgotten (there is nothing left to resume)."""
        view = self.model.view
        if self.table is not None and view is not None and view.status == "game_over":
            self.table.session.forget_table()
        await self.shutdown()
        self.exit()

    async def leave_and_exit(self) -> None:
        """Tell the server we leave the table (a seat is kept, as after a
        drop: ``hearts resume`` returns to it), then close."""
        if self.table is not None:
            await self.table.leave_table()
        await self.shutdown_and_exit()

    def pacing(self) -> Pacing:
        """The pauses now (fast play can change mid-game)."""
        if self.fixed_pacing is not None:
            return self.fixed_pacing
        return FAST if self.settings.fast else NORMAL

    def changed(self) -> None:
        """The model changed: redraw, count a game that just ended, ring the
        bell when the table starts waiting for us."""
        self.table_screen.sync()
        view = self.model.view
        if view is not None:
            self._viewed.set()
        status = view.status if view is not None else None
        if view is not None and status == "game_over" and self._status != status:
            self._count_game(view)
        self._status = status
        self._ring_when_asked()

    def _count_game(self, view: SeatView) -> None:
        """The game just ended before our eyes (not one we came back to
        after its end): count it in the statistics."""
        if self._status not in ("playing", "between_hands"):
            return
        result = game_result(view)
        if result is not None:
            self.stats.record(result)
            self.stats.save(self.stats_path)

    def _ring_when_asked(self) -> None:
        """Ring the bell when the table starts waiting for our card or pass."""
        asked = self.model.my_turn() or self.model.passing()
        if asked and not self._asked and self.settings.bell:
            self.bell()
        self._asked = asked

    def settings_changed(self) -> None:
        """The settings dialog changed something: save and redraw."""
        self.t.language = self.settings.language
        self.settings.save(self.settings_path)
        self.changed()

    def _poll(self) -> None:
        # A dialog opened while the terminal is too small is covered too.
        cover_if_small(self, self.t)
        if self.table is not None:
            self.table.poll_connection()
        # Away seats count down to a bot between snapshots: redraw as the
        # seconds shown change.
        countdowns = self.model.countdowns()
        if countdowns != self._countdowns:
            self._countdowns = countdowns
            self.changed()

    # -- starting --------------------------------------------------------------

    async def _start(self) -> None:
        self._url = self.launch.server or DEFAULT_SERVER
        try:
            session = await self._open_session()
            if session is None:
                return
            # Online before any table: a knock can wait a long time.
            self.model.set_connection("online")
            self.changed()
            self.table = TableClient(
                session, self.model, self.pacing, self.changed, on_kicked=self._kicked
            )
            self.run_worker(self.table.run(), name="events")
            await self._sit(session)
        except RequestFailed as exc:
            # A refused table says which budget or cap, and when to try again.
            refused = refusal_msg(exc.code, exc.message, exc.reason, exc.retry_after)
            await self._fatal(self.t.text(refused))
        except (OSError, SessionClosed, WebSocketException) as exc:
            why = self.t.text(why_unreachable(exc))
            await self._fatal(self.t("fatal.unreachable", url=self._url, error=why))

    async def _open_session(self) -> ClientSession | None:
        """A connected session on the server the command names (``hearts
        play``'s own, started first; ``hearts resume``'s saved one), or None
        after saying why not. ``_url`` follows the server tried."""
        launch = self.launch
        name = launch.name or DEFAULT_NAME
        if launch.mode == "play" and not launch.server:
            self.server = await start_local_server(launch)
            self._url = self.server.url
        if launch.mode == "resume":
            saved = SavedSession.load(launch.session_file)
            if not (saved.table_id and saved.seat_token):
                await self._fatal(self.t("fatal.no_seat"))
                return None
            self._url, name = resume_target(saved, launch.server, launch.name)
        if self.play_file is not None:
            return await play_session(launch, self._url, name, self.play_file)
        session = new_session(launch, self._url, name)
        return session if await self._connect(session) else None

    async def _connect(self, session: ClientSession) -> bool:
        """Connect; False (after saying so) when the saved seat was refused."""
        try:
            await session.connect()
        except RequestFailed as exc:
            if self.launch.mode != "resume":
                raise
            await session.close()
            reason = self.t.text(Msg("error." + exc.code, {"message": exc.message}))
            reason = reason.rstrip(".")
            reason = reason[:1].lower() + reason[1:]
            await self._fatal(self.t("fatal.resume_refused", server=session.server, reason=reason))
            return False
        return True

    async def _continue_saved_game(self, session: ClientSession) -> bool:
        """``hearts play`` resumed the game left last time: show it and ask
        whether to continue it (True) or start a new one (False, the old
        seat left and forgotten). A finished game is not offered."""
        if self.table is None or session.table_id is None:
            return False
        self._at_table(session, session.code or "")
        with contextlib.suppress(TimeoutError):  # no view: treated as nothing to continue
            await asyncio.wait_for(self._viewed.wait(), FIRST_VIEW_SECONDS)
        view = self.model.view
        unfinished = view is not None and view.status in ("playing", "between_hands")
        offer = ContinueGameScreen(self.t, self.model, self.launch.new_game_options)
        if unfinished and await self.push_screen_wait(offer):
            return True
        # Left with the seat kept, the old table pauses (nobody is at it)
        # and expires in its time; we no longer point to it.
        await self.table.leave_table()
        session.forget_table()
        self.table_screen.reset()
        self.model.reset()
        self._viewed.clear()
        self.changed()
        return False

    async def _sit(self, session: ClientSession) -> None:
        """Take the seat (or the place to watch) the command asks for."""
        mode = self.launch.mode
        if mode == "play":
            await self._sit_play(session)
        elif mode == "host":
            await self._sit_host(session)
        elif mode == "resume" or await self._enter(session):
            self._at_table(session, session.code or "")

    async def _sit_play(self, session: ClientSession) -> None:
        """``hearts play``: the game left last time, or a new one against
        bots, started."""
        launch = self.launch
        if await self._continue_saved_game(session):
            self._at_table(session, session.code or "")
            return
        spec = TableSpec(launch.table_name, launch.seats, launch.rules, False, start=True)
        seated = await self._create(session, spec)
        self._at_table(session, seated.code if seated is not None else session.code or "")

    async def _sit_host(self, session: ClientSession) -> None:
        """``hearts host``: the table the command describes (through the
        form first when asked; leaving the form leaves the app)."""
        launch = self.launch
        spec = TableSpec(
            launch.table_name,
            launch.seats,
            launch.rules,
            launch.public,
            launch.approval,
            turn_seconds=launch.turn_seconds,
        )
        if launch.ask_setup:
            answer = await self.push_screen_wait(host_form(self.t, spec))
            if answer is None:
                await self.shutdown_and_exit()
                return
            spec = answer
        seated = await self._create(session, spec)
        self._at_table(session, seated.code if seated is not None else session.code or "")

    async def _enter(self, session: ClientSession) -> bool:
        """``hearts join``/``hearts watch``: True once at the table (the
        public tables first when no code was given); False after leaving."""
        launch = self.launch
        if launch.mode == "join" and not launch.code:
            return await self._choose_table(session)
        how: How = "join" if launch.mode == "join" else "watch"
        return await self._enter_directly(session, TableRef(launch.code, launch.invite), how)

    async def _enter_directly(self, session: ClientSession, ref: TableRef, how: How) -> bool:
        """``hearts join CODE``/``hearts watch CODE``: True once at the table.
        A refusal (a mistyped code, a full table, a throttled address, a
        host who did not let us in) takes us to the public tables with the
        code in the field, ready to be typed again, and the reason (or the
        countdown) above it. False after leaving."""
        try:
            await session.request_once(self._entry(session, ref, how))
            return True
        except RequestFailed as exc:
            refused = exc
        shown = _shown_code(ref.code)
        if refused.code == "knock_required":  # the host approves who sits: knock
            reason = await self._knock(session, ref, how)
            if reason is None:
                return True
            return await self._choose_table(session, reason, code=shown)
        refusal = _refusal(refused)
        if isinstance(refusal, Throttled):
            return await self._choose_table(session, code=shown, throttled=refusal)
        if refused.code == "no_such_table":  # a mistyped code: say which, offer a retype
            refusal = Msg("list.no_such_code", {"code": shown})
        return await self._choose_table(session, refusal, code=shown, retype=True)

    def _entry(self, session: ClientSession, ref: TableRef, how: How) -> cm.JoinTable | cm.Watch:
        if how == "watch":
            return cm.Watch(id=session.next_id(), code=ref.code, invite=ref.invite)
        seat = self.launch.seat if self.launch.mode == "join" else None
        return cm.JoinTable(id=session.next_id(), code=ref.code, seat=seat, invite=ref.invite)

    async def _knock(self, session: ClientSession, ref: TableRef, how: How) -> Msg | None:
        """The knock dialog for table ``ref``: None once the host let us in
        and we sit (or watch); otherwise why not, for the public tables."""

        async def enter() -> Refusal | None:
            try:
                await session.request_once(self._entry(session, ref, how))
            except RequestFailed as exc:
                return _refusal(exc)
            except (SessionClosed, TimeoutError):
                return Msg("error.no_reply")
            return None

        async def facts() -> sm.TableFacts | None:
            ask = cm.GetTableFacts(id=session.next_id(), code=ref.code, invite=ref.invite)
            reply = await session.request_once(ask)
            return reply if isinstance(reply, sm.TableFacts) else None

        shown = _shown_code(ref.code)
        screen = KnockScreen(self.t, shown, lambda: session.knock(ref.code), enter, facts)
        outcome = await self.push_screen_wait(screen)
        if outcome == "seated":
            return None
        key = "list.not_let_in" if outcome == "refused" else "list.stopped_knocking"
        return Msg(key, {"code": shown})

    def _at_table(self, session: ClientSession, code: str) -> None:
        """We sit at (or watch) table ``code``: the lobby's link (with the
        invite secret for a player) and the command friends run."""
        if session.join_path:
            self.model.join_url = share_link(session.url, session.join_path)
        else:
            self.model.join_url = join_url(session.url, code)
        self.model.server = session.url
        self.changed()

    async def _choose_table(
        self,
        session: ClientSession,
        reason: Msg | None = None,
        code: str = "",
        throttled: Throttled | None = None,
        retype: bool = False,
    ) -> bool:
        """The public tables, to join or watch one, or to host a new table
        (its form first; leaving the form goes back to the list); False,
        after leaving the app, if the player left the list. ``code`` goes in
        the code field (with the focus, to be typed again, when ``retype``),
        ``throttled`` starts the countdown."""
        launch = self.launch
        while True:
            answer = await self._browse(session, reason, code, throttled, retype)
            code, throttled, retype = "", None, False
            if answer == "seated":
                self._at_table(session, session.code or "")
                return True
            if answer is None:
                await self.shutdown_and_exit()
                return False
            if answer == "bots":  # a private table with three Medium bots, started
                bots: tuple[SeatSpec, SeatSpec, SeatSpec] = ("medium", "medium", "medium")
                spec: TableSpec | None = TableSpec(
                    launch.table_name, bots, launch.rules, public=False, start=True
                )
            else:
                form = HostSetupScreen(self.t, launch.table_name, launch.seats, launch.rules)
                spec = await self.push_screen_wait(form)
            if spec is not None:
                session.session_file = launch.session_file  # a seat of ours: keep it
                seated = await self._create(session, spec)
                self._at_table(session, seated.code if seated is not None else "")
                return True

    def _kicked(self) -> None:
        """The host removed us: the session forgot the table; go where
        another one can be chosen."""
        self.run_worker(self._after_kick(), name="kicked", group="kicked", exclusive=True)

    async def _after_kick(self) -> None:
        view = self.model.view
        code = format_code(view.code) if view is not None else ""
        # Dialogs of the old table (a menu, the moon choice, game over) go too.
        while self.screen is not self.table_screen and len(self.screen_stack) > 1:
            self.pop_screen()
        self.table_screen.reset()
        self.model.reset()
        self.changed()
        if self.table is None:
            return
        try:
            await self._choose_table(self.table.session, Msg("list.kicked", {"code": code}))
        except RequestFailed as exc:
            await self._fatal(self.t.text(Msg("error." + exc.code, {"message": exc.message})))
        except (SessionClosed, TimeoutError):
            await self._fatal(self.t("error.no_reply"))

    async def _browse(
        self,
        session: ClientSession,
        reason: Msg | None = None,
        code: str = "",
        throttled: Throttled | None = None,
        retype: bool = False,
    ) -> ListAnswer:
        """The public tables: "seated" once we sit or watch at one, "create"
        to host a new one, None if the player left the list."""

        async def fetch() -> tuple[sm.TableSummary, ...]:
            reply = await session.request(cm.ListTables(id=session.next_id()))
            return reply.tables if isinstance(reply, sm.Tables) else ()

        async def choose(ref: TableRef, how: How) -> Refusal | None:
            # Only a seat is written to the session file: watching never
            # touches it.
            session.session_file = self.launch.session_file if how == "join" else None
            refusal = await self._try_entry(session, ref, how)
            if refusal is not None:
                session.session_file = None
            return refusal

        answer: ListAnswer = await self.push_screen_wait(
            TableListScreen(
                self.t, fetch, choose, reason=reason, code=code, throttled=throttled, retype=retype
            )
        )
        return answer

    async def _try_entry(self, session: ClientSession, ref: TableRef, how: How) -> Refusal | None:
        """Join or watch from the list (the knock dialog if the host asks
        first): None once at the table, else why not."""
        try:
            await session.request_once(self._entry(session, ref, how))
        except RequestFailed as exc:
            if exc.code != "knock_required":
                return _refusal(exc)
            return await self._knock(session, ref, how)
        except (SessionClosed, TimeoutError):
            return Msg("error.no_reply")
        return None

    async def _create(self, session: ClientSession, spec: TableSpec) -> sm.Seated | None:
        """Create the table ``spec`` describes (and start it, to play
        against bots at once)."""
        reply = await session.request(
            cm.CreateTable(
                id=session.next_id(),
                name=spec.name,
                public=spec.public,
                rules=spec.rules,
                seats=spec.seats,
                approval=spec.approval,
                turn_seconds=spec.turn_seconds,  # type: ignore[arg-type]  # the form offers only TURN_TIMERS
            )
        )
        if spec.start:
            await session.request(cm.StartGame(id=session.next_id()))
        return reply if isinstance(reply, sm.Seated) else None

    async def _fatal(self, message: str) -> None:
        await self.push_screen_wait(FatalScreen(self.t, message))
        await self.shutdown()
        self.exit(return_code=1)


def _refusal(exc: RequestFailed) -> Refusal:
    """A refused join or watch: the wait a throttled address is asked for,
    else the sentence."""
    if exc.code == "rate_limited" and exc.retry_after is not None:
        return Throttled(exc.retry_after)
    return Msg("error." + exc.code, {"message": exc.message})


def _shown_code(code: str) -> str:
    """A code as typed (``abc def``) as shown (``ABC-DEF``)."""
    return format_code("".join(ch for ch in code.upper() if ch.isalnum()))

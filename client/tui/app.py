"""The Textual app: one seat at one table.

On start it connects (``hearts play`` first starts its own server), then
creates, joins, watches or resumes a table as the command asks (``hearts
join`` without a code first lists the public tables), and shows the
``TableScreen``. A ``TableClient`` applies the session's messages to the
``TableModel`` and the screen redraws from it. Leaving closes the session
(and the in-process server); a seat left mid-game can be resumed.

``hearts resume`` asks the server saved with the seat (unless told another)
under the saved name; a refusal names the server and leaves the session file
as it was. A player the host removes is told so and taken to the public
tables, where they can join, watch or host another table.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from textual.app import App

from client.session import (
    DEFAULT_NAME,
    DEFAULT_SERVER,
    ClientSession,
    RequestFailed,
    SavedSession,
    SessionClosed,
    resume_target,
)
from protocol import client_messages as cm
from protocol import server_messages as sm

from .i18n import Msg, Translator
from .launch import Launch, join_url, start_local_server
from .model import TableModel
from .pacing import FAST, NORMAL, Pacing
from .screens.dialogs import FatalScreen
from .screens.host_setup import HostSetupScreen, TableSpec
from .screens.table import TableScreen
from .screens.table_list import ListAnswer, TableListScreen
from .settings import Settings
from .table_client import TableClient
from .widgets.lobby import format_code

if TYPE_CHECKING:
    from server.app import RunningServer

POLL_SECONDS = 0.25


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
    ) -> None:
        super().__init__()
        self.launch = launch
        self.settings = settings or Settings()
        self.settings_path = settings_path
        self.t = Translator(self.settings.language)
        self.model = TableModel()
        self.table: TableClient | None = None
        self.server: RunningServer | None = None
        self.fixed_pacing = pacing
        self.table_screen = TableScreen(self.model, self.t)
        self._closed = False
        self._countdowns: tuple[int | None, ...] = ()

    # -- life cycle ------------------------------------------------------------

    def on_mount(self) -> None:
        """Show the table and start connecting."""
        self.push_screen(self.table_screen)
        self.set_interval(POLL_SECONDS, self._poll)
        self.run_worker(self._start(), name="start")

    async def on_unmount(self) -> None:
        """Close the connection and the in-process server."""
        await self.shutdown()

    async def shutdown(self) -> None:
        """Close everything we opened (once)."""
        if self._closed:
            return
        self._closed = True
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
        """The model changed: redraw."""
        self.table_screen.sync()

    def settings_changed(self) -> None:
        """The settings dialog changed something: save and redraw."""
        self.t.language = self.settings.language
        self.settings.save(self.settings_path)
        self.changed()

    def _poll(self) -> None:
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
        launch = self.launch
        url = launch.server or DEFAULT_SERVER
        name = launch.name or DEFAULT_NAME
        try:
            if launch.mode == "play" and not launch.server:
                self.server = await start_local_server(launch)
                url = self.server.url
            if launch.mode == "resume":
                saved = SavedSession.load(launch.session_file)
                if not (saved.table_id and saved.seat_token):
                    await self._fatal(self.t("fatal.no_seat"))
                    return
                url, name = resume_target(saved, launch.server, launch.name)
            session = self._new_session(url, name)
            if not await self._connect(session):
                return
            self.table = TableClient(
                session, self.model, self.pacing, self.changed, on_kicked=self._kicked
            )
            self.run_worker(self.table.run(), name="events")
            await self._sit(session)
        except RequestFailed as exc:
            await self._fatal(self.t.text(Msg("error." + exc.code, {"message": exc.message})))
        except (OSError, SessionClosed) as exc:
            await self._fatal(self.t("fatal.unreachable", url=url, error=str(exc)))

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

    def _new_session(self, url: str, name: str) -> ClientSession:
        launch = self.launch
        if launch.mode == "watch" or (launch.mode == "join" and not launch.code):
            # Watching, or looking at the list, must not cost the saved seat:
            # the session starts without its file and only borrows our player
            # token; ``_browse`` hands it the file once a seat is taken.
            session = ClientSession(url, name, max_backoff=launch.max_backoff)
            session.saved.player_token = SavedSession.load(launch.session_file).player_token
            return session
        session = ClientSession(
            url, name, session_file=launch.session_file, max_backoff=launch.max_backoff
        )
        if launch.mode != "resume":
            session.forget_table()
        return session

    async def _sit(self, session: ClientSession) -> None:
        launch = self.launch
        seated: sm.Seated | None = None
        if launch.mode == "play":
            spec = TableSpec(launch.table_name, launch.seats, launch.rules, False)
            seated = await self._create(session, spec)
            await session.request(cm.StartGame(id=session.next_id()))
        elif launch.mode == "host":
            spec = TableSpec(launch.table_name, launch.seats, launch.rules, launch.public)
            if launch.ask_setup:
                form = HostSetupScreen(
                    self.t, spec.name, spec.seats, spec.rules, public=spec.public
                )
                answer = await self.push_screen_wait(form)
                if answer is None:
                    await self.shutdown_and_exit()
                    return
                spec = answer
            seated = await self._create(session, spec)
        elif launch.mode == "join" and not launch.code:
            if not await self._choose_table(session):
                return
        elif launch.mode == "join":
            reply = await session.request(
                cm.JoinTable(id=session.next_id(), code=launch.code, seat=launch.seat)
            )
            seated = reply if isinstance(reply, sm.Seated) else None
        elif launch.mode == "watch":
            reply = await session.request(cm.Watch(id=session.next_id(), code=launch.code))
            seated = reply if isinstance(reply, sm.Seated) else None
        code = seated.code if seated is not None else session.code or ""
        self._at_table(session, code)

    def _at_table(self, session: ClientSession, code: str) -> None:
        """We sit at (or watch) table ``code``: the lobby's link and hint."""
        self.model.join_url = join_url(session.url, code)
        self.model.server = session.url
        self.changed()

    async def _choose_table(self, session: ClientSession, reason: Msg | None = None) -> bool:
        """The public tables, to join or watch one, or to host a new table
        (its form first; leaving the form goes back to the list); False,
        after leaving the app, if the player left the list."""
        launch = self.launch
        while True:
            answer = await self._browse(session, reason)
            if answer == "seated":
                self._at_table(session, session.code or "")
                return True
            if answer is None:
                await self.shutdown_and_exit()
                return False
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

    async def _browse(self, session: ClientSession, reason: Msg | None = None) -> ListAnswer:
        """The public tables: "seated" once we sit or watch at one, "create"
        to host a new one, None if the player left the list."""

        async def fetch() -> tuple[sm.TableSummary, ...]:
            reply = await session.request(cm.ListTables(id=session.next_id()))
            return reply.tables if isinstance(reply, sm.Tables) else ()

        async def choose(code: str, how: Literal["join", "watch"]) -> Msg | None:
            # Only a seat is written to the session file: watching never
            # touches it.
            session.session_file = self.launch.session_file if how == "join" else None
            try:
                if how == "join":
                    await session.request(cm.JoinTable(id=session.next_id(), code=code))
                else:
                    await session.request(cm.Watch(id=session.next_id(), code=code))
            except RequestFailed as exc:
                session.session_file = None
                return Msg("error." + exc.code, {"message": exc.message})
            except (SessionClosed, TimeoutError):
                session.session_file = None
                return Msg("error.no_reply")
            return None

        answer: ListAnswer = await self.push_screen_wait(
            TableListScreen(self.t, fetch, choose, reason=reason)
        )
        return answer

    async def _create(self, session: ClientSession, spec: TableSpec) -> sm.Seated | None:
        reply = await session.request(
            cm.CreateTable(
                id=session.next_id(),
                name=spec.name,
                public=spec.public,
                rules=spec.rules,
                seats=spec.seats,
            )
        )
        return reply if isinstance(reply, sm.Seated) else None

    async def _fatal(self, message: str) -> None:
        await self.push_screen_wait(FatalScreen(self.t, message))
        await self.shutdown()
        self.exit(return_code=1)

"""Private tables in the terminal client, against a real server: the host
form's "Ask me before someone sits", the host told of knocks (the lobby,
the title bar, a pop-up) and answering them with y and x, in three
languages; a player with only the code knocking from the dialog, let in or
not, stopping to wait; the invite link seating at once; a throttled address
counted down in the public tables, nothing sent until the wait is over,
while the link still works."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input

from client.session import ClientSession, RequestFailed
from client.tui.launch import Launch
from client.tui.screens.knock import KnockScreen
from client.tui.screens.table_list import TableListScreen
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.config import ServerConfig

from .conftest import TIMEOUT, ThreadBots, make_app, save_svg, screen_text, wait_for


async def until_view(session: ClientSession, check: Callable[[SeatView], bool]) -> SeatView:
    """The first snapshot (queued or coming) of ``session`` passing ``check``."""

    async def scan() -> SeatView:
        async for msg in session.events():
            if isinstance(msg, sm.Snapshot) and check(msg.view):
                return msg.view
        raise AssertionError("the session closed")

    return await asyncio.wait_for(scan(), TIMEOUT)


def shown(code: str) -> str:
    return f"{code[:3]}-{code[3:]}"


async def stranger(
    url: str, name: str, code: str
) -> tuple[ClientSession, asyncio.Task[sm.KnockAnswered]]:
    """A player with only the code: refused (knock first), then knocking."""
    session = ClientSession(url, name)
    await session.connect()
    with pytest.raises(RequestFailed) as info:
        await session.request_once(cm.JoinTable(id=session.next_id(), code=code))
    assert info.value.code == "knock_required"
    return session, asyncio.create_task(session.knock(code))


class Host:
    """A host session at a table that asks before someone sits."""

    def __init__(self, url: str) -> None:
        self.session = ClientSession(url, "Hostess")
        self.created: sm.Seated | None = None

    async def open(self) -> sm.Seated:
        await self.session.connect()
        reply = await self.session.request(
            cm.CreateTable(id=self.session.next_id(), seats=("open", "open", "easy"), approval=True)
        )
        assert isinstance(reply, sm.Seated)
        self.created = reply
        return reply

    async def answer_first(self, accept: bool) -> str:
        """Wait for a knock and answer it; the knocker's name."""
        view = await until_view(self.session, lambda v: bool(v.knocks))
        knocker = view.knocks[0]
        await self.session.request(
            cm.AnswerKnock(id=self.session.next_id(), player_id=knocker.player_id, accept=accept)
        )
        return knocker.name


@pytest.fixture
async def host(server: RunningServer) -> AsyncIterator[Host]:
    h = Host(server.url)
    try:
        yield h
    finally:
        await h.session.close()


async def test_the_host_asks_first_and_answers_knocks_by_key(server: RunningServer) -> None:
    app = make_app(Launch(mode="host", server=server.url, name="Hostess"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: "Ask me before someone sits" in screen_text(app), "form")
        app.screen.query_one("#approval", Checkbox).value = True
        await pilot.press("ctrl+s")
        model = app.model
        await wait_for(pilot, lambda: model.view is not None, "the table")
        assert model.view is not None and model.view.approval
        code = model.view.code
        await wait_for(
            pilot,
            lambda: (
                f"{shown(code)}  · you let in players who have only the code" in screen_text(app)
            ),
            "the setting in the lobby",
        )
        ann, ann_knock = await stranger(server.url, "Ann", code)
        bob, bob_knock = await stranger(server.url, "Bob", code)
        try:
            lobby_line = "⚑ Ann asks to sit: y lets them in · x refuses (1 more waiting)"
            await wait_for(pilot, lambda: lobby_line in screen_text(app), "the knocks in the lobby")
            text = save_svg(app, "lobby-knocks-80x24")
            assert "table " + shown(code) + " · ⚑ Ann knocks: y/x" in text  # the title bar
            # A pop-up over the table for each, and a line in the log.
            for name in ("Ann", "Bob"):
                said = f"{name} asks to sit at your table"
                await wait_for(
                    pilot,
                    lambda said=said: screen_text(app).count(said) == 2,  # type: ignore[misc]
                    "a pop-up and a log line",
                )

            await pilot.press("y")
            answer = await asyncio.wait_for(ann_knock, TIMEOUT)
            assert answer.accepted
            joined = await ann.request_once(cm.JoinTable(id=ann.next_id(), code=code))
            assert isinstance(joined, sm.Seated) and joined.seat == 1
            await wait_for(pilot, lambda: "You let Ann in." in screen_text(app), "the log")
            await wait_for(
                pilot, lambda: "⚑ Bob asks to sit: y lets them in" in screen_text(app), "Bob next"
            )
            await pilot.press("x")
            answer = await asyncio.wait_for(bob_knock, TIMEOUT)
            assert not answer.accepted
            await wait_for(pilot, lambda: "You did not let Bob in." in screen_text(app), "the log")
            await wait_for(pilot, lambda: "⚑" not in screen_text(app), "no knock left")
            await pilot.press("y")
            await wait_for(pilot, lambda: "Nobody is asking to sit." in screen_text(app), "why")
            assert model.view is not None and model.view.seats[1].name == "Ann"
            assert model.view.seats[2].kind == "open"  # Bob was not let in
        finally:
            await ann.close()
            await bob.close()


@pytest.mark.parametrize(
    ("language", "lobby_line", "title", "refused"),
    [
        ("uk", "⚑ Ann просить сісти: y — впустити · x — відмовити", "⚑ Ann стукає: y/x",
         "Ви не впустили гравця Ann."),
        ("ru", "⚑ Ann просится за стол: y — впустить · x — отказать", "⚑ Ann стучится: y/x",
         "Вы не впустили игрока Ann."),
    ],
)  # fmt: skip
async def test_the_host_is_told_of_knocks_in_ukrainian_and_russian(
    server: RunningServer, language: str, lobby_line: str, title: str, refused: str
) -> None:
    # hearts host --approval, the form skipped
    app = make_app(
        Launch(mode="host", server=server.url, name="Hostess", approval=True, ask_setup=False),
        language=language,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model.view is not None, "the table")
        view = app.model.view
        assert view is not None and view.approval
        ann, _ = await stranger(server.url, "Ann", view.code)
        try:
            await wait_for(pilot, lambda: lobby_line in screen_text(app), "the knock")
            assert title in save_svg(app, f"lobby-knock-{language}-80x24")
            await pilot.press("x")
            await wait_for(pilot, lambda: refused in screen_text(app), "the answer logged")
        finally:
            await ann.close()


async def test_with_only_the_code_the_player_knocks_and_is_let_in(
    server: RunningServer, host: Host, tmp_path: Path
) -> None:
    created = await host.open()
    session_file = tmp_path / "session.json"
    launch = Launch(
        mode="join", server=server.url, name="Guest", code=created.code, session_file=session_file
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, KnockScreen), "the knock dialog")
        text = save_svg(app, "knock-ask-80x24")
        assert f"Table {shown(created.code)}: the host lets players in" in text
        assert "Knock (k or Enter) to ask the host · Esc goes back" in text
        await pilot.press("k")
        await wait_for(
            pilot, lambda: "Waiting for the host… (Esc stops waiting)" in screen_text(app), "wait"
        )
        save_svg(app, "knock-waiting-80x24")
        assert await host.answer_first(True) == "Guest"
        model = app.model
        await wait_for(pilot, lambda: bool(model.view and model.view.seat == 1), "the seat")
        assert not isinstance(app.screen, KnockScreen)
        await wait_for(
            pilot,
            lambda: "the host lets in players who have only the code" in screen_text(app),
            "the setting in the lobby",
        )
    saved = json.loads(session_file.read_text())
    assert saved["code"] == created.code and saved["seat"] == 1


async def test_the_knock_dialog_says_what_the_table_is(server: RunningServer, host: Host) -> None:
    """Before knocking, the dialog shows the table's facts as the browser's
    join page does (get_table_facts): name, host, state, seats, rules."""
    created = await host.open()
    app = make_app(Launch(mode="join", server=server.url, name="Guest", code=created.code))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, KnockScreen), "the knock dialog")
        await wait_for(pilot, lambda: "hosted by Hostess" in screen_text(app), "the facts")
        text = save_svg(app, "knock-facts-80x24")
        assert "Hostess's table · hosted by Hostess · waiting for players" in text
        assert "Seats: Hostess, open seat, open seat, " in text and " · Easy" in text
        assert "Rules: " in text
        assert "Knock (k or Enter) to ask the host · Esc goes back" in text


async def test_turned_away_or_tired_of_waiting_the_player_is_back_at_the_list(
    server: RunningServer, host: Host
) -> None:
    created = await host.open()
    app = make_app(Launch(mode="join", server=server.url, name="Guest", code=created.code))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, KnockScreen), "the knock dialog")
        await pilot.press("enter")
        await host.answer_first(False)
        await wait_for(
            pilot, lambda: "The host did not let you in." in screen_text(app), "the answer"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableListScreen), "the list")
        reason = f"The host of table {shown(created.code)} did not let you in."
        await wait_for(pilot, lambda: reason in screen_text(app), "the reason")
        field = app.screen.query_one("#code", Input)
        assert field.value == shown(created.code)
        # The code is still in the field: Enter there knocks again.
        field.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, KnockScreen), "the dialog again")
        await pilot.press("k")
        await until_view(host.session, lambda v: bool(v.knocks))
        await pilot.press("escape")  # stop waiting
        await wait_for(pilot, lambda: isinstance(app.screen, TableListScreen), "the list")
        stopped = f"You stopped waiting for the host of table {shown(created.code)}"
        await wait_for(pilot, lambda: stopped in screen_text(app), "why")
        assert app.model.view is None


async def test_the_invite_link_seats_at_once_and_a_spectator_knocks_to_watch(
    server: RunningServer, host: Host
) -> None:
    created = await host.open()
    secret = created.join_path.partition("#k=")[2]
    app = make_app(
        Launch(mode="join", server=server.url, name="Friend", code=created.code, invite=secret)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: bool(model.view and model.view.seat == 1), "the seat")
        assert model.join_url == f"http://127.0.0.1:{server.port}{created.join_path}"
    assert host.session.last_view is None or not host.session.last_view.knocks

    watcher = make_app(Launch(mode="watch", server=server.url, name="Fan", code=created.code))
    async with watcher.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(watcher.screen, KnockScreen), "the dialog")
        await pilot.press("k")
        assert await host.answer_first(True) == "Fan"
        # Watching, and the lobby's link set once the answer is in.
        await wait_for(
            pilot, lambda: watcher.model.spectating() and bool(watcher.model.join_url), "watching"
        )
        # A spectator's link has no secret: friends are given the code.
        assert watcher.model.join_url == f"http://127.0.0.1:{server.port}/t/{created.code}"


@pytest.fixture
async def strict_server() -> AsyncIterator[RunningServer]:
    """A server with no free wrong codes: every miss makes the address wait."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1, free_code_misses=0)
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        yield running
    finally:
        await running.close()


def refused_lookups(server: RunningServer) -> float:
    """How many lookups by code the server refused (its own counter)."""
    metrics = server.lobby.metrics
    assert metrics is not None
    for line in metrics.render().decode().splitlines():
        if line.startswith('hearts_code_lookups_total{result="refused"}'):
            return float(line.split()[-1])
    return 0.0


def countdown(app: object) -> int | None:
    """The seconds the list's notice line says to wait, if it says so."""
    text = screen_text(app)
    marker = "try again in "
    if marker not in text:
        return None
    return int(text.split(marker)[1].split(" s")[0])


async def test_a_throttled_address_is_counted_down_and_nothing_is_sent(
    strict_server: RunningServer,
) -> None:
    server = strict_server
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        created = await host.request(cm.CreateTable(id=host.next_id()))
        assert isinstance(created, sm.Seated)
        # Wrong codes guessed from this address (as the server counts them):
        # it must wait 4 s.
        for _ in range(3):
            server.lobby.guard.miss("127.0.0.1")
        app = make_app(Launch(mode="join", server=server.url, name="Guest", code=created.code))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: countdown(app) is not None, "the countdown")
            assert isinstance(app.screen, TableListScreen)
            first = countdown(app)
            assert first is not None and 1 < first <= 4
            text = save_svg(app, "list-throttled-80x24")
            assert "✕ Too many wrong codes from your network; try again in" in text
            field = app.screen.query_one("#code", Input)
            assert field.value == shown(created.code)
            refused = refused_lookups(server)
            field.focus()
            await pilot.press("enter")  # not sent: the server would refuse it
            await wait_for(pilot, lambda: (countdown(app) or 99) < first, "the count going down")
            assert refused_lookups(server) == refused
            await wait_for(
                pilot, lambda: "You can try a code again now." in screen_text(app), "the end"
            )
            await pilot.press("enter")
            await wait_for(pilot, lambda: bool(app.model.view), "the table")
            assert app.model.view is not None and app.model.view.seat == 1
    finally:
        await host.close()


async def test_a_throttled_address_still_sits_with_the_link(strict_server: RunningServer) -> None:
    server = strict_server
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        created = await host.request(cm.CreateTable(id=host.next_id()))
        assert isinstance(created, sm.Seated)
        for _ in range(6):
            server.lobby.guard.miss("127.0.0.1")  # 32 s to wait
        app = make_app(Launch(mode="join", server=server.url, name="Guest", code="ZZZ-ZZZ"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: countdown(app) is not None, "the countdown")
            field = app.screen.query_one("#code", Input)
            field.value = f"http://127.0.0.1:{server.port}{created.join_path}"
            field.focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: bool(app.model.view), "the table")
            assert app.model.view is not None and app.model.view.seat == 1
    finally:
        await host.close()

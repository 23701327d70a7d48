"""Seats: the host's seat menu before the game (a bot of a level on an open
seat, another level, the seat opened again, a player removed and let back),
letting a removed player back during the game, a guest giving up the seat
to watch, leaving with the seat kept, a guest removed by the host (told, out
of the table, back at the list of tables), and refusals in the server's
words."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from pydantic import BaseModel

from client.session import ClientSession, RequestFailed
from client.tui.launch import Launch
from client.tui.screens.dialogs import ConfirmQuit
from client.tui.screens.seat_menu import SeatMenu
from client.tui.screens.table_list import TableListScreen
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatInfo, SeatView
from server.app import RunningServer

from .conftest import TIMEOUT, make_app, save_svg, screen_text, wait_for


def seat_is(
    view: Callable[[], SeatView | None], seat: int, kind: str, level: str | None = None
) -> Callable[[], bool]:
    """A predicate: ``seat`` of the latest view is of ``kind`` (and level)."""

    def check() -> bool:
        v = view()
        if v is None:
            return False
        info: SeatInfo = v.seats[seat]
        return info.kind == kind and (level is None or info.bot_level == level)

    return check


async def test_the_host_fills_changes_opens_seats_and_removes_a_player(
    server: RunningServer,
) -> None:
    launch = Launch(mode="host", server=server.url, name="Hostess", ask_setup=False)
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: model.view is not None, "the lobby")
        assert model.view is not None
        friend = ClientSession(server.url, "Friend")
        await friend.connect()
        try:
            await friend.request(cm.JoinTable(id=friend.next_id(), code=model.view.code))
            await wait_for(pilot, seat_is(lambda: model.view, 1, "human"), "the friend")

            await pilot.press("2")  # across: an open seat
            await wait_for(pilot, lambda: isinstance(app.screen, SeatMenu), "the menu")
            text = save_svg(app, "seat-menu-80x24")
            assert "↑ across: open seat" in text
            assert "e  Easy bot" in text and "h  Hard bot" in text
            await pilot.press("h")
            await wait_for(pilot, seat_is(lambda: model.view, 2, "bot", "hard"), "a Hard bot")

            await pilot.press("2", "m")  # another level: the bot is replaced
            await wait_for(pilot, seat_is(lambda: model.view, 2, "bot", "medium"), "Medium")
            await pilot.press("2")
            await wait_for(pilot, lambda: "o  Open the seat" in screen_text(app), "bot menu")
            assert "m  Medium bot" not in screen_text(app)  # its own level is not offered
            await pilot.press("o")
            await wait_for(pilot, seat_is(lambda: model.view, 2, "open"), "the seat open")

            await pilot.press("1")  # left: the friend
            await wait_for(pilot, lambda: "k  Remove Friend" in screen_text(app), "human menu")
            await pilot.press("k")
            await wait_for(pilot, seat_is(lambda: model.view, 1, "open"), "the friend removed")
            # The removed player is told, and is out of the table.
            kicked = await next_message(friend, lambda m: isinstance(m, sm.Kicked))
            assert isinstance(kicked, sm.Kicked) and kicked.table_id == model.view.table_id
            assert friend.table_id is None and friend.saved.seat_token is None
            await wait_for(pilot, lambda: "removed Friend" in screen_text(app), "the log line")
            await wait_for(
                pilot, lambda: "You removed: Friend" in screen_text(app), "the lobby's list"
            )
            with pytest.raises(RequestFailed) as refused:
                await friend.request(cm.JoinTable(id=friend.next_id(), code=model.view.code))
            assert refused.value.code == "kicked"

            await pilot.press("1")  # the open seat's menu also lets the friend back
            await wait_for(pilot, lambda: "a  Let Friend back" in screen_text(app), "allow back")
            text = save_svg(app, "seat-menu-allow-back-80x24")
            assert "e  Easy bot" in text
            await pilot.press("a")
            await wait_for(pilot, lambda: model.view is not None and not model.view.kicked, "back")
            assert "You removed" not in screen_text(app)
            back = await friend.request(cm.JoinTable(id=friend.next_id(), code=model.view.code))
            assert isinstance(back, sm.Seated) and back.seat == 1

            await pilot.press("q", "g")  # the host may not leave before the start
            await wait_for(
                pilot,
                lambda: "✕ The host cannot leave before the game starts" in screen_text(app),
                "the server's refusal",
            )
            assert model.view is not None and model.view.seat == 0
        finally:
            await friend.close()


@pytest.fixture
async def host(server: RunningServer) -> AsyncIterator[ClientSession]:
    """A host at a table whose seats 1 and 3 are open."""
    session = ClientSession(server.url, "Hostess")
    await session.connect()
    await session.request(cm.CreateTable(id=session.next_id(), seats=("open", "easy", "open")))
    try:
        yield session
    finally:
        await session.close()


async def test_a_guest_gives_up_the_seat_and_watches(
    server: RunningServer, host: ClientSession
) -> None:
    assert host.code is not None
    app = make_app(Launch(mode="join", server=server.url, name="Guest", code=host.code))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: model.view is not None and model.view.seat == 1, "a seat")
        await pilot.press("1")
        assert "✕ Only the host can do that." in screen_text(app)

        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit), "the question")
        text = save_svg(app, "leave-or-give-up-80x24")
        assert "Leave (y)" in text and "Give up my seat (g)" in text and "Stay (n)" in text
        await pilot.press("n")
        assert model.view is not None and model.view.seat == 1
        await pilot.press("q", "g")
        await wait_for(pilot, model.spectating, "watching")
        await wait_for(pilot, lambda: "You gave up your seat" in screen_text(app), "the log")
        await wait_for(pilot, seat_is(lambda: host.last_view, 1, "open"), "the seat open")
        assert app.table is not None and app.table.session.saved.seat_token is None
        await wait_for(pilot, lambda: "watching" in screen_text(app), "the title")

        await pilot.press("q")  # a spectator is only asked whether to stop
        await wait_for(pilot, lambda: "Stop watching?" in screen_text(app), "the question")
        assert "Give up my seat" not in screen_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")


async def test_leaving_keeps_the_seat(server: RunningServer, host: ClientSession) -> None:
    assert host.code is not None
    app = make_app(Launch(mode="join", server=server.url, name="Guest", code=host.code))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model.view is not None, "a seat")
        await wait_for(pilot, seat_is(lambda: host.last_view, 1, "human"), "the guest seated")
        await pilot.press("q", "y")  # ``leave``: the seat stays ours, shown away
        await wait_for(pilot, lambda: not app.is_running, "the app to end")

    def away() -> bool:
        view = host.last_view
        return view is not None and view.seats[1].kind == "human" and view.seats[1].away

    async def until_away() -> None:
        async for _ in host.events():
            if away():
                return

    # The host's session sees the guest go away, the seat still theirs.
    if not away():
        await asyncio.wait_for(until_away(), TIMEOUT)


async def test_a_guest_removed_by_the_host_is_told_and_is_out(
    server: RunningServer, host: ClientSession, tmp_path: Path
) -> None:
    """The removed guest is told, the seat is gone from the session file,
    and the list of tables takes the table's place: the same table refuses
    them until the host lets them back; then they join it again."""
    assert host.code is not None
    code = f"{host.code[:3]}-{host.code[3:]}"
    session_file = tmp_path / "session.json"
    launch = Launch(
        mode="join", server=server.url, name="Guest", code=host.code, session_file=session_file
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: model.view is not None and model.view.seat == 1, "a seat")
        assert json.loads(session_file.read_text())["seat"] == 1
        await host.request(cm.Kick(id=host.next_id(), seat=1))
        await wait_for(pilot, lambda: isinstance(app.screen, TableListScreen), "the tables")
        told = f"✕ The host removed you from table {code}."
        await wait_for(pilot, lambda: told in screen_text(app), "the reason")
        await wait_for(pilot, lambda: "ℹ No public table" in screen_text(app), "the list")
        text = save_svg(app, "removed-80x24")
        assert "n new table" in text  # where another table can be joined, watched or hosted
        assert model.view is None  # the old table is forgotten
        # The seat is no longer ours: it is not kept for `hearts resume`.
        saved = json.loads(session_file.read_text())
        assert saved["table_id"] is None and saved["seat_token"] is None

        await pilot.press("slash", *code, "enter")  # the same table again: refused
        await wait_for(
            pilot,
            lambda: "only the host can let you back" in screen_text(app),
            "the refusal",
        )
        shown = await next_message(host, lambda m: isinstance(m, sm.Snapshot) and m.view.kicked)
        assert isinstance(shown, sm.Snapshot)
        (guest,) = shown.view.kicked
        await host.request(cm.AllowBack(id=host.next_id(), player_id=guest.player_id))
        await pilot.press("enter")
        await wait_for(pilot, lambda: model.view is not None and model.view.seat == 1, "back")
        await wait_for(pilot, lambda: "The host starts the game." in screen_text(app), "lobby")
        assert json.loads(session_file.read_text())["seat_token"]


async def test_a_removed_player_can_host_a_table_of_their_own(
    server: RunningServer, host: ClientSession
) -> None:
    """From the list a removed player reaches, ``n`` opens the host form and
    creates a new table with them as its host."""
    assert host.code is not None
    app = make_app(Launch(mode="join", server=server.url, name="Guest", code=host.code))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: model.view is not None and model.view.seat == 1, "a seat")
        old = model.view.table_id if model.view is not None else ""
        await host.request(cm.Kick(id=host.next_id(), seat=1))
        await wait_for(pilot, lambda: isinstance(app.screen, TableListScreen), "the tables")
        await pilot.press("n")
        await wait_for(pilot, lambda: "New table" in screen_text(app), "the form")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: model.view is not None and model.view.table_id != old,
            "a table of our own",
        )
        assert model.view is not None and model.view.seat == model.view.host_seat == 0
        await wait_for(pilot, lambda: "Enter: start" in screen_text(app), "the host's lobby")


async def test_the_host_lets_a_removed_player_back_during_the_game(
    server: RunningServer,
) -> None:
    """Once the game runs, 1 2 3 only offer to let removed players back."""
    launch = Launch(
        mode="host", server=server.url, name="Hostess", seats=("open", "easy", "easy"),
        ask_setup=False,
    )  # fmt: skip
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: model.view is not None, "the lobby")
        assert model.view is not None
        friend = ClientSession(server.url, "Friend")
        await friend.connect()
        try:
            await friend.request(cm.JoinTable(id=friend.next_id(), code=model.view.code))
            await wait_for(pilot, seat_is(lambda: model.view, 1, "human"), "the friend")
            await pilot.press("1", "k")
            await wait_for(pilot, lambda: bool(model.view and model.view.kicked), "removed")
            await pilot.press("enter")  # start: the open seat gets a bot
            await wait_for(pilot, lambda: model.passing(), "the game")
            await pilot.press("3")
            await wait_for(pilot, lambda: "Players you removed" in screen_text(app), "the menu")
            text = screen_text(app)
            assert "a  Let Friend back to the table" in text
            assert "Easy bot" not in text.split("Players you removed")[1]  # no seat choices
            await pilot.press("a")
            await wait_for(pilot, lambda: model.view is not None and not model.view.kicked, "back")
            watching = await friend.request(cm.Watch(id=friend.next_id(), code=model.view.code))
            assert isinstance(watching, sm.Seated) and watching.seat is None
            await pilot.press("2")  # nobody left to let back: seats are not for now
            assert "Seats change only before the game starts." in screen_text(app)
        finally:
            await friend.close()


async def next_message(session: ClientSession, pred: Callable[[BaseModel], bool]) -> BaseModel:
    """The next event, snapshot or other message of ``session`` matching ``pred``."""

    async def scan() -> BaseModel:
        async for msg in session.events():
            if pred(msg):
                return msg
        raise AssertionError("the session closed")

    return await asyncio.wait_for(scan(), TIMEOUT)

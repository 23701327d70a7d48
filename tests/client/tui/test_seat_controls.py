"""Seats before the game: the host's seat menu (a bot of a level on an open
seat, another level, the seat opened again, a player removed), a guest giving
up the seat to watch, leaving with the seat kept, and refusals in the
server's words."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from client.session import ClientSession
from client.tui.launch import Launch
from client.tui.screens.dialogs import ConfirmQuit
from client.tui.screens.seat_menu import SeatMenu
from protocol import client_messages as cm
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
            assert "North: open seat" in text
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
            # The server keeps the removed player at the table as a spectator.
            await wait_for(
                pilot,
                lambda: friend.last_view is not None and friend.last_view.seat is None,
                "the friend watching",
            )
            await wait_for(pilot, lambda: "removed Friend" in screen_text(app), "the log line")

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


async def test_a_guest_removed_by_the_host_is_told_and_watches(
    server: RunningServer, host: ClientSession
) -> None:
    assert host.code is not None
    app = make_app(Launch(mode="join", server=server.url, name="Guest", code=host.code))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: model.view is not None and model.view.seat == 1, "a seat")
        await host.request(cm.Kick(id=host.next_id(), seat=1))
        await wait_for(pilot, model.spectating, "watching")
        text = save_svg(app, "removed-80x24")
        assert "✕ The host took your seat away: you are watching now." in text
        assert "You are watching. The host starts the game." in text
        # The seat is no longer ours: it is not kept for `hearts resume`.
        assert app.table is not None and app.table.session.saved.seat_token is None

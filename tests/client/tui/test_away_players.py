"""Players away from the table: the others see a live countdown to the bot
that will cover an away player, a spectator sees a table with nobody left
paused, and a player a bot covered for is told what it did in their name
(in the log and in a pop-up)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from client.session import ClientSession
from client.tui.cards import label, sorted_hand
from client.tui.launch import Launch
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.config import ServerConfig

from .conftest import TIMEOUT, Proxy, ThreadBots, make_app, save_svg, screen_text, wait_for

COUNTDOWN = re.compile(r"bot in (\d+) s")


async def until_view(session: ClientSession, check: Callable[[SeatView], bool]) -> SeatView:
    """The first snapshot (queued or coming) of ``session`` passing ``check``."""

    async def scan() -> SeatView:
        async for msg in session.events():
            if isinstance(msg, sm.Snapshot) and check(msg.view):
                return msg.view
        raise AssertionError("the session closed")

    return await asyncio.wait_for(scan(), TIMEOUT)


def shown_countdown(app: object) -> int | None:
    """The countdown a seat panel shows now, if any."""
    match = COUNTDOWN.search(screen_text(app))
    return int(match.group(1)) if match else None


async def test_the_others_see_a_live_countdown_to_the_bot(server: RunningServer) -> None:
    """A guest drops during the game while the host is there: the host's
    panel of that seat says away and counts the seconds down by itself,
    between snapshots."""
    launch = Launch(
        mode="host", server=server.url, name="Hostess", seats=("open", "easy", "easy"),
        ask_setup=False,
    )  # fmt: skip
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: model.view is not None, "the lobby")
        assert model.view is not None
        guest = ClientSession(server.url, "Guest")
        await guest.connect()
        await guest.request(cm.JoinTable(id=guest.next_id(), code=model.view.code))
        await wait_for(
            pilot, lambda: bool(model.view and model.view.seats[1].kind == "human"), "the guest"
        )
        await pilot.press("enter")  # start
        await wait_for(pilot, model.passing, "the deal")
        await guest.close()

        await wait_for(pilot, lambda: shown_countdown(app) is not None, "the countdown")
        first = shown_countdown(app)
        assert first is not None and 20 <= first <= 30  # the server's grace is 30 s
        text = save_svg(app, "countdown-80x24")
        assert "○ away" in text
        revision = model.view.seq if model.view is not None else 0
        await wait_for(
            pilot, lambda: (shown_countdown(app) or first) < first, "a second less", timeout=5
        )
        # No snapshot came meanwhile (the bots wait for our pass): the
        # client counted down by itself.
        assert model.view is not None and model.view.seq == revision


async def test_a_spectator_sees_a_table_with_nobody_left_paused(
    server: RunningServer, tmp_path: Path
) -> None:
    """The only human player goes away: the spectator's title and prompt
    say the game is paused (no countdown: no bot covers a table nobody
    plays at); when the player resumes the pause ends."""
    path = tmp_path / "host.json"
    host = ClientSession(server.url, "Hostess", session_file=path)
    await host.connect()
    created = await host.request(cm.CreateTable(id=host.next_id(), seats=("easy", "easy", "easy")))
    assert isinstance(created, sm.Seated)
    await host.request(cm.StartGame(id=host.next_id()))
    app = make_app(Launch(mode="watch", server=server.url, name="Fan", code=created.code))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(
            pilot, lambda: model.view is not None and model.view.status == "playing", "the game"
        )
        assert "paused" not in screen_text(app)
        await host.close()

        await wait_for(pilot, model.paused, "the pause")
        await wait_for(pilot, lambda: "⏸ paused" in screen_text(app), "the title")
        text = save_svg(app, "paused-watching-80x24")
        assert "You are watching: the game is paused until a player comes back." in text
        assert "○ away" in text and "bot in" not in text

        back = ClientSession(server.url, "Hostess", session_file=path)
        await back.connect()  # the saved seat is resumed
        try:
            await wait_for(pilot, lambda: not model.paused(), "the end of the pause")
            await wait_for(pilot, lambda: "paused" not in screen_text(app), "the title again")
        finally:
            await back.close()


@pytest.fixture
async def quick_server() -> AsyncIterator[RunningServer]:
    """A server whose bots cover an away player after 0.3 s."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1, grace_seconds=0.3)
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        yield running
    finally:
        await running.close()


async def test_a_returning_player_is_told_what_the_bot_did(quick_server: RunningServer) -> None:
    """The guest's connection is cut (and reconnects refused) before the
    deal; with the host still there a bot passes for the guest. Back, the
    guest reads what it passed in the log and in a pop-up."""
    server = quick_server
    proxy = Proxy(server.port)
    await proxy.start()
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        created = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"))
        )
        assert isinstance(created, sm.Seated)
        launch = Launch(
            mode="join", server=proxy.url, name="Guest", code=created.code, max_backoff=0.2
        )
        app = make_app(launch)
        popups: list[str] = []
        shown = app.notify

        def notify(message: str, **kw: Any) -> None:
            popups.append(message)
            shown(message, **kw)

        app.notify = notify  # type: ignore[method-assign]
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            model = app.model
            await wait_for(pilot, lambda: bool(model.view and model.view.seat == 1), "a seat")
            proxy.refuse()
            assert host._ws is not None
            for conn in list(server.ws_server.connections):
                if conn.remote_address != host._ws.local_address:
                    conn.transport.abort()  # the guest's connection, through the proxy
            await until_view(host, lambda v: v.seats[1].away)
            await host.request(cm.StartGame(id=host.next_id()))
            covered = await until_view(host, lambda v: v.seats[1].bot_covering)
            assert covered.seats[1].kind == "human"
            await until_view(host, lambda v: v.seats[1].passed)

            proxy.allow()
            await wait_for(pilot, lambda: model.connection == "online", "back online")
            await wait_for(pilot, lambda: bool(model.view and model.view.passed), "the view")
            assert model.view is not None
            cards = " ".join(label(c) for c in sorted_hand(model.view.passed))
            said = f"A bot covered for you while you were away: it passed {cards}."
            # The pop-up (a toast over the table). Read from the app's
            # notifications, not the screen: a toast drawn and gone again
            # (its 10 s over on a busy machine) still was shown.
            await wait_for(pilot, lambda: any(said in n for n in popups), "the pop-up")
            save_svg(app, "bot-covered-80x24")
            # The log keeps it. At 80×24 the toast covers the log's last
            # lines for its 10 s: dismissed, as a player may, the line shows.
            app.clear_notifications()
            await wait_for(pilot, lambda: said in screen_text(app), "the log line")
    finally:
        await host.close()
        await proxy.close()

"""The turn timer in the terminal: the host picks it in the form, the seat
whose move it is shows the seconds left (our own on the prompt line), and
when they run out a bot moves for us and we are told."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from textual.widgets import Select

from client.tui.launch import Launch
from client.tui.screens.host_setup import HostSetupScreen
from server.app import RunningServer, start_server
from server.config import ServerConfig

from .conftest import ThreadBots, make_app, save_svg, screen_text, wait_for

TURN = re.compile(r"(\d+) s to move")


@pytest.fixture
async def fast_timer_server() -> AsyncIterator[RunningServer]:
    """A server whose turn timers run five times faster (15 s last 3 s)."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1, turn_timer_scale=0.2)
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        yield running
    finally:
        await running.close()


async def test_the_hosts_timer_counts_down_then_a_bot_passes(
    fast_timer_server: RunningServer,
) -> None:
    launch = Launch(mode="host", server=fast_timer_server.url, name="Tove")
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the form")
        await wait_for(pilot, lambda: "Time per move" in screen_text(app), "the form drawn")
        form = app.screen
        timer = form.query_one("#turn-timer", Select)
        assert timer.value == "off"  # no limit unless the host picks one
        timer.value = "15"
        for position in ("left", "across", "right"):
            form.query_one(f"#spec-{position}", Select).value = "easy"
        await pilot.press("ctrl+s")
        model = app.model
        await wait_for(pilot, lambda: model.view is not None, "the table")
        assert model.view is not None and model.view.turn_seconds == 15
        await pilot.press("enter")  # start
        await wait_for(pilot, model.passing, "the deal")

        await wait_for(pilot, lambda: TURN.search(screen_text(app)) is not None, "the countdown")
        shown = TURN.search(save_svg(app, "turn-timer-80x24"))
        assert shown is not None and 0 <= int(shown.group(1)) <= 3

        # We do nothing: the time runs out and a bot passes for us.
        await wait_for(
            pilot,
            lambda: "Your time ran out: a bot passed" in screen_text(app),
            "the report",
        )
        assert model.view is not None and len(model.view.passed) == 3


async def test_hearts_host_turn_timer_sets_it_without_the_form(server: RunningServer) -> None:
    """``hearts host --turn-timer 30`` (``Launch.turn_seconds``) reaches the
    table when no form is shown (the form, when shown, starts from it)."""
    launch = Launch(mode="host", server=server.url, name="Tove", turn_seconds=30, ask_setup=False)
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model.view is not None, "the table")
        assert app.model.view is not None and app.model.view.turn_seconds == 30

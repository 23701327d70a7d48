"""Past hands in the terminal: before any hand is finished v says so; after
one, v opens its replay (our deal, pass and received cards, then its tricks
with ← →), and Esc goes back to the table."""

from __future__ import annotations

import pytest

from client.tui.launch import Launch
from client.tui.screens.replay import ReplayScreen
from protocol.common import RulesModel
from tools.local_server import start_play_server

from .conftest import make_app, play_out_hand, screen_text, wait_for


@pytest.mark.slow
async def test_v_replays_the_finished_hand() -> None:
    launch = Launch(
        mode="play",
        name="Looker",
        seats=("easy", "easy", "easy"),
        rules=RulesModel(end="hands", end_at=2),
        bot_budget_ms=20,
        local_server=start_play_server,
    )
    app = make_app(launch)
    async with app.run_test(size=(100, 34)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pilot.press("v")
        assert "No hand of this game is finished yet." in screen_text(app)
        await play_out_hand(pilot, app)
        await wait_for(pilot, lambda: bool(model.view and model.view.hands), "the hand's end")
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await wait_for(pilot, lambda: "Trick 1 of 13" in screen_text(app), "the first trick")
        text = screen_text(app)
        assert "Hand 1" in text and "You were dealt" in text and "You passed" in text
        assert "2♣" in text
        await pilot.press("right", "right")
        await wait_for(pilot, lambda: "Trick 3 of 13" in screen_text(app), "the third trick")
        await pilot.press("left")
        await wait_for(pilot, lambda: "Trick 2 of 13" in screen_text(app), "the second trick")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReplayScreen), "the table")

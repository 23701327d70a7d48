"""Hints on request in the terminal: H picks the Medium bot's pass (p still
sends it) and puts the cursor on the card it would play, naming it in the
notice line; with nothing asked of the seat, H says why there is no hint."""

from __future__ import annotations

import random

from bots.api import decide
from client.tui.advice import hint_refusal
from client.tui.cards import label
from client.tui.i18n import Msg
from client.tui.launch import Launch
from client.tui.model import TableModel
from tools.local_server import start_play_server

from .conftest import hand_below, make_app, screen_text, wait_for


async def test_h_gives_the_medium_bots_pass_and_card() -> None:
    launch = Launch(
        mode="play",
        name="Hinted",
        seats=("easy", "easy", "easy"),
        bot_budget_ms=20,
        local_server=start_play_server,
    )
    app = make_app(launch)
    async with app.run_test(size=(100, 30)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        view = model.view
        assert view is not None
        expected = decide(view, "medium", random.Random(0)).cards
        await pilot.press("H")
        await wait_for(pilot, lambda: len(model.selected) == 3, "the hinted pass")
        assert sorted(model.selected) == sorted(expected)
        assert "Hint: pass" in screen_text(app)
        await pilot.press("p")
        await wait_for(pilot, lambda: bool(model.view and model.view.passed), "the pass")

        await wait_for(pilot, model.my_turn, "our turn")
        view = model.view
        assert view is not None
        card = decide(view, "medium", random.Random(0)).card
        assert card is not None
        await pilot.press("H")
        said = f"Hint: play {label(card)} (key {model.key_of(card)})"
        await wait_for(pilot, lambda: said in screen_text(app), "the hinted card")
        assert model.card_at(model.cursor) == card
        before = len(view.hand)
        await pilot.press("space")  # plays the card under the cursor
        await wait_for(pilot, hand_below(app, before), "the hinted card to be played")
        assert model.view is not None and card not in model.view.hand


def test_no_hint_before_a_pass_or_a_turn() -> None:
    """With nothing asked of the seat, H explains instead of asking."""
    assert hint_refusal(TableModel()) == Msg("why.no_hint")

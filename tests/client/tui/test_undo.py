"""Undo in the terminal, with bots alone: u before our first card says why
not; after our card and the bots' replies, u puts the card back in our hand
(with its letter) and the log says so."""

from __future__ import annotations

from client.tui.cards import label
from client.tui.launch import Launch
from tools.local_server import start_play_server

from .conftest import first_legal_key, hand_below, make_app, pass_by_keys, screen_text, wait_for


async def test_u_takes_back_our_last_card() -> None:
    launch = Launch(
        mode="play",
        name="Undoer",
        seats=("easy", "easy", "easy"),
        bot_budget_ms=20,
        local_server=start_play_server,
    )
    app = make_app(launch)
    async with app.run_test(size=(100, 30)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pass_by_keys(pilot, app)
        await wait_for(pilot, model.my_turn, "our first turn")
        await pilot.press("u")
        assert "No card to take back now" in screen_text(app)
        view = model.view
        assert view is not None
        before = len(view.hand)
        key = first_legal_key(app)
        card = model.card_for_key(key)
        assert card is not None
        await pilot.press(key)
        await wait_for(pilot, hand_below(app, before), "our card to leave the hand")
        await wait_for(pilot, lambda: model.my_turn() and not model.lingering(), "our turn again")
        await pilot.press("u")
        await wait_for(
            pilot,
            lambda: model.view is not None and card in model.view.hand,
            "the card back in the hand",
        )
        assert model.key_of(card) == key
        assert f"You took back {label(card)}" in screen_text(app)

"""Undo in the terminal, with bots alone: u before our first card says why
not; after our card and the bots' replies, u puts the card back in our hand
(with its letter) and the log says so."""

from __future__ import annotations

from client.tui.cards import label
from client.tui.launch import Launch
from tools.local_server import start_play_server

from .conftest import first_legal_key, hand_below, make_app, pass_by_keys, screen_text, wait_for


def undo_launch() -> Launch:
    """``hearts play`` against easy bots on its own server (undo needs a
    table of bots alone)."""
    return Launch(
        mode="play",
        name="Undoer",
        seats=("easy", "easy", "easy"),
        bot_budget_ms=20,
        local_server=start_play_server,
    )


async def test_u_takes_back_our_last_card() -> None:
    app = make_app(undo_launch())
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


async def test_undo_of_a_card_that_played_by_itself_leaves_it_in_the_hand() -> None:
    """With "play a card by itself" on, a forced card plays itself; u takes
    it back, and it stays in the hand for the player to play (it used to
    go straight back to the table)."""
    from client.tui.settings import Settings

    app = make_app(undo_launch())
    app.settings = Settings(auto_single=True)
    async with app.run_test(size=(100, 30)) as pilot:
        model = app.model

        seen = 0  # auto-played lines already looked at (a hand's last card plays itself)

        def auto_played() -> bool:
            return sum(line.msg.key == "log.auto_played" for line in model.log) > seen

        def mid_hand() -> bool:
            view = model.view
            return view is not None and view.status == "playing" and len(view.hand) > 0

        steps = 0
        while not (auto_played() and mid_hand()):
            if auto_played():
                seen = sum(line.msg.key == "log.auto_played" for line in model.log)
            await wait_for(pilot, lambda: model.view is not None, "the table")
            view = model.view
            assert view is not None and view.status != "game_over"
            if view.status == "between_hands":
                await pilot.press("enter")
                await wait_for(pilot, mid_hand, "the deal")
                continue
            await wait_for(
                pilot,
                lambda: (
                    model.passing()
                    or model.my_turn()
                    or auto_played()
                    or (model.view is not None and model.view.status != "playing")
                ),
                "something to do",
            )
            if model.passing():
                await pass_by_keys(pilot, app, "klm")
            elif model.my_turn() and not auto_played():
                view = model.view
                assert view is not None
                if len(view.legal) > 1:
                    await pilot.press(first_legal_key(app))
                    await wait_for(pilot, hand_below(app, len(view.hand), auto_played), "a card")
            steps += 1
            assert steps < 400, "no forced card came"
        forced = [line for line in model.log if line.msg.key == "log.auto_played"][-1]
        await wait_for(pilot, lambda: model.my_turn() and not model.lingering(), "our next turn")
        view = model.view
        assert view is not None
        before = len(view.hand)
        await pilot.press("u")
        await wait_for(
            pilot, lambda: model.view is not None and len(model.view.hand) > before, "the undo"
        )
        back = model.view
        assert back is not None and len(back.legal) == 1
        assert label(back.legal[0]) == forced.msg.params["card"]
        # Let the app settle: nothing is sent by itself this time.
        for _ in range(20):
            await pilot.pause()
        assert model.view is not None and back.legal[0] in model.view.hand and model.my_turn()
        assert not model.busy
        await pilot.press(model.key_of(back.legal[0]))
        await wait_for(pilot, hand_below(app, len(back.hand)), "the card played by its key")

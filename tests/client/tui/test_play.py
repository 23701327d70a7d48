"""A whole hand by keys: ``hearts play`` starts its own server in-process
(``tools.local_server``, handed to the app as the command does);
pass three cards (one put back and another picked on the way), play every
trick with the card keys (the last card plays itself), see the hand's
points and deal the next hand."""

from __future__ import annotations

from client.tui.cards import label
from client.tui.launch import Launch
from client.tui.widgets.hand import HandView
from tools.local_server import start_play_server

from .conftest import first_legal_key, hand_below, make_app, save_svg, screen_text, wait_for


async def test_pass_and_play_a_whole_hand_by_keys() -> None:
    launch = Launch(
        mode="play",
        name="Tester",
        seats=("easy", "easy", "easy"),
        bot_budget_ms=20,
        local_server=start_play_server,  # as `hearts play` hands it to the app
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        hand = model.hand()
        assert len(hand) == 13
        text = screen_text(app)
        assert "Pick 3 cards to pass left (0/3)" in text
        assert "hand 1 · pass left" in text

        await pilot.press("a", "b", "c")
        assert model.selected == hand[:3]
        await pilot.press("b")  # pick again: put it back
        assert model.selected == [hand[0], hand[2]]
        slot = app.screen.query_one(HandView).slots()[12]
        await pilot.click(HandView, offset=(slot.x + 1, 2))  # a click picks too
        assert model.raised() == {hand[0], hand[2], hand[12]}
        assert "(3/3)" in screen_text(app)
        passed = {hand[0], hand[2], hand[12]}
        await pilot.press("p")
        await wait_for(pilot, lambda: bool(model.view and model.view.phase == "play"), "play")
        view = model.view
        assert view is not None
        assert set(view.passed) == passed and not passed & set(view.hand)
        assert len(model.marked()) == 3  # the cards passed to us are marked

        tricks_seen = 0
        while True:
            await wait_for(
                pilot,
                lambda: model.my_turn() or bool(model.view and model.view.status != "playing"),
                "our turn or the hand's end",
            )
            view = model.view
            assert view is not None
            if view.status != "playing":
                break
            if len(view.hand) == 1:  # the last card plays itself, no key needed
                last = view.hand[0]
                await wait_for(
                    pilot,
                    lambda c=last: model.view is not None and c not in model.view.hand,
                    "the last card to play itself",
                )
                said = f"You played {label(last)}"
                await wait_for(pilot, lambda s=said: s in screen_text(app), "the log line")
                continue
            before = len(view.hand)
            key = first_legal_key(app)
            card = model.card_for_key(key)
            await pilot.press(key)
            await wait_for(
                pilot,
                hand_below(app, before),
                f"{card} to leave the hand",
            )
            assert model.view is not None and card not in model.view.hand
            tricks_seen += 1
            if tricks_seen == 1:
                await wait_for(pilot, lambda: not model.marked(), "the marks to clear")

        assert tricks_seen == 12  # and the thirteenth card by itself
        view = model.view
        assert view is not None and view.status == "between_hands"
        assert len(view.tricks) == 13 and sum(view.hands[-1].points) in (26, 78)
        # The hand's end is drawn once laid out (its buttons, the score table).
        await wait_for(pilot, lambda: "Next hand" in screen_text(app), "the hand's end drawn")
        text = save_svg(app, "hand-over-80x24")
        assert "Hand 1 is over" in text
        assert "Next hand" in text
        assert " Σ " in text  # the score table replaced the trick history

        await pilot.press("enter")
        await wait_for(
            pilot, lambda: bool(model.view and model.view.hand_number == 2), "the next hand"
        )
        assert "pass right" in screen_text(app)

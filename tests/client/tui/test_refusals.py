"""Refused keys: a fourth card to pass, passing too few, a card out of
turn, an illegal card on our turn (reason shown, nothing sent), and a
refusal that comes from the server shown as a readable sentence."""

from __future__ import annotations

from client.tui.launch import Launch
from client.tui.pacing import Pacing
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer

from .conftest import (
    first_illegal_key,
    first_legal_key,
    hand_below,
    make_app,
    save_svg,
    screen_text,
    wait_for,
)

REASONS = (
    "You must follow suit: you have ",
    "The first trick must be led with 2♣.",
    "Hearts are not broken yet: lead another suit.",
    "No hearts or Q♠ on the first trick.",
)


async def test_refused_keys_show_their_reason(server: RunningServer) -> None:
    launch = Launch(mode="play", server=server.url, seats=("easy", "easy", "easy"))
    # Bots' cards appear after a pause: a window where another seat is to play.
    app = make_app(launch, pacing=Pacing(card=0.4, trick=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pilot.press("a", "b", "p")
        assert "✕ Pick 3 cards to pass (2 picked)." in screen_text(app)
        await pilot.press("c", "d")
        assert "✕ You have picked 3 cards: pick one again to put it back." in screen_text(app)
        assert len(model.selected) == 3
        await pilot.press("enter")
        await wait_for(pilot, lambda: not model.passing(), "the pass")

        refused_out_of_turn = refused_illegal = False
        while not (refused_out_of_turn and refused_illegal):
            await wait_for(
                pilot,
                lambda: bool(model.view and model.view.phase == "play"),
                "play",
            )
            view = model.view
            assert view is not None and view.status == "playing", "the hand ended first"
            if not model.my_turn():
                if not refused_out_of_turn and not model.lingering() and model.hand():
                    await pilot.press(model.key_of(model.hand()[0]))  # a card still held
                    notice = model.notice
                    if notice is not None and notice.msg.key == "why.not_your_turn":
                        assert "✕ Not your turn: " in screen_text(app)
                        refused_out_of_turn = True
                await pilot.pause(0.02)
                continue
            key = first_illegal_key(app)
            if key is not None and not refused_illegal:
                hand = list(view.hand)
                await pilot.press(key)
                text = save_svg(app, "illegal-card-80x24")
                assert any(reason in text for reason in REASONS), text
                assert "░░░" in text  # illegal cards are hatched, not only coloured
                assert model.view is not None and list(model.view.hand) == hand
                assert model.my_turn()  # nothing was sent
                refused_illegal = True
            before = len(view.hand)
            await pilot.press(first_legal_key(app))
            await wait_for(
                pilot,
                hand_below(app, before),
                "our card",
            )


async def test_a_server_refusal_is_shown_as_a_sentence(server: RunningServer) -> None:
    """The moon dialog (shown here by a forged snapshot) sends a choice the
    server refuses: its sentence appears under the hand."""
    launch = Launch(
        mode="play",
        server=server.url,
        seats=("easy", "easy", "easy"),
        rules=RulesModel(moon="choice"),
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        # Once the bots have passed nothing moves until we do: no snapshot
        # replaces the forged one below.
        await wait_for(
            pilot,
            lambda: bool(model.view and all(s.passed for s in model.view.seats[1:])),
            "the bots' passes",
        )
        view = model.view
        assert view is not None
        forged = view.model_copy(update={"phase": "moon_choice", "moon_shooter": view.seat})
        model.apply(sm.Snapshot(seq=view.seq, view=forged))
        app.changed()
        await wait_for(pilot, lambda: "You shot the moon!" in screen_text(app), "the dialog")
        text = save_svg(app, "moon-choice-80x24")
        assert "1 · Everyone else +26" in text and "2 · Me −26" in text
        # The choice first, while the dialog is up (were the truth put back
        # first, any redraw before the key could close the dialog and send
        # the key to the table), then the truth again before the refusal.
        await pilot.press("1")
        model.apply(sm.Snapshot(seq=view.seq, view=view))
        await wait_for(
            pilot, lambda: "✕ There is no moon choice to make" in screen_text(app), "the refusal"
        )


def test_every_not_now_reason_has_its_own_sentence_in_every_language() -> None:
    """A ``not_now`` the server may send (records_not_finished among them)
    reads as a sentence of its own, not as the server's English."""
    from typing import get_args

    from client.tui.i18n import LANGUAGES, Translator
    from client.tui.model import refusal_msg
    from protocol.refusals import NotNowReason

    for reason in get_args(NotNowReason):
        msg = refusal_msg("not_now", "ENGLISH FROM THE SERVER", reason)
        assert msg.key == f"error.not_now.{reason}", reason
        for language in LANGUAGES:
            sentence = Translator(language).text(msg)  # type: ignore[arg-type]
            assert sentence and "ENGLISH FROM THE SERVER" not in sentence, (language, reason)

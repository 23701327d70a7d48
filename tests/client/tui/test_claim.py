"""Claiming in the terminal: with two cards left, C either has the hand
played out (the log and a pop-up say why) or shows the server's refusal and
leaves the cards to play; over a few hands both are seen. Before our turn,
C says when a claim can be made."""

from __future__ import annotations

import pytest

from client.tui.launch import Launch
from client.tui.model import TableModel

from .conftest import (
    first_legal_key,
    hand_below,
    make_app,
    pass_by_keys,
    quick,
    screen_text,
    seeded_server,
    wait_for,
)

CLAIM_DEALS = 1
"""The seed of the claim test's tables: among its first hands a claim with
two cards left holds and another is refused."""


def claims_logged(model: TableModel) -> int:
    """Our claims the log tells of."""
    return sum(line.msg.key in ("claim.top_you", "claim.every_you") for line in model.log)


@pytest.mark.slow
async def test_c_claims_the_rest_or_is_refused() -> None:
    # A fixed deal sequence: on random deals all eight hands' claims were
    # sometimes refused (a fresh-clone run), so "held" never came.
    async with seeded_server(CLAIM_DEALS) as server:
        await _claims_held_and_refused(quick(server, name="Claimer"))


async def _claims_held_and_refused(launch: Launch) -> None:
    app = make_app(launch)
    async with app.run_test(size=(100, 30)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pilot.press("C")
        assert "Claim on your turn" in screen_text(app)
        outcomes: set[str] = set()
        for _ in range(8):
            await pass_by_keys(pilot, app)
            view = model.view
            assert view is not None
            number = view.hand_number
            while True:
                await wait_for(pilot, model.my_turn, "our turn")
                assert model.view is not None
                if len(model.view.hand) == 2:
                    break
                played = hand_below(app, len(model.view.hand))
                await pilot.press(first_legal_key(app))
                await wait_for(pilot, played, "our card to be played")
            claims_said = claims_logged(model)
            await pilot.press("C")

            def ended(n: int = number) -> bool:
                v = model.view
                return v is not None and len(v.hands) >= n

            def refused() -> bool:
                return "Your claim does not hold" in screen_text(app)

            await wait_for(pilot, lambda: ended() or refused(), "the claim's answer")
            if ended():
                assert claims_logged(model) == claims_said + 1
                outcomes.add("held")
            else:
                outcomes.add("refused")
                played = hand_below(app, 2, ended)
                await pilot.press(first_legal_key(app))
                await wait_for(pilot, played, "our card to be played")
                await wait_for(pilot, ended, "the hand's end")
            if outcomes == {"held", "refused"}:
                break
            await pilot.press("enter")  # next hand
            await wait_for(
                pilot,
                lambda n=number: model.view is not None and model.view.hand_number > n,
                "the next hand",
            )
        assert outcomes == {"held", "refused"}

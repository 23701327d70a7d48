"""The terminal's hand review of a real widow hand with a moon: the hand is
played on a real server by wire clients (tests/server/moon_widow_hand.py:
seat 0 takes the widow, discards three cards and shoots the moon, scoring
it as "subtract"); ``hearts resume`` then comes back to seat 0 from a
session file holding its tokens, and the replay of hand 1 shows the
discard from the first trick on and the moon choice with the last trick,
each with the server's verdict, at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.saved_session import SavedSession
from client.tui.cards import labels
from client.tui.launch import Launch
from client.tui.screens.dialogs import GameOverScreen
from protocol import client_messages as cm
from protocol import server_messages as sm
from tests.server.moon_widow_hand import SEED, SHOOTER, play_moon_widow_hand

from .conftest import (
    make_app,
    review_from_game_over,
    save_svg,
    screen_text,
    seeded_server,
    wait_for,
)

TRICKS = 16  # three seats: 16 cards each, 3 in the widow
MOON = {"add": "add to the others", "subtract": "subtract from me"}


def verdict(decision: sm.ReviewedDecision, better: str) -> list[str]:
    """What the line says after the choice: the better option, the points
    lost and the label when the choice lost ground, else the best choice."""
    if decision.loss is None or decision.best is None:
        return ["not judged"]
    if decision.loss <= 0:
        return ["the best choice"]
    said = [f"better {better}", f"−{decision.loss:.1f} points"]
    return said + ([decision.label] if decision.label is not None else [])


@pytest.mark.slow
async def test_the_replay_shows_the_review_of_the_widow_discard_and_the_moon_choice(
    tmp_path: Path,
) -> None:
    async with seeded_server(SEED) as server:
        played = await play_moon_widow_hand(server.url)
        await played.close_all()
        host = played.host
        assert host.view.widow_seat == SHOOTER and host.view.hands[0].shooter == SHOOTER
        discard = next(r for r in played.requests if isinstance(r, cm.DiscardWidow))
        moon = next(r for r in played.requests if isinstance(r, cm.MoonChoice))
        # Seat 0's tokens, as ``hearts`` keeps them when it plays a seat.
        session_file = tmp_path / "session.json"
        SavedSession(
            server=server.url,
            name=host.name,
            player_token=host.player_token,
            table_id=host.table_id,
            code=host.code,
            seat=SHOOTER,
            seat_token=host.seat_token,
        ).save(session_file)

        app = make_app(Launch(mode="resume", session_file=session_file))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
            _, analysis = await review_from_game_over(pilot, app, timeout=120)
            assert isinstance(analysis, sm.Analysis), analysis
            assert (analysis.hand_number, analysis.seat) == (1, SHOOTER)
            judged = {d.kind: d for d in analysis.decisions if d.kind != "play"}
            assert set(judged) == {"discard", "moon_choice"}
            assert set(judged["discard"].chosen) == set(discard.cards)
            assert judged["moon_choice"].chosen == (moon.choice,)
            await pilot.pause()

            # The discard, from the first trick on; the moon not yet.
            text = screen_text(app)
            assert f"Trick 1 of {TRICKS}" in text
            line = next(x for x in text.split("\n") if "Discard: " in x)
            assert f"Discard: {labels(judged['discard'].chosen)}" in line
            for said in verdict(judged["discard"], labels(judged["discard"].best or ())):
                assert said in line, f"{said!r} is not in {line!r}"
            assert "Moon: " not in text

            # The last trick: the moon choice, with its verdict.
            for _ in range(TRICKS - 1):
                await pilot.press("right")
            await wait_for(
                pilot, lambda: f"Trick {TRICKS} of {TRICKS}" in screen_text(app), "the last trick"
            )
            text = save_svg(app, "review-moon-widow-80x24")
            line = next(x for x in text.split("\n") if "Moon: " in x)
            assert f"Moon: {MOON[moon.choice]}" in line
            best = judged["moon_choice"].best or ("",)
            for said in verdict(judged["moon_choice"], MOON.get(best[0], "")):
                assert said in line, f"{said!r} is not in {line!r}"
            assert "Discard: " in text  # the widow's discard is shown with every trick

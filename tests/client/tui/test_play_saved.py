"""``hearts play`` keeps its game: quit mid-game, run it again and continue
where it was (a real SQLite file under a tmp data folder, through the
command's own server, ``tools.local_server.saved_play_server``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from client.tui.app import HeartsApp
from client.tui.launch import Launch
from client.tui.screens.dialogs import ContinueGameScreen
from tools.local_server import saved_play_server, slot_files

from .conftest import (
    first_legal_key,
    hand_below,
    make_app,
    pass_by_keys,
    play_out_hand,
    save_svg,
    screen_text,
    wait_for,
)


def _launch(data: Path) -> Launch:
    return Launch(
        mode="play",
        name="Tester",
        seats=("easy", "easy", "easy"),
        bot_budget_ms=20,
        local_server=saved_play_server(data),  # as `hearts play` hands it to the app
    )


async def _quit(pilot: object, app: HeartsApp) -> None:
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    await pilot.press("q")
    await wait_for(
        pilot,
        lambda: (
            "Run `hearts play` again" in screen_text(app)
            or "run `hearts play` again" in screen_text(app)
        ),
        "the quit dialog",
    )
    await pilot.press("y")
    # The exit comes after the shutdown: the server closed, its file let go.
    await wait_for(pilot, lambda: app.return_code is not None, "the app to close")
    assert app.server is not None
    assert app.server.session_file is not None and app.server.session_file.exists()


@pytest.mark.slow
async def test_quit_mid_game_then_continue_it_or_start_a_new_one(tmp_path: Path) -> None:
    """A hand played out and a card of the next: quit; the next run offers
    that game with the same hand, scores and turn, on another port, and
    continues it; the run after that starts a new game when asked."""
    app = make_app(_launch(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await play_out_hand(pilot, app)
        await pilot.press("enter")  # ready for hand 2
        await wait_for(
            pilot, lambda: bool(model.view and model.view.hand_number == 2), "the next hand"
        )
        await pass_by_keys(pilot, app)
        await wait_for(pilot, model.my_turn, "our turn")
        assert model.view is not None
        played = hand_below(app, len(model.view.hand))
        await pilot.press(first_legal_key(app))
        await wait_for(pilot, played, "our card to be played")
        await wait_for(pilot, model.my_turn, "our turn again")
        left = model.view
        assert left is not None and sum(left.totals) > 0
        first_url = app.server.url if app.server is not None else ""
        await _quit(pilot, app)

    store_file, session_file = slot_files(tmp_path, 1)
    assert store_file.exists()
    saved = json.loads(session_file.read_text())
    assert saved["table_id"] == left.table_id and saved["seat_token"]

    app = make_app(_launch(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ContinueGameScreen), "the offer")
        assert app.server is not None and app.server.url != first_url  # another port
        await wait_for(pilot, lambda: "Continue your game?" in screen_text(app), "it drawn")
        text = save_svg(app, "play-continue-80x24")
        assert "Continue your game?" in text and "in hand 2" in text
        await pilot.press("enter")
        model = app.model
        await wait_for(pilot, lambda: not isinstance(app.screen, ContinueGameScreen), "continue")
        back = model.view
        assert back is not None and back.table_id == left.table_id
        assert back.hand_number == 2 and back.hand == left.hand
        assert back.totals == left.totals and back.hands == left.hands
        assert back.turn == back.seat and model.my_turn()
        await _quit(pilot, app)

    app = make_app(_launch(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ContinueGameScreen), "the offer")
        await pilot.press("n")
        model = app.model
        # The new table's first snapshot may come before its first deal.
        await wait_for(
            pilot,
            lambda: bool(
                model.view and model.view.table_id != left.table_id and model.view.hand_number
            ),
            "a new game",
        )
        assert model.view is not None and model.view.hand_number == 1
        assert sum(model.view.totals) == 0
        assert json.loads(session_file.read_text())["table_id"] == model.view.table_id
        await _quit(pilot, app)


async def test_a_second_hearts_play_at_once_keeps_its_own_game(tmp_path: Path) -> None:
    """The first one holds ``play.sqlite3``; a second one meanwhile takes
    ``play-2.sqlite3`` and its own session file instead of failing."""
    launch = _launch(tmp_path)
    start = saved_play_server(tmp_path)
    first = await start(launch)
    try:
        second = await start(launch)
        try:
            assert first.session_file == slot_files(tmp_path, 1)[1]
            assert second.session_file == slot_files(tmp_path, 2)[1]
            assert slot_files(tmp_path, 2)[0].exists() and first.url != second.url
        finally:
            await second.close()
    finally:
        await first.close()


def _letters(app: HeartsApp) -> dict[str, str]:
    """The letter drawn under each card of the hand."""
    from client.tui.widgets.hand import HandView

    return {slot.card: slot.key for slot in app.screen.query_one(HandView).slots()}


@pytest.mark.slow
async def test_card_letters_stay_the_same_after_a_restart(tmp_path: Path) -> None:
    """Two cards played, quit, `hearts play` again: the cards left keep the
    letters they had (the played ones' stay gone), not a–k afresh."""
    app = make_app(_launch(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pass_by_keys(pilot, app)
        await wait_for(pilot, lambda: bool(model.view and model.view.phase == "play"), "play")
        dealt = _letters(app)
        assert sorted(dealt.values()) == list("abcdefghijklm")
        for _ in range(2):
            await wait_for(pilot, model.my_turn, "our turn")
            assert model.view is not None
            played = hand_below(app, len(model.view.hand))
            await pilot.press(first_legal_key(app))
            await wait_for(pilot, played, "our card to be played")
        before = _letters(app)
        assert len(before) == 11 and before == {c: k for c, k in dealt.items() if c in before}
        assert sorted(before.values()) != list("abcdefghijk")  # two letters are gone
        await _quit(pilot, app)

    app = make_app(_launch(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ContinueGameScreen), "the offer")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ContinueGameScreen), "continue")
        await wait_for(pilot, lambda: bool(_letters(app)), "the hand")
        assert _letters(app) == before
        gone = next(k for k in dealt.values() if k not in before.values())
        await wait_for(pilot, app.model.my_turn, "our turn")
        await pilot.press(gone)
        assert f"No card on key {gone}." in screen_text(app)
        save_svg(app, "letters-after-restart-80x24")
        await _quit(pilot, app)


@pytest.mark.slow
async def test_bots_and_rules_given_with_a_kept_game_are_said_to_shape_a_new_one(
    tmp_path: Path,
) -> None:
    """`hearts play --bots hard --rules end_at=50` while a game is kept: the
    offer says those options only shape a new game, and n starts one with
    them (they are not silently dropped)."""
    import dataclasses

    from protocol.common import RulesModel

    app = make_app(_launch(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await _quit(pilot, app)

    given = dataclasses.replace(
        _launch(tmp_path),
        seats=("hard", "hard", "hard"),
        rules=RulesModel(end_at=50),
        new_game_options=("--bots", "--rules"),
    )
    app = make_app(given)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ContinueGameScreen), "the offer")
        await wait_for(pilot, lambda: "--bots --rules" in screen_text(app), "the options said")
        text = save_svg(app, "play-continue-options-80x24")
        assert "only a new game takes them" in text and "Press n" in text, text
        await pilot.press("n")
        model = app.model
        await wait_for(pilot, lambda: bool(model.view and model.view.hand_number), "the new game")
        view = model.view
        assert view is not None and view.rules.end_at == 50
        assert all(s.bot_level == "hard" for s in view.seats if s.seat != view.seat)
        await _quit(pilot, app)

"""The main screens, checked on what they render and saved as SVG under
test-artifacts/tui/: a trick lingering with its winner, the help, the
settings switching language, the score table, game over with a rematch,
and a larger terminal."""

from __future__ import annotations

from textual.widgets import RadioSet

from client.tui.pacing import Pacing
from client.tui.screens.dialogs import GameOverScreen, HelpScreen, SettingsScreen
from protocol.common import RulesModel
from server.app import RunningServer

from .conftest import (
    first_legal_key,
    make_app,
    pass_by_keys,
    play_to_game_over,
    quick,
    save_svg,
    screen_text,
    wait_for,
)


async def test_a_finished_trick_lingers_with_its_winner_highlighted(
    server: RunningServer,
) -> None:
    app = make_app(quick(server), pacing=Pacing(card=0.0, trick=60.0))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pass_by_keys(pilot, app)
        while not model.lingering():
            await wait_for(pilot, lambda: model.my_turn() or model.lingering(), "a trick")
            if model.my_turn():
                await pilot.press(first_legal_key(app))
                await wait_for(pilot, lambda: model.lingering() or not model.my_turn(), "our card")
        text = save_svg(app, "trick-lingers-80x24")
        assert "takes it (+" in text or "You take it (+" in text
        assert "★" in text  # the winning card carries a star, not only a colour
        assert len(model.trick) == 4
        await pilot.press("enter")  # Enter cuts the pause short
        await wait_for(pilot, lambda: not model.lingering(), "the next trick")
        view = model.view
        assert view is not None and len(view.tricks) == 1
        await pilot.press("t")
        assert model.side == "scores" and "No hand scored yet." in screen_text(app)
        await pilot.press("t")
        text = screen_text(app)
        assert "▸" in text and "★" in text and " 1 " in text  # the history's first line


async def test_help_lists_every_key(server: RunningServer) -> None:
    app = make_app(quick(server))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        text = save_svg(app, "help-80x24")
        for key in (
            "a … m",
            "Enter",
            "p H u C",
            "n",
            "t v",
            "/",
            "Esc",
            "o",
            "q",
            "? F1",
            "F2 F3",
            "Ctrl+Q",
        ):
            assert f" {key}  " in text, key
        assert "hatched ░" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "the table")


async def test_settings_switch_language_and_fast_play(server: RunningServer) -> None:
    app = make_app(quick(server))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "settings")
        save_svg(app, "settings-80x24")
        await pilot.click("#fast")
        assert app.settings.fast
        app.screen.query_one(RadioSet).focus()
        await pilot.press("down", "enter")  # English → Українська
        await wait_for(pilot, lambda: app.t.language == "uk", "Ukrainian")
        await wait_for(pilot, lambda: "Виберіть 3 карти" in screen_text(app), "the redraw")
        text = save_svg(app, "pass-uk-80x24")
        assert "♥ Чирви" in text and "передача ліворуч" in text and "← ліворуч" in text
        await pilot.press("a")
        await pilot.press("p")
        assert "✕ Виберіть 3 карти для передачі (вибрано 1)." in screen_text(app)


async def test_russian_table_in_a_larger_terminal(server: RunningServer) -> None:
    app = make_app(quick(server), language="ru")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pass_by_keys(pilot, app)
        await wait_for(
            pilot, lambda: app.model.my_turn() or bool(app.model.trick), "the first trick"
        )
        text = save_svg(app, "play-ru-120x40")
        assert "♥ Червы" in text and "← слева" in text and "→ справа" in text
        assert "↑ напротив" in text
        view = app.model.view
        assert view is not None and all(s.name in text for s in view.seats[1:])
        assert "карт: " in text


async def test_game_over_names_the_winner_and_offers_a_rematch(server: RunningServer) -> None:
    rules = RulesModel(end="hands", end_at=1)  # over after a hand (unless the lowest tie)
    app = make_app(quick(server, rules=rules))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await play_to_game_over(pilot, app)
        view = app.model.view
        assert view is not None and view.winner is not None and view.status == "game_over"
        await wait_for(pilot, lambda: "Game over" in screen_text(app), "the dialog drawn")
        text = save_svg(app, "game-over-80x24")
        assert "You win!" in text or " wins!" in text
        assert "Rematch" in text and " Σ " in text
        await pilot.press("r")
        await wait_for(
            pilot,
            lambda: bool(app.model.view and app.model.view.status == "playing"),
            "the rematch",
        )
        assert not isinstance(app.screen, GameOverScreen)
        assert app.model.view is not None and app.model.view.totals == (0, 0, 0, 0)


async def test_leaving_a_quick_game_kept_nowhere_says_it_ends(server: RunningServer) -> None:
    """A quick game whose seat no file keeps (a server of its own that
    keeps nothing): "Leave the table?" says the game ends, not that
    ``hearts resume`` brings us back."""
    app = make_app(quick(server))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pilot.press("q")
        await wait_for(pilot, lambda: "Leave the table?" in screen_text(app), "the question")
        text = screen_text(app)
        assert "This quick game ends when you leave." in text
        assert "hearts resume" not in text


async def test_leaving_after_game_over_talks_of_no_game_to_continue(
    server: RunningServer,
) -> None:
    """Once the game is over, "Leave the table?" says nothing is left to
    play: no game kept to continue, no seat to give up."""
    rules = RulesModel(end="hands", end_at=1)
    app = make_app(quick(server, rules=rules))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await play_to_game_over(pilot, app)
        await pilot.press("escape")  # look at the table
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen), "the table")
        await pilot.press("q")
        await wait_for(pilot, lambda: "Leave the table?" in screen_text(app), "the question")
        text = save_svg(app, "leave-after-game-over-80x24")
        assert "The game is over: nothing is left to play." in text
        assert "continue" not in text and "Give up my seat" not in text
        await pilot.press("n")
        await wait_for(pilot, lambda: "Leave the table?" not in screen_text(app), "stay")
